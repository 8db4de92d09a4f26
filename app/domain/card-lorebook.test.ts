// A card's character_book and the persona's lorebook (docs/product.md, Lore): read field for
// field, written back equal (V2 and V3, unknown keys and extensions kept), the same bytes after
// export → import → export, bad shapes read as far as they go with a note, and a limit.
import { describe, expect, it } from "vitest";

import { cardBookFromLorebook, lorebookFromCard } from "./card-lorebook";
import { CARD_MESSAGES, cardJson, parseCard, parseCardMeta, toCardV2, toCardV3, type ParsedCard } from "./character-card";
import { extendedProfile } from "./extended-profile";
import { lorebookText, matchLore, parseLorebook, type LoreBook } from "./lorebook";
import type { ExportPersona } from "./persona-shapes";

/** Through storage as jsonb does it: key order not kept. */
const stored = (value: unknown): unknown => {
  const reverse = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(reverse)
      : v && typeof v === "object"
        ? Object.fromEntries(
            Object.keys(v)
              .reverse()
              .map((key) => [key, reverse((v as Record<string, unknown>)[key])]),
          )
        : v;
  return reverse(JSON.parse(JSON.stringify(value)));
};

const FULL_BOOK = {
  name: "Eldoria",
  description: "The forest and its people.",
  scan_depth: 6,
  token_budget: 512,
  recursive_scanning: false,
  extensions: { world_tool: { v: 2 } },
  entries: [
    {
      keys: ["glade", "clearing"],
      content: "A sunlit clearing where Seraphina heals travellers.",
      extensions: { depth: 4, weight: 10, sticky: 0 },
      enabled: true,
      insertion_order: 100,
      case_sensitive: false,
      name: "The glade",
      priority: 10,
      id: 1,
      comment: "Core location",
      selective: true,
      secondary_keys: ["sunlit"],
      constant: false,
      position: "before_char",
      probability: 100,
      group: "places",
    },
    { keys: ["Ash"], content: "Seraphina's brother, lost in the war.", extensions: {}, enabled: false, insertion_order: 5, id: 2 },
    { keys: [], content: "Always-on rule: Seraphina never lies.", extensions: {}, enabled: true, insertion_order: 0, constant: true },
  ],
};

