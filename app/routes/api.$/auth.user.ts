import { type LoaderFunctionArgs } from "@remix-run/node";

import { publicUser } from "~/services/accounts.server";
import { requireApiUser, responseHeaders } from "~/services/session.server";
import { methodNotAllowed } from "~/services/api.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user, ctx } = await requireApiUser(request, context);
  return Response.json(publicUser(user), { headers: responseHeaders(ctx, { "Cache-Control": "private, no-store" }) });
}

export const action = methodNotAllowed(["GET"]);
