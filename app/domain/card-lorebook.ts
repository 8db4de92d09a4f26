// A character card's `character_book` (Character Card V2 and V3) read into a persona's lorebook
// and written back from it (docs/product.md, Lore, and Exports and character cards): field for
// field; the card's fields we do not act on (an entry's `id`, `priority`, `position`, unknown
// keys, the book's `name`, `scan_depth`…) and every `extensions` kept as they came, so an imported
// book comes back out equal. What cannot be read (a book that is a string, entries of the wrong
// type) is read as far as it goes and named in the import's notes, and so is what is brought
// within an entry's limits (empty or repeated keys dropped, long keys, content, names and comments
// cut, an entry without content skipped); more than 200 entries refuse the card. Pure.
import { EMPTY_LOREBOOK, LORE_LIMITS, LORE_MESSAGES, parseLorebook, type LoreBook, type LoreEntry, type LoreJson } from "./lorebook";
import { LORE_KINDS, type LoreKind } from "./lore-text";
import { usablePattern } from "./patterns";

/** The optional entry fields of the V2/V3 specs that we model. */
const OPTIONAL_FIELDS = ["case_sensitive", "name", "comment", "selective", "secondary_keys", "constant", "use_regex"] as const;
/** Entry fields we model, required or optional, and our own id. */
const MODELLED = new Set<string>(["keys", "content", "extensions", "enabled", "insertion_order", ...OPTIONAL_FIELDS]);
/** Where a kind of ours travels in an entry's extensions. */
const KIND_EXTENSION = "personaforge";

const isObject = (value: unknown): value is Record<string, unknown> => !!value && typeof value === "object" && !Array.isArray(value);

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
// As lorebook.ts checks an entry: tabs and line breaks are text, other control characters and
// bidirectional overrides are not (and PostgreSQL stores no NUL).
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\u2028\u2029\u202A-\u202E\u2066-\u2069]/gu;
const length = (text: string) => [...text].length;
const formatNumber = (n: number) => n.toLocaleString("en-US");

/** A card's text as an entry keeps it: no control characters, no half of a surrogate pair. */
function cleanText(text: string): string {
  return text.replace(LONE_SURROGATE, "\uFFFD").replace(CONTROL, "");
}

/** At most `max` characters (code points), with '…' when cut. */
function cutText(text: string, max: number): string {
  return length(text) > max
    ? `${[...text]
        .slice(0, max - 1)
        .join("")
        .trimEnd()}…`
    : text;
}

/**
 * Foreign JSON kept as it came (extensions, an entry's other fields, the book's own fields), but
 * storable: no NUL, no broken UTF-16; a "__proto__" key stays a plain key. The card's size and
 * depth are checked before (character-card.ts).
 */
function storable(value: unknown): LoreJson {
  if (typeof value === "string") return value.replace(/\u0000/g, "").replace(LONE_SURROGATE, "\uFFFD");
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "boolean" || value === null) return value;
  if (Array.isArray(value)) return value.map(storable);
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [storable(key) as string, storable(item)]));
  return null;
}

export type CardLorebook = { ok: true; lore: LoreBook | null; notes: string[] } | { ok: false; message: string };

/**
 * An entry's title when the card gives no name: its comment (the title SillyTavern shows for an
 * entry), else its first key, else 'Entry n'.
 */
function defaultName(keys: readonly string[], comment: string, index: number): string {
  const title = comment.split("\n")[0]!.trim();
  if (title) return cutText(title, LORE_LIMITS.nameMax);
  return keys[0]?.trim().slice(0, LORE_LIMITS.nameMax) || `Entry ${index + 1}`;
}

/** The entry fields a round trip gives back as the card had them while they still read the same. */
const AS_CAME = [
  "keys",
  "secondary_keys",
  "content",
  "name",
  "comment",
  "enabled",
  "insertion_order",
  "selective",
  "constant",
  "case_sensitive",
  "use_regex",
] as const;

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The card entry's own values of the fields reading changed (keys trimmed or repeated, a flag
 * written as text…), with what reading them needs: kept with the entry so that an export gives
 * them back as they came while the entry still reads the same (docs/cards.md, Round trips). Null
 * when reading changed nothing.
 */
function cardFieldsAsCame(value: Record<string, unknown>, entry: LoreEntry): Record<string, LoreJson> | null {
  const changed = AS_CAME.filter((field) => value[field] !== undefined && !sameJson(storable(value[field]), entry[field]));
  if (changed.length === 0) return null;
  const fields: Record<string, LoreJson> = {};
  for (const field of AS_CAME) {
    // The content is needed only when reading changed it; the rest is small and decides how the others read.
    if (value[field] === undefined || (field === "content" && !changed.includes("content"))) continue;
    fields[field] = storable(value[field]);
  }
  return fields;
}

