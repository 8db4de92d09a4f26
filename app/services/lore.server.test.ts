// Lore on a real database (PGlite in npm test, PostgreSQL 15 with DATABASE_URL): entries are
// checked and stored with the persona, each change is one version that history summarises and
// compares and a restore brings back; another creator's persona is a 404 and stays untouched;
// the 200-entry limit and a refused entry write nothing; two edits at once lose neither.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), "pf-lore-"));

const { createCreator, installTestDatabase } = await import("../../tests/support/test-database");
const { closeDatabase, withServiceRole } = await import("~/infra/db/db.server");
const { personaVersions } = await import("~/infra/db/schema.server");
const personasService = await import("./personas.server");
const lore = await import("./lore.server");
const history = await import("./persona-history.server");

let handle: Awaited<ReturnType<typeof installTestDatabase>>;
beforeAll(async () => {
  handle = await installTestDatabase();
});
afterAll(async () => {
  await closeDatabase();
});

const newUser = () => createCreator(handle, "active", { first: "Lore", last: "Keeper" });

const persona = (user: Awaited<ReturnType<typeof newUser>>) =>
  personasService.createPersona(user, {
    name: "Kira Moon",
    type: "vtuber",
    gender: "female",
    ageRange: "18-24",
    interests: ["gaming"],
    description: "A late-night streamer.",
    personality: ["Outgoing"],
    backstory: "Kira grew up in Seoul with her older sister Mina.",
  });

const versions = (personaId: string) =>
  withServiceRole("test", (tx) =>
    tx.select().from(personaVersions).where(eq(personaVersions.personaId, personaId)).orderBy(personaVersions.version),
  );

const mina = { name: "Mina", keys: ["Mina", "sister"], content: "Kira's older sister, a nurse in Incheon.", kind: "person" };

describe("entries", () => {
  it("are added, edited, turned off, moved and deleted; each change is one version", async () => {
    const user = await newUser();
    const { id } = await persona(user);
    const start = (await versions(id)).length;
    const a = await lore.addLoreEntry(user, id, mina);
    const b = await lore.addLoreEntry(user, id, { name: "Seoul", keys: "Seoul, hometown", content: "Where Kira grew up.", kind: "place" });
    expect(b.keys).toEqual(["Seoul", "hometown"]);
    expect((await versions(id)).length).toBe(start + 2);

    const edited = await lore.updateLoreEntry(user, id, a.id, { content: "A night-shift nurse." });
    expect(edited).toMatchObject({ name: "Mina", keys: ["Mina", "sister"], content: "A night-shift nurse." });
    // A save that changes nothing makes no version.
    await lore.updateLoreEntry(user, id, a.id, { content: "A night-shift nurse." });
    expect((await versions(id)).length).toBe(start + 3);

    await lore.setLoreEntryEnabled(user, id, a.id, false);
    await lore.moveLoreEntry(user, id, b.id, "up");
    const { book } = await lore.getLorebook(user, id);
    const ordered = [...book.entries].sort((x, y) => x.insertion_order - y.insertion_order);
    expect(ordered.map((entry) => entry.name)).toEqual(["Seoul", "Mina"]);
    expect(ordered[1]!.enabled).toBe(false);

    await lore.deleteLoreEntry(user, id, b.id);
    expect((await lore.getLorebook(user, id)).book.entries.map((entry) => entry.name)).toEqual(["Mina"]);
    await expect(lore.deleteLoreEntry(user, id, b.id)).rejects.toMatchObject({ status: 404, message: "Lore entry not found" });
  });

  it("a refused entry writes nothing and names its field", async () => {
    const user = await newUser();
    const { id } = await persona(user);
    const start = (await versions(id)).length;
    await expect(lore.addLoreEntry(user, id, { name: "Mina", keys: [], content: "x" })).rejects.toMatchObject({
      status: 400,
      errors: { keys: ["Add at least one key"] },
    });
    await expect(lore.addLoreEntry(user, id, { name: "Mina", keys: ["(?!a)b"], use_regex: true, content: "x" })).rejects.toMatchObject({
      status: 400,
      errors: { keys: [expect.stringContaining("without look-arounds or back-references")] },
    });
    const entry = await lore.addLoreEntry(user, id, mina);
    await expect(lore.updateLoreEntry(user, id, entry.id, { content: "" })).rejects.toMatchObject({
      errors: { content: ["Content is required"] },
    });
    expect((await lore.getLorebook(user, id)).book.entries[0]!.content).toBe(mina.content);
    expect((await versions(id)).length).toBe(start + 1);
  });

  it("holds at most 200 entries", async () => {
    const user = await newUser();
    const { id } = await persona(user);
    await lore.addLoreEntries(
      user,
      id,
      Array.from({ length: 200 }, (_, i) => ({ name: `Entry ${i}`, keys: [`key${i}`], content: "x" })),
    );
    await expect(lore.addLoreEntry(user, id, mina)).rejects.toMatchObject({ status: 400, message: "A lorebook holds at most 200 entries" });
    await expect(lore.addLoreEntries(user, id, [mina])).rejects.toMatchObject({ message: "A lorebook holds at most 200 entries" });
    expect((await lore.getLorebook(user, id)).book.entries).toHaveLength(200);
  });

  it("two edits at once lose neither", async () => {
    const user = await newUser();
    const { id } = await persona(user);
    await Promise.all(Array.from({ length: 8 }, (_, i) => lore.addLoreEntry(user, id, { name: `E${i}`, keys: [`k${i}`], content: "x" })));
    expect((await lore.getLorebook(user, id)).book.entries).toHaveLength(8);
  });

  it("another creator's persona is a 404 and stays untouched", async () => {
    const owner = await newUser();
    const stranger = await newUser();
    const { id } = await persona(owner);
    const entry = await lore.addLoreEntry(owner, id, mina);
    await expect(lore.getLorebook(stranger, id)).rejects.toMatchObject({ status: 404 });
    await expect(lore.addLoreEntry(stranger, id, mina)).rejects.toMatchObject({ status: 404 });
    await expect(lore.updateLoreEntry(stranger, id, entry.id, { content: "Hijacked" })).rejects.toMatchObject({ status: 404 });
    await expect(lore.deleteLoreEntry(stranger, id, entry.id)).rejects.toMatchObject({ status: 404 });
    await expect(lore.compilePersonaLore(stranger, id)).rejects.toMatchObject({ status: 404 });
    await expect(lore.getLorebook(stranger, "not-a-uuid")).rejects.toMatchObject({ status: 404 });
    expect((await lore.getLorebook(owner, id)).book.entries[0]!.content).toBe(mina.content);
  });
});

