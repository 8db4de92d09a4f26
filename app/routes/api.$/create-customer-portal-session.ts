// POST /api/create-customer-portal-session (docs/product.md, API overview): { url } of a Stripe Customer Portal
// session (manage, cancel, invoices); the browser navigates to it. 409 'No subscription to
// manage yet' without a Stripe customer, 503 when payments are not configured here.
import type { ActionFunctionArgs } from "@remix-run/node";

import { assertMethod, emptyBody, handleApi, methodNotAllowed } from "~/services/api.server";
import { openPortal } from "~/services/billing.server";
import { requireApiUser, responseHeaders } from "~/services/session.server";

export async function action({ request, context }: ActionFunctionArgs) {
  assertMethod(request, ["POST"]);
  const { user, ctx } = await requireApiUser(request, context);
  return handleApi(ctx, async () => {
    await emptyBody(request);
    const { url } = await openPortal(user);
    return Response.json({ url }, { headers: responseHeaders(ctx, { "Cache-Control": "private, no-store" }) });
  });
}

export const loader = methodNotAllowed(["POST"]);
