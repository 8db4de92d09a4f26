// The persona library, with JavaScript on and off: the dashboard's numbers, /my-personas
// with search, sort and tabs, archive → Archived → restore, delete with confirmation, edit,
// every download, and importing a character card.
import type { APIRequestContext, Page } from "@playwright/test";

import { createAccount, expect, expectNoA11yViolations, signIn, test, visit, type Account } from "./support";

const toast = (page: Page) => page.getByTestId("toast").last();
const cards = (page: Page) => page.getByTestId("persona-card");

const persona = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  type: "vtuber",
  gender: "female",
  ageRange: "18-24",
  interests: ["gaming", "music"],
  description: `${name} streams late at night.`,
  personality: ["Outgoing", "Creative"],
  ...extra,
});

async function seed(
  request: APIRequestContext,
  account: Account,
  items: { name: string; draft?: boolean; extra?: Record<string, unknown> }[],
) {
  const ids: Record<string, string> = {};
  for (const item of items) {
    const res = await request.post(item.draft ? "/api/personas/draft" : "/api/personas", {
      headers: { Authorization: `Bearer ${account.token}` },
      data: item.draft ? { name: item.name } : persona(item.name, item.extra),
    });
    expect(res.status()).toBe(201);
    ids[item.name] = (await res.json()).id;
  }
  return ids;
}

test.describe("dashboard", () => {
  test("numbers, recent personas and the upsell follow what the creator made", async ({ page, request }) => {
    const account = await createAccount(request);
    await signIn(page, account);
    await visit(page, "/dashboard");
    await expect(page.getByText("Your personas will appear here")).toBeVisible();
    await expect(page.getByTestId("stat-active-personas")).toContainText("0");

    await seed(request, account, [{ name: "Alpha" }, { name: "Beta" }, { name: "Gamma", draft: true }]);
    const auth = { Authorization: `Bearer ${account.token}` };
    expect((await request.post("/api/generate-backstory", { headers: auth, data: persona("Alpha") })).status()).toBe(200);

    await visit(page, "/dashboard");
    await expect(page.getByTestId("stat-active-personas")).toContainText("2");
    await expect(page.getByTestId("stat-active-personas").getByRole("progressbar")).toHaveAttribute("aria-valuenow", "10");
    await expect(page.getByTestId("stat-generated-content")).toContainText("1");
    await expect(page.getByTestId("stat-generated-content").getByRole("progressbar")).toHaveAttribute("aria-valuenow", "3");
    await expect(page.getByTestId("stat-account-status")).toContainText("Free Plan");
    await expect(page.getByTestId("stat-account-status")).toContainText("3 of 10 personas used");
    const recent = page.getByRole("region", { name: "Recent Personas" });
    await expect(recent.getByText("Your latest AI character creations")).toBeVisible();
    await expect(recent.getByTestId("persona-card")).toHaveCount(3);
    await expect(recent.getByTestId("persona-card").first()).toContainText("Gamma");
    await expect(recent.getByRole("link", { name: "Continue Creating" })).toHaveCount(1);
    await expect(recent.getByRole("link", { name: "View Details" })).toHaveCount(2);
    // The dashboard list offers delete only.
    await expect(recent.getByRole("button", { name: /^Archive/ })).toHaveCount(0);
    await expect(recent.getByRole("link", { name: "View All" })).toHaveAttribute("href", "/my-personas");
    await expect(page.getByTestId("upsell")).toContainText("Upgrade to Premium");

    const stats = await request.get("/api/personas/stats", { headers: auth });
    expect(await stats.json()).toEqual({ activePersonas: 2, generatedContent: 1, subscriptionStatus: "free", trialDaysLeft: 0 });
    await expectNoA11yViolations(page);
  });
});

