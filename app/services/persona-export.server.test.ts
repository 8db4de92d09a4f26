// Card imports against the database's own size checks (personas.card_meta at most 2 MB and
// personas.extended at most 64 KB, measured by PostgreSQL in bytes of the jsonb text): the
// importer measures the same way, so a card the database would refuse is a 413 with a
// readable message and nothing stored, and one just under the limit is imported.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from "vitest";

process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), "pf-card-limits-"));

const { createCreator, installTestDatabase } = await import("../../tests/support/test-database");
const { closeDatabase, withServiceRole } = await import("~/infra/db/db.server");
const { personas, personaVersions } = await import("~/infra/db/schema.server");
const { resetRateLimits } = await import("~/infra/web/rate-limit.server");
const { CARD_LIMITS, CARD_MESSAGES, parseCard } = await import("~/domain/character-card");
const { jsonbTextBytes } = await import("~/domain/json-limits");
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
/** A V3 card whose kept data is `extensions` plus `notes` as its creator notes. */
const card = (extensions: Record<string, unknown>, notes = "") => ({
  spec: "chara_card_v3",
  spec_version: "3.0",
  data: { name: "Big Card", description: "A traveller.", personality: "Curious", creator_notes: notes, extensions },
});
/** How many bytes the database will count for what the importer keeps of a card. */
function keptBytes(value: unknown): number {
  const parsed = parseCard(value);
  if (!parsed.ok) throw new Error(parsed.message);
  return jsonbTextBytes(parsed.card.cardMeta);
}

async function storedOf(userId: string) {
  return withServiceRole("test", async (tx) => ({
    personas: await tx.select({ id: personas.id }).from(personas).where(eq(personas.userId, userId)),
    versions: await tx.select({ id: personaVersions.id }).from(personaVersions).where(eq(personaVersions.userId, userId)),
  }));
}

describe("measuring as the database does", () => {
  it("jsonbTextBytes is octet_length(value::jsonb::text)", async () => {
    const values = [
      { a: [1, 2, { b: null }], c: "ユキ 🌃 é", d: true, e: false, 'k"ey': "line\nbreak\ttab\u0001" },
      [1e21, 1.5e-7, -2.5e-12, 123.456, -0, 5e-324, 1.7976931348623157e308, 0.1 + 0.2],
      { nested: { deeper: { deepest: ["x", "", {}, []] } }, emoji: "👩‍👩‍👧", slash: "a/b\\c", del: "\u007f", sep: "\u2028" },
    ];
    for (const value of values) {
      const [{ n }] = await handle.raw.rows<{ n: number }>("select octet_length($1::jsonb::text)::int as n", [JSON.stringify(value)]);
      expect(jsonbTextBytes(value), JSON.stringify(value).slice(0, 60)).toBe(n);
    }
  });
});

