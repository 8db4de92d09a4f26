// A persona's lorebook (docs/product.md, Lore): built from the backstory (proposals the creator
// keeps), an entry added (refused input keeps what was typed) and edited, turned off, moved and
// deleted; chat uses an entry when its key comes up and says so ('Lore used'); another creator
// cannot see or change any of it. With JavaScript and without.
import { createAccount, expect, expectGoodLayout, expectNoA11yViolations, LONG_WORD, personaBody, signIn, test, visit } from "./support";

const toast = (page: import("@playwright/test").Page) => page.getByTestId("toast").last();

const BACKSTORY = [
  "Kira grew up in Seoul with her older sister Mina, who taught her to draw on the back of grocery receipts.",
  "At sixteen she joined the Starlight Academy art club, where she met her rival Jun Park.",
  "In 2019 she moved to Busan and started streaming from a tiny studio above a noodle shop.",
  "She has never told anyone that she once lost a tournament on purpose so that Mina could win.",
].join(" ");

test("build a lorebook from the backstory, edit it, and see chat use it", async ({ page, request, jsEnabled }) => {
  test.slow();
  const account = await createAccount(request);
  const created = await request.post("/api/personas", {
    headers: { Authorization: `Bearer ${account.token}` },
    data: personaBody("Kira Moon", { backstory: BACKSTORY }),
  });
  expect(created.status()).toBe(201);
  const persona = (await created.json()) as { id: string };
  await signIn(page, account);
  await visit(page, `/persona/${persona.id}`);

  const section = page.getByRole("region", { name: "Lore" });
  await expect(section).toContainText("No lore yet");
  await section.getByRole("button", { name: "Build lorebook from backstory" }).click();
  await expect(page).toHaveURL(new RegExp(`/persona/${persona.id}/lore$`));
  await expect(page.getByRole("heading", { level: 1, name: "Kira Moon's lore" })).toBeVisible();

  // Proposals: none stored yet; the coverage report names what the backstory names.
  const proposals = page.getByTestId("lore-proposal");
  await expect(proposals.first()).toBeVisible();
  await expect(page.getByRole("heading", { name: /^Proposals/ })).toBeVisible();
  await expect(page.getByTestId("lore-coverage").filter({ hasText: "Mina" }).first()).toBeVisible();
  await expect(page.getByTestId("lore-coverage").filter({ hasText: "Seoul" }).first()).toBeVisible();
  await expect(page.getByText("Entries (0)")).toBeVisible();
  await expectNoA11yViolations(page);

  // Drop one proposal (Busan's), keep the rest.
  const busan = proposals.filter({ hasText: /^Busan/ }).first();
  const dropped = (await busan.count()) > 0;
  if (dropped) await busan.getByRole("checkbox").uncheck();
  const kept = (await proposals.count()) - (dropped ? 1 : 0);
  await page.getByRole("button", { name: "Keep selected" }).click();
  await expect(toast(page)).toContainText(kept === 1 ? "1 Entry Added" : `${kept} Entries Added`);
  const entries = page.getByTestId("lore-entry");
  await expect(entries).toHaveCount(kept);
  const mina = entries.filter({ has: page.getByRole("heading", { name: /Mina/ }) }).first();
  await expect(mina).toContainText("sister");
  await expectNoA11yViolations(page);

  // A refused new entry keeps what was typed and names the field.
  const form = page.locator("#entry-form");
  if (!(await page.getByLabel("Title").isVisible())) await form.getByText("Add Entry").first().click();
  await page.getByLabel("Title").fill("The noodle shop");
  await page.getByLabel("Content").fill("Kira streams from a tiny studio above Mrs. Lee's noodle shop.");
  await form.getByRole("button", { name: "Add Entry" }).click();
  await expect(page.getByText("Add at least one key")).toBeVisible();
  await expect(page.getByLabel("Title")).toHaveValue("The noodle shop");
  await expect(page.getByLabel("Content")).toHaveValue("Kira streams from a tiny studio above Mrs. Lee's noodle shop.");
  await page.getByLabel("Keys", { exact: true }).fill("noodle shop, Mrs. Lee");
  await form.getByRole("button", { name: "Add Entry" }).click();
  await expect(toast(page)).toContainText("Entry Added");
  await expect(entries).toHaveCount(kept + 1);

  // Edit Mina's entry: the content the chat will use.
  await mina.getByRole("link", { name: /^Edit/ }).click();
  await expect(page).toHaveURL(/\?edit=/);
  // The form is Mina's once it holds her entry (before that, Content is the new-entry form's).
  await expect(page.getByRole("button", { name: "Save Entry" })).toBeVisible();
  await expect(page.getByLabel("Content")).toHaveValue(/Mina/);
  await page.getByLabel("Content").fill("My sister Mina is a night-shift nurse in Incheon who still sends me doodles.");
  await page.getByRole("button", { name: "Save Entry" }).click();
  await expect(toast(page)).toContainText("Entry Saved");
  await expect(mina).toContainText("night-shift nurse in Incheon");

  // Search finds it; clearing the search shows every entry again.
  await page.getByRole("searchbox", { name: "Search lore" }).fill("Incheon");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(entries).toHaveCount(1);
  await page.getByRole("link", { name: "Clear search" }).click();
  await expect(entries).toHaveCount(kept + 1);

  // Turn the noodle shop off, then delete it.
  const shop = entries.filter({ has: page.getByRole("heading", { name: "The noodle shop" }) });
  await shop.getByRole("button", { name: "Disable The noodle shop" }).click();
  await expect(shop).toContainText("Disabled");
  await shop.getByRole("button", { name: "Delete The noodle shop" }).click();
  await expect(toast(page)).toContainText("Entry Deleted");
  await expect(entries).toHaveCount(kept);

  // Chat: asking about her sister draws on Mina's entry, and the reply says so.
  await visit(page, `/persona/${persona.id}?tab=chat`);
  await page.getByPlaceholder("Type a message...").fill("Tell me about your sister Mina.");
  await page.getByRole("button", { name: "Send", exact: true }).click();
  const reply = page.locator('[data-testid="chat-message"][data-role="assistant"]').first();
  await expect(reply).toContainText("Incheon");
  const used = reply.getByTestId("lore-used");
  await expect(used).toContainText(/Lore used \(\d+\)/);
  await used.getByText(/Lore used/).click();
  await expect(used.getByRole("listitem").filter({ hasText: "Mina" }).first()).toBeVisible();
  await expectNoA11yViolations(page);

  // History: the lorebook's edits are versions.
  await visit(page, `/persona/${persona.id}/history`);
  await expect(page.getByText(/Lore (changed|: [+−]\d+ entr)/).first()).toBeVisible();
  if (jsEnabled) expect(jsEnabled).toBe(true);
});

