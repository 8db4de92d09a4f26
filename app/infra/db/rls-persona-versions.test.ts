// persona_versions proven by attack, like rls.test.ts: an owner reads their personas' versions
// and nothing else; nobody (not even the owner, not the service role) inserts, rewrites or
// deletes one directly; anon sees nothing; the trigger alone writes them, and deleting the
// persona deletes them.
import { randomUUID } from "node:crypto";

import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { personas, personaVersions } from "./schema.server";
import { createAuthUser, installTestDatabase, type TestUser } from "../../../tests/support/test-database";
import { closeDatabase, withAnon, withServiceRole, withUser } from "./db.server";
import type { DatabaseHandle } from "./client.server";

let handle: DatabaseHandle;
let alice: TestUser;
let bob: TestUser;
let alicePersonaId: string;
let bobPersonaId: string;

async function expectDeniedOrEmpty(op: () => Promise<unknown[]>) {
  try {
    const rows = await op();
    expect(rows).toHaveLength(0);
  } catch (error) {
    expect(String((error as { cause?: unknown }).cause ?? error)).toMatch(/permission denied|row-level security/);
  }
}

async function expectRejected(op: () => Promise<unknown>) {
  await expect(op()).rejects.toSatisfy((error: { cause?: unknown; message?: string }) =>
    /permission denied|row-level security/.test(String(error.cause ?? "") + String(error.message ?? "")),
  );
}

const versionRow = (personaId: string, userId: string, version: number) => ({
  personaId,
  userId,
  version,
  kind: "edited",
  name: "Forged",
  interests: [],
  personality: [],
  backstoryVersion: 1,
  narrativeVersion: 1,
  imageStyle: "photorealistic",
  status: "in_progress",
});

const allVersions = (personaId: string) =>
  withServiceRole("test", (tx) =>
    tx.select().from(personaVersions).where(eq(personaVersions.personaId, personaId)).orderBy(personaVersions.version),
  );

beforeAll(async () => {
  handle = await installTestDatabase();
  alice = await createAuthUser(handle, { first_name: "Alice", last_name: "Archer" });
  bob = await createAuthUser(handle, { first_name: "Bob", last_name: "Baker" });
  alicePersonaId = await withUser(alice.id, async (tx) => {
    const [row] = await tx.insert(personas).values({ userId: alice.id, name: "Aria" }).returning({ id: personas.id });
    await tx.update(personas).set({ name: "Aria Vale" }).where(eq(personas.id, row!.id));
    return row!.id;
  });
  bobPersonaId = await withUser(bob.id, async (tx) => {
    const [row] = await tx.insert(personas).values({ userId: bob.id, name: "Bram" }).returning({ id: personas.id });
    return row!.id;
  });
});

afterAll(async () => {
  await closeDatabase();
});