describe("card size", () => {
  it("a 2.5 MB card is a 413 that says why, and nothing is stored", async () => {
    const user = await createCreator(handle, "active");
    // 1.25 million two-byte characters: far fewer characters than bytes.
    const big = card({ lore: "é".repeat(1_250_000) });
    await expect(exporter.importCardFile(user, encode(big))).rejects.toMatchObject({ status: 413, message: CARD_MESSAGES.tooLarge });
    expect(CARD_MESSAGES.tooLarge).toBe("This character card is too large: at most 2 MB of its data can be kept.");
    expect(await storedOf(user.id)).toEqual({ personas: [], versions: [] });
  });

  it("just under the database's limit (multi-byte characters) is imported; one byte more is a 413", async () => {
    const user = await createCreator(handle, "active");
    const lore = "ü".repeat(1_000_000);
    const base = keptBytes(card({ lore }, "n"));
    const notes = "n".repeat(1 + CARD_LIMITS.metaMaxBytes - base);
    const atLimit = card({ lore }, notes);
    expect(keptBytes(atLimit)).toBe(CARD_LIMITS.metaMaxBytes);
    const overLimit = card({ lore }, `${notes}n`);

    await expect(exporter.importCardFile(user, encode(overLimit))).rejects.toMatchObject({ status: 413, code: "card_too_large" });
    expect(await storedOf(user.id)).toEqual({ personas: [], versions: [] });

    const imported = await exporter.importCardFile(user, encode(atLimit));
    const [{ n }] = await handle.raw.rows<{ n: number }>(
      "select octet_length(card_meta::text)::int as n from public.personas where id = $1",
      [imported.id],
    );
    expect(n).toBe(CARD_LIMITS.metaMaxBytes);
  });

  it("an Extended Persona Profile over what its column takes is a 413 too", async () => {
    const user = await createCreator(handle, "active");
    const exported = JSON.parse(
      String(
        (
          await exporter.exportFile(
            user,
            (
              await personasService.createPersona(user, {
                name: "Nova Quinn",
                type: "vtuber",
                gender: "female",
                ageRange: "25-34",
                interests: ["gaming"],
                description: "Streams at night.",
                personality: ["Outgoing"],
                backstory: "",
              })
            ).id,
            "card-json",
          )
        ).body,
      ),
    );
    const extended = exported.data.extensions.personaforge.extended;
    // Every list at its 20 entries of 2,000 characters: far over 64 KB.
    for (const key of ["languages", "hobbies", "favoritePlaces", "influences", "secretSkills"])
      extended[key] = Array(20).fill("ö".repeat(2_000));
    await expect(exporter.importCardFile(user, encode(exported))).rejects.toMatchObject({
      status: 413,
      message: CARD_MESSAGES.profileTooLarge,
    });
    expect((await storedOf(user.id)).personas).toHaveLength(1);
  });

  it("a value the database's checks refuse is a readable 4xx from the service, never a 500", async () => {
    const user = await createCreator(handle, "active");
    const values = { userId: user.id, name: "Checked", status: "in_progress" as const };
    await expect(
      personasService.insertPersona(user, { ...values, cardMeta: { lore: "x".repeat(CARD_LIMITS.metaMaxBytes) } }),
    ).rejects.toMatchObject({
      status: 413,
      message: CARD_MESSAGES.tooLarge,
    });
    await expect(personasService.insertPersona(user, { ...values, description: "d".repeat(151) })).rejects.toMatchObject({
      status: 400,
      code: "invalid_persona",
    });
    expect(await storedOf(user.id)).toEqual({ personas: [], versions: [] });
  });
});

