// Round trips that change nothing (docs/cards.md, Round trips): a card imported and exported
// unedited, after at most the import's one finishing step, comes out with every field equal to
// what came in — its texts with their macros and line endings, personality, character_version,
// dates, unknown extensions, and its lorebook's entries with their keys as they were (duplicates
// and spaces too) and their comments as titles. Fields compare as JSON values (an object's key
// order is no part of a JSON value).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), "pf-card-round-trip-"));

const { createCreator, installTestDatabase } = await import("../../tests/support/test-database");
const { closeDatabase } = await import("~/infra/db/db.server");
const { resetRateLimits } = await import("~/infra/web/rate-limit.server");
const { readCardFromPng, portraitPng, readPngTextChunks, withTextChunks } = await import("~/infra/formats/png.server");
const { writeZip, readZip } = await import("~/infra/formats/zip.server");
const { cardRoundTripDifferences } = await import("../../tests/support/card-round-trip");
const personasService = await import("./personas.server");
const exporter = await import("./persona-export.server");

let handle: Awaited<ReturnType<typeof installTestDatabase>>;
beforeAll(async () => {
  handle = await installTestDatabase();
});
beforeEach(() => resetRateLimits());
afterAll(async () => {
  await closeDatabase();
});

const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

/** A foreign V2 card with what front ends really write: macros, CRLF, a W++ personality, a lorebook with loose keys. */
const seraphinaLike = {
  spec: "chara_card_v2",
  spec_version: "2.0",
  data: {
    name: "Seraphina",
    description:
      '[Seraphina\'s Personality= "caring", "protective", "compassionate"]\r\n[Seraphina\'s body= "pink hair", "amber eyes"]\r\n<START>\r\n{{user}}: "Describe your traits?"\r\n{{char}}: *Seraphina\'s gentle smile widens.* "I am a guardian."',
    personality: "Cool, Impulsive, Wary, Quick-Witted, Curious, Smart",
    scenario: "You were attacked by beasts while wandering the magical forest of Eldoria. {{char}} found you.",
    first_mes: '*You wake with a start.* "Rest, {{user}}. You are safe here."',
    mes_example: '<START>\n{{user}}: "What is Eldoria?"\n{{char}}: *I turn to the window.* "A forest."',
    creator_notes: "A guardian of the glade.",
    system_prompt: "",
    post_history_instructions: "",
    alternate_greetings: [],
    tags: ["fantasy", "female", "guardian"],
    creator: "someone",
    character_version: "1.2",
    extensions: { talkativeness: "0.5", fav: false, world: "", depth_prompt: { prompt: "", depth: 4, role: "system" } },
    character_book: {
      name: "Eldoria",
      entries: [
        {
          keys: ["Eldoria", "eldoria", " forest ", ""],
          content: "The magical forest where {{char}} lives.",
          extensions: { position: 0, depth: 4 },
          enabled: true,
          insertion_order: 100,
          comment: "The forest",
        },
        {
          keys: ["glade"],
          secondary_keys: [],
          content: "@@depth 4\nA hidden glade.",
          extensions: {},
          enabled: true,
          insertion_order: 50,
          name: "Glade",
          id: 7,
        },
      ],
    },
  },
};

const v1Flat = {
  name: "Old Tom",
  description: "A ferryman.\nLives in: Riverside",
  personality: "gruff, kind",
  scenario: "",
  first_mes: "Need a crossing, {{user}}?",
  mes_example: "",
};

const v3Full = {
  spec: "chara_card_v3",
  spec_version: "3.0",
  data: {
    name: "Lumière",
    description: "{{char}} est une bibliothécaire du village de Lumière.",
    personality: "calme, curieuse",
    scenario: "",
    first_mes: "Bonjour {{user}} !",
    mes_example: "",
    creator_notes: "Default note",
    system_prompt: "Tu es {{char}}.",
    post_history_instructions: "Reste en personnage.",
    alternate_greetings: ["Salut !", "Hello there!"],
    group_only_greetings: ["Bonjour à tous."],
    tags: ["bibliothèque"],
    creator: "anon",
    character_version: "v3",
    nickname: "Lumi",
    creator_notes_multilingual: { en: "A librarian.", fr: "Une bibliothécaire." },
    source: ["https://example.com/lumiere"],
    creation_date: 1_700_000_000,
    modification_date: 1_700_000_100,
    assets: [{ type: "icon", uri: "ccdefault:", name: "main", ext: "png" }],
    extensions: { risuai: { bias: [], utilityBot: false }, z: 1, a: { b: [1, 2] } },
  },
};

