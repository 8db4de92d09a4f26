// Chatting with a persona, with JavaScript and without: open the Chat tab, send, see the reply
// in character, reload and keep it, regenerate, clear; drafts and archived personas; a double
// submit of the no-JavaScript form stores one message.
import type { APIRequestContext, Locator, Page } from "@playwright/test";

import { createAccount, expect, expectNoA11yViolations, signIn, test, visit, type Account } from "./support";

const NOVA = {
  name: "Nova Lumen",
  type: "vtuber",
  gender: "female",
  ageRange: "18-24",
  interests: ["gaming", "music"],
  description: "A cheerful late-night streamer.",
  personality: ["Outgoing", "Creative"],
};

const auth = (account: Account) => ({ Authorization: `Bearer ${account.token}` });
const toast = (page: Page) => page.getByTestId("toast").last();
const bubbles = (page: Page, role: "user" | "assistant") => page.locator(`[data-testid="chat-message"][data-role="${role}"]`);

async function personaOf(request: APIRequestContext, account: Account, path = "/api/personas", data: Record<string, unknown> = NOVA) {
  const res = await request.post(path, { headers: auth(account), data });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { id: string; name: string };
}

async function birthplaceOf(request: APIRequestContext, account: Account, id: string): Promise<string> {
  const res = await request.get(`/api/personas/${id}/export?format=json`, { headers: auth(account) });
  return ((await res.json()) as { extended: { birthplace: string } }).extended.birthplace;
}

/** The words of an element's text that start on one line and end on another. */
function wordsBrokenAcrossLines(element: Locator): Promise<string[]> {
  return element.evaluate((root) => {
    const broken: string[] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? "";
      for (const match of text.matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const lines = new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top)));
        if (lines.size > 1) broken.push(match[0]);
      }
    }
    return broken;
  });
}

test.describe("the chat in view", () => {
  for (const size of ["desktop", "phone"] as const) {
    test(`${size}: the Chat tab opens with the input and the newest message in view; after Send the newest exchange is above the input`, async ({
      page,
      request,
      jsEnabled,
    }) => {
      await page.setViewportSize(size === "desktop" ? { width: 1280, height: 800 } : { width: 390, height: 844 });
      const account = await createAccount(request);
      const persona = await personaOf(request, account);
      // A conversation long enough to scroll.
      for (let i = 0; i < 4; i++) {
        const sent = await request.post(`/api/personas/${persona.id}/chat`, {
          headers: auth(account),
          data: { message: `Tell me about day ${i}.` },
        });
        expect(sent.status()).toBe(201);
      }
      await signIn(page, account);
      await visit(page, `/persona/${persona.id}`);
      await page.getByRole(jsEnabled ? "tab" : "link", { name: "Chat", exact: true }).click();
      const input = page.getByLabel("Message");
      await expect(input).toBeInViewport({ ratio: 1 });
      await expect(bubbles(page, "assistant").last()).toBeInViewport();
      // The title wraps between words, never inside one ('Conversati / on').
      const title = page.getByTestId("chat-panel").getByRole("heading", { level: 2 });
      await expect(title).toHaveText(/^Conversation with /);
      expect(await wordsBrokenAcrossLines(title)).toEqual([]);
      // 'Enter sends' is true only with JavaScript.
      // Without it the line is kept empty-looking (so hydrating moves nothing) and hidden from screen readers.
      const hint = page.getByText("Enter sends, Shift+Enter makes a new line.");
      if (jsEnabled) await expect(hint).toBeVisible();
      else await expect(hint).toBeHidden();

      await input.fill("What did you do last night?");
      await page.getByRole("button", { name: "Send" }).click();
      await expect(bubbles(page, "user")).toHaveCount(5);
      await expect(bubbles(page, "assistant")).toHaveCount(5, { timeout: 15_000 });
      await expect(bubbles(page, "user").last()).toBeInViewport();
      await expect(bubbles(page, "assistant").last()).toBeInViewport();
      await expect(page.getByLabel("Message")).toBeInViewport({ ratio: 1 });
    });
  }
});

