// Persona creation, drafts, reading and the Free plan's limit, on a real database
// (PGlite in npm test, PostgreSQL 15 in .ci/run — where the race below is a real race).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), "pf-personas-"));

const { createCreator, installTestDatabase } = await import("../../tests/support/test-database");
const { closeDatabase, withUser } = await import("~/infra/db/db.server");
const { useTextGenerator, AiError, countWords } = await import("~/infra/ai/ai.server");
const { personas } = await import("~/infra/db/schema.server");
const service = await import("./personas.server");
const { describePersona } = await import("~/domain/autofill");

let handle: Awaited<ReturnType<typeof installTestDatabase>>;
beforeAll(async () => {
  handle = await installTestDatabase();
});
afterAll(async () => {
  useTextGenerator(undefined);
  await closeDatabase();
});

const newUser = (status = "free") => createCreator(handle, status, { first: "Test", last: "Creator" });

const complete = (name = "Nova") => ({
  name,
  type: "vtuber",
  gender: "female",
  ageRange: "18-24",
  interests: ["gaming", "music"],
  description: "A cheerful late-night streamer.",
  personality: ["Outgoing", "Creative"],
});

describe("creating personas", () => {
  it("'Create Persona' stores a complete persona as active", async () => {
    const user = await newUser();
    const persona = await service.createPersona(user, complete());
    expect(persona).toMatchObject({
      userId: user.id,
      name: "Nova",
      status: "active",
      imageStyle: "photorealistic",
      interests: ["gaming", "music"],
    });
  });

  it("'Save Draft' needs only a valid name and stores in_progress", async () => {
    const user = await newUser();
    const draft = await service.saveDraft(user, { name: "Half Done" });
    expect(draft).toMatchObject({ status: "in_progress", type: null, gender: null, interests: [], description: null });
    await expect(service.saveDraft(user, { name: "X" })).rejects.toMatchObject({
      status: 400,
      errors: { name: ["Name must be at least 2 characters"] },
    });
  });

  it("bad input gets the spec's messages and stores nothing", async () => {
    const user = await newUser();
    await expect(
      service.createPersona(user, {
        ...complete(),
        type: "wizard",
        interests: ["gaming", "tech", "art", "music"],
        description: "x".repeat(151),
        personality: ["Outgoing", "Reserved", "Social", "Quiet", "Assertive", "Reflective", "Stable", "Calm"],
      }),
    ).rejects.toMatchObject({
      status: 400,
      errors: {
        type: ["Invalid persona type"],
        interests: ["Maximum 3 interests allowed"],
        description: ["Description must be 150 characters or less"],
      },
    });
    const rows = await withUser(user.id, (tx) => tx.select().from(personas));
    expect(rows).toHaveLength(0);
  });

  it("another user's persona is 'Persona Not Found', like an unknown or malformed id", async () => {
    const owner = await newUser();
    const stranger = await newUser();
    const persona = await service.createPersona(owner, complete());
    expect((await service.getPersona(owner, persona.id)).name).toBe("Nova");
    for (const id of [persona.id, "00000000-0000-0000-0000-000000000000", "' or 1=1 --"]) {
      await expect(service.getPersona(stranger, id)).rejects.toMatchObject({ status: 404, message: "Persona Not Found" });
    }
  });
});

