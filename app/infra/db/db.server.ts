// The one door to the data. Every query on behalf of a user runs inside withUser(),
// a transaction that carries the user's JWT claims and the `authenticated` role, so
// the row-level security policies, not application `where` clauses, decide what is
// visible. withServiceRole() is the separately named door for the rare privileged
// paths (the auth adapter, payment webhooks). The raw handle never leaves this module.
// Every door marks its transaction as the app's (`personaforge.door`): work that is queued in the
// database (test runs, image generations) is refused to a client of Supabase's API, which cannot
// set it (supabase/migrations/20261202150000_job_queue.sql).
import { AsyncLocalStorage } from "node:async_hooks";

import { sql, type SQL } from "drizzle-orm";

import type { ChangeFeed } from "./change-notices.server";
import { isSupabaseManaged, openPglite, openPostgres, migrate, type DatabaseHandle, type JobSql, type Tx } from "./client.server";
import { prepareDataDir } from "../setup/data-dir.server";
import { getEnv } from "../setup/env.server";

export type { Tx } from "./client.server";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export class DoorError extends Error {
  override name = "DoorError";
}

const insideDoor = new AsyncLocalStorage<string>();
let handle: Promise<DatabaseHandle> | undefined;
/**
 * The role of the auth-tables door. Supabase grants service_role nothing on auth.users (only
 * GoTrue's role and `postgres` may write there), so on a Supabase-managed database that door
 * stays the connecting role ("none" resets to it): `postgres`, which Supabase makes BYPASSRLS.
 */
let authTablesRole: "service_role" | "none" = "service_role";

async function openFromEnv(): Promise<DatabaseHandle> {
  const env = getEnv();
  // app/server.mjs ran the embedded database's start-up (below) in a process of its own just
  // before this one: the thread is opened by the first statement, as after an idle release.
  const startedElsewhere = !env.DATABASE_URL && env.PGLITE_THREAD !== "0" && process.env.PF_STARTUP_DONE === "1";
  const opened = env.DATABASE_URL
    ? await openPostgres(env.DATABASE_URL, { log: (line) => console.log(`[db] ${line}`) })
    : await openPglite(prepareDataDir(env.DATA_DIR), {
        thread: env.PGLITE_THREAD !== "0",
        idleReleaseMs: (env.PGLITE_IDLE_SECONDS ?? DEFAULT_PGLITE_IDLE_SECONDS) * 1000,
        liftoffOnly: env.PGLITE_WASM_LIFTOFF === "1",
        openLater: startedElsewhere,
        log: (line) => console.log(`[db] ${line}`),
      });
  if (startedElsewhere) return opened;
  // On Supabase the CLI applies supabase/migrations; the app does it on PGlite and plain Postgres.
  if (!env.SUPABASE_URL) await migrate(opened, (line) => console.log(`[db] ${line}`));
  // PGlite runs no autovacuum: without this its planner would keep the statistics of the day
  // the tables were created (a creator's 2,000 personas planned as a handful, read in full and
  // sorted for a page of 12). Sampled, so it stays well under a second (decision 014).
  if (opened.kind === "pglite") await opened.raw.exec("analyze");
  authTablesRole = opened.kind === "postgres" && (await isSupabaseManaged(opened)) ? "none" : "service_role";
  return opened;
}

/**
 * Seconds without a statement before the embedded database's thread is closed (decision 012):
 * reopening costs a creator about half a second once; an open thread holds 120–250 MB.
 */
const DEFAULT_PGLITE_IDLE_SECONDS = 60;

/** Opens (once) and migrates the configured database. Called at server start. */
export function database(): Promise<DatabaseHandle> {
  if (insideDoor.getStore()) {
    throw new DoorError(
      `The database handle was used inside ${insideDoor.getStore()}: use the transaction the door gave you (on PGlite this would hang, on Postgres it would bypass row-level security).`,
    );
  }
  handle ??= openFromEnv().catch((error) => {
    handle = undefined;
    throw error;
  });
  return handle;
}

/**
 * Runs `fn` outside any door: for work a change notice starts (it may be heard while the writing
 * transaction's door is still open, on PGlite with the answer to the statement that wrote), which opens doors of its own.
 */
export function outsideDoor<T>(fn: () => T): T {
  return insideDoor.exit(fn);
}

/** Tests and tools install their own database (a fresh PGlite, or a throwaway server database). */
export function useDatabase(next: DatabaseHandle | undefined): void {
  handle = next ? Promise.resolve(next) : undefined;
  authTablesRole = "service_role";
  if (next?.kind === "postgres") {
    handle = isSupabaseManaged(next).then((managed) => {
      authTablesRole = managed ? "none" : "service_role";
      return next;
    });
  }
}

/** The embedded database thread's memory (null while it is closed; undefined without such a thread), for the server's metrics. */
export async function databaseMemory() {
  const current = await handle?.catch(() => undefined);
  if (!current?.memory) return undefined;
  return current.memory();
}

