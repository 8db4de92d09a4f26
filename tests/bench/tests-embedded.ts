// Persona test runs timed, run by tests/bench/bench.mjs (the "extra" group):
//
//   node_modules/.bin/tsx tests/bench/tests-embedded.ts --out <file.json> [--count 20] [--warmup 2]
//
// On a fresh embedded database in this process (PGlite, or DATABASE_URL's server), a persona with a
// voice, a lorebook built from its backstory and its first 12 suggested probes; then each run: 'Run
// tests' (app/services/probes.server.ts startRun) until the run has finished — every probe sent to
// the embedded responder in a fresh conversation, every verdict recorded, the run's row written
// after each probe — timed from the click to the finished row. Then what queueing costs an edit:
// a voice edit of that persona (a new version with enabled probes: its run and the run's job are
// written by the database in the same transaction) against the same edit of a twin without
// probes, alternately, with the workers stopped so that no run competes. And 24-turn
// long-conversation tests of the same persona, start to finished row. Writes JSON to --out.
import { mkdtempSync } from "node:fs";
import fs from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";

process.env.DATA_DIR ??= mkdtempSync(path.join(tmpdir(), "pf-bench-tests-"));
process.env.GENERATION_QUOTA_MULTIPLIER ??= "1000";

function arg(name: string, fallback?: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

const out = arg("out");
if (!out) throw new Error("--out <file.json> is required");
const count = Number(arg("count", "20"));
const warmup = Number(arg("warmup", "2"));

const { createCreator, installTestDatabase } = await import("../support/test-database");
const { closeDatabase, withServiceRole } = await import("~/infra/db/db.server");
const { stopJobWorkers } = await import("~/infra/jobs/queue.server");
const { probeRuns } = await import("~/infra/db/schema.server");
const { and, eq } = await import("drizzle-orm");
const personas = await import("~/services/personas.server");
const lore = await import("~/services/lore.server");
const probes = await import("~/services/probes.server");
const conversations = await import("~/services/conversation-tests.server");

const handle = await installTestDatabase();
const user = await createCreator(handle, "active", { first: "Bench", last: "Tester" });
const persona = await personas.createPersona(user, {
  name: "Kira Moon",
  type: "vtuber",
  gender: "female",
  ageRange: "25-34",
  interests: ["gaming", "music"],
  description: "A late-night streamer.",
  personality: ["Outgoing", "Curious", "Humorous"],
  backstory:
    "Kira grew up in a loud house with her older sister Mina, who taught her to draw on grocery receipts. At sixteen she joined the Starlight Academy art club, where she met her rival Jun Park. She moved away to stream from a tiny studio above a noodle shop.",
});
await personas.updateVoice(user, persona.id, { greeting: "Heya, chat! Grab a blanket.", catchphrases: ["Stay cozy", "Let's gooo"] });
const compiled = await lore.compilePersonaLore(user, persona.id);
await lore.addLoreEntries(user, persona.id, compiled.proposals.slice(0, 8));
const suggested = await probes.suggestPersonaProbes(user, persona.id);
await probes.addProbes(user, persona.id, suggested.slice(0, 12));
const suite = await probes.listProbes(user, persona.id);

async function oneRun(): Promise<{ ms: number; passed: number; total: number }> {
  // 'Run tests' twice within 2 s is one run (a double click): each measured run starts after that, untimed.
  await new Promise((resolve) => setTimeout(resolve, 2_100));
  const started = performance.now();
  const { runId } = await probes.startRun(user, persona.id);
  await probes.settleRuns();
  const run = await probes.getRun(user, persona.id, runId);
  if (run.status !== "completed") throw new Error(`run ${runId} ended ${run.status}: ${run.error}`);
  return { ms: performance.now() - started, passed: run.passed, total: run.total };
}

for (let i = 0; i < warmup; i++) await oneRun();
const timingsMs: number[] = [];
let last = { passed: 0, total: 0 };
for (let i = 0; i < count; i++) {
  const { ms, ...counts } = await oneRun();
  timingsMs.push(ms);
  last = counts;
}
// Long-conversation tests (docs/product.md, Persona tests: long conversations): 24 turns with the
// embedded responder, each with a seed of its own, from the start to the finished row.
async function oneConversation(seed: number): Promise<{ ms: number; failed: number }> {
  const started = performance.now();
  const { runId } = await conversations.startConversationTest(user, persona.id, { turns: 24, seed });
  await conversations.settleConversationTests();
  const run = await conversations.getConversationTest(user, persona.id, runId);
  if (run.status !== "completed") throw new Error(`long-conversation test ${runId} ended ${run.status}: ${run.error}`);
  return { ms: performance.now() - started, failed: run.checkpoints.reduce((sum, checkpoint) => sum + checkpoint.failed, 0) };
}
for (let i = 0; i < warmup; i++) await oneConversation(1_000 + i);
const conversationMs: number[] = [];
let conversationFailures = 0;
for (let i = 0; i < count; i++) {
  const { ms, failed } = await oneConversation(i);
  conversationMs.push(ms);
  conversationFailures += failed;
}

// What queueing a run costs an edit (a new version of a persona with enabled probes).
await stopJobWorkers();
const twin = await personas.createPersona(user, {
  name: "Kira Twin",
  type: "vtuber",
  gender: "female",
  ageRange: "25-34",
  interests: ["gaming", "music"],
  description: "A late-night streamer.",
  personality: ["Outgoing", "Curious", "Humorous"],
  backstory: "Kira grew up in a loud house with her older sister Mina.",
});
const editMs = { queued: [] as number[], plain: [] as number[] };
for (let i = 0; i < 60; i++) {
  // Each timed edit queues a new run: the one the previous edit queued is taken away, untimed.
  await withServiceRole("bench", (tx) =>
    tx.delete(probeRuns).where(and(eq(probeRuns.personaId, persona.id), eq(probeRuns.status, "queued"))),
  );
  for (const [which, id] of [
    ["queued", persona.id],
    ["plain", twin.id],
  ] as const) {
    const started = performance.now();
    await personas.updateVoice(user, id, { greeting: "Heya, chat! Grab a blanket.", catchphrases: ["Stay cozy", `Edit ${i}`] });
    if (i >= 10) editMs[which].push(performance.now() - started);
  }
}
await closeDatabase();
fs.writeFileSync(out, JSON.stringify({ timingsMs, warmup, probes: suite.length, ...last, editMs, conversationMs, conversationFailures }));
