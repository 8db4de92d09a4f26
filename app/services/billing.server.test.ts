// Subscription and payments on a real database, with the real `stripe` package talking HTTP to
// the fake Stripe API (tests/support/fake-stripe.ts). Webhooks are signed by the SDK's own
// test-header helper and verified by the app's code, as Stripe's would be.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), "pf-billing-"));
process.env.APP_URL = "http://app.test";

const { createCreator, installTestDatabase } = await import("../../tests/support/test-database");
const { startFakeStripe } = await import("../../tests/support/fake-stripe");
const { closeDatabase, withServiceRole } = await import("~/infra/db/db.server");
const { createStripeBilling, useBilling } = await import("~/infra/payments/payments.server");
const { profiles, stripeEvents } = await import("~/infra/db/schema.server");
const billing = await import("./billing.server");
const personasService = await import("./personas.server");
const library = await import("./persona-library.server");
const { default: Stripe } = await import("stripe");

type Fake = Awaited<ReturnType<typeof startFakeStripe>>;
let handle: Awaited<ReturnType<typeof installTestDatabase>>;
let fake: Fake;

const configure = (trialDays = 0) =>
  useBilling(
    createStripeBilling({
      STRIPE_SECRET_KEY: fake.apiKey,
      STRIPE_WEBHOOK_SECRET: fake.webhookSecret,
      STRIPE_PRICE_ID: fake.priceId,
      STRIPE_API_URL: fake.url,
      STRIPE_TRIAL_DAYS: trialDays,
    }),
  );

beforeAll(async () => {
  handle = await installTestDatabase();
  fake = await startFakeStripe();
});
beforeEach(() => {
  fake.reset();
  configure();
});
afterAll(async () => {
  useBilling(undefined);
  await fake.close();
  await closeDatabase();
});

const newUser = (plan = "free") => createCreator(handle, plan, { first: "Ada", last: "Lovelace" });

async function profileOf(id: string) {
  const [row] = await withServiceRole("test: read a profile", (tx) => tx.select().from(profiles).where(eq(profiles.id, id)));
  return row;
}

/** The creator as the next request sees them (plan read fresh from the profile). */
async function fresh(user: { id: string; email: string }) {
  const [row] = await withServiceRole("test: read a plan", (tx) =>
    tx.select({ status: profiles.subscriptionStatus }).from(profiles).where(eq(profiles.id, user.id)),
  );
  return { ...(user as Awaited<ReturnType<typeof newUser>>), subscriptionStatus: row.status };
}

/** Signs an event as Stripe would and hands the raw bytes to the webhook handler. */
function webhook(type: string, object: Record<string, unknown>, options?: Parameters<Fake["signedEvent"]>[2]) {
  const event = fake.signedEvent(type, object, options);
  return { event, run: () => billing.handleStripeWebhook(new TextEncoder().encode(event.payload), event.header) };
}

const complete = (name: string) => ({
  name,
  type: "vtuber",
  gender: "female",
  ageRange: "18-24",
  interests: ["gaming"],
  description: "A streamer.",
  personality: ["Outgoing"],
});

/** Checkout as the creator would go through it: a session, then Stripe's events. */
async function subscribe(user: Awaited<ReturnType<typeof newUser>>, trialDays = 0) {
  await billing.startCheckout(user);
  const customer = (await profileOf(user.id)).stripeCustomerId!;
  const subscription = fake.createSubscription({ customer, userId: user.id, trialDays });
  const { run } = webhook("checkout.session.completed", {
    id: "cs_test_1",
    object: "checkout.session",
    mode: "subscription",
    customer,
    client_reference_id: user.id,
    subscription: subscription.id,
  });
  expect((await run()).outcome).toBe("applied");
  return { customer, subscription };
}

describe("without Stripe keys", () => {
  it("says payments are not configured (503) and changes nothing", async () => {
    useBilling(null);
    const user = await newUser();
    expect(billing.billingConfigured()).toBe(false);
    const notConfigured = { status: 503, message: "Payments are not configured on this server." };
    await expect(billing.startCheckout(user)).rejects.toMatchObject(notConfigured);
    await expect(billing.openPortal(user)).rejects.toMatchObject(notConfigured);
    await expect(billing.handleStripeWebhook(new Uint8Array(), "t=1,v1=x")).rejects.toMatchObject(notConfigured);
    expect(await billing.subscriptionStatus(user)).toEqual({ status: "free", currentPeriodEnd: null, trialDaysLeft: 0 });
    expect(fake.requests).toHaveLength(0);
  });
});

