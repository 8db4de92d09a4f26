// The embedded database's thread, closed when idle and opened again by the next statement:
// what was committed is there after a reopen, a transaction in progress keeps it open, and a
// statement that arrives while it closes waits and runs on a new thread.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { PGLITE_OPTIONS } from "./client.server";
import { PgliteOnDemand } from "./pglite-on-demand.server";
import { PgliteThread } from "./pglite-thread.server";

let dir: string;
let opened = 0;
let released = 0;
let db: PgliteOnDemand;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "pglite-on-demand-"));
  const open = async () => {
    opened++;
    return PgliteThread.open({ dataDir: dir, startParams: PGLITE_OPTIONS.startParams, extensions: [] });
  };
  // No idle timer here: the test releases the thread itself, so nothing depends on time.
  db = new PgliteOnDemand(open, 0, { released: () => released++ });
  await db.exec("create table notes (id int primary key, body text not null)");
}, 60_000);

afterAll(async () => {
  await db?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("PGlite thread opened on demand", () => {
  test("a released thread opens again on the next statement, with everything committed before", async () => {
    await db.query("insert into notes (id, body) values ($1, $2)", [1, "kept"]);
    await db.transaction(async (tx) => {
      await tx.query("insert into notes (id, body) values ($1, $2)", [2, "kept too"]);
    });
    await db.release();
    expect(db.isOpen).toBe(false);
    expect(await db.memory()).toBeNull();
    const before = opened;
    const rows = await db.query<{ body: string }>("select body from notes order by id");
    expect(rows.rows.map((row) => row.body)).toEqual(["kept", "kept too"]);
    expect(opened).toBe(before + 1);
    expect(await db.memory()).toMatchObject({ wasmMemoryBytes: expect.any(Number) });
  }, 60_000);

  test("a transaction in progress keeps the thread open: a release asked meanwhile leaves it open", async () => {
    let inside!: () => void;
    const entered = new Promise<void>((resolve) => (inside = resolve));
    let finish!: () => void;
    const held = new Promise<void>((resolve) => (finish = resolve));
    const transaction = db.transaction(async (tx) => {
      await tx.query("insert into notes (id, body) values ($1, $2)", [3, "during"]);
      inside();
      await held;
    });
    await entered;
    await db.release();
    expect(db.isOpen).toBe(true);
    finish();
    await transaction;
    const rows = await db.query<{ n: number }>("select count(*)::int as n from notes");
    expect(rows.rows[0].n).toBe(3);
  }, 60_000);

  test("a statement that arrives while the thread closes runs on a new one", async () => {
    const releasedBefore = released;
    const openedBefore = opened;
    const closing = db.release();
    const rows = await db.query<{ n: number }>("select count(*)::int as n from notes");
    await closing;
    expect(rows.rows[0].n).toBe(3);
    expect(released).toBe(releasedBefore + 1);
    expect(opened).toBe(openedBefore + 1);
    expect(db.isOpen).toBe(true);
  }, 60_000);
});
