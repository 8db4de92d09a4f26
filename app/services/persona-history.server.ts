// Persona history (docs/product.md, History): the versions the database keeps of every persona (trigger
// record_persona_version), read page by page with a one-line summary each, one version in
// full, two compared field by field, and one restored as a new version. Everything runs
// through the RLS door as the user: another user's persona has no versions to see (404).
import { and, count, desc, eq, getTableColumns, inArray, isNotNull, lte, sql } from "drizzle-orm";

import {
  changeSummary,
  compareVersions,
  HISTORY_MESSAGES,
  HISTORY_PAGE_SIZE,
  kindLabel,
  type VersionComparison,
  type VersionFields,
  type VersionSummaryFields,
} from "~/domain/persona-history";
import { validatePersona } from "~/domain/persona-form";
import { parseExtendedProfile } from "~/domain/character-card";
import { lorebookText, parseLorebook } from "~/domain/lorebook";
import { parseVoice, voiceText } from "~/domain/persona-voice";
import { profileText } from "~/domain/profile-edit";
import { pageCount, type Page } from "~/domain/persona-list";
import { personas, personaVersions, type Persona } from "~/infra/db/schema.server";
import { withUser, type Tx } from "~/infra/db/db.server";
import { KEPT_READS, keptOrRead } from "~/infra/db/kept-reads.server";

import { type CurrentUser } from "./accounts.server";
import { isUuid, PERSONA_NOT_FOUND } from "./personas.server";
import { ServiceError } from "./service-error.server";

/** A version that cannot be read, compared or restored. */
export class HistoryError extends ServiceError {
  override name = "HistoryError";
}

export interface VersionListItem {
  version: number;
  kind: string;
  label: string;
  restoredFrom: number | null;
  createdAt: Date;
  summary: string;
}

/** A version's number, kind and time: what a page says about it beside its fields. */
export interface VersionHead {
  personaId: string;
  version: number;
  kind: string;
  label: string;
  restoredFrom: number | null;
  createdAt: Date;
}

export interface VersionDetail extends VersionFields, VersionHead {
  /** The voice and the profile as the version stored them (null: not held), for a restore. */
  storedVoice: Record<string, unknown> | null;
  storedExtended: Record<string, unknown> | null;
  storedLore: Record<string, unknown> | null;
  /** The lorebook as text, entry by entry; null where the version does not hold it. */
  lore: string | null;
  narrative: string | null;
  secondaryImageUrl: string | null;
  statusBeforeArchive: string | null;
}

function versionNotFound(): HistoryError {
  return new HistoryError(404, HISTORY_MESSAGES.versionNotFound, undefined, "version_not_found");
}

function personaNotFound(): HistoryError {
  return new HistoryError(404, PERSONA_NOT_FOUND);
}

/** The persona's name and the number of its latest version, or a 404. */
async function personaHead(tx: Tx, personaId: string) {
  if (!isUuid(personaId)) throw personaNotFound();
  const [row] = await tx
    .select({
      id: personas.id,
      name: personas.name,
      status: personas.status,
      latest: sql<number | null>`(select max(v.version) from public.persona_versions v where v.persona_id = "personas"."id")`.mapWith(
        (v) => (v === null ? null : Number(v)),
      ),
    })
    .from(personas)
    .where(eq(personas.id, personaId));
  if (!row) throw personaNotFound();
  return { ...row, latest: row.latest ?? 0 };
}

// Versions never change (no one may update them; a deleted persona's go with it and a new
// persona has a new id), so what is worked out from them is worked out once: a version's
// one-line summary (against the version before it) and a comparison of two versions (the
// word diff of two long backstories costs more than the rest of the page). Both are
// consulted only after the versions were read through the RLS door in this request, so they
// never answer for a persona the caller cannot see. Kept: the summaries of a few hundred
// pages, the few dozen comparisons being looked at now.
const SUMMARIES_KEPT = 5_000;
const summaries = new Map<string, string>();
const COMPARISONS_KEPT = 32;
const comparisons = new Map<string, VersionComparison>();

