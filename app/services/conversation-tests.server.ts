// Long-conversation tests (docs/product.md, Persona tests: long conversations): an interrogator plays
// N turns against one version of a persona in a fresh conversation (never the creator's chat), and
// each checkpoint scores the categories (domain/conversation-tests.ts). Off the request, as a job
// (conversation-tests), kept per version; one point of the creator's test-run quota, like 'Run
// tests'. Two starts of one version while it is queued or under way are one run. A run whose model
// fails ends 'failed' with the reason and keeps the checkpoints it has.
import { and, desc, eq, inArray, isNotNull, isNull, sql } from "drizzle-orm";

import {
  checkpointTurns,
  conversationPlan,
  conversationTestSchema,
  CONVERSATION_CATEGORIES,
  CONVERSATION_TEST_LIMITS,
  CONVERSATION_TEST_MESSAGES,
  CONVERSATION_TEST_TEXT,
  conversationSummary,
  firstFailures,
  type Checkpoint,
  type ConversationCategory,
  type ConversationSubject,
  type ConversationTestStatus,
  type ConversationTestView,
  type TranscriptTurn,
  FIX_TEXT,
  fixFor,
  fixLoreEntry,
  withFixText,
  type ConversationFix,
  type FixNote,
  type FixPlace,
} from "~/domain/conversation-tests";
import { VOICE_LIMITS } from "~/domain/persona-voice";
import { fieldErrorsOf } from "~/domain/form-rules";
import { PROBE_MESSAGES } from "~/domain/probes";
import { AiError, textGenerator } from "~/infra/ai/ai.server";
import { runConversation, withFix } from "~/infra/ai/conversation-runner.server";
import { withUser } from "~/infra/db/db.server";
import { KEPT_READS, keptOrRead } from "~/infra/db/kept-reads.server";
import { conversationTests, personas, type ConversationTest } from "~/infra/db/schema.server";
import { handleJobs, queueWork, QUEUES, settleJobs, startJobWorkers, type Job } from "~/infra/jobs/queue.server";
import { describeError } from "~/infra/web/log.server";

import { type CurrentUser } from "./accounts.server";
import type { JsonShape } from "./api.server";
import { withGenerationQuota } from "./generation-quotas.server";
import { currentVersion } from "./persona-history.server";
import { addLoreEntry } from "./lore.server";
import { getPersona, isUuid, PERSONA_NOT_FOUND, personaVoice, updateVoice } from "./personas.server";
import { listProbes, RUN_INTERRUPTED, versionTarget } from "./probes.server";
import { ServiceError } from "./service-error.server";

/** A long-conversation test that cannot be started or read. */
export class ConversationTestError extends ServiceError {
  override name = "ConversationTestError";
}

/** What POST /api/personas/{id}/conversation-tests may hold (docs/api.md). */
export const CONVERSATION_TEST_BODY = {
  turns: { type: "number|null", message: CONVERSATION_TEST_MESSAGES.turns },
  seed: { type: "number|null", message: CONVERSATION_TEST_MESSAGES.seed },
} as const satisfies JsonShape;

/** How long a run may take before it counts as failed (a server that stopped mid-run). */
const RUN_DEADLINE_MS = 15 * 60 * 1000;
/** How long one reply or verdict may take. */
const REPLY_TIMEOUT_MS = 60 * 1000;

type Who = Pick<CurrentUser, "id">;

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

function viewOf(row: ConversationTest): ConversationTestView {
  const expired = row.status === "running" && row.deadline !== null && new Date(row.deadline).getTime() < Date.now();
  const checkpoints = Array.isArray(row.checkpoints) ? (row.checkpoints as Checkpoint[]) : [];
  const stored = (row.firstFailure ?? {}) as Record<string, unknown>;
  const firstFailure = Object.fromEntries(
    CONVERSATION_CATEGORIES.map((category) => [category, typeof stored[category] === "number" ? stored[category] : null]),
  ) as Record<ConversationCategory, number | null>;
  return {
    runId: row.id,
    version: row.version,
    model: row.model,
    status: expired ? "failed" : (row.status as ConversationTestStatus),
    turns: row.turns,
    seed: row.seed,
    checkpoints,
    firstFailure,
    transcript: Array.isArray(row.transcript) ? (row.transcript as TranscriptTurn[]) : [],
    error: expired ? RUN_INTERRUPTED : row.error,
    createdAt: iso(row.createdAt)!,
    finishedAt: iso(row.finishedAt),
    fix: row.fix && typeof row.fix === "object" ? (row.fix as unknown as ConversationFix) : null,
    baseRunId: row.baseRunId,
    notes: Array.isArray(row.notes) ? (row.notes as FixNote[]) : [],
  };
}

