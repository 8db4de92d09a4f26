// The persona library on a real database (PGlite in npm test, PostgreSQL 15 in .ci/run):
// search, sort and paging over 2,000 personas, the dashboard's numbers, archive and restore,
// delete with the chat history, editing in place, and other users' ids.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), "pf-library-"));

const { createCreator, installTestDatabase } = await import("../../tests/support/test-database");
const { closeDatabase, withServiceRole, withUser } = await import("~/infra/db/db.server");
const { KEPT_READS, isKept } = await import("~/infra/db/kept-reads.server");
const { chatMessages, personas, profiles } = await import("~/infra/db/schema.server");
const personasService = await import("./personas.server");
const library = await import("./persona-library.server");

let handle: Awaited<ReturnType<typeof installTestDatabase>>;
beforeAll(async () => {
  handle = await installTestDatabase();
});
afterAll(async () => {
  await closeDatabase();
});

const newUser = (status = "free") => createCreator(handle, status, { first: "Lib", last: "Rarian" });

const complete = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  type: "educator",
  gender: "female",
  ageRange: "35-44",
  interests: ["science"],
  description: "Explains things.",
  personality: ["Curious"],
  ...extra,
});

describe("the list: search, tabs, sort and paging in the database", () => {
  let premium: Awaited<ReturnType<typeof newUser>>;
  beforeAll(async () => {
    premium = await newUser("active");
    // 2,000 personas with distinct names and creation times, every 10th archived.
    const start = Date.UTC(2025, 0, 1);
    const rows = Array.from({ length: 2000 }, (_, i) => ({
      userId: premium.id,
      name: `Persona ${String(i).padStart(4, "0")}`,
      type: "content",
      gender: "male",
      ageRange: "25-34",
      interests: ["music"],
      description: i % 100 === 7 ? `Loves 100%_real jazz #${i}` : `Ordinary creator #${i}`,
      personality: [],
      status: i % 10 === 0 ? "archived" : "active",
      statusBeforeArchive: i % 10 === 0 ? "active" : null,
      createdAt: new Date(start + i * 60_000),
    }));
    for (let i = 0; i < rows.length; i += 500) {
      await withUser(premium.id, (tx) => tx.insert(personas).values(rows.slice(i, i + 500)));
    }
  }, 120_000);

  it("All Personas leaves the archived out; Archived shows only them", async () => {
    const all = await library.listPersonas(premium, { status: "not-archived" });
    expect(all.total).toBe(1800);
    expect(all.items).toHaveLength(12);
    expect(all.pageCount).toBe(150);
    expect(all.items.every((p) => p.status !== "archived")).toBe(true);
    const archived = await library.listPersonas(premium, { status: "archived" });
    expect(archived.total).toBe(200);
  });

  it("sorts newest first by default, then oldest, A-Z and Z-A", async () => {
    const newest = await library.listPersonas(premium, { status: "not-archived" });
    expect(newest.items[0]!.name).toBe("Persona 1999");
    const oldest = await library.listPersonas(premium, { status: "not-archived", sort: "oldest" });
    expect(oldest.items[0]!.name).toBe("Persona 0001");
    const az = await library.listPersonas(premium, { status: "all", sort: "name-asc" });
    expect(az.items.map((p) => p.name).slice(0, 2)).toEqual(["Persona 0000", "Persona 0001"]);
    const za = await library.listPersonas(premium, { status: "all", sort: "name-desc" });
    expect(za.items[0]!.name).toBe("Persona 1999");
  });

  it("pages without overlap, and a page past the end shows the last one", async () => {
    const one = await library.listPersonas(premium, { status: "all", sort: "name-asc", page: 1, pageSize: 50 });
    const two = await library.listPersonas(premium, { status: "all", sort: "name-asc", page: 2, pageSize: 50 });
    expect(two.items[0]!.name).toBe("Persona 0050");
    expect(new Set([...one.items, ...two.items].map((p) => p.id)).size).toBe(100);
    const past = await library.listPersonas(premium, { status: "all", page: 9999, pageSize: 50 });
    expect(past.page).toBe(40);
    expect(past.items).toHaveLength(50);
  });

  it("searches name and description case-insensitively, with % and _ taken literally", async () => {
    const byName = await library.listPersonas(premium, { status: "all", q: "persona 123" });
    expect(byName.items.map((p) => p.name).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `Persona 123${i}`));
    const literal = await library.listPersonas(premium, { status: "all", q: "100%_REAL" });
    expect(literal.total).toBe(20);
    const wildcard = await library.listPersonas(premium, { status: "all", q: "%" });
    expect(wildcard.total).toBe(20);
    const injection = await library.listPersonas(premium, { status: "all", q: "' or 1=1 --" });
    expect(injection.total).toBe(0);
  });

  it("a creator with 10 personas sees only their own", async () => {
    const small = await newUser();
    for (let i = 0; i < 10; i++) await personasService.saveDraft(small, { name: `Mine ${i}` });
    const page = await library.listPersonas(small, { status: "all", q: "Persona" });
    expect(page.total).toBe(0);
    expect((await library.listPersonas(small, { status: "all" })).total).toBe(10);
  });
});

