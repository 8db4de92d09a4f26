// With JavaScript, 'Upgrade to Premium' shows 'Opening checkout...' while it asks for the
// Checkout address, then leaves for Stripe. Coming back with the browser's Back button restores
// the page from the back/forward cache: the button must be usable again, not stuck busy.
import { createAccount, expect, signIn, test, visit } from "./support";

test("Back from Checkout (a page restored from the back/forward cache) leaves the upgrade button usable", async ({ page, request }) => {
  const account = await createAccount(request);
  await signIn(page, account);
  await visit(page, "/subscription");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  // Checkout is on its way (the answer never comes here): the button says so.
  await page.route("**/api/create-checkout-session", () => {});
  const upgrade = page.getByRole("button", { name: /Upgrade to Premium|Opening checkout/ }).first();
  await upgrade.click();
  await expect(upgrade).toHaveAttribute("aria-busy", "true");
  // What the browser does when Back restores the page from its cache.
  await page.evaluate(() => window.dispatchEvent(new PageTransitionEvent("pageshow", { persisted: true })));
  await expect(upgrade).not.toHaveAttribute("aria-busy", "true");
  await expect(upgrade).toHaveText("Upgrade to Premium");
});
