// A persona's lorebook (docs/product.md, Lore): what the persona knows — people, places, groups,
// events, secrets — as entries that enter a conversation only when one of their keys comes up,
// so a long backstory does not crowd every reply. The fields are named as a Character Card V2
// `character_book` entry names them. Pure: used by the forms, the JSON API, the chat responders
// and the character cards alike.
import * as z from "zod";

import { LORE_KINDS, type LoreKind } from "./lore-text";
import { compilePattern, usablePattern } from "./patterns";

export { LORE_KIND_LABELS, LORE_KINDS, LORE_TEXT, type LoreKind } from "./lore-text";

/** Card fields we keep but do not act on, carried as they came (a card's `id`, `priority`, `position`, unknown keys). */
export type LoreJson = string | number | boolean | null | LoreJson[] | { [key: string]: LoreJson };

export interface LoreEntry {
  /** Stable id of the entry (a UUID), used by the API and by 'Lore used'. */
  id: string;
  /** The entry's title (`name`). */
  name: string;
  /** Words that bring the entry into a conversation; at least one. */
  keys: string[];
  /** With `selective`, one of these must come up as well as one of `keys`. */
  secondary_keys: string[];
  selective: boolean;
  /** What the persona knows about the subject. */
  content: string;
  enabled: boolean;
  /** Always included, keys or not. */
  constant: boolean;
  /** Lower numbers go into the context first. */
  insertion_order: number;
  case_sensitive: boolean;
  /** A note for the creator; never sent to a model. */
  comment: string;
  /** V3: the keys are patterns. A pattern that cannot be matched safely is matched as plain text. */
  use_regex: boolean;
  /** What the entry is about, when known: how the coverage report and the compile name it. */
  kind: LoreKind | null;
  /** `extensions` of the card entry, kept as they came (never dropped). */
  extensions: Record<string, LoreJson>;
  /** Other card fields kept as they came (`id`, `priority`, `position`, unknown keys). */
  card: Record<string, LoreJson>;
  /** The optional card fields the card's entry did not have: a card writes them only once they differ from their default. */
  cardAbsent?: string[];
  /**
   * The card entry's own values of fields that reading changed (keys trimmed or repeated, flags
   * written as text…) and its place in the card: written back while the entry still reads the same.
   */
  cardAsCame?: { index: number; fields: Record<string, LoreJson> };
}

/** What a lorebook holds besides its entries: the card book's own fields, kept as they came. */
export interface LoreBook {
  entries: LoreEntry[];
  /** `name`, `description`, `scan_depth`, `token_budget`, `recursive_scanning`, `extensions` of an imported book. */
  book: Record<string, LoreJson>;
  /** The persona's card carried a `character_book` (even an empty one): a card writes one back. */
  card?: boolean;
}

export const LORE_LIMITS = {
  entries: 200,
  nameMax: 100,
  keysMax: 20,
  keyMax: 100,
  contentMax: 2_000,
  commentMax: 500,
  insertionOrderMax: 100_000,
  /** A pattern longer than this is matched as plain text. */
  patternMax: 200,
  /** Chat: how many of the last messages are scanned for keys. */
  scanDepth: 4,
  /** Chat: at most this many characters of entries go into the context. */
  budget: 3_000,
  /**
   * Chat: milliseconds the pattern keys of one match may take together (compiling and matching);
   * the pattern keys not reached by then are not matched for this reply (docs/decisions/039).
   */
  patternMs: 40,
  /** A card: at most this many of its lorebook's keys are kept as patterns; the rest are plain text. */
  cardPatternKeys: 100,
} as const;

export const LORE_MESSAGES = {
  nameRequired: "Title is required",
  nameMax: "Title must be 100 characters or less",
  keysRequired: "Add at least one key",
  keysMax: "At most 20 keys",
  keyMax: "Each key must be 100 characters or less",
  keysRepeat: "Keys must not repeat",
  contentRequired: "Content is required",
  contentMax: "Content must be 2,000 characters or less",
  commentMax: "Comment must be 500 characters or less",
  insertionOrder: "Order must be a whole number from 0 to 100,000",
  pattern:
    "This pattern cannot be matched: it must be a valid pattern of at most 200 characters, without look-arounds or back-references. Simplify it, or turn off 'Keys are patterns'",
  characters: "Text cannot contain control characters",
  type: "Must be text",
  flag: "Must be true or false",
  entries: "A lorebook holds at most 200 entries",
  notFound: "Lore entry not found",
  needsBackstory: "Write or generate a backstory first: the lorebook is built from it.",
} as const;