describe("cards and the persona's voice (docs/product.md, Exports and character cards)", () => {
  const foreign = (data: Record<string, unknown>) => ({
    spec: "chara_card_v2",
    spec_version: "2.0",
    data: {
      name: "Mochi",
      description: "Mochi is a cyber-cat who naps on warm servers. She streams her naps on Twitch.\nLives in: Neo Tokyo",
      personality: "mischievous, loyal, curious",
      scenario: "{{user}} finds {{char}} asleep on a rack.",
      first_mes: "*Mochi blinks at you.* Nya? Oh, {{user}}. You're late.",
      mes_example: "<START>\n{{user}}: Hi Mochi\n{{char}}: Mrrp. Hi.",
      alternate_greetings: ["*yawns* Again?"],
      tags: ["cat", "gaming"],
      ...data,
    },
  });

  it("a foreign card's greeting, alternate greetings, example dialogue and scenario are the persona's voice; its profile states only what it says", async () => {
    const user = await createCreator(handle, "active");
    const imported = await exporter.importCardFile(user, encode(foreign({})));
    expect(imported.importNotes).toEqual([]);
    const row = await personasService.getPersona(user, imported.id);
    expect(personasService.personaVoice(row)).toMatchObject({
      greeting: "*Mochi blinks at you.* Nya? Oh, {{user}}. You're late.",
      alternateGreetings: ["*yawns* Again?"],
      exampleDialogue: "<START>\n{{user}}: Hi Mochi\n{{char}}: Mrrp. Hi.",
      scenario: "{{user}} finds {{char}} asleep on a rack.",
    });
    expect(row.backstory).toContain("Personality: mischievous, loyal, curious");
    expect(row.personality).toEqual(["Curious"]);
    const sheet = personasService.personaExtended(row);
    expect(sheet.currentResidence).toBe("Neo Tokyo");
    expect(sheet.birthplace).toBe("");
    expect(sheet.occupation).toBe("");
    expect(sheet.hobbies).toEqual([]);
  });

  it("the short step finishes the draft with the guessed choices, keeps the card's profile and voice, and the persona can chat", async () => {
    const user = await createCreator(handle, "active");
    const imported = await exporter.importCardFile(user, encode(foreign({})));
    expect(imported.status).toBe("in_progress");
    const draft = await personasService.getPersona(user, imported.id);
    expect(exporter.canFinishImport(draft)).toBe(true);
    const guess = exporter.finishImportGuess(draft);
    expect(guess).toEqual({ type: "vtuber", gender: "female", ageRange: "25-34", interests: ["gaming", "tech"] });

    await expect(exporter.finishImport(user, imported.id, { ...guess, interests: [] } as never)).rejects.toMatchObject({ status: 400 });
    const done = await exporter.finishImport(user, imported.id, { ...guess, gender: "female" });
    expect(done).toMatchObject({ status: "active", type: "vtuber", gender: "female", ageRange: "25-34", interests: ["gaming", "tech"] });
    expect(done.extended).toEqual(draft.extended);
    expect(done.voice).toEqual(draft.voice);
    await expect(exporter.finishImport(user, imported.id, { ...guess, gender: "female" })).rejects.toMatchObject({ status: 409 });

    const chat = await import("./chat.server");
    const reply = await chat.sendMessage(user, imported.id, "Where do you live?");
    expect(reply).toBeTruthy();

    // Another creator can neither see nor finish it.
    const stranger = await createCreator(handle, "active");
    await expect(exporter.finishImport(stranger, imported.id, { ...guess, gender: "female" })).rejects.toMatchObject({ status: 404 });
  });

  it("continuing an imported draft in the wizard keeps the card's profile", async () => {
    const user = await createCreator(handle, "active");
    const imported = await exporter.importCardFile(user, encode(foreign({})));
    const saved = await personasService.completeDraft(user, imported.id, {
      name: "Mochi",
      type: "vtuber",
      gender: "female",
      ageRange: "18-24",
      interests: ["gaming"],
      description: "",
      personality: ["Curious"],
      backstory: "",
    });
    expect(saved.extended).toEqual((await personasService.getPersona(user, imported.id)).extended);
    expect(personasService.personaExtended(saved).birthplace).toBe("");
  });

  it("export then import gives the same voice, and the voice goes out in every format", async () => {
    const user = await createCreator(handle, "active");
    const created = await personasService.createPersona(user, {
      name: "Kira Moon",
      type: "vtuber",
      gender: "female",
      ageRange: "18-24",
      interests: ["gaming"],
      description: "Streams cozy games.",
      personality: ["Outgoing"],
      backstory: "",
    });
    const voice = {
      greeting: "Heya, {{user}}!",
      alternateGreetings: ["Back again?"],
      exampleDialogue: "{{user}}: GG?\n{{char}}: GG!",
      speechStyle: "Short, bright sentences.",
      catchphrases: ["Stay cozy!"],
      appearance: "Pink hair, cat-ear headphones.",
      scenario: "{{char}} is live on stream.",
      systemPrompt: "{{original}}\nNever break character.",
      postHistoryInstructions: "Keep it short.",
      authorsNote: "{{char}} just won a tournament.",
      authorsNoteDepth: 1,
    };
    await personasService.updateVoice(user, created.id, voice);
    const card = JSON.parse(String((await exporter.exportFile(user, created.id, "card-json")).body));
    expect(card.data).toMatchObject({
      first_mes: voice.greeting,
      alternate_greetings: voice.alternateGreetings,
      mes_example: voice.exampleDialogue,
      scenario: voice.scenario,
      system_prompt: voice.systemPrompt,
      post_history_instructions: voice.postHistoryInstructions,
    });
    expect(card.data.extensions.depth_prompt).toEqual({ prompt: voice.authorsNote, depth: 1, role: "system" });
    expect(card.data.personality).toContain("Speech style: Short, bright sentences.");
    expect(card.data.description).toContain("Appearance:\nPink hair, cat-ear headphones.");
    const again = await exporter.importCardFile(user, encode(card));
    expect(personasService.personaVoice(await personasService.getPersona(user, again.id))).toEqual(voice);
    const png = (await exporter.exportFile(user, created.id, "card-png")).body;
    expect(png).toBeInstanceOf(Uint8Array);
    const fromPng = await exporter.importCardFile(user, png as Uint8Array);
    expect(personasService.personaVoice(await personasService.getPersona(user, fromPng.id))).toEqual(voice);

    for (const format of ["txt", "md", "yaml"] as const) {
      const body = String((await exporter.exportFile(user, created.id, format)).body);
      expect(body, format).toContain("Heya, {{user}}!");
      expect(body, format).toContain("Stay cozy!");
    }
    expect(JSON.parse(String((await exporter.exportFile(user, created.id, "json")).body)).voice).toEqual(voice);
  });

  it("a card with HTML, control characters and 100,000-character texts is kept as plain text within the voice's limits, with notes", async () => {
    const user = await createCreator(handle, "active");
    const imported = await exporter.importCardFile(
      user,
      encode(foreign({ first_mes: `<p>Hi <b>there</b>\u0001!</p>${"z".repeat(99_000)}`, mes_example: "m".repeat(100_000) })),
    );
    const voice = personasService.personaVoice(await personasService.getPersona(user, imported.id));
    expect([...voice.greeting!]).toHaveLength(2_000);
    expect(voice.greeting!.startsWith("Hi there!\nzzz")).toBe(true);
    expect([...voice.exampleDialogue!]).toHaveLength(4_000);
    expect(imported.importNotes).toEqual([
      "The greeting was cut to 2,000 characters.",
      "The example dialogue was cut to 4,000 characters.",
      "HTML markup was removed from the greeting: the voice keeps plain text.",
    ]);
    // One character more than a card field holds: refused with a message, nothing stored.
    const before = await storedOf(user.id);
    await expect(exporter.importCardFile(user, encode(foreign({ first_mes: "x".repeat(100_001) })))).rejects.toMatchObject({ status: 400 });
    expect(await storedOf(user.id)).toEqual(before);
  });
});

