// A character card keeps its voice (docs/product.md, Exports and character cards): a SillyTavern
// V2 card's first_mes is the persona's greeting; what the card does not say (type, gender, age
// range, interests) is asked in one short step with guesses prefilled; then the chat opens with
// the card's greeting at once. With JavaScript and without.
import { createAccount, expect, expectNoA11yViolations, signIn, test, visit } from "./support";

const toast = (page: import("@playwright/test").Page) => page.getByTestId("toast").last();

const CARD = {
  spec: "chara_card_v2",
  spec_version: "2.0",
  data: {
    name: "Mochi Byte",
    description: "{{char}} is a cyber-cat who naps on warm servers. She streams her naps on Twitch.\nLives in: Neo Tokyo",
    personality: "mischievous, loyal, curious",
    scenario: "{{user}} finds {{char}} asleep on a server rack.",
    first_mes: "<p>*Mochi blinks slowly.* Nya? Oh, it's {{user}}. You're late.</p>",
    mes_example: "<START>\n{{user}}: Hi Mochi\n{{char}}: Mrrp. Hi.",
    alternate_greetings: ["*yawns* Again?"],
    tags: ["cat", "gaming"],
    creator: "catfan",
    character_version: "1.2",
    extensions: { talkativeness: "0.5" },
  },
};

test("import a V2 card with a greeting, confirm the guessed details, and chat with its greeting at once", async ({ page, request }) => {
  test.slow();
  const account = await createAccount(request);
  await signIn(page, account);
  await visit(page, "/my-personas");
  await page.getByText("Import a Character Card").click();
  await page.getByLabel(/Card file/).setInputFiles({
    name: "mochi.json",
    mimeType: "application/json",
    buffer: Buffer.from(JSON.stringify(CARD)),
  });
  await page.getByRole("button", { name: "Import" }).click();

  // One short step: the card's missing choices, guessed from its words.
  await expect(page).toHaveURL(/\/persona\/[0-9a-f-]{36}\/finish-import$/);
  await expect(toast(page)).toContainText("Character Imported");
  await expect(toast(page)).toContainText("HTML markup was removed from the greeting");
  await expect(page.getByRole("heading", { level: 1, name: "Finish importing Mochi Byte" })).toBeVisible();
  await expect(page.getByLabel("Type")).toHaveValue("vtuber");
  await expect(page.getByLabel("Gender")).toHaveValue("female");
  await expect(page.getByLabel("Age Range")).toHaveValue("25-34");
  await expect(page.getByRole("checkbox", { name: "Gaming" })).toBeChecked();
  await expectNoA11yViolations(page);

  // No interest: refused on its field, the other choices kept.
  const interests = page.getByRole("group", { name: "Interests" });
  for (const box of await interests.getByRole("checkbox").all()) if (await box.isChecked()) await box.uncheck();
  await page.getByLabel("Gender").selectOption("non-binary");
  await page.getByRole("button", { name: "Start Chatting" }).click();
  await expect(page.getByText("At least one interest is required")).toBeVisible();
  await expect(page.getByLabel("Gender")).toHaveValue("non-binary");
  await expectNoA11yViolations(page);

  await page.getByRole("checkbox", { name: "Gaming" }).check();
  await page.getByRole("button", { name: "Start Chatting" }).click();
  await expect(page).toHaveURL(/\/persona\/[0-9a-f-]{36}\?tab=chat$/);
  await expect(toast(page)).toContainText("Persona Ready");
  const log = page.getByRole("log");
  await expect(log.getByTestId("chat-greeting")).toHaveText(/\*Mochi blinks slowly\.\* Nya\? Oh, it's you\. You're late\./);
  await expect(log).not.toContainText("How can I help you today?");
  await expect(log).not.toContainText("<p>");
  await expectNoA11yViolations(page);

  // The voice and the card's facts are on the persona page; what the card does not say is not stated.
  const id = /\/persona\/([0-9a-f-]{36})/.exec(page.url())![1]!;
  await visit(page, `/persona/${id}`);
  const voice = page.getByRole("region", { name: "Voice" });
  await expect(voice).toContainText("{{user}} finds {{char}} asleep on a server rack.");
  await expect(voice).toContainText("*yawns* Again?");
  await expect(page.getByText("Personality: mischievous, loyal, curious")).toBeVisible();
  await expect(page.getByText("Neo Tokyo").first()).toBeVisible();
  await expect(page.getByText("Not stated").first()).toBeVisible();

  // The exported card carries the voice: the card's own greeting (as it came) and example dialogue.
  const card = await page.request.get(`/api/personas/${id}/export?format=card-json`);
  const data = ((await card.json()) as { data: Record<string, unknown> }).data;
  expect(data.first_mes).toBe(CARD.data.first_mes);
  expect(data.mes_example).toBe(CARD.data.mes_example);
  expect(data.alternate_greetings).toEqual(CARD.data.alternate_greetings);
  expect(data.scenario).toBe(CARD.data.scenario);
});