/** The value kept under `key`, or `compute()`'s, kept (the least recently used goes first). */
function remembered<V>(kept: Map<string, V>, limit: number, key: string, compute: () => V): V {
  let found = kept.get(key);
  if (found !== undefined) {
    kept.delete(key); // most recently used last
  } else {
    found = compute();
    if (kept.size >= limit) kept.delete(kept.keys().next().value!);
  }
  kept.set(key, found);
  return found;
}

// The list reads no long text: only whether this version changed the backstory.
const { backstory: _b, narrative: _n, lore: _l, loreEntries: _e, cardMeta: _c, ...STORED_COLUMNS } = getTableColumns(personaVersions);
// The lorebook is not read for the list: a digest and a count say whether and how it changed. An
// entry's id stands for its content (each distinct entry is stored once), so the ids say it.
const SUMMARY_COLUMNS = {
  ...STORED_COLUMNS,
  loreDigest: sql<string | null>`md5(${personaVersions.lore}::text || coalesce(${personaVersions.loreEntries}::text, ''))`,
  loreCount: sql<
    number | null
  >`coalesce(cardinality(${personaVersions.loreEntries}), jsonb_array_length(coalesce(${personaVersions.lore}->'entries', '[]'::jsonb)))`.mapWith(
    Number,
  ),
};
/** A version's lorebook as it was, its entries put back from where each is stored once. */
const VERSION_LORE = sql<Record<
  string,
  unknown
> | null>`public.persona_version_lore(${personaVersions.personaId}, ${personaVersions.lore}, ${personaVersions.loreEntries})`.mapWith(
  personaVersions.lore,
);

export interface HistoryPage extends Page<VersionListItem> {
  persona: { id: string; name: string; status: string };
  latest: number;
}

/**
 * One page of a persona's versions, newest first, each with what it changed (20 a page). Kept
 * until the creator's personas or versions change (KEPT_READS.historyPages; so is a comparison,
 * KEPT_READS.comparisons). Kept answers are shared between requests: nobody changes them.
 */
export async function listVersions(
  user: CurrentUser,
  personaId: string,
  options: { page?: number; pageSize?: number } = {},
): Promise<HistoryPage> {
  const pageSize = options.pageSize ?? HISTORY_PAGE_SIZE;
  return keptOrRead(KEPT_READS.historyPages, [user.id, personaId, options.page ?? 1, pageSize], () =>
    pageFromDatabase(user, personaId, options.page, pageSize),
  );
}

function pageFromDatabase(user: CurrentUser, personaId: string, askedPage: number | undefined, pageSize: number): Promise<HistoryPage> {
  return withUser(user.id, async (tx) => {
    const head = await personaHead(tx, personaId);
    const total = head.latest;
    const pages = pageCount(total, pageSize);
    const page = Math.min(Math.max(1, askedPage ?? 1), pages);
    // Versions are numbered 1..latest without gaps: a page is a range of numbers, plus the
    // version just before it, against which its oldest entry is summarised.
    const top = total - (page - 1) * pageSize;
    const bottom = Math.max(1, top - pageSize);
    const rows =
      total === 0
        ? []
        : await tx
            .select({
              ...SUMMARY_COLUMNS,
              backstoryEmpty: sql<boolean>`${personaVersions.backstory} is null`,
            })
            .from(personaVersions)
            .where(and(eq(personaVersions.personaId, personaId), sql`${personaVersions.version} between ${bottom} and ${top}`))
            .orderBy(desc(personaVersions.version));
    const summaryFields = (row: (typeof rows)[number]): VersionSummaryFields => ({
      ...row,
      ...shownExtras(row),
      backstoryChanged: row.backstoryVersion === row.version && row.version > 1,
    });
    const items: VersionListItem[] = [];
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]!;
      if (row.version <= top - pageSize) break;
      const previous = rows[i + 1];
      const against = previous && previous.version === row.version - 1 ? previous : null;
      items.push({
        version: row.version,
        kind: row.kind,
        label: kindLabel(row.kind, row.restoredFrom),
        restoredFrom: row.restoredFrom,
        createdAt: row.createdAt,
        // Version 1 has no previous version; any other is summarised against the one before.
        // A change that says what it was (the card check's fixes) is summarised by its note.
        summary:
          row.note ??
          remembered(summaries, SUMMARIES_KEPT, `${personaId}:${row.version}:${against ? "previous" : "first"}`, () =>
            changeSummary(against && summaryFields(against), summaryFields(row)),
          ),
      });
    }
    return {
      persona: { id: head.id, name: head.name, status: head.status },
      latest: head.latest,
      items,
      total,
      page,
      pageCount: pages,
      pageSize,
    };
  });
}

