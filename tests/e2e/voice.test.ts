// A persona's voice (docs/product.md, Voice): added from the persona page, checked on the server
// with each field's message (and, with JavaScript, as fields are left), kept on a refused save,
// shown on the page and used as the chat's first message.
import { createAccount, expect, expectNoA11yViolations, personaBody, signIn, test, visit } from "./support";

const toast = (page: import("@playwright/test").Page) => page.getByTestId("toast").last();

test("add a voice: a refused save keeps what was typed; the saved greeting opens the chat", async ({ page, request }) => {
  const account = await createAccount(request);
  const created = await request.post("/api/personas", {
    headers: { Authorization: `Bearer ${account.token}` },
    data: personaBody("Kira Moon"),
  });
  const persona = (await created.json()) as { id: string };
  await signIn(page, account);
  await visit(page, `/persona/${persona.id}`);

  const voice = page.getByRole("region", { name: "Voice" });
  await expect(voice).toContainText("No voice yet");
  await voice.getByRole("link", { name: "Add a Voice" }).click();
  await expect(page).toHaveURL(new RegExp(`/persona/${persona.id}/voice$`));
  await expect(page.getByRole("heading", { level: 1, name: "Kira Moon's voice" })).toBeVisible();
  await expectNoA11yViolations(page);

  await page.getByLabel(/^Greeting/).fill("Heya, {{user}}! Kira here, still buzzing from stream.");
  await page.getByLabel("Speech Style").fill("Short, bright sentences.");
  // Six catchphrases: one too many.
  await page.getByLabel("Catchphrases").fill(["Stay cozy!", "GG, chat", "Nya~", "Let's go!", "Hydrate!", "One more round"].join("\n"));
  await page.getByRole("button", { name: "Save Voice" }).click();
  await expect(page.getByText("At most 5 catchphrases")).toBeVisible();
  await expect(page.getByLabel(/^Greeting/)).toHaveValue("Heya, {{user}}! Kira here, still buzzing from stream.");
  await expect(page.getByLabel("Speech Style")).toHaveValue("Short, bright sentences.");
  await expect(page.getByLabel("Catchphrases")).toHaveAttribute("aria-invalid", "true");
  await expectNoA11yViolations(page);

  await page.getByLabel("Catchphrases").fill(["Stay cozy!", "GG, chat"].join("\n"));
  await page.getByRole("button", { name: "Save Voice" }).click();
  await expect(page).toHaveURL(new RegExp(`/persona/${persona.id}(#voice)?$`));
  await expect(toast(page)).toContainText("Voice Saved");
  await expect(voice).toContainText("Heya, {{user}}! Kira here");
  await expect(voice).toContainText("Stay cozy!");
  await expect(voice.getByRole("link", { name: "Edit Voice" })).toBeVisible();

  await visit(page, `/persona/${persona.id}?tab=chat`);
  const log = page.getByRole("log");
  await expect(log).toContainText("Heya, you! Kira here, still buzzing from stream.");
  await expect(log).not.toContainText("How can I help you today?");
  await expectNoA11yViolations(page);

  // The saved voice is what the form opens with next time.
  await visit(page, `/persona/${persona.id}/voice`);
  await expect(page.getByLabel("Catchphrases")).toHaveValue("Stay cozy!\nGG, chat");

  // 'Suggest' drafts the empty fields from the persona's facts and traits; what was written stays; nothing is saved yet.
  await page.getByRole("button", { name: "Suggest for Empty Fields" }).click();
  await expect(page.getByText("Suggestions fill the empty fields")).toBeVisible();
  await expect(page.getByLabel(/^Greeting/)).toHaveValue("Heya, {{user}}! Kira here, still buzzing from stream.");
  await expect(page.getByLabel("Scenario")).not.toHaveValue("");
  await expect(page.getByLabel("Example Dialogue")).toHaveValue(/\{\{char\}\}: /);
  await expectNoA11yViolations(page);
  await visit(page, `/persona/${persona.id}`);
  await expect(voice).not.toContainText("Scenario");
});

test("guidance for chat models: saved with the voice, refused depths explained, carried by the card, followed in chat", async ({
  page,
  request,
}) => {
  const account = await createAccount(request);
  const headers = { Authorization: `Bearer ${account.token}` };
  const created = await request.post("/api/personas", { headers, data: personaBody("Kira Moon") });
  const persona = (await created.json()) as { id: string };
  await signIn(page, account);
  await visit(page, `/persona/${persona.id}/voice`);
  await expect(page.getByRole("heading", { level: 2, name: "Guidance for chat models" })).toBeVisible();
  await page.getByLabel(/^System Prompt/).fill("{{original}}\nNever break character.");
  await page.getByLabel(/^Post-History Instructions/).fill("Always write in lower case.");
  await page
    .getByLabel(/^Author's Note/, { exact: false })
    .first()
    .fill("{{char}} is sleepy tonight.");
  const depth = page.getByLabel("Author's Note Depth");
  await expect(depth).toHaveValue("4");
  await depth.fill("101");
  await page.getByRole("button", { name: "Save Voice" }).click();
  await expect(page.getByText("Author's note depth must be a whole number from 0 to 100")).toBeVisible();
  await expect(page.getByLabel(/^Post-History Instructions/)).toHaveValue("Always write in lower case.");
  await expectNoA11yViolations(page);
  await depth.fill("2");
  await page.getByRole("button", { name: "Save Voice" }).click();
  await expect(toast(page)).toContainText("Voice Saved");

  const voice = page.getByRole("region", { name: "Voice" });
  await expect(voice).toContainText("Post-History Instructions");
  await expect(voice).toContainText("Author's Note (depth 2)");
  await expect(voice).toContainText("{{char}} is sleepy tonight.");

  // The card carries it where SillyTavern reads it.
  const card = (await (await request.get(`/api/personas/${persona.id}/export?format=card-json`, { headers })).json()) as {
    data: { system_prompt: string; post_history_instructions: string; extensions: { depth_prompt: unknown } };
  };
  expect(card.data.system_prompt).toBe("{{original}}\nNever break character.");
  expect(card.data.post_history_instructions).toBe("Always write in lower case.");
  expect(card.data.extensions.depth_prompt).toEqual({ prompt: "{{char}} is sleepy tonight.", depth: 2, role: "system" });

  // The built-in generator follows the plain cue: every reply in lower case.
  const sent = await request.post(`/api/personas/${persona.id}/chat`, { headers, data: { message: "Where are you from?" } });
  const reply = ((await sent.json()) as { response: string }).response;
  expect(reply).toBe(reply.toLowerCase());
});

test("another creator's persona has no voice page for them", async ({ page, request }) => {
  const owner = await createAccount(request);
  const created = await request.post("/api/personas", {
    headers: { Authorization: `Bearer ${owner.token}` },
    data: personaBody("Private Kira"),
  });
  const persona = (await created.json()) as { id: string };
  const stranger = await createAccount(request);
  await signIn(page, stranger);
  const response = await visit(page, `/persona/${persona.id}/voice`);
  expect(response?.status()).toBe(404);
  await expect(page.getByText("Persona Not Found").first()).toBeVisible();
  // A post from the stranger changes nothing.
  const post = await page.request.post(`/persona/${persona.id}/voice`, {
    form: { greeting: "Hijacked" },
    headers: { Origin: new URL(page.url()).origin },
  });
  expect(post.status()).toBe(404);
  const read = await request.get(`/api/personas/${persona.id}`, { headers: { Authorization: `Bearer ${owner.token}` } });
  expect(JSON.stringify(await read.json())).not.toContain("Hijacked");
});
