// What JavaScript adds to the chat: the reply streams into its bubble, the input is disabled
// while a reply is pending, Enter sends and Shift+Enter makes a new line, a failure keeps what
// was typed, the tabs are a keyboard tab list, and the history shows as loading while it comes.
import type { APIRequestContext, Page } from "@playwright/test";

import { createAccount, expect, signIn, test, visit, type Account } from "./support";

const auth = (account: Account) => ({ Authorization: `Bearer ${account.token}` });
const bubbles = (page: Page, role: "user" | "assistant") => page.locator(`[data-testid="chat-message"][data-role="${role}"]`);

async function chatPage(page: Page, request: APIRequestContext) {
  const account = await createAccount(request);
  const res = await request.post("/api/personas", {
    headers: auth(account),
    data: {
      name: "Echo Vale",
      type: "educator",
      gender: "non-binary",
      ageRange: "25-34",
      interests: ["science", "education"],
      description: "Explains the stars to anyone who asks.",
      personality: ["Reserved", "Curious", "Organized"],
    },
  });
  const persona = (await res.json()) as { id: string };
  await signIn(page, account);
  await visit(page, `/persona/${persona.id}?tab=chat`);
  return { account, persona, input: page.getByPlaceholder("Type a message...") };
}

test("the reply streams into its bubble while the input waits", async ({ page, request }) => {
  const { input } = await chatPage(page, request);
  // Record every text the streaming bubble shows.
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { seen: string[] }).seen = seen;
    new MutationObserver(() => {
      const bubble = document.querySelector('[data-streaming="true"]');
      if (bubble?.textContent) seen.push(bubble.textContent);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  // The embedded reply can be whole before the first look on a busy machine: the server's answer
  // waits 800 ms, so the input is seen disabled while the reply is on its way.
  await page.route("**/api/personas/*/chat", async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 800));
    await route.continue();
  });
  await input.fill("Tell me about yourself");
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(input).toBeDisabled();
  await expect(page.getByRole("button", { name: "Send", exact: true })).toBeDisabled();
  await expect(bubbles(page, "user")).toHaveText([/Tell me about yourself/]);
  await expect(bubbles(page, "assistant")).toHaveCount(1);
  await expect(input).toBeEnabled();
  await expect(input).toBeFocused();
  const final = await bubbles(page, "assistant").getByTestId("chat-message-text").innerText();
  const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
  const partial = [...new Set(seen.map((s) => s.replace(/^Echo Vale: /, "").trim()))].filter(
    (s) => s.length > 0 && s.length < final.length,
  );
  // The first words were visible well before the end.
  expect(partial.length).toBeGreaterThan(3);
  expect(final.startsWith(partial[0]!)).toBe(true);
  await expect(page.getByTestId("chat-count")).toHaveText("2 messages");
});

test("a typing indicator shows until the first words arrive", async ({ page, request }) => {
  const { input } = await chatPage(page, request);
  await page.route("**/api/personas/*/chat", async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 800));
    await route.continue();
  });
  await input.fill("Hello");
  await input.press("Enter");
  await expect(page.getByTestId("typing-indicator")).toBeVisible();
  await expect(page.getByTestId("typing-indicator")).toContainText("Echo Vale is typing");
  await expect(bubbles(page, "assistant")).toHaveCount(1);
  await expect(page.getByTestId("typing-indicator")).toHaveCount(0);
});

test("Enter sends; Shift+Enter makes a new line", async ({ page, request }) => {
  const { input } = await chatPage(page, request);
  await input.click();
  await page.keyboard.type("Line one");
  await page.keyboard.press("Shift+Enter");
  await page.keyboard.type("Line two");
  await expect(input).toHaveValue("Line one\nLine two");
  await expect(bubbles(page, "user")).toHaveCount(0);
  await page.keyboard.press("Enter");
  await expect(bubbles(page, "user").getByTestId("chat-message-text")).toHaveText("Line one\nLine two");
  await expect(bubbles(page, "assistant")).toHaveCount(1);
  await expect(input).toHaveValue("");
});

