// The kept reads' declarations against the migrated schema (PGlite in npm test, PostgreSQL 15
// with DATABASE_URL), and how a process hears a database server's change notices. That every
// write to a declared table shows in the next read is tested by writing, in
// app/services/fresh-after-writes.server.test.ts.
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

import { createCreator, installTestDatabase } from "../../../tests/support/test-database";

import { CHANGE_CHANNEL, changeNoticeOwner, ServerFeed } from "./change-notices.server";
import { openPostgres } from "./client.server";
import { closeDatabase, useDatabase, withUser } from "./db.server";
import { isKept, KEPT_READS, keptOrRead } from "./kept-reads.server";

let handle: Awaited<ReturnType<typeof installTestDatabase>>;
beforeAll(async () => {
  handle = await installTestDatabase();
});
afterAll(async () => {
  await closeDatabase();
});

// pg_trigger.tgtype: ROW 1, BEFORE 2, INSERT 4, DELETE 8, UPDATE 16, INSTEAD 64.
const INSERT = 4;
const DELETE = 8;
const UPDATE = 16;

/** The events after which a row trigger calls the notifying function on `table`. */
async function notifiedEvents(table: string): Promise<string[]> {
  const rows = await handle.raw.rows<{ tgtype: number }>(
    `select t.tgtype from pg_trigger t
      where t.tgrelid = $1::regclass and not t.tgisinternal and t.tgenabled <> 'D'
        and t.tgfoid = 'private.notify_account_changed()'::regprocedure`,
    [table],
  );
  const after = rows.map((row) => Number(row.tgtype)).filter((type) => (type & 1) === 1 && (type & (2 | 64)) === 0);
  const events = after.reduce((all, type) => all | type, 0);
  return [...(events & INSERT ? ["insert"] : []), ...(events & UPDATE ? ["update"] : []), ...(events & DELETE ? ["delete"] : [])];
}

describe("every kept read depends only on tables whose writes notify", () => {
  for (const declaration of Object.values(KEPT_READS)) {
    it(`${declaration.name}: ${declaration.tables.join(", ")}`, async () => {
      for (const table of declaration.tables) {
        expect({ table, events: await notifiedEvents(table) }).toEqual({ table, events: ["insert", "update", "delete"] });
      }
    });
  }

  it("the check sees a table without the triggers (Stripe's events are never kept)", async () => {
    expect(await notifiedEvents("public.stripe_events")).toEqual([]);
  });

  it("the notifying function sends on the channel the app listens to, and says it to the writing connection", async () => {
    const [fn] = await handle.raw.rows<{ prosrc: string }>(
      `select prosrc from pg_proc where oid = 'private.notify_account_changed()'::regprocedure`,
    );
    expect(fn?.prosrc).toContain(`pg_notify('${CHANGE_CHANNEL}'`);
    expect(fn?.prosrc).toContain(`raise notice '${CHANGE_CHANNEL} %'`);
    expect(changeNoticeOwner(`${CHANGE_CHANNEL} 6a1f0c52-8d07-4f43-9d2a-3c1b4f0e5a71`)).toBe("6a1f0c52-8d07-4f43-9d2a-3c1b4f0e5a71");
    expect(changeNoticeOwner(`${CHANGE_CHANNEL} somebody`)).toBeNull();
  });

  it("names, limits and tables are declared once each", () => {
    const names = Object.values(KEPT_READS).map((d) => d.name);
    expect(new Set(names).size).toBe(names.length);
    for (const declaration of Object.values(KEPT_READS)) {
      expect(declaration.limit).toBeGreaterThan(0);
      expect(declaration.tables.length).toBeGreaterThan(0);
    }
  });
});

/** A stand-in for postgres-js: `listen` as documented, and notices delivered (or not) like a server's. */
function fakeServer(options: { listenFails?: boolean; delivers?: boolean } = {}) {
  let onNotify: (payload: string) => void = () => {};
  let onListen: () => void = () => {};
  let delivers = options.delivers ?? true;
  const sql = async (_strings: TemplateStringsArray, ...values: unknown[]) => {
    const payload = String(values[1]);
    if (delivers) setImmediate(() => onNotify(payload));
    return [];
  };
  const client = Object.assign(sql, {
    listen: async (_channel: string, notify: (payload: string) => void, listening: () => void) => {
      if (options.listenFails) throw new Error("LISTEN is not supported in transaction mode");
      onNotify = notify;
      onListen = listening;
      listening();
      return { state: {} };
    },
  }) as unknown as postgres.Sql;
  return {
    client,
    notify: (payload: string) => onNotify(payload),
    reconnect: () => onListen(),
    deliver: (on: boolean) => void (delivers = on),
  };
}

const quick = { markerTimeoutMs: 50, heartbeatMs: 60_000 };