describe("dashboard numbers", () => {
  it("counts active personas and generations; recent leaves archived out", async () => {
    const user = await newUser();
    const a = await personasService.createPersona(user, complete("Alpha"));
    await personasService.createPersona(user, complete("Beta"));
    await personasService.saveDraft(user, { name: "Gamma" });
    await library.archivePersona(user, a.id);
    await personasService.generateBackstory(user, complete("Alpha"));
    await personasService.recordGeneration(user, "chat");
    expect(await library.personaStats(user)).toMatchObject({
      activePersonas: 1,
      generatedContent: 2,
      subscriptionStatus: "free",
      trialDaysLeft: 0,
      ownedPersonas: 3,
      personaLimit: 10,
    });
    expect((await library.recentPersonas(user)).map((p) => p.name)).toEqual(["Gamma", "Beta"]);
  });

  it("trial days count down to the trial's end while on Premium (Stripe's trialing is stored as active)", () => {
    const now = new Date("2026-01-01T00:00:00Z");
    expect(library.trialDaysLeft("active", new Date("2026-01-04T12:00:00Z"), now)).toBe(4);
    expect(library.trialDaysLeft("active", new Date("2025-12-31T00:00:00Z"), now)).toBe(0);
    expect(library.trialDaysLeft("active", null, now)).toBe(0);
    // Not Premium any more (cancelled during the trial, a failed payment): no trial to count.
    expect(library.trialDaysLeft("canceled", new Date("2026-01-04T12:00:00Z"), now)).toBe(0);
    expect(library.trialDaysLeft("past_due", new Date("2026-01-04T12:00:00Z"), now)).toBe(0);
  });
});

describe("the dashboard and the lists, kept between requests", () => {
  const names = async (user: Awaited<ReturnType<typeof newUser>>) =>
    (await library.listPersonas(user, { status: "not-archived" }, "card")).items.map((p) => p.name);
  const shown = async (user: Awaited<ReturnType<typeof newUser>>) => {
    const { stats, recent } = await library.dashboard(user);
    return {
      active: stats.activePersonas,
      owned: stats.ownedPersonas,
      generated: stats.generatedContent,
      plan: stats.subscriptionStatus,
      recent: recent.map((p) => `${p.name}:${p.imageUrl ?? "-"}`),
    };
  };

  it("are kept on every database, and every write to the creator's personas, generations or plan shows at once", async () => {
    const user = await newUser();
    const other = await newUser();
    const first = await personasService.createPersona(user, complete("First"));
    expect(await shown(user)).toEqual({ active: 1, owned: 1, generated: 0, plan: "free", recent: ["First:-"] });
    expect(await names(user)).toEqual(["First"]);
    // Kept on every database: the embedded one and a database server alike.
    expect(await isKept(KEPT_READS.dashboards, [user.id])).toBe(true);

    // Each write, by every way there is to make it, is seen by the very next read.
    const draft = await personasService.saveDraft(user, { name: "Sketch" });
    expect((await shown(user)).recent).toEqual(["Sketch:-", "First:-"]);
    expect(await names(user)).toEqual(["Sketch", "First"]);
    await personasService.completeDraft(user, draft.id, complete("Sketch Done"));
    expect(await shown(user)).toMatchObject({ active: 2, recent: ["Sketch Done:-", "First:-"] });
    await library.updatePersona(user, first.id, complete("First Edited"));
    expect(await names(user)).toEqual(["Sketch Done", "First Edited"]);
    await library.archivePersona(user, first.id);
    expect(await shown(user)).toMatchObject({ active: 1, owned: 2, recent: ["Sketch Done:-"] });
    expect(await names(user)).toEqual(["Sketch Done"]);
    await library.restorePersona(user, first.id);
    expect(await names(user)).toEqual(["Sketch Done", "First Edited"]);
    // An image job writes the persona as the service, outside the creator's requests.
    await withServiceRole("test: image done", (tx) =>
      tx.update(personas).set({ imageUrl: "/images/x/primary.png" }).where(eq(personas.id, first.id)),
    );
    expect((await shown(user)).recent).toEqual(["Sketch Done:-", "First Edited:/images/x/primary.png"]);
    await personasService.generateBackstory(user, complete("First"));
    await personasService.recordGeneration(user, "chat");
    expect((await shown(user)).generated).toBe(2);
    // A Stripe event changes the plan.
    await withServiceRole("test: plan", (tx) => tx.update(profiles).set({ subscriptionStatus: "active" }).where(eq(profiles.id, user.id)));
    expect((await shown(user)).plan).toBe("active");
    await library.deletePersona(user, first.id);
    expect(await shown(user)).toMatchObject({ active: 1, owned: 1, recent: ["Sketch Done:-"] });
    expect(await names(user)).toEqual(["Sketch Done"]);

    // Another creator's writes leave this one's answers as they were, and the other way round.
    await personasService.createPersona(other, complete("Theirs"));
    expect(await names(user)).toEqual(["Sketch Done"]);
    expect(await names(other)).toEqual(["Theirs"]);
  });

  it("a search is asked every time", async () => {
    const user = await newUser();
    await personasService.createPersona(user, complete("Zephyr"));
    expect((await library.listPersonas(user, { status: "all", q: "zeph" })).total).toBe(1);
    await personasService.createPersona(user, complete("Zephyrine"));
    expect((await library.listPersonas(user, { status: "all", q: "zeph" })).total).toBe(2);
  });
});

