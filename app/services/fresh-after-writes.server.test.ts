// A creator never sees their own stale data after a write: for every kept read
// (app/infra/db/kept-reads.server.ts), a write to each table it declares, and the very next read
// shows it. Real database (PGlite in npm test, PostgreSQL 15 with DATABASE_URL: there the
// notices come through LISTEN). A declaration that gains a table without a write here fails the
// first test of its block; a read that depends on a table it does not declare is found by its
// own service's tests (every way a page's data can change, then read again).
//
// Writes go through the services wherever a service writes that table; the few tables the app
// never writes alone (a version without its persona, an account's row without its session) are
// written by a plain statement, so that the table's own trigger is what is tested.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import type { KeptReadDeclaration } from "~/infra/db/kept-reads.server";

process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), "pf-fresh-"));
process.env.APP_URL = "http://app.test";

const { createCreator, installTestDatabase } = await import("../../tests/support/test-database");
const { closeDatabase } = await import("~/infra/db/db.server");
const { KEPT_READS, isKept } = await import("~/infra/db/kept-reads.server");
const { useMailer } = await import("~/infra/mail/mail.server");
const { resetRateLimits } = await import("~/infra/web/rate-limit.server");
const { LIST_PAGE_SIZE } = await import("~/domain/persona-list");
const { HISTORY_PAGE_SIZE } = await import("~/domain/persona-history");
const accounts = await import("./accounts.server");
const billing = await import("./billing.server");
const history = await import("./persona-history.server");
const images = await import("./images.server");
const library = await import("./persona-library.server");
const personasService = await import("./personas.server");
const probes = await import("./probes.server");
const lore = await import("./lore.server");
const cardChecks = await import("./card-check.server");
const cardTargetRuns = await import("./card-target-runs.server");
const conversations = await import("./conversation-tests.server");
const chat = await import("./chat.server");
const chatChecks = await import("./chat-checks.server");
const { useTextGenerator } = await import("~/infra/ai/ai.server");
const { createLocalTextGenerator } = await import("~/infra/ai/offline/local-text.server");

/** The persona answers with this reply (the checks flag 'as an AI'). */
function answering(reply: string) {
  useTextGenerator({
    ...createLocalTextGenerator({ chatPaceMs: 0 }),
    async *chatReply() {
      yield reply;
    },
  });
}

type KeptReadName = keyof typeof KEPT_READS;

let handle: Awaited<ReturnType<typeof installTestDatabase>>;
const outbox: { to: string; text: string }[] = [];
beforeAll(async () => {
  handle = await installTestDatabase();
  useMailer({ kind: "outbox", send: async (m) => void outbox.push(m) });
});
beforeEach(() => resetRateLimits());
afterAll(async () => {
  await images.settleImageJobs();
  useMailer(undefined);
  await closeDatabase();
});

const newCreator = () => createCreator(handle, "free", { first: "Fresh", last: "Reader" });
const complete = (name: string) => ({
  name,
  type: "vtuber",
  gender: "female",
  ageRange: "25-34",
  interests: ["gaming", "music"],
  description: "Streams at night.",
  personality: ["Outgoing", "Creative"],
  backstory: "",
});

/** Reads twice, checks the answer is now kept, and returns it. */
async function keptAnswer<T, P extends [userId: string, ...rest: unknown[]]>(
  read: () => Promise<T>,
  declaration: KeptReadDeclaration<P>,
  parts: P,
): Promise<T> {
  await read();
  const answer = await read();
  expect(await isKept(declaration, parts)).toBe(true);
  return answer;
}

/** The last persona version's number, written by a plain statement (the app writes versions only through their persona). */
async function dropLatestVersion(personaId: string): Promise<void> {
  await handle.raw.rows(
    `delete from public.persona_versions where persona_id = $1 and version = (select max(version) from public.persona_versions where persona_id = $1)`,
    [personaId],
  );
}

