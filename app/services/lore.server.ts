// Lore (docs/product.md, Lore): a persona's lorebook — reading it, adding, editing, deleting,
// enabling and reordering entries, keeping proposals built from the backstory, and picking the
// entries a chat reply draws on. The lorebook is a column of the persona (personas.lore), so the
// personas policies guard it, and every change is a version in history (the database's trigger).
// The pages and the JSON API call these same functions.
import { eq } from "drizzle-orm";

import { fieldErrorsOf } from "~/domain/form-rules";
import {
  LORE_LIMITS,
  LORE_MESSAGES,
  LORE_TOASTS,
  loreEntrySchema,
  newLoreEntry,
  orderedEntries,
  type LoreBook,
  type LoreEntry,
  type LoreEntryInput,
  type LoreKind,
  unusableKeys,
} from "~/domain/lorebook";
import { exportedLorebook } from "~/domain/card-lorebook";
import { parseCardMeta } from "~/domain/character-card";
import { proposeLore } from "~/infra/ai/lore.server";
import { matchLoreOffThread } from "~/infra/compute/lore-match.server";
import { personas, type Persona } from "~/infra/db/schema.server";
import { withUser } from "~/infra/db/db.server";
import { KEPT_READS, keptOrRead } from "~/infra/db/kept-reads.server";
import { noteRewritten } from "~/infra/db/maintenance.server";

import { type CurrentUser } from "./accounts.server";
import type { JsonShape } from "./api.server";
import { withGenerationQuota } from "./generation-quotas.server";
import { isUuid, PERSONA_NOT_FOUND, personaExtended } from "./personas.server";
import { ServiceError } from "./service-error.server";

/** A lorebook change or read that cannot be made. */
export class LoreError extends ServiceError {
  override name = "LoreError";
}

/** The fields an entry body may carry (docs/api.md, Lore), with their JSON types. */
export const LORE_ENTRY_BODY = {
  name: "string",
  keys: "string[]",
  secondary_keys: "string[]|null",
  selective: "boolean",
  content: "string",
  enabled: "boolean",
  constant: "boolean",
  insertion_order: { type: "number", message: LORE_MESSAGES.insertionOrder },
  case_sensitive: "boolean",
  comment: "string|null",
  use_regex: "boolean",
  kind: "string|null",
} as const satisfies JsonShape;

/** A lorebook body is small: 2,000 characters of content and 20 keys, well under 64 KB. */
export const MAX_LORE_BODY_BYTES = 64 * 1024;

/** The persona's lorebook (a persona imported before lorebooks were read: its card's book); none: no entries. */
export function personaLorebook(persona: { lore?: unknown; cardMeta?: unknown }): LoreBook {
  return exportedLorebook(persona.lore, persona.cardMeta ? parseCardMeta(persona.cardMeta)?.character_book : undefined);
}

export interface LoreSummary {
  total: number;
  enabled: number;
  entries: { id: string; name: string; kind: LoreKind | null; enabled: boolean }[];
}

/** The persona's lorebook as the persona page lists it: counts and the first titles. */
export function loreSummary(persona: { lore?: unknown; cardMeta?: unknown }): LoreSummary {
  const entries = orderedEntries(personaLorebook(persona).entries);
  return {
    total: entries.length,
    enabled: entries.filter((entry) => entry.enabled).length,
    entries: entries.slice(0, 12).map(({ id, name, kind, enabled }) => ({ id, name, kind, enabled })),
  };
}

/**
 * The entries a reply draws on: the matched and constant ones for the last messages (docs/product.md,
 * Lore in chat). A large lorebook is matched off the main thread; one whose match runs past the
 * deadline gives none (the reply is written without lore, and the log says so).
 */
export async function loreForReply(persona: { lore?: unknown }, messages: readonly string[]): Promise<LoreEntry[]> {
  const book = personaLorebook(persona);
  if (!book.entries.length) return [];
  let match;
  try {
    match = await matchLoreOffThread(book, messages, persona.lore && typeof persona.lore === "object" ? persona.lore : book);
  } catch (error) {
    console.warn(`[lore] ${error instanceof Error ? error.message : String(error)}: the reply is written without lore`);
    return [];
  }
  if (match.patternsSkipped) {
    console.warn(
      `[lore] ${match.patternsSkipped} entries' pattern keys were not tried: the match spent its ${LORE_LIMITS.patternMs} ms on patterns`,
    );
  }
  return match.entries;
}

function refused(issues: Parameters<typeof fieldErrorsOf>[0]): never {
  throw new LoreError(
    400,
    LORE_TOASTS.failed.description,
    fieldErrorsOf(issues, (field) => String(field ?? "content")),
  );
}

/**
 * Checked entry input, from a form (absent checkboxes are off) or a JSON body. A key pattern the
 * engine cannot express is refused, unless the entry already had it (a card's, matched as plain
 * text): editing such an entry's other fields still works.
 */
