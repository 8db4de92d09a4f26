// The persona library (docs/product.md, Dashboard, Library and API overview): lists with tabs, search,
// sort and paging done by the database, the dashboard's numbers, archive and restore,
// delete, and editing a persona in place. Every query runs through the RLS door as the
// user, so another user's persona is simply not there (404), never a 403 that leaks it.
import { and, asc, count, desc, eq, getTableColumns, ne, sql, type SQL } from "drizzle-orm";

import { FREE_PLAN_PERSONA_LIMIT } from "~/domain/persona";
import { relativeTime } from "~/domain/persona-display";
import { validatePersona, WIZARD_TOASTS } from "~/domain/persona-form";
import { trialDaysLeft } from "~/domain/subscription";
import { LIST_PAGE_SIZE, likePattern, pageCount, RECENT_LIMIT, type ListSort, type Page, type StatusFilter } from "~/domain/persona-list";
import { generations, personas, profiles, type Persona } from "~/infra/db/schema.server";
import { withUser } from "~/infra/db/db.server";
import { KEPT_READS, keptOrRead } from "~/infra/db/kept-reads.server";

import { type CurrentUser } from "./accounts.server";
import { removePersonaImages } from "./images.server";
import { getPersona, isUuid, PERSONA_NOT_FOUND, voiceFromBody } from "./personas.server";
import { ServiceError } from "./service-error.server";

/** A library change (status, deletion, listing) that cannot be made. */
export class LibraryError extends ServiceError {
  override name = "LibraryError";
}

export interface ListOptions {
  status: StatusFilter;
  q?: string;
  sort?: ListSort;
  page?: number;
  pageSize?: number;
}

const ORDER: Record<ListSort, SQL[]> = {
  newest: [desc(personas.createdAt), desc(personas.id)],
  oldest: [asc(personas.createdAt), asc(personas.id)],
  "name-asc": [asc(sql`lower(${personas.name})`), asc(personas.id)],
  "name-desc": [desc(sql`lower(${personas.name})`), desc(personas.id)],
};

// Recent: the latest personas not archived.
const notArchivedOf = (user: CurrentUser) => and(eq(personas.userId, user.id), ne(personas.status, "archived"));
const NEWEST = [desc(personas.createdAt), desc(personas.id)];

function statusCondition(status: StatusFilter): SQL | undefined {
  if (status === "all") return undefined;
  if (status === "not-archived") return ne(personas.status, "archived");
  return eq(personas.status, status);
}

/** The columns a persona card shows: a list page reads only these (no backstory, no card data). */
/** A card's test badge (docs/product.md, Persona tests): the persona's latest finished test run. */
export interface TestBadge {
  passed: number;
  failed: number;
  total: number;
  status: string;
}

const CARD_COLUMNS = {
  id: personas.id,
  name: personas.name,
  type: personas.type,
  description: personas.description,
  status: personas.status,
  imageUrl: personas.imageUrl,
  createdAt: personas.createdAt,
  tests: sql<TestBadge | null>`(select jsonb_build_object('passed', r.passed, 'failed', r.failed, 'total', r.total, 'status', r.status)
    from public.probe_runs r where r.persona_id = "personas"."id" and r.status in ('completed', 'failed')
    order by r.created_at desc limit 1)`,
};
export type CardRow = Pick<Persona, Exclude<keyof typeof CARD_COLUMNS, "tests">> & { tests: TestBadge | null };

/** A persona in a list from the API: everything but what an imported card carried (up to megabytes). */
const { cardMeta: _cardMeta, extended: _extended, ...SUMMARY_COLUMNS } = getTableColumns(personas);
export type SummaryRow = Omit<Persona, "cardMeta" | "extended">;

/**
 * One page of the user's personas; the database filters, sorts, counts and pages, in one
 * statement (the total rides along as a window count). `shape: "card"` reads only what a card
 * shows.
 */