test.describe("my personas", () => {
  test("search, sort and tabs live in the URL", async ({ page, request, jsEnabled }) => {
    const account = await createAccount(request);
    await seed(request, account, [
      { name: "Zephyr", extra: { description: "Sings about the weather." } },
      { name: "Aurora", extra: { description: "Paints the northern lights." } },
      { name: "Milo", extra: { description: "A WEATHER nerd with a podcast." } },
    ]);
    await signIn(page, account);
    await visit(page, "/my-personas");
    await expect(page.getByRole("heading", { level: 1, name: "My Personas" })).toBeVisible();
    await expect(cards(page)).toHaveCount(3);
    await expect(cards(page).first()).toContainText("Milo");
    await expectNoA11yViolations(page);

    await page.getByLabel("Sort by").selectOption("name-asc");
    if (!jsEnabled) await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/sort=name-asc/);
    await expect(cards(page).first()).toContainText("Aurora");
    await expect(cards(page).last()).toContainText("Zephyr");

    await page.getByLabel("Search personas").fill("weather");
    if (!jsEnabled) await page.getByLabel("Search personas").press("Enter");
    await expect(page).toHaveURL(/q=weather/);
    await expect(cards(page)).toHaveCount(2);
    await expect(cards(page).first()).toContainText("Milo");
    await expect(page.getByText("2 personas matching “weather”")).toBeVisible();

    await page.getByLabel("Search personas").fill("100%_");
    if (!jsEnabled) await page.getByLabel("Search personas").press("Enter");
    await expect(page.getByText("No personas found")).toBeVisible();
    // An empty search says nothing matches and offers to clear it, not to create a persona.
    await expect(page.getByText("No persona's name or description matches “100%_”.")).toBeVisible();
    await expect(page.getByText("You don't have any personas in this category yet")).toHaveCount(0);
    await page.getByRole("link", { name: "Clear search" }).click();
    await expect(page).not.toHaveURL(/q=/);
    await expect(cards(page).first()).toBeVisible();

    // Parameters that are none of ours fall back to the defaults.
    const res = await visit(page, "/my-personas?tab=deleted&sort=random&page=-3&q=" + "x".repeat(10_000));
    expect(res?.status()).toBe(200);
    await expect(page.getByRole("link", { name: "All Personas" })).toHaveAttribute("aria-current", "page");
  });

  test("names and descriptions in Japanese and emoji arrive whole, with no stray bytes", async ({ page, request, jsEnabled }) => {
    const account = await createAccount(request);
    // Ten personas written almost all in characters of three and four bytes, of ten lengths, so
    // that many of the pages' write boundaries fall inside a character (where React 18's own
    // writer left NUL bytes: docs/decisions/019-a-string-writer-for-react.md).
    const names = Array.from({ length: 10 }, (_, i) => `ノヴァ${"ー".repeat(i)} 🌃${i}`);
    const descriptions = names.map((_, i) => `${"東京の夜、配信を始めた。".repeat(2 + i)}🌃`);
    const ids = await seed(
      request,
      account,
      names.map((name, i) => ({ name, extra: { description: descriptions[i] } })),
    );
    const hydrationErrors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error" && /hydrat|did not match|server-rendered/i.test(message.text())) hydrationErrors.push(message.text());
    });
    await signIn(page, account);
    const pages = [["/my-personas", names[9]], ["/dashboard", names[9]], ...names.map((name) => [`/persona/${ids[name]}`, name])];
    for (const [path, shown] of pages) {
      const html = await (await page.request.get(path)).text();
      expect(html, path).toContain(shown);
      expect(html.includes("\u0000"), `NUL in ${path}`).toBe(false);
      expect(html.includes("\uFFFD"), `U+FFFD in ${path}`).toBe(false);
    }
    await visit(page, "/my-personas");
    for (const [i, name] of names.entries()) {
      const card = cards(page).filter({ has: page.getByRole("heading", { name, exact: true }) });
      await expect(card).toHaveCount(1);
      await expect(card).toContainText(descriptions[i]);
    }
    if (jsEnabled) await visit(page, `/persona/${ids[names[9]]}`);
    expect(hydrationErrors).toEqual([]);
  });

  test("archive → Archived tab → restore, then delete with confirmation", async ({ page, request, jsEnabled }) => {
    const account = await createAccount(request);
    await seed(request, account, [{ name: "Keeper" }, { name: "Shelf", draft: true }]);
    await signIn(page, account);
    await visit(page, "/my-personas");

    await page.getByRole("button", { name: "Archive Shelf" }).click();
    await expect(toast(page)).toContainText("Persona archived");
    await expect(cards(page)).toHaveCount(1);
    await page.getByRole("link", { name: "Archived" }).click();
    await expect(page).toHaveURL(/tab=archived/);
    await expect(cards(page)).toHaveCount(1);
    await expect(cards(page).first()).toContainText("Archived");
    await expect(page.getByRole("button", { name: /^Archive / })).toHaveCount(0);
    await page.getByRole("button", { name: "Restore Shelf" }).click();
    await expect(toast(page)).toContainText("Persona restored");
    await expect(page.getByText("No personas found")).toBeVisible();
    await page.getByRole("link", { name: "All Personas" }).click();
    // Back to what it was: a draft.
    await expect(cards(page).filter({ hasText: "Shelf" })).toContainText("In Progress");

    const trigger = jsEnabled ? page.getByRole("button", { name: "Delete Keeper" }) : page.getByRole("link", { name: "Delete Keeper" });
    await trigger.click();
    if (jsEnabled) {
      const dialog = page.getByRole("dialog", { name: "Delete Keeper?" });
      await expect(dialog).toBeVisible();
      await expectNoA11yViolations(page);
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await expect(cards(page)).toHaveCount(2);
      await trigger.click();
      await dialog.getByRole("button", { name: "Delete" }).click();
    } else {
      await expect(page).toHaveURL(/\/persona\/[0-9a-f-]{36}\/delete/);
      await expect(page.getByRole("heading", { name: "Delete Keeper?" })).toBeVisible();
      await expectNoA11yViolations(page);
      await page.getByRole("button", { name: "Delete" }).click();
    }
    await expect(page).toHaveURL(/\/my-personas$/);
    await expect(toast(page)).toContainText("The persona has been successfully deleted.");
    await expect(cards(page)).toHaveCount(1);
    await expect(cards(page).first()).toContainText("Shelf");
  });
});

