// Editing the Extended Persona Profile on a real database (PGlite in npm test, PostgreSQL 15 with
// DATABASE_URL): every section saves, from its form and as JSON; a save that changes nothing makes
// no version and starts no test run; a wrong type, a list that is text, text that is a list or
// 1,000 items answers with the field's message and stores nothing; another creator's persona is 404.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { PROFILE_SECTIONS, profileSection, sectionFormValues } from "~/domain/profile-edit";
import { formSectionValues, sectionSchema } from "~/domain/profile-form";

process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), "pf-profile-"));

const { createCreator, installTestDatabase } = await import("../../tests/support/test-database");
const { closeDatabase, withServiceRole } = await import("~/infra/db/db.server");
const { personaVersions, probeRuns } = await import("~/infra/db/schema.server");
const personasService = await import("./personas.server");
const profile = await import("./persona-profile.server");

let handle: Awaited<ReturnType<typeof installTestDatabase>>;
beforeAll(async () => {
  handle = await installTestDatabase();
});
afterAll(async () => {
  await closeDatabase();
});

const newUser = () => createCreator(handle, "free", { first: "Pro", last: "File" });
const newPersona = (user: Awaited<ReturnType<typeof newUser>>) =>
  personasService.createPersona(user, {
    name: "Kira Moon",
    type: "vtuber",
    gender: "female",
    ageRange: "25-34",
    interests: ["gaming", "music"],
    description: "A night-shift streamer.",
    personality: ["Curious", "Reserved"],
    backstory: "Kira grew up above a noodle shop.",
  });

const counts = async (personaId: string) => ({
  versions: (await withServiceRole("test", (tx) => tx.select().from(personaVersions).where(eq(personaVersions.personaId, personaId))))
    .length,
  runs: (await withServiceRole("test", (tx) => tx.select().from(probeRuns).where(eq(probeRuns.personaId, personaId)))).length,
});

/** What the section's form posts when the creator changes nothing. */
function unchangedForm(persona: Parameters<typeof personasService.personaExtended>[0], key: string) {
  const section = profileSection(key)!;
  const parsed = sectionSchema(section).safeParse(sectionFormValues(personasService.personaExtended(persona), section));
  expect(parsed.success).toBe(true);
  return formSectionValues(section, parsed.data as Record<string, unknown>);
}

describe("every section saves", () => {
  it("each section, posted from its form unchanged, is accepted and makes no version and no test run", async () => {
    const user = await newUser();
    const persona = await newPersona(user);
    const before = await counts(persona.id);
    for (const section of PROFILE_SECTIONS) {
      const saved = await profile.saveProfileSection(user, persona.id, section, unchangedForm(persona, section.key));
      expect(saved.changed, section.title).toBe(false);
    }
    expect(await counts(persona.id)).toEqual(before);
  });

  it("every field of the Personal and Additional Info sections can be edited, lists one item per line", async () => {
    const user = await newUser();
    const persona = await newPersona(user);
    const before = await counts(persona.id);
    const personal = profileSection("personal")!;
    const form = sectionSchema(personal).safeParse({
      languages: "English\nPortuguese\n\n",
      favoriteFood: "Pastéis de nata",
      hobbies: "Surfing\n  Fado singing ",
      favoritePlaces: "Alfama",
    });
    expect(form.success).toBe(true);
    const saved = await profile.saveProfileSection(
      user,
      persona.id,
      personal,
      formSectionValues(personal, form.data as Record<string, unknown>),
    );
    expect(saved.changed).toBe(true);
    const additional = profileSection("additional")!;
    const second = await profile.saveProfileSectionJson(user, persona.id, "additional", {
      dailyRoutine: "She wakes at six. She cooks. She sleeps.",
      challengesOvercome: "A burnt kitchen",
      influences: ["Her grandmother"],
      secretSkills: ["Knife juggling", "Latte art"],
    });
    expect(second.changed).toBe(true);
    const sheet = personasService.personaExtended(second.persona);
    expect(sheet).toMatchObject({
      languages: ["English", "Portuguese"],
      favoriteFood: "Pastéis de nata",
      hobbies: ["Surfing", "Fado singing"],
      favoritePlaces: ["Alfama"],
      dailyRoutine: "She wakes at six. She cooks. She sleeps.",
      challengesOvercome: "A burnt kitchen",
      influences: ["Her grandmother"],
      secretSkills: ["Knife juggling", "Latte art"],
    });
    expect(additional.fields.map((f) => f.key)).toEqual(["dailyRoutine", "challengesOvercome", "influences", "secretSkills"]);
    const after = await counts(persona.id);
    expect(after.versions).toBe(before.versions + 2);

    // The same values again: nothing to save.
    const again = await profile.saveProfileSectionJson(user, persona.id, "personal", { languages: ["English", "Portuguese"] });
    expect(again.changed).toBe(false);
    expect(await counts(persona.id)).toEqual(after);
  });

  it("JSON fields not given stay as they were; nested facts are named by their key", async () => {
    const user = await newUser();
    const persona = await newPersona(user);
    const before = personasService.personaExtended(persona);
    const saved = await profile.saveProfileSectionJson(user, persona.id, "social", { "socialCircle.friends": "Two chefs from Porto" });
    const sheet = personasService.personaExtended(saved.persona);
    expect(sheet.socialCircle).toEqual({ ...before.socialCircle, friends: "Two chefs from Porto" });
  });
});