function readKeys(value: unknown, where: string, notes: string[]): string[] {
  if (Array.isArray(value)) {
    const strings = value.filter((key): key is string => typeof key === "string");
    if (strings.length !== value.length) notes.push(`${where}: keys that were not text were left out.`);
    return strings;
  }
  if (typeof value === "string") {
    notes.push(`${where}: keys were text, not a list; read as a list split at commas.`);
    return value
      .split(",")
      .map((key) => key.trim())
      .filter(Boolean);
  }
  if (value !== undefined && value !== null) notes.push(`${where}: keys were not a list and were left out.`);
  return [];
}

/**
 * Keys as an entry holds them (docs/product.md, Lore): trimmed, empty ones and repeats (any case)
 * dropped, each at most 100 characters, at most 20; each change named.
 */
function tidyKeys(keys: readonly string[], where: string, notes: string[]): string[] {
  const kept: string[] = [];
  const seen = new Set<string>();
  let empty = 0;
  let long = 0;
  for (const raw of keys) {
    let key = cleanText(raw).trim();
    if (key === "") {
      empty++;
      continue;
    }
    if (length(key) > LORE_LIMITS.keyMax) {
      long++;
      key = [...key].slice(0, LORE_LIMITS.keyMax).join("").trim();
    }
    if (seen.has(key.toLowerCase())) {
      notes.push(`${where}: the repeated key ${JSON.stringify(key)} was dropped.`);
      continue;
    }
    seen.add(key.toLowerCase());
    kept.push(key);
  }
  if (empty) notes.push(`${where}: ${empty === 1 ? "an empty key was" : `${empty} empty keys were`} dropped.`);
  if (long)
    notes.push(`${where}: ${long === 1 ? "a key" : `${long} keys`} over ${LORE_LIMITS.keyMax} characters cut to ${LORE_LIMITS.keyMax}.`);
  if (kept.length > LORE_LIMITS.keysMax)
    notes.push(`${where}: only the first ${LORE_LIMITS.keysMax} of its ${kept.length} keys were kept.`);
  return kept.slice(0, LORE_LIMITS.keysMax);
}

/** A text field as an entry keeps it: cleaned, cut at `max` with a note. */
function readText(value: string, max: number, field: string, where: string, notes: string[]): string {
  const clean = cleanText(value);
  if (clean !== value) notes.push(`${where}: control characters were removed from the ${field}.`);
  const cut = cutText(clean, max);
  if (cut !== clean) notes.push(`${where}: the ${field} was cut to ${formatNumber(max)} characters.`);
  return cut;
}

function readFlag(value: unknown, fallback: boolean, field: string, where: string, notes: string[]): boolean {
  if (typeof value === "boolean") return value;
  if (value === undefined || value === null) return fallback;
  const text = String(value).trim().toLowerCase();
  const read = ["true", "yes", "1", "on"].includes(text) ? true : ["false", "no", "0", "off"].includes(text) ? false : fallback;
  notes.push(`${where}: '${field}' was not true or false; read as ${read}.`);
  return read;
}

/**
 * A card's `character_book` as a lorebook. `null` or absent: no lorebook and no note. Refused
 * (`ok: false`) only when it holds more entries than a lorebook may.
 */
export function lorebookFromCard(raw: unknown): CardLorebook {
  if (raw === undefined || raw === null) return { ok: true, lore: null, notes: [] };
  const notes: string[] = [];
  if (!isObject(raw)) {
    return { ok: true, lore: null, notes: [`Lorebook: not read (character_book must be an object, not ${describe(raw)}).`] };
  }
  const { entries: rawEntries, ...bookFields } = raw;
  const book = storable(bookFields) as Record<string, LoreJson>;
  if (rawEntries === undefined || rawEntries === null) {
    notes.push("Lorebook: it had no list of entries.");
    return { ok: true, lore: { entries: [], book, card: true }, notes };
  }
  if (!Array.isArray(rawEntries)) {
    notes.push(`Lorebook: no entries read (entries must be a list, not ${describe(rawEntries)}).`);
    return { ok: true, lore: { entries: [], book, card: true }, notes };
  }
  if (rawEntries.length > LORE_LIMITS.entries) return { ok: false, message: LORE_MESSAGES.entries };

  const entries: LoreEntry[] = [];
  // Checking a pattern compiles it: a card keeps at most LORE_LIMITS.cardPatternKeys pattern keys,
  // so reading one never holds the server's thread for long (docs/decisions/039).
  const patterns = { keys: 0 };
  rawEntries.forEach((value, index) => {
    const entry = readCardEntry(value, index, notes, patterns);
    if (!entry) return;
    const asCame = cardFieldsAsCame(value as Record<string, unknown>, entry);
    entries.push(asCame ? { ...entry, cardAsCame: { index, fields: asCame } } : entry);
  });
  return { ok: true, lore: { entries, book, card: true }, notes };
}

