// Persona tests (docs/product.md, Persona tests): a persona's probes, the suggested suite, and runs
// of the suite against one version of the persona each, off the request.
//
// - Probes are rows of persona_probes, guarded by the persona's owner (RLS); at most 30 a persona.
//   A probe that states a fact pins the fact's value when it is saved, so an edit that changes
//   the fact is caught.
// - A run sends each enabled probe to a fresh conversation (never the creator's chat) with the
//   persona as one version holds it, through the configured text generator, and records every
//   reply and verdict. 'Run tests' queues a run of the current version (one point of the
//   creator's test-run quota); a new version of a persona with enabled probes queues one by
//   itself (a database trigger, whichever way the version was written). A queued run is a job on
//   the queue from the moment its row exists (the same trigger queues it:
//   app/infra/jobs/queue.server.ts), or when the persona's run under way ends, so a persona's runs
//   go one at a time; whichever process's worker takes the job runs it.
// - A run that fails (the model fails or times out) ends 'failed' with the reason and keeps the
//   results it has. A run cut off by a crash is run again by the queue (twice at most); until
//   then it shows as interrupted once its attempt's expiry (`deadline`) has passed.
import { and, asc, desc, eq, gt, inArray, ne, sql } from "drizzle-orm";

import { isPremium } from "~/domain/account";
import { fieldErrorsOf } from "~/domain/form-rules";
import { parseLorebook, type LoreBook } from "~/domain/lorebook";
import { usablePattern } from "~/domain/patterns";
import {
  parseProbe,
  pinFact,
  probeBroken,
  probeSchema,
  PROBE_LIMITS,
  PROBE_MESSAGES,
  runSummary,
  suggestProbes,
  type Probe,
  type ProbeContext,
  type ProbeInput,
  type ProbeResult,
  type ProbeRunStatus,
} from "~/domain/probes";
import { AiError, textGenerator } from "~/infra/ai/ai.server";
import { runProbe } from "~/infra/ai/probe-runner.server";
import type { ChatPersona } from "~/infra/ai/types";
import { withUser } from "~/infra/db/db.server";
import { KEPT_READS, keptOrRead } from "~/infra/db/kept-reads.server";
import { personaProbes, personas, personaVersions, probeRuns, profiles, type Persona, type ProbeRun } from "~/infra/db/schema.server";
import { handleJobs, queueWork, QUEUES, settleJobs, startJobWorkers, type Job } from "~/infra/jobs/queue.server";
import { getEnv } from "~/infra/setup/env.server";
import { describeError } from "~/infra/web/log.server";
import { consumeGenerationAllowance, consumeModelCalls, RateLimitedError } from "~/infra/web/rate-limit.server";

import { type CurrentUser } from "./accounts.server";
import type { JsonShape } from "./api.server";
import { withGenerationQuota } from "./generation-quotas.server";
import { personaLorebook } from "./lore.server";
import { getVersion } from "./persona-history.server";
import { isUuid, PERSONA_NOT_FOUND, personaExtended, personaVoice } from "./personas.server";
import { ServiceError } from "./service-error.server";

/** A persona test that cannot be saved or run. */
export class ProbeError extends ServiceError {
  override name = "ProbeError";
}

/** What a probe's JSON body may hold (docs/api.md, Persona tests). */
export const PROBE_BODY = {
  name: "string",
  turns: "string[]",
  mustMention: "string[]",
  mustNotMention: "string[]",
  mustMatch: "string|null",
  mustNotMatch: "string|null",
  maxLength: { type: "number|null", message: PROBE_MESSAGES.maxLength },
  inCharacter: "boolean",
  statesFact: "string|null",
  rubric: "string|null",
  enabled: "boolean",
} as const satisfies JsonShape;

export const MAX_PROBE_BODY_BYTES = 64 * 1024;

/** How long a run may take before it counts as failed (a server that stopped mid-run). */
const RUN_DEADLINE_MS = 10 * 60 * 1000;
/** How long one reply may take. */
const REPLY_TIMEOUT_MS = 60 * 1000;

type Who = Pick<CurrentUser, "id"> & Partial<Pick<CurrentUser, "subscriptionStatus">>;

