// Opens the database (PGlite in DATA_DIR, or a Postgres server at DATABASE_URL) and
// brings its schema up to date: the auth-compat bootstrap, then supabase/migrations.
import { readdirSync, readFileSync, writeFileSync, rmSync, mkdirSync } from "node:fs";
import path from "node:path";
import v8 from "node:v8";

import { PGlite } from "@electric-sql/pglite";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import postgres from "postgres";

import { changeNoticeOwner, embeddedFeed, ServerFeed, Watchers, type ChangeFeed } from "./change-notices.server";
import { EmbeddedServer, type DatabaseThreadMemory } from "./pglite-on-demand.server";
import * as schema from "./schema.server";

export type AppDatabase = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Tx = Parameters<Parameters<AppDatabase["transaction"]>[0]>[0];

export interface RawSql {
  exec(sqlText: string): Promise<void>;
  rows<T = Record<string, unknown>>(sqlText: string, params?: unknown[]): Promise<T[]>;
}

export interface JobSql {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

export interface DatabaseHandle {
  kind: "pglite" | "postgres";
  db: AppDatabase;
  /** Raw SQL outside any door: migrations and test set-up only, never services. */
  raw: RawSql;
  rawTransaction<T>(fn: (sql: RawSql) => Promise<T>): Promise<T>;
  /**
   * The job queue's connection to the database (pg-boss's documented `db` option: `executeSql`
   * with `$n` parameters; without parameters, possibly several statements with their own BEGIN
   * and COMMIT, as its maintenance and installer send). Outside any door: only
   * app/infra/jobs/queue.server.ts uses it.
   */
  jobSql: JobSql;
  close(): Promise<void>;
  /** The embedded database served in this process, as PGlite's dump (tests copy a migrated database with it). */
  dump?(): Promise<Blob>;
  /** The embedded database thread's memory; null while it is closed. */
  memory?(): Promise<DatabaseThreadMemory | null>;
  /**
   * The database's change notices as this process hears them (change-notices.server.ts): what
   * app/infra/db/kept-reads.server.ts keeps is forgotten by them, and kept only while they are heard.
   */
  changes: ChangeFeed;
}

const projectRoot = () => process.env.APP_ROOT ?? process.cwd();
export const migrationsDir = () => path.join(projectRoot(), "supabase", "migrations");
// What Supabase provides and a plain Postgres lacks, applied in this order before the migrations.
const bootstrapFiles = () =>
  ["auth-compat.sql", "storage-compat.sql"].map((file) => path.join(projectRoot(), "supabase", "bootstrap", file));

export function listMigrations(): { version: string; name: string; file: string }[] {
  return readdirSync(migrationsDir())
    .map((file) => /^(\d{14})_(.+)\.sql$/.exec(file))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ version: m[1], name: m[2], file: path.join(migrationsDir(), m[0]) }))
    .sort((a, b) => a.version.localeCompare(b.version));
}

export class DataDirInUseError extends Error {
  override name = "DataDirInUseError";
}