export function checkLoreEntry(raw: unknown, options: { form?: boolean } = {}, had: LoreEntry | null = null): LoreEntryInput {
  const result = loreEntrySchema(options).safeParse(raw && typeof raw === "object" ? raw : {});
  if (!result.success) refused(result.error.issues);
  const kept = had?.use_regex ? new Set([...had.keys, ...had.secondary_keys]) : new Set<string>();
  if (unusableKeys(result.data).some((key) => !kept.has(key))) refused([{ path: ["keys"], message: LORE_MESSAGES.pattern }]);
  return result.data;
}

/**
 * Reads the persona's lorebook for a change and writes the changed one back, in one transaction:
 * the row is locked, so two edits at once never lose one another. `change` returns the new
 * entries and what to answer. Another creator's persona, an unknown or a malformed id is
 * 'Persona Not Found'.
 */
async function changeLore<T>(
  user: CurrentUser,
  id: string,
  change: (book: LoreBook, persona: Persona) => { entries: LoreEntry[]; answer: T } | { unchanged: T },
): Promise<T> {
  if (!isUuid(id)) throw new LoreError(404, PERSONA_NOT_FOUND);
  const done = await withUser(user.id, async (tx): Promise<{ answer: T; rewritten: number }> => {
    const [persona] = await tx.select().from(personas).where(eq(personas.id, id)).for("update");
    if (!persona) throw new LoreError(404, PERSONA_NOT_FOUND);
    const book = personaLorebook(persona);
    const outcome = change(book, persona);
    if ("unchanged" in outcome) return { answer: outcome.unchanged, rewritten: 0 };
    if (outcome.entries.length > LORE_LIMITS.entries) throw new LoreError(400, LORE_MESSAGES.entries);
    const lore = { ...(persona.lore as object), entries: outcome.entries, book: book.book, ...(book.card ? { card: true } : {}) };
    await tx.update(personas).set({ lore }).where(eq(personas.id, id));
    return { answer: outcome.answer, rewritten: JSON.stringify(lore).length };
  });
  // The old copy of the lorebook is dead now; enough of them and the table is vacuumed.
  if (done.rewritten) noteRewritten("public.personas", done.rewritten);
  return done.answer;
}

function findEntry(book: LoreBook, entryId: string): LoreEntry {
  const entry = book.entries.find((candidate) => candidate.id === entryId);
  if (!entry) throw new LoreError(404, LORE_MESSAGES.notFound);
  return entry;
}

/** The persona's lorebook (a 404 as for the persona). */
export async function getLorebook(user: CurrentUser, id: string): Promise<{ persona: Persona; book: LoreBook }> {
  if (!isUuid(id)) throw new LoreError(404, PERSONA_NOT_FOUND);
  // Kept until the creator's personas change (KEPT_READS.lorebooks; nobody changes a kept answer).
  const found = await keptOrRead(KEPT_READS.lorebooks, [user.id, id], async () => {
    const [persona] = await withUser(user.id, (tx) => tx.select().from(personas).where(eq(personas.id, id)));
    return persona ? { persona, book: personaLorebook(persona) } : null;
  });
  if (!found) throw new LoreError(404, PERSONA_NOT_FOUND);
  return found;
}

/** Adds an entry (checked; the 200-entry limit) and answers it. */
export async function addLoreEntry(user: CurrentUser, id: string, raw: unknown, options: { form?: boolean } = {}): Promise<LoreEntry> {
  const input = checkLoreEntry(raw, options);
  return changeLore(user, id, (book) => {
    if (book.entries.length >= LORE_LIMITS.entries) throw new LoreError(400, LORE_MESSAGES.entries);
    const entry = newLoreEntry(input, crypto.randomUUID());
    return { entries: [...book.entries, entry], answer: entry };
  });
}

/** Adds the kept proposals of a compile at once (each checked; none stored if one is refused or the limit would pass). */
export async function addLoreEntries(user: CurrentUser, id: string, raws: readonly unknown[]): Promise<LoreEntry[]> {
  const inputs = raws.map((raw) => checkLoreEntry(raw));
  return changeLore(user, id, (book) => {
    if (book.entries.length + inputs.length > LORE_LIMITS.entries) throw new LoreError(400, LORE_MESSAGES.entries);
    const added = inputs.map((input) => newLoreEntry(input, crypto.randomUUID()));
    return { entries: [...book.entries, ...added], answer: added };
  });
}

/**
 * Edits an entry. A form gives every field (absent checkboxes are off); a JSON body (PATCH) gives
 * the fields it changes, the others stay. The whole entry is checked again.
 */
