// Asks for a password reset link. The answer is the same
// whether or not the address has an account.
import type { ActionFunctionArgs } from "@remix-run/node";

import { requestContext, requestPasswordReset } from "~/services/accounts.server";
import { assertMethod, handleApi, jsonObject, methodNotAllowed } from "~/services/api.server";

export async function action({ request, context }: ActionFunctionArgs) {
  assertMethod(request, ["POST"]);
  const ctx = requestContext(request, context);
  return handleApi(ctx, async () => Response.json(await requestPasswordReset(ctx, await jsonObject(request, { email: "string" }))));
}

export const loader = methodNotAllowed(["POST"]);