describe("reading and writing a character_book", () => {
  it("gives back an equal book, every field, unknown keys and extensions kept", () => {
    const read = lorebookFromCard(FULL_BOOK);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.notes.filter((note) => !note.includes("no keys"))).toEqual([]);
    const lore = parseLorebook(stored(read.lore)) as LoreBook;
    expect(lore.entries.map((entry) => entry.name)).toEqual([
      "The glade",
      "Ash",
      "Always-on rule: Seraphina never lies.".slice(0, 0) || "Entry 3",
    ]);
    expect(lore.entries[0]).toMatchObject({ selective: true, secondary_keys: ["sunlit"], comment: "Core location", enabled: true });
    expect(cardBookFromLorebook(lore)).toEqual(FULL_BOOK);
  });

  it("V3: use_regex and @@ decorators are kept as written", () => {
    const book = {
      entries: [
        {
          keys: ["/ser(a|ap)hina/i"],
          content: "@@depth 4\n@@role system\nShe hums old songs.",
          extensions: {},
          enabled: true,
          insertion_order: 1,
          use_regex: true,
        },
        { keys: ["(?=a)a"], content: "Look-ahead.", extensions: {}, enabled: true, insertion_order: 2, use_regex: true },
      ],
      extensions: {},
    };
    const read = lorebookFromCard(book);
    if (!read.ok) throw new Error(read.message);
    expect(read.notes.join(" ")).toMatch(
      /entry 2: the pattern "\(\?=a\)a" cannot be matched \(look-arounds and back-references are not supported\); it is matched as plain text/,
    );
    const lore = parseLorebook(stored(read.lore));
    expect(cardBookFromLorebook(lore)).toEqual(book);
    expect(matchLore(lore, ["I met Seraphina"]).entries.map((entry) => entry.content)).toEqual([book.entries[0]!.content]);
  });

  it("a lorebook made here is written as the spec asks, with our kind carried and read back", () => {
    const lore: LoreBook = {
      entries: [
        {
          id: "x",
          name: "Mina",
          keys: ["Mina"],
          secondary_keys: [],
          selective: false,
          content: "Her sister.",
          enabled: true,
          constant: false,
          insertion_order: 100,
          case_sensitive: false,
          comment: "",
          use_regex: false,
          kind: "person",
          extensions: {},
          card: {},
        },
      ],
      book: {},
    };
    const book = cardBookFromLorebook(lore) as { extensions: object; entries: Record<string, unknown>[] };
    expect(book.extensions).toEqual({});
    expect(book.entries[0]).toEqual({
      keys: ["Mina"],
      content: "Her sister.",
      extensions: { personaforge: { kind: "person" } },
      enabled: true,
      insertion_order: 100,
      case_sensitive: false,
      name: "Mina",
      comment: "",
      selective: false,
      secondary_keys: [],
      constant: false,
      use_regex: false,
    });
    const back = lorebookFromCard(book);
    if (!back.ok) throw new Error(back.message);
    expect(back.lore!.entries[0]).toMatchObject({ kind: "person", extensions: {} });
    expect(cardBookFromLorebook(parseLorebook(stored(back.lore)))).toEqual(book);
    // No entries and no card book: no character_book at all.
    expect(cardBookFromLorebook({ entries: [], book: {} })).toBeUndefined();
  });

  it("bad shapes are read as far as they go and named; nothing throws", () => {
    const notes = (raw: unknown) => {
      const read = lorebookFromCard(raw);
      if (!read.ok) throw new Error(read.message);
      return { lore: read.lore, text: read.notes.join(" ") };
    };
    expect(notes(null)).toEqual({ lore: null, text: "" });
    expect(notes("a book").text).toBe("Lorebook: not read (character_book must be an object, not text).");
    expect(notes([1, 2]).text).toMatch(/not a list/);
    expect(notes({ entries: "many" }).text).toMatch(/entries must be a list, not text/);
    expect(notes({ entries: null }).lore).toMatchObject({ entries: [], card: true });
    const odd = notes({
      entries: [
        null,
        "text",
        { keys: "a, b", content: 42, enabled: "yes", insertion_order: "7" },
        { keys: [1, "ok"], content: { no: 1 }, extensions: "x" },
        { keys: [1, "ok"], content: "Text.", extensions: "x" },
      ],
    });
    expect(odd.text).toContain("Lorebook entry 1 skipped (not an object).");
    expect(odd.text).toContain("Lorebook entry 2 skipped (not an object).");
    expect(odd.text).toContain("Lorebook entry 3: keys were text, not a list; read as a list split at commas.");
    expect(odd.text).toContain("Lorebook entry 3: content was not text; read as text.");
    expect(odd.text).toContain("Lorebook entry 3: 'enabled' was not true or false; read as true.");
    expect(odd.text).toContain("Lorebook entry 4 skipped (no content).");
    expect(odd.text).toContain("Lorebook entry 5: keys that were not text were left out.");
    expect(odd.text).toContain("Lorebook entry 5: extensions were not an object and were left out.");
    expect(odd.lore!.entries.map((entry) => [entry.keys, entry.content, entry.insertion_order])).toEqual([
      [["a", "b"], "42", 7],
      [["ok"], "Text.", 100],
    ]);
    // Every shape a book or its entries come in: the card imports, and says what was left out.
    for (const [book, said] of [
      ["a book", /character_book must be an object, not text/],
      [42, /character_book must be an object, not a number/],
      [[{ keys: ["a"], content: "b" }], /character_book must be an object, not a list/],
      [{ name: "No entries" }, /no list of entries/],
      [{ entries: null }, /no list of entries/],
      [{ entries: "many" }, /entries must be a list, not text/],
      [{ entries: { 0: { keys: ["a"], content: "b" } } }, /entries must be a list, not an object/],
      [{ entries: [null] }, /entry 1 skipped \(not an object\)/],
      [{ entries: [{ keys: "glade", content: "A clearing." }] }, /keys were text, not a list/],
      [{ entries: [{ keys: ["a"], content: 7 }] }, /content was not text; read as text/],
      [{ entries: [{ keys: ["a"], content: "b", enabled: "yes" }] }, /'enabled' was not true or false; read as true/],
    ] as const) {
      const result = parseCard({ spec: "chara_card_v2", spec_version: "2.0", data: { name: "Seraphina", character_book: book } });
      if (!result.ok) throw new Error(result.message);
      expect(result.card.notes.join(" "), JSON.stringify(book)).toMatch(said);
      expect(result.card.cardMeta).not.toHaveProperty("character_book");
    }
  });

  it("keys, content, names and orders are brought within an entry's limits, each change named", () => {
    const read = lorebookFromCard({
      entries: [
        {
          keys: ["glade", "", "  ", "Glade", " clearing ", "k".repeat(150)],
          secondary_keys: ["sun", "SUN"],
          content: "x".repeat(2_500),
          name: "n".repeat(120),
          comment: "c".repeat(600),
          insertion_order: -4,
          enabled: true,
        },
        { keys: Array.from({ length: 25 }, (_, i) => `key ${i}`), content: "Many keys.\u0000", insertion_order: 2.6 },
        { keys: ["a"], content: "   " },
      ],
    });
    if (!read.ok) throw new Error(read.message);
    const text = read.notes.join("\n");
    const [first, second] = read.lore!.entries;
    expect(read.lore!.entries).toHaveLength(2);
    expect(first!.keys).toEqual(["glade", "clearing", "k".repeat(100)]);
    expect(first!.secondary_keys).toEqual(["sun"]);
    expect([...first!.content]).toHaveLength(2_000);
    expect(first!.content.endsWith("…")).toBe(true);
    expect([...first!.name]).toHaveLength(100);
    expect([...first!.comment]).toHaveLength(500);
    expect(first!.insertion_order).toBe(0);
    expect(second!.keys).toHaveLength(20);
    expect(second!.content).toBe("Many keys.");
    expect(second!.insertion_order).toBe(3);
    for (const said of [
      "Lorebook entry 1: 2 empty keys were dropped.",
      'Lorebook entry 1: the repeated key "Glade" was dropped.',
      "Lorebook entry 1: a key over 100 characters cut to 100.",
      'Lorebook entry 1 (secondary keys): the repeated key "SUN" was dropped.',
      "Lorebook entry 1: the content was cut to 2,000 characters.",
      "Lorebook entry 1: the name was cut to 100 characters.",
      "Lorebook entry 1: the comment was cut to 500 characters.",
      "Lorebook entry 1: insertion_order -4 read as 0 (a whole number from 0 to 100,000).",
      "Lorebook entry 2: only the first 20 of its 25 keys were kept.",
      "Lorebook entry 2: control characters were removed from the content.",
      "Lorebook entry 3 skipped (no content).",
    ]) {
      expect(text).toContain(said);
    }
  });

  it("patterns the engine cannot express keep use_regex and are said to match as plain text", () => {
    const read = lorebookFromCard({ entries: [{ keys: ["(a)\\1", "/glade/i", "((a+))+$"], content: "A clearing.", use_regex: true }] });
    if (!read.ok) throw new Error(read.message);
    expect(read.lore!.entries[0]).toMatchObject({ use_regex: true, keys: ["(a)\\1", "/glade/i", "((a+))+$"] });
    expect(read.notes).toEqual([
      'Lorebook entry 1: the pattern "(a)\\\\1" cannot be matched (look-arounds and back-references are not supported); it is matched as plain text.',
    ]);
  });

  it("a card keeps at most 100 keys as patterns; the entries past them are matched as plain text and said so", () => {
    const entries = Array.from({ length: 60 }, (_, i) => ({
      keys: [`/place ${i}/`, `/spot ${i}/`],
      content: `Place ${i}.`,
      use_regex: true,
    }));
    const read = lorebookFromCard({ entries });
    if (!read.ok) throw new Error(read.message);
    expect(read.lore!.entries.filter((e) => e.use_regex)).toHaveLength(50);
    expect(read.lore!.entries[50]).toMatchObject({ use_regex: false, keys: ["/place 50/", "/spot 50/"] });
    expect(read.notes).toHaveLength(10);
    expect(read.notes[0]).toBe("Lorebook entry 51: its keys are matched as plain text (a card keeps at most 100 keys as patterns).");
  });

  it("a book too large for the database refuses the card (413), and a __proto__ key stays a key", () => {
    const card = (book: unknown) => ({ spec: "chara_card_v3", spec_version: "3.0", data: { name: "Bookworm", character_book: book } });
    const big = { extensions: { notes: "é".repeat(1_100_000) }, entries: [{ keys: ["a"], content: "b" }] };
    expect(parseCard(card(big))).toEqual({ ok: false, message: CARD_MESSAGES.loreTooLarge, tooLarge: true });
    const proto = JSON.parse(
      '{"entries":[{"keys":["a"],"content":"b","__proto__":{"x":1},"extensions":{"__proto__":{"y":2}}}]}',
    ) as unknown;
    const result = parseCard(card(proto));
    if (!result.ok) throw new Error(result.message);
    const entry = result.card.lore!.entries[0]!;
    expect(Object.hasOwn(entry.card, "__proto__")).toBe(true);
    expect(Object.hasOwn(entry.extensions, "__proto__")).toBe(true);
  });

  it("a book of more than 200 entries refuses the card with the limit's message", () => {
    const entries = Array.from({ length: 10_000 }, (_, i) => ({
      keys: [`k${i}`],
      content: "x",
      extensions: {},
      enabled: true,
      insertion_order: i,
    }));
    expect(lorebookFromCard({ entries })).toEqual({ ok: false, message: "A lorebook holds at most 200 entries" });
    const parsed = parseCard({ spec: "chara_card_v2", spec_version: "2.0", data: { name: "Bookworm", character_book: { entries } } });
    expect(parsed).toMatchObject({ ok: false });
    expect(!parsed.ok && parsed.message).toMatch(/A lorebook holds at most 200 entries/);
  });
});

