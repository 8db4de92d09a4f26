import { type ActionFunctionArgs } from "@remix-run/node";

import { signOut } from "~/services/accounts.server";
import { assertMethod, handleApi, methodNotAllowed } from "~/services/api.server";
import { requireApiUser, responseHeaders } from "~/services/session.server";
import { destroySessionCookie } from "~/infra/web/session-cookie.server";

export async function action({ request, context }: ActionFunctionArgs) {
  assertMethod(request, ["POST"]);
  const { user, ctx } = await requireApiUser(request, context);
  return handleApi(ctx, async () => {
    await signOut(ctx, user);
    const headers = responseHeaders(ctx);
    headers.append("Set-Cookie", await destroySessionCookie());
    return Response.json({ message: "Signed out." }, { headers });
  });
}

export const loader = methodNotAllowed(["POST"]);
