// JavaScript enhancements of the toasts (timer, close button, F8, one at a time).
// Runs in the JavaScript project only; without JavaScript the toast is plain server
// HTML (see app/components/toaster.test.tsx and app/infra/web/toast.server.test.ts).
import { expect, test, visit } from "./support";

test.describe("toasts", () => {
  test("one at a time, dismissible, F8 reaches the region", async ({ page }) => {
    await visit(page, "/contact");
    // A slow machine must not let the 5-second timer win the race against the steps below.
    await page.clock.install();
    await page.clock.pauseAt(Date.now() + 1_000);
    await page.getByRole("button", { name: "Send message" }).click();
    await expect(page.getByTestId("toast")).toHaveCount(1);
    await expect(page.getByTestId("toast")).toContainText("Missing information");

    await page.getByLabel("Name").fill("Ada");
    await page.getByLabel("E-mail").fill("ada@example.com");
    await page.getByLabel("Message").fill("Hi");
    await page.getByRole("button", { name: "Send message" }).click();
    // The new toast replaces the old one.
    await expect(page.getByTestId("toast")).toHaveCount(1);
    await expect(page.getByTestId("toast")).toContainText("Email client opened");

    await page.keyboard.press("F8");
    await expect(page.getByRole("region", { name: "Notifications (F8)" })).toBeFocused();

    await page.getByRole("button", { name: "Dismiss notification" }).click();
    await expect(page.getByTestId("toast")).toHaveCount(0);
  });

  test("a toast leaves by itself after 5 seconds", async ({ page }) => {
    await visit(page, "/contact");
    // Installed clocks keep flowing in real time; pause it so only runFor moves time.
    await page.clock.install();
    await page.clock.pauseAt(Date.now() + 1_000);
    await page.getByRole("button", { name: "Send message" }).click();
    await expect(page.getByTestId("toast")).toHaveCount(1);
    await page.clock.runFor(4_900);
    await expect(page.getByTestId("toast")).toHaveCount(1);
    await page.clock.runFor(200);
    await expect(page.getByTestId("toast")).toHaveCount(0);
  });
});

test("a swipe to the right past 50 px dismisses the toast; a short one does not", async ({ page }) => {
  await visit(page, "/contact");
  await page.clock.install();
  await page.clock.pauseAt(Date.now() + 1_000);
  await page.getByRole("button", { name: "Send message" }).click();
  const toast = page.getByTestId("toast");
  await expect(toast).toHaveCount(1);
  const box = (await toast.boundingBox())!;
  const y = box.y + box.height / 2;
  const x = box.x + 20;

  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + 30, y, { steps: 5 });
  await page.mouse.up();
  await expect(toast).toHaveCount(1);

  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + 80, y, { steps: 8 });
  await page.mouse.up();
  await expect(toast).toHaveCount(0);
});

test.describe("a toast belongs to its screen", () => {
  test("the auto-fill toast stays on step 1, and a toast raised on one page does not follow to the next", async ({ page, request }) => {
    const { createAccount, signIn } = await import("./support");
    await signIn(page, await createAccount(request));
    await visit(page, "/create-persona");
    await page.clock.install();
    await page.clock.pauseAt(Date.now() + 1_000);
    await page.getByLabel("Name", { exact: true }).fill("Nova Lumen");
    await page.getByRole("button", { name: /Auto-fill Empty Fields/ }).click();
    await expect(page.getByTestId("toast")).toHaveCount(1);
    await page.getByRole("button", { name: /^Continue/ }).click();
    await expect(page.getByRole("heading", { level: 2, name: /Personality$/ })).toBeVisible();
    await expect(page.getByTestId("toast")).toHaveCount(0);

    // Leaving a page leaves its toast behind.
    await visit(page, "/contact");
    await page.getByRole("button", { name: "Send message" }).click();
    await expect(page.getByTestId("toast")).toContainText("Missing information");
    await page.locator('main a[href="/privacy-policy"], footer a[href="/privacy-policy"]').first().click();
    await expect(page).toHaveURL(/\/privacy-policy$/);
    await expect(page.getByTestId("toast")).toHaveCount(0);
  });
});
