// The persona's tests in each front end (docs/cards.md, Behaviour in each front end): a run takes
// the card this product exports for each front end, builds the persona as that front end's prompt
// would carry it (domain/card-behaviour.ts) and runs the persona's enabled probes against it with
// the same responder as the tests page (the embedded one, or the configured model), and against
// the persona as it is here, for comparison. Off the request, as a job (card-target-tests), kept
// per version; one point of the creator's test-run quota, like 'Run tests'.
import { and, desc, eq, inArray } from "drizzle-orm";

import { personaAsSeenBy } from "~/domain/card-behaviour";
import { CARD_TARGET_RUN_TEXT, CARD_TARGETS, type CardTarget } from "~/domain/card-targets";
import { PROBE_MESSAGES, type ProbeResult } from "~/domain/probes";
import { AiError, textGenerator } from "~/infra/ai/ai.server";
import { withUser } from "~/infra/db/db.server";
import { cardTargetRuns, personas, type CardTargetRun } from "~/infra/db/schema.server";
import { handleJobs, queueWork, QUEUES, settleJobs, startJobWorkers, type Job } from "~/infra/jobs/queue.server";
import { describeError } from "~/infra/web/log.server";

import { type CurrentUser } from "./accounts.server";
import { withGenerationQuota } from "./generation-quotas.server";
import { cardOfPersona } from "./persona-export.server";
import { currentVersion } from "./persona-history.server";
import { getPersona, isUuid } from "./personas.server";
import { listProbes, probeVerdict, RUN_INTERRUPTED, versionTarget } from "./probes.server";
import { ServiceError } from "./service-error.server";

/** A run of the tests in each app that cannot be started or read. */
export class CardTargetRunError extends ServiceError {
  override name = "CardTargetRunError";
}

/** How long a run may take before it counts as failed (seven passes of the probes). */
const RUN_DEADLINE_MS = 15 * 60 * 1000;

export type CardTargetRunStatus = "queued" | "running" | "completed" | "failed";

/** One probe's verdict in one front end (the replies stay on the tests page's own runs). */
export interface CardTargetVerdict {
  probeId: string;
  name: string;
  passed: boolean;
  /** The checks that failed, by name. */
  failed: string[];
}

export interface CardTargetResult {
  target: CardTarget;
  passed: number;
  failed: number;
  /** What that front end's prompt lacks of the persona, in plain words. */
  losses: string[];
  probes: CardTargetVerdict[];
}

