// GET /api/personas/{id}/card-check (docs/api.md, Card check): the findings for the card this
// persona exports — { version, findings: [{ rule, severity, field, targets, message, fix? }],
// imported } — where `imported` is what the file it came from had that the export writes right.
// Another creator's persona answers 404 like an unknown one.
import type { LoaderFunctionArgs } from "@remix-run/node";

import { handleApi, methodNotAllowed } from "~/services/api.server";
import { cardCheck } from "~/services/card-check.server";
import { requireApiUser, responseHeaders } from "~/services/session.server";

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { user, ctx } = await requireApiUser(request, context);
  return handleApi(ctx, async () =>
    Response.json(await cardCheck(user, params.id ?? ""), { headers: responseHeaders(ctx, { "Cache-Control": "private, no-store" }) }),
  );
}

export const action = methodNotAllowed(["GET"]);