describe("a database server's notices, as a process hears them", () => {
  it("a LISTEN that fails: nothing is ever kept, and the log says so once", async () => {
    const lines: string[] = [];
    const feed = new ServerFeed(fakeServer({ listenFails: true }).client, (line) => lines.push(line), quick);
    await feed.start();
    expect(feed.hearing).toBe(false);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/LISTEN failed: LISTEN is not supported in transaction mode.*every request reads the database/);
    feed.close();
  });

  it("a LISTEN that succeeds but hears nothing (a transaction-mode pooler): nothing is kept, one log line", async () => {
    const lines: string[] = [];
    const feed = new ServerFeed(fakeServer({ delivers: false }).client, (line) => lines.push(line), quick);
    await feed.start();
    expect(feed.hearing).toBe(false);
    await feed.settle();
    expect(lines).toEqual([expect.stringMatching(/not heard within 50 ms: nothing is kept/)]);
    feed.close();
  });

  it("a user's notice reaches the watchers; a reconnection and a lost marker forget everything and stop keeping", async () => {
    const server = fakeServer();
    const lines: string[] = [];
    const feed = new ServerFeed(server.client, (line) => lines.push(line), { markerTimeoutMs: 50, heartbeatMs: 100 });
    const told: (string | null)[] = [];
    feed.watch((userId) => told.push(userId));
    await feed.start();
    expect(feed.hearing).toBe(true);
    told.length = 0;

    server.notify("6f1c1c52-8c59-4d5e-9d4e-0d6f0f8f0a11");
    expect(told).toEqual(["6f1c1c52-8c59-4d5e-9d4e-0d6f0f8f0a11"]);

    // The listening connection came back: notices may have been missed meanwhile.
    server.reconnect();
    expect(told.at(-1)).toBeNull();
    expect(feed.hearing).toBe(false);
    await vi.waitFor(() => expect(feed.hearing).toBe(true));

    // A write's marker that does not come back: stop keeping until notices are heard again.
    server.deliver(false);
    const marker = await feed.beforeCommit(async () => [{}]);
    expect(marker).not.toBeNull();
    await feed.afterCommit(marker!);
    expect(feed.hearing).toBe(false);
    expect(told.at(-1)).toBeNull();
    expect(lines.at(-1)).toMatch(/not heard/);
    // Heard again (the next check): keeping resumes, from nothing.
    server.deliver(true);
    await vi.waitFor(() => expect(feed.hearing).toBe(true));
    expect(lines.at(-1)).toMatch(/change notices heard/);
    feed.close();
  });

  it("a transaction that wrote nothing sends no marker", async () => {
    const feed = new ServerFeed(fakeServer().client, () => {}, quick);
    await feed.start();
    expect(await feed.beforeCommit(async () => [])).toBeNull();
    feed.close();
  });
});

describe.runIf(process.env.DATABASE_URL)("on a database server", () => {
  it("another process's write (another connection) is heard, and what was kept for that creator goes", async () => {
    const user = await createCreator(handle);
    const read = () => keptOrRead(KEPT_READS.dashboards, [user.id], async () => withUser(user.id, async () => ({ at: Date.now() })));
    const first = await read();
    expect(await read()).toBe(first);
    expect(await isKept(KEPT_READS.dashboards, [user.id])).toBe(true);
    // Another process: its own connection, its own write.
    const [row] = await handle.raw.rows<{ current_database: string }>("select current_database()");
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = `/${row!.current_database}`;
    const other = postgres(url.toString(), { max: 1, onnotice: () => {} });
    try {
      await other`update public.profiles set first_name = 'Elsewhere' where id = ${user.id}`;
    } finally {
      await other.end();
    }
    await vi.waitFor(async () => expect(await isKept(KEPT_READS.dashboards, [user.id])).toBe(false));
  });

  it("where the notices are not heard, nothing is kept and every read asks the database", async () => {
    const [row] = await handle.raw.rows<{ current_database: string }>("select current_database()");
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = `/${row!.current_database}`;
    const deaf = await openPostgres(url.toString(), { max: 2, listen: false });
    useDatabase(deaf);
    try {
      const user = await createCreator(deaf);
      let asked = 0;
      const read = () => keptOrRead(KEPT_READS.ownedCounts, [user.id], async () => ++asked);
      expect([await read(), await read()]).toEqual([1, 2]);
      expect(await isKept(KEPT_READS.ownedCounts, [user.id])).toBe(false);
    } finally {
      await deaf.close();
      useDatabase(handle);
    }
  });

  it("closing a pool waits for the queue's statements in flight and leaves no connection behind", async () => {
    const [row] = await handle.raw.rows<{ current_database: string }>("select current_database()");
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = `/${row!.current_database}`;
    url.searchParams.set("application_name", "pf-closing");
    const pool = await openPostgres(url.toString(), { max: 1, listen: false });
    const backends = async () =>
      (await handle.raw.rows<{ pid: number }>("select pid from pg_stat_activity where application_name = 'pf-closing'")).length;
    expect(await backends()).toBe(0);
    // One statement runs; the next waits for the pool's only connection while the pool closes.
    const running = pool.jobSql.executeSql("select pg_sleep(0.3), 'pf-closing'", []);
    const waiting = pool.jobSql.executeSql("select 'pf-closing' as queued where $1::int = 1", [1]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await backends()).toBe(1);
    await pool.close();
    await expect(running).resolves.toBeDefined();
    await expect(waiting).resolves.toEqual({ rows: [{ queued: "pf-closing" }] });
    await expect(pool.jobSql.executeSql("select 1", [])).rejects.toThrow("The database is closed.");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await backends()).toBe(0);
  });
});
