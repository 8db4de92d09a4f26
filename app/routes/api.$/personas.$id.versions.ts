// GET /api/personas/{id}/versions: the persona's history, newest first, paged like the list
// (page, pageSize 1–100, default 20; X-Total-Count / X-Page / X-Page-Count / X-Page-Size).
// Each entry: version, kind, label, restoredFrom, createdAt and a one-line summary.
import type { LoaderFunctionArgs } from "@remix-run/node";

import { HISTORY_PAGE_SIZE, HISTORY_PAGE_SIZE_MAX } from "~/domain/persona-history";
import { parsePositiveInt } from "~/domain/persona-list";
import { handleApi, methodNotAllowed } from "~/services/api.server";
import { listVersions } from "~/services/persona-history.server";
import { requireApiUser, responseHeaders } from "~/services/session.server";

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { user, ctx } = await requireApiUser(request, context);
  return handleApi(ctx, async () => {
    const query = new URL(request.url).searchParams;
    const page = await listVersions(user, params.id ?? "", {
      page: parsePositiveInt(query.get("page"), 1),
      pageSize: parsePositiveInt(query.get("pageSize"), HISTORY_PAGE_SIZE, HISTORY_PAGE_SIZE_MAX),
    });
    return Response.json(page.items, {
      headers: responseHeaders(ctx, {
        "Cache-Control": "private, no-store",
        "X-Total-Count": String(page.total),
        "X-Page": String(page.page),
        "X-Page-Count": String(page.pageCount),
        "X-Page-Size": String(page.pageSize),
      }),
    });
  });
}

export const action = methodNotAllowed(["GET"]);
