// The policies proven by attack: for every table and every operation, user B neither
// sees nor changes user A's rows, forged owners are rejected, and anon sees nothing.
import { randomUUID } from "node:crypto";

import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { chatMessages, generations, notificationPreferences, personas, profiles } from "./schema.server";
import { createAuthUser, installTestDatabase, type TestUser } from "../../../tests/support/test-database";
import { closeDatabase, withAnon, withServiceRole, withUser, DoorError } from "./db.server";
import type { DatabaseHandle } from "./client.server";

let handle: DatabaseHandle;
let alice: TestUser;
let bob: TestUser;
let alicePersonaId: string;
let bobPersonaId: string;
let aliceMessageId: string;
let bobMessageId: string;

const draft = (userId: string, name: string) => ({ userId, name });

/** A denied operation either fails with a privilege/RLS error or affects no row. */
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

beforeAll(async () => {
  handle = await installTestDatabase();
  alice = await createAuthUser(handle, { first_name: "Alice", last_name: "Archer" });
  bob = await createAuthUser(handle, { first_name: "Bob", last_name: "Baker" });
  alicePersonaId = await withUser(alice.id, async (tx) => {
    const [row] = await tx.insert(personas).values(draft(alice.id, "Aria")).returning({ id: personas.id });
    return row.id;
  });
  bobPersonaId = await withUser(bob.id, async (tx) => {
    const [row] = await tx.insert(personas).values(draft(bob.id, "Bram")).returning({ id: personas.id });
    return row.id;
  });
  aliceMessageId = await withUser(alice.id, async (tx) => {
    const [row] = await tx
      .insert(chatMessages)
      .values({ personaId: alicePersonaId, role: "user", content: "Hello Aria" })
      .returning({ id: chatMessages.id });
    return row.id;
  });
  bobMessageId = await withUser(bob.id, async (tx) => {
    const [row] = await tx
      .insert(chatMessages)
      .values({ personaId: bobPersonaId, role: "user", content: "Hello Bram" })
      .returning({ id: chatMessages.id });
    return row.id;
  });
});

afterAll(async () => {
  await closeDatabase();
});

describe("the sign-up trigger", () => {
  it("creates a profile from the sign-up metadata and default notification preferences", async () => {
    const carol = await createAuthUser(handle, { first_name: "Carol", last_name: "Chen" });
    const [profile] = await withUser(carol.id, (tx) => tx.select().from(profiles));
    expect(profile).toMatchObject({
      id: carol.id,
      firstName: "Carol",
      lastName: "Chen",
      authMethod: "email",
      subscriptionStatus: "free",
      personasCreated: 0,
    });
    const [prefs] = await withUser(carol.id, (tx) => tx.select().from(notificationPreferences));
    expect(prefs).toMatchObject({
      personaCreation: true,
      narrativeGeneration: true,
      imageGeneration: true,
      marketingEmails: false,
    });
  });
});

describe("profile pictures", () => {
  it("a javascript: or data: URL can never be stored", async () => {
    for (const url of ["javascript:alert(1)", "data:text/html,<script>", "//evil.example/x.png"]) {
      await expect(
        withUser(bob.id, (tx) => tx.update(profiles).set({ profileImageUrl: url }).where(eq(profiles.id, bob.id))),
      ).rejects.toThrow();
    }
    const [ok] = await withUser(bob.id, (tx) =>
      tx.update(profiles).set({ profileImageUrl: "https://images.example/bob.png" }).where(eq(profiles.id, bob.id)).returning(),
    );
    expect(ok.profileImageUrl).toBe("https://images.example/bob.png");
  });

  it("an unsafe avatar from an identity provider is dropped, and the sign-up still succeeds", async () => {
    const id = randomUUID();
    await handle.raw.rows(
      `insert into auth.users (id, email, raw_user_meta_data, raw_app_meta_data) values ($1, $2, $3::jsonb, '{"provider":"github"}'::jsonb)`,
      [id, `oauth-${id.slice(0, 6)}@example.test`, JSON.stringify({ first_name: "Oli", avatar_url: "javascript:alert(1)" })],
    );
    const [profile] = await withUser(id, (tx) => tx.select().from(profiles));
    expect(profile).toMatchObject({ firstName: "Oli", profileImageUrl: null, authMethod: "github" });
  });
});

