// Chats that travel (docs/product.md, Chat: export and import), with JavaScript and without: a
// conversation downloads as SillyTavern's JSONL, Markdown and text from the Chat tab, and a
// SillyTavern chat imports into another persona's empty conversation; a file that is not one is
// refused with its reason and stores nothing (the JSON API's answers: api-chat-files.http.test.ts).
import { readFileSync } from "node:fs";

import type { Page } from "@playwright/test";

import { createAccount, createPersona, expect, expectNoA11yViolations, signIn, test, visit, type Account } from "./support";

const auth = (account: Account) => ({ Authorization: `Bearer ${account.token}` });
const toast = (page: Page) => page.getByTestId("toast").last();
const bubbles = (page: Page, role: "user" | "assistant") => page.locator(`[data-testid="chat-message"][data-role="${role}"]`);

test("a conversation downloads as SillyTavern's chat and comes back into another persona's chat", async ({ page, request }) => {
  const account = await createAccount(request);
  const first = await createPersona(request, account, "Mira Dawn");
  const sent = await request.post(`/api/personas/${first.id}/chat`, { headers: auth(account), data: { message: "Where are you from?" } });
  expect(sent.status(), await sent.text()).toBe(201);
  // Two alternatives of the reply, the first one shown: they travel as its swipes.
  const regenerated = (await (await request.post(`/api/personas/${first.id}/chat/regenerate`, { headers: auth(account) })).json()) as {
    messageId: string;
    alternatives: string[];
  };
  await request.post(`/api/personas/${first.id}/chat/messages/${regenerated.messageId}/choose`, {
    headers: auth(account),
    data: { index: 0 },
  });
  await signIn(page, account);

  await visit(page, `/persona/${first.id}?tab=chat`);
  const downloads = page.getByTestId("chat-downloads");
  await expect(downloads.getByRole("link")).toHaveText(["Text (.txt)", "SillyTavern chat (.jsonl)", "Markdown (.md)"]);
  await expectNoA11yViolations(page);
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download the chat with Mira Dawn as SillyTavern chat (.jsonl)" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe("Mira-Dawn-chat.jsonl");
  const jsonl = readFileSync((await file.path())!, "utf8");
  const lines = jsonl
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(lines[0]).toMatchObject({ user_name: "You", character_name: "Mira Dawn" });
  expect(lines.slice(1).map((line) => [line.is_user, typeof line.mes])).toEqual([
    [true, "string"],
    [false, "string"],
  ]);
  expect(lines[1]!.mes).toBe("Where are you from?");
  expect(lines[2]).toMatchObject({ mes: regenerated.alternatives[0], swipes: regenerated.alternatives, swipe_id: 0 });
  // Without messages there is nothing to download, and an empty conversation offers the import.
  const second = await createPersona(request, account, "Noor Vale");
  await visit(page, `/persona/${second.id}?tab=chat`);
  await expect(page.getByTestId("chat-downloads")).toHaveCount(0);
  const form = page.getByTestId("chat-import");
  await form
    .getByLabel("Import a SillyTavern chat (.jsonl)")
    .setInputFiles({ name: "mira.jsonl", mimeType: "application/jsonl", buffer: Buffer.from(jsonl) });
  await expectNoA11yViolations(page);
  await form.getByRole("button", { name: "Import chat" }).click();
  await expect(toast(page)).toContainText("Chat Imported");
  await expect(toast(page)).toContainText("2 messages were added to the conversation.");
  await expect(bubbles(page, "user")).toHaveText([/Where are you from\?/]);
  await expect(bubbles(page, "assistant")).toHaveCount(1);
  await expect(page.getByTestId("chat-count")).toHaveText("2 messages");
  await expect(page.getByTestId("chat-import")).toHaveCount(0);
  // The swipes came in as the reply's alternatives, the chosen one shown.
  await expect(page.getByTestId("chat-alternative-position")).toContainText("1 / 2");
  await expect(bubbles(page, "assistant").getByTestId("chat-message-text")).toHaveText(regenerated.alternatives[0]!);
  // The same text as the first persona's reply, now in the second persona's conversation.
  const back = await request.get(`/api/personas/${second.id}/chat/export?format=jsonl`, { headers: auth(account) });
  expect(back.headers()["content-type"] ?? "").toMatch(/^application\/jsonl/);
  const again = (await back.text())
    .trimEnd()
    .split("\n")
    .slice(1)
    .map((line) => JSON.parse(line) as { mes: string });
  expect(again.map((line) => line.mes)).toEqual(lines.slice(1).map((line) => line.mes));
});

test("a file that is not a SillyTavern chat is refused with its reason, and nothing is stored", async ({ page, request }) => {
  const account = await createAccount(request);
  const persona = await createPersona(request, account, "Ilse Row");
  await signIn(page, account);
  await visit(page, `/persona/${persona.id}?tab=chat`);
  const form = page.getByTestId("chat-import");
  await form.getByLabel("Import a SillyTavern chat (.jsonl)").setInputFiles({
    name: "notes.jsonl",
    mimeType: "text/plain",
    buffer: Buffer.from("Dear diary,\nnothing happened today.\n"),
  });
  await form.getByRole("button", { name: "Import chat" }).click();
  await expect(toast(page)).toContainText("Chat Not Imported");
  await expect(toast(page)).toContainText(
    "This is not a SillyTavern chat: its first line must be the chat's header (user_name, character_name).",
  );
  await expect(page.getByTestId("chat-count")).toHaveText("0 messages");
  await expect(page.getByTestId("chat-import")).toBeVisible();
});