describe("checkout and portal", () => {
  it("creates the customer once, stores it, and opens Checkout in subscription mode for the price", async () => {
    const user = await newUser();
    const { url, to } = await billing.startCheckout(user);
    expect(to).toBe("checkout");
    expect(url).toMatch(new RegExp(`^${fake.url}/c/pay/cs_test_`));
    const customer = (await profileOf(user.id)).stripeCustomerId;
    expect(customer).toMatch(/^cus_/);
    expect(fake.customers.get(customer!)).toMatchObject({ email: user.email, name: "Ada Lovelace", metadata: { user_id: user.id } });
    const session = fake.requests.find((r) => r.path === "/v1/checkout/sessions")!;
    expect(session.headers.authorization).toBe(`Bearer ${fake.apiKey}`);
    expect(session.params).toMatchObject({
      mode: "subscription",
      customer,
      client_reference_id: user.id,
      "line_items[0][price]": fake.priceId,
      "line_items[0][quantity]": "1",
      success_url: "http://app.test/subscription?checkout=success",
      cancel_url: "http://app.test/subscription?checkout=cancelled",
      "subscription_data[metadata][user_id]": user.id,
    });
    expect(session.params["subscription_data[trial_period_days]"]).toBeUndefined();

    // Again: the stored customer is reused; no second customer.
    await billing.startCheckout(user);
    expect(fake.requests.filter((r) => r.path === "/v1/customers")).toHaveLength(1);
    expect(fake.requests.filter((r) => r.path === "/v1/checkout/sessions")).toHaveLength(2);
  });

  it("replaces a stored customer Stripe no longer knows (deleted, or made with the other mode's keys)", async () => {
    const user = await newUser();
    await billing.startCheckout(user);
    const old = (await profileOf(user.id)).stripeCustomerId!;
    fake.customers.delete(old);
    const { url } = await billing.startCheckout(user);
    expect(url).toMatch(/\/c\/pay\/cs_test_/);
    const replaced = (await profileOf(user.id)).stripeCustomerId!;
    expect(replaced).toMatch(/^cus_/);
    expect(replaced).not.toBe(old);
    expect(fake.customers.has(replaced)).toBe(true);
  });

  it("adds STRIPE_TRIAL_DAYS to Checkout", async () => {
    configure(14);
    const user = await newUser();
    await billing.startCheckout(user);
    expect(fake.requests.find((r) => r.path === "/v1/checkout/sessions")!.params["subscription_data[trial_period_days]"]).toBe("14");
  });

  it("sends a Premium creator to the portal instead of Checkout", async () => {
    const user = await newUser();
    await subscribe(user);
    const { url, to } = await billing.startCheckout(await fresh(user));
    expect(to).toBe("portal");
    expect(url).toMatch(new RegExp(`^${fake.url}/p/session/bps_`));
    const portal = fake.requests.find((r) => r.path === "/v1/billing_portal/sessions")!;
    expect(portal.params.return_url).toBe("http://app.test/subscription?checkout=portal");
  });

  it("the portal needs a Stripe customer: 409 'No subscription to manage yet'", async () => {
    const user = await newUser();
    await expect(billing.openPortal(user)).rejects.toMatchObject({ status: 409, message: "No subscription to manage yet" });
  });

  it("Stripe refusing or failing becomes the failure toast's text (502), never a crash", async () => {
    const user = await newUser();
    fake.failNext({ path: "/v1/customers", status: 400, message: "Invalid email address" });
    await expect(billing.startCheckout(user)).rejects.toMatchObject({
      status: 502,
      message: "Failed to initiate subscription process. Please try again.",
    });
    fake.failNext({ path: "/v1/checkout/sessions", status: 500 });
    fake.failNext({ path: "/v1/checkout/sessions", status: 500 });
    await expect(billing.startCheckout(user)).rejects.toMatchObject({ status: 502 });
    await billing.startCheckout(user); // customer stored by now
    fake.failNext({ path: "/v1/billing_portal/sessions", status: 400, message: "No configuration provided" });
    await expect(billing.openPortal(user)).rejects.toMatchObject({
      status: 502,
      message: "Failed to access subscription management. Please try again.",
    });
  });

  it("a wrong API key is a failure toast too", async () => {
    useBilling(
      createStripeBilling({
        STRIPE_SECRET_KEY: "sk_test_wrong",
        STRIPE_WEBHOOK_SECRET: fake.webhookSecret,
        STRIPE_PRICE_ID: fake.priceId,
        STRIPE_API_URL: fake.url,
        STRIPE_TRIAL_DAYS: 0,
      }),
    );
    await expect(billing.startCheckout(await newUser())).rejects.toMatchObject({ status: 502 });
  });

  it("a Stripe that hangs gives the failure within 10 s", async () => {
    const user = await newUser();
    for (let i = 0; i < 4; i++) fake.failNext({ path: "/v1/customers", delayMs: 20_000, status: 500 });
    const started = Date.now();
    await expect(billing.startCheckout(user)).rejects.toMatchObject({ status: 502 });
    expect(Date.now() - started).toBeLessThan(10_000);
  }, 20_000);
});