describe("bad input answers with the field's message and stores nothing", () => {
  it.each([
    ["a list as text", "personal", { languages: "English, French" }, { languages: ["Languages must be a list of text"] }],
    ["text as a list", "personal", { favoriteFood: ["Ramen"] }, { favoriteFood: ["Must be text"] }],
    [
      "1,000 items",
      "personal",
      { hobbies: Array.from({ length: 1000 }, (_, i) => `Hobby ${i}`) },
      { hobbies: ["Hobbies: at most 8 items"] },
    ],
    ["a number in a list", "additional", { secretSkills: ["Juggling", 7] }, { secretSkills: ["Secret Skills must be a list of text"] }],
    ["an unknown field", "background", { favoriteFood: "Ramen" }, { favoriteFood: ["Unknown field"] }],
  ])("%s", async (_, section, body, errors) => {
    const user = await newUser();
    const persona = await newPersona(user);
    const before = await counts(persona.id);
    await expect(profile.saveProfileSectionJson(user, persona.id, section, body)).rejects.toMatchObject({ status: 400, errors });
    expect(await counts(persona.id)).toEqual(before);
    expect(personasService.personaExtended(await personasService.getPersona(user, persona.id))).toEqual(
      personasService.personaExtended(persona),
    );
  });

  it("a form's list with too many lines, and a body that is no object", async () => {
    const personal = profileSection("personal")!;
    const parsed = sectionSchema(personal).safeParse({ hobbies: Array.from({ length: 1000 }, (_, i) => `Hobby ${i}`).join("\n") });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.message)).toEqual(["Hobbies: at most 8 items"]);
    const user = await newUser();
    const persona = await newPersona(user);
    await expect(profile.saveProfileSectionJson(user, persona.id, "personal", ["English"])).rejects.toMatchObject({ status: 400 });
    await expect(profile.saveProfileSectionJson(user, persona.id, "hobbies", {})).rejects.toMatchObject({ status: 404 });
  });

  it("another creator's persona is 404, as an unknown one", async () => {
    const owner = await newUser();
    const persona = await newPersona(owner);
    const stranger = await newUser();
    await expect(profile.saveProfileSectionJson(stranger, persona.id, "background", { birthplace: "Hijacked" })).rejects.toMatchObject({
      status: 404,
    });
    expect(personasService.personaExtended(await personasService.getPersona(owner, persona.id)).birthplace).not.toBe("Hijacked");
  });
});