describe("profiles", () => {
  it("select: a user sees only their own profile", async () => {
    const rows = await withUser(bob.id, (tx) => tx.select().from(profiles));
    expect(rows.map((r) => r.id)).toEqual([bob.id]);
  });
  it("update: B cannot rename A", async () => {
    await expectDeniedOrEmpty(() =>
      withUser(bob.id, (tx) => tx.update(profiles).set({ firstName: "Mallory" }).where(eq(profiles.id, alice.id)).returning()),
    );
    const [a] = await withServiceRole("test", (tx) => tx.select().from(profiles).where(eq(profiles.id, alice.id)));
    expect(a.firstName).toBe("Alice");
  });
  it("update: a user can change their name but not their plan or counters", async () => {
    const rows = await withUser(bob.id, (tx) => tx.update(profiles).set({ firstName: "Bobby" }).where(eq(profiles.id, bob.id)).returning());
    expect(rows).toHaveLength(1);
    await expectRejected(() =>
      withUser(bob.id, (tx) => tx.update(profiles).set({ subscriptionStatus: "active" }).where(eq(profiles.id, bob.id))),
    );
    await expectRejected(() => withUser(bob.id, (tx) => tx.update(profiles).set({ personasCreated: 0 }).where(eq(profiles.id, bob.id))));
  });
  it("insert: forging a profile for someone else is rejected", async () => {
    await expectRejected(() => withUser(bob.id, (tx) => tx.insert(profiles).values({ id: alice.id })));
  });
  it("delete: B cannot delete A's profile", async () => {
    await expectDeniedOrEmpty(() => withUser(bob.id, (tx) => tx.delete(profiles).where(eq(profiles.id, alice.id)).returning()));
    const rows = await withServiceRole("test", (tx) => tx.select().from(profiles).where(eq(profiles.id, alice.id)));
    expect(rows).toHaveLength(1);
  });
  it("anon sees nothing", async () => {
    await expectDeniedOrEmpty(() => withAnon((tx) => tx.select().from(profiles)));
  });
});

describe("personas", () => {
  it("select: B sees only B's personas, never A's by id", async () => {
    const all = await withUser(bob.id, (tx) => tx.select().from(personas));
    expect(all.map((p) => p.id)).toEqual([bobPersonaId]);
    const byId = await withUser(bob.id, (tx) => tx.select().from(personas).where(eq(personas.id, alicePersonaId)));
    expect(byId).toHaveLength(0);
  });
  it("insert: forging user_id is rejected", async () => {
    await expectRejected(() => withUser(bob.id, (tx) => tx.insert(personas).values(draft(alice.id, "Forged"))));
    const count = await withServiceRole("test", (tx) => tx.select().from(personas).where(eq(personas.name, "Forged")));
    expect(count).toHaveLength(0);
  });
  it("insert: naming another user's id gets the RLS error before their plan's limit is looked at", async () => {
    const full = await createAuthUser(handle, { first_name: "Fay", last_name: "Full" });
    await withServiceRole("test: a Free user with 10 personas", (tx) =>
      tx.insert(personas).values(Array.from({ length: 10 }, (_, i) => draft(full.id, `Fay ${i + 1}`))),
    );
    const attempt = withUser(bob.id, (tx) => tx.insert(personas).values(draft(full.id, "Probe")));
    await expect(attempt).rejects.toSatisfy((error: { cause?: unknown; message?: string }) => {
      const text = String(error.cause ?? "") + String(error.message ?? "");
      return /row-level security/.test(text) && !/Free Plan Limit/.test(text);
    });
    const [profile] = await withServiceRole("test", (tx) => tx.select().from(profiles).where(eq(profiles.id, full.id)));
    expect(profile.personasCreated).toBe(10);
  });
  it("update: B cannot change A's persona", async () => {
    await expectDeniedOrEmpty(() =>
      withUser(bob.id, (tx) => tx.update(personas).set({ name: "Hijacked" }).where(eq(personas.id, alicePersonaId)).returning()),
    );
    const [p] = await withServiceRole("test", (tx) => tx.select().from(personas).where(eq(personas.id, alicePersonaId)));
    expect(p.name).toBe("Aria");
  });
  it("update: B cannot hand a persona to A by rewriting user_id", async () => {
    await expectRejected(() =>
      withUser(bob.id, (tx) => tx.update(personas).set({ userId: alice.id }).where(eq(personas.id, bobPersonaId))),
    );
  });
  it("delete: B cannot delete A's persona", async () => {
    await expectDeniedOrEmpty(() => withUser(bob.id, (tx) => tx.delete(personas).where(eq(personas.id, alicePersonaId)).returning()));
    const rows = await withServiceRole("test", (tx) => tx.select().from(personas).where(eq(personas.id, alicePersonaId)));
    expect(rows).toHaveLength(1);
  });
  it("anon can neither read nor write", async () => {
    await expectDeniedOrEmpty(() => withAnon((tx) => tx.select().from(personas)));
    await expectRejected(() => withAnon((tx) => tx.insert(personas).values(draft(alice.id, "Anon"))));
  });
});

