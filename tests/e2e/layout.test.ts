// What a creator sees on a laptop and on a phone, with JavaScript on and off. Every
// screen a creator passes through is checked by the layout guard (expectGoodLayout: no sideways
// scrolling, open menus and dialogs inside the viewport, no toast over a control that is not its
// own, nothing wider than its box) at 1280×800 and 390×844, with personas whose name,
// description and backstory hold 60-character unbroken words, right-to-left text, emoji and
// combining characters. The texts of item 15 are checked verbatim.
import yaml from "js-yaml";

import {
  createAccount,
  expect,
  expectGoodLayout,
  expectNoA11yViolations,
  LONG_WORD,
  personaBody,
  signIn,
  test,
  visit,
  VIEWPORTS,
  type Account,
} from "./support";

// Names at the limit (80 characters), unbroken, right-to-left, emoji and combining marks.
const HOSTILE = {
  long: `${LONG_WORD}${"W".repeat(20)}`,
  rtl: "نور الهدى المبدعة — شخصية رقمية",
  emoji: "Nova 🎮🌙👩🏽‍🚀 Streamer",
  combining: "Zoë Z̷̢a̴l̵g̶o̷ Ñandú",
};
const DESCRIPTION = `${LONG_WORD} ${"ﷺ".repeat(3)} 🎮 e\u0301 ${"x".repeat(150 - LONG_WORD.length - 13)}`.slice(0, 150);
const BACKSTORY = `${LONG_WORD}${LONG_WORD}\n\nنشأت بين أضواء الشاشات. 🌙 ${LONG_WORD}`;

async function seed(request: Parameters<typeof createAccount>[0], account: Account) {
  const auth = { Authorization: `Bearer ${account.token}` };
  const ids: Record<keyof typeof HOSTILE, string> = { long: "", rtl: "", emoji: "", combining: "" };
  for (const key of Object.keys(HOSTILE) as (keyof typeof HOSTILE)[]) {
    const res = await request.post("/api/personas", {
      headers: auth,
      data: personaBody(HOSTILE[key], { description: DESCRIPTION, backstory: BACKSTORY }),
    });
    expect(res.status(), await res.text()).toBe(201);
    ids[key] = (await res.json()).id;
  }
  await request.post("/api/personas/draft", { headers: auth, data: { name: `${LONG_WORD} draft` } });
  return ids;
}

