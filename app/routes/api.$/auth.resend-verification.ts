import type { ActionFunctionArgs } from "@remix-run/node";

import { requestContext, resendVerification } from "~/services/accounts.server";
import { assertMethod, handleApi, jsonObject, methodNotAllowed } from "~/services/api.server";

export async function action({ request, context }: ActionFunctionArgs) {
  assertMethod(request, ["POST"]);
  const ctx = requestContext(request, context);
  return handleApi(ctx, async () => Response.json(await resendVerification(ctx, await jsonObject(request, { email: "string" }))));
}

export const loader = methodNotAllowed(["POST"]);