type VersionRow = Awaited<ReturnType<typeof readVersionRows>>[number];

/** A version's voice and profile as history shows and compares them; null where the version does not hold them. */
function shownExtras(row: { voice: unknown; extended: unknown }): { voice: string | null; profile: string | null } {
  const profile = parseExtendedProfile(row.extended);
  return {
    voice: row.voice === null || row.voice === undefined ? null : voiceText(parseVoice(row.voice)),
    profile: profile && profileText(profile),
  };
}

/** Versions without their long texts (which version holds each text instead). */
function readVersionRows(tx: Tx, personaId: string, numbers: number[]) {
  return tx
    .select({ ...STORED_COLUMNS, lore: VERSION_LORE })
    .from(personaVersions)
    .where(and(eq(personaVersions.personaId, personaId), inArray(personaVersions.version, numbers)));
}

function versionHead(row: VersionRow): VersionHead {
  return {
    personaId: row.personaId,
    version: row.version,
    kind: row.kind,
    label: kindLabel(row.kind, row.restoredFrom),
    restoredFrom: row.restoredFrom,
    createdAt: row.createdAt,
  };
}

/**
 * Versions in full: their texts are added, each read once, from the version that holds it,
 * however many of the versions share it.
 */
async function withTexts(tx: Tx, personaId: string, found: VersionRow[]): Promise<VersionDetail[]> {
  const holders = [...new Set(found.flatMap((row) => [row.backstoryVersion, row.narrativeVersion]))];
  const texts = holders.length
    ? await tx
        .select({ version: personaVersions.version, backstory: personaVersions.backstory, narrative: personaVersions.narrative })
        .from(personaVersions)
        .where(and(eq(personaVersions.personaId, personaId), inArray(personaVersions.version, holders)))
    : [];
  const held = new Map(texts.map((text) => [text.version, text]));
  return found.map((row) => ({
    ...versionHead(row),
    name: row.name,
    type: row.type,
    gender: row.gender,
    ageRange: row.ageRange,
    interests: row.interests,
    description: row.description,
    personality: row.personality,
    backstory: held.get(row.backstoryVersion)?.backstory ?? null,
    narrative: held.get(row.narrativeVersion)?.narrative ?? null,
    imageUrl: row.imageUrl,
    secondaryImageUrl: row.secondaryImageUrl,
    imageStyle: row.imageStyle,
    status: row.status,
    statusBeforeArchive: row.statusBeforeArchive,
    ...shownExtras(row),
    storedVoice: row.voice,
    storedExtended: row.extended,
    storedLore: row.lore,
    lore: row.lore === null || row.lore === undefined ? null : lorebookText(parseLorebook(row.lore)),
  }));
}

/** Versions in full (their stored or referenced texts included). */
async function readVersions(tx: Tx, personaId: string, numbers: number[]): Promise<VersionDetail[]> {
  return withTexts(tx, personaId, await readVersionRows(tx, personaId, numbers));
}

/** One version in full; an unknown persona or version number is a 404. */
export async function getVersion(user: CurrentUser, personaId: string, version: number | null): Promise<VersionDetail> {
  return withUser(user.id, async (tx) => {
    await personaHead(tx, personaId);
    if (version === null) throw versionNotFound();
    const [row] = await readVersions(tx, personaId, [version]);
    if (!row) throw versionNotFound();
    return row;
  });
}

export interface CompareResult extends VersionComparison {
  persona: { id: string; name: string };
  latest: number;
  fromVersion: VersionHead;
  toVersion: VersionHead;
}

/**
 * Two versions compared. Absent numbers default to the previous and the current version
 * (version 1 alone is compared with itself); a given number that is no version is a 404.
 * The long texts are read only when the comparison is not worked out already.
 */