describe("history", () => {
  it("says the lorebook changed, compares it entry by entry, and a restore brings it back", async () => {
    const user = await newUser();
    const { id } = await persona(user);
    const entry = await lore.addLoreEntry(user, id, mina);
    const before = (await versions(id)).at(-1)!.version;
    await lore.updateLoreEntry(user, id, entry.id, { content: "A firefighter in Daegu." });
    await lore.addLoreEntry(user, id, { name: "Jun Park", keys: ["Jun"], content: "Her rival." });

    const list = await history.listVersions(user, id, {});
    const summaries = list.items.map((item) => item.summary).join(" | ");
    expect(summaries).toMatch(/Lore: \+1 entry/);
    expect(summaries).toMatch(/Lore changed/);

    const latest = (await versions(id)).at(-1)!.version;
    const comparison = await history.compare(user, id, before, latest);
    const field = comparison.fields.find((f) => f.field === "lore");
    expect(field?.changed).toBe(true);
    const text = field && field.kind === "text" ? field.parts.map((part) => `${part.op}:${part.text}`).join("") : "";
    expect(text).toContain("Daegu");
    expect(text).toContain("Jun Park");

    await history.restoreVersion(user, id, before, {});
    const { book } = await lore.getLorebook(user, id);
    expect(book.entries.map((e) => [e.name, e.content])).toEqual([["Mina", mina.content]]);
  });
});

describe("a persona imported before lorebooks were read", () => {
  it("has its card's book as its lorebook, with ids that hold until its first change stores it", async () => {
    const { CARD_META_VERSION } = await import("~/domain/persona-shapes");
    const { personas } = await import("~/infra/db/schema.server");
    const user = await newUser();
    const { id } = await persona(user);
    const book = {
      name: "Eldoria",
      entries: [{ keys: ["glade"], content: "A sunlit clearing.", extensions: {}, enabled: true, insertion_order: 1 }],
    };
    await withServiceRole("test", (tx) =>
      tx
        .update(personas)
        .set({ cardMeta: { version: CARD_META_VERSION, importedAs: "x", character_book: book } })
        .where(eq(personas.id, id)),
    );
    const first = await lore.getLorebook(user, id);
    expect(first.book.entries.map((e) => [e.id, e.content])).toEqual([["card-1", "A sunlit clearing."]]);
    expect((await lore.getLorebook(user, id)).book.entries[0]!.id).toBe("card-1");
    await lore.updateLoreEntry(user, id, "card-1", { content: "A moonlit clearing." });
    await lore.addLoreEntry(user, id, mina);
    const after = await lore.getLorebook(user, id);
    expect(after.book.card).toBe(true);
    expect(after.book.book).toEqual({ name: "Eldoria" });
    expect(after.book.entries.map((e) => e.content)).toEqual(["A moonlit clearing.", mina.content]);
  });
});

describe("chat's lore", () => {
  it("a reply draws on the entries whose keys come up, and the constant ones", async () => {
    const user = await newUser();
    const { id } = await persona(user);
    await lore.addLoreEntry(user, id, mina);
    await lore.addLoreEntry(user, id, { name: "Rules", keys: ["rules"], content: "Kira never swears.", constant: true });
    const { persona: row } = await lore.getLorebook(user, id);
    expect((await lore.loreForReply(row, ["Hi!", "How is your sister?"])).map((e) => e.name)).toEqual(["Mina", "Rules"]);
    expect((await lore.loreForReply(row, ["Hi!"])).map((e) => e.name)).toEqual(["Rules"]);
  });
});