describe("Continue Creating: a reopened draft is the same record", () => {
  it("Save Draft updates the draft; Create Persona makes that record active, with no duplicate", async () => {
    const user = await newUser();
    const draft = await service.saveDraft(user, { name: "Half Done", type: "vtuber" });
    const saved = await service.updateDraft(user, draft.id, { name: "Nearly Done", type: "vtuber", gender: "female" });
    expect(saved).toMatchObject({ id: draft.id, name: "Nearly Done", gender: "female", status: "in_progress" });
    const created = await service.completeDraft(user, draft.id, complete("Finished"));
    expect(created).toMatchObject({ id: draft.id, name: "Finished", status: "active", interests: ["gaming", "music"] });
    expect(created.createdAt).toEqual(draft.createdAt);
    const rows = await withUser(user.id, (tx) => tx.select().from(personas));
    expect(rows.map((r) => r.id)).toEqual([draft.id]);
    // Finishing a draft is no new creation.
    expect(await service.personasCreated(user)).toBe(1);
  });

  it("finishing validates everything and changes nothing on failure", async () => {
    const user = await newUser();
    const draft = await service.saveDraft(user, { name: "Half Done" });
    await expect(service.completeDraft(user, draft.id, { name: "Half Done", type: "vtuber" })).rejects.toMatchObject({
      status: 400,
      errors: { gender: ["Invalid gender"], ageRange: ["Invalid age range"], interests: ["At least one interest is required"] },
    });
    await expect(service.updateDraft(user, draft.id, { name: "" })).rejects.toMatchObject({ status: 400 });
    expect(await service.getPersona(user, draft.id)).toMatchObject({ name: "Half Done", status: "in_progress" });
  });

  it("another user's draft, an unknown id and a persona that is no draft are refused without a write", async () => {
    const owner = await newUser();
    const stranger = await newUser();
    const draft = await service.saveDraft(owner, { name: "Mine" });
    for (const id of [draft.id, "00000000-0000-0000-0000-000000000000", "not-a-uuid"]) {
      await expect(service.completeDraft(stranger, id, complete("Stolen"))).rejects.toMatchObject({
        status: 404,
        message: "Persona Not Found",
      });
      await expect(service.updateDraft(stranger, id, { name: "Stolen" })).rejects.toMatchObject({ status: 404 });
    }
    const active = await service.completeDraft(owner, draft.id, complete("Mine"));
    await expect(service.updateDraft(owner, active.id, { name: "Back to draft" })).rejects.toMatchObject({
      status: 409,
      code: "not_a_draft",
    });
    expect(await service.getPersona(owner, draft.id)).toMatchObject({ name: "Mine", status: "active" });
  });

  it("a user at the limit can still finish a draft", async () => {
    const user = await newUser();
    for (let i = 0; i < 9; i++) await service.saveDraft(user, { name: `Draft ${i}` });
    const last = await service.saveDraft(user, { name: "Tenth" });
    expect((await service.usage(user)).canCreateMore).toBe(false);
    expect(await service.completeDraft(user, last.id, complete("Tenth"))).toMatchObject({ id: last.id, status: "active" });
  });
});

describe("the Free plan's limit", () => {
  it("ten personas at most, drafts included; deleting frees a slot; personas_created counts every creation", async () => {
    const user = await newUser();
    for (let i = 0; i < 5; i++) await service.createPersona(user, complete(`Persona ${i}`));
    // Asked while there is room (on the embedded database the count is then kept): the next
    // writes are seen at once.
    expect(await service.usage(user)).toEqual({ subscriptionStatus: "free", canCreateMore: true });
    for (let i = 0; i < 5; i++) await service.saveDraft(user, { name: `Draft ${i}` });
    expect(await service.usage(user)).toEqual({ subscriptionStatus: "free", canCreateMore: false });
    await expect(service.saveDraft(user, { name: "Eleventh" })).rejects.toMatchObject({
      status: 403,
      code: "persona_limit_reached",
      message:
        "You've reached the maximum of 10 personas for the Free Plan. Upgrade to Premium for unlimited persona creation and additional features.",
    });
    const [first] = await withUser(user.id, (tx) => tx.select().from(personas).limit(1));
    await withUser(user.id, (tx) => tx.delete(personas).where(eq(personas.id, first.id)));
    expect((await service.usage(user)).canCreateMore).toBe(true);
    await service.createPersona(user, complete("Replacement"));
    expect(await service.personasCreated(user)).toBe(11);
  });

  it("twenty simultaneous creations by a user with 9 personas make exactly one more", async () => {
    const user = await newUser();
    for (let i = 0; i < 9; i++) await service.saveDraft(user, { name: `Draft ${i}` });
    const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => service.createPersona(user, complete(`Racer ${i}`))));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results) {
      if (r.status === "rejected") expect(r.reason).toMatchObject({ status: 403, code: "persona_limit_reached" });
    }
    const rows = await withUser(user.id, (tx) => tx.select().from(personas));
    expect(rows).toHaveLength(10);
  });

  it("Premium ('active') has no limit", async () => {
    const user = await newUser("active");
    for (let i = 0; i < 11; i++) await service.saveDraft(user, { name: `Premium ${i}` });
    expect(await service.usage(user)).toEqual({ subscriptionStatus: "active", canCreateMore: true });
  });
});

