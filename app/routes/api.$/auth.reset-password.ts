// Sets a new password from the token of a reset link.
import type { ActionFunctionArgs } from "@remix-run/node";

import { requestContext, resetPassword } from "~/services/accounts.server";
import { assertMethod, handleApi, jsonObject, methodNotAllowed } from "~/services/api.server";

export async function action({ request, context }: ActionFunctionArgs) {
  assertMethod(request, ["POST"]);
  const ctx = requestContext(request, context);
  return handleApi(ctx, async () =>
    Response.json(await resetPassword(ctx, await jsonObject(request, { token: "string", password: "string" }))),
  );
}

export const loader = methodNotAllowed(["POST"]);
