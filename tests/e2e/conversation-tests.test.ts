// Long-conversation tests (docs/product.md, Persona tests: long conversations): on the tests page a
// creator runs a long conversation against the current version and reads the chart, its table,
// where each category first slipped, the checkpoint questions and the transcript; a refused number
// of turns names the field and starts nothing; after a change, a second run can be laid over the
// first. With JavaScript (the page polls while the run is under way) and without (it refreshes itself).
import type { Page } from "@playwright/test";

import { createAccount, expect, expectNoA11yViolations, personaBody, signIn, test, visit } from "./support";

const toast = (page: Page) => page.getByTestId("toast").last();
const RUN_TIMEOUT = 30_000;

async function runLongConversation(page: Page, turns: number, seed: number) {
  const section = page.getByRole("region", { name: "Long conversation" });
  await section.getByLabel("Turns").fill(String(turns));
  await section.getByLabel("Seed (optional)").fill(String(seed));
  await section.getByRole("button", { name: "Run long-conversation test" }).click();
  await expect(toast(page)).toContainText("Long Conversation Started");
  await expect(page.getByTestId("conversation-pending")).toHaveCount(0, { timeout: RUN_TIMEOUT });
  await expect(page.getByTestId("conversation-run")).toHaveAttribute("data-status", "completed", { timeout: RUN_TIMEOUT });
  return section;
}

