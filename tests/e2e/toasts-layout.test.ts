// Toasts cause no layout shift and leave nothing behind (docs/decisions/029-toasts-without-layout-shift.md),
// with JavaScript on and off, on a laptop and a phone: a toast raised by a settings save shows in the
// header without lying over a control, outlives its 5 s without moving the page, gives its room back
// at the creator's next input or dismissal, and leaves with its screen.
import {
  createAccount,
  expect,
  expectGoodLayout,
  expectNoLayoutShift,
  signIn,
  test,
  unexpectedLayoutShifts,
  visit,
  VIEWPORTS,
  type LayoutShift,
} from "./support";

const total = (shifts: LayoutShift[]) => shifts.reduce((sum, shift) => sum + shift.value, 0);

for (const size of ["desktop", "phone"] as const) {
  test(`a toast outlives its 5 seconds without moving the page and leaves no band behind (${size})`, async ({
    page,
    request,
    jsEnabled,
  }) => {
    test.setTimeout(60_000);
    await page.setViewportSize(VIEWPORTS[size]);
    await signIn(page, await createAccount(request));
    await visit(page, "/settings");
    const toast = page.getByTestId("toast");
    const region = page.getByRole("region", { name: "Notifications (F8)" });
    const roomTaken = async () => (await region.boundingBox())?.height ?? 0;

    // Raised with the redirect's page: the first render of a new document without JavaScript; with it,
    // a shift only if the answer comes more than 500 ms after the click (a slow server), so the count
    // starts once the toast is shown.
    await page.getByLabel("First name").fill("Katherine");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expect(toast).toContainText("Profile Updated");
    await expect(toast).toBeVisible();
    if (!jsEnabled) await expectNoLayoutShift(page);
    const before = total(await unexpectedLayoutShifts(page));
    const since = async () => total(await unexpectedLayoutShifts(page)) - before;
    // The toast lies over no control: the layout guard, at this size.
    await expectGoodLayout(page, { sizes: [size] });

    // Past its 5 seconds (real time: without JavaScript there is no timer a page clock could drive).
    await page.mouse.move(1, VIEWPORTS[size].height - 1);
    await page.waitForTimeout(5_500);
    expect(await since(), "layout shift after the toast's 5 seconds").toBe(0);
    if (jsEnabled) {
      // Faded (opacity only): its room stays until the creator's next input.
      await expect(toast).toBeHidden();
      expect(await roomTaken()).toBeGreaterThan(40);
      await page.getByRole("heading", { level: 1, name: "Settings" }).click();
    } else {
      // Without JavaScript it stays until dismissed: the checkbox's label, a click.
      await expect(toast).toBeVisible();
      await toast.locator("label").click();
      await expect(toast).toBeHidden();
    }
    // Nothing left behind: no empty band in the header, and its leaving counted as no shift.
    await expect.poll(roomTaken).toBeLessThan(1);
    expect(await since(), "layout shift as the toast's room was given back").toBe(0);

    // A toast leaves with its screen: raised again, then the creator moves on to another tab.
    await page.getByLabel("First name").fill("Kate");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expect(toast).toContainText("Profile Updated");
    await page.getByRole("navigation", { name: "Settings sections" }).getByRole("link", { name: "Notifications" }).click();
    await expect(page).toHaveURL(/tab=notifications/);
    await expect(toast).toHaveCount(0);
    await expect.poll(roomTaken).toBeLessThan(1);
    await expectGoodLayout(page, { sizes: [size] });
  });
}
