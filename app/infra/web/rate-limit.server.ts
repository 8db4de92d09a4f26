// Abuse limits: failed password checks (sign-in, the settings password check) and account
// e-mails, after rate-limiter-flexible's "login endpoint protection" recipe.
//
// Password checks. A point is taken *before* the password is evaluated, atomically, so a
// burst of parallel guesses cannot all slip past a count that is only written afterwards:
// - consecutive failures per (address, client): 5 in 15 minutes, then 429 until the window
//   ends; a success deletes the key. Neighbours behind the same client (an office, a NAT)
//   and the owner on another client have their own keys and are not locked out.
// - failures per client: a much larger ceiling (100 a day) across all addresses; a success
//   refunds its point.
// - failures per account (the lowercased e-mail address, whether or not it has an account)
//   across any number of client addresses: 50 in a fixed hour, then 429 until the hour
//   ends, so any 60 minutes (which may straddle two windows) see at most 100 checks; a
//   success refunds its point and a password reset clears the count.
// - a browser that signed in to the account before carries a device cookie for it
//   (device-cookie.server.ts, OWASP's "device cookie" pattern). Its attempts count only
//   against that device, instead of the three counters above: 5 consecutive failures in
//   15 minutes lock that device cookie until the window ends; a success deletes the key.
//   So guessing from everywhere else, which uses up the account's budget, does not lock
//   the owner out of their own browsers.
//
// Account e-mails (verification, resend, reset): 3 an hour per (address, client), 10 an
// hour per client and 10 an hour per address, so one client cannot use up someone's mails.
//
// Chat replies (sent or regenerated): 20 a minute per user.
//
// Generation quotas per creator, each over a fixed hour (with an AI key every one is a paid
// model call, a reference image generation two): 10 reference image generations on the
// Free plan and 60 on Premium (one counter, so an upgrade adds to what is left), 30
// backstories, 30 character card imports, 60 persona test runs, 30 lorebook compiles and 60
// probe suggestions. The point is taken before the work starts; the caller gives it back when
// the request is refused for another reason first. At most 2 generations that run during a
// request (backstories, compiles, suggestions, card imports) run at once per creator; a slot a
// crashed process held frees itself after 5 minutes. With a model key, each creator also has a
// daily ceiling in model calls: 300 on Free, 2,000 on Premium.
// GENERATION_QUOTA_MULTIPLIER multiplies all of them (load tests only).
//
// Where the counters live: in the database when the app runs on a Postgres server
// (private.rate_limits, shared by every app server on it), in memory on PGlite (one process).
import { createRequire } from "node:module";

import { sql } from "drizzle-orm";
import {
  RateLimiterMemory,
  RateLimiterRes,
  type RateLimiterAbstract,
  type RateLimiterStoreAbstract as StoreAbstract,
} from "rate-limiter-flexible";

import { database, withServiceRole, type Tx } from "../db/db.server";
import { getEnv } from "../setup/env.server";