function notFound(): ProbeError {
  return new ProbeError(404, PERSONA_NOT_FOUND);
}

async function ownedPersona(user: Who, personaId: string): Promise<Persona> {
  if (!isUuid(personaId)) throw notFound();
  const [persona] = await withUser(user.id, (tx) => tx.select().from(personas).where(eq(personas.id, personaId)));
  if (!persona) throw notFound();
  return persona;
}

/** The facts and lore a persona's checks read now. */
function contextOf(persona: Persona): ProbeContext {
  return { facts: personaExtended(persona), lore: personaLorebook(persona).entries, name: persona.name };
}

function checkProbe(raw: unknown, options: { form?: boolean }) {
  const result = probeSchema(options).safeParse(raw && typeof raw === "object" ? raw : {});
  const issues = result.success
    ? (["mustMatch", "mustNotMatch"] as const)
        .filter((field) => result.data[field] !== null && !usablePattern(result.data[field]!))
        .map((field) => ({ path: [field], message: PROBE_MESSAGES.pattern }))
    : result.error.issues;
  if (!result.success || issues.length) {
    const errors = fieldErrorsOf(issues, (field) => String(field ?? "name"));
    throw new ProbeError(400, "Please fix the highlighted fields.", errors);
  }
  return result.data;
}

/** A probe may state only a fact the persona has: a lore entry that is not in its lorebook is refused. */
function knownFact<T extends { statesFact: string | null }>(probe: T, context: ProbeContext): T {
  if (probe.statesFact?.startsWith("lore:") && !context.lore.some((entry) => `lore:${entry.id}` === probe.statesFact)) {
    throw new ProbeError(400, "Please fix the highlighted fields.", { statesFact: [PROBE_MESSAGES.fact] });
  }
  return probe;
}

function rowProbe(row: { id: string; probe: unknown }): Probe | null {
  return parseProbe(row.probe, row.id);
}

function stored(probe: ProbeInput): Record<string, unknown> {
  return probe as unknown as Record<string, unknown>;
}

/** The persona's probes, in the creator's order. */
export async function listProbes(user: Who, personaId: string): Promise<Probe[]> {
  if (!isUuid(personaId)) throw notFound();
  return withUser(user.id, async (tx) => {
    const [persona] = await tx.select({ id: personas.id }).from(personas).where(eq(personas.id, personaId));
    if (!persona) throw notFound();
    const rows = await tx
      .select({ id: personaProbes.id, probe: personaProbes.probe })
      .from(personaProbes)
      .where(eq(personaProbes.personaId, personaId))
      .orderBy(asc(personaProbes.position), asc(personaProbes.createdAt));
    return rows.map(rowProbe).filter((probe): probe is Probe => probe !== null);
  });
}

/** Adds probes (each checked; the 30-probe limit), their facts pinned to what the persona says now. */
export async function addProbes(
  user: Who,
  personaId: string,
  raws: readonly unknown[],
  options: { form?: boolean } = {},
): Promise<Probe[]> {
  // Another creator's persona is a 404 before anything about the body is said.
  const persona = await ownedPersona(user, personaId);
  const context = contextOf(persona);
  const checked = raws.map((raw) => knownFact(checkProbe(raw, options), context));
  return withUser(user.id, async (tx) => {
    // The persona's row is locked: two additions at once cannot pass the limit together.
    await tx.select({ id: personas.id }).from(personas).where(eq(personas.id, personaId)).for("update");
    const [{ n, last }] = (await tx
      .select({ n: sql<number>`count(*)::int`, last: sql<number>`coalesce(max(${personaProbes.position}), -1)::int` })
      .from(personaProbes)
      .where(eq(personaProbes.personaId, personaId))) as [{ n: number; last: number }];
    if (n + checked.length > PROBE_LIMITS.probes) throw new ProbeError(400, PROBE_MESSAGES.tooMany);
    if (checked.length === 0) return [];
    const rows = await tx
      .insert(personaProbes)
      .values(checked.map((probe, i) => ({ personaId, position: last + 1 + i, probe: stored(pinFact(probe, context)) })))
      .returning({ id: personaProbes.id, probe: personaProbes.probe });
    return rows.map(rowProbe).filter((probe): probe is Probe => probe !== null);
  });
}