export async function listPersonas(user: CurrentUser, options: ListOptions): Promise<Page<SummaryRow>>;
export async function listPersonas(user: CurrentUser, options: ListOptions, shape: "card"): Promise<Page<CardRow>>;
export async function listPersonas(
  user: CurrentUser,
  options: ListOptions,
  shape: "full" | "card" = "full",
): Promise<Page<CardRow | SummaryRow>> {
  const pageSize = options.pageSize ?? LIST_PAGE_SIZE;
  const search = options.q ? likePattern(options.q) : undefined;
  // No owner filter needed for safety (the policies hide others' rows); it is there for the index.
  const where = and(
    eq(personas.userId, user.id),
    statusCondition(options.status),
    // The pattern is matched through the trigram indexes by a function of the database's
    // (migrations 20261123110000 and 20261125190000): under row-level security ILIKE itself
    // may not use them. Its answer is one array in a common table expression, so the page and
    // the total share one run of it and each looks its ids up by primary key (`in (select id
    // …)` made Postgres read all of the creator's rows to join them).
    search ? sql`${personas.id} = any((select ids from matched)::uuid[])` : undefined,
  );
  const columns = shape === "card" ? CARD_COLUMNS : SUMMARY_COLUMNS;
  // A page of cards is kept until this creator's personas change (KEPT_READS.libraryCards, and
  // librarySearches for a search; kept answers are shared between requests: nobody changes
  // them). The API's full shape, whose rows carry whole backstories, is read every time.
  const kept = shape === "card";
  const fromDatabase = () =>
    withUser(user.id, async (tx) => {
      const matched = search
        ? [tx.$with("matched", { ids: sql<string[]>`ids` }).as(sql`select array(select search.persona_ids_matching(${search})) as ids`)]
        : [];
      // The total is counted by a subquery the database runs once, from the index where it can;
      // a window count (count(*) over ()) read every matching row in full to count them.
      const read = (page: number) =>
        tx
          .with(...matched)
          .select({ ...columns, total: sql<number>`(select count(*) from ${personas} where ${where})`.mapWith(Number) })
          .from(personas)
          .where(where)
          .orderBy(...ORDER[options.sort ?? "newest"])
          .limit(pageSize)
          .offset((page - 1) * pageSize);
      let page = Math.max(1, options.page ?? 1);
      let rows = await read(page);
      let total = rows[0]?.total ?? 0;
      if (rows.length === 0 && page > 1) {
        // A page past the end shows the last one.
        const [counted] = await tx
          .with(...matched)
          .select({ total: count() })
          .from(personas)
          .where(where);
        total = counted?.total ?? 0;
        page = pageCount(total, pageSize);
        rows = total > 0 ? await read(page) : [];
      }
      const items = rows.map(({ total: _total, ...row }) => row as CardRow | SummaryRow);
      return { items, total, page, pageCount: pageCount(total, pageSize), pageSize };
    });
  if (!kept) return fromDatabase();
  if (options.q) {
    return keptOrRead(
      KEPT_READS.librarySearches,
      [user.id, options.status, options.sort ?? "newest", options.page ?? 1, pageSize, options.q],
      fromDatabase,
    );
  }
  return keptOrRead(
    KEPT_READS.libraryCards,
    [user.id, options.status, options.sort ?? "newest", options.page ?? 1, pageSize],
    fromDatabase,
  );
}

/** A page of the JSON API's list: the array of personas as the bytes of its JSON, and the paging. */
export interface ListAnswer extends Omit<Page<SummaryRow>, "items"> {
  json: Uint8Array<ArrayBuffer>;
}

/**
 * A page of full personas as GET /api/personas answers it. Without a search the answer is kept,
 * serialised, until this creator's personas change (KEPT_READS.apiLists): a page of 100 carries
 * 100 backstories, and reading and serialising them again is most of what the request costs.
 */
export async function listPersonasAnswer(user: CurrentUser, options: ListOptions): Promise<ListAnswer> {
  const read = async (): Promise<ListAnswer> => {
    const { items, ...paging } = await listPersonas(user, options);
    return { ...paging, json: Buffer.from(JSON.stringify(items)) };
  };
  if (options.q) return read();
  return keptOrRead(
    KEPT_READS.apiLists,
    [user.id, options.status, options.sort ?? "newest", options.page ?? 1, options.pageSize ?? LIST_PAGE_SIZE],
    read,
  );
}

/**
 * What a persona card shows (and nothing more goes to the browser). 'Created 3 days ago' is
 * worked out here, at the request's time, so the page's data says everything the page shows
 * (the same data renders the same page: decision 031).
 */
