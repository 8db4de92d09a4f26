// PATCH /api/personas/{id}/status: { "status": "archived" } archives; { "status": "restored" }
// brings an archived persona back to the status it had before.
import type { ActionFunctionArgs } from "@remix-run/node";

import { assertMethod, handleApi, jsonObject, methodNotAllowed } from "~/services/api.server";
import { changeStatus } from "~/services/persona-library.server";
import { requireApiUser, responseHeaders } from "~/services/session.server";

export async function action({ request, params, context }: ActionFunctionArgs) {
  assertMethod(request, ["PATCH"]);
  const { user, ctx } = await requireApiUser(request, context);
  return handleApi(ctx, async () => {
    const { status } = await jsonObject(request, { status: "string" });
    return Response.json(await changeStatus(user, params.id ?? "", status), { headers: responseHeaders(ctx) });
  });
}

export const loader = methodNotAllowed(["PATCH"]);
