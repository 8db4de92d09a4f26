// The card check's one-click fixes (docs/cards.md, Card check): each changes only what its finding
// names, in the persona's lorebook or in the card data it keeps, and says in one line what it did
// (the history note). Pure; the service locks the persona, checks the finding is still there,
// applies the fix and writes it as a new version.
import type { CardMeta, JsonValue } from "./persona-shapes";
import { leadingDecorators, multilingualToMirror, type FixableRule } from "./card-check";
import { LORE_LIMITS, type LoreBook, type LoreEntry, type LoreJson } from "./lorebook";

export const CARD_FIX_MESSAGES = {
  noFix: "This finding has no one-click fix.",
  gone: "This finding is no longer there: the card was changed since it was checked. Check it again.",
  changed: "The persona changed since this check: check the card again before applying a fix.",
  keyTooLong: `A key written as /…/ would be over ${LORE_LIMITS.keyMax} characters: edit the entry on the lore page instead.`,
} as const;

export type CardFixOutcome =
  { ok: true; lore?: LoreBook; cardMeta?: CardMeta; note: string } | { ok: false; status: 400 | 409; message: string };

type SecondaryKind = "additional_keys" | "exclude_keys" | "exclude_keys_all";

/** SillyTavern's numbers for an entry's position and role (its world-info.js). */
const ST_POSITION = { before_desc: 0, after_desc: 1, depth: 4 } as const;
const ST_ROLE: Record<string, number> = { system: 0, user: 1, assistant: 2 };

/**
 * RisuAI decorator lines as a SillyTavern entry's settings (docs/cards.md, RisuAI decorators):
 * what has a setting becomes it, what has none stays in the content as it was.
 */
export function decoratorsAsSettings(entry: LoreEntry): {
  entry: LoreEntry;
  converted: string[];
  kept: string[];
} {
  const lines = leadingDecorators(entry.content);
  const extensions: Record<string, LoreJson> = { ...entry.extensions };
  const next: LoreEntry = { ...entry, extensions };
  const converted: string[] = [];
  const kept: string[] = [];
  const secondary: { kind: SecondaryKind; keys: string[]; line: string }[] = [];
  for (const line of lines) {
    const [, name = "", rest = ""] = /^@@@?([a-z_]+)\s*(.*)$/i.exec(line) ?? [];
    const value = rest.trim();
    const number = /^-?\d+$/.test(value) ? Number(value) : null;
    let done = true;
    switch (name.toLowerCase()) {
      case "depth":
        if (number === null || number < 0) done = false;
        else {
          extensions.position = ST_POSITION.depth;
          extensions.depth = number;
        }
        break;
      case "role":
        if (!(value.toLowerCase() in ST_ROLE)) done = false;
        else extensions.role = ST_ROLE[value.toLowerCase()]!;
        break;
      case "scan_depth":
        if (number === null || number < 0) done = false;
        else extensions.scan_depth = number;
        break;
      case "probability":
        if (number === null || number < 0 || number > 100) done = false;
        else {
          extensions.probability = number;
          extensions.useProbability = true;
        }
        break;
      case "position":
        if (value === "after_desc" || value === "before_desc") extensions.position = ST_POSITION[value];
        else done = false;
        break;
      // SillyTavern reads these two itself; as settings they hold in every front end.
      case "activate":
        next.constant = true;
        break;
      case "dont_activate":
        next.enabled = false;
        break;
      case "match_full_word":
        extensions.match_whole_words = true;
        break;
      case "match_partial_word":
        extensions.match_whole_words = false;
        break;
      case "activate_only_after":
        if (number === null || number < 0) done = false;
        else extensions.delay = number;
        break;
      case "additional_keys":
      case "exclude_keys":
      case "exclude_keys_all": {
        const keys = value
          .split(",")
          .map((key) => key.trim())
          .filter(Boolean);
        if (keys.length === 0) done = false;
        else {
          secondary.push({ kind: name.toLowerCase() as SecondaryKind, keys, line });
          continue;
        }
        break;
      }
      default:
        done = false;
    }
    (done ? converted : kept).push(line);
  }
  // Secondary keys: SillyTavern holds one logic per entry (docs/cards.md, RisuAI decorators).
  // RisuAI writes one @@additional_keys line per key for AND ALL, one line of several for AND ANY,
  // one @@exclude_keys line per key for NOT ANY and @@exclude_keys_all for NOT ALL.
  const kinds = new Set(secondary.map((query) => query.kind));
  const keys = secondary.flatMap((query) => query.keys);
  const logic =
    kinds.size !== 1 || next.secondary_keys.length > 0
      ? null
      : kinds.has("additional_keys")
        ? secondary.length > 1
          ? 3
          : 0
        : kinds.has("exclude_keys")
          ? secondary.length > 1 || keys.length === 1
            ? 2
            : null
          : secondary.length === 1
            ? 1
            : null;
  if (secondary.length > 0) {
    if (logic === null || keys.length > LORE_LIMITS.keysMax) kept.push(...secondary.map((query) => query.line));
    else {
      next.secondary_keys = keys;
      next.selective = true;
      extensions.selectiveLogic = logic;
      converted.push(...secondary.map((query) => query.line));
    }
  }
  // The content without the converted lines; the others stay where RisuAI reads them, at the top.
  const body = entry.content.replace(/\r\n?/g, "\n").split("\n").slice(lines.length).join("\n").replace(/^\n+/, "");
  next.content = [...kept, body].filter((part) => part !== "").join("\n");
  if (next.content.trim() === "") return { entry, converted: [], kept: lines };
  return { entry: next, converted, kept };
}