for (const [size, viewport] of Object.entries(VIEWPORTS)) {
  test.describe(`at ${viewport.width}×${viewport.height} (${size})`, () => {
    test.use({ viewport });

    test("every signed-in screen holds long, right-to-left, emoji and combining text inside its boxes", async ({
      page,
      request,
      jsEnabled,
    }) => {
      test.slow();
      const account = await createAccount(request);
      const ids = await seed(request, account);
      await signIn(page, account);

      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Welcome back, Ada!");
      await expectGoodLayout(page);
      // The counts explain themselves: drafts and archived personas count toward the plan.
      await expect(page.getByTestId("stat-active-personas")).toContainText("+ 1 draft or archived persona");
      await expect(page.getByTestId("stat-account-status")).toContainText("5 of 10 personas used (drafts and archived count)");
      // The numbers of the three cards sit on one line (the help button does not push its own down).
      if (size === "desktop") {
        const tops = await page
          .locator("[data-testid^=stat-] p.text-2xl")
          .evaluateAll((els) => els.map((el) => el.getBoundingClientRect().top));
        expect(new Set(tops).size).toBe(1);
      }

      await visit(page, "/my-personas");
      await expect(page.getByTestId("persona-card")).toHaveCount(5);
      await expectGoodLayout(page);
      // Cards in a row are as tall as each other, with their buttons on one line.
      const boxes = await page.getByTestId("persona-card").evaluateAll((cards) =>
        cards.map((card) => {
          const r = card.getBoundingClientRect();
          const link = card.querySelector("a:last-of-type")!.getBoundingClientRect();
          return {
            top: Math.round(r.top),
            height: Math.round(r.height),
            linkHeight: Math.round(link.height),
            linkBottom: Math.round(r.bottom - link.bottom),
          };
        }),
      );
      for (const box of boxes) {
        const row = boxes.filter((b) => b.top === box.top);
        expect(new Set(row.map((b) => b.height)).size, "cards in a row have one height").toBe(1);
        expect(box.linkHeight, "'View Details' and 'Continue Creating' stay on one line").toBeLessThan(44);
      }
      // On a phone the placeholder no longer fills the screen: a card takes a third of it at most.
      if (size === "phone") {
        for (const box of boxes) expect(box.height).toBeLessThan(viewport.height / 3);
      }

      // An empty search says so and offers to clear it.
      await visit(page, "/my-personas?q=nothing-like-this");
      await expect(page.getByText("No persona's name or description matches “nothing-like-this”.")).toBeVisible();
      await expect(page.getByRole("link", { name: "Clear search" })).toBeVisible();
      await expectGoodLayout(page);

      for (const key of Object.keys(HOSTILE) as (keyof typeof HOSTILE)[]) {
        await visit(page, `/persona/${ids[key]}`);
        await expect(page.getByRole("heading", { level: 1 })).toHaveText(HOSTILE[key]);
        await expectGoodLayout(page);
      }

      // The persona header: the type line right under the name, above the buttons, and the
      // buttons in at most two rows (Delete never alone).
      await visit(page, `/persona/${ids.long}`);
      const header = await page.evaluate(() => {
        const rect = (el: Element | null) => el!.getBoundingClientRect();
        const h1 = rect(document.querySelector("h1"));
        const type = rect(document.querySelector("[data-testid=persona-type]"));
        const edit = rect([...document.querySelectorAll("a")].find((a) => a.textContent?.trim() === "Edit") ?? null);
        return { nameBottom: h1.bottom, typeTop: type.top, editTop: edit.top };
      });
      expect(header.typeTop - header.nameBottom).toBeGreaterThanOrEqual(-1);
      // (the status badge may sit between them)
      expect(header.typeTop - header.nameBottom).toBeLessThan(40);
      if (size === "phone") expect(header.typeTop).toBeLessThan(header.editTop);
      const rows = await page.getByTestId("persona-actions").evaluate((group) => {
        // The buttons themselves, not the items of the (closed) Download menu.
        const shown = [...group.querySelectorAll("a, button, summary")].filter(
          (el) => el.getBoundingClientRect().width > 0 && (el.matches("summary") || !el.closest("details")),
        );
        const perRow = new Map<number, number>();
        for (const el of shown) {
          const top = Math.round(el.getBoundingClientRect().top);
          perRow.set(top, (perRow.get(top) ?? 0) + 1);
        }
        return [...perRow.values()];
      });
      // Each with its label: at most two rows, none with a button alone.
      expect(rows.length, "the actions take at most two rows").toBeLessThanOrEqual(2);
      expect(Math.min(...rows), "no action alone on its row").toBeGreaterThanOrEqual(2);

      // The Download menu opens inside the screen, its labels with their extensions (docs/product.md, Exports and character cards).
      const menu = page.getByTestId("download-menu");
      await menu.locator("summary").click();
      for (const label of ["Text .txt", "JSON .json", "Markdown .md", "YAML .yaml"]) {
        await expect(menu.getByRole(jsEnabled ? "menuitem" : "link", { name: label, exact: true })).toBeVisible();
      }
      await expectGoodLayout(page, { sizes: [size as keyof typeof VIEWPORTS] });
      await menu.locator("summary").click();

      // Delete asks in a dialog (JS) or on a page (no JS); either lies inside the screen.
      if (jsEnabled) {
        await page.getByRole("button", { name: "Delete", exact: true }).click();
        await expect(page.getByRole("dialog")).toBeVisible();
        await expectGoodLayout(page, { sizes: [size as keyof typeof VIEWPORTS] });
        await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
      } else {
        await page.getByRole("link", { name: "Delete", exact: true }).click();
        await expect(page.getByRole("heading", { level: 1 })).toContainText("Delete");
        await expectGoodLayout(page);
      }

      // Archive: a toast in the header's flow, over nothing.
      await visit(page, `/persona/${ids.rtl}`);
      await page.getByRole("button", { name: "Archive" }).click();
      await expect(page.getByTestId("toast")).toBeVisible();
      await expectGoodLayout(page, { sizes: [size as keyof typeof VIEWPORTS] });

      // The edit page has a way out, back to the persona.
      await visit(page, `/persona/${ids.emoji}/edit`);
      await expectGoodLayout(page);
      await page.getByRole("link", { name: "Cancel" }).click();
      await expect(page).toHaveURL(new RegExp(`/persona/${ids.emoji}$`));

      await visit(page, `/persona/${ids.combining}/history`);
      await expectGoodLayout(page);
      await visit(page, "/settings");
      await expectGoodLayout(page);
      await visit(page, "/subscription");
      await expectGoodLayout(page);

      // A mistyped address keeps the creator signed in: the 404 sits in the app's shell.
      const missing = await visit(page, "/no/such/page");
      expect(missing?.status()).toBe(404);
      await expect(page.getByRole("heading", { name: "404 Page Not Found" })).toBeVisible();
      await expect(page.getByRole("link", { name: "Sign In" })).toHaveCount(0);
      await expect(page.getByTestId("header-avatar")).toBeVisible();
      await expectNoA11yViolations(page);
    });

    test("the wizard with long and mixed-direction input, and a trait cap that says so", async ({ page, request, jsEnabled }) => {
      test.slow();
      const account = await createAccount(request);
      await signIn(page, account);
      await visit(page, "/create-persona");
      await page.getByLabel("Name", { exact: true }).fill(HOSTILE.long);
      await page.getByRole("button", { name: "Auto-fill Empty Fields" }).click();
      // Type, gender, age range, interests and description were empty: five fields.
      await expect(page.getByTestId("toast")).toContainText("Filled 5 fields with AI-suggested content!");
      await expectGoodLayout(page);
      // The suggested description never names the persona: it stays true after a rename.
      expect(await page.getByLabel(/^Short description/).inputValue()).not.toContain(HOSTILE.long);
      await page.getByLabel(/^Short description/).fill(DESCRIPTION);
      await page.getByRole("button", { name: "Continue", exact: true }).click();

      await expect(page.getByText("Selected 0/7 traits")).toBeVisible();
      const seven = ["Outgoing", "Stable", "Creative", "Compassionate", "Organized", "Entertaining", "Calm"];
      for (const trait of seven) await page.getByLabel(trait, { exact: true }).check();
      if (jsEnabled) {
        await expect(page.getByText("Selected 7/7 traits")).toBeVisible();
        await expect(page.getByText("That's the maximum: deselect a trait to choose another.")).toBeVisible();
        await expect(page.getByLabel("Quiet", { exact: true })).toBeDisabled();
      } else {
        // Without a script an eighth can be ticked: moving on ignores it and says which. (The
        // seven are sent once first, so the server knows which tick is the new one.)
        await page.getByRole("button", { name: "Continue", exact: true }).click();
        await page.getByRole("button", { name: "Back", exact: true }).click();
        await expect(page.getByText("Selected 7/7 traits")).toBeVisible();
        await expect(page.getByText("That's the maximum: deselect a trait to choose another.")).toBeVisible();
        await page.getByLabel("Quiet", { exact: true }).check();
        await page.getByRole("button", { name: "Continue", exact: true }).click();
        await expect(page.getByTestId("toast")).toContainText("You can select up to 7 traits only, so Quiet was not added.");
        await expect(page.getByText("Selected 7/7 traits")).toBeVisible();
        await expect(page.getByLabel("Quiet", { exact: true })).not.toBeChecked();
        await expectGoodLayout(page);
      }
      await expect(page.getByText(/Selected 8\/7/)).toHaveCount(0);
      await expectGoodLayout(page);
      await page.getByRole("button", { name: "Continue", exact: true }).click();

      await page.getByLabel(/^Backstory/).fill(BACKSTORY);
      await expectGoodLayout(page);
      await page.getByRole("button", { name: "Continue", exact: true }).click();
      await expect(page.getByText(HOSTILE.long).first()).toBeVisible();
      await expectNoA11yViolations(page);
    });
  });
}

