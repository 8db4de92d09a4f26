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
    await db
      .transaction(async (tx) => {
        await tx.query("select pg_notify('pf_test', $1)", ["first"]);
        await tx.query("select pg_notify('pf_other', 'unheard')");
        expect(notices).toEqual([]); // not before the commit
      })
      .then(() => seenAtCommit.push([...notices]));
    expect(seenAtCommit).toEqual([["pf_test:first"]]);
    await db
      .transaction(async (tx) => {
        await tx.query("select pg_notify('pf_test', 'never')");
        throw new Error("rolled back");
      })
      .catch(() => {});
    const answered = await db.query("select pg_notify('pf_test', 'alone')").then(() => [...notices]);
    expect(answered).toEqual(["pf_test:first", "pf_test:alone"]);
  });

  test("statements in a transaction (prepared once, run by name) answer exactly as PGlite's own query does", async () => {
    await db.exec(
      `create table kinds (id uuid primary key, n bigint, f float8, ok boolean, at timestamptz, doc jsonb, tags text[], raw bytea, note text)`,
    );
    const row = [
      "5f0c2a4e-0000-4000-8000-000000000001",
      9007199254740993n,
      1.5,
      true,
      new Date("2026-11-23T09:00:00.000Z"),
      { a: [1, "ü"] },
      ["x", "y,z", 'q"'],
      new Uint8Array([0, 1, 254]),
      null,
    ];
    const insert = "insert into kinds (id, n, f, ok, at, doc, tags, raw, note) values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning id";
    const select = "select * from kinds where id = $1";
    const direct = await db.query(insert, row);
    await db.query("delete from kinds");
    for (let run = 0; run < 3; run++) {
      const [inserted, selected, arrays, none] = await db.transaction(async (tx) => {
        const a = await tx.query(insert, row);
        const b = await tx.query(select, [row[0]]);
        const c = await tx.query(select, [row[0]], { rowMode: "array", parsers: { 1184: (v: string) => v } });
        const d = await tx.query(select, ["5f0c2a4e-0000-4000-8000-00000000ffff"]);
        await tx.query("delete from kinds");
        return [a, b, c, d];
      });
      expect(inserted).toEqual(direct);
      expect(selected.rows).toEqual([
        { id: row[0], n: 9007199254740993n, f: 1.5, ok: true, at: row[4], doc: row[5], tags: row[6], raw: row[7], note: null },
      ]);
      expect((arrays.rows[0] as unknown[])[4]).toMatch(/^2026-11-23 09:00:00/);
      expect(none.rows).toEqual([]);
    }
    // The insert and the select ran prepared (by name), not through PGlite's own query().
    expect((await db.memory()).preparedStatements).toBeGreaterThanOrEqual(2);
  });

  test("a prepared statement's answer is read whole: long and multi-byte texts, many rows, nulls, counts of changed rows", async () => {
    const long = `${"Ünïcödé ✨ 漢字 ".repeat(12_000)}end`; // about 250 KB of UTF-8, past the answer buffer's first size
    await db.query("insert into notes (id, body) values ($1, $2)", [50, long]);
    await db.query("insert into notes (id, body) select g, 'row ' || g from generate_series(100, 1099) g");
    const inTx = await db.transaction(async (tx) => ({
      one: await tx.query<{ body: string }>("select body from notes where id = $1", [50]),
      many: await tx.query<{ id: number; body: string }>("select id, body from notes where id >= $1 order by id", [100]),
      nulls: await tx.query("select null::text as nothing, $1::int as n", [7]),
      updated: await tx.query("update notes set body = body || '!' where id between $1 and $2", [100, 199]),
    }));
    const direct = {
      one: await db.query<{ body: string }>("select body from notes where id = $1", [50]),
      many: await db.query<{ id: number; body: string }>("select id, body from notes where id >= $1 order by id", [100]),
    };
    expect(inTx.one.rows[0]!.body).toBe(long);
    expect(inTx.one).toEqual(direct.one);
    expect(inTx.many.rows).toHaveLength(1000);
    expect(inTx.many.rows[0]).toEqual({ id: 100, body: "row 100" }); // read before the update, in the same transaction
    expect(direct.many.rows.slice(99, 101)).toEqual([
      { id: 199, body: "row 199!" },
      { id: 200, body: "row 200" },
    ]);
    expect(inTx.nulls.rows).toEqual([{ nothing: null, n: 7 }]);
    expect(inTx.updated).toMatchObject({ affectedRows: 100, rowCount: 100, command: "UPDATE", rows: [] });
    await db.query("delete from notes where id = 50 or id >= 100");
  });

  test("a failing prepared statement fails its transaction with the database's error, and the next transaction runs it again", async () => {
    const insert = "insert into notes (id, body) values ($1, $2)";
    const failure = await db
      .transaction(async (tx) => {
        await tx.query(insert, [40, "forty"]);
        await tx.query(insert, [40, "again"]);
      })
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: "23505", table: "notes" });
    const badType = await db.transaction((tx) => tx.query("select * from notes where id = $1", ["not a number"])).catch((e: unknown) => e);
    expect(badType).toMatchObject({ code: "22P02" });
    await db.transaction((tx) => tx.query(insert, [40, "forty"]));
    expect((await db.query("select body from notes where id = 40")).rows).toEqual([{ body: "forty" }]);
  });

  test("after the schema changes, a statement prepared before answers with the new shape", async () => {
    await db.exec("create table shapes (id int primary key)");
    await db.query("insert into shapes values (1)");
    const read = () => db.transaction((tx) => tx.query("select * from shapes"));
    expect((await read()).rows).toEqual([{ id: 1 }]);
    await db.exec("alter table shapes add column label text default 'new'");
    expect((await read()).rows).toEqual([{ id: 1, label: "new" }]);
    await db.transaction(async (tx) => {
      await tx.query("alter table shapes add column size int default 7");
    });
    expect((await read()).rows).toEqual([{ id: 1, label: "new", size: 7 }]);
  });
});