// Tabs and line breaks are text; other control characters and bidirectional overrides are not.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\u2028\u2029\u202A-\u202E\u2066-\u2069]/u;
const length = (text: string) => [...text].length;

/** Line endings made \n and outer whitespace trimmed. */
export function cleanLoreText(text: string): string {
  return text.replace(/\r\n?/g, "\n").trim();
}

/** Keys given as an array (JSON) or as text with one per line or comma-separated (a form's field). */
export function splitKeys(value: unknown): string[] {
  const items = Array.isArray(value)
    ? value.filter((item): item is string => typeof item === "string")
    : typeof value === "string"
      ? value.split(/\r?\n|,/)
      : [];
  return items.map((item) => item.replace(/\s+/g, " ").trim()).filter((item) => item !== "");
}

const keyList = z
  .union([z.string(), z.array(z.string()), z.null()], { error: LORE_MESSAGES.type })
  .optional()
  .transform(splitKeys)
  .superRefine((keys, ctx) => {
    if (keys.length > LORE_LIMITS.keysMax) ctx.addIssue({ code: "custom", message: LORE_MESSAGES.keysMax });
    else if (keys.some((key) => length(key) > LORE_LIMITS.keyMax)) ctx.addIssue({ code: "custom", message: LORE_MESSAGES.keyMax });
    else if (keys.some((key) => CONTROL.test(key))) ctx.addIssue({ code: "custom", message: LORE_MESSAGES.characters });
    else if (new Set(keys.map((key) => key.toLowerCase())).size !== keys.length)
      ctx.addIssue({ code: "custom", message: LORE_MESSAGES.keysRepeat });
  });

/** A checkbox ('on'), a JSON boolean, or the strings 'true'/'false'. Absent is `fallback`. */
const flag = (fallback: boolean) =>
  z
    .union([z.boolean(), z.literal("on"), z.literal("true"), z.literal("false"), z.null()], { error: LORE_MESSAGES.flag })
    .optional()
    .transform((value) => (value === undefined || value === null ? fallback : value === true || value === "on" || value === "true"));

const text = (max: number, messages: { max: string; required?: string }) =>
  z
    .union([z.string(), z.null()], { error: LORE_MESSAGES.type })
    .optional()
    .transform((value) => cleanLoreText(value ?? ""))
    .superRefine((value, ctx) => {
      if (value === "" && messages.required) ctx.addIssue({ code: "custom", message: messages.required });
      else if (length(value) > max) ctx.addIssue({ code: "custom", message: messages.max });
      else if (CONTROL.test(value)) ctx.addIssue({ code: "custom", message: LORE_MESSAGES.characters });
    });

/**
 * An entry as a form or a JSON body gives it (docs/api.md, Lore). Form checkboxes that are absent
 * are false; in JSON an absent flag takes its default (enabled true, the others false).
 */
export function loreEntrySchema(options: { form?: boolean } = {}) {
  const off = options.form === true;
  return z.object({
    name: text(LORE_LIMITS.nameMax, { max: LORE_MESSAGES.nameMax, required: LORE_MESSAGES.nameRequired }),
    keys: keyList.superRefine((keys, ctx) => {
      if (keys.length === 0) ctx.addIssue({ code: "custom", message: LORE_MESSAGES.keysRequired });
    }),
    secondary_keys: keyList,
    selective: flag(false),
    content: text(LORE_LIMITS.contentMax, { max: LORE_MESSAGES.contentMax, required: LORE_MESSAGES.contentRequired }),
    enabled: flag(!off),
    constant: flag(false),
    insertion_order: z
      .union([z.number(), z.string(), z.null()], { error: LORE_MESSAGES.insertionOrder })
      .optional()
      .transform((value, ctx) => {
        if (value === undefined || value === null || value === "") return 100;
        const n = typeof value === "number" ? value : /^\s*\d{1,6}\s*$/.test(value) ? Number(value) : NaN;
        if (!Number.isInteger(n) || n < 0 || n > LORE_LIMITS.insertionOrderMax) {
          ctx.addIssue({ code: "custom", message: LORE_MESSAGES.insertionOrder });
          return z.NEVER;
        }
        return n;
      }),
    case_sensitive: flag(false),
    comment: text(LORE_LIMITS.commentMax, { max: LORE_MESSAGES.commentMax }),
    use_regex: flag(false),
    kind: z
      .union([z.enum(LORE_KINDS), z.literal(""), z.null()], { error: "Choose a kind" })
      .optional()
      .transform((value) => (value ? value : null)),
  });
}