test("every export carries long, right-to-left, emoji and combining text intact", async ({ request }) => {
  const account = await createAccount(request);
  const ids = await seed(request, account);
  const auth = { Authorization: `Bearer ${account.token}` };
  for (const key of Object.keys(HOSTILE) as (keyof typeof HOSTILE)[]) {
    const name = HOSTILE[key];
    for (const format of ["txt", "json", "md", "yaml", "card-json"]) {
      const res = await request.get(`/api/personas/${ids[key]}/export?format=${format}`, { headers: auth });
      expect(res.status(), `${key} ${format}`).toBe(200);
      const text = await res.text();
      expect(text.normalize("NFC"), `${key} ${format}`).toContain(name.normalize("NFC"));
      expect(text, `${key} ${format}`).toContain(LONG_WORD);
      if (format === "json" || format === "card-json") expect(() => JSON.parse(text)).not.toThrow();
      if (format === "yaml") expect(JSON.stringify(yaml.load(text))).toContain(JSON.stringify(name).slice(1, -1));
      // The file name is a safe one, whatever the persona is called.
      expect(res.headers()["content-disposition"], `${key} ${format}`).toMatch(/^attachment; filename="[\x20-\x7e]+"/);
    }
  }
});

test("a creator without a first name reads 'Hello there, welcome!' (and 'welcome back!' once they have a persona), and an e-mail account is not told about a provider", async ({
  page,
  request,
}) => {
  const account = await createAccount(request);
  await request.patch("/api/user/profile", {
    headers: { Authorization: `Bearer ${account.token}` },
    data: { firstName: null, lastName: account.lastName, email: account.email },
  });
  await signIn(page, account);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Hello there, welcome!");
  await request.post("/api/personas/draft", { headers: { Authorization: `Bearer ${account.token}` }, data: { name: "First Draft" } });
  await visit(page, "/dashboard");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Hello there, welcome back!");
  await visit(page, "/settings");
  await expect(page.getByText("Managed by your sign-in provider")).toHaveCount(0);
  await expect(page.getByText("The address you sign in with; it cannot be changed here.")).toBeVisible();
  await expectGoodLayout(page);
});

