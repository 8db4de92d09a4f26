// Background work as jobs on one queue in the database: pg-boss (docs/decisions/041-one-job-queue.md).
// The queue's schema and its queues come from supabase/migrations; pg-boss reaches the database
// through the same connection as everything else (db.server.ts, jobQueueSql), so it works the
// same on the embedded database, on PostgreSQL and on Supabase.
//
// Who runs jobs: every process started with workers (the web server by default, `npm run worker`,
// not WORKERS=0). Each runs the queues its services registered (handleJobs).
//
// When the queue is looked at:
// - on a database server, all the time (pg-boss polls every 2 s) and at once when this process
//   queues work or hears a change notice (another process may have queued it);
// - on the embedded database, only while there is work: when this process queues work, when a
//   write's change notice is heard (a database trigger may have queued a job), when a job queued
//   for later falls due (a timer: a digest, a retry after its backoff) and when the database
//   opens. With nothing to do for a few seconds, its workers stop, so an idle server leaves the
//   database closed (docs/decisions/012-a-small-server.md).
//
// A job interrupted by a crash: on a database server, pg-boss counts an attempt still active past
// its queue's expiry as failed and tries again; the embedded database has one process, so the
// jobs still active when it starts were interrupted, and are failed (and tried again) at once.
import PgBoss from "pg-boss";

import { changeFeed, databaseKind, jobQueueSql, outsideDoor } from "../db/db.server";
import { getEnv } from "../setup/env.server";
import { describeError } from "../web/log.server";

/** The queues, as supabase/migrations creates them (their retry and expiry settings are there). */
export const QUEUES = {
  /** One job per queued persona test run: { runId, userId, personaId }. */
  personaTests: "persona-tests",
  /** A test run whose tries were all interrupted: it is recorded as interrupted. */
  personaTestsFailed: "persona-tests-failed",
  /** One job per queued run of the persona's tests in each front end: { runId, userId, personaId }. */
  cardTargetTests: "card-target-tests",
  /** A run in each front end whose tries were all interrupted: it is recorded as interrupted. */
  cardTargetTestsFailed: "card-target-tests-failed",
  /** One job per queued long-conversation test: { runId, userId, personaId }. */
  conversationTests: "conversation-tests",
  /** A long-conversation test whose tries were all interrupted: it is recorded as interrupted. */
  conversationTestsFailed: "conversation-tests-failed",
  /** One job per reference-image generation: { personaId, userId, startedAt }. */
  referenceImages: "reference-images",
  /** A generation whose tries were all interrupted: it is recorded as failed. */
  referenceImagesFailed: "reference-images-failed",
  /** A pass of the notification digests, queued for the time a queued event's digest is due. */
  notificationDigests: "notification-digests",
} as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

export interface Job<T = Record<string, unknown>> {
  id: string;
  name: QueueName;
  data: T;
  /** Tries before this one. */
  retryCount: number;
  /** Tries after the first one. */
  retryLimit: number;
}

/** Runs one job; "cancelled" when there was nothing to do (what it was for is gone): nothing written. */
export type JobHandler = (job: Job) => Promise<"cancelled" | void>;

interface Registered {
  handler: JobHandler;
  concurrency: number;
}

/** Seconds with nothing to do after which an embedded server's workers stop. */
const IDLE_STOP_MS = 5_000;
/**
 * How often an awake worker looks without being told. Whatever queues work in this process tells
 * the workers at once (queueWork), so polling only finds a retry whose backoff has passed, or work
 * that another process queued on a database server.
 */
const POLL_SECONDS = 2;
/**
 * On the embedded database a write's change notice comes with the answer to the statement that
 * wrote, before its transaction commits: the workers look a moment later, when the job is there.
 */
const NOTICE_LOOK_DELAY_MS = 50;

const registered = new Map<QueueName, Registered>();
let mode: "off" | "on-demand" | "always" = "off";
let boss: PgBoss | undefined;
let awake: Promise<void> | undefined;
let sleeping: Promise<void> | undefined;
let workerIds: string[] = [];
/** The workers of each queue, by id (pg-boss's notifyWorker). */
const workersOf = new Map<QueueName, string[]>();
/** The queues this process's workers take jobs from while awake. */
const working = new Set<QueueName>();
let idleTimer: ReturnType<typeof setInterval> | undefined;
let lastWork = 0;
let running = 0;
let recovered = false;
let stopWatching: (() => void) | undefined;

/** A service's handler of one queue. Registered before startJobWorkers (the app's entry does both). */
export function handleJobs(name: QueueName, handler: JobHandler, options: { concurrency?: number } = {}): void {
  registered.set(name, { handler, concurrency: Math.max(1, options.concurrency ?? 1) });
}

function newBoss(): PgBoss {
  // Maintenance and schedules run when the queue is awake (wake), not on pg-boss's timers: on the
  // embedded database those would open it every few minutes for nothing.
  const created = new PgBoss({ db: jobQueueSql, migrate: true, supervise: false, schedule: false });
  created.on("error", (error: Error & { queue?: string }) => {
    console.error(`[jobs] ${error.queue ? `${error.queue}: ` : ""}${describeError(error)}`);
  });
  return created;
}