export async function compare(
  user: CurrentUser,
  personaId: string,
  from: number | null | undefined,
  to: number | null | undefined,
): Promise<CompareResult> {
  return keptOrRead(KEPT_READS.comparisons, [user.id, personaId, String(from), String(to)], () =>
    comparisonFromDatabase(user, personaId, from, to),
  );
}

function comparisonFromDatabase(
  user: CurrentUser,
  personaId: string,
  from: number | null | undefined,
  to: number | null | undefined,
): Promise<CompareResult> {
  return withUser(user.id, async (tx) => {
    const head = await personaHead(tx, personaId);
    if (from === null || to === null) throw versionNotFound();
    const toN = to ?? head.latest;
    const fromN = from ?? Math.max(1, toN - 1);
    const rows = await readVersionRows(tx, personaId, [fromN, toN]);
    const fromRow = rows.find((r) => r.version === fromN);
    const toRow = rows.find((r) => r.version === toN);
    if (!fromRow || !toRow) throw versionNotFound();
    const key = `${personaId}:${fromN}:${toN}`;
    let worked = comparisons.get(key);
    if (!worked) {
      const full = await withTexts(tx, personaId, fromN === toN ? [fromRow] : [fromRow, toRow]);
      const byNumber = (n: number) => full.find((r) => r.version === n)!;
      worked = compareVersions(byNumber(fromN), byNumber(toN));
    }
    const found = worked;
    return {
      ...remembered(comparisons, COMPARISONS_KEPT, key, () => found),
      persona: { id: head.id, name: head.name },
      latest: head.latest,
      fromVersion: versionHead(fromRow),
      toVersion: versionHead(toRow),
    };
  });
}

/** The persona's latest version: its number and time (what a character card carries). */
export async function currentVersion(
  user: CurrentUser,
  personaId: string,
  within?: Tx,
): Promise<{ version: number; createdAt: Date } | null> {
  if (!isUuid(personaId)) throw personaNotFound();
  const read = (tx: Tx) =>
    tx
      .select({ version: personaVersions.version, createdAt: personaVersions.createdAt })
      .from(personaVersions)
      .where(eq(personaVersions.personaId, personaId))
      .orderBy(desc(personaVersions.version))
      .limit(1);
  const [row] = within ? await read(within) : await withUser(user.id, read);
  return row ?? null;
}