test.describe("persona page actions", () => {
  test("edit in place keeps the id; every download has its file name", async ({ page, request, jsEnabled }) => {
    const account = await createAccount(request);
    const ids = await seed(request, account, [{ name: "Nova Lumen" }]);
    await signIn(page, account);
    await visit(page, `/persona/${ids["Nova Lumen"]}`);

    await page.getByRole("link", { name: "Edit", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Edit Nova Lumen" })).toBeVisible();
    await page.getByLabel("Name", { exact: true }).fill("Nova Prime");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expect(page).toHaveURL(new RegExp(`/persona/${ids["Nova Lumen"]}$`));
    await expect(toast(page)).toContainText("Persona Updated");
    await expect(page.getByRole("heading", { level: 1, name: "Nova Prime" })).toBeVisible();

    const menu = page.getByTestId("download-menu");
    const expected: [string, string][] = [
      ["Text .txt", "nova_prime_profile.txt"],
      ["JSON .json", "nova_prime_profile.json"],
      ["Markdown .md", "nova_prime_profile.md"],
      ["YAML .yaml", "nova_prime_profile.yaml"],
      ["Character Card .json", "nova_prime_profile.card.json"],
      ["Character Card .png", "nova_prime_profile.card.png"],
    ];
    for (const [label, filename] of expected) {
      if (!(await menu.evaluate((details) => (details as HTMLDetailsElement).open))) await menu.getByText("Download").click();
      const download = page.waitForEvent("download");
      // With JavaScript the menu is a menu (arrow keys, typeahead); without, a list of links.
      await menu.getByRole(jsEnabled ? "menuitem" : "link", { name: label, exact: true }).click();
      expect((await download).suggestedFilename(), label).toBe(filename);
    }
    await expect(menu.getByText("Reference Image")).toHaveCount(0);
    if (jsEnabled) await expect(toast(page)).toContainText("Persona profile exported in CHARACTER CARD PNG format.");
  });

  test("a character card exported, then imported, becomes a new persona with the same details", async ({ page, request }) => {
    const account = await createAccount(request);
    const ids = await seed(request, account, [{ name: "Card Maker" }]);
    const auth = { Authorization: `Bearer ${account.token}` };
    const png = await request.get(`/api/personas/${ids["Card Maker"]}/export?format=card-png`, { headers: auth });
    expect(png.headers()["content-type"]).toBe("image/png");
    const file = Buffer.from(await png.body());

    await signIn(page, account);
    await visit(page, "/my-personas");
    await page.getByText("Import a Character Card").click();
    await page.getByLabel(/Card file/).setInputFiles({ name: "card_maker.png", mimeType: "image/png", buffer: file });
    await page.getByRole("button", { name: "Import" }).click();
    await expect(page).toHaveURL(/\/persona\/[0-9a-f-]{36}$/);
    expect(page.url()).not.toContain(ids["Card Maker"]!);
    await expect(toast(page)).toContainText("Character Imported");
    await expect(page.getByRole("heading", { level: 1, name: "Card Maker" })).toBeVisible();
    await expect(page.getByRole("region", { name: "Personality Traits" })).toContainText("Creative");

    // A file that is no card says so and keeps the creator on the page.
    await visit(page, "/my-personas");
    await page.getByText("Import a Character Card").click();
    await page.getByLabel(/Card file/).setInputFiles({ name: "notes.json", mimeType: "application/json", buffer: Buffer.from("{ nope") });
    await page.getByRole("button", { name: "Import" }).click();
    await expect(page.getByText("This file is neither a PNG character card nor valid JSON.").first()).toBeVisible();
    await expect(page).toHaveURL(/\/my-personas/);
  });
});
