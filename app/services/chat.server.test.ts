// Chat on a real database (PGlite in npm test, PostgreSQL 15 in .ci/run): the conversation in
// order, replies in character, ownership, which personas can chat, bad messages, limits,
// regenerate, clear, failures that leave no half-written reply, and a bounded context.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), "pf-chat-"));

const { createCreator, installTestDatabase } = await import("../../tests/support/test-database");
const { closeDatabase, withUser } = await import("~/infra/db/db.server");
const { chatMessages, generations, personas } = await import("~/infra/db/schema.server");
const { AiError, useTextGenerator } = await import("~/infra/ai/ai.server");
const { createLocalTextGenerator } = await import("~/infra/ai/offline/local-text.server");
const { resetRateLimits } = await import("~/infra/web/rate-limit.server");
const { createOpenAiTextGenerator } = await import("~/infra/ai/openai-text.server");
const { startFakeOpenAi } = await import("../../tests/support/fake-openai");
const { personaExtended } = await import("./persona-export.server");
const personasService = await import("./personas.server");
const library = await import("./persona-library.server");
const chat = await import("./chat.server");
const { settleReplyChecks } = await import("./chat-checks.server");

type Generator = Parameters<typeof useTextGenerator>[0] & object;

let handle: Awaited<ReturnType<typeof installTestDatabase>>;
beforeAll(async () => {
  handle = await installTestDatabase();
});
afterAll(async () => {
  useTextGenerator(undefined);
  await closeDatabase();
});
beforeEach(async () => {
  await resetRateLimits();
  chat.resetChatState();
  useTextGenerator(createLocalTextGenerator({ chatPaceMs: 0 }));
});

const newUser = () => createCreator(handle, "free", { first: "Chat", last: "Ter" });

const NOVA = {
  name: "Nova Lumen",
  type: "vtuber",
  gender: "female",
  ageRange: "18-24",
  interests: ["gaming", "music"],
  description: "A cheerful late-night streamer.",
  personality: ["Outgoing", "Creative", "Humorous"],
};

async function activePersona(user: Awaited<ReturnType<typeof newUser>>, extra: Record<string, unknown> = {}) {
  return personasService.createPersona(user, { ...NOVA, ...extra });
}

async function rows(personaId: string, userId: string) {
  // The reply checks write to the rows after each reply: read once they are done.
  await settleReplyChecks();
  return withUser(userId, (tx) => tx.select().from(chatMessages).where(eq(chatMessages.personaId, personaId)).orderBy(chatMessages.seq));
}

async function generationCount(userId: string) {
  const [row] = await withUser(userId, (tx) => tx.select({ n: count() }).from(generations).where(eq(generations.kind, "chat")));
  return row?.n ?? 0;
}

