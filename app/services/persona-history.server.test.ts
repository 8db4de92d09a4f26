// Persona history on a real database (PGlite in npm test, PostgreSQL 15 with DATABASE_URL):
// every write path makes exactly one version and archive/restore none; the list summarises
// each change; compare and restore follow the rules (404s, 409s, the rules of the
// persona); storage keeps one copy of an unchanged backstory; cards carry the version.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), "pf-history-"));

const { createCreator, installTestDatabase } = await import("../../tests/support/test-database");
const { closeDatabase, withServiceRole, withUser } = await import("~/infra/db/db.server");
const { personas, personaVersions } = await import("~/infra/db/schema.server");
const personasService = await import("./personas.server");
const library = await import("./persona-library.server");
const history = await import("./persona-history.server");
const exporter = await import("./persona-export.server");

let handle: Awaited<ReturnType<typeof installTestDatabase>>;
beforeAll(async () => {
  handle = await installTestDatabase();
});
afterAll(async () => {
  await closeDatabase();
});

const newUser = (plan = "free") => createCreator(handle, plan, { first: "Hist", last: "Orian" });

const complete = (name = "Nova", extra: Record<string, unknown> = {}) => ({
  name,
  type: "educator",
  gender: "female",
  ageRange: "35-44",
  interests: ["science"],
  description: "Explains things.",
  personality: ["Curious", "Reserved"],
  backstory: "Nova grew up among telescopes.",
  ...extra,
});

const versions = (personaId: string) =>
  withServiceRole("test", (tx) =>
    tx.select().from(personaVersions).where(eq(personaVersions.personaId, personaId)).orderBy(personaVersions.version),
  );

async function expectOneNewVersion(personaId: string, before: number, kind: string) {
  const rows = await versions(personaId);
  expect(rows).toHaveLength(before + 1);
  expect(rows.at(-1)).toMatchObject({ version: before + 1, kind });
}

describe("every write path makes exactly one version", () => {
  it("create, edit, image reference, restore version; archive and restore from the archive make none", async () => {
    const user = await newUser();
    const persona = await personasService.createPersona(user, complete());
    await expectOneNewVersion(persona.id, 0, "created");

    await library.updatePersona(user, persona.id, complete("Nova Quill"));
    await expectOneNewVersion(persona.id, 1, "edited");

    await withUser(user.id, (tx) => tx.update(personas).set({ imageUrl: "/images/nova.png" }).where(eq(personas.id, persona.id)));
    await expectOneNewVersion(persona.id, 2, "image");

    await library.archivePersona(user, persona.id);
    await library.restorePersona(user, persona.id);
    expect(await versions(persona.id)).toHaveLength(3);

    const restored = await history.restoreVersion(user, persona.id, 1);
    expect(restored).toMatchObject({ restoredFrom: 1, version: 4 });
    await expectOneNewVersion(persona.id, 3, "restored");
    expect((await versions(persona.id)).at(-1)!.restoredFrom).toBe(1);
  });

  it("save draft, continue a draft (save again), finish it", async () => {
    const user = await newUser();
    const draft = await personasService.saveDraft(user, { name: "Half Done" });
    await expectOneNewVersion(draft.id, 0, "draft_saved");
    await personasService.updateDraft(user, draft.id, { name: "Nearly Done", type: "vtuber" });
    await expectOneNewVersion(draft.id, 1, "draft_saved");
    await personasService.completeDraft(user, draft.id, complete("Done"));
    await expectOneNewVersion(draft.id, 2, "draft_completed");
  });

  it("finishing a draft whose fields were already complete is still a version (it stops being a draft)", async () => {
    const user = await newUser();
    const draft = await personasService.saveDraft(user, complete("Ready"));
    await personasService.completeDraft(user, draft.id, complete("Ready"));
    await expectOneNewVersion(draft.id, 1, "draft_completed");
  });

  it("importing a card: a new persona at version 1, kind imported; the card carried the version it came from", async () => {
    const user = await newUser("active");
    const persona = await personasService.createPersona(user, complete());
    await library.updatePersona(user, persona.id, complete("Nova Quill"));
    const file = await exporter.exportFile(user, persona.id, "card-json");
    const card = JSON.parse(String(file.body));
    const [v2] = (await versions(persona.id)).slice(-1);
    expect(card.data.character_version).toBe("2");
    expect(card.data.modification_date).toBe(Math.floor(v2!.createdAt.getTime() / 1000));

    const imported = await exporter.importCard(user, card);
    expect(imported.id).not.toBe(persona.id);
    await expectOneNewVersion(imported.id, 0, "imported");
    // The copy starts its own history: its card says version 1.
    const again = JSON.parse(String((await exporter.exportFile(user, imported.id, "card-json")).body));
    expect(again.data.character_version).toBe("1");
  });

  it("a write that changes nothing makes no version", async () => {
    const user = await newUser();
    const persona = await personasService.createPersona(user, complete());
    await library.updatePersona(user, persona.id, complete());
    expect(await versions(persona.id)).toHaveLength(1);
  });
});