test.describe("alternatives of a reply (swipes)", () => {
  for (const size of ["desktop", "phone"] as const) {
    test(`${size}: Regenerate keeps every alternative, ‹ › flips between them, and the conversation goes on from the one shown`, async ({
      page,
      request,
      jsEnabled,
    }) => {
      if (size === "phone") await page.setViewportSize({ width: 390, height: 844 });
      const account = await createAccount(request);
      const persona = await personaOf(request, account);
      const api = `/api/personas/${persona.id}/chat`;
      expect((await request.post(api, { headers: auth(account), data: { message: "Tell me about your stream." } })).status()).toBe(201);
      await signIn(page, account);
      await visit(page, `/persona/${persona.id}?tab=chat`);
      const reply = bubbles(page, "assistant").last().getByTestId("chat-message-text");
      const position = page.getByTestId("chat-alternative-position");
      const previous = page.getByRole("button", { name: "Show the previous alternative" });
      const next = page.getByRole("button", { name: "Show the next alternative" });
      await expect(position).toHaveCount(0);

      for (const n of [2, 3]) {
        await page.getByRole("button", { name: "Regenerate response" }).click();
        await expect(position).toContainText(`${n} / ${n}`);
      }
      const listed = (await (await request.get(api, { headers: auth(account) })).json()) as { alternatives: string[] }[];
      const texts = listed.at(-1)!.alternatives;
      expect(new Set(texts).size).toBe(3);
      await expect(reply).toHaveText(texts[2]!);
      await expect(position).toContainText("Alternative 3 of 3");
      // At the newest, › goes nowhere.
      if (jsEnabled) await expect(next).toHaveAttribute("aria-disabled", "true");
      else await expect(next).toBeDisabled();
      await expectNoA11yViolations(page);

      await previous.click();
      await expect(position).toContainText("2 / 3");
      await expect(reply).toHaveText(texts[1]!);
      if (!jsEnabled) await expect(page).toHaveURL(/\?tab=chat#newest$/);
      if (jsEnabled) {
        // From the keyboard: the arrow keeps the focus, and flips again.
        await expect(previous).toBeFocused();
        await page.keyboard.press("Enter");
        await expect(position).toContainText("1 / 3");
        await expect(previous).toHaveAttribute("aria-disabled", "true");
        await next.focus();
        await page.keyboard.press("Enter");
        await expect(position).toContainText("2 / 3");
      }
      if (!jsEnabled) {
        // A form that names an alternative that is not there: 400 with the reason, nothing changes.
        const id = ((await (await request.get(api, { headers: auth(account) })).json()) as { id: string }[]).at(-1)!.id;
        const refused = await page.request.post(`/persona/${persona.id}?tab=chat`, {
          form: { intent: "choose", messageId: id, index: "7" },
          headers: { Origin: new URL(page.url()).origin },
          maxRedirects: 0,
        });
        expect(refused.status()).toBe(400);
        expect(await refused.text()).toContain("This reply has 3 alternatives: index must be a whole number from 0 to 2.");
      }
      // What is shown is what the server keeps, through a reload (once the last choice is saved).
      await expect(page.getByTestId("chat-alternatives")).not.toHaveAttribute("data-saving", "true");
      await visit(page, `/persona/${persona.id}?tab=chat`);
      await expect(reply).toHaveText(texts[1]!);
      await expect(position).toContainText("2 / 3");

      // The conversation goes on from the alternative shown; the older reply's arrows go.
      await page.getByPlaceholder("Type a message...").fill("And what else?");
      await page.getByRole("button", { name: "Send", exact: true }).click();
      await expect(bubbles(page, "assistant")).toHaveCount(2);
      await expect(position).toHaveCount(0);
      await expect(bubbles(page, "assistant").first().getByTestId("chat-message-text")).toHaveText(texts[1]!);
      const after = (await (await request.get(api, { headers: auth(account) })).json()) as { content: string }[];
      expect(after.map((m) => m.content).slice(0, 3)).toEqual(["Tell me about your stream.", texts[1], "And what else?"]);
    });
  }
});

test.describe("chat with a persona", () => {
  test("open Chat, send, see the reply, reload, regenerate and clear", async ({ page, request, jsEnabled }) => {
    const account = await createAccount(request);
    const persona = await personaOf(request, account);
    const birthplace = await birthplaceOf(request, account, persona.id);
    await signIn(page, account);
    await visit(page, `/persona/${persona.id}`);

    await page.getByRole(jsEnabled ? "tab" : "link", { name: "Chat", exact: true }).click();
    await expect(page).toHaveURL(/\?tab=chat/);
    const panel = page.getByTestId("chat-panel");
    await expect(panel).toContainText("Hi there! I'm Nova Lumen. How can I help you today?");
    await expect(page.getByTestId("chat-count")).toHaveText("0 messages");
    // The conversation says once, at its top, that the replies are AI-generated (docs/product.md, AI disclosure).
    const aiNotice = "Replies are generated by AI: Nova Lumen is an AI character, not a person.";
    await expect(panel.getByText(aiNotice)).toHaveCount(1);
    await expectNoA11yViolations(page);

    const input = page.getByPlaceholder("Type a message...");
    await input.fill("Where are you from?");
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await expect(bubbles(page, "assistant")).toHaveCount(1);
    await expect(bubbles(page, "user")).toHaveText([/Where are you from\?/]);
    await expect(bubbles(page, "assistant").first()).toContainText(birthplace);
    await expect(page.getByTestId("chat-count")).toHaveText("2 messages");
    await expect(panel).not.toContainText("How can I help you today?");
    await expect(panel.getByText(/generated by AI/)).toHaveCount(1);
    await expect(panel.getByText(aiNotice)).toBeVisible();
    // Read outside the app, the conversation says it too.
    const transcript = await (await page.request.get(`/persona/${persona.id}/chat.txt`)).text();
    expect(transcript.split("\n")[1]).toMatch(/^Nova Lumen's replies were generated by AI \(.+\)\.$/);
    if (!jsEnabled) await expect(page).toHaveURL(/\?tab=chat#newest$/);
    await expect(bubbles(page, "assistant").first().locator("time")).toHaveText(/\d{1,2}:\d{2}/);

    // A reload (and the tab in the address) keeps the conversation.
    await visit(page, `/persona/${persona.id}?tab=chat`);
    await expect(bubbles(page, "user")).toHaveCount(1);
    await expect(bubbles(page, "assistant").first()).toContainText(birthplace);
    const first = await bubbles(page, "assistant").first().getByTestId("chat-message-text").innerText();
    await expectNoA11yViolations(page);

    // Regenerate shows another reply in its place, and keeps the first as an alternative.
    await page.getByRole("button", { name: "Regenerate response" }).click();
    await expect(bubbles(page, "assistant").first().getByTestId("chat-message-text")).not.toHaveText(first);
    await expect(bubbles(page, "assistant")).toHaveCount(1);
    await expect(page.getByTestId("chat-alternative-position")).toContainText("2 / 2");
    await expect(page.getByTestId("chat-count")).toHaveText("2 messages");

    // Clear asks first, then resets to the greeting.
    await page.getByRole(jsEnabled ? "button" : "link", { name: "Clear", exact: true }).click();
    if (jsEnabled) {
      const dialog = page.getByRole("dialog", { name: "Clear this conversation?" });
      await expect(dialog).toBeVisible();
      await dialog.getByRole("button", { name: "Clear chat" }).click();
    } else {
      await expect(page.getByRole("heading", { name: "Clear this conversation?" })).toBeVisible();
      await expectNoA11yViolations(page);
      await page.getByRole("button", { name: "Clear chat" }).click();
    }
    await expect(toast(page)).toContainText("Chat Cleared");
    await expect(toast(page)).toContainText("Your conversation history has been cleared.");
    await expect(panel).toContainText("Hi there! I'm Nova Lumen. How can I help you today?");
    await expect(page.getByTestId("chat-count")).toHaveText("0 messages");
    const api = await request.get(`/api/personas/${persona.id}/chat`, { headers: auth(account) });
    expect(await api.json()).toEqual([]);
  });

  test("Back and Forward keep the tab", async ({ page, request }) => {
    const account = await createAccount(request);
    const persona = await personaOf(request, account);
    await signIn(page, account);
    await visit(page, `/persona/${persona.id}`);
    await expect(page.getByRole("region", { name: "Basic Information" })).toBeVisible();
    await page.getByText("Chat", { exact: true }).click();
    await expect(page).toHaveURL(/\?tab=chat(#newest)?$/);
    await expect(page.getByTestId("chat-count")).toHaveText("0 messages");
    await page.goBack();
    await expect(page.getByRole("region", { name: "Basic Information" })).toBeVisible();
    await expect(page.getByTestId("chat-panel")).toHaveCount(0);
    await page.goForward();
    await expect(page).toHaveURL(/\?tab=chat(#newest)?$/);
    await expect(page.getByTestId("chat-count")).toHaveText("0 messages");
  });

  test("a whitespace-only message is refused and nothing is stored", async ({ page, request, jsEnabled }) => {
    const account = await createAccount(request);
    const persona = await personaOf(request, account);
    await signIn(page, account);
    await visit(page, `/persona/${persona.id}?tab=chat`);
    const input = page.getByPlaceholder("Type a message...");
    await input.fill("   ");
    if (jsEnabled) {
      await expect(page.getByRole("button", { name: "Send", exact: true })).toBeDisabled();
      await input.press("Enter");
    } else {
      await page.getByRole("button", { name: "Send", exact: true }).click();
      await expect(page.getByRole("alert").filter({ hasText: "Message cannot be empty" })).toBeVisible();
    }
    await expect(page.getByTestId("chat-count")).toHaveText("0 messages");
    const api = await request.get(`/api/personas/${persona.id}/chat`, { headers: auth(account) });
    expect(await api.json()).toEqual([]);
  });

  test("a refused message stays in the input with the reason (20 a minute)", async ({ page, request }) => {
    const account = await createAccount(request);
    const persona = await personaOf(request, account);
    for (let i = 0; i < 20; i++) {
      const res = await request.post(`/api/personas/${persona.id}/chat`, { headers: auth(account), data: { message: `Quick ${i}` } });
      expect(res.status()).toBe(201);
    }
    await signIn(page, account);
    await visit(page, `/persona/${persona.id}?tab=chat`);
    const input = page.getByPlaceholder("Type a message...");
    await input.fill("Are you still there?");
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await expect(page.getByText(/Too many messages: at most 20 a minute/)).toBeVisible();
    await expect(input).toHaveValue("Are you still there?");
    await expect(page.getByTestId("chat-count")).toHaveText("40 messages");
  });

  test("a draft asks to be finished; an archived persona is read-only", async ({ page, request }) => {
    const account = await createAccount(request);
    const draft = await personaOf(request, account, "/api/personas/draft", { name: "Sketch" });
    const archived = await personaOf(request, account);
    await request.post(`/api/personas/${archived.id}/chat`, { headers: auth(account), data: { message: "Hello!" } });
    await request.patch(`/api/personas/${archived.id}/status`, { headers: auth(account), data: { status: "archived" } });
    await signIn(page, account);

    await visit(page, `/persona/${draft.id}?tab=chat`);
    await expect(page.getByText("Finish creating this persona to start chatting")).toBeVisible();
    await expect(page.getByTestId("chat-panel").getByRole("link", { name: "Continue Creating" })).toHaveAttribute(
      "href",
      `/create-persona?id=${draft.id}`,
    );
    await expect(page.getByPlaceholder("Type a message...")).toHaveCount(0);

    await visit(page, `/persona/${archived.id}?tab=chat`);
    await expect(bubbles(page, "user")).toHaveText([/Hello!/]);
    await expect(page.getByText(/archived: its conversation is read-only\. Restore it/)).toBeVisible();
    await expect(page.getByPlaceholder("Type a message...")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Regenerate response" })).toHaveCount(0);
    await expectNoA11yViolations(page);
  });

  test("a double submit of the send form stores one message", async ({ page, request }) => {
    const account = await createAccount(request);
    const persona = await personaOf(request, account);
    await signIn(page, account);
    await visit(page, `/persona/${persona.id}?tab=chat`);
    const key = await page.locator('input[name="key"]').inputValue();
    const form = { intent: "send", key, message: "Only once, please" };
    // Posted as the browser's form would be: with its cookie and its page's origin.
    const headers = { Origin: new URL(page.url()).origin };
    const [a, b] = await Promise.all([
      page.request.post(`/persona/${persona.id}?tab=chat`, { form, headers, maxRedirects: 0 }),
      page.request.post(`/persona/${persona.id}?tab=chat`, { form, headers, maxRedirects: 0 }),
    ]);
    expect([a.status(), b.status()]).toEqual([302, 302]);
    expect(a.headers().location).toBe(`/persona/${persona.id}?tab=chat#newest`);
    const api = await request.get(`/api/personas/${persona.id}/chat`, { headers: auth(account) });
    expect(((await api.json()) as { role: string }[]).map((m) => m.role)).toEqual(["user", "assistant"]);
  });
});
