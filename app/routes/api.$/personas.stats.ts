// GET /api/personas/stats: { activePersonas, generatedContent, subscriptionStatus, trialDaysLeft }.
import type { LoaderFunctionArgs } from "@remix-run/node";

import { personaStats } from "~/services/persona-library.server";
import { requireApiUser, responseHeaders } from "~/services/session.server";
import { methodNotAllowed } from "~/services/api.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user, ctx } = await requireApiUser(request, context);
  const { activePersonas, generatedContent, subscriptionStatus, trialDaysLeft } = await personaStats(user);
  return Response.json(
    { activePersonas, generatedContent, subscriptionStatus, trialDaysLeft },
    { headers: responseHeaders(ctx, { "Cache-Control": "private, no-store" }) },
  );
}

export const action = methodNotAllowed(["GET"]);
