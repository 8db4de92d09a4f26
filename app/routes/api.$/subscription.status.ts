// GET /api/subscription/status (docs/product.md, API overview): { status, currentPeriodEnd, trialDaysLeft }.
import type { LoaderFunctionArgs } from "@remix-run/node";

import { methodNotAllowed } from "~/services/api.server";
import { subscriptionStatus } from "~/services/billing.server";
import { requireApiUser, responseHeaders } from "~/services/session.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user, ctx } = await requireApiUser(request, context);
  return Response.json(await subscriptionStatus(user), { headers: responseHeaders(ctx, { "Cache-Control": "private, no-store" }) });
}

export const action = methodNotAllowed(["GET"]);
