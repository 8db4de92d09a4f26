// JavaScript enhancements of the signed-in shell's mobile drawer (Escape, focus).
// Runs in the JavaScript project only; the drawer itself works without JavaScript
// (tests/e2e/shell-settings.test.ts).
import { createAccount, expect, signIn, test } from "./support";

test.describe("mobile drawer with JavaScript", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("with JavaScript, Escape closes the drawer and focus moves sensibly", async ({ page, request }) => {
    await signIn(page, await createAccount(request));
    const mobile = page.getByRole("navigation", { name: "Mobile" });
    const opener = mobile.locator("summary");
    await opener.click();
    await expect(mobile.getByRole("link", { name: "Dashboard", exact: true })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(mobile.getByRole("link", { name: "Dashboard", exact: true })).toBeHidden();
    await expect(opener).toBeFocused();

    // It says whether the drawer is open; the page behind is inert while it is.
    const inert = () => page.locator("#main").evaluate((main) => !!main.closest("[inert]"));
    await expect(opener).toContainText("Open navigation");
    await opener.click();
    await expect.poll(inert).toBe(true);
    await page.keyboard.press("Escape");
    await expect.poll(inert).toBe(false);
    await expect(opener).toBeFocused();

    // After navigating from the drawer, focus lands on the new page's content.
    await opener.click();
    await mobile.getByRole("link", { name: "Settings", exact: true }).click();
    await expect(page).toHaveURL(/\/settings$/);
    await expect(page.getByRole("main")).toBeFocused();
  });
});