const ENTRY_FIELD = /^character_book\.entries\[(\d+)\]\.(content|keys)$/;

/** The fix for a finding, applied to the persona's lorebook or kept card data. */
export function applyCardFix(
  rule: FixableRule,
  field: string,
  context: { lore: LoreBook; cardMeta: CardMeta | null; data: Record<string, unknown> },
): CardFixOutcome {
  const entryAt = (): { index: number; entry: LoreEntry } | null => {
    const match = ENTRY_FIELD.exec(field);
    const index = match ? Number(match[1]) : -1;
    const entry = context.lore.entries[index];
    return entry ? { index, entry } : null;
  };
  const withEntry = (index: number, entry: LoreEntry): LoreBook => ({
    ...context.lore,
    entries: context.lore.entries.map((candidate, i) => (i === index ? entry : candidate)),
  });
  switch (rule) {
    case "lore-decorators": {
      const found = entryAt();
      if (!found) return { ok: false, status: 409, message: CARD_FIX_MESSAGES.gone };
      const { entry, converted, kept } = decoratorsAsSettings(found.entry);
      if (converted.length === 0)
        return { ok: false, status: 400, message: `None of the decorators of "${found.entry.name}" has a setting in other front ends.` };
      return {
        ok: true,
        lore: withEntry(found.index, entry),
        note: `Card check: turned ${converted.join(", ")} of "${found.entry.name}" into entry settings${kept.length ? ` (kept ${kept.join(", ")})` : ""}`,
      };
    }
    case "regex-without-slashes": {
      const found = entryAt();
      if (!found) return { ok: false, status: 409, message: CARD_FIX_MESSAGES.gone };
      const wrap = (keys: string[]) => keys.map((key) => (/^\/.+\/[a-z]*$/s.test(key) ? key : `/${key}/`));
      const keys = wrap(found.entry.keys);
      const secondary = wrap(found.entry.secondary_keys);
      if ([...keys, ...secondary].some((key) => [...key].length > LORE_LIMITS.keyMax))
        return { ok: false, status: 400, message: CARD_FIX_MESSAGES.keyTooLong };
      return {
        ok: true,
        lore: withEntry(found.index, { ...found.entry, keys, secondary_keys: secondary }),
        note: `Card check: wrote the keys of "${found.entry.name}" as /…/`,
      };
    }
    case "linked-world": {
      if (field !== "extensions.world" || !context.cardMeta) return { ok: false, status: 409, message: CARD_FIX_MESSAGES.gone };
      const extensions: Record<string, JsonValue> = { ...(context.cardMeta.extensions ?? {}), world: "" };
      return { ok: true, cardMeta: { ...context.cardMeta, extensions }, note: "Card check: unlinked the World Info file" };
    }
    case "v3-only-field": {
      const mirror = field === "creator_notes_multilingual" ? multilingualToMirror(context.data) : null;
      if (!mirror || !context.cardMeta) return { ok: false, status: 400, message: CARD_FIX_MESSAGES.noFix };
      const current = typeof context.data.creator_notes === "string" ? context.data.creator_notes : "";
      const notes = current.trim() ? `${current.trimEnd()}\n\n${mirror.note}` : mirror.note;
      return {
        ok: true,
        cardMeta: { ...context.cardMeta, creator_notes: notes },
        note: `Card check: copied the ${mirror.language} creator note into creator_notes`,
      };
    }
  }
}