/**
 * The keys of an entry whose keys are patterns that cannot be matched (patterns.ts), for the
 * service to refuse: the schema leaves them to it, since pages that use the schema ship no
 * pattern engine.
 */
export function unusableKeys(entry: Pick<LoreEntry, "keys" | "secondary_keys" | "use_regex" | "case_sensitive">): string[] {
  if (!entry.use_regex) return [];
  return [...entry.keys, ...entry.secondary_keys].filter((key) => !usablePattern(key, entry.case_sensitive));
}

export type LoreEntryInput = z.output<ReturnType<typeof loreEntrySchema>>;

/** A new entry from checked input. */
export function newLoreEntry(input: LoreEntryInput, id: string): LoreEntry {
  return { id, ...input, extensions: {}, card: {} };
}

// ---------------------------------------------------------------------------------------------
// Stored form
// ---------------------------------------------------------------------------------------------

export const EMPTY_LOREBOOK: LoreBook = { entries: [], book: {} };

const isObject = (value: unknown): value is Record<string, unknown> => !!value && typeof value === "object" && !Array.isArray(value);

/** A stored entry (or one from before a field existed) as the app reads it; null when it is not one. */
function readEntry(value: unknown): LoreEntry | null {
  if (!isObject(value) || typeof value.id !== "string") return null;
  const strings = (list: unknown) => (Array.isArray(list) ? list.filter((item): item is string => typeof item === "string") : []);
  return {
    id: value.id,
    name: typeof value.name === "string" ? value.name : "",
    keys: strings(value.keys),
    secondary_keys: strings(value.secondary_keys),
    selective: value.selective === true,
    content: typeof value.content === "string" ? value.content : "",
    enabled: value.enabled !== false,
    constant: value.constant === true,
    insertion_order: typeof value.insertion_order === "number" && Number.isFinite(value.insertion_order) ? value.insertion_order : 100,
    case_sensitive: value.case_sensitive === true,
    comment: typeof value.comment === "string" ? value.comment : "",
    use_regex: value.use_regex === true,
    kind: (LORE_KINDS as readonly unknown[]).includes(value.kind) ? (value.kind as LoreKind) : null,
    extensions: isObject(value.extensions) ? (value.extensions as Record<string, LoreJson>) : {},
    card: isObject(value.card) ? (value.card as Record<string, LoreJson>) : {},
    ...(Array.isArray(value.cardAbsent)
      ? { cardAbsent: value.cardAbsent.filter((field): field is string => typeof field === "string") }
      : {}),
    ...(isObject(value.cardAsCame) && typeof value.cardAsCame.index === "number" && isObject(value.cardAsCame.fields)
      ? { cardAsCame: { index: value.cardAsCame.index, fields: value.cardAsCame.fields as Record<string, LoreJson> } }
      : {}),
  };
}

/** The stored lorebook (personas.lore, a jsonb object) as the app reads it; anything unreadable is empty. */
export function parseLorebook(value: unknown): LoreBook {
  if (!isObject(value)) return EMPTY_LOREBOOK;
  const entries = Array.isArray(value.entries) ? value.entries.map(readEntry).filter((entry): entry is LoreEntry => entry !== null) : [];
  return {
    entries,
    book: isObject(value.book) ? (value.book as Record<string, LoreJson>) : {},
    ...(value.card === true ? { card: true } : {}),
  };
}