describe("storage", () => {
  it("an unchanged backstory is stored once and read back through every later version", async () => {
    const user = await newUser();
    const persona = await personasService.createPersona(user, complete("Nova", { backstory: "Long story. ".repeat(500).trim() }));
    await library.updatePersona(user, persona.id, complete("Nova Quill", { backstory: "Long story. ".repeat(500).trim() }));
    await library.updatePersona(user, persona.id, complete("Nova Quill", { backstory: "A new story." }));
    const rows = await versions(persona.id);
    expect(rows.map((r) => [r.version, r.backstoryVersion, r.backstory === null])).toEqual([
      [1, 1, false],
      [2, 1, true],
      [3, 3, false],
    ]);
    expect((await history.getVersion(user, persona.id, 2)).backstory).toBe("Long story. ".repeat(500).trim());
    expect((await history.getVersion(user, persona.id, 3)).backstory).toBe("A new story.");
  });
});

describe("the list", () => {
  it("newest first, 20 a page, each with its kind and a one-line summary", async () => {
    const user = await newUser();
    const persona = await personasService.createPersona(user, complete());
    await library.updatePersona(user, persona.id, complete("Nova Quill"));
    await library.updatePersona(
      user,
      persona.id,
      complete("Nova Quill", { personality: ["Curious", "Creative"], backstory: "Rewritten." }),
    );
    for (let i = 0; i < 20; i++) await library.updatePersona(user, persona.id, complete("Nova Quill", { description: `Take ${i}` }));
    const first = await history.listVersions(user, persona.id);
    expect(first).toMatchObject({ total: 23, page: 1, pageCount: 2, pageSize: 20, latest: 23 });
    expect(first.items.map((v) => v.version)).toEqual(Array.from({ length: 20 }, (_, i) => 23 - i));
    expect(first.items[0]).toMatchObject({ kind: "edited", label: "Edited", summary: "Description changed" });
    const second = await history.listVersions(user, persona.id, { page: 2 });
    expect(second.items.map((v) => [v.version, v.summary])).toEqual([
      [3, "Traits: +Creative −Reserved; Backstory rewritten"],
      [2, "Name: Nova → Nova Quill"],
      [1, "First version: Nova"],
    ]);
    expect(second.items[2]).toMatchObject({ kind: "created", label: "Created" });
  });

  it("another user's persona and unknown ids are 404", async () => {
    const owner = await newUser();
    const stranger = await newUser();
    const persona = await personasService.createPersona(owner, complete());
    for (const id of [persona.id, "00000000-0000-0000-0000-000000000000", "not-a-uuid"]) {
      await expect(history.listVersions(stranger, id)).rejects.toMatchObject({ status: 404, message: "Persona Not Found" });
      await expect(history.getVersion(stranger, id, 1)).rejects.toMatchObject({ status: 404 });
      await expect(history.compare(stranger, id, 1, 1)).rejects.toMatchObject({ status: 404 });
      await expect(history.restoreVersion(stranger, id, 1)).rejects.toMatchObject({ status: 404 });
    }
    expect(await versions(persona.id)).toHaveLength(1);
  });
});