test("auto-fill fills what is empty and says how many, with a description about the selected interests and no name", async ({
  page,
  request,
}) => {
  const account = await createAccount(request);
  await signIn(page, account);
  await visit(page, "/create-persona");
  await page.getByLabel("Name", { exact: true }).fill("Nova QA");
  await page.getByLabel("Type").selectOption("personality");
  await page.getByRole("radio", { name: "Female" }).check();
  await page.getByLabel("Age Range").selectOption("25-34");
  await page.getByRole("group", { name: "Interests" }).getByRole("checkbox", { name: "Cooking" }).check();
  await page.getByRole("button", { name: "Auto-fill Empty Fields" }).click();
  await expect(page.getByTestId("toast")).toContainText("Filled 1 field with AI-suggested content!");
  const description = await page.getByLabel(/^Short description/).inputValue();
  expect(description).toContain("cooking");
  expect(description).not.toContain("Nova");
});

test("the landing page's plan buttons line up, and the call to action keeps its margins on a phone", async ({ page }) => {
  for (const viewport of Object.values(VIEWPORTS)) {
    await page.setViewportSize(viewport);
    await visit(page, "/");
    const free = await page.getByRole("link", { name: "Start for free" }).boundingBox();
    const premium = await page.getByRole("link", { name: "Get Premium" }).boundingBox();
    if (viewport === VIEWPORTS.desktop) expect(Math.round(free!.y)).toBe(Math.round(premium!.y));
    const cta = await page.getByRole("heading", { name: "Ready to create some magic?" }).locator("..").boundingBox();
    expect(cta!.x).toBeGreaterThanOrEqual(16);
    expect(cta!.x + cta!.width).toBeLessThanOrEqual(viewport.width - 16);
    await expectGoodLayout(page, { sizes: [viewport === VIEWPORTS.desktop ? "desktop" : "phone"] });
  }
});

test("a failed sign-in is said once, beside the form", async ({ page }) => {
  await visit(page, "/login");
  await page.getByLabel("E-mail").fill("nobody@example.com");
  await page.getByLabel("Password", { exact: true }).fill("Wrong!pass1");
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page.getByRole("alert")).toContainText("Please check your email and password.");
  await page.getByLabel("E-mail").fill("not-an-address");
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page.getByText("Invalid email address")).toBeVisible();
  await expect(page.getByTestId("toast")).toHaveCount(0);
  // (with JavaScript the earlier answer's alert stays; without, the new page has only the field error)
  expect(await page.getByText("Please check your email and password.").count()).toBeLessThanOrEqual(1);
});