test("a failed reply puts the text back with the toast", async ({ page, request }) => {
  const { input } = await chatPage(page, request);
  // The server fails outright ...
  await page.route("**/api/personas/*/chat", (route) =>
    route.fulfill({ status: 500, contentType: "application/json", body: '{"message":"boom"}' }),
  );
  await input.fill("Do you like science?");
  await input.press("Enter");
  await expect(page.getByTestId("toast").last()).toContainText("Failed to get a response. Please try again.");
  await expect(input).toHaveValue("Do you like science?");
  await expect(bubbles(page, "user")).toHaveCount(0);
  await expect(input).toBeEnabled();

  // ... or in the middle of the stream.
  await page.unroute("**/api/personas/*/chat");
  let midStream = 0;
  await page.route("**/api/personas/*/chat", (route) => {
    midStream += 1;
    return route.fulfill({
      status: 200,
      contentType: "text/event-stream",
      body: 'event: token\ndata: {"text":"I do "}\n\nevent: error\ndata: {"message":"Failed to get a response. Please try again."}\n\n',
    });
  });
  await input.press("Enter");
  await expect.poll(() => midStream).toBe(1);
  await expect(input).toHaveValue("Do you like science?");
  await expect(input).toBeEnabled();
  await expect(page.getByTestId("toast").last()).toContainText("Failed to get a response. Please try again.");
  await expect(bubbles(page, "assistant")).toHaveCount(0);

  // And it goes through once the server answers.
  await page.unroute("**/api/personas/*/chat");
  await input.press("Enter");
  await expect(bubbles(page, "assistant")).toHaveCount(1);
  await expect(bubbles(page, "user")).toHaveCount(1);
});

test("regenerate streams a new reply in place of the old one", async ({ page, request }) => {
  const { input } = await chatPage(page, request);
  await input.fill("What is your motto?");
  await input.press("Enter");
  await expect(bubbles(page, "assistant")).toHaveCount(1);
  const before = await bubbles(page, "assistant").getByTestId("chat-message-text").innerText();
  // The new reply may stream in well under the assertion's first look on a busy machine: the
  // server's answer waits 800 ms, so the input is seen disabled while the reply is on its way.
  await page.route("**/api/personas/*/chat/regenerate", async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 800));
    await route.continue();
  });
  await page.getByRole("button", { name: "Regenerate response" }).click();
  await expect(input).toBeDisabled();
  await expect(input).toBeEnabled();
  await expect(bubbles(page, "assistant")).toHaveCount(1);
  await expect(bubbles(page, "assistant").getByTestId("chat-message-text")).not.toHaveText(before);
  await expect(page.getByTestId("chat-count")).toHaveText("2 messages");
});

test("the tabs are a tab list: arrow keys switch, the history shows as loading while it comes", async ({ page, request }) => {
  const { persona } = await chatPage(page, request);
  await visit(page, `/persona/${persona.id}`);
  const profileTab = page.getByRole("tab", { name: "Full Profile" });
  await expect(profileTab).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("tabpanel")).toContainText("Basic Information");
  await page.route(/\.data\b/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 700));
    await route.continue();
  });
  await profileTab.focus();
  await page.keyboard.press("ArrowRight");
  await expect(page.getByText("Loading conversation history...")).toBeVisible();
  await expect(page).toHaveURL(/\?tab=chat$/);
  await expect(page.getByRole("tab", { name: "Chat" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("tab", { name: "Chat" })).toBeFocused();
  await expect(page.getByText("Hi there! I'm Echo Vale. How can I help you today?")).toBeVisible();
  await expect(page.getByText("Loading conversation history...")).toHaveCount(0);
});

test("Clear failing says so with the spec's toast", async ({ page, request }) => {
  const { account, persona } = await chatPage(page, request);
  await request.post(`/api/personas/${persona.id}/chat`, { headers: auth(account), data: { message: "Hi" } });
  await visit(page, `/persona/${persona.id}?tab=chat`);
  await expect(bubbles(page, "assistant")).toHaveCount(1);
  // The persona is archived elsewhere in the meantime: clearing is refused.
  await request.patch(`/api/personas/${persona.id}/status`, { headers: auth(account), data: { status: "archived" } });
  await page.getByRole("button", { name: "Clear", exact: true }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Clear chat" }).click();
  await expect(page.getByTestId("toast").last()).toContainText("Failed to clear chat history. Please try again.");
  await expect(bubbles(page, "user")).toHaveCount(1);
});