describe("cards and the persona's lorebook (docs/product.md, Lore)", () => {
  const BOOK = {
    name: "Neo Tokyo",
    description: "Mochi's city.",
    scan_depth: 4,
    token_budget: 400,
    recursive_scanning: false,
    extensions: { tool: { v: 1 } },
    entries: [
      {
        keys: ["rack", "server"],
        content: "The warm rack where Mochi naps.",
        extensions: { depth: 4, probability: 100 },
        enabled: true,
        insertion_order: 10,
        case_sensitive: false,
        name: "The rack",
        priority: 5,
        id: 1,
        comment: "Place",
        selective: false,
        secondary_keys: [],
        constant: false,
        position: "after_char",
        unknown_key: { kept: true },
      },
      {
        keys: ["/tw(i|ee)tch/i"],
        content: "@@depth 4\nWhere Mochi streams.",
        extensions: {},
        enabled: false,
        insertion_order: 20,
        use_regex: true,
      },
    ],
  };
  const withBook = (book: unknown) => ({
    spec: "chara_card_v3",
    spec_version: "3.0",
    data: { name: "Mochi", description: "A cyber-cat.", personality: "curious", first_mes: "Nya?", character_book: book },
  });
  const exported = async (user: Parameters<typeof exporter.exportFile>[0], id: string, format: Parameters<typeof exporter.exportFile>[2]) =>
    (await exporter.exportFile(user, id, format)).body;

  it("a card's book is stored as the lorebook, not as card data, and goes back out equal in JSON and PNG cards", async () => {
    const user = await createCreator(handle, "active");
    const imported = await exporter.importCardFile(user, encode(withBook(BOOK)));
    expect(imported.importNotes).toEqual([]);
    const row = await personasService.getPersona(user, imported.id);
    expect(row.cardMeta).not.toHaveProperty("character_book");
    const lore = row.lore as { entries: { name: string; kind: unknown; id: string }[] };
    expect(lore.entries.map((entry) => entry.name)).toEqual(["The rack", "/tw(i|ee)tch/i"]);
    expect(lore.entries.every((entry) => entry.kind === null && /^[0-9a-f-]{36}$/.test(entry.id))).toBe(true);

    const first = String(await exported(user, imported.id, "card-json"));
    expect(JSON.parse(first).data.character_book).toEqual(BOOK);
    // Export → import → export: the same bytes, through a PNG as well.
    const again = await exporter.importCardFile(user, new TextEncoder().encode(first));
    expect(String(await exported(user, again.id, "card-json"))).toBe(first);
    const png = await exported(user, imported.id, "card-png");
    const fromPng = await exporter.importCardFile(user, png as Uint8Array);
    expect(JSON.parse(String(await exported(user, fromPng.id, "card-json"))).data.character_book).toEqual(BOOK);

    // Every document lists the entries; the disabled one is marked.
    const text = String(await exported(user, imported.id, "txt"));
    expect(text).toContain("The rack\n  Keys: rack, server\n  The warm rack where Mochi naps.");
    expect(text).toContain("/tw(i|ee)tch/i (disabled)");
    expect(String(await exported(user, imported.id, "md"))).toContain("## Lore");
    expect(String(await exported(user, imported.id, "yaml"))).toContain("- name: The rack");
    const json = JSON.parse(String(await exported(user, imported.id, "json"))) as { lore: Record<string, unknown>[] };
    expect(json.lore).toHaveLength(2);
    expect(json.lore[0]).toMatchObject({ name: "The rack", keys: ["rack", "server"], extensions: { depth: 4, probability: 100 } });
    expect(json.lore[0]).not.toHaveProperty("card");
  });

  it("a book in a bad shape imports with what was left out named; NUL characters never reach the database", async () => {
    const user = await createCreator(handle, "active");
    for (const [book, said] of [
      ["the whole lore", "Lorebook: not read (character_book must be an object, not text)."],
      [[1, 2], "Lorebook: not read (character_book must be an object, not a list)."],
      [{ entries: "none" }, "Lorebook: no entries read (entries must be a list, not text)."],
      [
        { entries: [null, { keys: "a, b", content: "Bad\u0000byte", enabled: "yes" }, { keys: ["c"], content: 3 }, { keys: ["d"] }] },
        "Lorebook entry 1 skipped (not an object).",
      ],
    ] as const) {
      const imported = await exporter.importCardFile(user, encode(withBook(book)));
      expect(imported.importNotes, JSON.stringify(book)).toContain(said);
    }
    const last = (
      await personasService.getPersona(
        user,
        (await exporter.importCardFile(user, encode(withBook({ entries: [{ keys: ["a"], content: "Bad\u0000byte" }] })))).id,
      )
    ).lore;
    expect(last).toMatchObject({ entries: [{ content: "Badbyte" }] });
  });

  it("more than 200 entries refuses the card with the limit's message, and nothing is stored", async () => {
    const user = await createCreator(handle, "active");
    const entries = Array.from({ length: 10_000 }, (_, i) => ({
      keys: [`k${i}`],
      content: "x",
      extensions: {},
      enabled: true,
      insertion_order: i,
    }));
    await expect(exporter.importCardFile(user, encode(withBook({ entries })))).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining("A lorebook holds at most 200 entries"),
    });
    expect(await storedOf(user.id)).toEqual({ personas: [], versions: [] });
  });

  it("a persona imported before lorebooks were read exports the book its card data kept, in the card and the documents", async () => {
    const user = await createCreator(handle, "active");
    const imported = await exporter.importCardFile(user, encode(withBook(undefined)));
    await withServiceRole("test", (tx) =>
      tx
        .update(personas)
        .set({ cardMeta: { ...(imported.cardMeta as object), character_book: BOOK } })
        .where(eq(personas.id, imported.id)),
    );
    expect((await personasService.getPersona(user, imported.id)).lore).toEqual({});
    expect(JSON.parse(String(await exported(user, imported.id, "card-json"))).data.character_book).toEqual(BOOK);
    expect(String(await exported(user, imported.id, "txt"))).toContain("The rack\n  Keys: rack, server");
    // Without a book anywhere: no character_book key, no Lore section.
    const plain = await exporter.importCardFile(user, encode(withBook(undefined)));
    expect(JSON.parse(String(await exported(user, plain.id, "card-json"))).data).not.toHaveProperty("character_book");
    expect(String(await exported(user, plain.id, "txt"))).not.toContain("Lore\n");
  });
});

