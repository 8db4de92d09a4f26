// POST /api/webhooks/stripe: Stripe's signed events. The raw bytes are verified (signature
// and timestamp tolerance) before anything is read; see handleStripeWebhook for the rest.
// Stripe sends no cookies, so the cross-site rule does not apply; the signature is the check.
import type { ActionFunctionArgs } from "@remix-run/node";

import { readLimitedBody } from "~/infra/web/http.server";
import { assertMethod, handleApi, methodNotAllowed } from "~/services/api.server";
import { handleStripeWebhook, MAX_WEBHOOK_BYTES } from "~/services/billing.server";

export async function action({ request }: ActionFunctionArgs) {
  assertMethod(request, ["POST"]);
  return handleApi(undefined, async () => {
    const raw = await readLimitedBody(request, MAX_WEBHOOK_BYTES);
    const { outcome, eventId } = await handleStripeWebhook(raw, request.headers.get("stripe-signature"));
    return Response.json({ received: true, id: eventId, outcome }, { headers: { "Cache-Control": "no-store" } });
  });
}

export const loader = methodNotAllowed(["POST"]);