export async function addProbe(user: Who, personaId: string, raw: unknown, options: { form?: boolean } = {}): Promise<Probe> {
  const [probe] = await addProbes(user, personaId, [raw], options);
  return probe!;
}

async function findProbe(user: Who, personaId: string, probeId: string): Promise<Probe> {
  if (!isUuid(probeId)) throw new ProbeError(404, PROBE_MESSAGES.notFound);
  const probe = (await listProbes(user, personaId)).find((candidate) => candidate.id === probeId);
  if (!probe) throw new ProbeError(404, PROBE_MESSAGES.notFound);
  return probe;
}

/**
 * Changes a probe. A form sends every field; a JSON body only those it changes (the others stay).
 * The fact it states is pinned again to what the persona says now.
 */
export async function updateProbe(
  user: Who,
  personaId: string,
  probeId: string,
  raw: unknown,
  options: { form?: boolean } = {},
): Promise<Probe> {
  const current = await findProbe(user, personaId, probeId);
  const { id: _id, factExpected: _pinned, ...fields } = current;
  const merged = options.form ? raw : { ...fields, ...(raw && typeof raw === "object" ? raw : {}) };
  const persona = await ownedPersona(user, personaId);
  const context = contextOf(persona);
  const next = pinFact(knownFact(checkProbe(merged, options), context), context);
  const [row] = await withUser(user.id, (tx) =>
    tx
      .update(personaProbes)
      .set({ probe: stored(next), updatedAt: new Date() })
      .where(and(eq(personaProbes.id, probeId), eq(personaProbes.personaId, personaId)))
      .returning({ id: personaProbes.id, probe: personaProbes.probe }),
  );
  if (!row) throw new ProbeError(404, PROBE_MESSAGES.notFound);
  return rowProbe(row)!;
}

/** Turns a probe on or off (kept in the suite either way). */
export async function setProbeEnabled(user: Who, personaId: string, probeId: string, enabled: boolean): Promise<Probe> {
  return updateProbe(user, personaId, probeId, { enabled });
}

export async function deleteProbe(user: Who, personaId: string, probeId: string): Promise<Probe> {
  const probe = await findProbe(user, personaId, probeId);
  await withUser(user.id, (tx) =>
    tx.delete(personaProbes).where(and(eq(personaProbes.id, probeId), eq(personaProbes.personaId, personaId))),
  );
  return probe;
}

/** Probes written from the persona's facts, voice, traits and lorebook; nothing is stored. */
export async function suggestPersonaProbes(user: CurrentUser, personaId: string): Promise<ProbeInput[]> {
  const persona = await ownedPersona(user, personaId);
  // Counts against the creator's hourly quota of suggestions (429 past it).
  return withGenerationQuota("suggestions", user, async () =>
    suggestProbes({ ...contextOf(persona), voice: personaVoice(persona), personality: persona.personality }),
  );
}

// ---------------------------------------------------------------------------------------------
// Runs
// ---------------------------------------------------------------------------------------------