/** Interrogator turns answered so far, for 'Talking… turn 9 of 24'. */
export interface ConversationTestState extends ConversationTestView {
  done: number;
}

const stateOf = (row: ConversationTest): ConversationTestState => ({ ...viewOf(row), done: row.done });

/** `{ turns?, seed? }` checked: the field's message for each that is wrong (400). */
export function checkConversationTestInput(raw: unknown): { turns: number; seed: number | null } {
  const result = conversationTestSchema.safeParse(raw && typeof raw === "object" ? raw : {});
  if (!result.success) {
    const errors = fieldErrorsOf(result.error.issues, (field) => String(field ?? "turns"));
    // The field's own message ('Turns must be a whole number from 4 to 60').
    throw new ConversationTestError(400, result.error.issues[0]?.message ?? "Please fix the highlighted fields.", errors);
  }
  return result.data;
}

/** The model calls one run makes with a model: each turn, and each checkpoint's questions, sampled and judged. */
function modelCallsOf(turns: number): number {
  const asks = 6;
  return turns + checkpointTurns(turns).length * asks * CONVERSATION_TEST_LIMITS.samples * 2;
}

/**
 * Starts a long-conversation test of the persona's current version. A run of it already queued or
 * under way is the answer instead (two starts are one run). 409 for a draft; 429 past the
 * creator's test-run quota.
 */
export async function startConversationTest(
  user: CurrentUser,
  personaId: string,
  raw: unknown,
): Promise<{ runId: string; started: boolean }> {
  const persona = await getPersona(user, personaId);
  const input = checkConversationTestInput(raw);
  if (persona.status === "in_progress") throw new ConversationTestError(409, PROBE_MESSAGES.draft, undefined, "persona_draft");
  const version = (await currentVersion(user, personaId))?.version ?? 1;
  const live = await liveRun(user, personaId, version);
  if (live) {
    queueWork();
    return { runId: live, started: false };
  }
  const seed = input.seed ?? Math.floor(Math.random() * CONVERSATION_TEST_LIMITS.seedMax);
  const generator = textGenerator();
  const runId = await withGenerationQuota(
    "testRuns",
    user,
    () =>
      withUser(user.id, async (tx) => {
        // Under the persona's row lock: two starts at once see each other's run.
        await tx.select({ id: personas.id }).from(personas).where(eq(personas.id, personaId)).for("update");
        const rows = await tx
          .select({
            id: conversationTests.id,
            status: conversationTests.status,
            version: conversationTests.version,
            deadline: conversationTests.deadline,
          })
          .from(conversationTests)
          .where(
            and(
              eq(conversationTests.personaId, personaId),
              isNull(conversationTests.fix),
              inArray(conversationTests.status, ["queued", "running"]),
            ),
          );
        const same = rows.find((run) => run.version === version && (run.status === "queued" || !run.deadline || run.deadline > new Date()));
        if (same) return same.id;
        // A run of an older version still waiting is moved on to this one (one queued run a persona).
        const queued = rows.find((run) => run.status === "queued");
        if (queued) {
          await tx.update(conversationTests).set({ version, turns: input.turns, seed }).where(eq(conversationTests.id, queued.id));
          return queued.id;
        }
        const [row] = await tx
          .insert(conversationTests)
          .values({ personaId, userId: user.id, version, status: "queued", turns: input.turns, seed })
          .returning({ id: conversationTests.id });
        return row!.id;
      }),
    generator.kind === "local" ? {} : { modelCalls: modelCallsOf(input.turns) },
  );
  queueWork();
  return { runId, started: true };
}