/** When a process started, from /proc (Linux); undefined where that cannot be read. */
function processStartTime(pid: number): string | undefined {
  try {
    // Field 22 of /proc/PID/stat, counted after the command name (which may hold spaces).
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, it is just not ours to signal.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

interface LockOwner {
  pid: number;
  started?: string;
}

function readLock(file: string): LockOwner | undefined {
  try {
    const text = readFileSync(file, "utf8").trim();
    // Older locks hold the bare PID.
    const owner = (text.startsWith("{") ? JSON.parse(text) : { pid: Number(text) }) as LockOwner;
    return Number.isInteger(owner.pid) && owner.pid > 0 ? owner : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The lock's owner is still running: its PID is alive and, where /proc can tell, it is the
 * same process (same start time; for an older lock without one, at least a Node process),
 * not an unrelated process that was given the PID later.
 */
function ownerRunning(owner: LockOwner): boolean {
  if (owner.pid === process.pid || !isAlive(owner.pid)) return false;
  if (owner.started !== undefined) {
    const started = processStartTime(owner.pid);
    return started === undefined || started === owner.started;
  }
  try {
    return /\bnode\b/.test(readFileSync(`/proc/${owner.pid}/cmdline`, "utf8").replaceAll("\0", " "));
  } catch {
    return true;
  }
}

/**
 * Takes the data directory's lock, or says who holds it. A lock left by a process that
 * ended (a crash, kill -9), or whose PID now belongs to an unrelated process, is taken
 * over; the lock file is created exclusively, so two servers starting at once cannot both win.
 */
export function lockPgliteDir(dir: string): () => void {
  const lock = path.join(dir, "postmaster.personaforge.lock");
  const mine = JSON.stringify({ pid: process.pid, started: processStartTime(process.pid) });
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(lock, mine, { flag: "wx" });
      return () => {
        if (readLock(lock)?.pid === process.pid) rmSync(lock, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const owner = readLock(lock);
    if (owner && ownerRunning(owner)) {
      throw new DataDirInUseError(`The database in "${dir}" is in use by process ${owner.pid}. Stop it or choose another DATA_DIR.`);
    }
    rmSync(lock, { force: true });
  }
  throw new DataDirInUseError(`The database in "${dir}" is being opened by another process. Stop it or choose another DATA_DIR.`);
}

/**
 * PGlite's settings for a small server (docs/decisions/012-a-small-server.md). Its defaults are a desktop Postgres's:
 * 128 MB of shared buffers, all of it in the WebAssembly heap, which only ever grows. The
 * app's working set (a creator's personas, their versions, the sessions) fits many times in
 * 16 MB; what is not cached is read from the data directory's files, which the operating
 * system caches anyway. Durability is unchanged (every commit is written to the WAL files as
 * before). pg_trgm (pglite-server.mjs) serves the library's search (migration 20261123060100).
 */
export const PGLITE_OPTIONS = {
  // Start parameters, not postgresql.conf: PGlite would overwrite the data directory's file.
  startParams: [
    ...PGlite.defaultStartParams,
    ...["shared_buffers=16MB", "wal_buffers=512kB", "temp_buffers=2MB", "maintenance_work_mem=16MB"].flatMap((setting) => ["-c", setting]),
  ],
};

/**
 * With `liftoffOnly`, PGlite's 9 MB of WebAssembly is compiled by V8's baseline compiler
 * (Liftoff) alone, never by the optimising tier (TurboFan): 60–70 MB less in the process (idle
 * after start 118–126 MB instead of about 185), but PGlite's statements run about 20 % slower
 * and a signed-in request costs more CPU, so it is a choice (PGLITE_WASM_LIFTOFF=1), not the
 * default (decision 012). V8's flags are the process's and only PGlite runs WebAssembly here;
 * V8 keeps the first choice for later compilations of the same module, so it is made once.
 */
function chooseWasmCompiler(liftoffOnly: boolean): void {
  if (liftoffOnly) v8.setFlagsFromString("--liftoff-only");
}

/**
 * Opens the embedded database: PGlite in memory without a directory (tests), else in
 * `dataDir`/pgdata under the directory's lock, served on a unix socket (pglite-on-demand.server.ts)
 * and reached through postgres.js, the driver of PostgreSQL and Supabase
 * (docs/decisions/032-one-database-path.md). With `thread`, PGlite runs in a worker thread, so that
 * queries and page renders use both cores; the server does that, tests need not. With
 * `idleReleaseMs`, postgres.js closes its connection after that long without a statement and
 * the database is closed with it; the next statement opens it again. The directory stays locked.
 *
 * The change notices come with the answer to the statement that wrote (a trigger's `raise
 * notice`, postgres.js's `onnotice`), before that statement's promise resolves: one connection,
 * so a read asked after it waits for the write's COMMIT.
 */
export async function openPglite(
  dataDir?: string,
  options: {
    thread?: boolean;
    idleReleaseMs?: number;
    liftoffOnly?: boolean;
    openLater?: boolean;
    log?: (line: string) => void;
    /** In memory: start as this dump of a database (DatabaseHandle.dump), as tests do. */
    loadDataDir?: Blob;
  } = {},
): Promise<DatabaseHandle> {
  let unlock = () => {};
  let dir: string | undefined;
  if (dataDir) {
    dir = path.join(dataDir, "pgdata");
    mkdirSync(dir, { recursive: true });
    unlock = lockPgliteDir(dir);
  }
  const watchers = new Watchers();
  const log = options.log ?? (() => {});
  if (options.thread) chooseWasmCompiler(options.liftoffOnly === true);
  const idleReleaseMs = dir ? (options.idleReleaseMs ?? 0) : 0;
  let server: EmbeddedServer;
  try {
    server = new EmbeddedServer({
      dataDir: dir,
      loadDataDir: options.loadDataDir,
      startParams: PGLITE_OPTIONS.startParams,
      workerFile: options.thread ? path.join(projectRoot(), "app", "infra", "db", "pglite-server.worker.mjs") : undefined,
      releaseWhenIdle: idleReleaseMs > 0,
      events: {
        opened: (ms) => {
          // Opened again: whatever was kept from before is forgotten.
          watchers.tell(null);
          if (options.thread) log(`database thread opened in ${Math.round(ms)} ms`);
        },
        released: () => log("database thread closed after being idle"),
        failed: (error) => log(`closing the idle database thread failed: ${error instanceof Error ? error.message : String(error)}`),
      },
    });
    // With openLater (the start-up ran elsewhere), the first statement opens the database.
    if (!options.openLater) await server.open();
  } catch (error) {
    unlock();
    throw error;
  }
  // postgres.js's `socket` option is documented in its README ('Custom socket') but not in its types.
  const clientOptions: postgres.Options<Record<string, never>> & { socket: EmbeddedServer["connect"] } = {
    socket: server.connect,
    // PGlite is one session: one connection, on which statements and transactions wait their turn.
    max: 1,
    username: "postgres",
    database: "postgres",
    idle_timeout: idleReleaseMs > 0 ? idleReleaseMs / 1000 : 0,
    max_lifetime: 0,
    onnotice: (notice) => {
      const userId = changeNoticeOwner(notice.message);
      if (userId) watchers.tell(userId);
    },
  };
  const client = postgres(clientOptions);
  return {
    kind: "pglite",
    db: drizzlePostgres(client, { schema }) as unknown as AppDatabase,
    raw: postgresRaw(client),
    rawTransaction: (fn) => client.begin((tx) => fn(postgresRaw(tx))) as Promise<never>,
    jobSql: postgresJobSql(client, { oneConnection: true }),
    close: async () => {
      try {
        await client.end({ timeout: 5 });
        await server.close();
      } finally {
        unlock();
      }
    },
    ...(options.thread ? { memory: async () => (await server.memory()) ?? null } : { dump: () => server.dump() }),
    changes: embeddedFeed(watchers),
  };
}

/**
 * Opens a database server's connection pool and LISTENs for its change notices on a connection
 * of its own (postgres-js `listen`); with `listen: false` (tools) nothing is heard, so nothing is kept.
 */
export async function openPostgres(
  url: string,
  options: { max?: number; listen?: boolean; log?: (line: string) => void } = {},
): Promise<DatabaseHandle> {
  const client = postgres(url, { prepare: false, max: options.max ?? 10, onnotice: () => {} });
  const changes = new ServerFeed(client, options.log ?? (() => {}));
  if (options.listen !== false) await changes.start();
  const raw = postgresRaw(client);
  const state: JobSqlState = { closed: false, inFlight: new Set() };
  return {
    kind: "postgres",
    db: drizzlePostgres(client, { schema }) as unknown as AppDatabase,
    // Outside any door (set-up, tests): a write's notices are heard before the next statement.
    raw: {
      exec: async (text) => {
        await raw.exec(text);
        await changes.settle();
      },
      rows: async <T>(text: string, params?: unknown[]) => {
        const rows = await raw.rows<T>(text, params);
        await changes.settle();
        return rows;
      },
    },
    rawTransaction: async (fn) => {
      const result = await (client.begin((tx) => fn(postgresRaw(tx))) as Promise<never>);
      await changes.settle();
      return result;
    },
    jobSql: postgresJobSql(client, { oneConnection: false, state }),
    close: async () => {
      // A queue statement still waiting for a connection when the pool ends would be given a new
      // one (postgres.js reconnects for a queued query as each connection closes): they end first.
      state.closed = true;
      await Promise.race([Promise.allSettled(state.inFlight), new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
      changes.close();
      await client.end({ timeout: 5 });
    },
    changes,
  };
}

/**
 * A parameter as pg-boss hands it over, in the form its documented driver (node-postgres) sends:
 * an object (a job's data, an error it records) as JSON text, a date as ISO text.
 */
function asJobParameter(value: unknown): unknown {
  if (value === undefined) return null;
  if (value === null || typeof value !== "object" || Array.isArray(value) || value instanceof Uint8Array) return value;
  if (value instanceof Date) return value.toISOString();
  return JSON.stringify(value);
}

/** A pool's queue statements: none starts once the handle closes, and close waits for those in flight. */
interface JobSqlState {
  closed: boolean;
  inFlight: Set<Promise<unknown>>;
}

function postgresJobSql(client: postgres.Sql, { oneConnection, state }: { oneConnection: boolean; state?: JobSqlState }): JobSql {
  const run = statementsOf(client, oneConnection);
  if (!state) return { executeSql: run };
  return {
    executeSql: (text, values) => {
      if (state.closed) return Promise.reject(new Error("The database is closed."));
      const statement = run(text, values);
      state.inFlight.add(statement);
      void statement.finally(() => state.inFlight.delete(statement)).catch(() => {});
      return statement;
    },
  };
}

function statementsOf(client: postgres.Sql, oneConnection: boolean): JobSql["executeSql"] {
  const rowsOf = (result: unknown) => ({ rows: (Array.isArray(result) ? result : []) as Record<string, unknown>[] });
  return async (text, values) => {
    if (values && values.length > 0)
      return rowsOf(await client.unsafe(text, values.map(asJobParameter) as postgres.ParameterOrJSON<never>[]));
    // Statements that open their own transaction need a connection of their own on a pool
    // (postgres.js's `reserve`); PGlite is one connection already.
    if (oneConnection) return rowsOf(await client.unsafe(text));
    const reserved = await client.reserve();
    try {
      return rowsOf(await reserved.unsafe(text));
    } finally {
      reserved.release();
    }
  };
}

function postgresRaw(client: postgres.Sql | postgres.TransactionSql): RawSql {
  return {
    exec: async (text) => {
      await client.unsafe(text);
    },
    rows: async <T>(text: string, params: unknown[] = []) =>
      (await client.unsafe(text, params as postgres.ParameterOrJSON<never>[])) as unknown as T[],
  };
}

/**
 * A database Supabase manages (hosted, `supabase start`, or one built the same way): its
 * auth schema is there, created by GoTrue's own role. The connecting role (`postgres`) is
 * then no superuser and may not create the API roles or grant on auth.users, so the
 * bootstrap must not run; Supabase already provides everything it emulates.
 */
export async function isSupabaseManaged(handle: DatabaseHandle): Promise<boolean> {
  const [row] = await handle.raw.rows<{ managed: boolean }>(
    `select to_regclass('auth.users') is not null
        and exists (select 1 from pg_roles where rolname = 'supabase_auth_admin') as managed`,
  );
  return row?.managed === true;
}

/** The table the Supabase CLI records applied migrations in (it adds more columns; these three are what both write). */
const MIGRATIONS_TABLE = `
  create schema if not exists supabase_migrations;
  create table if not exists supabase_migrations.schema_migrations (version text primary key, statements text[], name text);
`;

/**
 * Applies the auth-compat bootstrap (skipped on a Supabase-managed database), then every
 * migration in supabase/migrations not yet recorded in supabase_migrations.schema_migrations
 * (the Supabase CLI's own table, so `supabase db push` and the app agree on what ran), each in
 * one transaction under an advisory lock so concurrent starters on one server cannot race.
 */
export async function migrate(handle: DatabaseHandle, log: (line: string) => void = () => {}): Promise<string[]> {
  const managed = handle.kind === "postgres" && (await isSupabaseManaged(handle));
  const bootstrap = managed
    ? MIGRATIONS_TABLE
    : bootstrapFiles()
        .map((file) => readFileSync(file, "utf8"))
        .join("\n;\n");
  if (managed) log("Supabase-managed database (auth schema and GoTrue's role present): auth-compat bootstrap skipped");
  await handle.rawTransaction(async (sql) => {
    await sql.exec("select pg_advisory_xact_lock(7405221)");
    await sql.exec(bootstrap);
  });
  const applied: string[] = [];
  for (const migration of listMigrations()) {
    const body = readFileSync(migration.file, "utf8");
    const ran = await handle.rawTransaction(async (sql) => {
      await sql.exec("select pg_advisory_xact_lock(7405221)");
      const done = await sql.rows("select 1 from supabase_migrations.schema_migrations where version = $1", [migration.version]);
      if (done.length > 0) return false;
      await sql.exec(body);
      await sql.rows("insert into supabase_migrations.schema_migrations (version, name) values ($1, $2)", [
        migration.version,
        migration.name,
      ]);
      return true;
    });
    if (ran) {
      applied.push(`${migration.version}_${migration.name}`);
      log(`applied migration ${migration.version}_${migration.name}`);
    }
  }
  return applied;
}
