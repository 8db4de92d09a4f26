// The card check (docs/cards.md, Card check): what in a character card other front ends will
// drop, misread or crash on, found before the creator exports it (and right after an import),
// each finding with its severity, the field, the front ends it affects, a plain explanation and,
// where a fix is safe, the fix's name. The rules and the source of each fact are in docs/cards.md.
//
// Pure: the card is JSON as it came (V1 flat, V2 or V3) with what its container said (the PNG's
// text chunks in order), or the card this persona would export. Patterns in a card's lorebook
// are tried on the linear-time engine (patterns.ts) only; everything else is string work bounded
// by the card's own limits.
import { CARD_TARGET_LABELS, CARD_TARGETS, type CardTarget } from "./card-targets";
import { LORE_LIMITS } from "./lorebook";
import { compilePattern } from "./patterns";

export { CARD_TARGETS, CARD_TARGET_LABELS, type CardTarget } from "./card-targets";

export const CARD_SEVERITIES = ["error", "warning", "info"] as const;
export type CardSeverity = (typeof CARD_SEVERITIES)[number];

export const CARD_RULES = [
  "png-chunk-order",
  "v3-without-v2",
  "lore-decorators",
  "regex-without-slashes",
  "linked-world",
  "v3-only-field",
  "type-alternate-greetings",
  "type-character-book",
  "type-numeric-extension",
  "empty-name",
  "no-greeting",
  "macro-misuse",
  "lore-key-never-fires",
  "lore-entry-over-budget",
  "field-over-context",
] as const;
export type CardRule = (typeof CARD_RULES)[number];

/** The rules a one-click fix exists for (card-check-fix.ts applies them). */
export const FIXABLE_RULES = ["lore-decorators", "regex-without-slashes", "linked-world", "v3-only-field"] as const;
export type FixableRule = (typeof FIXABLE_RULES)[number];

export interface CardFinding {
  rule: CardRule;
  severity: CardSeverity;
  /** Where in the card: `data.first_mes`, `character_book.entries[2].content`, `png`… */
  field: string;
  targets: CardTarget[];
  message: string;
  /** The fix's label, when a safe one exists for this finding. */
  fix?: string;
}

/** What the card came in: a JSON file, or a PNG with its text chunks' keywords in file order. */
export type CardContainer = { kind: "json" } | { kind: "png"; chunks: readonly string[] } | { kind: "charx" };

export interface CardCheckInput {
  /** The card as JSON: V1 (flat), V2 or V3. */
  card: unknown;
  container?: CardContainer;
  /** The persona's own texts, for pattern keys that could never match them. Default: the card's texts. */
  texts?: readonly string[];
}

/**
 * A typical context, in tokens: what many hosted front ends and free models give a character
 * (docs/cards.md, Sizes). The card's permanent fields should leave most of it to the chat.
 */
export const TYPICAL_CONTEXT_TOKENS = 4_096;
/** The share of that context the permanent fields may take before the check warns. */
export const PERMANENT_SHARE = 0.5;

/** The V3 fields front ends that read V2 only drop (docs/cards.md, What survives where). */
export const V3_ONLY_FIELDS = ["nickname", "creator_notes_multilingual", "source", "group_only_greetings"] as const;
/** Where each V3-only field is lost (docs/cards.md, What survives where). */
const V3_DROPPED_BY: Record<(typeof V3_ONLY_FIELDS)[number], CardTarget[]> = {
  nickname: ["agnai", "backyard"],
  creator_notes_multilingual: ["risuai", "agnai", "backyard"],
  source: ["agnai", "backyard"],
  group_only_greetings: ["sillytavern", "agnai", "backyard"],
};
/**
 * Front ends that do not act on `@@` decorator lines: SillyTavern removes them (acting on
 * @@activate and @@dont_activate only); Agnai and Backyard AI send them to the model as text.
 */