async function liveRun(user: Who, personaId: string, version: number): Promise<string | null> {
  const rows = await withUser(user.id, (tx) =>
    tx
      .select({ id: conversationTests.id, status: conversationTests.status, deadline: conversationTests.deadline })
      .from(conversationTests)
      .where(
        and(
          eq(conversationTests.personaId, personaId),
          eq(conversationTests.version, version),
          isNull(conversationTests.fix),
          inArray(conversationTests.status, ["queued", "running"]),
        ),
      ),
  );
  const live = rows.find((run) => run.status === "queued" || !run.deadline || new Date(run.deadline).getTime() > Date.now());
  return live?.id ?? null;
}

const JOB_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function runOfJob(job: Job): { runId: string; userId: string } | null {
  const { runId, userId } = job.data as { runId?: unknown; userId?: unknown };
  if (typeof runId !== "string" || typeof userId !== "string" || !JOB_UUID.test(runId) || !JOB_UUID.test(userId)) return null;
  return { runId, userId };
}

/** The job of one queued run: a run deleted meanwhile (with its persona) or already over is 'cancelled'. */
export async function runConversationTestJob(job: Job): Promise<"cancelled" | void> {
  const ref = runOfJob(job);
  if (!ref) return "cancelled";
  const run = await withUser(ref.userId, async (tx) => {
    const [row] = await tx.select().from(conversationTests).where(eq(conversationTests.id, ref.runId)).for("update");
    if (!row || row.status === "completed" || row.status === "failed") return null;
    const [started] = await tx
      .update(conversationTests)
      .set({
        status: "running",
        startedAt: new Date(),
        deadline: new Date(Date.now() + RUN_DEADLINE_MS),
        done: 0,
        checkpoints: [],
        firstFailure: {},
        transcript: [],
        error: null,
      })
      .where(eq(conversationTests.id, row.id))
      .returning();
    return started ?? null;
  });
  if (!run) return "cancelled";
  await executeRun(run);
}

/** A run whose every try was cut off (the queue's dead letters): recorded as interrupted. */
export async function recordInterruptedConversationTest(job: Job): Promise<"cancelled" | void> {
  const ref = runOfJob(job);
  if (!ref) return "cancelled";
  await withUser(ref.userId, (tx) =>
    tx
      .update(conversationTests)
      .set({ status: "failed", error: RUN_INTERRUPTED, finishedAt: new Date() })
      .where(and(eq(conversationTests.id, ref.runId), inArray(conversationTests.status, ["queued", "running"]))),
  );
}

/** The queues of long-conversation tests, for this process's workers. */
export function handleConversationTestJobs(): void {
  handleJobs(QUEUES.conversationTests, runConversationTestJob, { concurrency: 1 });
  handleJobs(QUEUES.conversationTestsFailed, recordInterruptedConversationTest);
}

/** Tests and benchmarks: run the queued long-conversation tests in this process and wait until each has ended. */
export async function settleConversationTests(): Promise<void> {
  handleConversationTestJobs();
  await startJobWorkers();
  await settleJobs({ queues: [QUEUES.conversationTests, QUEUES.conversationTestsFailed] });
}

/** What the interrogator knows of the persona as one version holds it. */
export async function conversationSubject(userId: string, run: Pick<ConversationTest, "personaId" | "version">) {
  const target = await versionTarget(userId, run);
  const probes = (await listProbes({ id: userId }, run.personaId)).filter((probe) => probe.enabled);
  const subject: ConversationSubject = {
    ...target.context,
    facts: target.context.facts,
    voice: { greeting: target.persona.voice?.greeting ?? null, catchphrases: target.persona.voice?.catchphrases ?? [] },
    personality: target.persona.personality,
    lore: target.lorebook.entries,
    probes,
  };
  return { target: { personaId: run.personaId, persona: target.persona, lorebook: target.lorebook }, subject };
}