describe("chat_messages", () => {
  it("select: reachable only through a persona the user owns", async () => {
    const rows = await withUser(bob.id, (tx) => tx.select().from(chatMessages));
    expect(rows.map((m) => m.id)).toEqual([bobMessageId]);
  });
  it("insert: B cannot write into A's conversation", async () => {
    await expectRejected(() =>
      withUser(bob.id, (tx) => tx.insert(chatMessages).values({ personaId: alicePersonaId, role: "assistant", content: "Injected" })),
    );
  });
  it("update: B cannot edit A's messages nor move their own into A's persona", async () => {
    await expectDeniedOrEmpty(() =>
      withUser(bob.id, (tx) => tx.update(chatMessages).set({ content: "Edited" }).where(eq(chatMessages.id, aliceMessageId)).returning()),
    );
    await expectRejected(() =>
      withUser(bob.id, (tx) => tx.update(chatMessages).set({ personaId: alicePersonaId }).where(eq(chatMessages.id, bobMessageId))),
    );
    const [m] = await withServiceRole("test", (tx) => tx.select().from(chatMessages).where(eq(chatMessages.id, aliceMessageId)));
    expect(m.content).toBe("Hello Aria");
  });
  it("delete: B cannot delete A's messages", async () => {
    await expectDeniedOrEmpty(() =>
      withUser(bob.id, (tx) => tx.delete(chatMessages).where(eq(chatMessages.id, aliceMessageId)).returning()),
    );
  });
  it("anon sees nothing", async () => {
    await expectDeniedOrEmpty(() => withAnon((tx) => tx.select().from(chatMessages)));
  });
});

describe("notification_preferences", () => {
  it("select: only one's own", async () => {
    const rows = await withUser(bob.id, (tx) => tx.select().from(notificationPreferences));
    expect(rows.map((r) => r.userId)).toEqual([bob.id]);
  });
  it("insert: forging a row for A is rejected", async () => {
    await expectRejected(() => withUser(bob.id, (tx) => tx.insert(notificationPreferences).values({ userId: alice.id })));
  });
  it("update: B cannot change A's preferences", async () => {
    await expectDeniedOrEmpty(() =>
      withUser(bob.id, (tx) =>
        tx.update(notificationPreferences).set({ marketingEmails: true }).where(eq(notificationPreferences.userId, alice.id)).returning(),
      ),
    );
    const [a] = await withServiceRole("test", (tx) =>
      tx.select().from(notificationPreferences).where(eq(notificationPreferences.userId, alice.id)),
    );
    expect(a.marketingEmails).toBe(false);
  });
  it("delete: B cannot delete A's preferences", async () => {
    await expectDeniedOrEmpty(() =>
      withUser(bob.id, (tx) => tx.delete(notificationPreferences).where(eq(notificationPreferences.userId, alice.id)).returning()),
    );
  });
  it("anon sees nothing", async () => {
    await expectDeniedOrEmpty(() => withAnon((tx) => tx.select().from(notificationPreferences)));
  });
});

describe("generations", () => {
  it("select: a user counts only their own generations", async () => {
    await withUser(alice.id, (tx) => tx.insert(generations).values({ userId: alice.id, kind: "backstory" }));
    await withUser(bob.id, (tx) => tx.insert(generations).values({ userId: bob.id, kind: "chat" }));
    const seen = await withUser(bob.id, (tx) => tx.select().from(generations));
    expect(seen.map((g) => g.userId)).toEqual([bob.id]);
  });
  it("insert: forging a generation for someone else is rejected", async () => {
    await expectRejected(() => withUser(bob.id, (tx) => tx.insert(generations).values({ userId: alice.id, kind: "image" })));
  });
  it("update and delete: history is never rewritten, not even one's own", async () => {
    await expectDeniedOrEmpty(() =>
      withUser(bob.id, (tx) => tx.update(generations).set({ kind: "image" }).where(eq(generations.userId, bob.id)).returning()),
    );
    await expectDeniedOrEmpty(() => withUser(bob.id, (tx) => tx.delete(generations).returning()));
    await expectDeniedOrEmpty(() => withUser(bob.id, (tx) => tx.delete(generations).where(eq(generations.userId, alice.id)).returning()));
    const rows = await withServiceRole("test: count", (tx) => tx.select().from(generations));
    expect(rows.length).toBeGreaterThanOrEqual(2);
  });
  it("anon can neither read nor write", async () => {
    await expectDeniedOrEmpty(() => withAnon((tx) => tx.select().from(generations)));
    await expectRejected(() => withAnon((tx) => tx.insert(generations).values({ userId: alice.id, kind: "chat" })));
  });
});

