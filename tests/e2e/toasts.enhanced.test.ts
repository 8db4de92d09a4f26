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

  test("a toast fades after 5 seconds, keeping its room until the creator's next click, which lands where aimed", async ({ page }) => {
    await visit(page, "/contact");
    // Installed clocks keep flowing in real time; pause it so only runFor moves time.
    await page.clock.install();
    await page.clock.pauseAt(Date.now() + 1_000);
    await page.getByRole("button", { name: "Send message" }).click();
    const toast = page.getByTestId("toast");
    await expect(toast).toBeVisible();
    await page.clock.runFor(4_900);
    await expect(toast).toHaveAttribute("data-state", "shown");
    await page.clock.runFor(200);
    // Faded (docs/decisions/029-toasts-without-layout-shift.md): out of sight, its room kept, so nothing moved.
    await expect(toast).toHaveAttribute("data-state", "faded");
    await expect(toast).toBeHidden();
    const region = page.getByRole("region", { name: "Notifications (F8)" });
    expect((await region.boundingBox())!.height).toBeGreaterThan(40);
    // The next click gives the room back after it has chosen its target: the field aimed at gets it.
    await page.getByLabel("Name").click();
    await expect(toast).toHaveCount(0);
    await expect(page.getByLabel("Name")).toBeFocused();
    expect((await region.boundingBox())!.height).toBeLessThan(1);
  });

  test("a faded toast's room is given back at the next key press too", async ({ page }) => {
    await visit(page, "/contact");
    await page.clock.install();
    await page.clock.pauseAt(Date.now() + 1_000);
    await page.getByRole("button", { name: "Send message" }).click();
    await expect(page.getByTestId("toast")).toBeVisible();
    // Paused while the pointer rests on it, as before.
    await page.getByTestId("toast").hover();
    await page.clock.runFor(6_000);
    await expect(page.getByTestId("toast")).toHaveAttribute("data-state", "shown");
    await page.mouse.move(1, 700);
    await page.clock.runFor(5_100);
    await expect(page.getByTestId("toast")).toHaveAttribute("data-state", "faded");
    await page.keyboard.press("Tab");
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
  // The toast is at the top of the page's content; the form's button may have scrolled it away.
  await toast.scrollIntoViewIfNeeded();
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