async function executeRun(run: ConversationTest): Promise<void> {
  const userId = run.userId;
  const generator = textGenerator();
  const model = generator.kind === "local" ? "embedded" : (generator.chatModel ?? "model");
  const save = (fields: Partial<typeof conversationTests.$inferInsert>) =>
    withUser(userId, (tx) => tx.update(conversationTests).set(fields).where(eq(conversationTests.id, run.id)));
  try {
    const { target, subject } = await conversationSubject(userId, run);
    const plan = conversationPlan(subject, run.turns, run.seed);
    await save({ model });
    // A fix to try plays the same plan on the persona with the fix's text added.
    const fix = run.fix && typeof run.fix === "object" ? (run.fix as unknown as ConversationFix) : null;
    await runConversation(generator, withFix(target, fix), subject, plan, {
      replyTimeoutMs: REPLY_TIMEOUT_MS,
      onProgress: (progress) =>
        save({
          done: progress.done,
          transcript: progress.transcript,
          checkpoints: progress.checkpoints,
          firstFailure: firstFailures(progress.checkpoints),
        }).then(() => undefined),
    });
    await save({ status: "completed", finishedAt: new Date() });
  } catch (error) {
    const reason =
      error instanceof AiError
        ? `The ${model === "embedded" ? "embedded responder" : `model ${model}`} failed: ${error.code === "timeout" ? "it did not answer in time" : error.message}`
        : error instanceof ServiceError
          ? error.message
          : "The run could not finish.";
    if (!(error instanceof AiError) && !(error instanceof ServiceError))
      console.error(`[conversation-tests] run ${run.id} failed: ${describeError(error)}`);
    await save({ status: "failed", error: reason.slice(0, 500), finishedAt: new Date() }).catch((e) =>
      console.error(`[conversation-tests] could not record the failure of run ${run.id}: ${describeError(e)}`),
    );
  }
}

/** One run of the persona's (404 for another creator's persona or an unknown run). */
export async function getConversationTest(user: CurrentUser, personaId: string, runId: string): Promise<ConversationTestState> {
  await getPersona(user, personaId);
  if (!isUuid(runId)) throw new ConversationTestError(404, CONVERSATION_TEST_MESSAGES.notFound);
  const [row] = await withUser(user.id, (tx) =>
    tx
      .select()
      .from(conversationTests)
      .where(and(eq(conversationTests.id, runId), eq(conversationTests.personaId, personaId))),
  );
  if (!row) throw new ConversationTestError(404, CONVERSATION_TEST_MESSAGES.notFound);
  if (row.status === "queued") queueWork();
  return stateOf(row);
}

/** What the long-conversation page shows: the run under way, the latest finished run, the other versions' latest (to lay over). */
export interface ConversationTestsState {
  pending: ConversationTestState | null;
  latest: ConversationTestState | null;
  /** The latest finished run of each other version, newest version first (without checkpoints or transcript). */
  others: ConversationTestState[];
  /** The run laid over the latest one (`?compare={runId}`: one of `others`), in full. */
  over: ConversationTestState | null;
  /** Fixes to try for the latest run's categories that slipped. */
  fixes: ConversationFix[];
  /** The latest fix tried on the latest run, in full (under way, finished or kept). */
  trying: ConversationTestState | null;
}

/** A run's columns without its checkpoints and transcript: what a list of runs reads. */
const LIGHT = {
  id: conversationTests.id,
  personaId: conversationTests.personaId,
  userId: conversationTests.userId,
  version: conversationTests.version,
  model: conversationTests.model,
  status: conversationTests.status,
  turns: conversationTests.turns,
  seed: conversationTests.seed,
  done: conversationTests.done,
  firstFailure: conversationTests.firstFailure,
  error: conversationTests.error,
  createdAt: conversationTests.createdAt,
  startedAt: conversationTests.startedAt,
  finishedAt: conversationTests.finishedAt,
  deadline: conversationTests.deadline,
  fix: conversationTests.fix,
  baseRunId: conversationTests.baseRunId,
  notes: conversationTests.notes,
};

async function lightRuns(user: Who, personaId: string): Promise<ConversationTestState[]> {
  const rows = await withUser(user.id, (tx) =>
    tx
      .select(LIGHT)
      .from(conversationTests)
      .where(eq(conversationTests.personaId, personaId))
      .orderBy(desc(conversationTests.createdAt))
      .limit(50),
  );
  return rows.map((row) => stateOf({ ...row, checkpoints: [], transcript: [] }));
}

async function fullRun(user: Who, runId: string): Promise<ConversationTestState | null> {
  const [row] = await withUser(user.id, (tx) => tx.select().from(conversationTests).where(eq(conversationTests.id, runId)));
  return row ? stateOf(row) : null;
}