export function cardPersona({ id, name, type, description, status, imageUrl, createdAt, tests }: CardRow, now: Date) {
  return { id, name, type, description, status, imageUrl, createdAt, createdAgo: relativeTime(createdAt, now), tests: tests ?? null };
}

/** The dashboard's 'Recent Personas' (GET /api/personas/recent): the latest ones not archived. */
export async function recentPersonas(user: CurrentUser, limit = RECENT_LIMIT): Promise<SummaryRow[]> {
  return withUser(user.id, (tx) =>
    tx
      .select(SUMMARY_COLUMNS)
      .from(personas)
      .where(notArchivedOf(user))
      .orderBy(...NEWEST)
      .limit(limit),
  );
}

export interface PersonaStats {
  activePersonas: number;
  /** Every AI generation the creator asked for: backstories, chat replies, images. */
  generatedContent: number;
  subscriptionStatus: string;
  trialDaysLeft: number;
  /** Personas owned (drafts and archived included), for the Free plan's 10. */
  ownedPersonas: number;
  personaLimit: number | null;
}

/** Days left of a trial (Premium until its end): see app/domain/subscription.ts. */
export { trialDaysLeft };

type Tx = Parameters<Parameters<typeof withUser>[1]>[0];

async function statsIn(tx: Tx, user: CurrentUser): Promise<PersonaStats> {
  return statsFrom(await statsRowIn(tx, user), user);
}

/** The counts and the plan, as the database has them; statsFrom works out the rest for today. */
interface StatsRow {
  owned: number;
  active: number;
  generated: number;
  status: string;
  trialEndsAt: Date | null;
}

async function statsRowIn(tx: Tx, user: CurrentUser): Promise<StatsRow | undefined> {
  // One statement: the counts and the plan together.
  const [row] = await tx
    .select({
      owned: sql<number>`(select count(*) from ${personas} where ${personas.userId} = ${user.id})`.mapWith(Number),
      active:
        sql<number>`(select count(*) from ${personas} where ${personas.userId} = ${user.id} and ${personas.status} = 'active')`.mapWith(
          Number,
        ),
      generated: sql<number>`(select count(*) from ${generations} where ${generations.userId} = ${user.id})`.mapWith(Number),
      status: profiles.subscriptionStatus,
      trialEndsAt: profiles.trialEndsAt,
    })
    .from(profiles)
    .where(eq(profiles.id, user.id));
  return row;
}

function statsFrom(row: StatsRow | undefined, user: CurrentUser): PersonaStats {
  const status = row?.status ?? user.subscriptionStatus;
  return {
    activePersonas: row?.active ?? 0,
    generatedContent: row?.generated ?? 0,
    subscriptionStatus: status,
    trialDaysLeft: trialDaysLeft(status, row?.trialEndsAt ?? null),
    ownedPersonas: row?.owned ?? 0,
    personaLimit: status === "active" ? null : FREE_PLAN_PERSONA_LIMIT,
  };
}

async function recentIn(tx: Tx, user: CurrentUser, limit: number): Promise<CardRow[]> {
  return tx
    .select(CARD_COLUMNS)
    .from(personas)
    .where(notArchivedOf(user))
    .orderBy(...NEWEST)
    .limit(limit);
}

export async function personaStats(user: CurrentUser): Promise<PersonaStats> {
  return withUser(user.id, (tx) => statsIn(tx, user));
}

interface DashboardRows {
  stats: StatsRow | undefined;
  recent: CardRow[];
}

/**
 * The dashboard's data in one trip through the door: the numbers and the recent personas,
 * both asked at once (the second does not wait for the first's answer to be sent). Kept until
 * the creator's personas, generations or profile change (KEPT_READS.dashboards); the trial's
 * days are counted anew every time.
 */
export async function dashboard(user: CurrentUser): Promise<{ stats: PersonaStats; recent: CardRow[] }> {
  const rows = await keptOrRead(KEPT_READS.dashboards, [user.id], () =>
    withUser(user.id, async (tx): Promise<DashboardRows> => {
      const [stats, recent] = await Promise.all([statsRowIn(tx, user), recentIn(tx, user, RECENT_LIMIT)]);
      return { stats, recent };
    }),
  );
  return { stats: statsFrom(rows.stats, user), recent: rows.recent };
}