const DECORATOR_LOSERS: CardTarget[] = ["sillytavern", "agnai", "backyard"];
/** Numeric fields of the common extensions (SillyTavern's): an empty string there breaks readers that do arithmetic. */
const NUMERIC_EXTENSIONS = ["talkativeness", "depth_prompt.depth"] as const;
const NUMERIC_ENTRY_EXTENSIONS = [
  "position",
  "depth",
  "probability",
  "scan_depth",
  "weight",
  "order",
  "delay",
  "cooldown",
  "sticky",
] as const;

const isObject = (value: unknown): value is Record<string, unknown> => !!value && typeof value === "object" && !Array.isArray(value);
const text = (value: unknown): string => (typeof value === "string" ? value : "");

/** The card's data object and its spec (1: flat V1). */
function cardData(card: unknown): { spec: 1 | 2 | 3; data: Record<string, unknown> } | null {
  if (!isObject(card)) return null;
  if (card.spec === "chara_card_v3" && isObject(card.data)) return { spec: 3, data: card.data };
  if (card.spec === "chara_card_v2" && isObject(card.data)) return { spec: 2, data: card.data };
  if (card.spec === undefined && typeof card.name === "string") return { spec: 1, data: card };
  return null;
}

/**
 * Tokens a text takes, estimated the way front ends show it without a tokenizer: a token per
 * CJK character, else one per four characters (docs/cards.md, Sizes).
 */
