// POST /api/create-checkout-session (docs/product.md, API overview): { url } of a Stripe Checkout Session for
// Premium; the browser navigates to it. A creator already on Premium gets the portal's URL.
// 503 when payments are not configured here, 502 with the failure toast's text when Stripe fails.
import type { ActionFunctionArgs } from "@remix-run/node";

import { assertMethod, emptyBody, handleApi, methodNotAllowed } from "~/services/api.server";
import { startCheckout } from "~/services/billing.server";
import { requireApiUser, responseHeaders } from "~/services/session.server";

export async function action({ request, context }: ActionFunctionArgs) {
  assertMethod(request, ["POST"]);
  const { user, ctx } = await requireApiUser(request, context);
  return handleApi(ctx, async () => {
    await emptyBody(request);
    const { url } = await startCheckout(user);
    return Response.json({ url }, { headers: responseHeaders(ctx, { "Cache-Control": "private, no-store" }) });
  });
}

export const loader = methodNotAllowed(["POST"]);
