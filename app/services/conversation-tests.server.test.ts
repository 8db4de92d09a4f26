// Long-conversation tests on a real database (PGlite in npm test, PostgreSQL 15 with DATABASE_URL;
// docs/product.md, Persona tests: long conversations): a run plays the seeded conversation against
// the persona's current version and keeps its checkpoints, first failures and transcript per
// version; the same seed plays the same conversation; two starts are one run; bad turns or seeds are
// the field's message; a draft is a 409; another creator's persona and an unknown run are 404s;
// a model failing mid-test ends the run 'failed' with the reason and the checkpoints it has; nobody
// queues a run without the app.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), "pf-conversation-tests-"));

const { createCreator, installTestDatabase } = await import("../../tests/support/test-database");
const { closeDatabase } = await import("~/infra/db/db.server");
const { startJobWorkers, stopJobWorkers } = await import("~/infra/jobs/queue.server");
const { resetRateLimits } = await import("~/infra/web/rate-limit.server");
const { useTextGenerator, AiError } = await import("~/infra/ai/ai.server");
const { createLocalTextGenerator } = await import("~/infra/ai/offline/local-text.server");
const personasService = await import("./personas.server");
const runs = await import("./conversation-tests.server");

let handle: Awaited<ReturnType<typeof installTestDatabase>>;
beforeAll(async () => {
  handle = await installTestDatabase();
  runs.handleConversationTestJobs();
  await startJobWorkers();
});
afterEach(async () => {
  await runs.settleConversationTests();
  useTextGenerator(undefined);
  await resetRateLimits();
});
afterAll(async () => {
  await stopJobWorkers();
  await closeDatabase();
});

const newUser = () => createCreator(handle, "active", { first: "Long", last: "Talker" });

async function createPersona(user: Awaited<ReturnType<typeof newUser>>) {
  const persona = await personasService.createPersona(user, {
    name: "Kira Moon",
    type: "vtuber",
    gender: "female",
    ageRange: "25-34",
    interests: ["gaming"],
    description: "A late-night streamer.",
    personality: ["Outgoing", "Curious"],
    backstory: "Kira grew up with her older sister Mina.",
  });
  await personasService.updateVoice(user, persona.id, { greeting: "Heya, chat! Grab a blanket.", catchphrases: ["Stay cozy"] });
  return persona;
}

