import { describe, expect, it } from "vitest";

import { CARD_RULES, checkCard, estimateTokens, leadingDecorators, type CardRule } from "./card-check";
import { applyCardFix, decoratorsAsSettings } from "./card-check-fix";
import type { LoreEntry } from "./lorebook";

const v2 = (data: Record<string, unknown>) => ({
  spec: "chara_card_v2",
  spec_version: "2.0",
  data: { name: "Mira", description: "A cartographer.", personality: "curious", first_mes: "Hello, {{user}}.", ...data },
});
const v3 = (data: Record<string, unknown>) => ({ ...v2(data), spec: "chara_card_v3", spec_version: "3.0" });
const rules = (findings: { rule: CardRule }[]) => findings.map((finding) => finding.rule);

describe("card check rules (docs/cards.md, Card check)", () => {
  it("a clean V2 card in a PNG written chara first has no findings", () => {
    expect(checkCard({ card: v2({}), container: { kind: "png", chunks: ["chara", "ccv3"] } })).toEqual([]);
  });

  it("a PNG whose ccv3 chunk comes first, or another chunk, is a warning for Agnai", () => {
    const [first] = checkCard({ card: v3({}), container: { kind: "png", chunks: ["ccv3", "chara"] } });
    expect(first).toMatchObject({ rule: "png-chunk-order", severity: "warning", field: "png", targets: ["agnai"] });
    expect(rules(checkCard({ card: v2({}), container: { kind: "png", chunks: ["parameters", "chara"] } }))).toEqual(["png-chunk-order"]);
  });

  it("a V3 PNG without the V2 backfill, and V3 JSON, are caught", () => {
    expect(rules(checkCard({ card: v3({}), container: { kind: "png", chunks: ["ccv3"] } }))).toEqual(["v3-without-v2"]);
    expect(checkCard({ card: v3({}), container: { kind: "json" } })[0]).toMatchObject({ rule: "v3-without-v2", field: "spec" });
  });

  it("lorebook content starting with @@ decorators is a warning with a fix", () => {
    const card = v2({ character_book: { entries: [{ keys: ["tower"], content: "@@depth 4\n@@role system\nThe tower is old." }] } });
    const [finding] = checkCard({ card });
    expect(finding).toMatchObject({ rule: "lore-decorators", field: "character_book.entries[0].content", fix: expect.any(String) });
    expect(finding!.targets).toEqual(["sillytavern", "agnai", "backyard"]);
  });

  it("use_regex on a key that is not /…/ is a RisuAI warning with a fix", () => {
    const card = v2({ character_book: { entries: [{ keys: ["tow(er|n)"], content: "The tower.", use_regex: true }] } });
    expect(checkCard({ card }).map((f) => [f.rule, f.targets])).toContainEqual(["regex-without-slashes", ["risuai"]]);
  });

  it("a linked World Info file is a SillyTavern warning with a fix", () => {
    const [finding] = checkCard({ card: v2({ extensions: { world: "Eldoria" } }) });
    expect(finding).toMatchObject({ rule: "linked-world", field: "extensions.world", targets: ["sillytavern"], fix: expect.any(String) });
  });

  it("V3-only fields say where they are dropped; the multilingual note offers a fix", () => {
    const findings = checkCard({
      card: v3({ nickname: "Mi", creator_notes_multilingual: { en: "A map maker." }, source: ["x"], group_only_greetings: ["Hi all"] }),
      container: { kind: "png", chunks: ["chara", "ccv3"] },
    });
    expect(findings.map((f) => f.field)).toEqual(["nickname", "creator_notes_multilingual", "source", "group_only_greetings"]);
    expect(findings.find((f) => f.field === "creator_notes_multilingual")).toMatchObject({
      targets: ["risuai", "agnai", "backyard"],
      fix: expect.any(String),
    });
    expect(findings.find((f) => f.field === "group_only_greetings")!.targets).toContain("sillytavern");
  });

  it("types that break other apps are errors", () => {
    const found = rules(
      checkCard({
        card: v2({
          name: " ",
          alternate_greetings: "Hi",
          character_book: null,
          extensions: { talkativeness: "", depth_prompt: { depth: "" } },
        }),
      }),
    );
    expect(found).toEqual([
      "type-alternate-greetings",
      "type-character-book",
      "type-numeric-extension",
      "type-numeric-extension",
      "empty-name",
    ]);
  });

  it("content: no greeting, macro misuse, keys that never fire, an entry over budget, permanent fields over a typical context", () => {
    const long = "word ".repeat(2_000);
    const findings = checkCard({
      card: v2({
        first_mes: "",
        description: `{char} meets {{ user }} and {{chr}}. ${long}`,
        character_book: {
          token_budget: 50,
          entries: [
            { keys: ["  ", "harbour"], content: "The harbour." },
            { keys: ["/zebra\\d+/"], content: "x".repeat(400) },
          ],
        },
      }),
    });
    expect(rules(findings)).toEqual([
      "no-greeting",
      "macro-misuse",
      "macro-misuse",
      "macro-misuse",
      "lore-key-never-fires",
      "lore-key-never-fires",
      "lore-entry-over-budget",
      "field-over-context",
    ]);
    expect(findings.filter((f) => f.rule === "lore-key-never-fires").map((f) => f.severity)).toEqual(["warning", "info"]);
  });

  it("a malformed card or decorator never throws", () => {
    for (const card of [null, 1, "x", [], { spec: "chara_card_v2" }, v2({ character_book: { entries: [1, null, { content: 5 }] } })]) {
      expect(() => checkCard({ card })).not.toThrow();
    }
    expect(leadingDecorators("@@\n@@@ \n@@depth four\nText")).toEqual(["@@", "@@@", "@@depth four"]);
  });

  it("estimates tokens: one per CJK character, one per four other characters", () => {
    expect(estimateTokens("abcdefgh")).toBe(2);
    expect(estimateTokens("爱光")).toBe(2);
  });
});

