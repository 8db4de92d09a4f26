// The subscription journey (docs/product.md, Subscription), with JavaScript and without: a Free creator at 10
// personas meets the limit, upgrades through (the test double of) Stripe Checkout, comes back
// to a toast and Premium, creates an 11th persona; then cancels in the portal, is Free again,
// and every persona still opens. The fake Stripe (tests/support/fake-stripe.ts, started by the
// Playwright config) delivers signed webhooks to the app, which alone changes the plan.
import type { Page } from "@playwright/test";

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
  expect(await (await request.get("/api/user/usage", { headers: auth })).json()).toEqual({
    subscriptionStatus: "active",
    canCreateMore: true,
  });

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
  expect(await (await request.get("/api/user/usage", { headers: auth })).json()).toEqual({
    subscriptionStatus: "canceled",
    canCreateMore: false,
  });
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