describe("the door", () => {
  it("refuses to open the outer handle inside a door instead of hanging or bypassing RLS", async () => {
    await expect(withUser(alice.id, () => withUser(bob.id, (tx) => tx.select().from(personas)))).rejects.toBeInstanceOf(DoorError);
    await expect(withUser(alice.id, () => withServiceRole("escalate", (tx) => tx.select().from(personas)))).rejects.toThrow(
      /inside withUser/,
    );
  });
  it("refuses a user id that is not a uuid", async () => {
    await expect(withUser("' or 1=1 --", (tx) => tx.select().from(personas))).rejects.toBeInstanceOf(DoorError);
  });
  it("sets auth.uid() and the authenticated role for the transaction only", async () => {
    const [row] = await withUser(alice.id, async (tx) => {
      const result = await tx.execute(sql`select auth.uid()::text as uid, current_user as role`);
      return (Array.isArray(result) ? result : (result as unknown as { rows: unknown[] }).rows) as {
        uid: string;
        role: string;
      }[];
    });
    expect(row).toEqual({ uid: alice.id, role: "authenticated" });
  });
  it("a failure inside the door rolls everything back", async () => {
    const name = `Rollback ${randomUUID().slice(0, 6)}`;
    await expect(
      withUser(alice.id, async (tx) => {
        await tx.insert(personas).values(draft(alice.id, name));
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    const rows = await withServiceRole("test", (tx) => tx.select().from(personas).where(eq(personas.name, name)));
    expect(rows).toHaveLength(0);
  });
});

describe("schema constraints", () => {
  it("a draft needs only a name; a finished persona needs every required field", async () => {
    await expect(
      withUser(alice.id, (tx) => tx.insert(personas).values({ userId: alice.id, name: "Done", status: "active" })),
    ).rejects.toThrow();
    const [ok] = await withUser(alice.id, (tx) =>
      tx
        .insert(personas)
        .values({
          userId: alice.id,
          name: "Nova",
          status: "active",
          type: "vtuber",
          gender: "female",
          ageRange: "18-24",
          interests: ["gaming", "music"],
          description: "A cheerful streamer.",
          personality: ["Outgoing", "Creative"],
        })
        .returning(),
    );
    expect(ok.imageStyle).toBe("photorealistic");
  });
  it.each([
    ["an unknown type", { type: "wizard" }],
    ["a one-letter name", { name: "A" }],
    ["four interests", { interests: ["gaming", "tech", "art", "music"] }],
    ["a duplicate interest", { interests: ["art", "art"] }],
    ["eight traits", { personality: ["Outgoing", "Reserved", "Social", "Quiet", "Assertive", "Reflective", "Stable", "Calm"] }],
    ["a trait from no category", { personality: ["Sneaky"] }],
    ["a 151-character description", { description: "x".repeat(151) }],
    ["an unknown status", { status: "deleted" }],
    ["an unknown image style", { imageStyle: "oil" }],
    ["a previous status on a persona that is not archived", { statusBeforeArchive: "in_progress" }],
    ["an extended profile that is no object", { extended: ["x"] as unknown as Record<string, unknown> }],
  ])("rejects %s", async (_label, patch) => {
    await expect(withUser(alice.id, (tx) => tx.insert(personas).values({ ...draft(alice.id, "Valid Name"), ...patch }))).rejects.toThrow();
  });
  it("an archived draft keeps its missing fields; an archived finished persona stays complete", async () => {
    const [archivedDraft] = await withUser(alice.id, (tx) =>
      tx
        .insert(personas)
        .values({ ...draft(alice.id, "Shelved"), status: "archived", statusBeforeArchive: "in_progress" })
        .returning(),
    );
    expect(archivedDraft.type).toBeNull();
    await expect(
      withUser(alice.id, (tx) =>
        tx.insert(personas).values({ ...draft(alice.id, "Hollow"), status: "archived", statusBeforeArchive: "active" }),
      ),
    ).rejects.toThrow();
    await expect(
      withUser(alice.id, (tx) => tx.insert(personas).values({ ...draft(alice.id, "Hollow"), status: "archived" })),
    ).rejects.toThrow();
  });
});
