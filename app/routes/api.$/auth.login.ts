import { type ActionFunctionArgs } from "@remix-run/node";

import { loadUser, publicUser, requestContext, signIn } from "~/services/accounts.server";
import { assertMethod, handleApi, jsonObject, methodNotAllowed } from "~/services/api.server";
import { responseHeaders } from "~/services/session.server";

export async function action({ request, context }: ActionFunctionArgs) {
  assertMethod(request, ["POST"]);
  const ctx = requestContext(request, context);
  return handleApi(ctx, async () => {
    const body = await jsonObject(request, { email: "string", password: "string" });
    const session = await signIn(ctx, body);
    const user = await loadUser({ id: session.userId, email: session.email, emailVerified: true, createdAt: new Date() });
    return Response.json(
      { token: session.accessToken, expiresAt: session.expiresAt.toISOString(), user: publicUser(user) },
      { headers: responseHeaders(ctx) },
    );
  });
}

export const loader = methodNotAllowed(["POST"]);