/** Archive: status archived, remembering what it was so Restore can bring it back. */
export async function archivePersona(user: CurrentUser, id: string): Promise<Persona> {
  if (!isUuid(id)) throw new LibraryError(404, PERSONA_NOT_FOUND);
  const [row] = await withUser(user.id, (tx) =>
    tx
      .update(personas)
      .set({ status: "archived", statusBeforeArchive: sql`${personas.status}` })
      .where(and(eq(personas.id, id), ne(personas.status, "archived")))
      .returning(),
  );
  if (row) return row;
  await getPersona(user, id);
  throw new LibraryError(409, "This persona is already archived.", undefined, "already_archived");
}

/**
 * Restore: back to the status it had before it was archived. One archived without a record
 * of it is complete (the schema's check requires that), so it returns as active.
 */
export async function restorePersona(user: CurrentUser, id: string): Promise<Persona> {
  if (!isUuid(id)) throw new LibraryError(404, PERSONA_NOT_FOUND);
  const [row] = await withUser(user.id, (tx) =>
    tx
      .update(personas)
      .set({
        status: sql`coalesce(${personas.statusBeforeArchive}, 'active')`,
        statusBeforeArchive: null,
      })
      .where(and(eq(personas.id, id), eq(personas.status, "archived")))
      .returning(),
  );
  if (row) return row;
  await getPersona(user, id);
  throw new LibraryError(409, "This persona is not archived.", undefined, "not_archived");
}

export const STATUS_CHANGES = ["archived", "restored"] as const;
export type StatusChange = (typeof STATUS_CHANGES)[number];

/** PATCH /api/personas/{id}/status: 'archived' archives, 'restored' restores the previous status. */
export async function changeStatus(user: CurrentUser, id: string, status: unknown): Promise<Persona> {
  if (status === "archived") return archivePersona(user, id);
  if (status === "restored") return restorePersona(user, id);
  throw new LibraryError(400, `Unknown status change. Send { "status": "archived" } to archive or { "status": "restored" } to restore.`, {
    status: ["Invalid status"],
  });
}

/** Delete: the persona and, with it (cascade), its chat history; then its reference images. */
export async function deletePersona(user: CurrentUser, id: string): Promise<void> {
  if (!isUuid(id)) throw new LibraryError(404, PERSONA_NOT_FOUND);
  const rows = await withUser(user.id, (tx) => tx.delete(personas).where(eq(personas.id, id)).returning({ id: personas.id }));
  if (rows.length === 0) throw new LibraryError(404, PERSONA_NOT_FOUND);
  await removePersonaImages(user.id, rows[0]!.id);
}

/** Whether a persona is edited with the draft rules (only a name required) or the creation rules. */
export function editedAsDraft(persona: Pick<Persona, "status" | "statusBeforeArchive">): boolean {
  return persona.status === "in_progress" || persona.statusBeforeArchive === "in_progress";
}

/**
 * Edit in place: the same id, created date and chat; validated like creation (a draft, or an
 * archived draft, with the draft rules). The status does not change.
 */
export async function updatePersona(user: CurrentUser, id: string, raw: unknown): Promise<Persona> {
  const current = await getPersona(user, id);
  const asDraft = editedAsDraft(current);
  const result = asDraft ? validatePersona(raw, "draft") : validatePersona(raw, "create");
  if (!result.success) {
    throw new LibraryError(400, asDraft ? WIZARD_TOASTS.draftFailed.description : WIZARD_TOASTS.editFailed.description, result.errors);
  }
  const input = result.data;
  const voice = voiceFromBody(raw);
  const [row] = await withUser(user.id, (tx) =>
    tx
      .update(personas)
      .set({
        name: input.name,
        type: input.type ?? null,
        gender: input.gender ?? null,
        ageRange: input.ageRange ?? null,
        interests: input.interests ?? [],
        description: input.description || (asDraft ? null : ""),
        personality: input.personality ?? [],
        backstory: input.backstory || null,
        ...voice,
      })
      // Only while it is still what was checked: a concurrent archive or finish is not overwritten blindly.
      .where(and(eq(personas.id, id), eq(personas.status, current.status)))
      .returning(),
  );
  if (!row) throw new LibraryError(409, "This persona changed while you were editing it. Reload and try again.", undefined, "conflict");
  return row;
}