export async function closeDatabase(): Promise<void> {
  const current = handle;
  handle = undefined;
  if (current) await (await current).close();
}

async function enter<T>(door: string, setup: (tx: Tx) => Promise<void>, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const { db, changes } = await database();
  // On a database server, while its notices are heard: a transaction that wrote waits, after
  // its commit, until this process has heard that write's notices (db/change-notices.server.ts),
  // so that nothing it kept from before the write answers after it. Whether they are heard is
  // asked at the end, when the marker is sent.
  const sent: { marker: string | null } = { marker: null };
  const result = await insideDoor.run(door, () =>
    db.transaction(async (tx) => {
      await setup(tx);
      const value = await fn(tx);
      if (changes.hearing && changes.beforeCommit) sent.marker = await changes.beforeCommit((query) => tx.execute(query));
      return value;
    }),
  );
  if (sent.marker) await changes.afterCommit?.(sent.marker);
  return result;
}

/** Runs fn as the signed-in user: RLS policies see auth.uid() = userId. */
export function withUser<T>(userId: string, fn: (tx: Tx) => Promise<T>, claims: { email?: string } = {}): Promise<T> {
  if (!UUID.test(userId)) return Promise.reject(new DoorError("withUser needs a user id (uuid)"));
  const jwtClaims = JSON.stringify({ sub: userId, role: "authenticated", aud: "authenticated", email: claims.email });
  return enter(
    `withUser(${userId})`,
    async (tx) => {
      // One round trip, as PostgREST does it: claims and role, local to the transaction.
      await tx.execute(
        sql`select set_config('request.jwt.claims', ${jwtClaims}, true), set_config('request.jwt.claim.sub', ${userId}, true), set_config('personaforge.door', 'app', true), set_config('role', 'authenticated', true)`,
      );
    },
    fn,
  );
}

/** Runs fn as a visitor with no account: every table policy denies anon. */
export function withAnon<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
  return enter(
    "withAnon",
    async (tx) => {
      await tx.execute(
        sql`select set_config('request.jwt.claims', '{"role":"anon"}', true), set_config('personaforge.door', 'app', true), set_config('role', 'anon', true)`,
      );
    },
    fn,
  );
}

/** Privileged door (bypasses RLS). Only for the auth adapter and signed webhooks. */
export function withServiceRole<T>(reason: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return enter(
    `withServiceRole(${reason})`,
    async (tx) => {
      await tx.execute(
        sql`select set_config('request.jwt.claims', '{"role":"service_role"}', true), set_config('personaforge.door', 'app', true), set_config('role', 'service_role', true)`,
      );
    },
    fn,
  );
}

/**
 * One privileged statement, outside any transaction: a single round trip. Only for the
 * session checks: the embedded auth's (a SECURITY DEFINER function that answers for the one
 * session a verified token names) and, on a Supabase-managed database, the read of GoTrue's
 * session with its profile as the connecting role (the auth-tables door's role there);
 * everything else uses a door above.
 */
export async function serviceStatement<T>(reason: string, query: SQL): Promise<T[]> {
  const { db } = await database();
  const result = (await insideDoor.run(`serviceStatement(${reason})`, () => db.execute(query))) as unknown as T[] | { rows: T[] };
  return Array.isArray(result) ? result : result.rows;
}

/**
 * The embedded auth adapter's door to auth.users and auth.sessions (bypasses RLS). It is the
 * service_role door, except on a Supabase-managed database in plain-Postgres mode, where it
 * is the connecting role (see authTablesRole); everything else privileged stays service_role.
 */
export function withAuthTables<T>(reason: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return enter(
    `withAuthTables(${reason})`,
    async (tx) => {
      await tx.execute(
        sql`select set_config('request.jwt.claims', '{"role":"service_role"}', true), set_config('personaforge.door', 'app', true), set_config('role', ${authTablesRole}, true)`,
      );
    },
    fn,
  );
}

/**
 * The job queue's door (app/infra/jobs/queue.server.ts): pg-boss's statements on its own schema,
 * as the connecting role, outside any transaction of a request. Used inside a door it throws,
 * as database() does (on PGlite the statement would wait for the door's own transaction).
 */
export const jobQueueSql: JobSql = {
  executeSql: async (text, values) => (await database()).jobSql.executeSql(text, values),
};

/** Which database the queue is on: the embedded one is served to this process alone. */
export async function databaseKind(): Promise<DatabaseHandle["kind"]> {
  return (await database()).kind;
}

/**
 * The open database's change notices as this process hears them: app/infra/db/kept-reads.server.ts
 * keeps page data by them (docs/decisions/023-kept-reads-declared-and-heard-everywhere.md).
 */
export async function changeFeed(): Promise<ChangeFeed> {
  return (await database()).changes;
}

/** Whether the open database is Supabase-managed (its auth schema is GoTrue's). */
export async function databaseIsSupabaseManaged(): Promise<boolean> {
  await database();
  return authTablesRole === "none";
}
