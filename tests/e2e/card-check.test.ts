// The card check (docs/cards.md, Card check): a card with problems is imported, its check says
// what other chat apps will do with it, a fix is one button and becomes a version with a history
// note, and the export carries the fix. With JavaScript and without.
import { createAccount, expect, expectNoA11yViolations, signIn, test, visit } from "./support";

const toast = (page: import("@playwright/test").Page) => page.getByTestId("toast").last();

const CARD = {
  spec: "chara_card_v2",
  spec_version: "2.0",
  data: {
    name: "Mira Vale",
    description: "{{char}} is a cartographer who maps the drowned city.",
    personality: "curious, patient",
    scenario: "",
    first_mes: "Hello, {{user}}. Mind the water.",
    mes_example: "",
    creator_notes: "",
    system_prompt: "",
    post_history_instructions: "",
    alternate_greetings: [],
    tags: ["fantasy", "female"],
    creator: "someone",
    character_version: "2",
    extensions: { world: "Drowned City" },
    character_book: {
      entries: [
        {
          keys: ["tower"],
          content: "@@depth 4\n@@role system\nThe old tower leans east.",
          enabled: true,
          insertion_order: 10,
          extensions: {},
        },
      ],
    },
  },
};

test("import a card with problems, read its check, apply a fix, and export it fixed", async ({ page, request }) => {
  test.slow();
  const account = await createAccount(request);
  await signIn(page, account);
  await visit(page, "/my-personas");
  await page.getByText("Import a Character Card").click();
  await page
    .getByLabel(/Card file/)
    .setInputFiles({ name: "mira.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(CARD)) });
  await page.getByRole("button", { name: "Import" }).click();
  await expect(page).toHaveURL(/\/finish-import$/);
  await expect(toast(page)).toContainText("The card check found 2 warnings: see Card check on the persona's page.");
  await page.getByRole("button", { name: "Start Chatting" }).click();
  await expect(page).toHaveURL(/\?tab=chat$/);
  const id = /\/persona\/([0-9a-f-]{36})/.exec(page.url())![1]!;

  // From the persona page to its card check.
  await visit(page, `/persona/${id}`);
  await page.getByRole("link", { name: "Check the card" }).click();
  await expect(page).toHaveURL(`/persona/${id}/card-check`);
  await expect(page.getByRole("heading", { level: 1, name: "Card check: Mira Vale" })).toBeVisible();
  const findings = page.getByRole("list", { name: "Findings" }).getByTestId("card-finding");
  await expect(findings).toHaveCount(2);
  const decorators = findings.filter({ hasText: "starts with RisuAI decorators" });
  await expect(decorators).toContainText("Agnai and Backyard AI send them to the model as text");
  await expect(decorators).toContainText("SillyTavern, Agnai, Backyard AI");
  await expect(findings.filter({ hasText: "World Info file" })).toContainText("Drowned City");
  await expectNoA11yViolations(page);

  // What survives where: Agnai merges the personality into the description.
  const agnai = page.getByTestId("survival-agnai");
  await agnai.getByText("Agnai:").click();
  const personality = agnai.getByRole("row", { name: /^personality / });
  await expect(personality).toContainText("Changed");
  await expect(personality).toContainText("Merged into the description.");
  await expectNoA11yViolations(page);

  await decorators.getByRole("button", { name: /Turn the decorators into entry settings/ }).click();
  await expect(toast(page)).toContainText("Fix Applied");
  await expect(toast(page)).toContainText("into entry settings");
  await expect(findings).toHaveCount(1);
  await expect(findings.first()).toContainText("World Info file");

  // A fix is a version with a note in history.
  await visit(page, `/persona/${id}/history`);
  await expect(page.getByTestId("versions").locator("li").first()).toContainText(/Card check: turned @@depth 4, @@role system/);

  // The exported card carries the fix.
  const exported = await page.request.get(`/api/personas/${id}/export?format=card-json`);
  const card = (await exported.json()) as {
    data: { character_book: { entries: { content: string; extensions: Record<string, unknown> }[] } };
  };
  expect(card.data.character_book.entries[0]).toMatchObject({
    content: "The old tower leans east.",
    extensions: { position: 4, depth: 4, role: 0 },
  });
});

test("a fix on a card that changed meanwhile says so and changes nothing", async ({ page, request }) => {
  const account = await createAccount(request);
  await signIn(page, account);
  const auth = { Authorization: `Bearer ${account.token}` };
  const imported = await request.post("/api/personas/import", { headers: auth, data: CARD });
  expect(imported.status()).toBe(201);
  const { id, finishImport } = (await imported.json()) as { id: string; finishImport: { guess: Record<string, unknown> } };
  expect(
    (
      await request.post(`/api/personas/${id}/finish-import`, { headers: auth, data: { ...finishImport.guess, gender: "female" } })
    ).status(),
  ).toBe(200);

  await visit(page, `/persona/${id}/card-check`);
  // Meanwhile, in another tab, the world is unlinked.
  const fixed = await request.post(`/api/personas/${id}/card-check/fix`, {
    headers: auth,
    data: { rule: "linked-world", field: "extensions.world" },
  });
  expect(fixed.status()).toBe(200);
  await page
    .getByRole("list", { name: "Findings" })
    .getByTestId("card-finding")
    .filter({ hasText: "World Info file" })
    .getByRole("button", { name: /Unlink the World Info file/ })
    .click();
  await expect(toast(page)).toContainText("Fix Not Applied");
  await expect(toast(page)).toContainText("The persona changed since this check");
  await expect(page.getByRole("list", { name: "Findings" }).getByTestId("card-finding")).toHaveCount(1);
});

test("export a persona for Agnai from the Download menu and import the file again", async ({ page, request, jsEnabled }) => {
  test.slow();
  const account = await createAccount(request);
  const auth = { Authorization: `Bearer ${account.token}` };
  const imported = await request.post("/api/personas/import", { headers: auth, data: CARD });
  const { id, finishImport } = (await imported.json()) as { id: string; finishImport: { guess: Record<string, unknown> } };
  expect(
    (
      await request.post(`/api/personas/${id}/finish-import`, { headers: auth, data: { ...finishImport.guess, gender: "female" } })
    ).status(),
  ).toBe(200);

  await signIn(page, account);
  await visit(page, `/persona/${id}`);
  const menu = page.getByTestId("download-menu");
  await menu.getByText("Download").click();
  const download = page.waitForEvent("download");
  await menu.getByRole(jsEnabled ? "menuitem" : "link", { name: "For Agnai .json", exact: true }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe("mira_vale_profile.agnai.card.json");
  if (jsEnabled) await expect(toast(page)).toContainText("Persona profile exported in CHARACTER CARD JSON FOR AGNAI format.");
  const saved = await file.path();

  // The menu leads to what each app keeps before a file is chosen.
  await visit(page, `/persona/${id}`);
  await menu.getByText("Download").click();
  await menu.getByRole(jsEnabled ? "menuitem" : "link", { name: "What each app keeps of the card" }).click();
  await expect(page).toHaveURL(`/persona/${id}/card-check#survival-heading`);
  await expect(page.getByRole("heading", { level: 2, name: "What survives where" })).toBeVisible();
  const card = JSON.parse(await (await import("node:fs/promises")).readFile(saved, "utf8")) as { spec: string; data: { name: string } };
  expect(card.spec).toBe("chara_card_v2");

  await visit(page, "/my-personas");
  await page.getByText("Import a Character Card").click();
  await page.getByLabel(/Card file/).setInputFiles(saved);
  await page.getByRole("button", { name: "Import" }).click();
  await expect(page).toHaveURL(/\/persona\/[0-9a-f-]{36}$/);
  await expect(toast(page)).toContainText("Character Imported");
  await expect(page.getByRole("heading", { level: 1, name: "Mira Vale" })).toBeVisible();
  await expectNoA11yViolations(page);
});

test("run the persona's tests as each app would see the card and read where they fail", async ({ page, request }) => {
  test.slow();
  const account = await createAccount(request);
  const auth = { Authorization: `Bearer ${account.token}` };
  const imported = await request.post("/api/personas/import", { headers: auth, data: CARD });
  const { id, finishImport } = (await imported.json()) as { id: string; finishImport: { guess: Record<string, unknown> } };
  expect(
    (
      await request.post(`/api/personas/${id}/finish-import`, { headers: auth, data: { ...finishImport.guess, gender: "female" } })
    ).status(),
  ).toBe(200);
  for (const probe of [
    { name: "Greets", turns: ["Hi!"], inCharacter: true },
    { name: "The tower", turns: ["Tell me about the tower."], mustMention: ["tower"] },
  ])
    expect((await request.post(`/api/personas/${id}/probes`, { headers: auth, data: probe })).status()).toBe(201);

  await signIn(page, account);
  await visit(page, `/persona/${id}/card-check`);
  const behaviour = page.getByRole("region", { name: "Your tests in each app" });
  await expect(behaviour.getByTestId("behaviour-status")).toContainText(/No run of version \d+ yet\./);
  await behaviour.getByRole("button", { name: "Run the tests in each app" }).click();
  await expect(toast(page)).toContainText("Tests Started");
  // The page follows the run (it polls with JavaScript, refreshes itself without) until it ends.
  await expect(behaviour.getByTestId("behaviour-summary")).toContainText(
    /^Your tests pass \d\/2 here, \d\/2 in SillyTavern, .*\d\/2 in Agnai\.$/,
    {
      timeout: 60_000,
    },
  );
  await expect(behaviour).toContainText("embedded responder");
  // Backyard AI sends the decorator lines as text; its line says what its prompt lacks.
  const backyard = page.getByTestId("survival-backyard");
  await expect(backyard.getByTestId("tests-backyard")).toContainText(/tests \d\/2 pass/);
  await backyard.getByText("Backyard AI:").click();
  await expect(backyard).toContainText("Not in what Backyard AI gives the model:");
  await expect(backyard).toContainText("lorebook: 1 entry sends its @@ lines as text");
  await expectNoA11yViolations(page);

  // The API reads the same run.
  const survival = (await (await request.get(`/api/personas/${id}/survival`, { headers: auth })).json()) as {
    run: { runId: string; status: string };
    targets: { target: string; tests: { passed: number; failed: number; status: string } }[];
  };
  expect(survival.run.status).toBe("completed");
  expect(survival.targets.map((target) => target.tests.status)).toEqual(Array(6).fill("completed"));
});