async function finished(user: Awaited<ReturnType<typeof newUser>>, personaId: string, runId: string) {
  for (let i = 0; i < 200; i++) {
    await runs.settleConversationTests();
    const run = await runs.getConversationTest(user, personaId, runId);
    if (run.status === "completed" || run.status === "failed") return run;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("the run did not finish");
}

describe("long-conversation tests", () => {
  it("play the seeded conversation and keep the checkpoints, first failures and transcript per version", async () => {
    const user = await newUser();
    const persona = await createPersona(user);
    const started = await runs.startConversationTest(user, persona.id, { turns: 10, seed: 42 });
    expect(started.started).toBe(true);
    // A second start while it waits or runs is the same run.
    expect((await runs.startConversationTest(user, persona.id, {})).runId).toBe(started.runId);

    const run = await finished(user, persona.id, started.runId);
    expect(run).toMatchObject({ status: "completed", model: "embedded", turns: 10, seed: 42, error: null, done: 10 });
    expect(run.checkpoints.map((checkpoint) => checkpoint.turn)).toEqual([1, 4, 7, 10]);
    // The greeting, then ten exchanges.
    expect(run.transcript).toHaveLength(21);
    expect(run.transcript[0]).toEqual({ role: "assistant", content: "Heya, chat! Grab a blanket." });
    for (const checkpoint of run.checkpoints) {
      expect(Object.keys(checkpoint.byCategory)).toEqual(
        expect.arrayContaining(["identity", "voice", "boundary", "falseMemory", "inCharacter"]),
      );
      expect(checkpoint.passed + checkpoint.failed).toBeGreaterThan(0);
    }
    expect(Object.keys(run.firstFailure).sort()).toEqual(["boundary", "falseMemory", "identity", "inCharacter", "secrets", "voice"]);

    // The same seed replays the same conversation.
    const again = await runs.startConversationTest(user, persona.id, { turns: 10, seed: 42 });
    expect(again.started).toBe(true);
    const replay = await finished(user, persona.id, again.runId);
    expect(replay.transcript.filter((turn) => turn.role === "user")).toEqual(run.transcript.filter((turn) => turn.role === "user"));

    // Kept per version: a new version's run is laid beside the older one's.
    await personasService.updateVoice(user, persona.id, { greeting: "Evening, chat!", catchphrases: ["Stay cozy"] });
    const next = await runs.startConversationTest(user, persona.id, { turns: 4 });
    await finished(user, persona.id, next.runId);
    const state = await runs.conversationTestsState(user, persona.id);
    expect(state.pending).toBeNull();
    expect(state.latest!.runId).toBe(next.runId);
    expect(state.latest!.version).toBeGreaterThan(run.version);
    // The older version's latest run can be laid over it (the replay of seed 42 is its latest).
    expect(state.others.map((each) => [each.runId, each.version])).toEqual([[again.runId, run.version]]);
    expect(state.over).toBeNull();
    const laid = await runs.conversationTestsState(user, persona.id, again.runId);
    expect(laid.over).toMatchObject({ runId: again.runId, checkpoints: replay.checkpoints });
    expect(laid.latest!.checkpoints.length).toBe(4);
    expect((await runs.conversationTestSummary(user, persona.id)).summary).toMatch(
      new RegExp(`^Version ${state.latest!.version} · seed \\d+ · 4 turns: `),
    );
  });

  it("refuse bad turns and seeds with the field's message, a draft with 409, and another creator's persona with 404", async () => {
    const user = await newUser();
    const other = await newUser();
    const persona = await createPersona(user);
    await expect(runs.startConversationTest(user, persona.id, { turns: 1000 })).rejects.toMatchObject({
      status: 400,
      message: "Turns must be a whole number from 4 to 60",
      errors: { turns: ["Turns must be a whole number from 4 to 60"] },
    });
    await expect(runs.startConversationTest(user, persona.id, { turns: 3 })).rejects.toMatchObject({ status: 400 });
    await expect(runs.startConversationTest(user, persona.id, { turns: "ten" })).rejects.toMatchObject({ status: 400 });
    await expect(runs.startConversationTest(user, persona.id, { seed: -1 })).rejects.toMatchObject({
      status: 400,
      message: "Seed must be a whole number from 0 to 2147483647",
    });
    await expect(runs.startConversationTest(other, persona.id, {})).rejects.toMatchObject({ status: 404 });
    await expect(runs.startConversationTest(user, "not-a-uuid", {})).rejects.toMatchObject({ status: 404 });
    const { runId } = await runs.startConversationTest(user, persona.id, { turns: 4 });
    await expect(runs.getConversationTest(other, persona.id, runId)).rejects.toMatchObject({ status: 404 });
    await expect(runs.getConversationTest(user, persona.id, "00000000-0000-4000-8000-000000000000")).rejects.toMatchObject({
      status: 404,
      message: "Long-conversation test not found",
    });
    await finished(user, persona.id, runId);
    // Nothing was stored for the refused starts.
    const rows = await handle.raw.rows<{ n: number }>(`select count(*)::int as n from public.conversation_tests where persona_id = $1`, [
      persona.id,
    ]);
    expect(rows[0]!.n).toBe(1);

    const draft = await personasService.saveDraft(user, { name: "Half Done" });
    await expect(runs.startConversationTest(user, draft.id, {})).rejects.toMatchObject({ status: 409 });
  });

  it("end 'failed' with the reason when the model fails mid-test, keeping the checkpoints it has", async () => {
    const user = await newUser();
    const persona = await createPersona(user);
    const local = createLocalTextGenerator({ chatPaceMs: 0 });
    useTextGenerator({
      ...local,
      kind: "openai",
      chatModel: "test-model",
      async *chatReply(input, options) {
        // Checkpoints at turns 1, 3, 6 and 8: the model stops answering at turn 5.
        if (input.history.filter((turn) => turn.role === "user").length >= 5) throw new AiError("unavailable", "The service is down.");
        yield* local.chatReply(input, options);
      },
    });
    const { runId } = await runs.startConversationTest(user, persona.id, { turns: 8, seed: 1 });
    const run = await finished(user, persona.id, runId);
    expect(run.status).toBe("failed");
    expect(run).toMatchObject({ model: "test-model", error: "The model test-model failed: The service is down.", done: 4 });
    expect(run.checkpoints.map((checkpoint) => checkpoint.turn)).toEqual([1, 3]);
    // Three samples of each question with a model.
    expect(
      run.checkpoints[0]!.probes.filter((probe) => probe.category !== "inCharacter").every((probe) => probe.replies.length === 3),
    ).toBe(true);
    expect(run.firstFailure).toMatchObject({ identity: null });
    expect(run.transcript.filter((turn) => turn.role === "user")).toHaveLength(4);
  });

  it("try a fix on the same conversation, keep it as a new version, or discard it leaving a note", async () => {
    const user = await newUser();
    const persona = await createPersona(user);
    // A model that slips out of character from turn 3 on, unless its post-history instructions hold it.
    const local = createLocalTextGenerator({ chatPaceMs: 0 });
    useTextGenerator({
      ...local,
      async *chatReply(input, options) {
        const held = input.persona.voice?.postHistoryInstructions?.includes("Stay in character as Kira Moon");
        if (!held && input.history.filter((turn) => turn.role === "user").length >= 3) {
          yield "As an AI language model, I can't say.";
          return;
        }
        yield* local.chatReply(input, options);
      },
    });
    const { runId: baseId } = await runs.startConversationTest(user, persona.id, { turns: 8, seed: 4 });
    const base = await finished(user, persona.id, baseId);
    expect(base.firstFailure.inCharacter).toBe(3);
    const state = await runs.conversationTestsState(user, persona.id);
    expect(state.latest!.runId).toBe(baseId);
    const fix = state.fixes.find((each) => each.place === "postHistoryInstructions")!;
    expect(["inCharacter", "boundary"]).toContain(fix.category);
    expect(fix.text).toMatch(/^Stay in character as Kira Moon in every reply\./);
    // One fix a text: the knowledge boundary slipped too, and is held by the same instructions.
    expect(state.fixes.filter((each) => each.place === "postHistoryInstructions")).toHaveLength(1);

    // Refused: a category that did not slip, another creator's run.
    await expect(runs.tryFix(user, persona.id, baseId, "secrets")).rejects.toMatchObject({ status: 400 });
    const other = await newUser();
    await expect(runs.tryFix(other, persona.id, baseId, "inCharacter")).rejects.toMatchObject({ status: 404 });

    const tried = await runs.tryFix(user, persona.id, baseId, fix.category);
    expect(tried.started).toBe(true);
    expect((await runs.tryFix(user, persona.id, baseId, fix.category)).runId).toBe(tried.runId);
    const candidate = await finished(user, persona.id, tried.runId);
    expect(candidate).toMatchObject({ version: base.version, seed: 4, turns: 8, baseRunId: baseId, fix: { category: fix.category } });
    expect(candidate.firstFailure.inCharacter).toBeNull();
    // The same conversation: the interrogator said the same things.
    expect(candidate.transcript.filter((turn) => turn.role === "user")).toEqual(base.transcript.filter((turn) => turn.role === "user"));
    // Nothing changed on the persona while it was tried; the page shows the try beside its run.
    expect((await personasService.getPersona(user, persona.id)).voice).not.toMatchObject({ postHistoryInstructions: expect.anything() });
    const laid = await runs.conversationTestsState(user, persona.id);
    expect(laid.latest!.runId).toBe(baseId);
    expect(laid.trying).toMatchObject({ runId: tried.runId, status: "completed" });

    // Keep: the text is the persona's, in a new version.
    const { version } = await runs.keepFix(user, persona.id, tried.runId);
    expect(version).toBeGreaterThan(base.version);
    const voice = personasService.personaVoice(await personasService.getPersona(user, persona.id));
    expect(voice.postHistoryInstructions).toBe(fix.text);
    expect(voice.catchphrases).toEqual(["Stay cozy"]);
    await expect(runs.keepFix(user, persona.id, tried.runId)).rejects.toMatchObject({ status: 409 });
    expect((await runs.conversationTestsState(user, persona.id)).trying!.fix).toMatchObject({ keptAs: version });

    // Discard another try: it goes, and the run notes it.
    const second = await runs.tryFix(user, persona.id, baseId, fix.category === "boundary" ? "inCharacter" : "boundary");
    await finished(user, persona.id, second.runId);
    await runs.discardFix(user, persona.id, second.runId);
    await expect(runs.getConversationTest(user, persona.id, second.runId)).rejects.toMatchObject({ status: 404 });
    const noted = await runs.getConversationTest(user, persona.id, baseId);
    expect(noted.notes).toHaveLength(1);
    expect(noted.notes[0]).toMatchObject({ before: { passed: expect.any(Number), failed: expect.any(Number) } });
    // History notes it next to the version it was tried on, and nothing else.
    const history = await runs.fixNotesByVersion(user, persona.id, [base.version, version]);
    expect(Object.keys(history).map(Number)).toEqual([base.version]);
    expect(history[base.version]![0]).toMatch(/^Fix tried in a long conversation and discarded: .+ passed before, \d+ of \d+ with it$/);
  });

  it("is queued through the app only: a run written straight to the table is refused", async () => {
    const user = await newUser();
    const persona = await createPersona(user);
    await expect(
      handle.raw.exec(
        `insert into public.conversation_tests (persona_id, user_id, version, turns, seed) values ('${persona.id}', '${user.id}', 1, 24, 1)`,
      ),
    ).rejects.toThrow(/started through the app/);
  });
});
