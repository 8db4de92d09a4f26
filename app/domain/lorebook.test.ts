// The lorebook's rules (docs/product.md, Lore): entries checked with their messages, keys matched
// as whole words within the scan depth, selective and constant entries, the budget, and patterns
// on the linear-time engine (a pattern it cannot express is matched as plain text).
import { describe, expect, it } from "vitest";

import {
  keyMatcher,
  LORE_LIMITS,
  loreEntrySchema,
  lorebookText,
  matchLore,
  newLoreEntry,
  parseLorebook,
  unusableKeys,
  type LoreBook,
  type LoreEntry,
} from "./lorebook";

let n = 0;
function entry(fields: Partial<LoreEntry> & { keys: string[] }): LoreEntry {
  const input = loreEntrySchema().parse({
    name: fields.name ?? fields.keys[0],
    content: fields.content ?? `About ${fields.keys[0]}.`,
    ...fields,
  });
  return { ...newLoreEntry(input, `e${++n}`), ...fields } as LoreEntry;
}
const book = (...entries: LoreEntry[]): LoreBook => ({ entries, book: {} });
const names = (match: { entries: LoreEntry[] }) => match.entries.map((e) => e.name);

describe("an entry's checks", () => {
  const errors = (raw: unknown, form = false) => {
    const result = loreEntrySchema({ form }).safeParse(raw);
    return result.success ? {} : Object.fromEntries(result.error.issues.map((issue) => [String(issue.path[0]), issue.message]));
  };

  it("names each refused field with its message", () => {
    expect(errors({ name: "", keys: ["Mina"], content: "x" })).toEqual({ name: "Title is required" });
    expect(errors({ name: "Mina", keys: [], content: "x" })).toEqual({ keys: "Add at least one key" });
    expect(errors({ name: "Mina", keys: " , ,\n", content: "x" })).toEqual({ keys: "Add at least one key" });
    expect(errors({ name: "Mina", keys: ["Mina", "MINA"], content: "x" })).toEqual({ keys: "Keys must not repeat" });
    expect(errors({ name: "Mina", keys: ["x".repeat(101)], content: "x" })).toEqual({ keys: "Each key must be 100 characters or less" });
    expect(errors({ name: "Mina", keys: Array.from({ length: 21 }, (_, i) => `k${i}`), content: "x" })).toEqual({
      keys: "At most 20 keys",
    });
    expect(errors({ name: "Mina", keys: ["Mina"], content: "" })).toEqual({ content: "Content is required" });
    expect(errors({ name: "Mina", keys: ["Mina"], content: "x".repeat(2001) })).toEqual({
      content: "Content must be 2,000 characters or less",
    });
    expect(errors({ name: "Mina", keys: ["Mina"], content: "bell\u0007" })).toEqual({ content: "Text cannot contain control characters" });
    expect(errors({ name: "Mina", keys: ["Mina"], content: "x", insertion_order: "1e3" })).toEqual({
      insertion_order: "Order must be a whole number from 0 to 100,000",
    });
  });

  it("reads a form: keys split on commas and lines, an absent checkbox is off", () => {
    const parsed = loreEntrySchema({ form: true }).parse({ name: " Mina ", keys: "Mina, sister\nher sister", content: "A nurse.\r\n" });
    expect(parsed).toMatchObject({ name: "Mina", keys: ["Mina", "sister", "her sister"], content: "A nurse.", enabled: false });
    expect(loreEntrySchema().parse({ name: "Mina", keys: ["Mina"], content: "x" }).enabled).toBe(true);
  });
});