export function estimateTokens(value: string): number {
  let wide = 0;
  let other = 0;
  for (const ch of value) {
    if (/[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/u.test(ch)) wide++;
    else other++;
  }
  return wide + Math.ceil(other / 4);
}

/** The `@@` decorator lines a lorebook entry's content starts with (RisuAI's syntax). */
export function leadingDecorators(content: string): string[] {
  const lines = content.replace(/\r\n?/g, "\n").split("\n");
  const found: string[] = [];
  for (const line of lines) {
    if (!/^@@/.test(line.trim())) break;
    found.push(line.trim());
  }
  return found;
}

const MACRO_MISUSE: readonly { pattern: RegExp; say: (match: string) => string }[] = [
  { pattern: /(?<!\{)\{(?:char|user)\}(?!\})/gi, say: (m) => `${m} has single braces: front ends replace only {{char}} and {{user}}.` },
  {
    pattern: /\{\{\s+(?:char|user)\s*\}\}|\{\{\s*(?:char|user)\s+\}\}/gi,
    say: (m) => `${m} has spaces inside the braces: front ends replace only {{char}} and {{user}}.`,
  },
  {
    pattern: /\{\{(?:chr|usr|character|username|user_name|bot|charname|char_name)\}\}/gi,
    say: (m) => `${m} is not a macro front ends know: use {{char}} for the character and {{user}} for the user.`,
  },
];

const CHECKED_TEXTS = [
  "description",
  "personality",
  "scenario",
  "first_mes",
  "mes_example",
  "system_prompt",
  "post_history_instructions",
] as const;
const PERMANENT_FIELDS = ["description", "personality", "scenario", "mes_example", "system_prompt"] as const;

const keyWithSlashes = (key: string) => /^\/.+\/[a-z]*$/s.test(key);

/** The findings for a card, in the order of CARD_RULES, then by field. */
export function checkCard(input: CardCheckInput): CardFinding[] {
  const findings: CardFinding[] = [];
  const add = (finding: CardFinding) => findings.push(finding);
  const found = cardData(input.card);
  if (!found) return findings;
  const { spec, data } = found;
  const container = input.container ?? { kind: "json" };

  // The container.
  if (container.kind === "png") {
    const keys = container.chunks.map((keyword) => keyword.toLowerCase());
    const chara = keys.indexOf("chara");
    const ccv3 = keys.indexOf("ccv3");
    if (ccv3 >= 0 && chara >= 0 && ccv3 < chara)
      add({
        rule: "png-chunk-order",
        severity: "warning",
        field: "png",
        targets: ["agnai"],
        message: "The V3 chunk (ccv3) comes before the V2 chunk (chara): Agnai reads the first text chunk of a PNG, whatever its name.",
      });
    else if (chara > 0 && keys.slice(0, chara).some((keyword) => keyword !== "ccv3"))
      add({
        rule: "png-chunk-order",
        severity: "warning",
        field: "png",
        targets: ["agnai"],
        message: `Another text chunk (${container.chunks[0]}) comes before the card: Agnai reads the first text chunk of a PNG, whatever its name.`,
      });
    if (ccv3 >= 0 && chara < 0)
      add({
        rule: "v3-without-v2",
        severity: "warning",
        field: "png",
        targets: ["agnai"],
        message:
          "The PNG holds only the V3 card (ccv3), without the V2 copy (chara): Agnai reads the first text chunk and cannot read a V3 card.",
      });
  } else if (container.kind === "json" && spec === 3) {
    add({
      rule: "v3-without-v2",
      severity: "warning",
      field: "spec",
      targets: ["agnai"],
      message:
        "A V3 card as JSON: Agnai does not read V3 JSON (it refuses it, or reads only V1 fields at the top). Export it for Agnai to get a V2 card.",
    });
  }

  // The lorebook.
  const book = data.character_book;
  const entries = isObject(book) && Array.isArray(book.entries) ? book.entries : [];
  const texts = (input.texts ?? CHECKED_TEXTS.map((key) => text(data[key]))).join("\n");
  const bookBudget = isObject(book) && typeof book.token_budget === "number" && book.token_budget > 0 ? book.token_budget : null;
  // As the importer: at most LORE_LIMITS.cardPatternKeys patterns of a card are compiled and tried.
  let patternBudget = LORE_LIMITS.cardPatternKeys;
  entries.forEach((entry, index) => {
    if (!isObject(entry)) return;
    const where = `character_book.entries[${index}]`;
    const title = text(entry.name) || text(entry.comment) || `entry ${index + 1}`;
    const content = text(entry.content);
    const decorators = leadingDecorators(content);
    if (decorators.length > 0)
      add({
        rule: "lore-decorators",
        severity: "warning",
        field: `${where}.content`,
        targets: [...DECORATOR_LOSERS],
        message: `"${title}" starts with RisuAI decorators (${decorators[0]}${decorators.length > 1 ? ` and ${decorators.length - 1} more` : ""}): Agnai and Backyard AI send them to the model as text, and SillyTavern drops them without acting on them.`,
        fix: "Turn the decorators into entry settings",
      });
    const keys = [...(Array.isArray(entry.keys) ? entry.keys : []), ...(Array.isArray(entry.secondary_keys) ? entry.secondary_keys : [])];
    const stringKeys = keys.filter((key): key is string => typeof key === "string");
    if (entry.use_regex === true && stringKeys.some((key) => !keyWithSlashes(key)))
      add({
        rule: "regex-without-slashes",
        severity: "warning",
        field: `${where}.keys`,
        targets: ["risuai"],
        message: `"${title}" marks its keys as patterns, but not every key is written as /…/: RisuAI turns the flag off when the first key is not, and never matches the others as patterns.`,
        fix: "Write the keys as /…/",
      });
    const empty = stringKeys.filter((key) => key.trim() === "").length;
    if (empty > 0)
      add({
        rule: "lore-key-never-fires",
        severity: "warning",
        field: `${where}.keys`,
        targets: [...CARD_TARGETS],
        message: `"${title}" has ${empty === 1 ? "an empty key" : `${empty} empty keys`}: an empty key never brings the entry into a chat (or, in some front ends, always does).`,
      });
    const patterns = stringKeys.filter((key) => key.trim() !== "" && (entry.use_regex === true || keyWithSlashes(key)));
    for (const key of patterns) {
      if (patternBudget-- <= 0) break;
      const compiled = compilePattern(key, entry.case_sensitive === true);
      if (compiled && !compiled.test(texts))
        add({
          rule: "lore-key-never-fires",
          severity: "info",
          field: `${where}.keys`,
          targets: [...CARD_TARGETS],
          message: `"${title}": the pattern ${key} matches nothing in the character's own texts; check that a user would write what it looks for.`,
        });
    }
    const tokens = estimateTokens(content);
    const budget = bookBudget ?? Math.floor(LORE_LIMITS.budget / 4);
    if (tokens > budget)
      add({
        rule: "lore-entry-over-budget",
        severity: "warning",
        field: `${where}.content`,
        targets: [...CARD_TARGETS],
        message: `"${title}" is about ${tokens.toLocaleString("en-US")} tokens, over the lorebook's budget of ${budget.toLocaleString("en-US")}: front ends leave it out of the context.`,
      });
  });

  // Extensions.
  const extensions = isObject(data.extensions) ? data.extensions : {};
  if (typeof extensions.world === "string" && extensions.world.trim() !== "")
    add({
      rule: "linked-world",
      severity: "warning",
      field: "extensions.world",
      targets: ["sillytavern"],
      message: `The card links the World Info file "${extensions.world}": SillyTavern reads the linked file, not the lorebook inside the card, so a creator without that file gets no lore.`,
      fix: "Unlink the World Info file",
    });

  // V3-only fields.
  if (spec === 3) {
    for (const field of V3_ONLY_FIELDS) {
      const value = data[field];
      const set = Array.isArray(value)
        ? value.length > 0
        : isObject(value)
          ? Object.keys(value).length > 0
          : typeof value === "string" && value !== "";
      if (!set) continue;
      const mirror = field === "creator_notes_multilingual" && multilingualToMirror(data) !== null;
      add({
        rule: "v3-only-field",
        severity: "info",
        field,
        targets: [...V3_DROPPED_BY[field]],
        message: `${field} is a V3 field: ${V3_DROPPED_BY[field].map((target) => CARD_TARGET_LABELS[target]).join(", ")} ${V3_DROPPED_BY[field].length === 1 ? "drops" : "drop"} it.`,
        ...(mirror ? { fix: "Copy the default-language note into creator_notes" } : {}),
      });
    }
  }

  // Type hygiene.
  if (data.alternate_greetings !== undefined && !Array.isArray(data.alternate_greetings))
    add({
      rule: "type-alternate-greetings",
      severity: "error",
      field: "alternate_greetings",
      targets: ["sillytavern", "risuai", "agnai"],
      message: "alternate_greetings is not a list: front ends that loop over it fail to load the card.",
    });
  if (data.character_book === null)
    add({
      rule: "type-character-book",
      severity: "error",
      field: "character_book",
      targets: ["sillytavern", "risuai", "agnai"],
      message: "character_book is null: leave the field out when there is no lorebook; some front ends fail on null.",
    });
  else if (data.character_book !== undefined && !isObject(data.character_book))
    add({
      rule: "type-character-book",
      severity: "error",
      field: "character_book",
      targets: ["sillytavern", "risuai", "agnai"],
      message: "character_book is not an object: front ends fail to read the lorebook.",
    });
  const numeric = (value: unknown) => value === "" || (typeof value === "string" && value.trim() !== "" && Number.isNaN(Number(value)));
  for (const path of NUMERIC_EXTENSIONS) {
    const [head, tail] = path.split(".") as [string, string | undefined];
    const value = tail ? (isObject(extensions[head]) ? (extensions[head] as Record<string, unknown>)[tail] : undefined) : extensions[head];
    if (numeric(value))
      add({
        rule: "type-numeric-extension",
        severity: "error",
        field: `extensions.${path}`,
        targets: ["sillytavern"],
        message: `extensions.${path} should be a number and is ${JSON.stringify(value)}: SillyTavern computes with it.`,
      });
  }
  entries.forEach((entry, index) => {
    if (!isObject(entry) || !isObject(entry.extensions)) return;
    for (const key of NUMERIC_ENTRY_EXTENSIONS) {
      if (numeric(entry.extensions[key]))
        add({
          rule: "type-numeric-extension",
          severity: "error",
          field: `character_book.entries[${index}].extensions.${key}`,
          targets: ["sillytavern"],
          message: `extensions.${key} of lorebook entry ${index + 1} should be a number and is ${JSON.stringify(entry.extensions[key])}.`,
        });
    }
  });
  if (typeof data.name !== "string" || data.name.trim() === "")
    add({
      rule: "empty-name",
      severity: "error",
      field: "name",
      targets: [...CARD_TARGETS],
      message: "The card has no name: front ends list it as unnamed or refuse it.",
    });

  // Content.
  const greetings = Array.isArray(data.alternate_greetings)
    ? data.alternate_greetings.filter((g) => typeof g === "string" && g.trim())
    : [];
  if (text(data.first_mes).trim() === "")
    add({
      rule: "no-greeting",
      severity: "warning",
      field: "first_mes",
      targets: [...CARD_TARGETS],
      message:
        greetings.length > 0
          ? "The card has no first message; front ends open the chat with an empty reply and show the alternate greetings only as swipes."
          : "The card has no greeting: the chat opens empty, and the model has no example of how the character opens.",
    });
  for (const key of [...CHECKED_TEXTS, "name"] as const) {
    const value = text(data[key]);
    if (key === "name" && /\{\{(?:char|user)\}\}/i.test(value)) {
      add({
        rule: "macro-misuse",
        severity: "warning",
        field: "name",
        targets: [...CARD_TARGETS],
        message: "The name contains {{char}} or {{user}}: the name is what {{char}} stands for.",
      });
      continue;
    }
    const seen = new Set<string>();
    for (const { pattern, say } of MACRO_MISUSE) {
      for (const match of value.matchAll(pattern)) {
        if (seen.has(match[0].toLowerCase())) continue;
        seen.add(match[0].toLowerCase());
        add({ rule: "macro-misuse", severity: "warning", field: key, targets: [...CARD_TARGETS], message: `${key}: ${say(match[0])}` });
      }
    }
  }
  const permanent = PERMANENT_FIELDS.reduce((sum, key) => sum + estimateTokens(text(data[key])), 0);
  const ceiling = Math.floor(TYPICAL_CONTEXT_TOKENS * PERMANENT_SHARE);
  if (permanent > ceiling)
    add({
      rule: "field-over-context",
      severity: "warning",
      field: "description",
      targets: [...CARD_TARGETS],
      message: `The fields sent with every message (description, personality, scenario, example dialogue, system prompt) take about ${permanent.toLocaleString("en-US")} tokens, over half of a typical ${TYPICAL_CONTEXT_TOKENS.toLocaleString("en-US")}-token context: little is left for the conversation.`,
    });

  const order = new Map(CARD_RULES.map((rule, index) => [rule, index]));
  return findings.sort((a, b) => order.get(a.rule)! - order.get(b.rule)!);
}

/** The default-language note of creator_notes_multilingual to copy into creator_notes, when it differs; null otherwise. */
export function multilingualToMirror(data: Record<string, unknown>): { language: string; note: string } | null {
  const notes = data.creator_notes_multilingual;
  if (!isObject(notes)) return null;
  const languages = Object.keys(notes).filter((key) => typeof notes[key] === "string" && (notes[key] as string).trim() !== "");
  const language = languages.includes("en") ? "en" : languages[0];
  if (!language) return null;
  const note = notes[language] as string;
  const current = text(data.creator_notes);
  return current.includes(note.trim()) ? null : { language, note };
}

/** Counts by severity, for a summary line ('2 errors, 3 warnings'). */
export function findingCounts(findings: readonly CardFinding[]): Record<CardSeverity, number> {
  const counts: Record<CardSeverity, number> = { error: 0, warning: 0, info: 0 };
  for (const finding of findings) counts[finding.severity]++;
  return counts;
}
