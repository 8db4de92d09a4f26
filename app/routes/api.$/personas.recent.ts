// GET /api/personas/recent: the dashboard's latest personas (not archived), newest first.
import type { LoaderFunctionArgs } from "@remix-run/node";

import { recentPersonas } from "~/services/persona-library.server";
import { requireApiUser, responseHeaders } from "~/services/session.server";
import { methodNotAllowed } from "~/services/api.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user, ctx } = await requireApiUser(request, context);
  return Response.json(await recentPersonas(user), { headers: responseHeaders(ctx, { "Cache-Control": "private, no-store" }) });
}

export const action = methodNotAllowed(["GET"]);
