// /api/personas: GET lists the user's personas (?status=active|in_progress|archived|all, absent:
// every one not archived; q, sort, page, pageSize as on /my-personas), answered as an array
// with the paging in X-Total-Count / X-Page / X-Page-Count / X-Page-Size. POST creates a
// persona from the wizard's values (201 with the persona).
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";

import { parseApiListQuery } from "~/domain/persona-list";
import { ApiError } from "~/services/api.server";
import { assertMethod, handleApi, jsonObject } from "~/services/api.server";
import { listPersonasAnswer } from "~/services/persona-library.server";
import { createPersona, MAX_PERSONA_BODY_BYTES, PERSONA_BODY } from "~/services/personas.server";
import { requireApiUser, responseHeaders } from "~/services/session.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user, ctx } = await requireApiUser(request, context);
  return handleApi(ctx, async () => {
    const { status, ...options } = parseApiListQuery(new URL(request.url).searchParams);
    if (!status) {
      throw new ApiError(400, "Unknown status. Use active, in_progress, archived or all.", { status: ["Invalid status"] });
    }
    const page = await listPersonasAnswer(user, { status, ...options });
    return new Response(page.json, {
      headers: responseHeaders(ctx, {
        "Content-Type": "application/json",
        "Cache-Control": "private, no-store",
        "X-Total-Count": String(page.total),
        "X-Page": String(page.page),
        "X-Page-Count": String(page.pageCount),
        "X-Page-Size": String(page.pageSize),
      }),
    });
  });
}

export async function action({ request, context }: ActionFunctionArgs) {
  assertMethod(request, ["GET", "POST"]);
  const { user, ctx } = await requireApiUser(request, context);
  return handleApi(ctx, async () => {
    const persona = await createPersona(user, await jsonObject(request, PERSONA_BODY, MAX_PERSONA_BODY_BYTES));
    return Response.json(persona, { status: 201, headers: responseHeaders(ctx) });
  });
}