describe("AI disclosure in exports (docs/product.md, AI disclosure)", () => {
  const NOTICE = /^Parts of this character were generated by AI \(PersonaForge\): .*$/gm;
  const linesOf = (text: string) => text.match(NOTICE) ?? [];
  const body = async (user: Parameters<typeof exporter.exportFile>[0], id: string, format: Parameters<typeof exporter.exportFile>[2]) =>
    (await exporter.exportFile(user, id, format)).body;
  const cardOf = async (user: Parameters<typeof exporter.exportFile>[0], id: string) =>
    JSON.parse(String(await body(user, id, "card-json"))) as {
      data: { creator_notes: string; extensions: { personaforge: { ai_generated?: { by: string; parts: unknown[] } } } };
    };

  it("says which parts were generated and by what, in the card's creator_notes and its metadata, and in every document for people", async () => {
    const { useImageGenerator } = await import("~/infra/ai/ai.server");
    const { createLocalImageGenerator } = await import("~/infra/ai/offline/local-image.server");
    const images = await import("./images.server");
    const user = await createCreator(handle, "active");
    const created = await personasService.createPersona(user, {
      name: "Kira Moon",
      type: "vtuber",
      gender: "female",
      ageRange: "18-24",
      interests: ["gaming"],
      description: "Streams cozy games.",
      personality: ["Outgoing"],
      backstory: "Kira wrote this herself.",
    });

    // Before any image: the fact sheet the built-in generator drew.
    const before = await cardOf(user, created.id);
    expect(before.data.creator_notes).toBe(
      "Streams cozy games.\n\nCreated with PersonaForge.\n\nParts of this character were generated by AI (PersonaForge): Extended Persona Profile (built-in generator).",
    );
    expect(before.data.extensions.personaforge.ai_generated).toEqual({
      by: "PersonaForge",
      parts: [{ part: "extended_profile", generator: "built-in", model: null }],
    });

    // An image from a configured model is named with that model (the one this server uses: see generatedParts).
    const local = createLocalImageGenerator();
    useImageGenerator({ kind: "openai", generateImage: (input, options) => local.generateImage(input, options) });
    onTestFinished(() => useImageGenerator(undefined));
    await images.startImageGeneration(user, created.id);
    await images.settleImageJobs();
    const line =
      "Parts of this character were generated by AI (PersonaForge): Extended Persona Profile (built-in generator), reference image (gpt-image-1).";
    const card = await cardOf(user, created.id);
    expect(linesOf(card.data.creator_notes)).toEqual([line]);
    expect(card.data.extensions.personaforge.ai_generated).toEqual({
      by: "PersonaForge",
      parts: [
        { part: "extended_profile", generator: "built-in", model: null },
        { part: "reference_image", generator: "model", model: "gpt-image-1" },
      ],
    });
    for (const format of ["txt", "md", "yaml"] as const) {
      const text = String(await body(user, created.id, format));
      const expected = format === "yaml" ? `# ${line}` : line;
      expect(
        text.split("\n").filter((l) => l.includes("generated by AI")),
        format,
      ).toEqual([expected]);
    }
    // The plain JSON keeps its documented field set.
    expect(JSON.parse(String(await body(user, created.id, "json")))).not.toHaveProperty("aiGenerated");
    // The chat's text export says its replies are generated.
    expect(exporter.chatExportNotice("Kira Moon")).toBe("Kira Moon's replies were generated by AI (built-in generator).");
  });

  it("names the backstory when it is the one 'Generate Backstory' wrote, and not once the creator rewrote it", async () => {
    const user = await createCreator(handle, "active");
    const fields = {
      name: "Kira Moon",
      type: "vtuber",
      gender: "female",
      ageRange: "18-24",
      interests: ["gaming"],
      description: "Streams cozy games.",
      personality: ["Outgoing"],
    };
    const { backstory } = await personasService.generateBackstory(user, fields);
    // Saved through a form: line breaks come back as \r\n.
    const created = await personasService.createPersona(user, { ...fields, backstory: backstory.replace(/\n/g, "\r\n") });
    const card = await cardOf(user, created.id);
    expect(linesOf(card.data.creator_notes)).toEqual([
      "Parts of this character were generated by AI (PersonaForge): backstory (built-in generator), Extended Persona Profile (built-in generator).",
    ]);
    expect(card.data.extensions.personaforge.ai_generated?.parts[0]).toEqual({ part: "backstory", generator: "built-in", model: null });

    // Another creator's generation of the same text says nothing about this one's.
    const other = await createCreator(handle, "active");
    const copied = await personasService.createPersona(other, { ...fields, backstory });
    expect(linesOf((await cardOf(other, copied.id)).data.creator_notes)[0]).not.toContain("backstory");

    // Rewritten by the creator: no longer what the generator wrote.
    const library = await import("./persona-library.server");
    await library.updatePersona(user, created.id, { ...fields, backstory: `${backstory}\n\nShe also paints.` });
    expect(linesOf((await cardOf(user, created.id)).data.creator_notes)[0]).not.toContain("backstory");
  });

  it("import then export says it once, as the card said it, from JSON and from PNG", async () => {
    const { useImageGenerator } = await import("~/infra/ai/ai.server");
    const { createLocalImageGenerator } = await import("~/infra/ai/offline/local-image.server");
    const images = await import("./images.server");
    const user = await createCreator(handle, "active");
    const created = await personasService.createPersona(user, {
      name: "Orin Vale",
      type: "advisor",
      gender: "male",
      ageRange: "35-44",
      interests: ["business"],
      description: "Calm money advice.",
      personality: ["Calm"],
      backstory: "",
    });
    const local = createLocalImageGenerator();
    useImageGenerator({ kind: "openai", generateImage: (input, options) => local.generateImage(input, options) });
    try {
      await images.startImageGeneration(user, created.id);
      await images.settleImageJobs();
    } finally {
      useImageGenerator(undefined);
    }
    const first = await cardOf(user, created.id);
    expect(linesOf(first.data.creator_notes)).toHaveLength(1);

    // JSON: the card's record comes back with the persona, the line is not kept as its notes.
    const fromJson = await exporter.importCardFile(user, encode(first));
    const row = await personasService.getPersona(user, fromJson.id);
    expect(JSON.stringify(row.cardMeta)).not.toContain("generated by AI");
    const again = await cardOf(user, fromJson.id);
    expect(linesOf(again.data.creator_notes)).toEqual(linesOf(first.data.creator_notes));
    expect(again.data.creator_notes).toBe(first.data.creator_notes);
    expect(again.data.extensions.personaforge.ai_generated).toEqual(first.data.extensions.personaforge.ai_generated);
    for (const format of ["txt", "md", "yaml"] as const) {
      expect(String(await body(user, fromJson.id, format)).match(/generated by AI/g), format).toHaveLength(1);
    }

    // PNG: the picture it brings is the generated one the card names; one line still.
    const png = (await body(user, created.id, "card-png")) as Uint8Array;
    const fromPng = await exporter.importCardFile(user, png);
    expect((await personasService.getPersona(user, fromPng.id)).imageUrl).toBeTruthy();
    const pngAgain = await cardOf(user, fromPng.id);
    expect(pngAgain.data.creator_notes).toBe(first.data.creator_notes);
    expect(pngAgain.data.extensions.personaforge.ai_generated).toEqual(first.data.extensions.personaforge.ai_generated);

    // Regenerating the imported persona's image here: still one line, naming this server's generator.
    await images.startImageGeneration(user, fromPng.id);
    await images.settleImageJobs();
    const regenerated = await cardOf(user, fromPng.id);
    expect(linesOf(regenerated.data.creator_notes)).toEqual([
      "Parts of this character were generated by AI (PersonaForge): Extended Persona Profile (built-in generator), reference image (built-in generator).",
    ]);
  });

  it("a foreign card says nothing was generated; one that kept only our line keeps what it says, once", async () => {
    const user = await createCreator(handle, "active");
    const foreign = await exporter.importCardFile(user, encode(card({}, "Made by hand.")));
    const plain = await cardOf(user, foreign.id);
    expect(plain.data.creator_notes).toBe("Made by hand.");
    expect(plain.data.extensions.personaforge).not.toHaveProperty("ai_generated");

    const notes = "Made by hand.\n\nParts of this character were generated by AI (PersonaForge): backstory (gpt-4o-mini).";
    const lost = await exporter.importCardFile(user, encode(card({}, notes)));
    const out = await cardOf(user, lost.id);
    expect(out.data.creator_notes).toBe(notes);
    expect(out.data.extensions.personaforge.ai_generated?.parts).toEqual([{ part: "backstory", generator: "model", model: "gpt-4o-mini" }]);
  });
});