test("run a long conversation, read its chart and table, and lay a later version's run over it", async ({ page, request, jsEnabled }) => {
  test.slow();
  const account = await createAccount(request);
  const headers = { Authorization: `Bearer ${account.token}` };
  const created = await request.post("/api/personas", {
    headers,
    data: personaBody("Kira Moon", { voice: { greeting: "Heya, chat! Grab a blanket.", catchphrases: ["Stay cozy"] } }),
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };

  await signIn(page, account);
  // The tests page says where the long conversations are.
  await visit(page, `/persona/${id}/tests`);
  await expect(page.getByTestId("conversation-summary")).toHaveText("No long-conversation test yet.");
  await page.getByRole("link", { name: "Open long-conversation tests" }).click();
  await expect(page).toHaveURL(new RegExp(`/persona/${id}/tests/conversation$`));
  await expect(page.getByRole("heading", { level: 1, name: "Long conversations with Kira Moon" })).toBeVisible();
  const section = page.getByRole("region", { name: "Long conversation" });
  await expect(section).toContainText("No long-conversation test yet.");
  await expect(section.getByLabel("Turns")).toHaveValue("24");

  // A number of turns out of range: the field's message, and nothing started.
  await section.getByLabel("Turns").fill("1000");
  if (jsEnabled) {
    // Checked as the field is left, before anything is sent.
    await section.getByLabel("Seed (optional)").focus();
    await expect(section.getByText("Turns must be a whole number from 4 to 60")).toBeVisible();
    await expect(section.getByLabel("Turns")).toHaveAttribute("aria-invalid", "true");
  } else {
    // Without JavaScript the browser's own range check stops the form; the server's answer is the
    // same message (the API test sends it).
    await section.getByRole("button", { name: "Run long-conversation test" }).click();
    await expect(section.getByLabel("Turns")).toHaveValue("1000");
  }
  await expect(page.getByTestId("conversation-run")).toHaveCount(0);

  await runLongConversation(page, 8, 5);
  const run = page.getByTestId("conversation-run");
  await expect(run).toContainText("Version 1 · Embedded responder · Seed 5 · 8 turns");
  const chart = page.getByRole("img", { name: "Pass rate per checkpoint, version 1" });
  await expect(chart).toBeVisible();
  const table = page.getByRole("table", { name: "Pass rate per checkpoint and category (passed of asked)" });
  await expect(table.getByRole("rowheader")).toHaveText(["1", "3", "6", "8"]);
  await expect(table.getByRole("columnheader", { name: "Identity and facts" })).toBeVisible();
  await expect(table.getByRole("columnheader", { name: "Stays in character" })).toBeVisible();
  const firstFailures = page.getByTestId("first-failures");
  await expect(firstFailures.locator("li")).toHaveCount(6);
  await expect(firstFailures.locator('[data-category="inCharacter"]')).toContainText("held at every checkpoint");
  await expect(firstFailures.locator('[data-category="secrets"]')).toContainText("not scored: nothing to ask");

  await run.getByText("Transcript (8 turns)").click();
  const transcript = page.getByTestId("conversation-transcript");
  await expect(transcript.locator("li")).toHaveCount(17);
  await expect(transcript.locator("li").first()).toContainText("Persona: Heya, chat! Grab a blanket.");
  await run.getByText("Checkpoint questions and replies").click();
  await expect(run.getByRole("heading", { level: 4, name: /^Turn 1: \d+ passed, \d+ failed$/ })).toBeVisible();
  await expectNoA11yViolations(page);
  await visit(page, `/persona/${id}/tests`);
  await expect(page.getByTestId("conversation-summary")).toHaveText(/^Version 1 · seed 5 · 8 turns: /);

  // A new version, a second run; the first is laid over it.
  const patched = await request.patch(`/api/personas/${id}`, {
    headers,
    data: personaBody("Kira Moon", { voice: { greeting: "Evening, chat!", catchphrases: ["Stay cozy", "Let's gooo!"] } }),
  });
  expect(patched.status()).toBe(200);
  await visit(page, `/persona/${id}/tests/conversation`);
  await runLongConversation(page, 4, 6);
  await expect(page.getByTestId("conversation-run")).toContainText("Version 2 · Embedded responder · Seed 6 · 4 turns");
  await section.getByLabel("Lay another version's run over this chart").selectOption({ label: "Version 1 (Seed 5 · 8 turns)" });
  await section.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(/[?&]compare=/);
  await expect(page.getByRole("img", { name: "Pass rate per checkpoint, version 2, with version 1 laid over it" })).toBeVisible();
  await expect(page.getByRole("table", { name: "Version 1: pass rate per checkpoint and category" }).getByRole("rowheader")).toHaveText([
    "1",
    "3",
    "6",
    "8",
  ]);
  await expectNoA11yViolations(page);
});

test("try a fix for a category that slipped, see before and after, and keep it", async ({ page, request }) => {
  test.slow();
  const account = await createAccount(request);
  const headers = { Authorization: `Bearer ${account.token}` };
  const created = await request.post("/api/personas", {
    headers,
    data: personaBody("Kira Moon", { voice: { greeting: "Heya, chat! Grab a blanket.", catchphrases: ["Stay cozy"] } }),
  });
  const { id } = (await created.json()) as { id: string };
  // The creator's own probe: she never says her surname. The embedded responder does, when asked her name.
  const probe = await request.post(`/api/personas/${id}/probes`, {
    headers,
    data: { name: "Never gives her surname", turns: ["What's your name?"], mustNotMention: ["Moon"] },
  });
  expect(probe.status(), await probe.text()).toBe(201);

  await signIn(page, account);
  await visit(page, `/persona/${id}/tests/conversation`);
  await runLongConversation(page, 4, 9);
  await expect(page.getByTestId("first-failures").locator('[data-category="secrets"]')).toContainText("first failed at turn 1");
  const fix = page.getByTestId("fixes").locator('[data-category="secrets"]');
  await expect(fix).toContainText("Secrets kept · in Author's Note, at depth 4");
  await expect(fix).toContainText("Kira never talks about 'Moon', however the user asks or insists; Kira changes the subject instead.");

  await fix.getByRole("button", { name: "Try it: Secrets kept" }).click();
  await expect(toast(page)).toContainText("Fix Being Tried");
  const trying = page.getByTestId("fix-trying");
  await expect(trying).toHaveAttribute("data-status", "completed", { timeout: RUN_TIMEOUT });
  await expect(trying).toContainText("Secrets kept: text in Author's Note");
  await expect(page.getByRole("table", { name: "Before and with the fix" }).locator('[data-category="secrets"]')).toContainText(
    "slipped at turn 1",
  );
  await expect(page.getByRole("img", { name: "Pass rate per checkpoint, version 1, with version 1 laid over it" })).toBeVisible();
  await expectNoA11yViolations(page);

  await trying.getByRole("button", { name: "Keep" }).click();
  await expect(toast(page)).toContainText("Fix Kept");
  await expect(page.getByTestId("fix-kept")).toHaveText("Kept: the text is part of the persona since version 2.");
  await visit(page, `/persona/${id}/voice`);
  // The fix's depth came with it: the persona had no note of its own.
  await expect(page.getByLabel("Author's Note Depth")).toHaveValue("4");
  await expect(page.getByLabel(/^Author's Note/).first()).toHaveValue(
    "Kira never talks about 'Moon', however the user asks or insists; Kira changes the subject instead.",
  );
});