/** A verified account signed in through the services (register, the mailed link, sign-in). */
async function signedInAccount() {
  const ctx = (token?: string) =>
    accounts.requestContext(new Request("http://app.test/", { headers: token ? { Authorization: `Bearer ${token}` } : {} }), {
      clientAddress: "203.0.113.9",
    });
  const email = `fresh-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const password = "Forge!pass1";
  await accounts.register(ctx(), { firstName: "Kept", lastName: "Session", email, password });
  const link = outbox
    .filter((m) => m.to === email)
    .at(-1)
    ?.text.match(/https?:\/\/\S+verify-email\S*/)?.[0];
  await accounts.verifyEmail(ctx(), new URL(link!).searchParams.get("token"));
  const session = await accounts.signIn(ctx(), { email, password });
  const token = session.accessToken;
  const { sub, session_id } = JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()) as { sub: string; session_id: string };
  const lookUp = async () => (await accounts.currentUser(ctx(token))).user;
  const user = (await lookUp())!;
  return { user, token, ctx: ctx(token), parts: [sub, session_id] as [string, string], lookUp };
}

const FRESH: { [name in KeptReadName]: Record<string, () => Promise<void>> } = {
  libraryCards: {
    "public.personas": async () => {
      const creator = await newCreator();
      const read = async () => (await library.listPersonas(creator, { status: "all" }, "card")).items.map((p) => p.name);
      expect(await keptAnswer(read, KEPT_READS.libraryCards, [creator.id, "all", "newest", 1, LIST_PAGE_SIZE])).toEqual([]);
      await personasService.createPersona(creator, complete("Nova"));
      expect(await read()).toEqual(["Nova"]);
    },
    "public.probe_runs": async () => {
      const creator = await newCreator();
      const persona = await personasService.createPersona(creator, complete("Nova"));
      const read = async () => (await library.listPersonas(creator, { status: "all" }, "card")).items.map((p) => p.tests?.passed ?? null);
      expect(await keptAnswer(read, KEPT_READS.libraryCards, [creator.id, "all", "newest", 1, LIST_PAGE_SIZE])).toEqual([null]);
      await probes.addProbe(creator, persona.id, { name: "Greets", turns: ["Hi!"], inCharacter: true });
      await probes.startRun(creator, persona.id);
      await probes.settleRuns();
      expect(await read()).toEqual([1]);
    },
  },
  librarySearches: {
    "public.personas": async () => {
      const creator = await newCreator();
      await personasService.createPersona(creator, complete("Nova"));
      const read = async () => (await library.listPersonas(creator, { status: "all", q: "nova" }, "card")).items.map((p) => p.name);
      expect(await keptAnswer(read, KEPT_READS.librarySearches, [creator.id, "all", "newest", 1, LIST_PAGE_SIZE, "nova"])).toEqual([
        "Nova",
      ]);
      await personasService.createPersona(creator, complete("Nova Two"));
      expect(await read()).toEqual(["Nova Two", "Nova"]);
    },
    "public.probe_runs": async () => {
      const creator = await newCreator();
      const persona = await personasService.createPersona(creator, complete("Nova"));
      const read = async () =>
        (await library.listPersonas(creator, { status: "all", q: "nova" }, "card")).items.map((p) => p.tests?.passed ?? null);
      expect(await keptAnswer(read, KEPT_READS.librarySearches, [creator.id, "all", "newest", 1, LIST_PAGE_SIZE, "nova"])).toEqual([null]);
      await probes.addProbe(creator, persona.id, { name: "Greets", turns: ["Hi!"], inCharacter: true });
      await probes.startRun(creator, persona.id);
      await probes.settleRuns();
      expect(await read()).toEqual([1]);
    },
  },
  apiLists: {
    "public.personas": async () => {
      const creator = await newCreator();
      const read = async () =>
        (JSON.parse(Buffer.from((await library.listPersonasAnswer(creator, { status: "all" })).json).toString()) as { name: string }[]).map(
          (p) => p.name,
        );
      expect(await keptAnswer(read, KEPT_READS.apiLists, [creator.id, "all", "newest", 1, LIST_PAGE_SIZE])).toEqual([]);
      await personasService.createPersona(creator, complete("Nova"));
      expect(await read()).toEqual(["Nova"]);
    },
  },
  dashboards: {
    "public.personas": async () => {
      const creator = await newCreator();
      const read = async () => (await library.dashboard(creator)).stats.ownedPersonas;
      expect(await keptAnswer(read, KEPT_READS.dashboards, [creator.id])).toBe(0);
      await personasService.saveDraft(creator, { name: "Sketch" });
      expect(await read()).toBe(1);
    },
    "public.generations": async () => {
      const creator = await newCreator();
      const read = async () => (await library.dashboard(creator)).stats.generatedContent;
      expect(await keptAnswer(read, KEPT_READS.dashboards, [creator.id])).toBe(0);
      await personasService.recordGeneration(creator, "backstory");
      expect(await read()).toBe(1);
    },
    "public.profiles": async () => {
      const creator = await newCreator();
      const read = async () => (await library.dashboard(creator)).stats.subscriptionStatus;
      expect(await keptAnswer(read, KEPT_READS.dashboards, [creator.id])).toBe("free");
      await billing.setPlanByHand(creator.email, "premium");
      expect(await read()).toBe("active");
    },
    "public.probe_runs": async () => {
      const creator = await newCreator();
      const persona = await personasService.createPersona(creator, complete("Nova"));
      const read = async () => (await library.dashboard(creator)).recent.map((p) => p.tests?.total ?? null);
      expect(await keptAnswer(read, KEPT_READS.dashboards, [creator.id])).toEqual([null]);
      await probes.addProbe(creator, persona.id, { name: "Greets", turns: ["Hi!"], inCharacter: true });
      await probes.startRun(creator, persona.id);
      await probes.settleRuns();
      expect(await read()).toEqual([1]);
    },
  },
  historyPages: {
    "public.personas": async () => {
      const creator = await newCreator();
      const persona = await personasService.createPersona(creator, complete("Nova"));
      const read = async () => (await history.listVersions(creator, persona.id)).persona.status;
      expect(await keptAnswer(read, KEPT_READS.historyPages, [creator.id, persona.id, 1, HISTORY_PAGE_SIZE])).toBe("active");
      // Archiving makes no version: only the persona's row changes.
      await library.archivePersona(creator, persona.id);
      expect(await read()).toBe("archived");
    },
    "public.persona_versions": async () => {
      const creator = await newCreator();
      const persona = await personasService.createPersona(creator, complete("Nova"));
      await library.updatePersona(creator, persona.id, complete("Nova Renamed"));
      const read = async () => (await history.listVersions(creator, persona.id)).total;
      expect(await keptAnswer(read, KEPT_READS.historyPages, [creator.id, persona.id, 1, HISTORY_PAGE_SIZE])).toBe(2);
      await dropLatestVersion(persona.id);
      expect(await read()).toBe(1);
    },
  },
  comparisons: {
    "public.personas": async () => {
      const creator = await newCreator();
      const persona = await personasService.createPersona(creator, complete("Nova"));
      const read = async () => (await history.compare(creator, persona.id, 1, 1)).persona.name;
      expect(await keptAnswer(read, KEPT_READS.comparisons, [creator.id, persona.id, "1", "1"])).toBe("Nova");
      await library.updatePersona(creator, persona.id, complete("Nova Renamed"));
      expect(await read()).toBe("Nova Renamed");
    },
    "public.persona_versions": async () => {
      const creator = await newCreator();
      const persona = await personasService.createPersona(creator, complete("Nova"));
      await library.updatePersona(creator, persona.id, complete("Nova Renamed"));
      const read = async () => (await history.compare(creator, persona.id, 1, 2)).toVersion.version;
      expect(await keptAnswer(read, KEPT_READS.comparisons, [creator.id, persona.id, "1", "2"])).toBe(2);
      await dropLatestVersion(persona.id);
      await expect(read()).rejects.toMatchObject({ status: 404 });
    },
  },
  personaPages: {
    "public.personas": async () => {
      const creator = await newCreator();
      const persona = await personasService.createPersona(creator, complete("Nova"));
      const read = async () => (await personasService.personaPageState(creator, persona.id)).persona.imageStyle;
      expect(await keptAnswer(read, KEPT_READS.personaPages, [creator.id, persona.id])).toBe("photorealistic");
      await images.setImageStyle(creator, persona.id, "anime");
      expect(await read()).toBe("anime");
    },
    "public.image_jobs": async () => {
      const creator = await newCreator();
      const persona = await personasService.createPersona(creator, complete("Nova"));
      const read = async () => (await personasService.personaPageState(creator, persona.id)).imageGeneration.status;
      expect(await keptAnswer(read, KEPT_READS.personaPages, [creator.id, persona.id])).toBe("idle");
      await images.startImageGeneration(creator, persona.id);
      expect(await read()).toBe("generating");
      await images.settleImageJobs();
    },
  },
  lorebooks: {
    "public.personas": async () => {
      const creator = await newCreator();
      const persona = await personasService.createPersona(creator, complete("Nova"));
      const read = async () => (await lore.getLorebook(creator, persona.id)).book.entries.map((entry) => entry.name);
      expect(await keptAnswer(read, KEPT_READS.lorebooks, [creator.id, persona.id])).toEqual([]);
      await lore.addLoreEntry(creator, persona.id, { name: "Mika", keys: ["Mika"], content: "Nova's younger sister." });
      expect(await read()).toEqual(["Mika"]);
    },
  },
  chatChecks: {
    "public.chat_messages": async () => {
      const creator = await newCreator();
      const persona = await personasService.createPersona(creator, complete("Nova"));
      const read = async () => (await chatChecks.chatChecksOf(creator, persona)).flagged.length;
      expect(await keptAnswer(read, KEPT_READS.chatChecks, [creator.id, persona.id])).toBe(0);
      answering("As an AI, I can't say.");
      await chat.sendMessage(creator, persona.id, "What are you?");
      await chatChecks.settleReplyChecks();
      useTextGenerator(undefined);
      expect(await read()).toBe(1);
      // Clear deletes it: gone at once.
      await chat.clearChat(creator, persona.id);
      expect(await read()).toBe(0);
    },
    "public.persona_versions": async () => {
      const creator = await newCreator();
      const persona = await personasService.createPersona(creator, complete("Nova"));
      const read = async () => (await chatChecks.chatChecksOf(creator, persona)).currentVersion;
      expect(await keptAnswer(read, KEPT_READS.chatChecks, [creator.id, persona.id])).toBe(1);
      await personasService.updateVoice(creator, persona.id, { speechStyle: "Short." });
      expect(await read()).toBe(2);
    },
  },
  chatFlagBadges: {
    "public.chat_messages": async () => {
      const creator = await newCreator();
      const persona = await personasService.createPersona(creator, complete("Nova"));
      const read = async () => (await chatChecks.currentVersionFlags(creator, [persona.id])).get(persona.id)?.flagged ?? null;
      expect(await keptAnswer(read, KEPT_READS.chatFlagBadges, [creator.id, persona.id])).toBeNull();
      answering("As an AI, I can't say.");
      await chat.sendMessage(creator, persona.id, "What are you?");
      await chatChecks.settleReplyChecks();
      useTextGenerator(undefined);
      expect(await read()).toBe(1);
    },
    "public.persona_versions": async () => {
      const creator = await newCreator();
      const persona = await personasService.createPersona(creator, complete("Nova"));
      answering("As an AI, I can't say.");
      await chat.sendMessage(creator, persona.id, "What are you?");
      await chatChecks.settleReplyChecks();
      useTextGenerator(undefined);
      const read = async () => (await chatChecks.currentVersionFlags(creator, [persona.id])).get(persona.id)?.flagged ?? null;
      expect(await keptAnswer(read, KEPT_READS.chatFlagBadges, [creator.id, persona.id])).toBe(1);
      // A new version has no checked replies yet.
      await personasService.updateVoice(creator, persona.id, { speechStyle: "Short." });
      expect(await read()).toBeNull();
    },
  },
  testSummaries: {
    "public.persona_probes": async () => {
      const creator = await newCreator();
      const persona = await personasService.createPersona(creator, complete("Nova"));
      const read = async () => (await probes.testsSummary(creator, persona.id)).probes;
      expect(await keptAnswer(read, KEPT_READS.testSummaries, [creator.id, persona.id])).toBe(0);
      await probes.addProbe(creator, persona.id, { name: "Greets", turns: ["Hi!"], inCharacter: true });
      expect(await read()).toBe(1);
    },
    "public.probe_runs": async () => {
      const creator = await newCreator();
      const persona = await personasService.createPersona(creator, complete("Nova"));
      await probes.addProbe(creator, persona.id, { name: "Greets", turns: ["Hi!"], inCharacter: true });
      const read = async () => (await probes.testsSummary(creator, persona.id)).latest?.failed ?? null;
      expect(await keptAnswer(read, KEPT_READS.testSummaries, [creator.id, persona.id])).toBeNull();
      await probes.startRun(creator, persona.id);
      await probes.settleRuns();
      expect(await read()).toBe(false);
    },
  },
  testStates: {
    "public.personas": async () => {
      const creator = await newCreator();
      const persona = await personasService.createPersona(creator, complete("Nova"));
      const read = async () => (await probes.testsState(creator, persona.id)).probes.length;
      expect(await keptAnswer(read, KEPT_READS.testStates, [creator.id, persona.id])).toBe(0);
      await library.deletePersona(creator, persona.id);
      await expect(read()).rejects.toMatchObject({ status: 404 });
    },
    "public.persona_probes": async () => {
      const creator = await newCreator();
      const persona = await personasService.createPersona(creator, complete("Nova"));
      const read = async () => (await probes.testsState(creator, persona.id)).probes.map((probe) => probe.name);
      expect(await keptAnswer(read, KEPT_READS.testStates, [creator.id, persona.id])).toEqual([]);
      await probes.addProbe(creator, persona.id, { name: "Greets", turns: ["Hi!"], inCharacter: true });
      expect(await read()).toEqual(["Greets"]);
    },
    "public.probe_runs": async () => {
      const creator = await newCreator();
      const persona = await personasService.createPersona(creator, complete("Nova"));
      await probes.addProbe(creator, persona.id, { name: "Greets", turns: ["Hi!"], inCharacter: true });
      const read = async () => (await probes.testsState(creator, persona.id)).latest?.passed ?? null;
      expect(await keptAnswer(read, KEPT_READS.testStates, [creator.id, persona.id])).toBeNull();
      await probes.startRun(creator, persona.id);
      await probes.settleRuns();
      expect(await read()).toBe(1);
    },
  },
  runSummaries: {
    "public.probe_runs": async () => {
      const creator = await newCreator();
      const persona = await personasService.createPersona(creator, complete("Nova"));
      await probes.addProbe(creator, persona.id, { name: "Greets", turns: ["Hi!"], inCharacter: true });
      const version = (await history.listVersions(creator, persona.id)).items[0]!.version;
      const read = async () => (await probes.runSummariesByVersion(creator, persona.id, [version]))[version]?.failed ?? null;
      expect(await keptAnswer(read, KEPT_READS.runSummaries, [creator.id, persona.id, String(version)])).toBeNull();
      await probes.startRun(creator, persona.id);
      await probes.settleRuns();
      expect(await read()).toBe(false);
    },
  },
  cardChecks: {
    "public.personas": async () => {
      const creator = await newCreator();
      const persona = await personasService.createPersona(creator, complete("Nova"));
      const read = async () => (await cardChecks.cardCheck(creator, persona.id)).survival.length;
      expect(await keptAnswer(read, KEPT_READS.cardChecks, [creator.id, persona.id])).toBe(6);
      await library.deletePersona(creator, persona.id);
      await expect(read()).rejects.toMatchObject({ status: 404 });
    },
    "public.persona_versions": async () => {
      const creator = await newCreator();
      const persona = await personasService.createPersona(creator, complete("Nova"));
      await library.updatePersona(creator, persona.id, complete("Nova Renamed"));
      const read = async () => (await cardChecks.cardCheck(creator, persona.id)).version;
      expect(await keptAnswer(read, KEPT_READS.cardChecks, [creator.id, persona.id])).toBe(2);
      await dropLatestVersion(persona.id);
      expect(await read()).toBe(1);
    },
    "public.card_target_runs": async () => {
      const creator = await newCreator();
      const persona = await personasService.createPersona(creator, complete("Nova"));
      await probes.addProbe(creator, persona.id, { name: "Greets", turns: ["Hi!"], inCharacter: true });
      const read = async () => (await cardChecks.cardCheck(creator, persona.id)).run?.status ?? null;
      expect(await keptAnswer(read, KEPT_READS.cardChecks, [creator.id, persona.id])).toBeNull();
      await cardTargetRuns.startCardTargetRun(creator, persona.id);
      await cardTargetRuns.settleCardTargetRuns();
      expect(await read()).toBe("completed");
    },
  },
  conversationSummaries: {
    "public.conversation_tests": async () => {
      const creator = await newCreator();
      const persona = await personasService.createPersona(creator, complete("Nova"));
      const read = async () => (await conversations.conversationTestSummary(creator, persona.id)).summary;
      expect(await keptAnswer(read, KEPT_READS.conversationSummaries, [creator.id, persona.id])).toBe("No long-conversation test yet.");
      await conversations.startConversationTest(creator, persona.id, { turns: 4, seed: 3 });
      await conversations.settleConversationTests();
      expect(await read()).toMatch(/^Version 1 · seed 3 · 4 turns: /);
    },
  },
  conversationPages: {
    "public.personas": async () => {
      const creator = await newCreator();
      const persona = await personasService.createPersona(creator, complete("Nova"));
      const read = async () => (await conversations.conversationTestsPage(creator, persona.id, null)).persona.name;
      expect(await keptAnswer(read, KEPT_READS.conversationPages, [creator.id, persona.id, ""])).toBe("Nova");
      await library.updatePersona(creator, persona.id, complete("Nova Renamed"));
      expect(await read()).toBe("Nova Renamed");
    },
    "public.conversation_tests": async () => {
      const creator = await newCreator();
      const persona = await personasService.createPersona(creator, complete("Nova"));
      const read = async () => (await conversations.conversationTestsPage(creator, persona.id, null)).latest?.status ?? null;
      expect(await keptAnswer(read, KEPT_READS.conversationPages, [creator.id, persona.id, ""])).toBeNull();
      await conversations.startConversationTest(creator, persona.id, { turns: 4, seed: 3 });
      await conversations.settleConversationTests();
      expect(await read()).toBe("completed");
    },
  },
  ownedCounts: {
    "public.personas": async () => {
      const creator = await newCreator();
      for (let i = 1; i <= 10; i++) await personasService.saveDraft(creator, { name: `Sketch ${i}` });
      const read = async () => (await personasService.usage(creator)).canCreateMore;
      expect(await keptAnswer(read, KEPT_READS.ownedCounts, [creator.id])).toBe(false);
      const [last] = (await library.listPersonas(creator, { status: "all" }, "card")).items;
      await library.deletePersona(creator, last!.id);
      expect(await read()).toBe(true);
    },
  },
  checkedSessions: {
    "auth.sessions": async () => {
      const account = await signedInAccount();
      expect((await keptAnswer(account.lookUp, KEPT_READS.checkedSessions, account.parts))?.id).toBe(account.user.id);
      await accounts.signOut(account.ctx, account.user);
      expect(await account.lookUp()).toBeNull();
    },
    "auth.users": async () => {
      const account = await signedInAccount();
      expect((await keptAnswer(account.lookUp, KEPT_READS.checkedSessions, account.parts))?.emailVerified).toBe(true);
      // The account's row alone (the auth adapter always changes it with its sessions).
      await handle.raw.rows(`update auth.users set email_confirmed_at = null where id = $1`, [account.user.id]);
      expect((await account.lookUp())?.emailVerified).toBe(false);
    },
    "public.profiles": async () => {
      const account = await signedInAccount();
      expect((await keptAnswer(account.lookUp, KEPT_READS.checkedSessions, account.parts))?.firstName).toBe("Kept");
      await accounts.updateProfile(account.user, { firstName: "Renamed", lastName: "Session" });
      expect((await account.lookUp())?.firstName).toBe("Renamed");
    },
  },
};

for (const [name, writes] of Object.entries(FRESH) as [KeptReadName, Record<string, () => Promise<void>>][]) {
  describe(`${KEPT_READS[name].name}: the next read after a write`, () => {
    it("has a write here for every table it declares", () => {
      expect(Object.keys(writes).sort()).toEqual([...KEPT_READS[name].tables].sort());
    });
    for (const [table, written] of Object.entries(writes)) it(`shows a write to ${table}`, written);
  });
}