describe("sending a message", () => {
  it("stores the user's message and the reply in order, answers in character and counts a generation", async () => {
    const user = await newUser();
    const persona = await activePersona(user);
    const extended = personaExtended(persona);

    const first = await chat.sendMessage(user, persona.id, "  Where are you from?  ");
    expect(first?.response).toContain(extended.birthplace);
    const second = await chat.sendMessage(user, persona.id, "What do you do?");
    expect(second?.response.toLowerCase()).toContain(extended.occupation.toLowerCase());

    const history = await chat.listMessages(user, persona.id);
    expect(history.map((m) => [m.role, m.content])).toEqual([
      ["user", "Where are you from?"],
      ["assistant", first!.response],
      ["user", "What do you do?"],
      ["assistant", second!.response],
    ]);
    expect(history[1]!.id).toBe(first!.messageId);
    expect(new Date(history[0]!.timestamp).getTime()).toBeLessThanOrEqual(new Date(history[1]!.timestamp).getTime());
    expect(await generationCount(user.id)).toBe(2);
  });

  it("refuses empty, over-long and control-character messages with nothing stored", async () => {
    const user = await newUser();
    const persona = await activePersona(user);
    for (const [message, text] of [
      ["", "Message cannot be empty"],
      ["   \n\t ", "Message cannot be empty"],
      [undefined, "Message cannot be empty"],
      [42, "Message must be text"],
      ["x".repeat(4001), "Message must be 4,000 characters or less"],
      ["bell\u0007", "Message cannot contain control characters"],
      ["nul\u0000", "Message cannot contain control characters"],
    ] as const) {
      await expect(chat.sendMessage(user, persona.id, message)).rejects.toMatchObject({ status: 400, message: text });
    }
    expect(await rows(persona.id, user.id)).toEqual([]);
    // 4,000 characters (emoji count once) is fine.
    await expect(chat.sendMessage(user, persona.id, "🙂".repeat(4000))).resolves.toMatchObject({ response: expect.any(String) });
  });

  it("another user's persona and an unknown id are 404 for every call", async () => {
    const owner = await newUser();
    const stranger = await newUser();
    const persona = await activePersona(owner);
    await chat.sendMessage(owner, persona.id, "Hello!");
    for (const id of [persona.id, "00000000-0000-4000-8000-000000000000", "not-a-uuid"]) {
      await expect(chat.listMessages(stranger, id)).rejects.toMatchObject({ status: 404 });
      await expect(chat.sendMessage(stranger, id, "Hi")).rejects.toMatchObject({ status: 404 });
      await expect(chat.regenerateReply(stranger, id)).rejects.toMatchObject({ status: 404 });
      await expect(chat.clearChat(stranger, id)).rejects.toMatchObject({ status: 404 });
    }
    expect(await rows(persona.id, owner.id)).toHaveLength(2);
  });

  it("drafts cannot chat; archived personas keep their history read-only", async () => {
    const user = await newUser();
    const draft = await personasService.saveDraft(user, { name: "Sketch" });
    await expect(chat.sendMessage(user, draft.id, "Hi")).rejects.toMatchObject({
      status: 409,
      message: "Finish creating this persona to start chatting",
    });
    const persona = await activePersona(user);
    await chat.sendMessage(user, persona.id, "Hi");
    await library.archivePersona(user, persona.id);
    await expect(chat.sendMessage(user, persona.id, "Still there?")).rejects.toMatchObject({ status: 409, code: "persona_archived" });
    await expect(chat.regenerateReply(user, persona.id)).rejects.toMatchObject({ status: 409 });
    await expect(chat.clearChat(user, persona.id)).rejects.toMatchObject({ status: 409 });
    expect(await chat.listMessages(user, persona.id)).toHaveLength(2);
  });

  it("allows 20 messages a minute per user, then 429 with a retry time", async () => {
    const user = await newUser();
    const persona = await activePersona(user);
    for (let i = 0; i < 20; i++) await chat.sendMessage(user, persona.id, `Message ${i}`);
    const refused = await chat.sendMessage(user, persona.id, "One too many").catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 429 });
    expect((refused as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(0);
    expect(await rows(persona.id, user.id)).toHaveLength(40);
  });

  it("one reply at a time per persona: a second message while one is written is a 409", async () => {
    const user = await newUser();
    const persona = await activePersona(user);
    const first = await chat.prepareReply(user, persona.id, { message: "First" });
    await expect(chat.sendMessage(user, persona.id, "Second")).rejects.toMatchObject({ status: 409, code: "reply_in_progress" });
    if (first.duplicate) throw new Error("unexpected duplicate");
    await first.complete();
    await expect(chat.sendMessage(user, persona.id, "Second")).resolves.not.toBeNull();
    expect((await rows(persona.id, user.id)).map((r) => r.content).filter((c) => c === "Second")).toHaveLength(1);
  });

  it("a double submit of the same form stores one message and one reply", async () => {
    const user = await newUser();
    const persona = await activePersona(user);
    const clientKey = crypto.randomUUID();
    const [a, b] = await Promise.all([
      chat.sendMessage(user, persona.id, "Only once", { clientKey }),
      chat.sendMessage(user, persona.id, "Only once", { clientKey }),
    ]);
    expect([a, b].filter((r) => r !== null)).toHaveLength(1);
    expect(await chat.sendMessage(user, persona.id, "Only once", { clientKey })).toBeNull();
    expect((await rows(persona.id, user.id)).map((r) => r.role)).toEqual(["user", "assistant"]);
  });
});

