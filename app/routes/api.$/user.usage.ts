// GET /api/user/usage: { subscriptionStatus, canCreateMore } for the create gate.
import type { LoaderFunctionArgs } from "@remix-run/node";

import { usage } from "~/services/personas.server";
import { requireApiUser, responseHeaders } from "~/services/session.server";
import { methodNotAllowed } from "~/services/api.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user, ctx } = await requireApiUser(request, context);
  return Response.json(await usage(user), { headers: responseHeaders(ctx, { "Cache-Control": "private, no-store" }) });
}

export const action = methodNotAllowed(["GET"]);