export async function updateLoreEntry(
  user: CurrentUser,
  id: string,
  entryId: string,
  raw: unknown,
  options: { form?: boolean } = {},
): Promise<LoreEntry> {
  const given = raw && typeof raw === "object" ? (raw as Record<string, unknown>) : {};
  return changeLore<LoreEntry>(user, id, (book) => {
    const current = findEntry(book, entryId);
    const input = checkLoreEntry(options.form ? given : { ...current, ...given }, options, current);
    const entry: LoreEntry = { ...current, ...input };
    if (JSON.stringify(entry) === JSON.stringify(current)) return { unchanged: current };
    return { entries: book.entries.map((candidate) => (candidate.id === entryId ? entry : candidate)), answer: entry };
  });
}

/** Deletes an entry. */
export async function deleteLoreEntry(user: CurrentUser, id: string, entryId: string): Promise<LoreEntry> {
  return changeLore(user, id, (book) => {
    const entry = findEntry(book, entryId);
    return { entries: book.entries.filter((candidate) => candidate.id !== entryId), answer: entry };
  });
}

/** Turns an entry on or off. */
export async function setLoreEntryEnabled(user: CurrentUser, id: string, entryId: string, enabled: boolean): Promise<LoreEntry> {
  return updateLoreEntry(user, id, entryId, { enabled });
}

/**
 * Moves an entry one place up or down in insertion order: the entries are numbered again
 * 10, 20, 30… in their order, and the two swap places.
 */
export async function moveLoreEntry(user: CurrentUser, id: string, entryId: string, direction: "up" | "down"): Promise<LoreEntry> {
  return changeLore<LoreEntry>(user, id, (book) => {
    findEntry(book, entryId);
    const ordered = orderedEntries(book.entries);
    const at = ordered.findIndex((entry) => entry.id === entryId);
    const to = direction === "up" ? at - 1 : at + 1;
    if (to < 0 || to >= ordered.length) return { unchanged: ordered[at]! };
    [ordered[at], ordered[to]] = [ordered[to]!, ordered[at]!];
    const order = new Map(ordered.map((entry, index) => [entry.id, (index + 1) * 10]));
    const entries = book.entries.map((entry) => ({ ...entry, insertion_order: order.get(entry.id)! }));
    return { entries, answer: entries.find((entry) => entry.id === entryId)! };
  });
}

/** Entries whose title, keys, content or comment hold the words searched for (any case). */
export function searchLore(entries: readonly LoreEntry[], query: string): LoreEntry[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return [...entries];
  return entries.filter((entry) => {
    const text = [entry.name, ...entry.keys, ...entry.secondary_keys, entry.content, entry.comment].join("\n").toLowerCase();
    return words.every((word) => text.includes(word));
  });
}

/** What 'Build lorebook from backstory' answers (docs/api.md, Lore): nothing is stored until proposals are kept. */
export interface LoreCompilation {
  proposals: LoreProposal[];
  coverage: { name: string; kind: LoreKind | null; entryId: string | null; coveredBy: string }[];
  stale: { entryId: string; name: string; reason: string }[];
}

export type LoreProposal = Omit<LoreEntryInput, "kind"> & { kind: LoreKind | null };

/**
 * Proposals for the persona's lorebook from its backstory and facts (through the configured model
 * when one is set, else the embedded compile), each checked like an entry; the coverage report;
 * the entries that no longer match the backstory. Nothing is stored.
 */
export async function compilePersonaLore(user: CurrentUser, id: string): Promise<LoreCompilation> {
  const { persona, book } = await getLorebook(user, id);
  if (!persona.backstory?.trim()) throw new LoreError(400, LORE_MESSAGES.needsBackstory);
  const backstory = persona.backstory;
  // Counts against the creator's hourly compile quota and running slots (429 past them).
  const compiled = await withGenerationQuota("loreCompiles", user, () =>
    proposeLore({ name: persona.name, backstory, extended: personaExtended(persona), existing: book.entries }),
  );
  const proposals = compiled.proposals.flatMap((proposal) => {
    const checked = loreEntrySchema().safeParse(proposal);
    return checked.success ? [checked.data] : [];
  });
  const names = new Map(book.entries.map((entry) => [entry.id, entry.name]));
  return {
    proposals,
    coverage: compiled.coverage.map((item) => ({
      name: item.name,
      kind: item.kind ?? null,
      entryId: item.entryId ?? null,
      coveredBy:
        item.entryId && names.has(item.entryId)
          ? names.get(item.entryId)!
          : item.proposalIndex !== null && item.proposalIndex !== undefined && compiled.proposals[item.proposalIndex]
            ? `Proposal: ${compiled.proposals[item.proposalIndex]!.name}`
            : "Not covered",
    })),
    stale: compiled.stale.map((item) => ({ entryId: item.entryId, name: names.get(item.entryId) ?? "", reason: item.reason })),
  };
}
