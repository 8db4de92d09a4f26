// The subscription calls at their HTTP boundary (no browser, so they run once): sign-in,
// methods and bodies of the checkout, portal and status calls, and the Stripe webhook's
// refusal of anything Stripe did not sign.
import { randomUUID } from "node:crypto";

import Stripe from "stripe";

import { e2eStripe } from "../support/e2e-stripe";

import { createAccount, expect, test } from "./support";

test.describe("the subscription API", () => {
  test("signed out 401, portal without a customer 409, status, methods, bodies", async ({ request, baseURL }) => {
    expect((await request.post("/api/create-checkout-session")).status()).toBe(401);
    expect((await request.post("/api/create-customer-portal-session")).status()).toBe(401);
    expect((await request.get("/api/subscription/status")).status()).toBe(401);

    const account = await createAccount(request);
    const auth = { Authorization: `Bearer ${account.token}` };
    const portal = await request.post("/api/create-customer-portal-session", { headers: auth });
    expect(portal.status()).toBe(409);
    expect(await portal.json()).toMatchObject({ message: "No subscription to manage yet" });
    expect(await (await request.get("/api/subscription/status", { headers: auth })).json()).toEqual({
      status: "free",
      currentPeriodEnd: null,
      trialDaysLeft: 0,
    });

    const checkout = await request.post("/api/create-checkout-session", { headers: { ...auth, Origin: baseURL! } });
    expect(checkout.status()).toBe(200);
    expect((await checkout.json()).url).toMatch(new RegExp(`^${e2eStripe.STRIPE_API_URL}/c/pay/cs_test_`));
    const withFields = await request.post("/api/create-checkout-session", { headers: auth, data: { priceId: "price_cheaper" } });
    expect(withFields.status()).toBe(400);
    expect((await request.post("/api/create-checkout-session", { headers: auth, data: {} })).status()).toBe(200);

    const get = await request.get("/api/create-checkout-session", { headers: auth });
    expect(get.status()).toBe(405);
    expect(get.headers().allow).toBe("POST");
    expect((await request.post("/api/subscription/status", { headers: auth })).headers().allow).toBe("GET");
    expect((await request.get("/api/webhooks/stripe")).headers().allow).toBe("POST");
  });

  test("the webhook refuses what Stripe did not sign, and ignores what it does not handle", async ({ request }) => {
    const noSignature = await request.post("/api/webhooks/stripe", { data: { id: "evt_1", type: "customer.subscription.updated" } });
    expect(noSignature.status()).toBe(400);
    const forged = await request.post("/api/webhooks/stripe", {
      headers: { "Stripe-Signature": `t=${Math.floor(Date.now() / 1000)},v1=${"0".repeat(64)}` },
      data: { id: "evt_1", type: "customer.subscription.updated" },
    });
    expect(forged.status()).toBe(400);
    expect(await forged.json()).toMatchObject({ message: expect.stringContaining("signature") });
    const empty = await request.post("/api/webhooks/stripe", { headers: { "Stripe-Signature": "t=1,v1=00" } });
    expect(empty.status()).toBe(400);

    // Signed as Stripe signs: a type we do not handle, and news of a subscription nobody here has.
    const signed = (type: string, object: Record<string, unknown>) => {
      const payload = JSON.stringify({
        id: `evt_${randomUUID().replace(/-/g, "")}`,
        object: "event",
        type,
        created: Math.floor(Date.now() / 1000),
        data: { object },
      });
      return { payload, header: Stripe.webhooks.generateTestHeaderString({ payload, secret: e2eStripe.STRIPE_WEBHOOK_SECRET }) };
    };
    for (const [type, object, outcome] of [
      ["customer.created", { id: "cus_unknown", object: "customer" }, "ignored"],
      [
        "customer.subscription.updated",
        { id: "sub_nobody", object: "subscription", customer: "cus_nobody", status: "active" },
        "unknown_customer",
      ],
    ] as const) {
      const event = signed(type, object);
      const res = await request.post("/api/webhooks/stripe", {
        headers: { "Stripe-Signature": event.header, "Content-Type": "application/json" },
        data: event.payload,
      });
      expect(res.status()).toBe(200);
      expect(await res.json()).toMatchObject({ received: true, outcome });
    }
  });
});