/**
 * Starts this process's workers (the app's entry, unless WORKERS=0; `npm run worker` with `always`,
 * whatever WORKERS says). Returns at once: the queue is opened when there is work (see the top of
 * this file).
 */
export async function startJobWorkers(options: { always?: boolean } = {}): Promise<void> {
  if (mode !== "off") return;
  if (getEnv().WORKERS === "0" && !options.always) return;
  const kind = await databaseKind();
  mode = options.always || kind === "postgres" ? "always" : "on-demand";
  const feed = await changeFeed();
  // A write heard (a trigger may have queued a job) or the database opened again: look.
  stopWatching = feed.watch(() =>
    outsideDoor(() => {
      if (mode === "always") lookNow();
      else setTimeout(lookNow, NOTICE_LOOK_DELAY_MS).unref();
    }),
  );
  if (mode === "always") queueWork();
}

/**
 * This process queued work (or may have): its workers look at once. The workers run outside any
 * door, whatever called this (a change notice is heard inside the writer's door on PGlite).
 */
export function queueWork(): void {
  outsideDoor(lookNow);
}

function lookNow(): void {
  if (mode === "off") return;
  lastWork = Date.now();
  if (awake) {
    void awake
      .then(async () => {
        if (boss && working.size < registered.size) await startMissingWorkers(boss);
        for (const id of workerIds) boss?.notifyWorker(id);
      })
      .catch((error: unknown) => console.error(`[jobs] could not start the workers: ${describeError(error)}`));
    return;
  }
  awake = wake().catch((error: unknown) => {
    console.error(`[jobs] could not start the workers: ${describeError(error)}`);
    awake = undefined;
  });
}

async function wake(): Promise<void> {
  if (sleeping) await sleeping;
  boss ??= newBoss();
  await boss.start();
  if (!recovered) {
    recovered = true;
    if ((await databaseKind()) === "pglite") await failInterrupted(boss);
  }
  // Attempts past their expiry (a worker that died) are tried again, archived jobs dropped.
  await boss.maintain().catch((error: unknown) => console.error(`[jobs] maintenance failed: ${describeError(error)}`));
  workerIds = [];
  workersOf.clear();
  working.clear();
  await startMissingWorkers(boss);
  lastWork = Date.now();
  idleTimer = setInterval(
    () => void idleCheck().catch((error: unknown) => console.error(`[jobs] could not look at the queue: ${describeError(error)}`)),
    mode === "always" ? 60_000 : 1_000,
  );
  idleTimer.unref();
}

/** Workers for every registered queue that has none yet (a queue registered after the wake too). */
async function startMissingWorkers(current: PgBoss): Promise<void> {
  const pollingIntervalSeconds = POLL_SECONDS;
  for (const [name, { handler, concurrency }] of registered) {
    if (working.has(name)) continue;
    working.add(name);
    const ids: string[] = [];
    workersOf.set(name, ids);
    for (let i = 0; i < concurrency; i += 1) {
      const id = await current.work(name, { batchSize: 1, includeMetadata: true, pollingIntervalSeconds }, ([job]) =>
        runJob(handler, job as never),
      );
      ids.push(id);
      workerIds.push(id);
    }
  }
}

function runJob(handler: JobHandler, job: Job): Promise<void> {
  running += 1;
  lastWork = Date.now();
  const work = handler(job)
    .then(
      async (outcome) => {
        // Cancelled while active: pg-boss's completion after the handler then leaves it so.
        if (outcome === "cancelled") await boss?.cancel(job.name, job.id);
      },
      (error: unknown) => {
        // pg-boss records it on the job and tries again (or hands it to the dead-letter queue).
        const tries = `try ${job.retryCount + 1} of ${job.retryLimit + 1}`;
        console.error(`[jobs] ${job.name} job ${job.id} failed (${tries}): ${describeError(error)}`);
        throw error;
      },
    )
    .finally(() => {
      running -= 1;
      lastWork = Date.now();
      // A pg-boss worker waits out its polling interval even after a fetch that found a job: told
      // that there may be more, the queue's workers fetch again at once (only an empty fetch waits).
      for (const id of workersOf.get(job.name) ?? []) boss?.notifyWorker(id);
    });
  return work;
}

/**
 * The embedded database is served to this process alone: a job still active when the queue is
 * first opened was cut off by the previous run of the server. It is failed now, so pg-boss tries it
 * again (or hands it to its dead-letter queue) instead of waiting for its expiry.
 */
async function failInterrupted(current: PgBoss): Promise<void> {
  for (const name of registered.keys()) {
    // pg-boss documents its job table for direct reads.
    const { rows } = await jobQueueSql.executeSql("select id from pgboss.job where name = $1 and state = 'active'", [name]);
    const ids = rows.map((row) => String(row.id));
    if (ids.length === 0) continue;
    for (const id of ids) await current.fail(name, id, { message: "The server stopped while this job ran." });
    console.log(`[jobs] ${ids.length} interrupted ${name} job(s) will be tried again`);
  }
}