describe("matching", () => {
  const mina = entry({ name: "Mina", keys: ["Mina", "sister"] });
  const seoul = entry({ name: "Seoul", keys: ["Seoul"], insertion_order: 50 });

  it("finds whole-word keys in any case within the last messages, in insertion order", () => {
    expect(names(matchLore(book(mina, seoul), ["Tell me about your SISTER in seoul"]))).toEqual(["Seoul", "Mina"]);
    expect(names(matchLore(book(mina), ["Minam is not Mina's town"]))).toEqual(["Mina"]);
    expect(names(matchLore(book(mina), ["Minami"]))).toEqual([]);
    expect(names(matchLore(book(mina), ["sisterhood"]))).toEqual([]);
  });

  it("reads only the scan depth's last messages", () => {
    const messages = ["My sister?", "b", "c", "d", "e"];
    expect(names(matchLore(book(mina), messages))).toEqual([]);
    expect(names(matchLore(book(mina), messages, { scanDepth: 5 }))).toEqual(["Mina"]);
    expect(LORE_LIMITS.scanDepth).toBe(4);
  });

  it("keeps case when asked, and a disabled entry never matches", () => {
    const acronym = entry({ name: "ACE", keys: ["ACE"], case_sensitive: true });
    expect(names(matchLore(book(acronym), ["an ace pilot"]))).toEqual([]);
    expect(names(matchLore(book(acronym), ["the ACE team"]))).toEqual(["ACE"]);
    expect(names(matchLore(book({ ...mina, enabled: false }), ["Mina"]))).toEqual([]);
  });

  it("selective entries need a secondary key too; constant ones are always in", () => {
    const secret = entry({ name: "The tournament", keys: ["tournament"], secondary_keys: ["lost", "throw"], selective: true });
    const rules = entry({ name: "Rules", keys: ["unused"], constant: true, insertion_order: 1 });
    expect(names(matchLore(book(secret, rules), ["How was the tournament?"]))).toEqual(["Rules"]);
    expect(names(matchLore(book(secret, rules), ["Did you lose the tournament? You lost, right?"]))).toEqual(["Rules", "The tournament"]);
    // Without `selective` the secondary keys are only notes.
    expect(names(matchLore(book({ ...secret, selective: false }), ["tournament"]))).toEqual(["The tournament"]);
  });

  it("stays within the budget: constant entries first, then the earliest in order", () => {
    const big = (name: string, order: number, constant = false) =>
      entry({ name, keys: [name], content: "x".repeat(1_200), insertion_order: order, constant });
    const match = matchLore(book(big("a", 3), big("b", 1), big("c", 2), big("d", 9, true)), ["a b c"]);
    expect(names(match)).toEqual(["b", "d"]);
    expect(match.characters).toBeLessThanOrEqual(LORE_LIMITS.budget);
  });

  it("patterns run on the linear-time engine; one it cannot express is matched as plain text", () => {
    const pattern = entry({ name: "Kira", keys: ["/ki(ra|ri)/"], use_regex: true });
    expect(names(matchLore(book(pattern), ["kiri!"]))).toEqual(["Kira"]);
    // The backtracking shape of old is a pattern like any other now: it matches, and fast.
    const nested = { ...entry({ name: "N", keys: ["N"] }), keys: ["((a+))+$"], use_regex: true };
    let started = performance.now();
    expect(names(matchLore(book(nested), ["a".repeat(4_000) + "!"]))).toEqual([]);
    expect(names(matchLore(book(nested), ["baaa"]))).toEqual(["N"]);
    expect(performance.now() - started).toBeLessThan(1_000);
    // A look-ahead, which the engine does not have, stored from a card: a literal, matching only itself.
    const lookahead = { ...entry({ name: "L", keys: ["L"] }), keys: ["(?=a)a"], use_regex: true };
    expect(unusableKeys(lookahead)).toEqual(["(?=a)a"]);
    started = performance.now();
    expect(names(matchLore(book(lookahead), ["a".repeat(5_000)]))).toEqual([]);
    expect(names(matchLore(book(lookahead), ["it says (?=a)a here"]))).toEqual(["L"]);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(keyMatcher("C++", { caseSensitive: false, useRegex: false })("I write C++ daily")).toBe(true);
  });

  it("a plain key is a whole word wherever it occurs: after a part of a word, next to accents and letters outside the basic plane", () => {
    const plain = (key: string, caseSensitive = false) => keyMatcher(key, { caseSensitive, useRegex: false });
    // The first place is inside a word; the search goes on to the one that stands alone.
    expect(plain("ana")("banana ana")).toBe(true);
    expect(plain("ana")("bananas")).toBe(false);
    expect(plain("Léa")("Visiting LÉA today")).toBe(true);
    expect(plain("Léa")("éLéa")).toBe(false);
    // 𝒜 is one letter of two UTF-16 units: a word's part on either side.
    expect(plain("Mina")("𝒜Mina")).toBe(false);
    expect(plain("Mina")("Mina𝒜")).toBe(false);
    expect(plain("Mina")("😀Mina😀")).toBe(true);
    // Case folds as the pattern engine folds them ('ſ' is a long s); a case-sensitive key does not.
    expect(plain("sam")("ſam said so")).toBe(true);
    expect(plain("sam", true)("ſam said so")).toBe(false);
    // A key that starts or ends with no letter needs no word edge there.
    expect(plain("C++")("C++y")).toBe(true);
    expect(plain("C++")("xC++")).toBe(false);
  });
});

describe("the time patterns may take", () => {
  it("pattern keys share the match's allowance; those past it are not tried, plain keys always are", () => {
    // A clock that moves 25 ms each time it is read: each pattern takes 25 ms.
    let clock = 0;
    const now = () => (clock += 25) - 25;
    const first = entry({ name: "First", keys: ["/sist.r/"], use_regex: true, insertion_order: 1 });
    const second = entry({ name: "Second", keys: ["/se.ul/"], use_regex: true, insertion_order: 2 });
    const third = entry({ name: "Third", keys: ["/nur.e/"], use_regex: true, insertion_order: 3 });
    const plain = entry({ name: "Plain", keys: ["Busan"], insertion_order: 4 });
    const match = matchLore(book(first, second, third, plain), ["My sister, a nurse in Seoul, moved to Busan"], { now });
    expect(names(match)).toEqual(["First", "Second", "Plain"]);
    expect(match.patternsSkipped).toBe(1);
    // With the real clock, the same match tries every pattern.
    const all = matchLore(book(first, second, third, plain), ["My sister, a nurse in Seoul, moved to Busan"]);
    expect(names(all)).toEqual(["First", "Second", "Third", "Plain"]);
    expect(all.patternsSkipped).toBe(0);
  });
});

describe("stored form", () => {
  it("reads what it wrote and survives anything else", () => {
    const stored = JSON.parse(JSON.stringify(book(entry({ keys: ["Mina"] }))));
    expect(parseLorebook(stored).entries[0]).toMatchObject({ keys: ["Mina"], enabled: true });
    for (const junk of [null, "x", 3, [], { entries: "no" }, { entries: [null, 1, { id: 3 }] }]) {
      expect(parseLorebook(junk).entries).toEqual([]);
    }
  });

  it("as text for history: entry by entry, in order", () => {
    const text = lorebookText(
      book(entry({ name: "Mina", keys: ["Mina"], insertion_order: 2 }), entry({ name: "Seoul", keys: ["Seoul"], insertion_order: 1 })),
    );
    expect(text.indexOf("Seoul")).toBeLessThan(text.indexOf("Mina"));
    expect(text).toContain("Keys: Mina");
  });
});