export class RateLimitedError extends Error {
  override name = "RateLimitedError";
  constructor(
    message: string,
    public readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The limits, in one place (the tests read them). */
export const LIMITS = {
  consecutiveFailsPerAddressAndClient: { points: 5, duration: 15 * MINUTE },
  failsPerClient: { points: 100, duration: DAY },
  /** Failures per account from clients without its device cookie, all client addresses together. */
  failsPerAccount: { points: 50, duration: HOUR },
  /** Consecutive failures of one device cookie on its account. */
  consecutiveFailsPerDevice: { points: 5, duration: 15 * MINUTE },
  mailsPerAddressAndClient: { points: 3, duration: HOUR },
  mailsPerClient: { points: 10, duration: HOUR },
  mailsPerAddress: { points: 10, duration: HOUR },
  chatRepliesPerUser: { points: 20, duration: MINUTE },
  /** Reference image generations (two images each) per creator, by plan. */
  imageGenerationsPerUser: { points: { free: 10, premium: 60 }, duration: HOUR },
  backstoriesPerUser: { points: 30, duration: HOUR },
  cardImportsPerUser: { points: 30, duration: HOUR },
  /** Persona test runs (on demand and after each new version), per creator. */
  testRunsPerUser: { points: 60, duration: HOUR },
  /** 'Build lorebook from backstory' compiles, per creator. */
  loreCompilesPerUser: { points: 30, duration: HOUR },
  /** Probe suggestions ('Suggest tests'), per creator. */
  suggestionsPerUser: { points: 60, duration: HOUR },
  /** Generations running during a request at once, per creator; the duration frees a crashed one's slot. */
  generationsRunningPerUser: { points: 2, duration: 5 * MINUTE },
  /** Model calls a creator's generations and chat replies may make in a day, by plan (with a model key only). */
  modelCallsPerUser: { points: { free: 300, premium: 2000 }, duration: DAY },
} as const;

/** Chat replies (sent or regenerated) one user may ask for in a minute. */
export const CHAT_MESSAGES_PER_MINUTE = LIMITS.chatRepliesPerUser.points;

// ---------------------------------------------------------------- the database store

// rate-limiter-flexible's base class for stores (the types declare it; the package's index
// does not export it at run time, so it is loaded from its file).
const RateLimiterStoreAbstract = createRequire(import.meta.url)(
  "rate-limiter-flexible/lib/RateLimiterStoreAbstract",
) as typeof StoreAbstract;

interface CounterRow {
  points: number;
  ms_before_next: number | null;
}

async function rows<T>(tx: Tx, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await tx.execute(query)) as unknown as T[] | { rows: T[] };
  return Array.isArray(result) ? result : result.rows;
}

const CLEANUP_EVERY_MS = 5 * 60 * 1000;
let lastCleanup = Date.now();

/**
 * A rate-limiter-flexible store on private.rate_limits, reached only through the
 * service-role door. Each consume is one `insert … on conflict do update … returning`,
 * atomic on any number of app servers; expiry is computed with the database's clock
 * (clock_timestamp(), not the transaction's start: a transaction that waited on the row
 * must not see a window longer than its duration).
 */
export class RateLimiterDatabase extends RateLimiterStoreAbstract {
  constructor(opts: { keyPrefix: string; points: number; duration: number }) {
    super({ ...opts, storeClient: "private.rate_limits" });
  }

  _getRateLimiterRes(_rlKey: string, changedPoints: number, row: CounterRow): RateLimiterRes {
    return new RateLimiterRes(
      Math.max(this.points - row.points, 0),
      row.ms_before_next === null ? -1 : Math.max(0, Math.ceil(row.ms_before_next)),
      row.points,
      row.points === changedPoints,
    );
  }

  async _upsert(key: string, points: number, msDuration: number, forceExpire = false): Promise<CounterRow> {
    const expire = msDuration > 0 ? sql`clock_timestamp() + make_interval(secs => ${msDuration / 1000}::float8)` : sql`null::timestamptz`;
    const expired = sql`(r.expire is not null and r.expire <= clock_timestamp())`;
    const update = forceExpire
      ? sql`points = excluded.points, expire = excluded.expire`
      : sql`points = case when ${expired} then excluded.points else r.points + excluded.points end,
            expire = case when ${expired} then excluded.expire else r.expire end`;
    const cleanup = Date.now() - lastCleanup > CLEANUP_EVERY_MS;
    if (cleanup) lastCleanup = Date.now();
    return withServiceRole("rate limits", async (tx) => {
      if (cleanup) await tx.execute(sql`delete from private.rate_limits where expire < now() - interval '1 hour'`);
      const [row] = await rows<CounterRow>(
        tx,
        sql`insert into private.rate_limits as r (key, points, expire) values (${key}, ${points}::int, ${expire})
            on conflict (key) do update set ${update}
            returning r.points::int as points,
                      (extract(epoch from (r.expire - clock_timestamp())) * 1000)::float8 as ms_before_next`,
      );
      return row;
    });
  }