describe("failures leave the user's message and no half-written reply", () => {
  function failing(afterPieces: number): Generator {
    return {
      kind: "openai",
      generateBackstory: async () => "",
      async *chatReply() {
        for (let i = 0; i < afterPieces; i++) yield `piece${i} `;
        throw new AiError("unavailable", "The endpoint went down.");
      },
    };
  }

  it("a failing generator: 502 with the spec's text, the message stays, no assistant row, no generation", async () => {
    const user = await newUser();
    const persona = await activePersona(user);
    useTextGenerator(failing(3));
    await expect(chat.sendMessage(user, persona.id, "Are you there?")).rejects.toMatchObject({
      status: 502,
      message: "Failed to get a response. Please try again.",
    });
    expect((await rows(persona.id, user.id)).map((r) => [r.role, r.content])).toEqual([["user", "Are you there?"]]);
    expect(await generationCount(user.id)).toBe(0);

    // Sending the same text again (here from a new rendering of the form) answers that message
    // instead of storing it twice; a double submit of that retry is still one message.
    useTextGenerator(createLocalTextGenerator({ chatPaceMs: 0 }));
    const clientKey = crypto.randomUUID();
    await chat.sendMessage(user, persona.id, "Are you there?", { clientKey });
    expect(await chat.sendMessage(user, persona.id, "Are you there?", { clientKey })).toBeNull();
    expect((await rows(persona.id, user.id)).map((r) => r.role)).toEqual(["user", "assistant"]);
  });

  it("a reply abandoned by the caller stores nothing more", async () => {
    const user = await newUser();
    const persona = await activePersona(user);
    useTextGenerator(createLocalTextGenerator({ chatPaceMs: 5 }));
    const controller = new AbortController();
    const prepared = await chat.prepareReply(user, persona.id, { message: "Tell me about yourself" });
    if (prepared.duplicate) throw new Error("unexpected duplicate");
    const tokens: string[] = [];
    const done = prepared.complete({
      live: true,
      signal: controller.signal,
      onToken: (t) => {
        tokens.push(t);
        if (tokens.length === 2) controller.abort();
      },
    });
    await expect(done).rejects.toMatchObject({ status: 502 });
    expect(tokens.length).toBeGreaterThanOrEqual(2);
    expect((await rows(persona.id, user.id)).map((r) => r.role)).toEqual(["user"]);
    // The persona is free again.
    await expect(chat.sendMessage(user, persona.id, "Hello?")).resolves.not.toBeNull();
  });

  it("through an OpenAI-compatible endpoint: the caller going away aborts the request, and no reply is stored", async () => {
    const fake = await startFakeOpenAi();
    try {
      const user = await newUser();
      const persona = await activePersona(user);
      useTextGenerator(createOpenAiTextGenerator({ apiKey: fake.apiKey, baseURL: fake.url, model: "m", maxRetries: 0 }));
      fake.reply({ content: "one two three four five six seven eight", chunkDelayMs: 50 });
      const controller = new AbortController();
      const prepared = await chat.prepareReply(user, persona.id, { message: "Talk to me" });
      if (prepared.duplicate) throw new Error("unexpected duplicate");
      const tokens: string[] = [];
      const done = prepared.complete({
        signal: controller.signal,
        onToken: (t) => {
          tokens.push(t);
          if (tokens.length === 2) controller.abort();
        },
      });
      await expect(done).rejects.toMatchObject({ status: 502 });
      for (let i = 0; i < 50 && fake.abandonedStreams === 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(fake.abandonedStreams).toBe(1);
      expect((await rows(persona.id, user.id)).map((r) => r.role)).toEqual(["user"]);
      expect(await generationCount(user.id)).toBe(0);

      // A complete streamed reply is stored whole.
      fake.reply({ content: "I grew up by the sea." });
      await expect(chat.sendMessage(user, persona.id, "Where did you grow up?")).resolves.toMatchObject({
        response: "I grew up by the sea.",
      });
    } finally {
      await fake.close();
    }
  });

  it("an empty reply is a failure, not an empty message", async () => {
    const user = await newUser();
    const persona = await activePersona(user);
    useTextGenerator({
      kind: "openai",
      generateBackstory: async () => "",
      async *chatReply() {
        yield "   ";
      },
    });
    await expect(chat.sendMessage(user, persona.id, "Hi")).rejects.toMatchObject({ status: 502 });
    expect((await rows(persona.id, user.id)).map((r) => r.role)).toEqual(["user"]);
  });
});

describe("regenerate and clear", () => {
  it("regenerate shows a different reply and keeps the one it replaces as an alternative", async () => {
    const user = await newUser();
    const persona = await activePersona(user);
    await expect(chat.regenerateReply(user, persona.id)).rejects.toMatchObject({
      status: 409,
      message: "There is no reply to regenerate yet.",
    });
    const first = await chat.sendMessage(user, persona.id, "Hi!");
    expect(first!.alternatives).toBeUndefined();
    const again = await chat.regenerateReply(user, persona.id);
    expect(again.response).not.toBe(first!.response);
    expect(again).toMatchObject({ messageId: first!.messageId, alternatives: [first!.response, again.response], chosen: 1 });
    const history = await chat.listMessages(user, persona.id);
    expect(history.map((m) => m.content)).toEqual(["Hi!", again.response]);
    expect(history[1]).toMatchObject({ id: again.messageId, alternatives: [first!.response, again.response], chosen: 1 });
    // A third one differs from both, and all three are kept.
    const third = await chat.regenerateReply(user, persona.id);
    expect([first!.response, again.response]).not.toContain(third.response);
    expect(third).toMatchObject({ alternatives: [first!.response, again.response, third.response], chosen: 2 });
    expect(await generationCount(user.id)).toBe(3);
  });

  it("Clear deletes the conversation; deleting the persona deletes it too", async () => {
    const user = await newUser();
    const persona = await activePersona(user);
    await chat.sendMessage(user, persona.id, "Hi!");
    expect(await chat.clearChat(user, persona.id)).toBe(2);
    expect(await chat.listMessages(user, persona.id)).toEqual([]);
    await chat.sendMessage(user, persona.id, "Hi again!");
    await library.deletePersona(user, persona.id);
    expect(await rows(persona.id, user.id)).toEqual([]);
  });
});

describe("alternatives (docs/product.md, Chat: alternatives)", () => {
  async function threeAlternatives() {
    const user = await newUser();
    const persona = await activePersona(user);
    const first = await chat.sendMessage(user, persona.id, "Tell me about your stream.");
    await chat.regenerateReply(user, persona.id);
    const third = await chat.regenerateReply(user, persona.id);
    return { user, persona, id: first!.messageId, texts: third.alternatives! };
  }

  it("choosing one shows it, and the conversation continues from it", async () => {
    const { user, persona, id, texts } = await threeAlternatives();
    const shown = await chat.chooseAlternative(user, persona.id, id, 0);
    expect(shown).toMatchObject({ id, content: texts[0], alternatives: texts, chosen: 0 });
    expect((await chat.listMessages(user, persona.id)).at(-1)).toMatchObject({ content: texts[0], chosen: 0 });
    // The next reply is written from the chosen alternative, not from the newest one.
    const local = createLocalTextGenerator({ chatPaceMs: 0 });
    const seen: string[][] = [];
    useTextGenerator({
      ...local,
      chatReply(input, options) {
        seen.push(input.history.map((m) => m.content));
        return local.chatReply(input, options);
      },
    });
    await chat.sendMessage(user, persona.id, "And what else?");
    expect(seen[0]).toEqual(["Tell me about your stream.", texts[0], "And what else?"]);
    // The older reply cannot be flipped any more: the conversation went on from it.
    await expect(chat.chooseAlternative(user, persona.id, id, 1)).rejects.toMatchObject({
      status: 409,
      message: "Only the last reply's alternatives can be chosen.",
    });
  });

  it("a Regenerate after a choice adds to the alternatives and avoids all of them", async () => {
    const { user, persona, id, texts } = await threeAlternatives();
    await chat.chooseAlternative(user, persona.id, id, 1);
    const fourth = await chat.regenerateReply(user, persona.id);
    expect(texts).not.toContain(fourth.response);
    expect(fourth).toMatchObject({ alternatives: [...texts, fourth.response], chosen: 3 });
  });

  it("keeps at most 20: past it, the oldest goes", async () => {
    const user = await newUser();
    const persona = await activePersona(user);
    let n = 0;
    useTextGenerator({
      ...createLocalTextGenerator({ chatPaceMs: 0 }),
      async *chatReply() {
        yield `Reply number ${++n}`;
      },
    });
    await chat.sendMessage(user, persona.id, "Hi");
    for (let i = 0; i < 21; i++) {
      await resetRateLimits();
      await chat.regenerateReply(user, persona.id);
    }
    const [last] = (await chat.listMessages(user, persona.id)).slice(-1);
    expect(last!.alternatives).toHaveLength(20);
    expect(last!.alternatives![0]).toBe("Reply number 3");
    expect(last).toMatchObject({ content: "Reply number 22", chosen: 19 });
  });

  it("refuses what is not there: a wrong index (400), another message (409), a stranger (404); nothing changes", async () => {
    const { user, persona, id, texts } = await threeAlternatives();
    const before = await rows(persona.id, user.id);
    for (const index of [3, -1, 1.5, "two", null, undefined]) {
      await expect(chat.chooseAlternative(user, persona.id, id, index)).rejects.toMatchObject({
        status: 400,
        message: "This reply has 3 alternatives: index must be a whole number from 0 to 2.",
      });
    }
    const [userMessage] = await chat.listMessages(user, persona.id);
    await expect(chat.chooseAlternative(user, persona.id, userMessage!.id, 0)).rejects.toMatchObject({ status: 409 });
    await expect(chat.chooseAlternative(user, persona.id, "not-an-id", 0)).rejects.toMatchObject({ status: 404 });
    await expect(chat.chooseAlternative(user, persona.id, "7d0f8a1e-3b7c-4f39-9a0e-2c1b5a6d4e3f", 0)).rejects.toMatchObject({
      status: 404,
    });
    const stranger = await newUser();
    await expect(chat.chooseAlternative(stranger, persona.id, id, 0)).rejects.toMatchObject({ status: 404 });
    expect(await rows(persona.id, user.id)).toEqual(before);
    expect((await chat.listMessages(user, persona.id)).at(-1)!.content).toBe(texts[2]);
  });

  it("an archived persona's alternatives are read-only", async () => {
    const { user, persona, id } = await threeAlternatives();
    await library.changeStatus(user, persona.id, "archived");
    await expect(chat.chooseAlternative(user, persona.id, id, 0)).rejects.toMatchObject({ status: 409 });
  });

  it("go out as SillyTavern swipes and come back in as alternatives", async () => {
    const { user, persona, id, texts } = await threeAlternatives();
    await chat.chooseAlternative(user, persona.id, id, 1);
    const out = await chat.chatExport(user, persona.id, "jsonl");
    const reply = JSON.parse(out.text.trimEnd().split("\n").at(-1)!);
    expect(reply).toMatchObject({ mes: texts[1], swipes: texts, swipe_id: 1 });
    const md = await chat.chatExport(user, persona.id, "md");
    expect(md.text).toContain(texts[1]);
    expect(md.text).not.toContain(texts[0]);
    const other = await activePersona(user, { name: "Nova Two" });
    await chat.importChat(user, other.id, new TextEncoder().encode(out.text));
    expect((await chat.listMessages(user, other.id)).at(-1)).toMatchObject({ content: texts[1], alternatives: texts, chosen: 1 });
  });
});

describe("the context is bounded", () => {
  it("a reply in a 1,000-message conversation reads only the last 20 messages", async () => {
    const user = await newUser();
    const persona = await activePersona(user);
    const values = Array.from({ length: 1000 }, (_, i) => ({
      personaId: persona.id,
      role: i % 2 === 0 ? "user" : "assistant",
      content: `Old message ${i}`,
    }));
    for (let i = 0; i < values.length; i += 250) await withUser(user.id, (tx) => tx.insert(chatMessages).values(values.slice(i, i + 250)));
    const seen: number[] = [];
    const local = createLocalTextGenerator({ chatPaceMs: 0 });
    useTextGenerator({
      ...local,
      chatReply(input, options) {
        seen.push(input.history.length);
        expect(input.history.at(-1)).toEqual({ role: "user", content: "And now?" });
        expect(input.history[0]!.content).toBe("Old message 981");
        return local.chatReply(input, options);
      },
    });
    await chat.sendMessage(user, persona.id, "And now?");
    expect(seen).toEqual([20]);
    expect(await chat.listMessages(user, persona.id)).toHaveLength(1002);
    const [{ n } = { n: 0 }] = await withUser(user.id, (tx) => tx.select({ n: count() }).from(personas));
    expect(n).toBe(1);
  });
});

describe("chats that travel (docs/product.md, Chat: export and import)", () => {
  const enc = (text: string) => new TextEncoder().encode(text);
  const stChat = (...lines: object[]) =>
    enc(
      [{ user_name: "Ana", character_name: "Nova", create_date: "2025-01-02@10h11m12s", chat_metadata: {} }, ...lines]
        .map((l) => JSON.stringify(l))
        .join("\n"),
    );

  it("a SillyTavern chat becomes the conversation, in order, and goes out again as the same JSONL", async () => {
    const user = await newUser();
    const persona = await activePersona(user);
    const file = stChat(
      { name: "Nova", is_user: false, send_date: "January 2, 2025 10:11am", mes: "Welcome back!" },
      { name: "Ana", is_user: true, send_date: "January 2, 2025 10:12am", mes: "Hi Nova." },
      { name: "Nova", is_user: false, send_date: "January 2, 2025 10:13am", mes: "Draft", swipes: ["Draft", "Kept"], swipe_id: 1 },
    );
    expect(await chat.importChat(user, persona.id, file)).toBe(3);
    const listed = await chat.listMessages(user, persona.id);
    expect(listed.map((m) => [m.role, m.content])).toEqual([
      ["assistant", "Welcome back!"],
      ["user", "Hi Nova."],
      ["assistant", "Kept"],
    ]);
    expect(listed[1]!.timestamp).toBe("2025-01-02T10:12:00.000Z");
    const out = await chat.chatExport(user, persona.id, "jsonl");
    const lines = out.text
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.slice(1).map((l) => [l.is_user, l.mes])).toEqual([
      [false, "Welcome back!"],
      [true, "Hi Nova."],
      [false, "Kept"],
    ]);
    // The conversation goes on from the imported messages.
    const reply = await chat.sendMessage(user, persona.id, "What were we talking about?");
    expect(reply?.response.length).toBeGreaterThan(0);
  });

  it("never replaces messages: into a conversation that has some, 409 and nothing stored", async () => {
    const user = await newUser();
    const persona = await activePersona(user);
    await chat.sendMessage(user, persona.id, "Hello!");
    const before = await rows(persona.id, user.id);
    await expect(chat.importChat(user, persona.id, stChat({ is_user: true, mes: "Imported" }))).rejects.toMatchObject({
      status: 409,
      message: "Clear the conversation before importing one: an import never replaces messages.",
    });
    expect(await rows(persona.id, user.id)).toEqual(before);
  });

  it("a bad file is a 400 with its reason and stores nothing; another creator's persona is a 404", async () => {
    const user = await newUser();
    const persona = await activePersona(user);
    await expect(
      chat.importChat(user, persona.id, stChat({ is_user: true, mes: "fine" }, { is_user: "yes", mes: "bad" } as object)),
    ).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/^Line 3 is not a chat message/) });
    await expect(chat.importChat(user, persona.id, enc('{"mes":"x","is_user":true}'))).rejects.toMatchObject({ status: 400 });
    expect(await rows(persona.id, user.id)).toEqual([]);
    const other = await newUser();
    await expect(chat.importChat(other, persona.id, stChat({ is_user: true, mes: "Mine now" }))).rejects.toMatchObject({ status: 404 });
    await expect(chat.chatExport(other, persona.id, "jsonl")).rejects.toMatchObject({ status: 404 });
    expect(await rows(persona.id, user.id)).toEqual([]);
  });

  it("two imports at once: one conversation, the other refused", async () => {
    const user = await newUser();
    const persona = await activePersona(user);
    const file = stChat({ is_user: true, mes: "One" }, { is_user: false, mes: "Two" });
    const results = await Promise.allSettled([chat.importChat(user, persona.id, file), chat.importChat(user, persona.id, file)]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect((await rows(persona.id, user.id)).map((r) => r.content)).toEqual(["One", "Two"]);
  });
});
