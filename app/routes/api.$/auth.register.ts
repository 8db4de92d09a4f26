import { type ActionFunctionArgs } from "@remix-run/node";

import { register, requestContext } from "~/services/accounts.server";
import { assertMethod, handleApi, jsonObject, methodNotAllowed } from "~/services/api.server";

export async function action({ request, context }: ActionFunctionArgs) {
  assertMethod(request, ["POST"]);
  const ctx = requestContext(request, context);
  return handleApi(ctx, async () => {
    const body = await jsonObject(request, { firstName: "string", lastName: "string", email: "string", password: "string" });
    return Response.json(await register(ctx, body), { status: 201 });
  });
}

export const loader = methodNotAllowed(["POST"]);