  async _get(key: string): Promise<CounterRow | null> {
    const [row] = await withServiceRole("rate limits", (tx) =>
      rows<CounterRow>(
        tx,
        sql`select points::int as points, (extract(epoch from (expire - clock_timestamp())) * 1000)::float8 as ms_before_next
            from private.rate_limits where key = ${key} and (expire is null or expire > clock_timestamp())`,
      ),
    );
    return row ?? null;
  }

  async _delete(key: string): Promise<boolean> {
    const deleted = await withServiceRole("rate limits", (tx) =>
      rows<{ key: string }>(tx, sql`delete from private.rate_limits where key = ${key} returning key`),
    );
    return deleted.length > 0;
  }
}

// ---------------------------------------------------------------- which store

type StoreKind = "memory" | "database";
let forcedStore: StoreKind | undefined;

/** Tests choose the store (undefined: by the database, as the server does). */
export function useRateLimitStore(kind: StoreKind | undefined): void {
  forcedStore = kind;
  limiters = undefined;
}

function createLimiters(kind: StoreKind) {
  const make = (keyPrefix: string, points: number, duration: number): RateLimiterAbstract =>
    kind === "database"
      ? (new RateLimiterDatabase({ keyPrefix, points, duration }) as unknown as RateLimiterAbstract)
      : new RateLimiterMemory({ keyPrefix, points, duration });
  return {
    kind,
    consecutiveFails: make(
      "sign-in:address+client",
      LIMITS.consecutiveFailsPerAddressAndClient.points,
      LIMITS.consecutiveFailsPerAddressAndClient.duration,
    ),
    failsPerClient: make("sign-in:client", LIMITS.failsPerClient.points, LIMITS.failsPerClient.duration),
    failsPerAccount: make("sign-in:account", LIMITS.failsPerAccount.points, LIMITS.failsPerAccount.duration),
    consecutiveFailsPerDevice: make("sign-in:device", LIMITS.consecutiveFailsPerDevice.points, LIMITS.consecutiveFailsPerDevice.duration),
    mailsPerAddressAndClient: make("mail:address+client", LIMITS.mailsPerAddressAndClient.points, LIMITS.mailsPerAddressAndClient.duration),
    mailsPerClient: make("mail:client", LIMITS.mailsPerClient.points, LIMITS.mailsPerClient.duration),
    mailsPerAddress: make("mail:address", LIMITS.mailsPerAddress.points, LIMITS.mailsPerAddress.duration),
    chatReplies: make("chat:user", LIMITS.chatRepliesPerUser.points, LIMITS.chatRepliesPerUser.duration),
    // One counter for both plans, as large as Premium's quota; the Free plan's smaller one is
    // applied when a point is taken (consumeGenerationAllowance).
    imageGenerations: make(
      "generate:images:user",
      quota(LIMITS.imageGenerationsPerUser.points.premium),
      LIMITS.imageGenerationsPerUser.duration,
    ),
    backstories: make("generate:backstory:user", quota(LIMITS.backstoriesPerUser.points), LIMITS.backstoriesPerUser.duration),
    cardImports: make("import:card:user", quota(LIMITS.cardImportsPerUser.points), LIMITS.cardImportsPerUser.duration),
    testRuns: make("test:runs:user", quota(LIMITS.testRunsPerUser.points), LIMITS.testRunsPerUser.duration),
    loreCompiles: make("generate:lore:user", quota(LIMITS.loreCompilesPerUser.points), LIMITS.loreCompilesPerUser.duration),
    suggestions: make("suggest:probes:user", quota(LIMITS.suggestionsPerUser.points), LIMITS.suggestionsPerUser.duration),
    running: make("generate:running:user", LIMITS.generationsRunningPerUser.points, LIMITS.generationsRunningPerUser.duration),
    // As large as Premium's ceiling; the Free plan's is applied when calls are taken.
    modelCalls: make("model:calls:user", quota(LIMITS.modelCallsPerUser.points.premium), LIMITS.modelCallsPerUser.duration),
  };
}
type Limiters = ReturnType<typeof createLimiters>;
let limiters: Promise<Limiters> | undefined;

function current(): Promise<Limiters> {
  limiters ??= (async () => {
    const kind = forcedStore ?? ((await database()).kind === "postgres" ? "database" : "memory");
    return createLimiters(kind);
  })().catch((error) => {
    limiters = undefined;
    throw error;
  });
  return limiters;
}

// ---------------------------------------------------------------- password checks

const minutes = (seconds: number) => Math.max(1, Math.ceil(seconds / 60));
const inMinutes = (seconds: number) => `${minutes(seconds)} minute${minutes(seconds) === 1 ? "" : "s"}`;
const inHoursOrMinutes = (seconds: number) => {
  if (seconds <= 2 * HOUR) return inMinutes(seconds);
  const hours = Math.ceil(seconds / HOUR);
  return `${hours} hours`;
};
const retrySeconds = (res: RateLimiterRes) => Math.max(1, Math.ceil(res.msBeforeNext / 1000));

const addressKey = (email: string) => email.trim().toLowerCase();
const pairKey = (email: string, client: string) => `${addressKey(email)}|${client}`;

/** Resolves with the refusal when a limiter said no; rethrows store errors. */
async function take(limiter: RateLimiterAbstract, key: string): Promise<RateLimiterRes | null> {
  try {
    await limiter.consume(key);
    return null;
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return rejection;
    throw rejection;
  }
}

const deviceKey = (email: string, device: string) => `${addressKey(email)}|${device}`;

const signInRefusal = (refusal: RateLimiterRes) => {
  const retry = retrySeconds(refusal);
  return new RateLimitedError(`Too many failed sign-in attempts. Please try again in ${inMinutes(retry)}.`, retry);
};

export interface PasswordAttempt {
  /** The password was right: the consecutive failures are forgotten, the other points refunded. */
  succeeded(): Promise<void>;
  /** The password was wrong: the points taken stay counted. */
  failed(): Promise<void>;
}

function settledOnce(onSuccess: () => Promise<unknown>): PasswordAttempt {
  let settled = false;
  return {
    async succeeded() {
      if (settled) return;
      settled = true;
      await onSuccess();
    },
    async failed() {
      settled = true;
    },
  };
}

/**
 * Takes the points for one password check before the password is evaluated. `device`: the
 * id of a device cookie the request carries for this address (already checked), whose
 * attempts count against that device alone. Throws RateLimitedError (→ 429) when a counter
 * is over its limit; the points taken by the counters before it go back, since nothing is
 * evaluated.
 */
export async function beginPasswordAttempt(email: string, client: string, device?: string): Promise<PasswordAttempt> {
  const l = await current();
  if (device !== undefined) {
    const key = deviceKey(email, device);
    const refusal = await take(l.consecutiveFailsPerDevice, key);
    if (refusal) throw signInRefusal(refusal);
    return settledOnce(() => l.consecutiveFailsPerDevice.delete(key));
  }
  const pair = pairKey(email, client);
  const address = addressKey(email);
  const steps: [RateLimiterAbstract, string][] = [
    [l.consecutiveFails, pair],
    [l.failsPerClient, client],
    [l.failsPerAccount, address],
  ];
  for (let i = 0; i < steps.length; i++) {
    const refusal = await take(...steps[i]);
    if (refusal) {
      await Promise.all(steps.slice(0, i).map(([limiter, key]) => limiter.reward(key, 1)));
      throw signInRefusal(refusal);
    }
  }
  return settledOnce(() =>
    Promise.all([l.consecutiveFails.delete(pair), l.failsPerClient.reward(client, 1), l.failsPerAccount.reward(address, 1)]),
  );
}

/**
 * After a password reset (the mailbox's owner proved it): the account's count for unknown
 * clients starts afresh, and so do this client's and this device's consecutive failures.
 */
export async function clearFailedSignIns(email: string, client?: string, device?: string): Promise<void> {
  const l = await current();
  await Promise.all([
    l.failsPerAccount.delete(addressKey(email)),
    client === undefined ? Promise.resolve(false) : l.consecutiveFails.delete(pairKey(email, client)),
    device === undefined ? Promise.resolve(false) : l.consecutiveFailsPerDevice.delete(deviceKey(email, device)),
  ]);
}

// ---------------------------------------------------------------- account e-mails

/** Counts one account e-mail (verification, reset, resend) against the (address, client) pair, the client and the address. */
export async function consumeMailAllowance(email: string, client: string): Promise<void> {
  const l = await current();
  const steps: [RateLimiterAbstract, string][] = [
    [l.mailsPerAddressAndClient, pairKey(email, client)],
    [l.mailsPerClient, client],
    [l.mailsPerAddress, addressKey(email)],
  ];
  for (let i = 0; i < steps.length; i++) {
    const refusal = await take(...steps[i]);
    if (refusal) {
      // No mail goes out: the points taken by the earlier steps go back.
      await Promise.all(steps.slice(0, i).map(([limiter, key]) => limiter.reward(key, 1)));
      const retry = retrySeconds(refusal);
      throw new RateLimitedError(`Too many e-mails requested. Please try again in ${inMinutes(retry)}.`, retry);
    }
  }
}

// ---------------------------------------------------------------- chat replies

/** Counts one chat reply a user asks for; the 21st within a minute is refused. */
export async function consumeChatAllowance(userId: string): Promise<void> {
  const refusal = await take((await current()).chatReplies, userId);
  if (refusal) {
    const retry = retrySeconds(refusal);
    throw new RateLimitedError(
      `Too many messages: at most ${CHAT_MESSAGES_PER_MINUTE} a minute. Please try again in ${retry} second${retry === 1 ? "" : "s"}.`,
      retry,
    );
  }
}

// ---------------------------------------------------------------- generation quotas

export type GenerationQuota = "images" | "backstories" | "cardImports" | "testRuns" | "loreCompiles" | "suggestions";

/** A quota as configured: the number in LIMITS times GENERATION_QUOTA_MULTIPLIER. */
function quota(points: number): number {
  return points * getEnv().GENERATION_QUOTA_MULTIPLIER;
}

const HOURLY: Record<Exclude<GenerationQuota, "images">, number> = {
  backstories: LIMITS.backstoriesPerUser.points,
  cardImports: LIMITS.cardImportsPerUser.points,
  testRuns: LIMITS.testRunsPerUser.points,
  loreCompiles: LIMITS.loreCompilesPerUser.points,
  suggestions: LIMITS.suggestionsPerUser.points,
};

/** How many of `kind` one creator may start in an hour on their plan. */
export function generationQuota(kind: GenerationQuota, premium: boolean): number {
  if (kind === "images") return quota(LIMITS.imageGenerationsPerUser.points[premium ? "premium" : "free"]);
  return quota(HOURLY[kind]);
}

function quotaMessage(kind: GenerationQuota, allowed: number, premium: boolean, retry: number): string {
  const again = `Please try again in ${inMinutes(retry)}.`;
  switch (kind) {
    case "images":
      return `You can generate reference images ${allowed} times an hour on the ${premium ? "Premium" : "Free"} plan. ${again}`;
    case "backstories":
      return `You can generate ${allowed} backstories an hour. ${again}`;
    case "testRuns":
      return `You can run persona tests ${allowed} times an hour. ${again}`;
    case "loreCompiles":
      return `You can build a lorebook from the backstory ${allowed} times an hour. ${again}`;
    case "suggestions":
      return `You can ask for suggested tests ${allowed} times an hour. ${again}`;
    case "cardImports":
      return `You can import ${allowed} character cards an hour. ${again}`;
  }
}

/** A point taken from a creator's quota. */
export interface GenerationPoint {
  /** The request was refused before its work started: the point goes back (once). */
  giveBack(): Promise<void>;
}

/**
 * Takes one point of a creator's generation quota, before the work starts. Throws
 * RateLimitedError (→ 429) when the quota of the hour is used up.
 */
export async function consumeGenerationAllowance(kind: GenerationQuota, userId: string, premium: boolean): Promise<GenerationPoint> {
  const l = await current();
  const limiter = {
    images: l.imageGenerations,
    backstories: l.backstories,
    cardImports: l.cardImports,
    testRuns: l.testRuns,
    loreCompiles: l.loreCompiles,
    suggestions: l.suggestions,
  }[kind];
  const allowed = generationQuota(kind, premium);
  let refusal: RateLimiterRes | null;
  try {
    const taken = await limiter.consume(userId);
    // The shared image counter is as large as Premium's quota: a Free creator's stops sooner.
    refusal = taken.consumedPoints > allowed ? taken : null;
    if (refusal) await limiter.reward(userId, 1);
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    refusal = rejection;
  }
  if (refusal) {
    const retry = retrySeconds(refusal);
    throw new RateLimitedError(quotaMessage(kind, allowed, premium, retry), retry);
  }
  let given = false;
  return {
    async giveBack() {
      if (given) return;
      given = true;
      await limiter.reward(userId, 1);
    },
  };
}

/** The most model calls a creator may make in a day on their plan (with a model key). */
export function modelCallCeiling(premium: boolean): number {
  return quota(LIMITS.modelCallsPerUser.points[premium ? "premium" : "free"]);
}

/**
 * Takes `calls` of a creator's daily model calls before the calls are made. Throws
 * RateLimitedError (→ 429) when they would pass the plan's ceiling; nothing is taken then.
 */
export async function consumeModelCalls(userId: string, premium: boolean, calls: number): Promise<GenerationPoint> {
  const none: GenerationPoint = { giveBack: async () => {} };
  if (calls <= 0) return none;
  const limiter = (await current()).modelCalls;
  const allowed = modelCallCeiling(premium);
  let refusal: RateLimiterRes | null;
  try {
    const taken = await limiter.consume(userId, calls);
    refusal = taken.consumedPoints > allowed ? taken : null;
    if (refusal) await limiter.reward(userId, calls);
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    // A refused consume keeps its points counted in the store: they go back.
    await limiter.reward(userId, calls);
    refusal = rejection;
  }
  if (refusal) {
    const retry = retrySeconds(refusal);
    throw new RateLimitedError(
      `You have used today's ${allowed.toLocaleString("en-US")} model calls on the ${premium ? "Premium" : "Free"} plan. Please try again in ${inHoursOrMinutes(retry)}.`,
      retry,
    );
  }
  let given = false;
  return {
    async giveBack() {
      if (given) return;
      given = true;
      await limiter.reward(userId, calls);
    },
  };
}

/** A generation's slot among the creator's generations running at once. */
export interface RunningSlot {
  release(): Promise<void>;
}

/**
 * Takes one of the creator's slots for a generation that runs during the request
 * (LIMITS.generationsRunningPerUser). Throws RateLimitedError (→ 429, Retry-After a few seconds)
 * when all are taken.
 */
export async function takeRunningSlot(userId: string): Promise<RunningSlot> {
  const limiter = (await current()).running;
  const allowed = LIMITS.generationsRunningPerUser.points;
  const refusal = await take(limiter, userId);
  if (refusal) {
    // The refused point is counted in the store too: it goes back, or the slots would shrink.
    await limiter.reward(userId, 1);
    throw new RateLimitedError(`You already have ${allowed} generations running. Please wait for one to finish.`, 5);
  }
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      // The slot's window may have ended meanwhile (a generation longer than its duration): then
      // nothing is left to give back, and a reward would give the next window a slot too many.
      const now = await limiter.get(userId);
      if (now && now.consumedPoints > 0) await limiter.reward(userId, 1);
    },
  };
}

/** Tests start each case with clean counters (in memory, or the table emptied). */
export async function resetRateLimits(): Promise<void> {
  const previous = limiters ? await limiters.catch(() => undefined) : undefined;
  limiters = undefined;
  const kind = forcedStore ?? (previous?.kind as StoreKind | undefined);
  if (kind === "database" || (!kind && (await database()).kind === "postgres")) {
    await withServiceRole("rate limits: reset for tests", (tx) => tx.execute(sql`delete from private.rate_limits`));
  }
}
