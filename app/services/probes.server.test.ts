// Persona tests on a real database (PGlite in npm test, PostgreSQL 15 with DATABASE_URL): probes are
// checked, stored in order and pinned to the persona's facts; suggestions store nothing; a run is
// recorded per version with every reply and verdict; a new version queues a run by itself; two
// starts at once are one run; a model failing mid-run ends the run 'failed' with what it has; a
// probe whose lore entry was deleted is 'broken'; another creator's persona is a 404.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), "pf-probes-"));

const { createCreator, installTestDatabase } = await import("../../tests/support/test-database");
const { closeDatabase, withServiceRole } = await import("~/infra/db/db.server");
const { startJobWorkers, stopJobWorkers } = await import("~/infra/jobs/queue.server");
const { probeRuns, personaProbes } = await import("~/infra/db/schema.server");
const { useTextGenerator, AiError } = await import("~/infra/ai/ai.server");
const { createLocalTextGenerator } = await import("~/infra/ai/offline/local-text.server");
const { resetRateLimits } = await import("~/infra/web/rate-limit.server");
const personasService = await import("./personas.server");
const lore = await import("./lore.server");
const probes = await import("./probes.server");
const exporter = await import("./persona-export.server");
const library = await import("./persona-library.server");

let handle: Awaited<ReturnType<typeof installTestDatabase>>;
beforeAll(async () => {
  handle = await installTestDatabase();
  probes.handleTestRunJobs();
  await startJobWorkers();
});
afterEach(async () => {
  await probes.settleRuns();
  useTextGenerator(undefined);
  await resetRateLimits();
});
afterAll(async () => {
  await stopJobWorkers();
  await closeDatabase();
});

const newUser = () => createCreator(handle, "active", { first: "Test", last: "Pilot" });

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
  return personasService.updateVoice(user, persona.id, { greeting: "Heya, chat! Grab a blanket.", catchphrases: ["Stay cozy"] });
}

