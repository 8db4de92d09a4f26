// The persona's tests in each front end on a real database (PGlite in npm test, PostgreSQL 15 with
// DATABASE_URL; docs/cards.md, Behaviour in each front end): a run is kept per version with the
// counts here and in each front end and what each front end's prompt lacks; GET /survival reads
// it; two starts are one run; a draft or a persona without enabled probes is a 409; another
// creator's persona and an unknown run are 404s; nobody queues a run without the app.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), "pf-card-targets-"));

const { createCreator, installTestDatabase } = await import("../../tests/support/test-database");
const { closeDatabase } = await import("~/infra/db/db.server");
const { startJobWorkers, stopJobWorkers } = await import("~/infra/jobs/queue.server");
const { resetRateLimits } = await import("~/infra/web/rate-limit.server");
const personasService = await import("./personas.server");
const probes = await import("./probes.server");
const runs = await import("./card-target-runs.server");
const checker = await import("./card-check.server");

let handle: Awaited<ReturnType<typeof installTestDatabase>>;
beforeAll(async () => {
  handle = await installTestDatabase();
  probes.handleTestRunJobs();
  runs.handleCardTargetJobs();
  await startJobWorkers();
});
afterEach(async () => {
  await runs.settleCardTargetRuns();
  await probes.settleRuns();
  await resetRateLimits();
});
afterAll(async () => {
  await stopJobWorkers();
  await closeDatabase();
});

const newUser = () => createCreator(handle, "active", { first: "Card", last: "Traveller" });

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

async function finishedRun(user: { id: string }, personaId: string) {
  for (let i = 0; i < 200; i++) {
    await runs.settleCardTargetRuns();
    const run = await runs.latestCardTargetRun(user, personaId);
    if (run && (run.status === "completed" || run.status === "failed")) return run;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("the run did not finish");
}

describe("the persona's tests in each front end", () => {
  it("are run against each front end's view of the card and kept per version, read by /survival", async () => {
    const user = await newUser();
    const persona = await createPersona(user);
    await probes.addProbe(user, persona.id, { name: "Born", turns: ["Where were you born?"], statesFact: "fact:birthplace" });
    await probes.addProbe(user, persona.id, { name: "Studied", turns: ["Where did you study?"], statesFact: "fact:education" });
    await probes.addProbe(user, persona.id, { name: "Greets", turns: ["Hi!"], inCharacter: true });
    await probes.settleRuns();

    const before = await checker.cardSurvival(user, persona.id);
    expect(before.run).toBeNull();
    expect(before.targets.every((target) => target.tests === null)).toBe(true);

    const started = await runs.startCardTargetRun(user, persona.id);
    expect(started.started).toBe(true);
    // A second click while it waits or runs is the same run.
    const again = await runs.startCardTargetRun(user, persona.id);
    expect(again.runId).toBe(started.runId);

    const run = await finishedRun(user, persona.id);
    expect(run).toMatchObject({ runId: started.runId, status: "completed", model: "embedded", error: null });
    expect(run.results.map((result) => result.target)).toEqual(["sillytavern", "risuai", "chub", "janitorai", "backyard", "agnai"]);
    expect(run.here).toEqual({ passed: expect.any(Number), failed: expect.any(Number) });
    expect(run.here!.passed + run.here!.failed).toBe(3);
    for (const result of run.results) {
      expect(result.passed + result.failed).toBe(3);
      expect(result.probes.map((probe) => probe.name)).toEqual(["Born", "Studied", "Greets"]);
      // The card states where she was born, not where she studied: every front end lacks the latter.
      expect(result.losses.join("; ")).toMatch(/facts of the sheet \([^)]*education/);
      expect(result.losses.join("; ")).not.toMatch(/birthplace/);
    }
    // Here the sheet answers; in a front end the education probe has nothing to answer from.
    const studiedHere = run.here!.passed;
    const sillyTavern = run.results.find((result) => result.target === "sillytavern")!;
    expect(sillyTavern.probes.find((probe) => probe.name === "Studied")!.passed).toBe(false);
    expect(studiedHere).toBeGreaterThanOrEqual(sillyTavern.passed);

    const survival = await checker.cardSurvival(user, persona.id);
    expect(survival.run).toMatchObject({ runId: run.runId, status: "completed", version: run.version });
    expect(survival.here).toEqual(run.here);
    const backyard = survival.targets.find((target) => target.target === "backyard")!;
    expect(backyard.tests).toEqual({ version: run.version, passed: expect.any(Number), failed: expect.any(Number), status: "completed" });
    expect(backyard.losses.length).toBeGreaterThan(0);

    expect(await runs.getCardTargetRun(user, persona.id, run.runId)).toEqual(run);
  });

  it("answers 409 for a draft or without enabled probes, and 404 for another creator's persona or an unknown run", async () => {
    const user = await newUser();
    const other = await newUser();
    const persona = await createPersona(user);
    await expect(runs.startCardTargetRun(user, persona.id)).rejects.toMatchObject({ status: 409 });
    const probe = await probes.addProbe(user, persona.id, { name: "Greets", turns: ["Hi!"], inCharacter: true });
    await probes.setProbeEnabled(user, persona.id, probe.id, false);
    await expect(runs.startCardTargetRun(user, persona.id)).rejects.toMatchObject({ status: 409 });
    await probes.setProbeEnabled(user, persona.id, probe.id, true);

    await expect(runs.startCardTargetRun(other, persona.id)).rejects.toMatchObject({ status: 404 });
    await expect(runs.startCardTargetRun(user, "not-a-uuid")).rejects.toMatchObject({ status: 404 });
    const { runId } = await runs.startCardTargetRun(user, persona.id);
    await expect(runs.getCardTargetRun(other, persona.id, runId)).rejects.toMatchObject({ status: 404 });
    await expect(runs.getCardTargetRun(user, persona.id, "00000000-0000-4000-8000-000000000000")).rejects.toMatchObject({
      status: 404,
      message: "Run not found.",
    });
    await expect(checker.cardSurvival(other, persona.id)).rejects.toMatchObject({ status: 404 });
    await finishedRun(user, persona.id);
  });

  it("is queued through the app only: a run written straight to the table is refused", async () => {
    const user = await newUser();
    const persona = await createPersona(user);
    await expect(
      handle.raw.exec(`insert into public.card_target_runs (persona_id, user_id, version) values ('${persona.id}', '${user.id}', 1)`),
    ).rejects.toThrow(/started through the app/);
  });

  it("takes the creator's turn: two have a job at once, the rest wait and are queued as each ends", async () => {
    await stopJobWorkers();
    try {
      const user = await newUser();
      const personas = [];
      for (let i = 0; i < 3; i++) {
        const persona = await createPersona(user);
        await probes.addProbe(user, persona.id, { name: "Greets", turns: ["Hi!"], inCharacter: true });
        personas.push(persona);
      }
      const started: string[] = [];
      for (const persona of personas) started.push((await runs.startCardTargetRun(user, persona.id)).runId);
      const jobs = () =>
        Promise.all(
          started.map(async (runId) =>
            Number(
              (
                await handle.raw.rows<{ n: number }>(
                  `select count(*)::int as n from pgboss.job where name = 'card-target-tests' and data->>'runId' = $1`,
                  [runId],
                )
              )[0]!.n,
            ),
          ),
        );
      expect(await jobs()).toEqual([1, 1, 0]);
      await runs.settleCardTargetRuns();
      for (const [i, persona] of personas.entries())
        expect(await runs.getCardTargetRun(user, persona.id, started[i]!)).toMatchObject({ status: "completed" });
    } finally {
      await startJobWorkers();
    }
  });
});
