// PGlite on its own thread behaves like PGlite: results, transactions that commit or roll
// back, database errors with their fields, and transactions that wait for one another.
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { PGLITE_OPTIONS } from "./client.server";
import { PgliteThread } from "./pglite-thread.server";

let db: PgliteThread;
const notices: string[] = [];

beforeAll(async () => {
  db = await PgliteThread.open({
    startParams: PGLITE_OPTIONS.startParams,
    extensions: Object.keys(PGLITE_OPTIONS.extensions),
    listen: { channels: ["pf_test"], onNotification: (channel, payload) => notices.push(`${channel}:${payload}`) },
  });
  await db.exec("create table notes (id int primary key, body text not null, at timestamptz not null default now())");
}, 60_000);

afterAll(async () => {
  await db?.close();
});

describe("PGlite on a worker thread", () => {
  test("queries with parameters, in object and array rows; timestamps kept as text when asked, as drizzle does", async () => {
    await db.query("insert into notes (id, body) values ($1, $2)", [1, "first"]);
    const objects = await db.query<{ id: number; body: string }>("select id, body from notes where id = $1", [1]);
    expect(objects.rows).toEqual([{ id: 1, body: "first" }]);
    const arrays = await db.query("select id, at from notes", [], { rowMode: "array", parsers: { 1184: (value: string) => value } });
    expect(arrays.rows[0]).toEqual([1, expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/)]);
    const parsed = await db.query<{ at: Date }>("select at from notes");
    expect(parsed.rows[0].at).toBeInstanceOf(Date);
  });

  test("a transaction commits what it wrote, a failed one leaves nothing, and the error keeps its database fields", async () => {
    await db.transaction(async (tx) => {
      await tx.query("insert into notes (id, body) values ($1, $2)", [2, "second"]);
    });
    const failure = await db
      .transaction(async (tx) => {
        await tx.query("insert into notes (id, body) values ($1, $2)", [3, "third"]);
        await tx.query("insert into notes (id, body) values ($1, $2)", [1, "duplicate"]);
      })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(failure).toMatchObject({ code: "23505", constraint: "notes_pkey" });
    expect((await db.query("select id from notes order by id")).rows).toEqual([{ id: 1 }, { id: 2 }]);
  });

  test("an error thrown by the caller inside a transaction rolls it back", async () => {
    await expect(
      db.transaction(async (tx) => {
        await tx.query("insert into notes (id, body) values ($1, $2)", [4, "fourth"]);
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    expect((await db.query("select count(*)::int as n from notes where id = 4")).rows).toEqual([{ n: 0 }]);
  });

  test("concurrent transactions and statements wait for each other: no lost update", async () => {
    await db.exec("create table counter (n int not null); insert into counter values (0)");
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2
          ? db.transaction(async (tx) => {
              const [{ n }] = (await tx.query<{ n: number }>("select n from counter")).rows;
              await tx.query("update counter set n = $1", [n + 1]);
            })
          : db.query("update counter set n = n + 1"),
      ),
    );
    expect((await db.query("select n from counter")).rows).toEqual([{ n: 20 }]);
  });

  test("a notice committed by a transaction reaches the main thread before the commit's answer; a rolled-back one never", async () => {
    notices.length = 0;
    const seenAtCommit: string[][] = [];
    await db.transaction(async (tx) => {
      await tx.query("select pg_notify('pf_test', $1)", ["first"]);
      await tx.query("select pg_notify('pf_other', 'unheard')");
      expect(notices).toEqual([]); // not before the commit
    }).then(() => seenAtCommit.push([...notices]));
    expect(seenAtCommit).toEqual([["pf_test:first"]]);
    await db.transaction(async (tx) => {
      await tx.query("select pg_notify('pf_test', 'never')");
      throw new Error("rolled back");
    }).catch(() => {});
    const answered = await db.query("select pg_notify('pf_test', 'alone')").then(() => [...notices]);
    expect(answered).toEqual(["pf_test:first", "pf_test:alone"]);
  });
});