describe("persona_versions", () => {
  it("the trigger wrote them: Alice's persona has two versions, Bob's one", async () => {
    expect((await allVersions(alicePersonaId)).map((v) => [v.version, v.kind, v.name, v.userId, v.changedBy])).toEqual([
      [1, "draft_saved", "Aria", alice.id, alice.id],
      [2, "draft_saved", "Aria Vale", alice.id, alice.id],
    ]);
    expect(await allVersions(bobPersonaId)).toHaveLength(1);
  });

  it("select: Bob sees only his own persona's versions, never Alice's by id", async () => {
    const all = await withUser(bob.id, (tx) => tx.select().from(personaVersions));
    expect(all.map((v) => v.personaId)).toEqual([bobPersonaId]);
    const byPersona = await withUser(bob.id, (tx) =>
      tx.select().from(personaVersions).where(eq(personaVersions.personaId, alicePersonaId)),
    );
    expect(byPersona).toHaveLength(0);
  });

  it("insert: nobody writes a version directly, not even for their own persona", async () => {
    await expectRejected(() => withUser(bob.id, (tx) => tx.insert(personaVersions).values(versionRow(bobPersonaId, bob.id, 9))));
    await expectRejected(() => withUser(bob.id, (tx) => tx.insert(personaVersions).values(versionRow(alicePersonaId, alice.id, 9))));
    await expectRejected(() => withServiceRole("test", (tx) => tx.insert(personaVersions).values(versionRow(bobPersonaId, bob.id, 9))));
    expect(await allVersions(bobPersonaId)).toHaveLength(1);
  });

  it("update and delete: history cannot be rewritten or removed, by its owner or anyone", async () => {
    await expectDeniedOrEmpty(() => withUser(bob.id, (tx) => tx.update(personaVersions).set({ name: "Rewritten" }).returning()));
    await expectDeniedOrEmpty(() =>
      withUser(bob.id, (tx) =>
        tx.update(personaVersions).set({ name: "Rewritten" }).where(eq(personaVersions.personaId, alicePersonaId)).returning(),
      ),
    );
    await expectDeniedOrEmpty(() => withUser(bob.id, (tx) => tx.delete(personaVersions).returning()));
    await expectDeniedOrEmpty(() =>
      withUser(alice.id, (tx) => tx.delete(personaVersions).where(eq(personaVersions.personaId, alicePersonaId)).returning()),
    );
    await expectRejected(() => withServiceRole("test", (tx) => tx.delete(personaVersions)));
    expect((await allVersions(alicePersonaId)).map((v) => v.name)).toEqual(["Aria", "Aria Vale"]);
    expect((await allVersions(bobPersonaId)).map((v) => v.name)).toEqual(["Bram"]);
  });

  it("the trigger function cannot be called by users", async () => {
    await expectRejected(() => withUser(bob.id, (tx) => tx.execute(sql`select public.record_persona_version()`)));
  });

  it("a forged hint cannot claim a restore from a version that does not exist", async () => {
    await withUser(bob.id, async (tx) => {
      await tx.execute(
        sql`select set_config('personaforge.version_kind', 'restored', true), set_config('personaforge.restored_from', '99', true)`,
      );
      await tx.update(personas).set({ name: "Bram Stone" }).where(eq(personas.id, bobPersonaId));
    });
    const versions = await allVersions(bobPersonaId);
    expect(versions.map((v) => [v.version, v.kind, v.restoredFrom])).toEqual([
      [1, "draft_saved", null],
      [2, "draft_saved", null],
    ]);
  });

  it("anon sees nothing and writes nothing", async () => {
    await expectDeniedOrEmpty(() => withAnon((tx) => tx.select().from(personaVersions)));
    await expectRejected(() => withAnon((tx) => tx.insert(personaVersions).values(versionRow(bobPersonaId, bob.id, 9))));
  });

  it("deleting a persona deletes its versions (its owner needs no delete right on them)", async () => {
    const id = await withUser(alice.id, async (tx) => {
      const [row] = await tx.insert(personas).values({ userId: alice.id, name: "Ephemera" }).returning({ id: personas.id });
      return row!.id;
    });
    expect(await allVersions(id)).toHaveLength(1);
    await withUser(alice.id, (tx) => tx.delete(personas).where(eq(personas.id, id)));
    expect(await allVersions(id)).toHaveLength(0);
  });

  it("deleting an account deletes its personas' versions", async () => {
    const carol = await createAuthUser(handle, { first_name: "Carol", last_name: "Chen" });
    const id = await withUser(carol.id, async (tx) => {
      const [row] = await tx.insert(personas).values({ userId: carol.id, name: "Cleo" }).returning({ id: personas.id });
      return row!.id;
    });
    await handle.raw.rows("delete from auth.users where id = $1", [carol.id]);
    expect(await allVersions(id)).toHaveLength(0);
  });

  it("an unknown persona id has no versions for anyone", async () => {
    const rows = await withUser(alice.id, (tx) => tx.select().from(personaVersions).where(eq(personaVersions.personaId, randomUUID())));
    expect(rows).toHaveLength(0);
  });
});