test("the finishing step is only for an imported draft of the creator's own", async ({ page, request }) => {
  const owner = await createAccount(request);
  const imported = await request.post("/api/personas/import", {
    headers: { Authorization: `Bearer ${owner.token}` },
    data: CARD,
  });
  expect(imported.status()).toBe(201);
  const persona = (await imported.json()) as { id: string; status: string; importNotes: string[] };
  expect(persona.status).toBe("in_progress");
  expect(persona.importNotes).toEqual(["HTML markup was removed from the greeting: the voice keeps plain text."]);

  // The owner's ways back to it lead to the short step, not the wizard: the page's Continue Creating and the chat's note.
  await signIn(page, owner);
  await visit(page, `/persona/${persona.id}`);
  await expect(page.getByRole("link", { name: "Continue Creating" }).first()).toHaveAttribute(
    "href",
    `/persona/${persona.id}/finish-import`,
  );
  await visit(page, `/persona/${persona.id}?tab=chat`);
  await expect(page.getByTestId("chat-panel").getByRole("link", { name: "Continue Creating" })).toHaveAttribute(
    "href",
    `/persona/${persona.id}/finish-import`,
  );

  const stranger = await createAccount(request);
  await signIn(page, stranger);
  const response = await visit(page, `/persona/${persona.id}/finish-import`);
  expect(response?.status()).toBe(404);
  const post = await page.request.post(`/persona/${persona.id}/finish-import`, {
    form: { type: "vtuber", gender: "female", ageRange: "25-34", interests: "gaming" },
    headers: { Origin: new URL(page.url()).origin },
  });
  expect(post.status()).toBe(404);
  const read = await request.get(`/api/personas/${persona.id}`, { headers: { Authorization: `Bearer ${owner.token}` } });
  expect(((await read.json()) as { status: string }).status).toBe("in_progress");

  // The JSON API finishes it too, checked like 'Create Persona'.
  const auth = { Authorization: `Bearer ${owner.token}` };
  const refused = await request.post(`/api/personas/${persona.id}/finish-import`, {
    headers: auth,
    data: { type: "vtuber", gender: "female", ageRange: "25-34", interests: [] },
  });
  expect(refused.status()).toBe(400);
  expect(((await refused.json()) as { errors: Record<string, string[]> }).errors).toEqual({
    interests: ["At least one interest is required"],
  });
  const finished = await request.post(`/api/personas/${persona.id}/finish-import`, {
    headers: auth,
    data: { type: "vtuber", gender: "female", ageRange: "25-34", interests: ["gaming"] },
  });
  expect(finished.status()).toBe(200);
  expect(((await finished.json()) as { status: string }).status).toBe("active");
  const again = await request.post(`/api/personas/${persona.id}/finish-import`, {
    headers: auth,
    data: { type: "vtuber", gender: "female", ageRange: "25-34", interests: ["gaming"] },
  });
  expect(again.status()).toBe(409);
});