test("another creator cannot see or change a persona's lore", async ({ page, request }) => {
  const owner = await createAccount(request);
  const created = await request.post("/api/personas", {
    headers: { Authorization: `Bearer ${owner.token}` },
    data: personaBody("Private Kira", { backstory: BACKSTORY }),
  });
  const persona = (await created.json()) as { id: string };
  const entry = await request.post(`/api/personas/${persona.id}/lorebook/entries`, {
    headers: { Authorization: `Bearer ${owner.token}` },
    data: { name: "Mina", keys: ["Mina"], content: "Kira's sister." },
  });
  expect(entry.status()).toBe(201);
  const { id: entryId } = (await entry.json()) as { id: string };

  const stranger = await createAccount(request);
  await signIn(page, stranger);
  const response = await visit(page, `/persona/${persona.id}/lore`);
  expect(response?.status()).toBe(404);
  await expect(page.getByText("Persona Not Found").first()).toBeVisible();
  const origin = new URL(page.url()).origin;
  const post = await page.request.post(`/persona/${persona.id}/lore`, {
    form: { intent: "delete", entryId },
    headers: { Origin: origin },
  });
  expect(post.status()).toBe(404);
  const api = await request.get(`/api/personas/${persona.id}/lorebook`, { headers: { Authorization: `Bearer ${stranger.token}` } });
  expect(api.status()).toBe(404);

  const still = await request.get(`/api/personas/${persona.id}/lorebook`, { headers: { Authorization: `Bearer ${owner.token}` } });
  expect(((await still.json()) as { entries: unknown[] }).entries).toHaveLength(1);
});