/** One entry of a card's book as a lorebook entry; null when it is skipped (said in `notes`). */
function readCardEntry(value: unknown, index: number, notes: string[], patterns: { keys: number }): LoreEntry | null {
  const where = `Lorebook entry ${index + 1}`;
  if (!isObject(value)) {
    notes.push(`${where} skipped (not an object).`);
    return null;
  }
  let content = "";
  if (typeof value.content === "string") content = value.content;
  else if (typeof value.content === "number" || typeof value.content === "boolean") {
    content = String(value.content);
    notes.push(`${where}: content was not text; read as text.`);
  }
  // An entry is what it tells: without content there is nothing to keep. Decorators (@@depth 4) stay text.
  content = readText(content, LORE_LIMITS.contentMax, "content", where, notes);
  if (content.trim() === "") {
    notes.push(`${where} skipped (no content).`);
    return null;
  }
  const keys = tidyKeys(readKeys(value.keys, where, notes), where, notes);
  const secondary =
    value.secondary_keys === undefined
      ? []
      : tidyKeys(readKeys(value.secondary_keys, `${where} (secondary)`, notes), `${where} (secondary keys)`, notes);
  let order = 100;
  if (typeof value.insertion_order === "number" && Number.isFinite(value.insertion_order)) order = value.insertion_order;
  else if (value.insertion_order !== undefined && value.insertion_order !== null) {
    const parsed = Number(value.insertion_order);
    order = Number.isFinite(parsed) ? parsed : 100;
    notes.push(`${where}: insertion_order was not a number; read as ${order}.`);
  }
  const bounded = Math.min(LORE_LIMITS.insertionOrderMax, Math.max(0, Math.round(order)));
  if (bounded !== order) {
    notes.push(`${where}: insertion_order ${order} read as ${bounded} (a whole number from 0 to 100,000).`);
    order = bounded;
  }
  const extensions = isObject(value.extensions) ? (storable(value.extensions) as Record<string, LoreJson>) : {};
  if (value.extensions !== undefined && !isObject(value.extensions))
    notes.push(`${where}: extensions were not an object and were left out.`);
  // A kind of ours comes back from our own cards.
  let kind: LoreKind | null = null;
  const ours = extensions[KIND_EXTENSION];
  if (isObject(ours) && (LORE_KINDS as readonly unknown[]).includes(ours.kind)) {
    kind = ours.kind as LoreKind;
    const { kind: _kind, ...rest } = ours;
    if (Object.keys(rest).length) extensions[KIND_EXTENSION] = rest as LoreJson;
    else delete extensions[KIND_EXTENSION];
  }
  const card = storable(Object.fromEntries(Object.entries(value).filter(([key]) => !MODELLED.has(key)))) as Record<string, LoreJson>;
  const absent = [...OPTIONAL_FIELDS, "extensions"].filter((field) => value[field] === undefined);
  let useRegex = readFlag(value.use_regex, false, "use_regex", where, notes);
  if (useRegex && patterns.keys + keys.length + secondary.length > LORE_LIMITS.cardPatternKeys) {
    useRegex = false;
    notes.push(`${where}: its keys are matched as plain text (a card keeps at most ${LORE_LIMITS.cardPatternKeys} keys as patterns).`);
  } else if (useRegex) patterns.keys += keys.length + secondary.length;
  const comment = typeof value.comment === "string" ? readText(value.comment, LORE_LIMITS.commentMax, "comment", where, notes) : "";
  const entry: LoreEntry = {
    id: crypto.randomUUID(),
    name:
      typeof value.name === "string" && value.name.trim()
        ? readText(value.name, LORE_LIMITS.nameMax, "name", where, notes)
        : defaultName(keys, comment, index),
    keys,
    secondary_keys: secondary,
    selective: readFlag(value.selective, false, "selective", where, notes),
    content,
    enabled: readFlag(value.enabled, true, "enabled", where, notes),
    constant: readFlag(value.constant, false, "constant", where, notes),
    insertion_order: order,
    case_sensitive: readFlag(value.case_sensitive, false, "case_sensitive", where, notes),
    comment,
    use_regex: useRegex,
    kind,
    extensions,
    card,
    ...(absent.length ? { cardAbsent: absent } : {}),
  };
  if (useRegex) {
    const unsafe = [...keys, ...secondary].filter((key) => !usablePattern(key, entry.case_sensitive));
    if (unsafe.length)
      notes.push(
        `${where}: the pattern ${JSON.stringify(unsafe[0])} cannot be matched (look-arounds and back-references are not supported); it is matched as plain text.`,
      );
  }
  if (keys.length === 0 && !entry.constant)
    notes.push(`${where} ("${entry.name}") has no keys: chat uses it only if it is always included.`);
  return entry;
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return "a list";
  if (typeof value === "string") return "text";
  if (value === null) return "null";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/** An entry as a card writes it: fields a card entry of its own lacked stay out while they hold their default. */
function cardEntry(entry: LoreEntry, index: number): Record<string, LoreJson> {
  const absent = new Set(entry.cardAbsent ?? []);
  const extensions: Record<string, LoreJson> = { ...entry.extensions };
  if (entry.kind) {
    const ours = isObject(extensions[KIND_EXTENSION]) ? (extensions[KIND_EXTENSION] as Record<string, LoreJson>) : {};
    extensions[KIND_EXTENSION] = { ...ours, kind: entry.kind };
  }
  const out: Record<string, LoreJson> = { ...entry.card, keys: [...entry.keys], content: entry.content };
  const asCame = entry.cardAsCame ? asCameStill(entry) : {};
  if (!(absent.has("extensions") && Object.keys(extensions).length === 0)) out.extensions = extensions;
  out.enabled = entry.enabled;
  out.insertion_order = entry.insertion_order;
  const optional: Record<(typeof OPTIONAL_FIELDS)[number], { value: LoreJson; isDefault: boolean }> = {
    case_sensitive: { value: entry.case_sensitive, isDefault: !entry.case_sensitive },
    // 'Entry n' counts the card's entries, skipped ones too.
    name: {
      value: entry.name,
      isDefault:
        entry.name === defaultName(entry.keys, entry.comment, index) ||
        entry.name === defaultName(entry.keys, "", index) ||
        (!entry.keys.length && /^Entry \d+$/.test(entry.name)),
    },
    comment: { value: entry.comment, isDefault: entry.comment === "" },
    selective: { value: entry.selective, isDefault: !entry.selective },
    secondary_keys: { value: [...entry.secondary_keys], isDefault: entry.secondary_keys.length === 0 },
    constant: { value: entry.constant, isDefault: !entry.constant },
    use_regex: { value: entry.use_regex, isDefault: !entry.use_regex },
  };
  for (const field of OPTIONAL_FIELDS) {
    if (absent.has(field) && optional[field].isDefault) continue;
    out[field] = optional[field].value;
  }
  // What the card wrote, where the entry still reads the same (see cardFieldsAsCame).
  return { ...out, ...asCame };
}

/** The card's own values of an entry's fields that still read as the entry holds them. */
function asCameStill(entry: LoreEntry): Record<string, LoreJson> {
  const { index, fields } = entry.cardAsCame!;
  const again = readCardEntry({ ...fields, content: fields.content ?? entry.content }, index, [], { keys: 0 });
  if (!again) return {};
  const still: Record<string, LoreJson> = {};
  for (const field of AS_CAME) {
    if (fields[field] !== undefined && sameJson(again[field], entry[field])) still[field] = fields[field]!;
  }
  return still;
}

/**
 * The lorebook as a card's `character_book`, entries in the order they are stored; undefined when
 * the persona has no entries and its card carried no book. A persona imported before lorebooks
 * were read keeps the book its card carried (`legacy`).
 */
export function cardBookFromLorebook(lore: LoreBook, legacy?: LoreJson): LoreJson | undefined {
  if (lore.entries.length === 0 && !lore.card) return legacy;
  // A book of ours has what the V2 spec requires of one; an imported book goes back as it came.
  return { ...(lore.card ? {} : { extensions: {} }), ...lore.book, entries: lore.entries.map(cardEntry) };
}

/**
 * The persona's lorebook: its own; for a persona imported before lorebooks were read (none of its
 * own, and its card data still holding the card's book), that book read as one, with ids that stay
 * the same from read to read ('card-1'…) until its first change stores it. What the lore page,
 * chat and the exports read alike.
 */
export function exportedLorebook(lore: unknown, legacyBook: unknown): LoreBook {
  const own = parseLorebook(lore);
  if (own.entries.length > 0 || own.card || legacyBook === undefined || legacyBook === null) return own;
  const read = lorebookFromCard(legacyBook);
  if (!read.ok || !read.lore) return own;
  return { ...read.lore, entries: read.lore.entries.map((entry, index) => ({ ...entry, id: `card-${index + 1}` })) };
}

export { EMPTY_LOREBOOK };