async function roundTrip(card: unknown) {
  const user = await createCreator(handle, "active");
  const imported = await exporter.importCardFile(user, encode(card));
  let persona = await personasService.getPersona(user, imported.id);
  if (exporter.canFinishImport(persona)) {
    const guess = exporter.finishImportGuess(persona);
    persona = await exporter.finishImport(user, imported.id, { ...guess, gender: guess.gender ?? "other" });
  }
  const json = await exporter.exportFile(user, imported.id, "card-json");
  const png = await exporter.exportFile(user, imported.id, "card-png");
  return {
    json: JSON.parse(json.body as string),
    png: readCardFromPng(png.body as Uint8Array, { maxBytes: 8 * 1024 * 1024 }),
    persona,
  };
}

describe("a card imported and exported unedited comes out as it came in", () => {
  for (const [name, card] of [
    ["a V2 card with macros, CRLF, a W++ block and a loose lorebook", seraphinaLike],
    ["a V1 card", v1Flat],
    ["a V3 card with every V3 field", v3Full],
  ] as const) {
    it(`${name}, after the finishing step, in JSON and PNG`, async () => {
      const out = await roundTrip(card);
      expect(out.persona.status).toBe("active");
      expect(cardRoundTripDifferences(card, out.json)).toEqual([]);
      expect(cardRoundTripDifferences(card, out.png)).toEqual([]);
    });
  }
});

describe("what an import keeps as the card had it", () => {
  it("a lorebook entry without a name takes its comment as its title, and goes back out without a name", async () => {
    const user = await createCreator(handle, "active");
    const imported = await exporter.importCardFile(user, encode(seraphinaLike));
    const row = await personasService.getPersona(user, imported.id);
    const { parseLorebook } = await import("~/domain/lorebook");
    const entries = parseLorebook(row.lore).entries;
    expect(entries.map((entry) => entry.name)).toEqual(["The forest", "Glade"]);
    // Chat and the lore page read the keys tidied; the card's own keys go back out.
    expect(entries[0]!.keys).toEqual(["Eldoria", "forest"]);
    const out = JSON.parse((await exporter.exportFile(user, imported.id, "card-json")).body as string);
    expect(out.data.character_book.entries[0].keys).toEqual(["Eldoria", "eldoria", " forest ", ""]);
    expect(out.data.character_book.entries[0]).not.toHaveProperty("name");
  });

  it("a name of one Chinese character is imported and kept in the export's file name", async () => {
    const user = await createCreator(handle, "active");
    const imported = await exporter.importCardFile(user, encode({ ...v1Flat, name: "爱" }));
    expect(imported.name).toBe("爱");
    const file = await exporter.exportFile(user, imported.id, "card-json");
    expect(file.filename).toBe("爱_profile.card.json");
    const created = await personasService.createPersona(user, {
      name: "光",
      type: "companion",
      gender: "female",
      ageRange: "25-34",
      interests: ["music"],
      personality: [],
      description: "",
      backstory: "",
    });
    expect(created.name).toBe("光");
    await expect(exporter.importCardFile(user, encode({ ...v1Flat, name: "A" }))).rejects.toMatchObject({ status: 400 });
  });
});

