// Third-party sign-in on the embedded default (ADR 011), JavaScript on and off, against the
// local identity provider the Playwright config starts (tests/support/fake-oauth-provider.ts):
// its sign-in pages stand where Google's and GitHub's would be.
import type { Page } from "@playwright/test";

import { createAccount, expect, expectNoA11yViolations, newEmail, test, visit } from "./support";

/** At the provider's sign-in page: who signs in. Empty values are left out. */
async function signInAtProvider(page: Page, fields: Record<string, string>, options: { verified?: boolean } = {}) {
  await expect(page).toHaveURL(/127\.0\.0\.1/);
  for (const [label, value] of Object.entries(fields)) await page.getByLabel(label, { exact: true }).fill(value);
  const verified = page.getByRole("checkbox");
  if (options.verified === false) await verified.uncheck();
  await page.getByRole("button", { name: /Sign in|Authorize/ }).click();
}

const toast = (page: Page) => page.getByTestId("toast");

test.describe("Continue with a third-party identity provider", () => {
  test("the sign-in screens offer the configured providers", async ({ page }) => {
    for (const path of ["/login", "/register"]) {
      await visit(page, path);
      for (const name of ["Google", "GitHub", "Acme ID"]) {
        await expect(page.getByRole("button", { name: `Continue with ${name}` })).toBeVisible();
      }
    }
    await expectNoA11yViolations(page);
  });

  test("Google from the register screen: a new account with the provider's names and picture; log out ends it", async ({ page }) => {
    const email = newEmail("google");
    await visit(page, "/register");
    await page.getByRole("button", { name: "Continue with Google" }).click();
    await signInAtProvider(page, {
      "E-mail": email,
      "Given name": "Katherine",
      "Family name": "Johnson",
      "Picture address": "https://images.example.com/katherine.png",
    });
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Katherine");
    await expectNoA11yViolations(page);

    await visit(page, "/settings");
    await expect(page.getByLabel("Last name")).toHaveValue("Johnson");
    await expect(page.getByRole("navigation", { name: "Main" }).getByText(email)).toBeVisible();

    await page.getByRole("button", { name: "Log out" }).first().click();
    await expect(page).toHaveURL(/\/$/);
    await visit(page, "/dashboard");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fdashboard$/);
  });

  test("GitHub links an existing verified account: same account, its own names, back where the visitor was going", async ({
    page,
    request,
  }) => {
    const account = await createAccount(request, { firstName: "Dorothy", lastName: "Vaughan" });
    await visit(page, "/settings");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fsettings$/);
    await page.getByRole("button", { name: "Continue with GitHub" }).click();
    await signInAtProvider(page, { Username: "dvaughan", Name: "Someone Else", "Primary e-mail": account.email });
    await expect(page).toHaveURL(/\/settings$/);
    await expect(page.getByLabel("First name")).toHaveValue("Dorothy");
    await expect(page.getByLabel("Last name")).toHaveValue("Vaughan");
  });

  test("an unverified e-mail at the provider: a clear message on the login page, no account", async ({ page, request }) => {
    const account = await createAccount(request, { firstName: "Mary", lastName: "Jackson" });
    await visit(page, "/login");
    await page.getByRole("button", { name: "Continue with Acme ID" }).click();
    await signInAtProvider(page, { "E-mail": account.email, "Given name": "Mallory" }, { verified: false });
    await expect(page).toHaveURL(/\/login$/);
    await expect(toast(page)).toContainText("Sign In Failed");
    await expect(toast(page)).toContainText("Your e-mail address at Acme ID is not verified");
    await expectNoA11yViolations(page);
    // Still signed out, and the account keeps its name.
    await visit(page, "/dashboard");
    await expect(page).toHaveURL(/\/login\?redirectTo=/);
    const me = await request.get("/api/auth/user", { headers: { Authorization: `Bearer ${account.token}` } });
    expect(await me.json()).toMatchObject({ firstName: "Mary" });
  });

  test("a picture address that is not http(s), and a 10,000-character name, are refused with a message", async ({ page }) => {
    await visit(page, "/login");
    await page.getByRole("button", { name: "Continue with Google" }).click();
    await signInAtProvider(page, { "E-mail": newEmail("pic"), "Given name": "Pic", "Picture address": "javascript:alert(1)" });
    await expect(page).toHaveURL(/\/login$/);
    await expect(toast(page)).toContainText("profile picture address that is not an http(s) web address");

    await visit(page, "/login");
    await page.getByRole("button", { name: "Continue with GitHub" }).click();
    await signInAtProvider(page, { Username: "long", Name: "N".repeat(10_000), "Primary e-mail": newEmail("long") });
    await expect(page).toHaveURL(/\/login$/);
    await expect(toast(page)).toContainText("name longer than 60 characters");
  });

  test("the callback address used a second time, or with a forged state, is refused", async ({ page }) => {
    await visit(page, "/login");
    await page.getByRole("button", { name: "Continue with Google" }).click();
    let callback = "";
    page.on("request", (req) => {
      if (req.url().includes("/auth/callback")) callback ||= req.url();
    });
    await signInAtProvider(page, { "E-mail": newEmail("replay"), "Given name": "Replay" });
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.getByRole("button", { name: "Log out" }).first().click();
    await expect(page).toHaveURL(/\/$/);

    await page.goto(callback);
    await expect(page).toHaveURL(/\/login$/);
    await expect(toast(page)).toContainText("could not be matched to this browser, or it was already used");

    const forged = new URL(callback);
    forged.searchParams.set("state", "forged");
    await page.goto(forged.toString());
    await expect(page).toHaveURL(/\/login$/);
    await expect(toast(page)).toContainText("could not be matched to this browser");
    await visit(page, "/dashboard");
    await expect(page).toHaveURL(/\/login\?redirectTo=/);
  });
});