export interface RunView {
  runId: string;
  personaId: string;
  version: number;
  /** 'embedded' or the model's name. */
  model: string | null;
  status: ProbeRunStatus;
  trigger: "manual" | "version";
  total: number;
  passed: number;
  failed: number;
  error: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  results: ProbeResult[];
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

function runView(row: ProbeRun): RunView {
  const expired = row.status === "running" && row.deadline !== null && new Date(row.deadline).getTime() < Date.now();
  return {
    runId: row.id,
    personaId: row.personaId,
    version: row.version,
    model: row.model,
    status: expired ? "failed" : (row.status as ProbeRunStatus),
    trigger: row.trigger === "manual" ? "manual" : "version",
    total: row.total,
    passed: row.passed,
    failed: row.failed,
    error: expired ? RUN_INTERRUPTED : row.error,
    createdAt: iso(row.createdAt)!,
    startedAt: iso(row.startedAt),
    finishedAt: iso(row.finishedAt),
    results: Array.isArray(row.results) ? (row.results as ProbeResult[]) : [],
  };
}

export const RUN_INTERRUPTED = "The run was interrupted before it finished.";

/** The persona's latest version number. */
async function latestVersion(user: Who, personaId: string): Promise<number> {
  const [row] = await withUser(user.id, (tx) =>
    tx
      .select({ version: personaVersions.version })
      .from(personaVersions)
      .where(eq(personaVersions.personaId, personaId))
      .orderBy(desc(personaVersions.version))
      .limit(1),
  );
  return row?.version ?? 1;
}

/**
 * 'Run tests': a run of the persona's current version, started off the request. A run of that
 * version already queued or running is the answer instead (two clicks are one run). Takes one point
 * of the creator's test-run quota (429 past it).
 */
export async function startRun(user: CurrentUser, personaId: string): Promise<{ runId: string; started: boolean }> {
  const persona = await ownedPersona(user, personaId);
  if (persona.status === "in_progress") throw new ProbeError(409, PROBE_MESSAGES.draft, undefined, "persona_draft");
  const probes = (await listProbes(user, personaId)).filter((probe) => probe.enabled);
  if (probes.length === 0) throw new ProbeError(409, PROBE_MESSAGES.noProbes, undefined, "no_probes");
  const version = await latestVersion(user, personaId);
  const existing = await withUser(user.id, (tx) =>
    tx
      .select({ id: probeRuns.id, status: probeRuns.status, deadline: probeRuns.deadline })
      .from(probeRuns)
      .where(and(eq(probeRuns.personaId, personaId), eq(probeRuns.version, version), inArray(probeRuns.status, ["queued", "running"]))),
  );
  const live = existing.find((run) => run.status === "queued" || !run.deadline || new Date(run.deadline).getTime() > Date.now());
  if (live) {
    queueWork();
    return { runId: live.id, started: false };
  }
  const runId = await withGenerationQuota(
    "testRuns",
    user,
    () =>
      withUser(user.id, async (tx) => {
        // Under the persona's row lock: two starts at once see each other's run (on a database server
        // the first may already be running by the time the second looks).
        await tx.select({ id: personas.id }).from(personas).where(eq(personas.id, personaId)).for("update");
        const [already] = await tx
          .select({ id: probeRuns.id })
          .from(probeRuns)
          .where(
            and(
              eq(probeRuns.personaId, personaId),
              eq(probeRuns.version, version),
              // Queued, running, or started on request a moment ago (a double click after a run that is already over).
              sql`(${probeRuns.status} = 'queued' or (${probeRuns.status} = 'running' and ${probeRuns.deadline} > now())
              or (${probeRuns.trigger} = 'manual' and ${probeRuns.createdAt} > now() - interval '2 seconds'))`,
            ),
          );
        if (already) return already.id;
        const [row] = await tx
          .insert(probeRuns)
          .values({ personaId, userId: user.id, version, trigger: "manual", status: "queued" })
          .onConflictDoUpdate({
            target: probeRuns.personaId,
            targetWhere: sql`status = 'queued'`,
            set: { version: sql`greatest(${probeRuns.version}, excluded.version)`, trigger: "manual", createdAt: new Date() },
          })
          .returning({ id: probeRuns.id });
        return row!.id;
      }),
    // With a model key, each probe's reply is a model call.
    { modelCalls: probes.length },
  );
  // Its job was queued with the row; this process's workers look at once.
  queueWork();
  return { runId, started: true };
}

const JOB_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function runOfJob(job: Job): { runId: string; userId: string; personaId: string | null } | null {
  const { runId, userId, personaId } = job.data as { runId?: unknown; userId?: unknown; personaId?: unknown };
  if (typeof runId !== "string" || typeof userId !== "string" || !JOB_UUID.test(runId) || !JOB_UUID.test(userId)) return null;
  return { runId, userId, personaId: typeof personaId === "string" && JOB_UUID.test(personaId) ? personaId : null };
}

/**
 * The job of one queued run. A run deleted meanwhile (with its persona) or already over ends the
 * job 'cancelled' with nothing written. A run still marked running by an earlier try (a crash)
 * starts over, unless a newer run of the persona was started meanwhile: then it is recorded as
 * interrupted. Another run of the persona still marked running when this one starts had a worker
 * that died (runs of a persona are queued one after the other): it is recorded as interrupted.
 */
export async function runTestRunJob(job: Job): Promise<"cancelled" | void> {
  const ref = runOfJob(job);
  if (!ref) return "cancelled";
  const run = await withUser(ref.userId, async (tx) => {
    // The persona's row first, as an edit that queues a run takes it: the same order, no deadlock.
    if (ref.personaId) await tx.select({ id: personas.id }).from(personas).where(eq(personas.id, ref.personaId)).for("update");
    const [row] = await tx.select().from(probeRuns).where(eq(probeRuns.id, ref.runId)).for("update");
    if (!row || row.status === "completed" || row.status === "failed") return null;
    const interrupted = { status: "failed", error: RUN_INTERRUPTED, finishedAt: new Date() } as const;
    if (row.status === "running") {
      const [newer] = await tx
        .select({ id: probeRuns.id })
        .from(probeRuns)
        .where(and(eq(probeRuns.personaId, row.personaId), ne(probeRuns.id, row.id), gt(probeRuns.createdAt, row.createdAt)));
      if (newer) {
        await tx.update(probeRuns).set(interrupted).where(eq(probeRuns.id, row.id));
        return null;
      }
    }
    await tx
      .update(probeRuns)
      .set(interrupted)
      .where(and(eq(probeRuns.personaId, row.personaId), eq(probeRuns.status, "running"), ne(probeRuns.id, row.id)));
    const [started] = await tx
      .update(probeRuns)
      .set({
        status: "running",
        startedAt: new Date(),
        deadline: new Date(Date.now() + RUN_DEADLINE_MS),
        results: [],
        total: 0,
        passed: 0,
        failed: 0,
        error: null,
      })
      .where(eq(probeRuns.id, row.id))
      .returning();
    return started ?? null;
  });
  if (!run) return "cancelled";
  await executeRun(run);
}

/** A run whose every try was cut off (the queue's dead letters): it is recorded as interrupted. */
export async function recordInterruptedRun(job: Job): Promise<"cancelled" | void> {
  const ref = runOfJob(job);
  if (!ref) return "cancelled";
  await withUser(ref.userId, (tx) =>
    tx
      .update(probeRuns)
      .set({ status: "failed", error: RUN_INTERRUPTED, finishedAt: new Date() })
      .where(and(eq(probeRuns.id, ref.runId), inArray(probeRuns.status, ["queued", "running"]))),
  );
}

/** The queues of persona test runs, for this process's workers (the app's entry, `npm run worker`). */
export function handleTestRunJobs(): void {
  handleJobs(QUEUES.personaTests, runTestRunJob, { concurrency: getEnv().TEST_RUN_CONCURRENCY ?? 2 });
  handleJobs(QUEUES.personaTestsFailed, recordInterruptedRun);
}

/** Tests and benchmarks: run the queued runs in this process and wait until every one has ended. */
export async function settleRuns(): Promise<void> {
  handleTestRunJobs();
  await startJobWorkers();
  await settleJobs({ queues: [QUEUES.personaTests, QUEUES.personaTestsFailed] });
}

/** The persona as one version holds it, as a chat reply sees it. */
export async function versionTarget(userId: string, run: Pick<ProbeRun, "personaId" | "version">) {
  const user = { id: userId } as CurrentUser;
  const version = await getVersion(user, run.personaId, run.version);
  const [current] = await withUser(userId, (tx) => tx.select().from(personas).where(eq(personas.id, run.personaId)));
  if (!current) throw notFound();
  const fields = {
    id: run.personaId,
    name: version.name,
    type: version.type,
    ageRange: version.ageRange,
    interests: version.interests,
    personality: version.personality,
    extended: version.storedExtended ?? current.extended,
  };
  const extended = personaExtended(fields);
  const voice =
    version.storedVoice === null ? personaVoice(current) : personaVoice({ voice: version.storedVoice, cardMeta: current.cardMeta });
  const lorebook: LoreBook = version.storedLore === null ? personaLorebook(current) : parseLorebook(version.storedLore);
  const persona: ChatPersona = {
    name: version.name,
    type: version.type,
    gender: version.gender,
    ageRange: version.ageRange,
    interests: version.interests,
    personality: version.personality,
    description: version.description,
    backstory: version.backstory,
    extended,
    voice,
  };
  const context: ProbeContext = { facts: extended, lore: lorebook.entries, name: version.name };
  return { persona, lorebook, context };
}

/** One probe's verdict against a persona (a probe whose lore entry is gone fails as broken). */
export async function probeVerdict(
  generator: ReturnType<typeof textGenerator>,
  target: { personaId: string; persona: ChatPersona; lorebook: LoreBook; context: ProbeContext },
  probe: Probe,
): Promise<ProbeResult> {
  if (probeBroken(probe, target.context))
    return {
      probeId: probe.id,
      name: probe.name,
      passed: false,
      turns: [...probe.turns],
      replies: [],
      failures: [
        {
          check: "broken" as const,
          expected: `the lore entry ${probe.factExpected?.label ?? probe.statesFact}`,
          got: "The entry is gone",
        },
      ],
      rubric: null,
    };
  return runProbe(generator, target, probe, target.context, { signal: AbortSignal.timeout(REPLY_TIMEOUT_MS) });
}

async function executeRun(run: ProbeRun): Promise<void> {
  const userId = run.userId;
  const generator = textGenerator();
  const model = generator.kind === "local" ? "embedded" : (generator.chatModel ?? "model");
  const results: ProbeResult[] = [];
  const save = (fields: Partial<typeof probeRuns.$inferInsert>) =>
    withUser(userId, (tx) => tx.update(probeRuns).set(fields).where(eq(probeRuns.id, run.id)));
  try {
    if (run.trigger === "version") {
      // Automatic runs take their point here; past the quota the run ends 'failed' with the reason.
      const [profile] = await withUser(userId, (tx) =>
        tx.select({ plan: profiles.subscriptionStatus }).from(profiles).where(eq(profiles.id, userId)),
      );
      const premium = isPremium(profile?.plan ?? "free");
      try {
        await consumeGenerationAllowance("testRuns", userId, premium);
        // With a model key, each enabled probe's reply is a model call off the daily ceiling.
        if (generator.kind !== "local") {
          const enabled = (await listProbes({ id: userId }, run.personaId)).filter((probe) => probe.enabled).length;
          await consumeModelCalls(userId, premium, enabled);
        }
      } catch (error) {
        if (error instanceof RateLimitedError) {
          await save({ status: "failed", error: error.message.slice(0, 500), model, finishedAt: new Date() });
          return;
        }
        throw error;
      }
    }
    const probes = (await listProbes({ id: userId }, run.personaId)).filter((probe) => probe.enabled);
    const target = await versionTarget(userId, run);
    await save({ model, total: probes.length });
    let passed = 0;
    for (const probe of probes) {
      const result = await probeVerdict(generator, { personaId: run.personaId, ...target }, probe);
      results.push(result);
      if (result.passed) passed += 1;
      await save({ results, passed, failed: results.length - passed });
    }
    await save({ status: "completed", finishedAt: new Date() });
  } catch (error) {
    const reason =
      error instanceof AiError
        ? `The ${model === "embedded" ? "embedded responder" : `model ${model}`} failed: ${error.code === "timeout" ? "it did not answer in time" : error.message}`
        : error instanceof ServiceError
          ? error.message
          : "The run could not finish.";
    if (!(error instanceof AiError) && !(error instanceof ServiceError))
      console.error(`[tests] run ${run.id} failed: ${describeError(error)}`);
    const passed = results.filter((result) => result.passed).length;
    await save({
      status: "failed",
      error: reason.slice(0, 500),
      results,
      passed,
      failed: results.length - passed,
      finishedAt: new Date(),
    }).catch((e) => console.error(`[tests] could not record the failure of run ${run.id}: ${describeError(e)}`));
  }
}

/** One run of the persona's (404 for another creator's persona or an unknown run). */
export async function getRun(user: Who, personaId: string, runId: string): Promise<RunView> {
  await ownedPersona(user, personaId);
  if (!isUuid(runId)) throw new ProbeError(404, PROBE_MESSAGES.runNotFound);
  const [row] = await withUser(user.id, (tx) =>
    tx
      .select()
      .from(probeRuns)
      .where(and(eq(probeRuns.id, runId), eq(probeRuns.personaId, personaId))),
  );
  if (!row) throw new ProbeError(404, PROBE_MESSAGES.runNotFound);
  if (row.status === "queued") queueWork();
  return runView(row);
}

/** The persona's runs, newest first. */
export async function listRuns(user: Who, personaId: string, limit = 20): Promise<RunView[]> {
  await ownedPersona(user, personaId);
  const rows = await withUser(user.id, (tx) =>
    tx
      .select()
      .from(probeRuns)
      .where(eq(probeRuns.personaId, personaId))
      .orderBy(desc(probeRuns.createdAt))
      .limit(Math.max(1, Math.min(limit, 100))),
  );
  if (rows.some((row) => row.status === "queued")) queueWork();
  return rows.map(runView);
}

/** What the persona page and the tests page show: the suite, the latest run and whether one is under way. */
export interface TestsState {
  probes: Probe[];
  latest: RunView | null;
  /** A run queued or running now. */
  pending: RunView | null;
}

export async function testsState(user: Who, personaId: string): Promise<TestsState> {
  const read = async (): Promise<TestsState & { settled: boolean }> => {
    const [probes, runs] = await Promise.all([listProbes(user, personaId), listRuns(user, personaId, 5)]);
    const pending = runs.find((run) => run.status === "queued" || run.status === "running") ?? null;
    const latest = runs.find((run) => run.status === "completed" || run.status === "failed") ?? null;
    return { probes, latest, pending, settled: runs.every((run) => run.status !== "queued" && run.status !== "running") };
  };
  // Kept until the persona, its probes or its runs change, and only while no run is under way
  // (KEPT_READS.testStates: a run's deadline passes without a write).
  const { settled: _settled, ...state } = await keptOrRead(KEPT_READS.testStates, [user.id, personaId], read, (answer) => answer.settled);
  return state;
}

/** The latest finished run of each version of a persona (history shows them next to each version). */
export async function runsByVersion(user: Who, personaId: string): Promise<Map<number, RunView>> {
  const rows = await withUser(user.id, (tx) =>
    tx
      .select()
      .from(probeRuns)
      .where(and(eq(probeRuns.personaId, personaId), inArray(probeRuns.status, ["completed", "failed"])))
      .orderBy(desc(probeRuns.createdAt))
      .limit(200),
  );
  const byVersion = new Map<number, RunView>();
  for (const row of rows) if (!byVersion.has(row.version)) byVersion.set(row.version, runView(row));
  return byVersion;
}

/** The latest finished run of each of these personas: what the library's cards badge. */
export async function latestRunSummaries(
  user: Who,
  personaIds: readonly string[],
): Promise<Map<string, { version: number; passed: number; failed: number; total: number; status: ProbeRunStatus }>> {
  const ids = personaIds.filter(isUuid);
  if (ids.length === 0) return new Map();
  const rows = await withUser(user.id, (tx) =>
    tx
      .selectDistinctOn([probeRuns.personaId], {
        personaId: probeRuns.personaId,
        version: probeRuns.version,
        passed: probeRuns.passed,
        failed: probeRuns.failed,
        total: probeRuns.total,
        status: probeRuns.status,
      })
      .from(probeRuns)
      .where(and(inArray(probeRuns.personaId, ids), inArray(probeRuns.status, ["completed", "failed"])))
      .orderBy(probeRuns.personaId, desc(probeRuns.createdAt)),
  );
  return new Map(rows.map((row) => [row.personaId, { ...row, status: row.status as ProbeRunStatus }]));
}

/** What the persona page shows of its tests: one read. */
export interface TestsSummary {
  probes: number;
  /** The latest finished run ('Version 8: 11/12 — "Knows her sister" failed'). */
  latest: { text: string; failed: boolean; model: string | null } | null;
  pending: boolean;
}

export async function testsSummary(user: Who, personaId: string): Promise<TestsSummary> {
  if (!isUuid(personaId)) throw notFound();
  // Kept until the persona, its probes or its runs change, and only while no run is under way
  // (KEPT_READS.testSummaries: a run's deadline passes without a write).
  return keptOrRead(
    KEPT_READS.testSummaries,
    [user.id, personaId],
    () => readTestsSummary(user, personaId),
    (summary) => !summary.pending,
  );
}

async function readTestsSummary(user: Who, personaId: string): Promise<TestsSummary> {
  const [row] = await withUser(user.id, (tx) =>
    tx
      .select({
        probes: sql<number>`(select count(*)::int from public.persona_probes pp where pp.persona_id = ${personaId})`,
        pending: sql<boolean>`exists (select 1 from public.probe_runs q where q.persona_id = ${personaId} and q.status in ('queued', 'running') and (q.deadline is null or q.deadline > now()))`,
        latest: sql<ProbeRun | null>`(select to_jsonb(r) from public.probe_runs r where r.persona_id = ${personaId} and (r.status in ('completed', 'failed') or (r.status = 'running' and r.deadline < now())) order by r.created_at desc limit 1)`,
      })
      .from(sql`(select 1) as one`),
  );
  const raw = row?.latest as Record<string, unknown> | null | undefined;
  const latest = raw
    ? runView({
        ...(raw as unknown as ProbeRun),
        personaId: String(raw.persona_id),
        userId: String(raw.user_id),
        createdAt: new Date(String(raw.created_at)),
        startedAt: raw.started_at ? new Date(String(raw.started_at)) : null,
        finishedAt: raw.finished_at ? new Date(String(raw.finished_at)) : null,
        deadline: raw.deadline ? new Date(String(raw.deadline)) : null,
      })
    : null;
  return {
    probes: Number(row?.probes ?? 0),
    pending: Boolean(row?.pending),
    latest: latest ? { text: runSummary(latest), failed: latest.failed > 0 || latest.status === "failed", model: latest.model } : null,
  };
}

/**
 * The latest finished run of each of these versions, as history shows it next to the version that
 * caused it: 'Version 8: 11/12 — "Knows her sister" failed'.
 */
export async function runSummariesByVersion(
  user: Who,
  personaId: string,
  versions: readonly number[],
): Promise<Record<number, { text: string; failed: boolean }>> {
  if (!isUuid(personaId) || versions.length === 0) return {};
  // Kept until the persona's runs change (KEPT_READS.runSummaries): only finished runs are read.
  return keptOrRead(KEPT_READS.runSummaries, [user.id, personaId, versions.join(",")], () => readRunSummaries(user, personaId, versions));
}

async function readRunSummaries(
  user: Who,
  personaId: string,
  versions: readonly number[],
): Promise<Record<number, { text: string; failed: boolean }>> {
  const rows = await withUser(user.id, (tx) =>
    tx
      .selectDistinctOn([probeRuns.version], {
        version: probeRuns.version,
        status: probeRuns.status,
        passed: probeRuns.passed,
        failed: probeRuns.failed,
        names: sql<
          string[] | null
        >`(select jsonb_agg(x ->> 'name') from jsonb_array_elements(${probeRuns.results}) x where (x ->> 'passed')::boolean is not true)`,
      })
      .from(probeRuns)
      .where(
        and(
          eq(probeRuns.personaId, personaId),
          inArray(probeRuns.version, [...versions]),
          inArray(probeRuns.status, ["completed", "failed"]),
        ),
      )
      .orderBy(probeRuns.version, desc(probeRuns.createdAt)),
  );
  const out: Record<number, { text: string; failed: boolean }> = {};
  for (const row of rows) {
    const results = (row.names ?? []).map((name) => ({ name, passed: false }));
    out[row.version] = { text: runSummary({ ...row, results }), failed: row.failed > 0 || row.status === "failed" };
  }
  return out;
}

/** A card's probes onto its new persona (docs/product.md, Persona tests): as the card had them, pinned facts included. */
export async function importProbes(user: Who, personaId: string, probes: readonly ProbeInput[]): Promise<void> {
  const kept = probes.slice(0, PROBE_LIMITS.probes);
  if (kept.length === 0) return;
  await withUser(user.id, (tx) =>
    tx.insert(personaProbes).values(kept.map((probe, position) => ({ personaId, position, probe: stored(probe) }))),
  );
}