export interface CardTargetRunView {
  runId: string;
  version: number;
  status: CardTargetRunStatus;
  /** 'embedded' or the model's name. */
  model: string | null;
  error: string | null;
  /** The same probes against the persona as this product holds it. */
  here: { passed: number; failed: number } | null;
  results: CardTargetResult[];
  createdAt: string;
  finishedAt: string | null;
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

function runView(row: CardTargetRun): CardTargetRunView {
  const expired = row.status === "running" && row.deadline !== null && new Date(row.deadline).getTime() < Date.now();
  const here = row.here && typeof row.here === "object" ? (row.here as { passed: number; failed: number }) : null;
  return {
    runId: row.id,
    version: row.version,
    status: expired ? "failed" : (row.status as CardTargetRunStatus),
    model: row.model,
    error: expired ? RUN_INTERRUPTED : row.error,
    here: here ? { passed: here.passed, failed: here.failed } : null,
    results: Array.isArray(row.results) ? (row.results as CardTargetResult[]) : [],
    createdAt: iso(row.createdAt)!,
    finishedAt: iso(row.finishedAt),
  };
}

/**
 * Starts a run of the persona's current version in each front end; a run of it already queued or
 * under way is the answer instead (two clicks are one run). 409 for a draft or without enabled
 * probes; 429 past the creator's test-run quota.
 */
export async function startCardTargetRun(user: CurrentUser, personaId: string): Promise<{ runId: string; started: boolean }> {
  const persona = await getPersona(user, personaId);
  if (persona.status === "in_progress") throw new CardTargetRunError(409, PROBE_MESSAGES.draft, undefined, "persona_draft");
  const probes = (await listProbes(user, personaId)).filter((probe) => probe.enabled);
  if (probes.length === 0) throw new CardTargetRunError(409, PROBE_MESSAGES.noProbes, undefined, "no_probes");
  const version = (await currentVersion(user, personaId))?.version ?? 1;
  const live = await liveRun(user, personaId, version);
  if (live) {
    queueWork();
    return { runId: live, started: false };
  }
  const runId = await withGenerationQuota(
    "testRuns",
    user,
    () =>
      withUser(user.id, async (tx) => {
        // Under the persona's row lock: two starts at once see each other's run.
        await tx.select({ id: personas.id }).from(personas).where(eq(personas.id, personaId)).for("update");
        const rows = await tx
          .select({
            id: cardTargetRuns.id,
            status: cardTargetRuns.status,
            version: cardTargetRuns.version,
            deadline: cardTargetRuns.deadline,
          })
          .from(cardTargetRuns)
          .where(and(eq(cardTargetRuns.personaId, personaId), inArray(cardTargetRuns.status, ["queued", "running"])));
        // A run still waiting is moved on to this version (one queued run a persona).
        const queued = rows.find((run) => run.status === "queued");
        if (queued) {
          if (queued.version !== version) await tx.update(cardTargetRuns).set({ version }).where(eq(cardTargetRuns.id, queued.id));
          return queued.id;
        }
        const running = rows.find((run) => run.version === version && (!run.deadline || run.deadline > new Date()));
        if (running) return running.id;
        const [row] = await tx
          .insert(cardTargetRuns)
          .values({ personaId, userId: user.id, version, status: "queued" })
          .returning({ id: cardTargetRuns.id });
        return row!.id;
      }),
    // With a model key, each probe's reply in each front end (and here) is a model call.
    { modelCalls: probes.length * (CARD_TARGETS.length + 1) },
  );
  queueWork();
  return { runId, started: true };
}

/** The persona's run of `version` still queued or under way, if any. */
async function liveRun(user: Pick<CurrentUser, "id">, personaId: string, version: number): Promise<string | null> {
  const rows = await withUser(user.id, (tx) =>
    tx
      .select({ id: cardTargetRuns.id, status: cardTargetRuns.status, deadline: cardTargetRuns.deadline })
      .from(cardTargetRuns)
      .where(
        and(
          eq(cardTargetRuns.personaId, personaId),
          eq(cardTargetRuns.version, version),
          inArray(cardTargetRuns.status, ["queued", "running"]),
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
export async function runCardTargetJob(job: Job): Promise<"cancelled" | void> {
  const ref = runOfJob(job);
  if (!ref) return "cancelled";
  const run = await withUser(ref.userId, async (tx) => {
    const [row] = await tx.select().from(cardTargetRuns).where(eq(cardTargetRuns.id, ref.runId)).for("update");
    if (!row || row.status === "completed" || row.status === "failed") return null;
    const [started] = await tx
      .update(cardTargetRuns)
      .set({
        status: "running",
        startedAt: new Date(),
        deadline: new Date(Date.now() + RUN_DEADLINE_MS),
        results: [],
        here: null,
        error: null,
      })
      .where(eq(cardTargetRuns.id, row.id))
      .returning();
    return started ?? null;
  });
  if (!run) return "cancelled";
  await executeRun(run);
}

/** A run whose every try was cut off (the queue's dead letters): recorded as interrupted. */
export async function recordInterruptedCardTargetRun(job: Job): Promise<"cancelled" | void> {
  const ref = runOfJob(job);
  if (!ref) return "cancelled";
  await withUser(ref.userId, (tx) =>
    tx
      .update(cardTargetRuns)
      .set({ status: "failed", error: RUN_INTERRUPTED, finishedAt: new Date() })
      .where(and(eq(cardTargetRuns.id, ref.runId), inArray(cardTargetRuns.status, ["queued", "running"]))),
  );
}

/** The queues of runs in each front end, for this process's workers. */
export function handleCardTargetJobs(): void {
  handleJobs(QUEUES.cardTargetTests, runCardTargetJob, { concurrency: 1 });
  handleJobs(QUEUES.cardTargetTestsFailed, recordInterruptedCardTargetRun);
}

/** Tests and benchmarks: run the queued runs in this process and wait until every one has ended. */
export async function settleCardTargetRuns(): Promise<void> {
  handleCardTargetJobs();
  await startJobWorkers();
  await settleJobs({ queues: [QUEUES.cardTargetTests, QUEUES.cardTargetTestsFailed] });
}

const verdict = (result: ProbeResult): CardTargetVerdict => ({
  probeId: result.probeId,
  name: result.name,
  passed: result.passed,
  failed: [...new Set(result.failures.map((failure) => failure.check))],
});

async function executeRun(run: CardTargetRun): Promise<void> {
  const userId = run.userId;
  const generator = textGenerator();
  const model = generator.kind === "local" ? "embedded" : (generator.chatModel ?? "model");
  const save = (fields: Partial<typeof cardTargetRuns.$inferInsert>) =>
    withUser(userId, (tx) => tx.update(cardTargetRuns).set(fields).where(eq(cardTargetRuns.id, run.id)));
  const results: CardTargetResult[] = [];
  try {
    const user = { id: userId } as CurrentUser;
    const probes = (await listProbes(user, run.personaId)).filter((probe) => probe.enabled);
    const target = await versionTarget(userId, run);
    const [row] = await withUser(userId, (tx) => tx.select().from(personas).where(eq(personas.id, run.personaId)));
    if (!row) return;
    const { card } = await cardOfPersona(user, row);
    await save({ model });
    const suite = async (persona: typeof target.persona, lorebook: typeof target.lorebook) => {
      const verdicts: CardTargetVerdict[] = [];
      for (const probe of probes)
        verdicts.push(
          verdict(await probeVerdict(generator, { personaId: run.personaId, persona, lorebook, context: target.context }, probe)),
        );
      return verdicts;
    };
    const here = await suite(target.persona, target.lorebook);
    const herePassed = here.filter((v) => v.passed).length;
    await save({ here: { passed: herePassed, failed: here.length - herePassed } });
    for (const frontEnd of CARD_TARGETS) {
      const seen = personaAsSeenBy(frontEnd, card.data, target.persona, target.lorebook);
      const verdicts = await suite(seen.persona, seen.lorebook);
      const passed = verdicts.filter((v) => v.passed).length;
      results.push({ target: frontEnd, passed, failed: verdicts.length - passed, losses: seen.losses, probes: verdicts });
      await save({ results });
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
      console.error(`[card-check] run ${run.id} failed: ${describeError(error)}`);
    await save({ status: "failed", error: reason.slice(0, 500), results, finishedAt: new Date() }).catch((e) =>
      console.error(`[card-check] could not record the failure of run ${run.id}: ${describeError(e)}`),
    );
  }
}

/** The persona's latest run (any version), for the card check's page and GET /survival. */
export async function latestCardTargetRun(user: Pick<CurrentUser, "id">, personaId: string): Promise<CardTargetRunView | null> {
  const [row] = await withUser(user.id, (tx) =>
    tx.select().from(cardTargetRuns).where(eq(cardTargetRuns.personaId, personaId)).orderBy(desc(cardTargetRuns.createdAt)).limit(1),
  );
  return row ? runView(row) : null;
}

/** The persona's latest run of one version. */
export async function cardTargetRunOf(
  user: Pick<CurrentUser, "id">,
  personaId: string,
  version: number,
): Promise<CardTargetRunView | null> {
  const [row] = await withUser(user.id, (tx) =>
    tx
      .select()
      .from(cardTargetRuns)
      .where(and(eq(cardTargetRuns.personaId, personaId), eq(cardTargetRuns.version, version)))
      .orderBy(desc(cardTargetRuns.createdAt))
      .limit(1),
  );
  return row ? runView(row) : null;
}

/** One run of the persona's (404 for another creator's persona or an unknown run). */
export async function getCardTargetRun(user: CurrentUser, personaId: string, runId: string): Promise<CardTargetRunView> {
  await getPersona(user, personaId);
  if (!isUuid(runId)) throw new CardTargetRunError(404, CARD_TARGET_RUN_TEXT.notFound);
  const [row] = await withUser(user.id, (tx) =>
    tx
      .select()
      .from(cardTargetRuns)
      .where(and(eq(cardTargetRuns.id, runId), eq(cardTargetRuns.personaId, personaId))),
  );
  if (!row) throw new CardTargetRunError(404, CARD_TARGET_RUN_TEXT.notFound);
  return runView(row);
}