/** Waits for the persona's runs to settle (runs happen off the request). */
async function finished(user: { id: string }, personaId: string) {
  for (let i = 0; i < 200; i++) {
    await probes.settleRuns();
    const runs = await probes.listRuns(user, personaId);
    if (runs.length && runs.every((run) => run.status === "completed" || run.status === "failed")) return runs;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("runs did not finish");
}

describe("probes", () => {
  it("are checked, stored in order, edited, turned off and deleted; a fact is pinned when saved", async () => {
    const user = await newUser();
    const { id } = await createPersona(user);
    const a = await probes.addProbe(user, id, { name: "Born", turns: ["Where were you born?"], statesFact: "fact:birthplace" });
    const b = await probes.addProbe(user, id, { name: "Greets", turns: "Hi!\nHow are you?", mustMention: ["Heya"] });
    expect(b.turns).toEqual(["Hi!", "How are you?"]);
    expect(a.factExpected?.label).toBe("Birthplace");
    expect(a.factExpected?.any.length).toBeGreaterThan(0);
    expect((await probes.listProbes(user, id)).map((p) => p.name)).toEqual(["Born", "Greets"]);

    const edited = await probes.updateProbe(user, id, b.id, { maxLength: 300 });
    expect(edited).toMatchObject({ name: "Greets", maxLength: 300, mustMention: ["Heya"] });
    expect((await probes.setProbeEnabled(user, id, b.id, false)).enabled).toBe(false);
    await probes.deleteProbe(user, id, a.id);
    expect((await probes.listProbes(user, id)).map((p) => p.name)).toEqual(["Greets"]);
  });

  it("refuse bad input with field messages and store nothing", async () => {
    const user = await newUser();
    const { id } = await createPersona(user);
    const refusal = (raw: unknown) =>
      probes.addProbe(user, id, raw).then(
        () => null,
        (error: { status: number; errors?: Record<string, string[]> }) => error,
      );
    expect((await refusal({ name: "Empty", turns: [] }))?.errors?.turns).toEqual(["Write the message to send"]);
    expect((await refusal({ name: "Long", turns: Array.from({ length: 50 }, () => "hi"), inCharacter: true }))?.errors?.turns).toEqual([
      "A probe sends at most 5 messages",
    ]);
    expect((await refusal({ name: "Big", turns: ["hi"], mustMention: ["x".repeat(10_000)] }))?.errors?.mustMention).toEqual([
      "Each phrase must be 200 characters or less",
    ]);
    const start = Date.now();
    expect((await refusal({ name: "Lookahead", turns: ["hi"], mustMatch: "(?=a)a" }))?.errors?.mustMatch).toEqual([
      "This pattern cannot be matched: it must be a valid pattern without look-arounds or back-references. Simplify it",
    ]);
    expect(Date.now() - start).toBeLessThan(1_000);
    expect((await refusal({ name: "Nothing", turns: ["hi"] }))?.errors?.mustMention).toEqual(["Add at least one expectation"]);
    expect((await refusal({ name: "Fact", turns: ["hi"], statesFact: "fact:shoeSize" }))?.errors?.statesFact).toEqual([
      "Choose a fact from the list",
    ]);
    const unknownEntry = "lore:00000000-0000-4000-8000-00000000abcd";
    expect((await refusal({ name: "Lore", turns: ["hi"], statesFact: unknownEntry }))?.errors?.statesFact).toEqual([
      "Choose a fact from the list",
    ]);
    expect(await probes.listProbes(user, id)).toEqual([]);
  });

  it("hold at most 30 a persona", async () => {
    const user = await newUser();
    const { id } = await createPersona(user);
    await probes.addProbes(
      user,
      id,
      Array.from({ length: 30 }, (_, i) => ({ name: `P${i}`, turns: ["Hi"], inCharacter: true })),
    );
    await expect(probes.addProbe(user, id, { name: "One more", turns: ["Hi"], inCharacter: true })).rejects.toMatchObject({
      status: 400,
      message: "A persona holds at most 30 probes",
    });
  });

  it("are another creator's 404, and stay untouched", async () => {
    const owner = await newUser();
    const other = await newUser();
    const { id } = await createPersona(owner);
    const probe = await probes.addProbe(owner, id, { name: "Greets", turns: ["Hi!"], mustMention: ["Heya"] });
    await expect(probes.listProbes(other, id)).rejects.toMatchObject({ status: 404 });
    await expect(probes.addProbe(other, id, { name: "X", turns: ["Hi"], inCharacter: true })).rejects.toMatchObject({ status: 404 });
    // A bad body on someone else's persona is a 404 too: nothing is said about the body.
    await expect(probes.addProbe(other, id, { name: "", turns: [] })).rejects.toMatchObject({ status: 404 });
    await expect(probes.updateProbe(other, id, probe.id, { name: "Mine" })).rejects.toMatchObject({ status: 404 });
    await expect(probes.deleteProbe(other, id, probe.id)).rejects.toMatchObject({ status: 404 });
    await expect(probes.startRun(other, id)).rejects.toMatchObject({ status: 404 });
    await expect(probes.listRuns(other, id)).rejects.toMatchObject({ status: 404 });
    expect((await probes.listProbes(owner, id)).map((p) => p.name)).toEqual(["Greets"]);
  });

  it("are suggested from the persona without storing anything", async () => {
    const user = await newUser();
    const { id } = await createPersona(user);
    const suggested = await probes.suggestPersonaProbes(user, id);
    expect(suggested.length).toBeGreaterThanOrEqual(8);
    expect(suggested.length).toBeLessThanOrEqual(15);
    expect(suggested.map((p) => p.statesFact)).toContain("fact:birthplace");
    expect(suggested.some((p) => p.mustMention.includes("Stay cozy"))).toBe(true);
    expect(await probes.listProbes(user, id)).toEqual([]);
  });
});

describe("runs", () => {
  it("record every reply and verdict against the current version, with the model", async () => {
    const user = await newUser();
    const { id } = await createPersona(user);
    await probes.addProbes(user, id, await probes.suggestPersonaProbes(user, id));
    const { runId } = await probes.startRun(user, id);
    await finished(user, id);
    const run = await probes.getRun(user, id, runId);
    expect(run).toMatchObject({ status: "completed", model: "embedded", trigger: "manual", failed: 0 });
    expect(run.passed).toBe(run.total);
    expect(run.results.every((result) => result.replies.length === result.turns.length)).toBe(true);
  });

  it("run by themselves after a new version, and catch the edit that broke the persona; fixing it passes again", async () => {
    const user = await newUser();
    const persona = await createPersona(user);
    await probes.addProbe(user, persona.id, {
      name: "Says their catchphrase",
      turns: ["What's your catchphrase?"],
      mustMention: ["Stay cozy"],
    });
    await personasService.updateVoice(user, persona.id, { greeting: "Heya, chat! Grab a blanket.", catchphrases: ["Whatever"] });
    const [broken] = await finished(user, persona.id);
    expect(broken).toMatchObject({ trigger: "version", status: "completed", passed: 0, failed: 1 });
    expect(broken!.results[0]!.failures[0]).toMatchObject({ check: "mustMention", expected: "one of 'Stay cozy'" });

    await personasService.updateVoice(user, persona.id, { greeting: "Heya, chat! Grab a blanket.", catchphrases: ["Stay cozy"] });
    const [fixed] = await finished(user, persona.id);
    expect(fixed).toMatchObject({ trigger: "version", status: "completed", passed: 1, failed: 0 });
    expect(fixed!.version).toBe(broken!.version + 1);
    const byVersion = await probes.runsByVersion(user, persona.id);
    expect(byVersion.get(broken!.version)?.failed).toBe(1);
  });

  it("started twice at once are one run", async () => {
    const user = await newUser();
    const { id } = await createPersona(user);
    await probes.addProbe(user, id, { name: "Greets", turns: ["Hi!"], mustMention: ["Heya"] });
    const [a, b] = await Promise.all([probes.startRun(user, id), probes.startRun(user, id)]);
    expect(a.runId).toBe(b.runId);
    expect(await finished(user, id)).toHaveLength(1);
  });

  it("end 'failed' with the reason when the model fails mid-run, keeping what they have", async () => {
    const user = await newUser();
    const { id } = await createPersona(user);
    await probes.addProbes(user, id, [
      { name: "First", turns: ["Hi!"], inCharacter: true },
      { name: "Second", turns: ["Where were you born?"], inCharacter: true },
    ]);
    const local = createLocalTextGenerator({ chatPaceMs: 0 });
    let calls = 0;
    useTextGenerator({
      ...local,
      kind: "openai",
      chatModel: "test-model",
      async *chatReply(input, options) {
        calls += 1;
        if (calls > 1) throw new AiError("timeout", "no answer");
        yield* local.chatReply(input, options);
      },
    });
    const { runId } = await probes.startRun(user, id);
    await finished(user, id);
    const run = await probes.getRun(user, id, runId);
    expect(run).toMatchObject({ status: "failed", model: "test-model", passed: 1, failed: 0 });
    expect(run.error).toBe("The model test-model failed: it did not answer in time");
    expect(run.results.map((result) => result.name)).toEqual(["First"]);
  });

  it("show a probe whose lore entry was deleted as broken, and go on", async () => {
    const user = await newUser();
    const { id } = await createPersona(user);
    const entry = await lore.addLoreEntry(user, id, {
      name: "Mina",
      keys: ["Mina"],
      content: "Mina is Kira's older sister, a night-shift nurse in Busan.",
      kind: "person",
    });
    await probes.addProbes(user, id, [
      { name: "Knows Mina", turns: ["Tell me about Mina."], statesFact: `lore:${entry.id}` },
      { name: "Greets", turns: ["Hi!"], mustMention: ["Heya"] },
    ]);
    await lore.deleteLoreEntry(user, id, entry.id);
    const [run] = await finished(user, id);
    expect(run).toMatchObject({ status: "completed", passed: 1, failed: 1 });
    expect(run!.results[0]!.failures[0]).toMatchObject({ check: "broken", got: "The entry is gone" });
  });

  it("need a probe, and a finished persona", async () => {
    const user = await newUser();
    const { id } = await createPersona(user);
    await expect(probes.startRun(user, id)).rejects.toMatchObject({ status: 409, message: PROBE_MESSAGES_NO_PROBES });
  });

  it("are gone with their persona", async () => {
    const user = await newUser();
    const { id } = await createPersona(user);
    await probes.addProbe(user, id, { name: "Greets", turns: ["Hi!"], mustMention: ["Heya"] });
    await probes.startRun(user, id);
    await finished(user, id);
    await withServiceRole("test", async (tx) => {
      const { personas } = await import("~/infra/db/schema.server");
      await tx.delete(personas).where(eq(personas.id, id));
    });
    const left = await withServiceRole("test", (tx) => tx.select().from(probeRuns).where(eq(probeRuns.personaId, id)));
    const leftProbes = await withServiceRole("test", (tx) => tx.select().from(personaProbes).where(eq(personaProbes.personaId, id)));
    expect([left.length, leftProbes.length]).toEqual([0, 0]);
  });
});

describe("runs on the job queue", () => {
  const jobsOf = (runId: string) =>
    handle.raw.rows<{ state: string; retry_count: number }>(
      `select state::text as state, retry_count from pgboss.job where name = 'persona-tests' and data->>'runId' = $1 order by created_on`,
      [runId],
    );

  it("a run cut off by a crash is run again after the restart, and completes", async () => {
    await stopJobWorkers();
    const user = await newUser();
    const { id } = await createPersona(user);
    await probes.addProbe(user, id, { name: "Greets", turns: ["Hi!"], mustMention: ["Heya"] });
    const { runId } = await probes.startRun(user, id);
    // A worker took it and died: the row says running, the job is active (past its expiry, which
    // is how a database server tells a dead worker's attempt; the embedded one knows at start).
    await withServiceRole("test", (tx) =>
      tx
        .update(probeRuns)
        .set({ status: "running", startedAt: new Date(), deadline: new Date(Date.now() + 600_000) })
        .where(eq(probeRuns.id, runId)),
    );
    await handle.raw.exec(
      `update pgboss.job set state = 'active', started_on = now() - interval '1 hour' where name = 'persona-tests' and data->>'runId' = '${runId}'`,
    );
    expect(await probes.getRun(user, id, runId)).toMatchObject({ status: "running" });
    // The server (or, on a database server, another worker) starts.
    await probes.settleRuns();
    expect(await probes.getRun(user, id, runId)).toMatchObject({ status: "completed", passed: 1, error: null });
    expect(await jobsOf(runId)).toEqual([{ state: "completed", retry_count: 1 }]);
  });

  it("a run whose every try is cut off ends failed as interrupted; one whose persona was deleted is cancelled", async () => {
    await stopJobWorkers();
    const user = await newUser();
    const { id } = await createPersona(user);
    await probes.addProbe(user, id, { name: "Greets", turns: ["Hi!"], mustMention: ["Heya"] });
    const { runId } = await probes.startRun(user, id);
    await withServiceRole("test", (tx) =>
      tx
        .update(probeRuns)
        .set({ status: "running", deadline: new Date(Date.now() + 600_000) })
        .where(eq(probeRuns.id, runId)),
    );
    await handle.raw.exec(
      `update pgboss.job set state = 'active', started_on = now() - interval '1 hour', retry_count = retry_limit where name = 'persona-tests' and data->>'runId' = '${runId}'`,
    );
    const other = await createPersona(user);
    await probes.addProbe(user, other.id, { name: "Greets", turns: ["Hi!"], mustMention: ["Heya"] });
    const gone = await probes.startRun(user, other.id);
    await withServiceRole("test", async (tx) => {
      const { personas } = await import("~/infra/db/schema.server");
      await tx.delete(personas).where(eq(personas.id, other.id));
    });
    await probes.settleRuns();
    expect(await probes.getRun(user, id, runId)).toMatchObject({ status: "failed", error: "The run was interrupted before it finished." });
    expect(await jobsOf(runId)).toEqual([{ state: "failed", retry_count: 2 }]);
    expect(await jobsOf(gone.runId)).toEqual([{ state: "cancelled", retry_count: 0 }]);
  });

  it("a persona's runs go one after the other: a version queued while a run is under way gets its job when that run ends", async () => {
    await stopJobWorkers();
    const user = await newUser();
    const persona = await createPersona(user);
    await probes.addProbe(user, persona.id, { name: "Greets", turns: ["Hi!"], mustMention: ["Heya"] });
    const first = await probes.startRun(user, persona.id);
    // A worker has it under way.
    await withServiceRole("test", (tx) =>
      tx
        .update(probeRuns)
        .set({ status: "running", deadline: new Date(Date.now() + 600_000) })
        .where(eq(probeRuns.id, first.runId)),
    );
    await handle.raw.exec(
      `update pgboss.job set state = 'active', started_on = now() where name = 'persona-tests' and data->>'runId' = '${first.runId}'`,
    );
    await personasService.updateVoice(user, persona.id, { greeting: "Heya, chat! Grab a blanket.", catchphrases: ["Cozy"] });
    const queued = (await probes.listRuns(user, persona.id)).find((run) => run.status === "queued")!;
    expect(queued).toMatchObject({ trigger: "version" });
    expect(await jobsOf(queued.runId)).toEqual([]);
    // The first run ends: the next one is queued.
    await withServiceRole("test", (tx) =>
      tx.update(probeRuns).set({ status: "completed", finishedAt: new Date() }).where(eq(probeRuns.id, first.runId)),
    );
    expect(await jobsOf(queued.runId)).toEqual([{ state: "created", retry_count: 0 }]);
    await handle.raw.exec(`update pgboss.job set state = 'completed' where name = 'persona-tests' and data->>'runId' = '${first.runId}'`);
    await probes.settleRuns();
    expect(await probes.getRun(user, persona.id, queued.runId)).toMatchObject({ status: "completed" });
  });

  it("a creator has at most two runs under way: the rest wait their turn, and another creator's run is queued at once", async () => {
    await stopJobWorkers();
    const busy = await newUser();
    const personas = [];
    for (let i = 0; i < 4; i++) {
      const persona = await createPersona(busy);
      await probes.addProbe(busy, persona.id, { name: "Greets", turns: ["Hi!"], mustMention: ["Heya"] });
      personas.push(persona);
    }
    const runs: string[] = [];
    for (const persona of personas) runs.push((await probes.startRun(busy, persona.id)).runId);
    const jobCounts = async () => Promise.all(runs.map(async (runId) => (await jobsOf(runId)).length));
    expect(await jobCounts()).toEqual([1, 1, 0, 0]);
    // Another creator is not behind them.
    const other = await newUser();
    const theirs = await createPersona(other);
    await probes.addProbe(other, theirs.id, { name: "Greets", turns: ["Hi!"], mustMention: ["Heya"] });
    const theirRun = await probes.startRun(other, theirs.id);
    expect(await jobsOf(theirRun.runId)).toEqual([{ state: "created", retry_count: 0 }]);
    // A persona deleted with its run frees its turn: the oldest waiting run gets its job.
    await library.deletePersona(busy, personas[0]!.id);
    expect((await jobCounts()).slice(1)).toEqual([1, 1, 0]);
    // As each run ends, the next waiting one is queued; all of them complete.
    await probes.settleRuns();
    for (const [i, persona] of personas.entries())
      if (i > 0) expect(await probes.getRun(busy, persona.id, runs[i]!)).toMatchObject({ status: "completed" });
    expect(await probes.getRun(other, theirs.id, theirRun.runId)).toMatchObject({ status: "completed" });
  });

  it("'Run tests' while a run's worker is gone past its deadline starts a new run, which records the old one as interrupted", async () => {
    await stopJobWorkers();
    const user = await newUser();
    const { id } = await createPersona(user);
    await probes.addProbe(user, id, { name: "Greets", turns: ["Hi!"], mustMention: ["Heya"] });
    const dead = await probes.startRun(user, id);
    await withServiceRole("test", (tx) =>
      tx
        .update(probeRuns)
        .set({ status: "running", deadline: new Date(Date.now() - 1_000) })
        .where(eq(probeRuns.id, dead.runId)),
    );
    await handle.raw.exec(
      `update pgboss.job set state = 'active', started_on = now() - interval '1 hour' where name = 'persona-tests' and data->>'runId' = '${dead.runId}'`,
    );
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const fresh = await probes.startRun(user, id);
    expect(fresh).toMatchObject({ started: true });
    expect(fresh.runId).not.toBe(dead.runId);
    await probes.settleRuns();
    expect(await probes.getRun(user, id, fresh.runId)).toMatchObject({ status: "completed" });
    expect(await probes.getRun(user, id, dead.runId)).toMatchObject({
      status: "failed",
      error: "The run was interrupted before it finished.",
    });
  });
});

describe("cards", () => {
  it("carry the suite under extensions.personaforge.probes and bring it back; export → import → export is the same", async () => {
    const user = await newUser();
    const { id } = await createPersona(user);
    await probes.addProbes(user, id, [
      { name: "Born", turns: ["Where were you born?"], statesFact: "fact:birthplace" },
      { name: "Greets", turns: ["Hi!", "How are you?"], mustMention: ["Heya"], maxLength: 400, enabled: false },
    ]);
    const first = await exporter.exportFile(user, id, "card-json");
    const card = JSON.parse(String(first.body)) as { data: { extensions: { personaforge: { probes: { name: string }[] } } } };
    expect(card.data.extensions.personaforge.probes.map((p) => p.name)).toEqual(["Born", "Greets"]);
    const imported = await exporter.importCardFile(user, new TextEncoder().encode(String(first.body)));
    const back = await probes.listProbes(user, imported.id);
    const strip = (list: { id: string }[]) => list.map(({ id: _id, ...rest }) => rest);
    expect(strip(back)).toEqual(strip(await probes.listProbes(user, id)));
    const again = await exporter.exportFile(user, imported.id, "card-json");
    const probesOf = (body: string | Uint8Array) =>
      JSON.stringify((JSON.parse(String(body)) as typeof card).data.extensions.personaforge.probes);
    expect(probesOf(again.body)).toBe(probesOf(first.body));
  });
});

const PROBE_MESSAGES_NO_PROBES = "Add a probe first: a run sends each probe to the persona.";
