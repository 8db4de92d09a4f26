// The subscription journey (issue 12), with JavaScript and without: a Free creator at 10
// personas meets the limit, upgrades through (the test double of) Stripe Checkout, comes back
// to a toast and Premium, creates an 11th persona; then cancels in the portal, is Free again,
// and every persona still opens. The fake Stripe (tests/support/fake-stripe.ts, started by the
// Playwright config) delivers signed webhooks to the app, which alone changes the plan.
import { randomUUID } from "node:crypto";

import type { Page } from "@playwright/test";
import Stripe from "stripe";

import { e2eStripe } from "../support/e2e-stripe";

import { createAccount, expect, expectNoA11yViolations, signIn, test, visit } from "./support";

const toast = (page: Page) => page.getByTestId("toast").last();
const currentPlan = (page: Page) => page.getByTestId("current-plan");

test("Free at 10 → limit → Upgrade → Checkout → Premium → an 11th persona; portal → cancel → Free, all 11 still open", async ({
  page,
  request,
  jsEnabled,
}) => {
  test.setTimeout(90_000);
  const account = await createAccount(request);
  const auth = { Authorization: `Bearer ${account.token}` };
  const ids: string[] = [];
  for (let i = 0; i < 10; i++) {
    const res = await request.post("/api/personas/draft", { headers: auth, data: { name: `Draft ${i + 1}` } });
    expect(res.status()).toBe(201);
    ids.push(((await res.json()) as { id: string }).id);
  }
  await signIn(page, account);

  // The limit, and its 'Upgrade to Premium' leads to the subscription page.
  await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Create New Persona" }).click();
  const limit = jsEnabled ? page.getByRole("dialog", { name: "Free Plan Limit Reached" }) : page.getByTestId("limit-page");
  await limit.getByRole("link", { name: "Upgrade to Premium" }).click();
  await expect(page).toHaveURL(/\/subscription$/);
  if (jsEnabled) await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await expect(page.getByRole("heading", { level: 1, name: "Subscription" })).toBeVisible();
  await expect(page.getByTestId("current-plan-name")).toHaveText("Free Plan");
  await expect(currentPlan(page)).toContainText("Limited features");
  await expect(page.getByText("$9.99", { exact: true })).toBeVisible();
  await expect(page.getByText("May be limited by traffic", { exact: true })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Frequently asked questions" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Frequently asked questions" }).locator("summary")).toHaveCount(6);
  await expectNoA11yViolations(page);

  // Upgrade: to Checkout (on the fake Stripe), pay, and back with a toast.
  await currentPlan(page).getByRole("button", { name: "Upgrade to Premium" }).click();
  await expect(page).toHaveURL(new RegExp(`^${e2eStripe.STRIPE_API_URL}/c/pay/cs_test_`));
  await page.getByRole("button", { name: "Pay and subscribe" }).click();
  await expect(page).toHaveURL(/\/subscription$/);
  await expect(toast(page)).toContainText("Payment received");
  await expect(page.getByTestId("current-plan-name")).toHaveText("Premium");
  await expect(currentPlan(page)).toContainText(/Renews on \w+ \d+, \d{4}/);
  await expect(currentPlan(page)).not.toContainText("Limited features");
  const status = await request.get("/api/subscription/status", { headers: auth });
  expect(await status.json()).toMatchObject({ status: "active", trialDaysLeft: 0, currentPeriodEnd: expect.any(String) });
  expect(await (await request.get("/api/user/usage", { headers: auth })).json()).toEqual({ subscriptionStatus: "active", canCreateMore: true });

  // An 11th persona, through the create gate and the wizard's Save Draft.
  await visit(page, "/dashboard");
  await expect(page.getByTestId("upsell")).toHaveCount(0);
  await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Create New Persona" }).click();
  await expect(page).toHaveURL(/\/create-persona/);
  if (jsEnabled) await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await page.getByLabel("Name", { exact: true }).fill("Eleventh Hour");
  await page.getByRole("button", { name: "Save Draft", exact: true }).click();
  await expect(page).toHaveURL(/\/persona\/[0-9a-f-]{36}$/);
  ids.push(page.url().split("/").pop()!);
  expect(new Set(ids).size).toBe(11);

  // Manage: the portal, cancel, back to the Free Plan.
  await visit(page, "/subscription");
  await currentPlan(page).getByRole("button", { name: "Manage subscription" }).click();
  await expect(page).toHaveURL(new RegExp(`^${e2eStripe.STRIPE_API_URL}/p/session/bps_`));
  await page.getByRole("button", { name: "Cancel subscription" }).click();
  await expect(page).toHaveURL(/\/subscription$/);
  await expect(toast(page)).toBeVisible();
  await expect(page.getByTestId("current-plan-name")).toHaveText("Free Plan");
  await expect(currentPlan(page)).toContainText("Your Premium subscription has ended.");

  // Every persona is still there and opens; only creating waits.
  const list = await request.get("/api/personas?status=all", { headers: auth });
  expect(list.headers()["x-total-count"]).toBe("11");
  for (const id of ids) expect((await request.get(`/api/personas/${id}`, { headers: auth })).status()).toBe(200);
  await visit(page, `/persona/${ids[0]}`);
  await expect(page.getByRole("heading", { level: 1, name: "Draft 1" })).toBeVisible();
  await visit(page, `/persona/${ids[10]}`);
  await expect(page.getByRole("heading", { level: 1, name: "Eleventh Hour" })).toBeVisible();
  expect(await (await request.get("/api/user/usage", { headers: auth })).json()).toEqual({ subscriptionStatus: "canceled", canCreateMore: false });
});