async function idleCheck(): Promise<void> {
  const current = boss;
  if (!current || !awake) return;
  if (mode === "always") {
    await current.maintain().catch((error: unknown) => console.error(`[jobs] maintenance failed: ${describeError(error)}`));
    return;
  }
  if (running > 0 || Date.now() - lastWork < IDLE_STOP_MS) return;
  // Jobs due now (a retry's short backoff included) keep the workers on; one due later sets a timer.
  const { rows } = await jobQueueSql.executeSql(
    `select count(*) filter (where start_after <= now() + interval '10 seconds') as due,
       min(start_after) filter (where start_after > now() + interval '10 seconds') as next
     from pgboss.job where name = any($1::text[]) and state < 'active'`,
    [[...registered.keys()]],
  );
  if (Number(rows[0]?.due ?? 0) > 0) return;
  if (running > 0 || Date.now() - lastWork < IDLE_STOP_MS) return;
  await sleepWorkers();
  const next = rows[0]?.next;
  if (next) wakeAt(new Date(next as string | Date).getTime());
}

let wakeTimer: ReturnType<typeof setTimeout> | undefined;
let wakeTime = Infinity;

/** The queue is looked at again at `at` (a job due then: a digest, a retry after its backoff). */
function wakeAt(at: number): void {
  if (wakeTimer && wakeTime <= at) return;
  if (wakeTimer) clearTimeout(wakeTimer);
  wakeTime = at;
  wakeTimer = setTimeout(
    () => {
      wakeTimer = undefined;
      wakeTime = Infinity;
      queueWork();
    },
    Math.min(Math.max(0, at - Date.now()), 2 ** 31 - 1),
  );
  // The server's own listener keeps the process alive; a timer alone never does.
  wakeTimer.unref();
}

async function sleepWorkers(): Promise<void> {
  if (idleTimer) clearInterval(idleTimer);
  idleTimer = undefined;
  const current = boss;
  awake = undefined;
  workerIds = [];
  workersOf.clear();
  working.clear();
  // Stopping pg-boss stops its workers' polling; nothing of it keeps the database open.
  sleeping = current?.stop({ graceful: true, wait: true, timeout: 1_000, close: false }).finally(() => {
    sleeping = undefined;
  });
  await sleeping;
}

/**
 * A clean stop (app/server.mjs): no new job starts; running ones get `timeoutMs` to finish, then
 * pg-boss fails them (they are tried again at the next start).
 */
export async function stopJobWorkers(timeoutMs = 5_000): Promise<void> {
  stopWatching?.();
  stopWatching = undefined;
  const current = boss;
  if (idleTimer) clearInterval(idleTimer);
  idleTimer = undefined;
  mode = "off";
  if (wakeTimer) clearTimeout(wakeTimer);
  wakeTimer = undefined;
  wakeTime = Infinity;
  if (awake) await awake;
  if (sleeping) await sleeping;
  awake = undefined;
  workerIds = [];
  workersOf.clear();
  working.clear();
  boss = undefined;
  recovered = false;
  await current?.stop({ graceful: true, wait: true, timeout: Math.max(1_000, timeoutMs), close: false });
}

/**
 * Tests and benchmarks: waits until every job of `queues` (all registered ones by default) due
 * within `timeoutMs` has ended (retries after their backoff included; a digest due in an hour is
 * not), running any this process's workers can take.
 */
export async function settleJobs(options: { queues?: readonly QueueName[]; timeoutMs?: number } = {}): Promise<void> {
  // Under a test hook's own 60 s, so that a queue that does not settle says what it holds.
  const timeoutMs = options.timeoutMs ?? 50_000;
  const names = options.queues ?? [...registered.keys()];
  const deadline = Date.now() + timeoutMs;
  queueWork();
  for (;;) {
    if (awake) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const woke = await Promise.race([
        awake.then(() => true),
        new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), Math.max(0, deadline - Date.now())))),
      ]);
      clearTimeout(timer);
      if (!woke) throw new Error(`jobs did not settle in ${timeoutMs} ms: the workers did not start (${running} running here)`);
    }
    const { rows } = await jobQueueSql.executeSql(
      `select count(*) as waiting from pgboss.job
       where name = any($1::text[]) and state < 'completed' and start_after < now() + $2 * interval '1 millisecond'`,
      [names, timeoutMs],
    );
    const waiting = Number(rows[0]?.waiting ?? 0);
    if (waiting === 0 && running === 0) return;
    if (Date.now() > deadline) {
      const states = await jobQueueSql.executeSql(
        `select name, state::text, count(*) as jobs from pgboss.job where name = any($1::text[]) and state < 'completed' group by 1, 2`,
        [names],
      );
      const what = states.rows.map((row) => `${String(row.jobs)} ${String(row.name)} ${String(row.state)}`).join(", ");
      throw new Error(`jobs did not settle in ${timeoutMs} ms (${what}; ${running} running here, workers ${awake ? "awake" : "asleep"})`);
    }
    queueWork();
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
