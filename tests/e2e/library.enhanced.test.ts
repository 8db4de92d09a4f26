// What JavaScript adds to the library: the list follows the search as you type, the Download
// menu works from the keyboard, and the dashboard shows skeleton cards while it loads.
import type { Page } from "@playwright/test";

import { createAccount, expect, signIn, test, visit } from "./support";

const cards = (page: Page) => page.getByTestId("persona-card");

async function accountWith(request: Parameters<typeof createAccount>[0], names: string[]) {
  const account = await createAccount(request);
  const ids: string[] = [];
  for (const name of names) {
    const res = await request.post("/api/personas", {
      headers: { Authorization: `Bearer ${account.token}` },
      data: {
        name,
        type: "artist",
        gender: "other",
        ageRange: "25-34",
        interests: ["art"],
        description: `${name} paints.`,
        personality: ["Creative"],
      },
    });
    ids.push((await res.json()).id);
  }
  return { account, ids };
}

test("the list follows the search as the creator types, without a reload", async ({ page, request }) => {
  const { account } = await accountWith(request, ["Indigo", "Ivory", "Saffron"]);
  await signIn(page, account);
  await visit(page, "/my-personas");
  await page.evaluate(() => ((window as unknown as { stillHere: boolean }).stillHere = true));
  await page.getByLabel("Search personas").pressSequentially("iv", { delay: 30 });
  await expect(cards(page)).toHaveCount(1);
  await expect(cards(page).first()).toContainText("Ivory");
  await expect(page).toHaveURL(/q=iv/);
  await page.getByLabel("Sort by").selectOption("name-desc");
  await expect(page).toHaveURL(/sort=name-desc/);
  expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);
});

test("the Download menu works from the keyboard", async ({ page, request }) => {
  const { account, ids } = await accountWith(request, ["Keys"]);
  await signIn(page, account);
  await visit(page, `/persona/${ids[0]}`);
  const summary = page.getByTestId("download-menu").locator("summary");
  await summary.focus();
  await page.keyboard.press("ArrowDown");
  const items = page.getByRole("menuitem");
  await expect(items.first()).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(page.getByRole("menuitem", { name: "JSON .json", exact: true })).toBeFocused();
  await page.keyboard.press("End");
  await expect(items.last()).toBeFocused();
  await page.keyboard.press("Home");
  await expect(items.first()).toBeFocused();
  // Typeahead: 'm' goes to Markdown.
  await page.keyboard.press("m");
  await expect(page.getByRole("menuitem", { name: "Markdown .md" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(summary).toBeFocused();
  await expect(page.getByRole("menuitem", { name: "Markdown .md" })).toBeHidden();
});

test("the dashboard shows three skeleton cards while it loads", async ({ page, request }) => {
  const { account } = await accountWith(request, ["Slow"]);
  await signIn(page, account);
  await visit(page, "/my-personas");
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/dashboard.data*", async (route) => {
    await held;
    await route.continue();
  });
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Dashboard" }).click();
  await expect(page.getByTestId("dashboard-loading")).toBeVisible();
  await expect(page.getByTestId("skeleton-cards").locator("li")).toHaveCount(3);
  release();
  await expect(page.getByRole("heading", { name: /^Welcome/ })).toBeVisible();
  await expect(page.getByTestId("dashboard-loading")).toHaveCount(0);
});

test("My Personas says 'Loading personas...' over skeleton cards while it loads", async ({ page, request }) => {
  const { account } = await accountWith(request, ["Slow"]);
  await signIn(page, account);
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/my-personas.data*", async (route) => {
    await held;
    await route.continue();
  });
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "My Personas" }).click();
  await expect(page.getByTestId("library-loading")).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Loading personas..." })).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: "My Personas" })).toBeVisible();
  release();
  await expect(cards(page)).toHaveCount(1);
  await expect(page.getByTestId("library-loading")).toHaveCount(0);
});

test("a download that fails says 'Export Failed' instead of 'Export Successful'", async ({ page, request }) => {
  const { account, ids } = await accountWith(request, ["Flaky"]);
  await signIn(page, account);
  await visit(page, `/persona/${ids[0]}`);
  await page.route("**/export?format=yaml", (route) => route.fulfill({ status: 500, contentType: "application/json", body: "{}" }));
  const menu = page.getByTestId("download-menu");
  await menu.getByText("Download").click();
  await menu.getByRole("menuitem", { name: "YAML .yaml" }).click();
  await expect(page.getByTestId("toast").last()).toContainText("Export Failed");
  await expect(page.getByTestId("toast").last()).toContainText("Failed to export persona data. Please try again.");
});
