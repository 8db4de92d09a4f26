// Generating a backstory never destroys the creator's own text (docs/product.md, Wizard): the
// text it replaced comes back with 'Undo', with JavaScript or without; each click is a new story.
import type { Page } from "@playwright/test";

import { createAccount, expect, expectNoA11yViolations, personaBody, signIn, test, visit } from "./support";

const toast = (page: Page) => page.getByTestId("toast").last();
const button = (page: Page, name: string | RegExp) => page.getByRole("button", { name, exact: typeof name === "string" });
const backstory = (page: Page) => page.getByLabel(/^Backstory/);

test("Generate over my own backstory, then Undo brings it back; a second click is another story", async ({ page, request }) => {
  const account = await createAccount(request);
  const draft = await request.post("/api/personas/draft", {
    headers: { Authorization: `Bearer ${account.token}` },
    data: personaBody("Kira Moon"),
  });
  const { id } = (await draft.json()) as { id: string };
  await signIn(page, account);
  await visit(page, `/create-persona?id=${id}`);
  await button(page, /^Continue/).click();
  await expect(page.getByRole("heading", { level: 2, name: /Personality$/ })).toBeVisible();
  await button(page, /^Continue/).click();
  await expect(page.getByRole("heading", { level: 2, name: /Backstory$/ })).toBeVisible();

  const mine = "Kira taught herself to draw on the backs of receipts.\n\nShe still keeps them in a shoebox.";
  await backstory(page).fill(mine);
  await button(page, /Generate Backstory/).click();
  await expect(toast(page)).toContainText("Backstory Generation Complete");
  await expect(page.getByText("A new backstory replaced your text.")).toBeVisible();
  await expect.poll(async () => (await backstory(page).inputValue()).length).toBeGreaterThan(2000);
  await page.waitForLoadState("load");
  const first = await backstory(page).inputValue();
  expect(first).not.toContain("receipts");
  await expectNoA11yViolations(page);

  await button(page, "Undo").click();
  await expect(toast(page)).toContainText("Backstory Restored");
  await expect(backstory(page)).toHaveValue(mine);
  await expect(button(page, "Undo")).toHaveCount(0);

  // Each generation is a new draw; with nothing of mine in the field there is nothing to undo.
  await backstory(page).fill("");
  await button(page, /Generate Backstory/).click();
  await expect(toast(page)).toContainText("Backstory Generation Complete");
  await expect.poll(async () => (await backstory(page).inputValue()).length).toBeGreaterThan(2000);
  await page.waitForLoadState("load");
  expect(await backstory(page).inputValue()).not.toBe(first);
  await expect(button(page, "Undo")).toHaveCount(0);
});