describe("whole cards", () => {
  const foreign = (spec: "chara_card_v2" | "chara_card_v3") => ({
    spec,
    spec_version: spec === "chara_card_v3" ? "3.0" : "2.0",
    data: {
      name: "Seraphina",
      description: "A guardian of the forest.",
      personality: "caring, calm",
      scenario: "",
      first_mes: "You're safe now.",
      mes_example: "",
      creator_notes: "",
      system_prompt: "",
      post_history_instructions: "",
      alternate_greetings: [],
      character_book: FULL_BOOK,
      tags: [],
      creator: "forestfan",
      character_version: "2.1",
      extensions: {},
    },
  });

  function persona(card: ParsedCard): ExportPersona {
    return {
      id: "0b7d4a10-2222-4e3f-8c11-7a9b0c1d2e3f",
      ...card.persona,
      description: card.persona.description || null,
      backstory: card.persona.backstory || null,
      status: card.status,
      createdAt: new Date("2025-02-02T10:00:00Z"),
      updatedAt: new Date("2025-02-02T10:00:00Z"),
      imageUrl: null,
      cardMeta: parseCardMeta(stored(card.cardMeta)),
      voice: card.voice,
      lore: stored(card.lore),
    };
  }

  for (const spec of ["chara_card_v2", "chara_card_v3"] as const) {
    it(`${spec}: import → export gives back an equal character_book; export → import → export the same bytes`, () => {
      const first = parseCard(foreign(spec));
      if (!first.ok) throw new Error(first.message);
      expect(first.card.cardMeta).not.toHaveProperty("character_book");
      const p = persona(first.card);
      const extended = first.card.extended ?? extendedProfile(p);
      const exported = spec === "chara_card_v3" ? toCardV3(p, extended) : toCardV2(p, extended);
      expect(exported.data.character_book).toEqual(FULL_BOOK);

      const second = parseCard(JSON.parse(cardJson(exported)));
      if (!second.ok) throw new Error(second.message);
      const p2 = persona(second.card);
      const again =
        spec === "chara_card_v3"
          ? toCardV3(p2, second.card.extended ?? extendedProfile(p2))
          : toCardV2(p2, second.card.extended ?? extendedProfile(p2));
      expect(cardJson(again)).toBe(cardJson(exported));
      expect(lorebookText(parseLorebook(p2.lore))).toBe(lorebookText(parseLorebook(p.lore)));
    });
  }

  it("a persona imported before lorebooks were read still exports the book its card carried", () => {
    const first = parseCard(foreign("chara_card_v2"));
    if (!first.ok) throw new Error(first.message);
    const legacy = {
      ...persona(first.card),
      lore: {},
      cardMeta: parseCardMeta({ ...(stored(first.card.cardMeta) as object), character_book: FULL_BOOK }),
    };
    expect(toCardV2(legacy, first.card.extended ?? extendedProfile(legacy)).data.character_book).toEqual(FULL_BOOK);
  });
});