describe("webhooks", () => {
  it("a completed Checkout makes the creator Premium: no limit at 10, the stats and status follow at once", async () => {
    const user = await newUser();
    for (let i = 0; i < 10; i++) await personasService.createPersona(user, complete(`Persona ${i}`));
    expect(await personasService.usage(await fresh(user))).toEqual({ subscriptionStatus: "free", canCreateMore: false });
    await expect(personasService.createPersona(await fresh(user), complete("Eleven"))).rejects.toMatchObject({ status: 403 });

    const { subscription, customer } = await subscribe(user);
    const profile = await profileOf(user.id);
    expect(profile).toMatchObject({ subscriptionStatus: "active", stripeCustomerId: customer, stripeSubscriptionId: subscription.id });
    const periodEnd = (subscription.items as { data: { current_period_end: number }[] }).data[0].current_period_end;
    expect(profile.subscriptionExpiresAt?.getTime()).toBe(periodEnd * 1000);

    const premium = await fresh(user);
    expect(await personasService.usage(premium)).toEqual({ subscriptionStatus: "active", canCreateMore: true });
    await personasService.createPersona(premium, complete("Eleven"));
    expect(await billing.subscriptionStatus(premium)).toEqual({
      status: "active",
      currentPeriodEnd: new Date(periodEnd * 1000).toISOString(),
      trialDaysLeft: 0,
    });
  });

  it("a trial is Premium with its days counting down (stats and status)", async () => {
    const user = await newUser();
    await subscribe(user, 7);
    const profile = await profileOf(user.id);
    expect(profile.subscriptionStatus).toBe("active");
    expect(profile.trialEndsAt).not.toBeNull();
    const premium = await fresh(user);
    expect((await billing.subscriptionStatus(premium)).trialDaysLeft).toBe(7);
    expect((await library.personaStats(premium)).trialDaysLeft).toBe(7);
  });

  it("refuses a bad or missing signature and a stale timestamp (400), changing nothing", async () => {
    const user = await newUser();
    await billing.startCheckout(user);
    const customer = (await profileOf(user.id)).stripeCustomerId!;
    const subscription = fake.createSubscription({ customer, userId: user.id });
    const object = { ...subscription };
    const forged = webhook("customer.subscription.created", object, { secret: "whsec_not_ours" });
    await expect(forged.run()).rejects.toMatchObject({ status: 400, code: "invalid_signature" });
    const stale = webhook("customer.subscription.created", object, { timestamp: Math.floor(Date.now() / 1000) - 600 });
    await expect(stale.run()).rejects.toMatchObject({ status: 400, code: "invalid_signature" });
    const good = fake.signedEvent("customer.subscription.created", object);
    await expect(billing.handleStripeWebhook(new TextEncoder().encode(good.payload), null)).rejects.toMatchObject({ status: 400 });
    // The payload changed after signing.
    const tampered = good.payload.replace(customer, "cus_someone_else");
    await expect(billing.handleStripeWebhook(new TextEncoder().encode(tampered), good.header)).rejects.toMatchObject({ status: 400 });
    // Correctly signed, but no JSON event, or no body at all.
    for (const payload of ["", "not json", "[1,2]"]) {
      const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: fake.webhookSecret });
      await expect(billing.handleStripeWebhook(new TextEncoder().encode(payload), header)).rejects.toMatchObject({ status: 400 });
    }
    expect((await profileOf(user.id)).subscriptionStatus).toBe("free");
    const events = await withServiceRole("test: count events", (tx) => tx.select().from(stripeEvents));
    expect(events.filter((e) => [forged.event.id, stale.event.id, good.id].includes(e.id))).toHaveLength(0);
  });

  it("a replayed event is a no-op (200), even if Stripe's state moved on since", async () => {
    const user = await newUser();
    const { subscription } = await subscribe(user);
    const update = webhook("customer.subscription.updated", subscription);
    expect((await update.run()).outcome).toBe("applied");
    fake.updateSubscription(String(subscription.id), { status: "past_due" });
    expect((await update.run()).outcome).toBe("duplicate");
    expect((await profileOf(user.id)).subscriptionStatus).toBe("active");
  });

  it("is order-proof: 'deleted' delivered before 'updated' leaves the creator Free", async () => {
    const user = await newUser();
    const { subscription } = await subscribe(user);
    const updated = webhook("customer.subscription.updated", { ...subscription, cancel_at_period_end: true });
    const canceled = fake.updateSubscription(String(subscription.id), { status: "canceled", ended_at: Math.floor(Date.now() / 1000) });
    const deleted = webhook("customer.subscription.deleted", canceled);
    expect((await deleted.run()).outcome).toBe("applied");
    expect((await profileOf(user.id)).subscriptionStatus).toBe("canceled");
    // The older 'updated' (still saying active) arrives late: Stripe is asked, and says canceled.
    expect((await updated.run()).outcome).toBe("applied");
    const profile = await profileOf(user.id);
    expect(profile.subscriptionStatus).toBe("canceled");
    expect((await personasService.usage(await fresh(user))).canCreateMore).toBe(true);
  });

  it("after a downgrade every persona stays usable and only creation waits below 10", async () => {
    const user = await newUser();
    const { subscription } = await subscribe(user);
    const premium = await fresh(user);
    const made = [];
    for (let i = 0; i < 11; i++) made.push(await personasService.createPersona(premium, complete(`Persona ${i}`)));
    const canceled = fake.updateSubscription(String(subscription.id), { status: "canceled" });
    expect((await webhook("customer.subscription.deleted", canceled).run()).outcome).toBe("applied");
    const free = await fresh(user);
    expect(free.subscriptionStatus).toBe("canceled");
    for (const persona of made) expect((await personasService.getPersona(free, persona.id)).id).toBe(persona.id);
    await library.archivePersona(free, made[0].id);
    expect(await personasService.usage(free)).toEqual({ subscriptionStatus: "canceled", canCreateMore: false });
    await expect(personasService.createPersona(free, complete("Twelve"))).rejects.toMatchObject({
      status: 403,
      code: "persona_limit_reached",
    });
  });

  it("a failed payment (past_due) ends Premium; a paid invoice brings it back", async () => {
    const user = await newUser();
    const { subscription } = await subscribe(user);
    const invoice = (status: string) => ({
      id: `in_${status}`,
      object: "invoice",
      customer: subscription.customer,
      parent: { type: "subscription_details", subscription_details: { subscription: subscription.id } },
    });
    fake.updateSubscription(String(subscription.id), { status: "past_due" });
    expect((await webhook("invoice.payment_failed", invoice("open")).run()).outcome).toBe("applied");
    expect((await profileOf(user.id)).subscriptionStatus).toBe("past_due");
    fake.updateSubscription(String(subscription.id), { status: "active" });
    expect((await webhook("invoice.paid", invoice("paid")).run()).outcome).toBe("applied");
    expect((await profileOf(user.id)).subscriptionStatus).toBe("active");
  });

  it("an old subscription's late news does not end a newer one", async () => {
    const user = await newUser();
    const { subscription: first, customer } = await subscribe(user);
    const firstEnded = fake.updateSubscription(String(first.id), { status: "canceled" });
    await webhook("customer.subscription.deleted", firstEnded).run();
    const second = fake.createSubscription({ customer, userId: user.id });
    expect((await webhook("customer.subscription.created", second).run()).outcome).toBe("applied");
    expect((await webhook("customer.subscription.updated", firstEnded).run()).outcome).toBe("stale_subscription");
    expect(await profileOf(user.id)).toMatchObject({ subscriptionStatus: "active", stripeSubscriptionId: second.id });
  });

  it("ignores unknown event types and events about nobody we know (200, nothing changed)", async () => {
    const user = await newUser();
    expect((await webhook("customer.created", { id: "cus_x", object: "customer" }).run()).outcome).toBe("ignored");
    const stranger = fake.createSubscription({ customer: "cus_stranger" });
    expect((await webhook("customer.subscription.updated", stranger).run()).outcome).toBe("unknown_customer");
    expect((await profileOf(user.id)).subscriptionStatus).toBe("free");
  });

  it("Stripe unreachable while the subscription is read: 502 and the event is not recorded (Stripe delivers it again)", async () => {
    const user = await newUser();
    await billing.startCheckout(user);
    const customer = (await profileOf(user.id)).stripeCustomerId!;
    const subscription = fake.createSubscription({ customer, userId: user.id });
    const created = webhook("customer.subscription.created", subscription);
    fake.failNext({ path: `/v1/subscriptions/${subscription.id}`, status: 500 });
    fake.failNext({ path: `/v1/subscriptions/${subscription.id}`, status: 500 });
    await expect(created.run()).rejects.toMatchObject({ status: 502 });
    expect((await profileOf(user.id)).subscriptionStatus).toBe("free");
    expect((await created.run()).outcome).toBe("applied");
    expect((await profileOf(user.id)).subscriptionStatus).toBe("active");
  });
});

describe("the operator's plan command", () => {
  it("sets Premium and Free by e-mail and says what changed", async () => {
    const user = await newUser();
    expect(await billing.setPlanByHand(user.email.toUpperCase(), "premium")).toMatchObject({
      userId: user.id,
      before: "free",
      after: "active",
    });
    expect((await personasService.usage(await fresh(user))).canCreateMore).toBe(true);
    expect(await billing.setPlanByHand(user.email, "free")).toMatchObject({ before: "active", after: "free" });
    expect(await billing.setPlanByHand("nobody@example.test", "premium")).toBeNull();
  });
});