describe("compare", () => {
  it("defaults to the previous and the current version; changed fields first; lists and words", async () => {
    const user = await newUser();
    const persona = await personasService.createPersona(user, complete());
    await library.updatePersona(
      user,
      persona.id,
      complete("Nova", { personality: ["Curious", "Creative"], backstory: "Nova grew up among old telescopes." }),
    );
    const result = await history.compare(user, persona.id, undefined, undefined);
    expect([result.from, result.to, result.changed]).toEqual([1, 2, true]);
    expect(result.fields.slice(0, 2).map((f) => f.field)).toEqual(["personality", "backstory"]);
    expect(result.fields[0]).toMatchObject({ kind: "list", added: ["Creative"], removed: ["Reserved"], kept: ["Curious"] });
    expect(result.fields[1]).toMatchObject({
      kind: "text",
      parts: [
        { op: "same", text: "Nova grew up among " },
        { op: "added", text: "old " },
        { op: "same", text: "telescopes." },
      ],
    });
  });

  it("a version with itself: no differences; a missing version: 404", async () => {
    const user = await newUser();
    const persona = await personasService.createPersona(user, complete());
    const same = await history.compare(user, persona.id, 1, 1);
    expect(same.changed).toBe(false);
    await expect(history.compare(user, persona.id, 1, 2)).rejects.toMatchObject({ status: 404, message: "Version Not Found" });
    await expect(history.compare(user, persona.id, null, 1)).rejects.toMatchObject({ status: 404 });
  });
});

describe("pages and comparisons kept between requests", () => {
  it("every new version, a rename, an archive and a deletion show at once", async () => {
    const user = await newUser();
    const persona = await personasService.createPersona(user, complete());
    await library.updatePersona(user, persona.id, complete("Nova Quill"));
    const read = async () => {
      const page = await history.listVersions(user, persona.id);
      const latest = await history.compare(user, persona.id, undefined, undefined);
      return {
        name: page.persona.name,
        status: page.persona.status,
        versions: page.items.map((v) => v.version),
        compared: [latest.from, latest.to],
        latest: latest.latest,
      };
    };
    expect(await read()).toEqual({ name: "Nova Quill", status: "active", versions: [2, 1], compared: [1, 2], latest: 2 });
    expect(await read()).toEqual({ name: "Nova Quill", status: "active", versions: [2, 1], compared: [1, 2], latest: 2 });

    await library.updatePersona(user, persona.id, complete("Nova Lumen"));
    expect(await read()).toEqual({ name: "Nova Lumen", status: "active", versions: [3, 2, 1], compared: [2, 3], latest: 3 });
    await history.restoreVersion(user, persona.id, 1);
    expect(await read()).toMatchObject({ name: "Nova", versions: [4, 3, 2, 1], compared: [3, 4] });
    // An image reference is written by the image job, as the service.
    await withServiceRole("test: image done", (tx) =>
      tx.update(personas).set({ imageUrl: "/images/x/primary.png" }).where(eq(personas.id, persona.id)),
    );
    expect((await read()).versions).toEqual([5, 4, 3, 2, 1]);
    await library.archivePersona(user, persona.id);
    expect((await read()).status).toBe("archived");
    await library.deletePersona(user, persona.id);
    await expect(history.listVersions(user, persona.id)).rejects.toMatchObject({ status: 404 });
    await expect(history.compare(user, persona.id, undefined, undefined)).rejects.toMatchObject({ status: 404 });
  });

  it("another creator reading the same persona's history is still refused after the owner's was kept", async () => {
    const owner = await newUser();
    const stranger = await newUser();
    const persona = await personasService.createPersona(owner, complete());
    await history.listVersions(owner, persona.id);
    await history.compare(owner, persona.id, 1, 1);
    await expect(history.listVersions(stranger, persona.id)).rejects.toMatchObject({ status: 404 });
    await expect(history.compare(stranger, persona.id, 1, 1)).rejects.toMatchObject({ status: 404 });
    expect((await history.listVersions(owner, persona.id)).items).toHaveLength(1);
  });
});