const entry = (content: string, extra: Partial<LoreEntry> = {}): LoreEntry => ({
  id: "e1",
  name: "Tower",
  keys: ["tower"],
  secondary_keys: [],
  selective: false,
  content,
  enabled: true,
  constant: false,
  insertion_order: 100,
  case_sensitive: false,
  comment: "",
  use_regex: false,
  kind: null,
  extensions: {},
  card: {},
  ...extra,
});

describe("card check fixes", () => {
  it("turns RisuAI decorators into SillyTavern's entry settings, keeping the ones that have none", () => {
    const {
      entry: fixed,
      converted,
      kept,
    } = decoratorsAsSettings(
      entry("@@depth 3\n@@role assistant\n@@probability 40\n@@activate_only_every 2\n@@additional_keys moat\nThe tower is old."),
    );
    expect(converted).toEqual(["@@depth 3", "@@role assistant", "@@probability 40", "@@additional_keys moat"]);
    expect(kept).toEqual(["@@activate_only_every 2"]);
    expect(fixed.content).toBe("@@activate_only_every 2\nThe tower is old.");
    expect(fixed.extensions).toMatchObject({ position: 4, depth: 3, role: 2, probability: 40, useProbability: true, selectiveLogic: 0 });
    expect(fixed).toMatchObject({ secondary_keys: ["moat"], selective: true });
  });

  it("RisuAI's secondary-key lines become one logic, or stay when they cannot", () => {
    expect(decoratorsAsSettings(entry("@@additional_keys a\n@@additional_keys b\nX")).entry.extensions.selectiveLogic).toBe(3);
    expect(decoratorsAsSettings(entry("@@exclude_keys a\n@@exclude_keys b\nX")).entry.extensions.selectiveLogic).toBe(2);
    expect(decoratorsAsSettings(entry("@@exclude_keys_all a,b\nX")).entry.extensions.selectiveLogic).toBe(1);
    expect(decoratorsAsSettings(entry("@@additional_keys a\n@@exclude_keys b\nX")).kept).toEqual([
      "@@additional_keys a",
      "@@exclude_keys b",
    ]);
  });

  it("an entry that is only decorators is left as it is", () => {
    expect(decoratorsAsSettings(entry("@@depth 2")).converted).toEqual([]);
  });

  it("wraps keys as /…/, unlinks the world, mirrors the default-language note", () => {
    const lore = { entries: [entry("The tower.", { use_regex: true, keys: ["tow(er|n)", "/spire/i"] })], book: {} };
    const wrapped = applyCardFix("regex-without-slashes", "character_book.entries[0].keys", { lore, cardMeta: null, data: {} });
    expect(wrapped).toMatchObject({ ok: true });
    expect(wrapped.ok && wrapped.lore!.entries[0]!.keys).toEqual(["/tow(er|n)/", "/spire/i"]);

    const meta = { version: 1 as const, importedAs: "x", extensions: { world: "Eldoria", fav: true } };
    const unlinked = applyCardFix("linked-world", "extensions.world", { lore, cardMeta: meta, data: {} });
    expect(unlinked.ok && unlinked.cardMeta!.extensions).toEqual({ world: "", fav: true });

    const data = { creator_notes: "", creator_notes_multilingual: { fr: "Une cartographe.", en: "A map maker." } };
    const mirrored = applyCardFix("v3-only-field", "creator_notes_multilingual", { lore, cardMeta: meta, data });
    expect(mirrored.ok && mirrored.cardMeta!.creator_notes).toBe("A map maker.");
    expect(applyCardFix("v3-only-field", "nickname", { lore, cardMeta: meta, data })).toMatchObject({ ok: false, status: 400 });
    expect(applyCardFix("lore-decorators", "character_book.entries[9].content", { lore, cardMeta: meta, data })).toMatchObject({
      ok: false,
      status: 409,
    });
  });
});