export async function conversationTestsState(user: Who, personaId: string, compare: string | null = null): Promise<ConversationTestsState> {
  const all = await lightRuns(user, personaId);
  const runs = all.filter((run) => run.fix === null);
  const pending = runs.find((run) => run.status === "queued" || run.status === "running") ?? null;
  if (pending?.status === "queued") queueWork();
  const finished = runs.filter((run) => run.status === "completed" || run.status === "failed");
  const byVersion = new Map<number, ConversationTestState>();
  for (const run of finished) if (!byVersion.has(run.version)) byVersion.set(run.version, run);
  const latestLight = finished[0] ?? null;
  const others = [...byVersion.values()].filter((run) => run.runId !== latestLight?.runId).sort((a, b) => b.version - a.version);
  const overLight = compare ? (others.find((run) => run.runId === compare) ?? null) : null;
  const tryLight = latestLight ? (all.find((run) => run.baseRunId === latestLight.runId) ?? null) : null;
  if (tryLight?.status === "queued") queueWork();
  const [latest, over, live, trying] = await Promise.all([
    latestLight ? fullRun(user, latestLight.runId) : null,
    overLight ? fullRun(user, overLight.runId) : null,
    pending ? fullRun(user, pending.runId) : null,
    tryLight ? fullRun(user, tryLight.runId) : null,
  ]);
  const fixes = latest ? await fixesFor(latest, personaId, user.id) : [];
  return { pending: live, latest, others, over, fixes, trying };
}

/** The fixes to try for a run's categories that slipped, in the order they slipped. */
async function fixesFor(run: ConversationTestState, personaId: string, userId: string): Promise<ConversationFix[]> {
  const slipped = CONVERSATION_CATEGORIES.filter((category) => run.firstFailure[category] !== null).sort(
    (a, b) => run.firstFailure[a]! - run.firstFailure[b]!,
  );
  if (!slipped.length) return [];
  const { subject } = await conversationSubject(userId, { personaId, version: run.version });
  // One fix a text: 'Stays in character' and 'Knowledge boundary' are held by the same instructions.
  const fixes = slipped.flatMap((category) => fixFor(category, subject) ?? []);
  return fixes.filter((fix, i) => fixes.findIndex((other) => other.text === fix.text) === i);
}

/** What the tests page says of long-conversation tests: the run under way or the latest, in one line. */
export interface ConversationTestSummary {
  title: string;
  intro: string;
  summary: string;
  open: string;
  pending: boolean;
}

export async function conversationTestSummary(user: Who, personaId: string): Promise<ConversationTestSummary> {
  if (!isUuid(personaId)) throw new ConversationTestError(404, PERSONA_NOT_FOUND);
  // Kept until the persona's long-conversation tests change, and only while none is under way
  // (KEPT_READS.conversationSummaries: a run's deadline passes without a write).
  return keptOrRead(
    KEPT_READS.conversationSummaries,
    [user.id, personaId],
    () => readConversationTestSummary(user, personaId),
    (summary) => !summary.pending,
  );
}

async function readConversationTestSummary(user: Who, personaId: string): Promise<ConversationTestSummary> {
  const runs = (await lightRuns(user, personaId)).filter((each) => each.fix === null);
  const pending = runs.find((each) => each.status === "queued" || each.status === "running") ?? null;
  if (pending?.status === "queued") queueWork();
  const run = pending ?? runs.find((each) => each.status === "completed" || each.status === "failed") ?? null;
  return {
    title: CONVERSATION_TEST_TEXT.title,
    intro: CONVERSATION_TEST_TEXT.short,
    summary: run ? conversationSummary(run) : CONVERSATION_TEST_TEXT.none,
    open: CONVERSATION_TEST_TEXT.open,
    pending: pending !== null,
  };
}

/** The long-conversation page: the persona (404 for another creator's), and its runs as conversationTestsState gives them. */
export interface ConversationTestsPage extends ConversationTestsState {
  persona: { id: string; name: string; draft: boolean };
}

export async function conversationTestsPage(user: CurrentUser, personaId: string, compare: string | null): Promise<ConversationTestsPage> {
  // Kept until the persona or its long-conversation tests change, and only while none is under way
  // (KEPT_READS.conversationPages).
  return keptOrRead(
    KEPT_READS.conversationPages,
    [user.id, personaId, compare ?? ""],
    async () => {
      const persona = await getPersona(user, personaId);
      const state = await conversationTestsState(user, personaId, compare);
      return { persona: { id: persona.id, name: persona.name, draft: persona.status === "in_progress" }, ...state };
    },
    (page) => page.pending === null && (page.trying === null || page.trying.status === "completed" || page.trying.status === "failed"),
  );
}

