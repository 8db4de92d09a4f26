import { type ActionFunctionArgs } from "@remix-run/node";

import { register, requestContext } from "~/services/accounts.server";
import { assertMethod, handleApi, jsonObject, methodNotAllowedLoader } from "~/services/api.server";

export async function action({ request, context }: ActionFunctionArgs) {
  assertMethod(request, ["POST"]);
  const ctx = requestContext(request, context);
  return handleApi(ctx, async () => {
    const body = await jsonObject(request, ["firstName", "lastName", "email", "password"]);
    return Response.json(await register(ctx, body), { status: 201 });
  });
}

export const loader = methodNotAllowedLoader(["POST"]);