/** Entries in the order they go into a context and are listed: insertion order, then as stored. */
export function orderedEntries(entries: readonly LoreEntry[]): LoreEntry[] {
  return entries
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => a.entry.insertion_order - b.entry.insertion_order || a.index - b.index)
    .map(({ entry }) => entry);
}

/** The entry as the JSON API gives it (the stored fields but the card's kept extras). */
export function loreEntryJson(entry: LoreEntry) {
  const { card: _card, cardAbsent: _absent, cardAsCame: _asCame, ...rest } = entry;
  return rest;
}

/** An entry as lines of text: what history compares, entry by entry. */
export function loreEntryText(entry: LoreEntry): string {
  const flags = [
    entry.enabled ? null : "disabled",
    entry.constant ? "always included" : null,
    entry.case_sensitive ? "case-sensitive" : null,
    entry.use_regex ? "keys are patterns" : null,
  ].filter(Boolean);
  return [
    `${entry.name} (order ${entry.insertion_order}${flags.length ? `; ${flags.join(", ")}` : ""})`,
    `Keys: ${entry.keys.join(", ")}`,
    ...(entry.secondary_keys.length ? [`${entry.selective ? "Also needs" : "Secondary keys"}: ${entry.secondary_keys.join(", ")}`] : []),
    entry.content,
    ...(entry.comment ? [`Comment: ${entry.comment}`] : []),
  ].join("\n");
}

/** The whole lorebook as text, entries in order, blank lines between: the versions' compare view. */
export function lorebookText(book: LoreBook): string {
  return orderedEntries(book.entries).map(loreEntryText).join("\n\n");
}

// ---------------------------------------------------------------------------------------------
// Matching (docs/product.md, Lore in chat)
// ---------------------------------------------------------------------------------------------

const WORDY = /[\p{L}\p{N}_]/u;
const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * One key as a test over a text: a pattern on the linear-time engine (patterns.ts), or a
 * whole-word literal match — which is how a pattern that cannot be matched is read too.
 */
export function keyMatcher(key: string, options: { caseSensitive: boolean; useRegex: boolean }): (text: string) => boolean {
  const pattern = options.useRegex ? compilePattern(key, options.caseSensitive) : null;
  if (pattern) return (text) => pattern.test(text);
  const search = literalKeySearch(key, options.caseSensitive);
  return (text) => search(text) >= 0;
}

const WORD_CHARACTER = /^[\p{L}\p{N}_]$/u;
/** Whether the character (code point) that starts at `index` is a letter, a digit or '_'. */
const wordyAt = (text: string, index: number) => index < text.length && WORD_CHARACTER.test(String.fromCodePoint(text.codePointAt(index)!));
/** Whether the character (code point) that ends just before `index` is one. */
function wordyBefore(text: string, index: number): boolean {
  if (index <= 0) return false;
  const low = text.charCodeAt(index - 1);
  const pair = index >= 2 && low >= 0xdc00 && low <= 0xdfff && text.charCodeAt(index - 2) >= 0xd800 && text.charCodeAt(index - 2) <= 0xdbff;
  return WORD_CHARACTER.test(text.slice(pair ? index - 2 : index - 1, index));
}

/**
 * A plain key as a whole-word search (the key not preceded or followed by a letter, digit or '_'
 * where it starts or ends with one): where it first occurs in a text at or after `from`, or -1.
 * The key itself is searched for without the word checks, which are then made at each place it
 * occurs: the same places the checks written into the pattern as look-arounds would find, in a
 * tenth of the time (the engine can then skip ahead to the key's letters).
 */
export function literalKeySearch(key: string, caseSensitive: boolean): (text: string, from?: number) => number {
  const literal = key.normalize("NFC");
  const start = WORDY.test(literal[0] ?? "");
  const end = WORDY.test(literal.at(-1) ?? "");
  const regex = new RegExp(escapeRegex(literal), caseSensitive ? "gu" : "giu");
  return (text, from = 0) => {
    regex.lastIndex = from;
    for (let found = regex.exec(text); found; found = regex.exec(text)) {
      const at = found.index;
      if ((!start || !wordyBefore(text, at)) && (!end || !wordyAt(text, at + found[0].length))) return at;
      regex.lastIndex = at + (text.codePointAt(at)! > 0xffff ? 2 : 1);
    }
    return -1;
  };
}