// ---------------------------------------------------------------------------------------------
// Fixes to try
// ---------------------------------------------------------------------------------------------

/** The voice field a fix's place writes, and its limit. */
const FIX_FIELDS: Record<
  Exclude<FixPlace, "constantLore">,
  { field: "postHistoryInstructions" | "authorsNote" | "exampleDialogue"; max: number }
> = {
  postHistoryInstructions: { field: "postHistoryInstructions", max: VOICE_LIMITS.postHistoryInstructionsMax },
  authorsNote: { field: "authorsNote", max: VOICE_LIMITS.authorsNoteMax },
  exampleDialogue: { field: "exampleDialogue", max: VOICE_LIMITS.exampleDialogueMax },
};

async function ownRun(user: CurrentUser, personaId: string, runId: string, message: string = CONVERSATION_TEST_MESSAGES.notFound) {
  await getPersona(user, personaId);
  if (!isUuid(runId)) throw new ConversationTestError(404, message);
  const [row] = await withUser(user.id, (tx) =>
    tx
      .select()
      .from(conversationTests)
      .where(and(eq(conversationTests.id, runId), eq(conversationTests.personaId, personaId))),
  );
  if (!row) throw new ConversationTestError(404, message);
  return row;
}

/**
 * 'Try it': the same test as the run `baseRunId` (its version, seed and turns), played on the persona
 * with the fix for `category` added; nothing on the persona changes. A try of that fix already
 * waiting or under way is the answer instead. One point of the test-run quota, as a run.
 */
export async function tryFix(
  user: CurrentUser,
  personaId: string,
  baseRunId: string,
  category: string,
): Promise<{ runId: string; started: boolean }> {
  const base = await ownRun(user, personaId, baseRunId);
  if (base.fix !== null || (base.status !== "completed" && base.status !== "failed"))
    throw new ConversationTestError(404, CONVERSATION_TEST_MESSAGES.notFound);
  if (
    !(CONVERSATION_CATEGORIES as readonly string[]).includes(category) ||
    viewOf(base).firstFailure[category as ConversationCategory] === null
  )
    throw new ConversationTestError(400, FIX_TEXT.notSlipped);
  const { subject } = await conversationSubject(user.id, base);
  const fix = fixFor(category as ConversationCategory, subject);
  if (!fix) throw new ConversationTestError(409, FIX_TEXT.noFix);
  if (fix.place !== "constantLore") {
    const { field, max } = FIX_FIELDS[fix.place];
    const voice = personaVoice(await getPersona(user, personaId));
    if ([...withFixText(voice[field], fix.text)].length > max) throw new ConversationTestError(409, FIX_TEXT.full(fix.place));
  }
  const generator = textGenerator();
  let started = true;
  const runId = await withGenerationQuota(
    "testRuns",
    user,
    () =>
      withUser(user.id, async (tx) => {
        await tx.select({ id: personas.id }).from(personas).where(eq(personas.id, personaId)).for("update");
        const tries = await tx
          .select({
            id: conversationTests.id,
            status: conversationTests.status,
            baseRunId: conversationTests.baseRunId,
            fix: conversationTests.fix,
          })
          .from(conversationTests)
          .where(
            and(
              eq(conversationTests.personaId, personaId),
              isNotNull(conversationTests.fix),
              inArray(conversationTests.status, ["queued", "running"]),
            ),
          );
        const same = tries.find(
          (each) => each.baseRunId === baseRunId && (each.fix as { category?: string } | null)?.category === category,
        );
        if (same) {
          started = false;
          return same.id;
        }
        if (tries.some((each) => each.status === "queued")) throw new ConversationTestError(409, FIX_TEXT.busy);
        const [row] = await tx
          .insert(conversationTests)
          .values({
            personaId,
            userId: user.id,
            version: base.version,
            status: "queued",
            turns: base.turns,
            seed: base.seed,
            fix: fix as unknown as Record<string, unknown>,
            baseRunId,
          })
          .returning({ id: conversationTests.id });
        return row!.id;
      }),
    generator.kind === "local" ? {} : { modelCalls: modelCallsOf(base.turns) },
  );
  queueWork();
  return { runId, started };
}

