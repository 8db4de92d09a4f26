// What JavaScript adds to the wizard: steps that change without a reload, live validation,
// 'Generating...' and 'Creating...' while busy, and failures that keep what was typed.
import type { Page } from "@playwright/test";

import { createAccount, expect, signIn, test, visit } from "./support";

const button = (page: Page, name: string | RegExp) => page.getByRole("button", { name, exact: typeof name === "string" });
const toast = (page: Page) => page.getByTestId("toast").last();

async function openWizard(page: Page, request: Parameters<typeof createAccount>[0]) {
  const account = await createAccount(request);
  await signIn(page, account);
  await visit(page, "/create-persona");
  return account;
}

async function toBackstoryStep(page: Page) {
  await page.getByLabel("Name", { exact: true }).fill("Nova Lumen");
  await button(page, /Auto-fill Empty Fields/).click();
  await button(page, /^Continue/).click();
  await page.getByRole("checkbox", { name: "Curious" }).check();
  await button(page, /^Continue/).click();
  await expect(page.getByRole("heading", { level: 2, name: /Backstory$/ })).toBeVisible();
}

test("steps change without a reload or a request, and focus goes to the new step", async ({ page, request }) => {
  await openWizard(page, request);
  await page.evaluate(() => ((window as unknown as { stillHere: boolean }).stillHere = true));
  const posts: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST") posts.push(r.url());
  });
  await page.getByLabel("Name", { exact: true }).fill("Nova Lumen");
  // Enter in a text field is Continue.
  await page.getByLabel("Name", { exact: true }).press("Enter");
  await expect(page.getByText("Invalid persona type")).toBeVisible();
  await button(page, /Auto-fill Empty Fields/).click();
  await button(page, /^Continue/).click();
  await expect(page.getByRole("heading", { level: 2, name: /Personality$/ })).toBeFocused();
  await button(page, /Auto-select Traits/).click();
  await button(page, /^Continue/).click();
  await button(page, /^Continue/).click();
  await expect(page.getByRole("heading", { level: 2, name: /Review$/ })).toBeFocused();
  await button(page, /Back/).click();
  await expect(page.getByRole("heading", { level: 2, name: /Backstory$/ })).toBeFocused();
  expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);
  expect(posts).toEqual([]);
});

test("errors show on Continue and clear live as the creator fixes them; a click beyond 7 traits is ignored", async ({ page, request }) => {
  await openWizard(page, request);
  await button(page, /^Continue/).click();
  const error = page.getByText("Name must be at least 2 characters");
  await expect(error).toBeVisible();
  await expect(page.getByLabel("Name", { exact: true })).toBeFocused();
  await page.getByLabel("Name", { exact: true }).fill("N");
  await expect(error).toBeVisible();
  await page.getByLabel("Name", { exact: true }).fill("Nova");
  await expect(error).toBeHidden();

  await button(page, /Auto-fill Empty Fields/).click();
  await button(page, /^Continue/).click();
  const traits = ["Outgoing", "Stable", "Creative", "Compassionate", "Organized", "Entertaining", "Calm"];
  for (const name of traits) await page.getByRole("checkbox", { name }).check();
  await expect(page.getByText("Selected 7/7 traits")).toBeVisible();
  // At the cap the other traits are unavailable, and the page says why.
  await expect(page.getByText("That's the maximum: deselect a trait to choose another.")).toBeVisible();
  await expect(page.getByRole("checkbox", { name: "Curious" })).toBeDisabled();
  await expect(page.getByRole("checkbox", { name: "Curious" })).not.toBeChecked();
  await page.getByRole("checkbox", { name: "Calm" }).click();
  await expect(page.getByText("Selected 6/7 traits")).toBeVisible();
});

test("'Generating...' with the button disabled while the backstory is written", async ({ page, request }) => {
  await openWizard(page, request);
  await toBackstoryStep(page);
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/api/generate-backstory", async (route) => {
    await held;
    await route.continue();
  });
  await button(page, /Generate Backstory/).click();
  const busy = button(page, /Generating\.\.\./);
  await expect(busy).toBeVisible();
  await expect(busy).toBeDisabled();
  release();
  await expect(toast(page)).toContainText("Backstory Generation Complete");
  await expect(button(page, /Generate Backstory/)).toBeEnabled();
  // Focus stays where the creator was, not on the page's body.
  await expect(button(page, /Generate Backstory/)).toBeFocused();
  expect((await page.getByLabel(/^Backstory/).inputValue()).length).toBeGreaterThan(3000);
});

test("a failed generation is 'Generation Failed' and the creator's own text stays", async ({ page, request }) => {
  await openWizard(page, request);
  await toBackstoryStep(page);
  await page.getByLabel(/^Backstory/).fill("My own beginning.");
  await page.route("**/api/generate-backstory", (route) =>
    route.fulfill({ status: 502, contentType: "application/json", body: JSON.stringify({ message: "Failed to generate backstory." }) }),
  );
  await button(page, /Generate Backstory/).click();
  await expect(toast(page)).toContainText("Generation Failed");
  await expect(toast(page)).toContainText("Failed to generate backstory. Please try again or write your own.");
  await expect(page.getByLabel(/^Backstory/)).toHaveValue("My own beginning.");
  // The network itself failing is the same answer.
  await page.unroute("**/api/generate-backstory");
  await page.route("**/api/generate-backstory", (route) => route.abort());
  await button(page, /Generate Backstory/).click();
  await expect(toast(page)).toContainText("Generation Failed");
  await expect(page.getByLabel(/^Backstory/)).toHaveValue("My own beginning.");
});

test("'Creating...' while the persona is created", async ({ page, request }) => {
  await openWizard(page, request);
  await toBackstoryStep(page);
  await button(page, /^Continue/).click();
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/create-persona.data*", async (route) => {
    if (route.request().method() === "POST") await held;
    await route.continue();
  });
  await button(page, /Create Persona/).click();
  const busy = button(page, /Creating\.\.\./);
  await expect(busy).toBeVisible();
  await expect(busy).toBeDisabled();
  release();
  await expect(page).toHaveURL(/\/persona\/[0-9a-f-]{36}$/);
  await expect(toast(page)).toContainText("Your AI character persona has been created successfully!");
});