describe("restore", () => {
  it("the current version: 409; an unknown one: 404; nothing changes", async () => {
    const user = await newUser();
    const persona = await personasService.createPersona(user, complete());
    await library.updatePersona(user, persona.id, complete("Nova Quill"));
    await expect(history.restoreVersion(user, persona.id, 2)).rejects.toMatchObject({
      status: 409,
      message: "This is already the current version",
    });
    for (const n of [0, 3, 2_147_483_647, null]) {
      await expect(history.restoreVersion(user, persona.id, n)).rejects.toMatchObject({ status: 404 });
    }
    expect(await versions(persona.id)).toHaveLength(2);
  });

  it("a version equal to the current fields is refused (it would change nothing)", async () => {
    const user = await newUser();
    const persona = await personasService.createPersona(user, complete());
    await library.updatePersona(user, persona.id, complete("Nova Quill"));
    await history.restoreVersion(user, persona.id, 1);
    await expect(history.restoreVersion(user, persona.id, 1)).rejects.toMatchObject({ status: 409, code: "same_as_current" });
    expect(await versions(persona.id)).toHaveLength(3);
  });

  it("an old draft version restores as a draft; an archived persona stays archived", async () => {
    const user = await newUser();
    const draft = await personasService.saveDraft(user, { name: "Sketch" });
    await personasService.completeDraft(user, draft.id, complete("Finished"));
    const back = await history.restoreVersion(user, draft.id, 1);
    expect(back.persona).toMatchObject({ name: "Sketch", status: "in_progress", type: null });

    const other = await personasService.createPersona(user, complete("Orbit"));
    await library.updatePersona(user, other.id, complete("Orbit Two"));
    await library.archivePersona(user, other.id);
    const restored = await history.restoreVersion(user, other.id, 1);
    expect(restored.persona).toMatchObject({ name: "Orbit", status: "archived", statusBeforeArchive: "active" });
  });

  it("a version that breaks a rule today is refused with the rule's message, nothing changed", async () => {
    const user = await newUser();
    const persona = await personasService.createPersona(user, complete());
    await library.updatePersona(user, persona.id, complete("Nova Quill"));
    // A version written before a rule existed: a name the rules now refuse (stored by the
    // database's owner, as an old row would be).
    await handle.raw.rows("update public.persona_versions set name = $2 where persona_id = $1 and version = 1", [persona.id, " x "]);
    await expect(history.restoreVersion(user, persona.id, 1)).rejects.toMatchObject({
      status: 400,
      message: "Name must be at least 2 characters",
    });
    expect(await personasService.getPersona(user, persona.id)).toMatchObject({ name: "Nova Quill" });
    expect(await versions(persona.id)).toHaveLength(2);
  });
});

describe("the voice and the profile in history", () => {
  it("an edit of either is a version that says so, compares line by line and restores", async () => {
    const profileService = await import("./persona-profile.server");
    const { profileSection } = await import("~/domain/profile-edit");
    const user = await newUser();
    const persona = await personasService.createPersona(user, complete("Kira"));
    await personasService.updateVoice(user, persona.id, { greeting: "Heya!" });
    await profileService.saveProfileSection(user, persona.id, profileSection("background")!, {
      birthplace: "Reykjavik, Iceland",
      currentResidence: "Oslo, Norway",
      occupation: "VTuber",
      education: "",
    });
    const page = await history.listVersions(user, persona.id);
    expect(page.items.map((item) => item.summary)).toEqual(["Profile changed", "Voice added", "First version: Kira"]);

    const compared = await history.compare(user, persona.id, 1, 3);
    expect(compared.fields.filter((f) => f.changed).map((f) => f.label)).toEqual(["Voice", "Extended Persona Profile"]);

    // Restoring version 2 brings back the profile as it was, and keeps its voice.
    await history.restoreVersion(user, persona.id, 2);
    const restored = await personasService.getPersona(user, persona.id);
    expect(personasService.personaExtended(restored).birthplace).not.toBe("Reykjavik, Iceland");
    expect(personasService.personaVoice(restored).greeting).toBe("Heya!");
  });
});