/** 'Keep': the fix's text becomes part of the persona (a new version); the try says which. */
export async function keepFix(user: CurrentUser, personaId: string, runId: string): Promise<{ version: number }> {
  const run = await ownRun(user, personaId, runId, FIX_TEXT.notFound);
  const fix = viewOf(run).fix;
  if (!fix) throw new ConversationTestError(404, FIX_TEXT.notFound);
  if (fix.keptAs !== undefined) throw new ConversationTestError(409, FIX_TEXT.alreadyKept);
  if (run.status !== "completed") throw new ConversationTestError(409, FIX_TEXT.notFinished);
  const persona = await getPersona(user, personaId);
  if (fix.place === "constantLore") {
    await addLoreEntry(user, personaId, fixLoreEntry(fix, persona.name));
  } else {
    const { field, max } = FIX_FIELDS[fix.place];
    const voice = personaVoice(persona);
    const text = withFixText(voice[field], fix.text);
    if ([...text].length > max) throw new ConversationTestError(409, FIX_TEXT.full(fix.place));
    await updateVoice(user, personaId, {
      ...voice,
      [field]: text,
      ...(fix.place === "authorsNote" && !voice.authorsNote && fix.depth !== undefined ? { authorsNoteDepth: fix.depth } : {}),
    });
  }
  const version = (await currentVersion(user, personaId))?.version ?? 1;
  await withUser(user.id, (tx) =>
    tx
      .update(conversationTests)
      .set({ fix: { ...fix, keptAs: version } as unknown as Record<string, unknown> })
      .where(eq(conversationTests.id, runId)),
  );
  return { version };
}

/** 'Discard': the try goes; the run it was tried on notes it (what was tried, how it did). */
export async function discardFix(user: CurrentUser, personaId: string, runId: string): Promise<void> {
  const run = await ownRun(user, personaId, runId, FIX_TEXT.notFound);
  const view = viewOf(run);
  if (!view.fix || !run.baseRunId) throw new ConversationTestError(404, FIX_TEXT.notFound);
  if (view.fix.keptAs !== undefined) throw new ConversationTestError(409, FIX_TEXT.alreadyKept);
  const total = (checkpoints: readonly Checkpoint[]) => ({
    passed: checkpoints.reduce((sum, checkpoint) => sum + checkpoint.passed, 0),
    failed: checkpoints.reduce((sum, checkpoint) => sum + checkpoint.failed, 0),
  });
  await withUser(user.id, async (tx) => {
    const [base] = await tx.select().from(conversationTests).where(eq(conversationTests.id, run.baseRunId!)).for("update");
    await tx.delete(conversationTests).where(eq(conversationTests.id, runId));
    if (!base) return;
    const note: FixNote = {
      category: view.fix!.category,
      place: view.fix!.place,
      at: new Date().toISOString(),
      before: total(viewOf(base).checkpoints),
      after: total(view.checkpoints),
    };
    await tx
      .update(conversationTests)
      .set({ notes: sql`(${conversationTests.notes} || ${JSON.stringify([note])}::jsonb)` })
      .where(eq(conversationTests.id, base.id));
  });
}

/**
 * The fixes tried and discarded on each of these versions' long-conversation tests, as history
 * notes them next to the version (docs/product.md, Long conversations: fixes to try).
 */
export async function fixNotesByVersion(user: Who, personaId: string, versions: readonly number[]): Promise<Record<number, string[]>> {
  if (!isUuid(personaId) || versions.length === 0) return {};
  const rows = await withUser(user.id, (tx) =>
    tx
      .select({ version: conversationTests.version, notes: conversationTests.notes })
      .from(conversationTests)
      .where(
        and(
          eq(conversationTests.personaId, personaId),
          inArray(conversationTests.version, [...versions]),
          isNull(conversationTests.fix),
          sql`jsonb_array_length(${conversationTests.notes}) > 0`,
        ),
      ),
  );
  const out: Record<number, string[]> = {};
  for (const row of rows)
    for (const note of Array.isArray(row.notes) ? (row.notes as FixNote[]) : [])
      (out[row.version] ??= []).push(`${FIX_TEXT.historyNote} ${FIX_TEXT.noteLine(note)}`);
  return out;
}