test("Checkout cancelled: back with a toast, still Free; a return address changes nothing", async ({ page, request }) => {
  const account = await createAccount(request);
  await signIn(page, account);
  await visit(page, "/subscription");
  await expect(currentPlan(page).getByRole("button", { name: "Manage subscription" })).toHaveCount(0);
  await currentPlan(page).getByRole("button", { name: "Upgrade to Premium" }).click();
  await expect(page).toHaveURL(new RegExp(`^${e2eStripe.STRIPE_API_URL}/c/pay/`));
  await page.getByRole("link", { name: "Back to PersonaForge" }).click();
  await expect(page).toHaveURL(/\/subscription$/);
  await expect(toast(page)).toContainText("Checkout cancelled");
  await expect(page.getByTestId("current-plan-name")).toHaveText("Free Plan");

  // A return address never changes a plan.
  await visit(page, "/subscription?checkout=success");
  await expect(page).toHaveURL(/\/subscription$/);
  await expect(page.getByTestId("current-plan-name")).toHaveText("Free Plan");
});

test.describe("the subscription API", () => {
  test.skip(({ javaScriptEnabled }) => javaScriptEnabled === false, "no browser involved: runs once, in the js project");

  test("signed out 401, portal without a customer 409, status, methods, bodies", async ({ request, baseURL }) => {
    expect((await request.post("/api/create-checkout-session")).status()).toBe(401);
    expect((await request.post("/api/create-customer-portal-session")).status()).toBe(401);
    expect((await request.get("/api/subscription/status")).status()).toBe(401);

    const account = await createAccount(request);
    const auth = { Authorization: `Bearer ${account.token}` };
    const portal = await request.post("/api/create-customer-portal-session", { headers: auth });
    expect(portal.status()).toBe(409);
    expect(await portal.json()).toMatchObject({ message: "No subscription to manage yet" });
    expect(await (await request.get("/api/subscription/status", { headers: auth })).json()).toEqual({ status: "free", currentPeriodEnd: null, trialDaysLeft: 0 });

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
      const payload = JSON.stringify({ id: `evt_${randomUUID().replace(/-/g, "")}`, object: "event", type, created: Math.floor(Date.now() / 1000), data: { object } });
      return { payload, header: Stripe.webhooks.generateTestHeaderString({ payload, secret: e2eStripe.STRIPE_WEBHOOK_SECRET }) };
    };
    for (const [type, object, outcome] of [
      ["customer.created", { id: "cus_unknown", object: "customer" }, "ignored"],
      ["customer.subscription.updated", { id: "sub_nobody", object: "subscription", customer: "cus_nobody", status: "active" }, "unknown_customer"],
    ] as const) {
      const event = signed(type, object);
      const res = await request.post("/api/webhooks/stripe", { headers: { "Stripe-Signature": event.header, "Content-Type": "application/json" }, data: event.payload });
      expect(res.status()).toBe(200);
      expect(await res.json()).toMatchObject({ received: true, outcome });
    }
  });
});