describe("CharX and exports for one front end (docs/cards.md)", () => {
  const LIMITS = { maxEntries: 500, maxEntryBytes: 8 * 1024 * 1024, maxTotalBytes: 24 * 1024 * 1024 };

  const charxCard = {
    ...v3Full,
    data: {
      ...v3Full.data,
      assets: [
        { type: "icon", uri: "embeded://assets/icon/images/main.png", name: "main", ext: "png" },
        { type: "background", uri: "embeded://assets/other/images/forest.png", name: "forest", ext: "png" },
      ],
    },
  };
  const charx = () =>
    writeZip([
      { name: "card.json", bytes: Buffer.from(JSON.stringify(charxCard)) },
      { name: "assets/icon/images/main.png", bytes: portraitPng("icon", 64) },
      { name: "assets/other/images/forest.png", bytes: portraitPng("forest", 48) },
    ]);

  it("a CharX imports with its icon as the reference image, keeps its other images, and goes out equal", async () => {
    const user = await createCreator(handle, "active");
    const imported = await exporter.importCardFile(user, charx());
    expect(imported.imageUrl).toMatch(/^\/images\//);
    const persona = await personasService.getPersona(user, imported.id);
    if (exporter.canFinishImport(persona)) {
      const guess = exporter.finishImportGuess(persona);
      expect(await exporter.finishImport(user, imported.id, { ...guess, gender: guess.gender ?? "other" })).toMatchObject({
        status: "active",
      });
    }
    const file = await exporter.exportFile(user, imported.id, "charx");
    expect(file).toMatchObject({ filename: "lumiere_profile.charx", contentType: "application/zip" });
    const entries = readZip(file.body as Uint8Array, LIMITS);
    expect(entries.map((entry) => entry.name).sort()).toEqual([
      "assets/icon/images/main.png",
      "assets/other/images/forest.png",
      "card.json",
    ]);
    const card = JSON.parse(Buffer.from(entries.find((entry) => entry.name === "card.json")!.bytes).toString("utf8"));
    expect(cardRoundTripDifferences(charxCard, card)).toEqual([]);
  });

  it("a bad CharX is a 400 that says why, and nothing is stored", async () => {
    const user = await createCreator(handle, "active");
    const bad = [
      writeZip([{ name: "readme.txt", bytes: Buffer.from("hi") }]),
      writeZip([{ name: "../card.json", bytes: Buffer.from("{}") }]),
      writeZip([{ name: "card.json", bytes: Buffer.from("not json") }]),
      writeZip([{ name: "card.json", bytes: Buffer.from(JSON.stringify({ hello: "world" })) }]),
      writeZip(Array.from({ length: 10_000 }, (_, i) => ({ name: `x${i}`, bytes: Buffer.from("x") }))),
    ];
    for (const bytes of bad) {
      await expect(exporter.importCardFile(user, bytes)).rejects.toMatchObject({
        status: 400,
        message: expect.stringMatching(/CharX|character card/),
      });
    }
    expect(await personasService.personasCreated(user)).toBe(0);
  });

  it("exports made for Agnai and JanitorAI, and a PNG whose first text chunk is the card", async () => {
    const user = await createCreator(handle, "active");
    const card = { ...v3Full, data: { ...v3Full.data, name: "Ama" } };
    const picture = withTextChunks(portraitPng("ama", 64), [{ keyword: "parameters", text: "steps: 20" }]);
    const png = withTextChunks(picture, [{ keyword: "ccv3", text: Buffer.from(JSON.stringify(card)).toString("base64") }]);
    const imported = await exporter.importCardFile(user, png);
    expect(imported.cardCheck.map((finding) => finding.rule)).toContain("v3-without-v2");

    const agnai = JSON.parse((await exporter.exportFile(user, imported.id, "card-json", "agnai")).body as string);
    expect(agnai.spec).toBe("chara_card_v2");
    const janitor = await exporter.exportFile(user, imported.id, "card-json", "janitorai");
    expect(janitor.filename).toBe("ama_profile.janitorai.card.json");
    const j = JSON.parse(janitor.body as string);
    expect(j).toMatchObject({ name: "Ama", spec: "chara_card_v2", first_mes: "Bonjour {{user}} !" });
    expect(j.description).toBe("Tu es {{char}}.\n\n{{char}} est une bibliothécaire du village de Lumière.\n\nReste en personnage.");
    expect(j.data).toMatchObject({ description: j.description, system_prompt: "", post_history_instructions: "" });
    expect(j.data.creator_notes).toContain("Exported for JanitorAI");

    const out = await exporter.exportFile(user, imported.id, "card-png", "sillytavern");
    expect(readPngTextChunks(out.body as Uint8Array).map((chunk) => chunk.keyword)).toEqual(["chara", "ccv3"]);
    await expect(exporter.exportFile(user, imported.id, "charx", "janitorai")).rejects.toMatchObject({ status: 400 });
  });
});
