// The card check of a persona on the database (docs/cards.md, Card check): findings for the card it
// exports and for the file it came from, one-click fixes as new versions with a history note,
// and the answers to bad input: no fix for the rule (400), a persona changed meanwhile or a
// finding gone (409, nothing changed), another creator's persona (404).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), "pf-card-check-"));

const { createCreator, installTestDatabase } = await import("../../tests/support/test-database");
const { closeDatabase } = await import("~/infra/db/db.server");
const { resetRateLimits } = await import("~/infra/web/rate-limit.server");
const { portraitPng, withTextChunks } = await import("~/infra/formats/png.server");
const exporter = await import("./persona-export.server");
const checker = await import("./card-check.server");
const history = await import("./persona-history.server");

let handle: Awaited<ReturnType<typeof installTestDatabase>>;
beforeAll(async () => {
  handle = await installTestDatabase();
});
beforeEach(() => resetRateLimits());
afterAll(async () => {
  await closeDatabase();
});

const risuLike = {
  spec: "chara_card_v3",
  spec_version: "3.0",
  data: {
    name: "Mira",
    description: "Mira is a cartographer who maps the drowned city.",
    personality: "curious, patient",
    scenario: "",
    first_mes: "Hello, {{user}}. Mind the water.",
    mes_example: "",
    creator_notes: "",
    creator_notes_multilingual: { en: "A cartographer of the drowned city." },
    alternate_greetings: [],
    group_only_greetings: [],
    tags: ["fantasy"],
    creator: "someone",
    character_version: "2",
    extensions: { world: "Drowned City", talkativeness: "0.5" },
    character_book: {
      entries: [
        {
          keys: ["tower"],
          content: "@@depth 4\n@@role system\nThe old tower leans east.",
          enabled: true,
          insertion_order: 10,
          extensions: {},
        },
        { keys: ["harbour"], content: "The harbour floods at dusk.", enabled: true, insertion_order: 20, extensions: {} },
      ],
    },
  },
};

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64");
/** A PNG as RisuAI writes V3: only the ccv3 chunk. */
const v3OnlyPng = () => withTextChunks(portraitPng("mira", 64), [{ keyword: "ccv3", text: b64(risuLike) }]);

describe("the card check of an imported persona", () => {
  it("says what the file had, what the export would carry, and fixes one finding at a time as new versions", async () => {
    const user = await createCreator(handle, "active");
    const imported = await exporter.importCardFile(user, v3OnlyPng());
    // Right after the import: the check of the file as it came.
    expect(imported.cardCheck.map((f) => f.rule)).toEqual(
      expect.arrayContaining(["v3-without-v2", "lore-decorators", "linked-world", "v3-only-field"]),
    );
    expect(imported.finishImport?.guess).toMatchObject({ type: expect.any(String), interests: expect.any(Array) });
    await exporter.finishImport(user, imported.id, { ...imported.finishImport!.guess, gender: "female" });

    const check = await checker.cardCheck(user, imported.id);
    expect(check.imported.map((f) => f.rule)).toEqual(["v3-without-v2"]);
    expect(check.findings.map((f) => `${f.rule} ${f.field}`)).toEqual([
      "lore-decorators character_book.entries[0].content",
      "linked-world extensions.world",
      "v3-only-field creator_notes_multilingual",
    ]);

    // A stale version changes nothing.
    await expect(
      checker.fixCardFinding(user, imported.id, { rule: "linked-world", field: "extensions.world", version: check.version + 5 }),
    ).rejects.toMatchObject({ status: 409 });
    expect(await history.currentVersion(user, imported.id)).toMatchObject({ version: check.version });

    const fixed = await checker.fixCardFinding(user, imported.id, {
      rule: "lore-decorators",
      field: "character_book.entries[0].content",
      version: check.version,
    });
    expect(fixed.version).toBe(check.version + 1);
    const page = await history.listVersions(user, imported.id);
    expect(page.items[0]).toMatchObject({ version: fixed.version, label: "Edited" });
    expect(page.items[0]!.summary).toMatch(/^Card check: turned @@depth 4, @@role system of "tower" into entry settings/);

    const unlinked = await checker.fixCardFinding(user, imported.id, { rule: "linked-world", field: "extensions.world" });
    const mirrored = await checker.fixCardFinding(user, imported.id, { rule: "v3-only-field", field: "creator_notes_multilingual" });
    expect(mirrored.version).toBe(unlinked.version + 1);
    // What is left is a note with nothing more to do: the field is still one other apps drop.
    const left = (await checker.cardCheck(user, imported.id)).findings;
    expect(left).toEqual([expect.objectContaining({ rule: "v3-only-field", severity: "info" })]);
    expect(left[0]).not.toHaveProperty("fix");

    // The export carries what the fixes wrote.
    const card = JSON.parse((await exporter.exportFile(user, imported.id, "card-json")).body as string);
    expect(card.data.character_book.entries[0]).toMatchObject({
      content: "The old tower leans east.",
      extensions: { position: 4, depth: 4, role: 0 },
    });
    expect(card.data.extensions.world).toBe("");
    expect(card.data.creator_notes).toContain("A cartographer of the drowned city.");

    // A finding that is gone, and a rule with no fix.
    await expect(checker.fixCardFinding(user, imported.id, { rule: "linked-world", field: "extensions.world" })).rejects.toMatchObject({
      status: 409,
    });
    await expect(checker.fixCardFinding(user, imported.id, { rule: "no-greeting", field: "first_mes" })).rejects.toMatchObject({
      status: 400,
    });
    await expect(checker.fixCardFinding(user, imported.id, { rule: "nonsense", field: "x" })).rejects.toMatchObject({ status: 400 });

    // Restoring the version before the fixes brings the card data back with the lore.
    await history.restoreVersion(user, imported.id, check.version);
    expect((await checker.cardCheck(user, imported.id)).findings.map((f) => f.rule)).toEqual([
      "lore-decorators",
      "linked-world",
      "v3-only-field",
    ]);

    // Another creator's persona is not found, and nothing of it changes.
    const stranger = await createCreator(handle, "active");
    await expect(checker.cardCheck(stranger, imported.id)).rejects.toMatchObject({ status: 404 });
    await expect(checker.fixCardFinding(stranger, imported.id, { rule: "linked-world", field: "extensions.world" })).rejects.toMatchObject({
      status: 404,
    });
  });

  it("a persona made here has a clean card", async () => {
    const user = await createCreator(handle, "active");
    const personas = await import("./personas.server");
    const created = await personas.createPersona(user, {
      name: "Nova",
      type: "companion",
      gender: "female",
      ageRange: "25-34",
      interests: ["music"],
      personality: ["Curious"],
      description: "A night-shift radio host.",
      backstory: "",
    });
    expect((await checker.cardCheck(user, created.id)).findings).toEqual([]);
  });
});