describe("what survives where (docs/cards.md)", () => {
  it("lists for each front end the fate of each field the card uses, and what no source states", async () => {
    const { survivalOf, fieldsInUse } = await import("./card-survival");
    const data = v3({
      nickname: "Mi",
      extensions: { world: "Drowned", personaforge: { version: 1 } },
      character_book: { entries: [{ keys: ["a"], content: "@@depth 2\nA.", enabled: false }] },
    }).data;
    expect(fieldsInUse(data)).toEqual([
      "name",
      "description",
      "personality",
      "first_mes",
      "nickname",
      "character_book",
      "entries.enabled",
      "entries.decorators",
      "extensions.world",
      "extensions.personaforge",
    ]);
    const byTarget = Object.fromEntries(survivalOf(data).map((t) => [t.target, t]));
    expect(byTarget.agnai!.fields.find((f) => f.field === "personality")).toMatchObject({ fate: "changed" });
    expect(byTarget.backyard!.fields.find((f) => f.field === "personality")).toMatchObject({ fate: "dropped" });
    expect(byTarget.risuai!.fields.find((f) => f.field === "entries.enabled")).toMatchObject({ fate: "dropped" });
    expect(byTarget.janitorai!.unsourced).toContain("description");
    expect(byTarget.janitorai!.fields.map((f) => f.field)).toEqual(["name", "personality"]);
  });
});

describe("cards with known losses, one per rule: each caught, none called safe", () => {
  const png = (chunks: string[]) => ({ kind: "png" as const, chunks });
  const fixtures: { rule: CardRule; card: unknown; container?: Parameters<typeof checkCard>[0]["container"] }[] = [
    { rule: "png-chunk-order", card: v3({}), container: png(["ccv3", "chara"]) },
    { rule: "v3-without-v2", card: v3({}), container: png(["ccv3"]) },
    { rule: "lore-decorators", card: v2({ character_book: { entries: [{ keys: ["a"], content: "@@depth 1\nA." }] } }) },
    { rule: "regex-without-slashes", card: v2({ character_book: { entries: [{ keys: ["a+"], content: "A.", use_regex: true }] } }) },
    { rule: "linked-world", card: v2({ extensions: { world: "W" } }) },
    { rule: "v3-only-field", card: v3({ nickname: "N" }), container: png(["chara", "ccv3"]) },
    { rule: "type-alternate-greetings", card: v2({ alternate_greetings: "hi" }) },
    { rule: "type-character-book", card: v2({ character_book: null }) },
    { rule: "type-numeric-extension", card: v2({ extensions: { talkativeness: "" } }) },
    { rule: "empty-name", card: v2({ name: "" }) },
    { rule: "no-greeting", card: v2({ first_mes: "" }) },
    { rule: "macro-misuse", card: v2({ scenario: "{user} meets {char}." }) },
    { rule: "lore-key-never-fires", card: v2({ character_book: { entries: [{ keys: [" "], content: "A." }] } }) },
    {
      rule: "lore-entry-over-budget",
      card: v2({ character_book: { token_budget: 10, entries: [{ keys: ["a"], content: "word ".repeat(100) }] } }),
    },
    { rule: "field-over-context", card: v2({ description: "word ".repeat(2_000) }) },
  ];

  it("covers every rule", () => {
    expect(fixtures.map((fixture) => fixture.rule).sort()).toEqual([...CARD_RULES].sort());
  });

  for (const { rule, card, container } of fixtures) {
    it(`${rule} is caught`, () => {
      expect(rules(checkCard({ card, container }))).toContain(rule);
    });
  }
});