/** How many versions a persona has (tests and tools). */
export async function versionCount(user: CurrentUser, personaId: string): Promise<number> {
  const [row] = await withUser(user.id, (tx) =>
    tx.select({ n: count() }).from(personaVersions).where(eq(personaVersions.personaId, personaId)),
  );
  return row?.n ?? 0;
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((item, i) => item === b[i]);

/** The card data version n had: held by the newest version up to n that stores it (see the migration); null when none does. */
async function cardMetaAt(tx: Tx, personaId: string, n: number): Promise<Record<string, unknown> | null> {
  const [row] = await tx
    .select({ cardMeta: personaVersions.cardMeta })
    .from(personaVersions)
    .where(and(eq(personaVersions.personaId, personaId), lte(personaVersions.version, n), isNotNull(personaVersions.cardMeta)))
    .orderBy(desc(personaVersions.version))
    .limit(1);
  return row?.cardMeta ?? null;
}

export interface Restored {
  persona: Persona;
  restoredFrom: number;
  version: number;
}

/**
 * Restore: the persona's fields become version n's, recorded as a new version ('Restored from
 * version n'); the history is untouched. Every rule of the persona applies (a draft version
 * comes back as a draft, with the draft rules); a version that breaks one is refused with the
 * rule's message and nothing changes. An archived persona stays archived. A restore changes
 * the same persona, so it never counts against the Free plan's limit.
 */
export async function restoreVersion(
  user: CurrentUser,
  personaId: string,
  n: number | null,
  { withImage = false }: { withImage?: boolean } = {},
): Promise<Restored> {
  return withUser(user.id, async (tx) => {
    if (!isUuid(personaId)) throw personaNotFound();
    // Locked until the restore is written: no other change slips in between the check and the write.
    const [current] = await tx.select().from(personas).where(eq(personas.id, personaId)).for("update");
    if (!current) throw personaNotFound();
    const head = await personaHead(tx, personaId);
    if (n === null) throw versionNotFound();
    const [target] = await readVersions(tx, personaId, [n]);
    if (!target) throw versionNotFound();
    if (n === head.latest) throw new HistoryError(409, HISTORY_MESSAGES.alreadyCurrent, undefined, "already_current");

    const draft = target.status === "in_progress" || target.statusBeforeArchive === "in_progress";
    const fields = {
      name: target.name,
      type: target.type ?? undefined,
      gender: target.gender ?? undefined,
      ageRange: target.ageRange ?? undefined,
      interests: target.interests,
      description: target.description ?? "",
      personality: target.personality,
      backstory: target.backstory ?? "",
    };
    const checked = draft ? validatePersona(fields, "draft") : validatePersona(fields, "create");
    if (!checked.success) {
      const first = Object.values(checked.errors).flat()[0] ?? "This version breaks a rule of the persona.";
      throw new HistoryError(400, first, checked.errors, "invalid_version");
    }
    const stage = draft ? "in_progress" : "active";
    const status =
      current.status === "archived" ? { status: "archived", statusBeforeArchive: stage } : { status: stage, statusBeforeArchive: null };
    const values = {
      name: target.name,
      type: target.type,
      gender: target.gender,
      ageRange: target.ageRange,
      interests: target.interests,
      description: target.description,
      personality: target.personality,
      backstory: target.backstory,
      narrative: target.narrative,
      // The current reference image stays unless the creator chose to bring the version's back.
      imageUrl: withImage ? target.imageUrl : current.imageUrl,
      secondaryImageUrl: withImage ? target.secondaryImageUrl : current.secondaryImageUrl,
      imageStyle: withImage ? target.imageStyle : current.imageStyle,
      // A version from before history held the voice and the profile leaves the current ones as they are.
      voice: target.storedVoice ?? current.voice,
      extended: target.storedExtended ?? current.extended,
      lore: target.storedLore ?? current.lore,
      // The card data of the newest version up to n that holds it; none held: the current one.
      cardMeta: (await cardMetaAt(tx, personaId, n)) ?? current.cardMeta,
      ...status,
    };
    const unchanged =
      current.name === values.name &&
      current.type === values.type &&
      current.gender === values.gender &&
      current.ageRange === values.ageRange &&
      sameList(current.interests, values.interests) &&
      current.description === values.description &&
      sameList(current.personality, values.personality) &&
      current.backstory === values.backstory &&
      current.narrative === values.narrative &&
      current.imageUrl === values.imageUrl &&
      current.secondaryImageUrl === values.secondaryImageUrl &&
      current.imageStyle === values.imageStyle &&
      JSON.stringify(current.voice) === JSON.stringify(values.voice) &&
      JSON.stringify(current.extended) === JSON.stringify(values.extended) &&
      JSON.stringify(current.lore) === JSON.stringify(values.lore) &&
      JSON.stringify(current.cardMeta) === JSON.stringify(values.cardMeta) &&
      (current.status === "in_progress" || current.statusBeforeArchive === "in_progress") === draft;
    if (unchanged) throw new HistoryError(409, HISTORY_MESSAGES.sameAsCurrent, undefined, "same_as_current");

    // Tell the trigger what this write is (transaction-local, read once).
    await tx.execute(
      sql`select set_config('personaforge.version_kind', 'restored', true), set_config('personaforge.restored_from', ${String(n)}, true)`,
    );
    const [persona] = await tx.update(personas).set(values).where(eq(personas.id, personaId)).returning();
    if (!persona) throw personaNotFound();
    return { persona, restoredFrom: n, version: head.latest + 1 };
  });
}

/**
 * For pages: runs a history lookup whose 404 becomes the route's 404 — 'Version Not Found'
 * (with the persona's id, for a link back) when the persona is there but the version is not,
 * 'Persona Not Found' otherwise.
 */
export async function orHistoryNotFound<T>(headers: Headers, personaId: string, lookup: () => Promise<T>): Promise<T> {
  try {
    return await lookup();
  } catch (error) {
    if (error instanceof ServiceError && error.status === 404) {
      const body = error.code === "version_not_found" ? { message: HISTORY_MESSAGES.versionNotFound, personaId } : null;
      throw Response.json(body, { status: 404, headers });
    }
    throw error;
  }
}