describe("backstory generation", () => {
  it("needs name, type, gender and a trait", async () => {
    const user = await newUser();
    await expect(
      service.generateBackstory(user, { name: "Nova", type: "vtuber", gender: "female", personality: [] }),
    ).rejects.toMatchObject({
      status: 400,
      message: "Please provide name, type, gender, and at least one personality trait.",
    });
  });

  it("writes 800+ words offline", async () => {
    const user = await newUser();
    const { backstory } = await service.generateBackstory(user, complete());
    expect(countWords(backstory)).toBeGreaterThanOrEqual(800);
    expect(backstory).toContain("Nova");
  });

  it("quotes the creator's description, never one written for another name or other interests", async () => {
    const user = await newUser();
    const own = await service.generateBackstory(user, { ...complete(), description: "A sunny globetrotter who cooks for strangers" });
    expect(own.backstory).toContain("A sunny globetrotter who cooks for strangers");
    // Auto-filled as 'Orion Gray', then renamed: the old line names someone else.
    const renamed = await service.generateBackstory(user, {
      ...complete("Nova QA"),
      description: "Orion Gray is a charismatic digital personality known for sharp takes on music.",
    });
    expect(renamed.backstory).not.toContain("Orion Gray");
    // An auto-fill line about interests the creator has since changed.
    const line = describePersona({ type: "vtuber", interests: ["cooking", "travel"] }, () => 0);
    const changed = await service.generateBackstory(user, { ...complete(), description: line, interests: ["gaming"] });
    expect(changed.backstory).not.toContain(line.slice(0, 30));
  });

  it("tells the fact sheet the persona is created with, and later the one stored with it (docs/product.md, Fact sheet)", async () => {
    const user = await newUser();
    const { backstory: inWizard } = await service.generateBackstory(user, complete("Kira Moon"));
    const created = await service.createPersona(user, { ...complete("Kira Moon"), backstory: inWizard });
    const sheet = service.personaExtended(created);
    expect(created.extended).toMatchObject({ birthplace: sheet.birthplace, currentResidence: sheet.currentResidence });
    expect(inWizard).toContain(sheet.birthplace);
    expect(inWizard).toContain(sheet.currentResidence.split(",")[0]);

    // The creator's own facts win from then on: the next story tells the edited birthplace.
    await withUser(user.id, (tx) =>
      tx
        .update(personas)
        .set({ extended: { ...sheet, birthplace: "Reykjavik, Iceland" } })
        .where(eq(personas.id, created.id)),
    );
    const again = await service.generateBackstory(user, { ...complete("Kira Moon"), personaId: created.id });
    expect(again.backstory).toContain("Reykjavik, Iceland");
    expect(again.backstory).not.toBe(inWizard);

    // Another creator's persona is not found, and nothing is generated from it.
    const stranger = await newUser();
    await expect(service.generateBackstory(stranger, { ...complete(), personaId: created.id })).rejects.toMatchObject({ status: 404 });
  });

  it("a failing generator is 'Generation Failed', not a crash", async () => {
    const user = await newUser();
    useTextGenerator({
      kind: "openai",
      generateBackstory: async () => Promise.reject(new AiError("unavailable", "down")),
      chatReply: async function* () {
        yield* [];
        throw new AiError("unavailable", "down");
      },
    });
    await expect(service.generateBackstory(user, complete())).rejects.toMatchObject({
      status: 502,
      message: "Failed to generate backstory. Please try again or write your own.",
    });
    useTextGenerator(undefined);
  });
});