export interface LoreMatch {
  /** The entries that go into the context, in insertion order. */
  entries: LoreEntry[];
  /** Characters they take, within the budget. */
  characters: number;
  /** Entries whose pattern keys were not tried: the match had spent its time on patterns. */
  patternsSkipped: number;
}

export interface LoreMatchOptions {
  scanDepth?: number;
  budget?: number;
  /** Milliseconds the pattern keys may take together (LORE_LIMITS.patternMs). */
  patternMs?: number;
  /** The clock the pattern time is read from (milliseconds). */
  now?: () => number;
}

/** The messages a match reads: the last `scanDepth` (the newest is the one being answered). */
export function scanWindow(messages: readonly string[], scanDepth: number = LORE_LIMITS.scanDepth): string {
  return messages
    .slice(-Math.max(1, scanDepth))
    .map((message) => message.normalize("NFC"))
    .join("\n");
}

/**
 * The entries a reply draws on (docs/product.md, Lore in chat): the enabled entries whose keys come
 * up in the last `scanDepth` messages (with `selective`, one of the secondary keys as well), plus
 * the constant ones; in insertion order; within a budget of characters. When they do not all fit,
 * the matched entries with the latest insertion order give way first, constant ones last.
 */
export function matchLore(book: LoreBook, messages: readonly string[], options: LoreMatchOptions = {}): LoreMatch {
  const budget = options.budget ?? LORE_LIMITS.budget;
  const window = scanWindow(messages, options.scanDepth ?? LORE_LIMITS.scanDepth);
  // Each pattern runs in time linear in the text, but a lorebook may hold thousands of them: they
  // share a time allowance, so no match holds the server's one thread for long (decision 039).
  const now = options.now ?? (() => performance.now());
  const patternMs = options.patternMs ?? LORE_LIMITS.patternMs;
  let patternTime = 0;
  let patternsSkipped = 0;
  const finds = (key: string, opts: { caseSensitive: boolean; useRegex: boolean }) => {
    if (!opts.useRegex) return keyMatcher(key, opts)(window);
    if (patternTime >= patternMs) return false;
    const started = now();
    const found = keyMatcher(key, opts)(window);
    patternTime += now() - started;
    return found;
  };
  const hits = orderedEntries(book.entries).filter((entry) => {
    if (!entry.enabled || entry.content.trim() === "") return false;
    if (entry.constant) return true;
    const opts = { caseSensitive: entry.case_sensitive, useRegex: entry.use_regex };
    const matched =
      entry.keys.some((key) => finds(key, opts)) &&
      (!entry.selective || entry.secondary_keys.length === 0 || entry.secondary_keys.some((key) => finds(key, opts)));
    if (!matched && entry.use_regex && patternTime >= patternMs) patternsSkipped += 1;
    return matched;
  });
  // Constant entries first in the claim on the budget, then matched ones in insertion order.
  const claim = [...hits.filter((entry) => entry.constant), ...hits.filter((entry) => !entry.constant)];
  const kept = new Set<string>();
  let characters = 0;
  for (const entry of claim) {
    const size = length(entry.content);
    if (characters + size > budget) continue;
    kept.add(entry.id);
    characters += size;
  }
  return { entries: hits.filter((entry) => kept.has(entry.id)), characters, patternsSkipped };
}

// ---------------------------------------------------------------------------------------------
// Texts
// ---------------------------------------------------------------------------------------------

export const LORE_TOASTS = {
  added: { title: "Entry Added", description: "Chat uses it when one of its keys comes up." },
  saved: { title: "Entry Saved", description: "Chat uses the entry as it is now." },
  deleted: { title: "Entry Deleted", description: "The entry is gone from the lorebook; history keeps the version before." },
  failed: { title: "Entry Not Saved", description: "Please fix the highlighted fields and try again." },
  kept: (n: number) => ({
    title: n === 1 ? "1 Entry Added" : `${n} Entries Added`,
    description: "Review them below; chat uses them when their keys come up.",
  }),
  none: { title: "Nothing Added", description: "No proposal was selected." },
  full: { title: "Lorebook Full", description: LORE_MESSAGES.entries },
} as const;