describe("archive, restore, delete", () => {
  it("restores to the previous status, draft or active", async () => {
    const user = await newUser();
    const active = await personasService.createPersona(user, complete("Active One"));
    const draft = await personasService.saveDraft(user, { name: "Draft One" });
    for (const p of [active, draft]) {
      const archived = await library.changeStatus(user, p.id, "archived");
      expect(archived).toMatchObject({ status: "archived", statusBeforeArchive: p.status });
      await expect(library.archivePersona(user, p.id)).rejects.toMatchObject({ status: 409 });
      const restored = await library.changeStatus(user, p.id, "restored");
      expect(restored).toMatchObject({ status: p.status, statusBeforeArchive: null });
      await expect(library.restorePersona(user, p.id)).rejects.toMatchObject({ status: 409 });
    }
    await expect(library.changeStatus(user, active.id, "deleted")).rejects.toMatchObject({ status: 400 });
  });

  it("delete removes the persona with its chat history and frees a Free-plan slot", async () => {
    const user = await newUser();
    for (let i = 0; i < 9; i++) await personasService.saveDraft(user, { name: `Filler ${i}` });
    const doomed = await personasService.createPersona(user, complete("Doomed"));
    await withUser(user.id, (tx) => tx.insert(chatMessages).values({ personaId: doomed.id, role: "user", content: "Hi" }));
    expect((await personasService.usage(user)).canCreateMore).toBe(false);
    await library.deletePersona(user, doomed.id);
    await expect(personasService.getPersona(user, doomed.id)).rejects.toMatchObject({ status: 404 });
    const messages = await withServiceRole("test: chat left", (tx) =>
      tx.select().from(chatMessages).where(eq(chatMessages.personaId, doomed.id)),
    );
    expect(messages).toHaveLength(0);
    expect((await personasService.usage(user)).canCreateMore).toBe(true);
    await expect(library.deletePersona(user, doomed.id)).rejects.toMatchObject({ status: 404 });
  });

  it("another user's persona is not found for every action, and stays as it was", async () => {
    const owner = await newUser();
    const stranger = await newUser();
    const p = await personasService.createPersona(owner, complete("Private"));
    for (const attempt of [
      () => library.archivePersona(stranger, p.id),
      () => library.restorePersona(stranger, p.id),
      () => library.deletePersona(stranger, p.id),
      () => library.updatePersona(stranger, p.id, complete("Stolen")),
      () => library.deletePersona(stranger, "not-a-uuid"),
    ]) {
      await expect(attempt()).rejects.toMatchObject({ status: 404, message: "Persona Not Found" });
    }
    expect(await personasService.getPersona(owner, p.id)).toMatchObject({ name: "Private", status: "active" });
  });
});

describe("editing in place", () => {
  it("keeps the id, created date, status and chat; validated like creation", async () => {
    const user = await newUser();
    const p = await personasService.createPersona(user, complete("Before"));
    await withUser(user.id, (tx) => tx.insert(chatMessages).values({ personaId: p.id, role: "user", content: "Still here" }));
    const after = await library.updatePersona(user, p.id, complete("After", { interests: ["art", "music"] }));
    expect(after).toMatchObject({ id: p.id, name: "After", status: "active", interests: ["art", "music"] });
    expect(after.createdAt).toEqual(p.createdAt);
    await expect(library.updatePersona(user, p.id, { name: "After" })).rejects.toMatchObject({
      status: 400,
      errors: { type: ["Invalid persona type"] },
    });
    const messages = await withUser(user.id, (tx) => tx.select().from(chatMessages).where(eq(chatMessages.personaId, p.id)));
    expect(messages).toHaveLength(1);
  });

  it("a draft, or an archived draft, is edited with the draft rules and stays what it was", async () => {
    const user = await newUser();
    const draft = await personasService.saveDraft(user, { name: "Rough" });
    expect(await library.updatePersona(user, draft.id, { name: "Rougher" })).toMatchObject({ status: "in_progress", name: "Rougher" });
    await library.archivePersona(user, draft.id);
    expect(await library.updatePersona(user, draft.id, { name: "Shelved" })).toMatchObject({ status: "archived", name: "Shelved" });
  });
});
