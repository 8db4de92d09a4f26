// Checks on real chats on a real database (PGlite in npm test, PostgreSQL 15 in .ci/run): a reply
// is checked after it is stored, counted per version, and a flagged one is listed with what
// flagged it; a regenerated or chosen reply is checked again; the embedded responder's own replies
// raise no false alarm; another creator's persona is not there.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), "pf-chat-checks-"));

const { createCreator, installTestDatabase } = await import("../../tests/support/test-database");
const { closeDatabase } = await import("~/infra/db/db.server");
const { useTextGenerator } = await import("~/infra/ai/ai.server");
const { createLocalTextGenerator } = await import("~/infra/ai/offline/local-text.server");
const { resetRateLimits } = await import("~/infra/web/rate-limit.server");
const personasService = await import("./personas.server");
const chat = await import("./chat.server");
const checks = await import("./chat-checks.server");
const { flaggedOften } = await import("~/domain/reply-check-text");

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

const newUser = () => createCreator(handle, "free", { first: "Check", last: "Er" });
const KIRA = {
  name: "Kira Moon",
  type: "vtuber",
  gender: "female",
  ageRange: "18-24",
  interests: ["gaming", "music"],
  description: "A cozy late-night streamer.",
  personality: ["Outgoing", "Humorous"],
};

/** A generator that answers with these replies, in turn. */
function scripted(replies: string[]) {
  let i = 0;
  useTextGenerator({
    ...createLocalTextGenerator({ chatPaceMs: 0 }),
    async *chatReply() {
      yield replies[i++ % replies.length]!;
    },
  });
}

async function send(user: Awaited<ReturnType<typeof newUser>>, id: string, message: string) {
  const reply = await chat.sendMessage(user, id, message);
  await checks.settleReplyChecks();
  return reply!;
}

describe("checks on real chats", () => {
  it("counts checked and flagged replies per version and lists a flagged one with what flagged it", async () => {
    const user = await newUser();
    const persona = await personasService.createPersona(user, KIRA);
    const birthplace = personasService.personaExtended(persona)!.birthplace;
    expect(await checks.chatChecks(user, persona.id)).toEqual({ currentVersion: 1, versions: [], flagged: [] });

    await send(user, persona.id, "Hi!");
    scripted(["As an AI, I never grew up anywhere. Actually I grew up in Oslo."]);
    const bad = await send(user, persona.id, "Where did you grow up?");
    const found = await checks.chatChecks(user, persona.id);
    expect(found.versions).toEqual([{ version: 1, checked: 2, flagged: 1 }]);
    expect(found.flagged).toEqual([
      {
        messageId: bad.messageId,
        version: 1,
        content: bad.response,
        timestamp: expect.any(String),
        checks: [
          { check: "inCharacter", detail: "Says 'as an ai'." },
          { check: "facts", detail: `Says 'I grew up in Oslo'; the fact sheet's birthplace is ${birthplace}.` },
        ],
      },
    ]);

    // A new version: its replies count apart.
    await personasService.updateVoice(user, persona.id, { speechStyle: "Short and bright." });
    scripted(["Short and bright, that's me."]);
    await send(user, persona.id, "Describe yourself.");
    expect((await checks.chatChecks(user, persona.id)).versions).toEqual([
      { version: 2, checked: 1, flagged: 0 },
      { version: 1, checked: 2, flagged: 1 },
    ]);
  });

  it("a regenerated reply, and an alternative chosen, are checked again", async () => {
    const user = await newUser();
    const persona = await personasService.createPersona(user, KIRA);
    scripted(["As an AI I can't say.", "Ha, good question! I stream games every night."]);
    const first = await send(user, persona.id, "What are you?");
    expect((await checks.chatChecks(user, persona.id)).flagged.map((f) => f.messageId)).toEqual([first.messageId]);
    await chat.regenerateReply(user, persona.id);
    await checks.settleReplyChecks();
    expect(await checks.chatChecks(user, persona.id)).toMatchObject({ versions: [{ checked: 1, flagged: 0 }], flagged: [] });
    await chat.chooseAlternative(user, persona.id, first.messageId, 0);
    await checks.settleReplyChecks();
    expect(await checks.chatChecks(user, persona.id)).toMatchObject({ versions: [{ checked: 1, flagged: 1 }] });
  });

  it("the embedded responder's own replies raise no false alarm", async () => {
    const user = await newUser();
    const persona = await personasService.createPersona(user, KIRA);
    const questions = [
      "Where are you from?",
      "Where do you live now?",
      "How old are you?",
      "What year were you born?",
      "What do you do?",
      "Tell me about your family.",
      "What's your catchphrase?",
      "Are you an AI?",
      "Do you have any secrets?",
      "What do you do for fun?",
      "What languages do you speak?",
      "What's your motto?",
    ];
    for (const question of questions) {
      await resetRateLimits();
      await send(user, persona.id, question);
    }
    const found = await checks.chatChecks(user, persona.id);
    expect(found.versions).toEqual([{ version: 1, checked: questions.length, flagged: 0 }]);
  });

  it("the library's badge reads the current version's counts, for the listed personas only", async () => {
    const user = await newUser();
    const persona = await personasService.createPersona(user, KIRA);
    const quiet = await personasService.createPersona(user, { ...KIRA, name: "Quiet Kira" });
    scripted(["As an AI, sure.", "Hello there, friend."]);
    for (let i = 0; i < 6; i++) {
      await resetRateLimits();
      await send(user, persona.id, `Question ${i}?`);
    }
    const flags = await checks.currentVersionFlags(user, [persona.id, quiet.id]);
    expect(flags.get(persona.id)).toEqual({ checked: 6, flagged: 3 });
    expect(flags.has(quiet.id)).toBe(false);
    expect(flaggedOften(6, 3)).toBe(true);
    // A new version starts again: its replies are not checked yet.
    await personasService.updateVoice(user, persona.id, { speechStyle: "Short." });
    expect((await checks.currentVersionFlags(user, [persona.id])).has(persona.id)).toBe(false);
    // Another creator's ids read nothing.
    const stranger = await newUser();
    expect((await checks.currentVersionFlags(stranger, [persona.id])).size).toBe(0);
  });

  it("another creator's persona is not there (404)", async () => {
    const owner = await newUser();
    const persona = await personasService.createPersona(owner, KIRA);
    const stranger = await newUser();
    await expect(checks.chatChecks(stranger, persona.id)).rejects.toMatchObject({ status: 404 });
  });
});