describe("exports", () => {
  it("TXT, Markdown, JSON and YAML carry the lorebook", async () => {
    const { toText, toMarkdown, toJson, toYaml } = await import("./export-formats");
    const read = lorebookFromCard(FULL_BOOK);
    if (!read.ok) throw new Error(read.message);
    const p: ExportPersona = {
      id: "0b7d4a10-2222-4e3f-8c11-7a9b0c1d2e3f",
      name: "Seraphina",
      type: null,
      gender: "female",
      ageRange: null,
      interests: [],
      personality: [],
      description: null,
      backstory: null,
      imageStyle: "anime",
      status: "in_progress",
      createdAt: "2025-02-02T10:00:00Z",
      updatedAt: "2025-02-02T10:00:00Z",
      imageUrl: null,
      cardMeta: null,
      lore: stored(read.lore),
    };
    const extended = extendedProfile(p);
    const text = toText(p, extended);
    expect(text).toContain("Lore\n----");
    expect(text).toContain("Entry 3 (always included)");
    expect(text).toContain("Ash (disabled)\n  Keys: Ash\n  Seraphina's brother, lost in the war.");
    const markdown = toMarkdown(p, extended);
    expect(markdown).toContain("## Lore");
    expect(markdown).toContain("### The glade");
    const json = JSON.parse(toJson(p, extended)) as { lore: { name: string; keys: string[]; secondary_keys: string[] }[] };
    expect(json.lore.map((entry) => entry.name)).toEqual(["Entry 3", "Ash", "The glade"]);
    expect(json.lore[2]).toMatchObject({ keys: ["glade", "clearing"], secondary_keys: ["sunlit"], selective: true });
    expect(toYaml(p, extended)).toMatch(/lore:\n {2}- name: Entry 3/);
    // None: no Lore section anywhere.
    const bare = { ...p, lore: {} };
    expect(toText(bare, extended)).not.toContain("Lore\n");
    expect(toJson(bare, extended)).not.toContain('"lore"');
  });
});
