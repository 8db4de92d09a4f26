// The embedded database served on its socket and reached through postgres.js, as the server
// opens it (a worker thread, a data directory, closed when idle): what was committed is there
// after a reopen, a transaction in progress keeps it open, statements wait their turn on the one
// connection, errors keep their database fields, and a write's change notice is heard before
// the write's statement answers.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { openPglite, type DatabaseHandle } from "./client.server";

let dir: string;
let db: DatabaseHandle;
const lines: string[] = [];
const heard: (string | null)[] = [];
const IDLE_MS = 400;

const closedTimes = () => lines.filter((line) => line.includes("closed after being idle")).length;
const openedTimes = () => lines.filter((line) => line.includes("database thread opened")).length;

async function waitFor(check: () => boolean, limitMs = 10_000) {
  const until = Date.now() + limitMs;
  while (!check()) {
    if (Date.now() > until) throw new Error("waited too long");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "pglite-served-"));
  db = await openPglite(dir, { thread: true, idleReleaseMs: IDLE_MS, log: (line) => lines.push(line) });
  db.changes.watch((userId) => heard.push(userId));
  await db.raw.exec(`
    create table notes (id int primary key, owner uuid not null, body text not null);
    create function say_owner() returns trigger language plpgsql as $$
    begin
      raise notice 'pf_account_changed %', new.owner;
      return null;
    end $$;
    create trigger notes_changed after insert or update on notes for each row execute function say_owner();
    create table counter (n int not null);
    insert into counter values (0);
  `);
}, 60_000);

afterAll(async () => {
  await db?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the embedded database, served on its socket", () => {
  test("a write's change notice names its owner before the write's statement answers; other notices are not change notices", async () => {
    const owner = "6a1f0c52-8d07-4f43-9d2a-3c1b4f0e5a71";
    heard.length = 0;
    await db.raw.rows("insert into notes (id, owner, body) values ($1, $2, $3)", [1, owner, "kept"]);
    expect(heard).toEqual([owner]);
    heard.length = 0;
    await db.raw.exec("do $$ begin raise notice 'something else'; end $$");
    expect(heard).toEqual([]);
  }, 60_000);

  test("a failed statement keeps the database's fields; a failed transaction leaves nothing; the next statement runs", async () => {
    const error = await db.raw
      .rows("insert into notes (id, owner, body) values ($1, $2, $3)", [1, "6a1f0c52-8d07-4f43-9d2a-3c1b4f0e5a71", "again"])
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "23505", constraint_name: "notes_pkey" });
    await expect(
      db.rawTransaction(async (sql) => {
        await sql.rows("insert into notes (id, owner, body) values ($1, $2, $3)", [2, "6a1f0c52-8d07-4f43-9d2a-3c1b4f0e5a71", "lost"]);
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    expect(await db.raw.rows("select id from notes order by id")).toEqual([{ id: 1 }]);
  }, 60_000);

  test("statements and transactions from many callers wait their turn on the one connection: no lost update", async () => {
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2
          ? db.rawTransaction(async (sql) => {
              const [row] = await sql.rows<{ n: number }>("select n from counter");
              await sql.rows("update counter set n = $1", [row.n + 1]);
            })
          : db.raw.rows("update counter set n = n + 1"),
      ),
    );
    expect(await db.raw.rows("select n from counter")).toEqual([{ n: 20 }]);
  }, 60_000);

  test("after the connection's idle time the database thread closes; the next statement opens it with everything committed", async () => {
    await waitFor(() => closedTimes() >= 1);
    expect(await db.memory?.()).toBeNull();
    const opened = openedTimes();
    heard.length = 0;
    expect(await db.raw.rows("select body from notes order by id")).toEqual([{ body: "kept" }]);
    expect(openedTimes()).toBe(opened + 1);
    // Opened again: whatever was kept from before is forgotten.
    expect(heard).toEqual([null]);
    expect(await db.memory?.()).toMatchObject({ heapUsedBytes: expect.any(Number) });
  }, 60_000);

  test("a transaction in progress keeps it open past the idle time", async () => {
    const closed = closedTimes();
    await db.rawTransaction(async (sql) => {
      await sql.rows("update notes set body = $1 where id = 1", ["during"]);
      await new Promise((resolve) => setTimeout(resolve, IDLE_MS * 3));
      await sql.rows("update notes set body = $1 where id = 1", ["after a while"]);
    });
    expect(closedTimes()).toBe(closed);
    expect(await db.raw.rows("select body from notes")).toEqual([{ body: "after a while" }]);
  }, 60_000);
});