describe("the voice (docs/product.md, Voice)", () => {
  it("saves every field, trimmed, lists one per line; an edit is a version; bad input stores nothing", async () => {
    const { personaVersions } = await import("~/infra/db/schema.server");
    const user = await newUser();
    const persona = await service.createPersona(user, complete("Kira Moon"));
    const saved = await service.updateVoice(user, persona.id, {
      greeting: "  Heya, {{user}}! Kira here, fresh off stream.  ",
      alternateGreetings: "Oh! You came back!\r\n\r\nWelcome to the late show.",
      exampleDialogue: "{{user}}: Any tips?\n{{char}}: Sleep is for people without chat, nya.",
      speechStyle: "Short, bright sentences; ends questions with 'nya'.",
      catchphrases: ["Stay cozy!", "  GG, chat  "],
      appearance: "Silver bob, cat-ear headphones.",
      scenario: "",
      postHistoryInstructions: " Stay {{char}}. ",
      authorsNote: "{{char}} is on a winning streak.",
      authorsNoteDepth: "7",
    });
    expect(service.personaVoice(saved)).toEqual({
      greeting: "Heya, {{user}}! Kira here, fresh off stream.",
      alternateGreetings: ["Oh! You came back!", "Welcome to the late show."],
      exampleDialogue: "{{user}}: Any tips?\n{{char}}: Sleep is for people without chat, nya.",
      speechStyle: "Short, bright sentences; ends questions with 'nya'.",
      catchphrases: ["Stay cozy!", "GG, chat"],
      appearance: "Silver bob, cat-ear headphones.",
      scenario: null,
      systemPrompt: null,
      postHistoryInstructions: "Stay {{char}}.",
      authorsNote: "{{char}} is on a winning streak.",
      authorsNoteDepth: 7,
    });
    const versions = await withUser(user.id, (tx) => tx.select().from(personaVersions).where(eq(personaVersions.personaId, persona.id)));
    expect(versions.map((v) => v.kind).sort()).toEqual(["created", "edited"]);
    expect(versions.find((v) => v.kind === "edited")?.voice).toMatchObject({ greeting: "Heya, {{user}}! Kira here, fresh off stream." });

    await expect(
      service.updateVoice(user, persona.id, { greeting: "x".repeat(2001), catchphrases: ["a", "b", "c", "d", "e", "f"] }),
    ).rejects.toMatchObject({
      status: 400,
      errors: { greeting: ["Greeting must be 2,000 characters or less"], catchphrases: ["At most 5 catchphrases"] },
    });
    await expect(service.updateVoice(user, persona.id, { speechStyle: "bell\u0007" })).rejects.toMatchObject({
      status: 400,
      errors: { speechStyle: ["Text cannot contain control characters"] },
    });
    await expect(service.updateVoice(user, persona.id, { greeting: 42 })).rejects.toMatchObject({
      status: 400,
      errors: { greeting: ["Must be text"] },
    });
    expect(service.personaVoice(await service.getPersona(user, persona.id)).greeting).toBe("Heya, {{user}}! Kira here, fresh off stream.");

    // Another creator, an unknown id and a malformed one: not found, nothing written.
    const stranger = await newUser();
    await expect(service.updateVoice(stranger, persona.id, { greeting: "Hijacked" })).rejects.toMatchObject({ status: 404 });
    await expect(service.updateVoice(user, "00000000-0000-4000-8000-000000000000", { greeting: "Hi" })).rejects.toMatchObject({
      status: 404,
    });
    await expect(service.updateVoice(user, "nope", { greeting: "Hi" })).rejects.toMatchObject({ status: 404 });
    expect(service.personaVoice(await service.getPersona(user, persona.id)).greeting).toBe("Heya, {{user}}! Kira here, fresh off stream.");
  });
});