test("long, right-to-left and emoji entries stay inside their boxes on the lore page and the persona page", async ({ page, request }) => {
  const account = await createAccount(request);
  const headers = { Authorization: `Bearer ${account.token}` };
  const created = await request.post("/api/personas", { headers, data: personaBody("Kira Moon", { backstory: BACKSTORY }) });
  const persona = (await created.json()) as { id: string };
  const entries = [
    { name: `${LONG_WORD}${"W".repeat(40)}`, keys: [LONG_WORD, "x".repeat(100)], content: `${LONG_WORD} ${LONG_WORD}${LONG_WORD}` },
    { name: "نور الهدى — الأخت", keys: ["نور"], secondary_keys: ["أخت"], selective: true, content: "نشأت بين أضواء الشاشات. 🌙" },
    { name: "Nova 🎮🌙👩🏽‍🚀 Zoë Z̷̢a̴l̵g̶o̷", keys: ["🎮", "Zoë"], content: "🎮".repeat(200), comment: LONG_WORD, constant: true },
  ];
  for (const data of entries) {
    expect((await request.post(`/api/personas/${persona.id}/lorebook/entries`, { headers, data })).status()).toBe(201);
  }
  await signIn(page, account);
  await visit(page, `/persona/${persona.id}/lore`);
  await expect(page.getByTestId("lore-entry")).toHaveCount(3);
  await expectGoodLayout(page);
  await visit(
    page,
    `/persona/${persona.id}/lore?edit=${(await (await request.get(`/api/personas/${persona.id}/lorebook`, { headers })).json()).entries[0].id}`,
  );
  await expect(page.getByRole("button", { name: "Save Entry" })).toBeVisible();
  await expectGoodLayout(page);
  await visit(page, `/persona/${persona.id}`);
  await expect(page.getByRole("region", { name: "Lore" })).toContainText("3 entries");
  await expectGoodLayout(page);
});

const BOOK = {
  name: "Eldoria",
  scan_depth: 6,
  extensions: { world_tool: { v: 2 } },
  entries: [
    {
      keys: ["glade", "clearing"],
      content: "A sunlit clearing where Seraphina heals travellers.",
      extensions: { depth: 4 },
      enabled: true,
      insertion_order: 100,
      name: "The glade",
      id: 1,
      priority: 10,
      selective: true,
      secondary_keys: ["sunlit"],
      position: "before_char",
    },
    { keys: ["Ash"], content: "Seraphina's brother, lost in the war.", extensions: {}, enabled: false, insertion_order: 5, id: 2 },
    { keys: "moon, night", content: 42, extensions: {}, enabled: true, insertion_order: 7 },
  ],
};

test("a card's lorebook comes in as entries, named where it was odd, and goes back out in the card", async ({ page, request }) => {
  const account = await createAccount(request);
  await signIn(page, account);
  await visit(page, "/my-personas");
  await page.getByText("Import a Character Card").click();
  const card = {
    spec: "chara_card_v2",
    spec_version: "2.0",
    data: {
      name: "Seraphina",
      description: "A guardian of the forest.",
      personality: "caring, calm",
      first_mes: "Hello.",
      character_book: BOOK,
    },
  };
  await page
    .getByLabel(/Card file/)
    .setInputFiles({ name: "seraphina.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(card)) });
  await page.getByRole("button", { name: "Import" }).click();
  await expect(toast(page)).toContainText("Character Imported");
  await expect(toast(page)).toContainText("Lorebook entry 3: keys were text, not a list; read as a list split at commas.");
  const id = /\/persona\/([0-9a-f-]{36})/.exec(page.url())![1]!;

  await visit(page, `/persona/${id}/lore`);
  const entries = page.getByTestId("lore-entry");
  await expect(entries).toHaveCount(3);
  await expect(entries.filter({ hasText: "The glade" })).toContainText("Also needs: sunlit");
  await expect(entries.filter({ hasText: "Ash" })).toContainText("Disabled");
  await expectNoA11yViolations(page);

  // The card goes back out with the book as it came, the odd entry too: its own values go back
  // while the entry still reads the same (docs/cards.md, Round trips).
  const exported = await page.request.get(`/api/personas/${id}/export?format=card-json`);
  const book = ((await exported.json()) as { data: { character_book: typeof BOOK } }).data.character_book;
  expect(book.name).toBe("Eldoria");
  expect(book.extensions).toEqual({ world_tool: { v: 2 } });
  expect(book.entries[0]).toEqual(BOOK.entries[0]);
  expect(book.entries[1]).toEqual(BOOK.entries[1]);
  expect(book.entries[2]).toMatchObject({ keys: "moon, night", content: 42 });
});
