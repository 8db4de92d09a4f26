// Every read the app keeps between requests, declared in one place: its name, its key, how many
// answers it keeps and the tables its answer is read from (docs/decisions/023-kept-reads-declared-and-heard-everywhere.md).
//
// An answer is kept per user, on every database, while the process hears the database's change
// notices (db/change-notices.server.ts): a trigger on each declared table sends the owner's id
// when a write commits, and every process forgets that user's answers. `kept-reads.server.test.ts`
// fails if a declared table has no such trigger; the services' tests write to each declared
// table and read again. A kept answer is used only for the same user, after the request's
// session was checked, and never after 5 minutes; a read asked before a notice and answered
// after it is not kept. Where the notices are not heard (no LISTEN, or a gap), nothing is kept.
import type { ChangeFeed } from "./change-notices.server";
import { KeptPerUser } from "./kept-per-user";
import { changeFeed } from "./db.server";

/** A table, schema-qualified, whose committed writes must make the read's answers forgotten. */
export type WatchedTable = `${"public" | "auth"}.${string}`;

export interface KeptReadDeclaration<P extends [userId: string, ...rest: unknown[]]> {
  /** What the read is, as a log or a test names it. */
  name: string;
  /** The key of one answer: the user it is kept for first, then what else tells answers apart. */
  key: (...parts: P) => string;
  /** At most this many answers (for all users); the oldest go first. */
  limit: number;
  /** Every table the answer is read from. */
  tables: readonly WatchedTable[];
}

const declare = <P extends [userId: string, ...rest: unknown[]]>(declaration: KeptReadDeclaration<P>) => declaration;

export const KEPT_READS = {
  /** A page of the library's persona cards without a search (persona-library.server.ts listPersonas). */
  libraryCards: declare({
    name: "library: card lists",
    key: (creator: string, status: string, sort: string, page: number, pageSize: number) =>
      `${creator}:${status}:${sort}:${page}:${pageSize}`,
    limit: 1_000,
    // A card shows its persona's latest test run (its badge).
    tables: ["public.personas", "public.probe_runs"],
  }),
  /**
   * A page of the library's cards for a search (listPersonas with `q`): a creator goes back to
   * the results from a persona, or pages through them, and asks the same search again.
   */
  librarySearches: declare({
    name: "library: searches",
    key: (creator: string, status: string, sort: string, page: number, pageSize: number, q: string) =>
      `${creator}:${status}:${sort}:${page}:${pageSize}:${q}`,
    limit: 500,
    tables: ["public.personas", "public.probe_runs"],
  }),
  /**
   * A page of the JSON API's list without a search, as its answer's bytes (persona-library.server.ts
   * listPersonasAnswer): full personas with their backstories, up to about 1 MB a page, so few.
   */
  apiLists: declare({
    name: "library: API lists",
    key: (creator: string, status: string, sort: string, page: number, pageSize: number) =>
      `${creator}:${status}:${sort}:${page}:${pageSize}`,
    limit: 32,
    tables: ["public.personas"],
  }),
  /** The dashboard's counts, plan and recent personas (persona-library.server.ts dashboard). */
  dashboards: declare({
    name: "library: dashboards",
    key: (creator: string) => creator,
    limit: 2_000,
    tables: ["public.personas", "public.generations", "public.profiles", "public.probe_runs"],
  }),
  /** A page of a persona's history (persona-history.server.ts listVersions). */
  historyPages: declare({
    name: "history: pages",
    key: (creator: string, personaId: string, page: number, pageSize: number) => `${creator}:${personaId}:${page}:${pageSize}`,
    limit: 500,
    tables: ["public.personas", "public.persona_versions"],
  }),
  /** Two versions compared (persona-history.server.ts compare): both texts word by word, up to about 100 KB, so few. */
  comparisons: declare({
    name: "history: comparisons",
    key: (creator: string, personaId: string, from: string, to: string) => `${creator}:${personaId}:${from}:${to}`,
    limit: 64,
    tables: ["public.personas", "public.persona_versions"],
  }),
  /** The persona page's persona (without an imported card's data) and its image job as stored (personas.server.ts personaPageState). */
  personaPages: declare({
    name: "persona pages",
    key: (creator: string, personaId: string) => `${creator}:${personaId}`,
    limit: 500,
    tables: ["public.personas", "public.image_jobs"],
  }),
  /** A persona with its lorebook, for the lore and tests pages (lore.server.ts getLorebook). */
  lorebooks: declare({
    name: "lore: lorebooks",
    key: (creator: string, personaId: string) => `${creator}:${personaId}`,
    limit: 200,
    tables: ["public.personas"],
  }),
  /**
   * The persona page's line about its tests (probes.server.ts testsSummary), and the tests page's
   * probes and latest runs (testsState): kept only while no run is queued or running, since a
   * run's deadline passes without a write.
   */
  testSummaries: declare({
    name: "tests: summaries",
    key: (creator: string, personaId: string) => `${creator}:${personaId}`,
    limit: 500,
    tables: ["public.persona_probes", "public.probe_runs"],
  }),
  testStates: declare({
    name: "tests: states",
    key: (creator: string, personaId: string) => `${creator}:${personaId}`,
    limit: 200,
    tables: ["public.personas", "public.persona_probes", "public.probe_runs"],
  }),
  /**
   * Each listed version's latest finished test run, for the history page and a comparison
   * (probes.server.ts runSummariesByVersion): finished runs change only by a write.
   */
  runSummaries: declare({
    name: "tests: run summaries by version",
    key: (creator: string, personaId: string, versions: string) => `${creator}:${personaId}:${versions}`,
    limit: 500,
    tables: ["public.probe_runs"],
  }),
  /**
   * The card check page's findings, what survives where and the latest run in each front end
   * (card-check.server.ts cardCheck): kept only while no run is queued or running, as testStates.
   */
  cardChecks: declare({
    name: "cards: checks",
    key: (creator: string, personaId: string) => `${creator}:${personaId}`,
    limit: 200,
    tables: ["public.personas", "public.persona_versions", "public.card_target_runs"],
  }),
  /**
   * The tests page's line about long-conversation tests (conversation-tests.server.ts
   * conversationTestSummary): kept only while no test is queued or running, as testStates.
   */
  conversationSummaries: declare({
    name: "long conversations: summaries",
    key: (creator: string, personaId: string) => `${creator}:${personaId}`,
    limit: 500,
    tables: ["public.conversation_tests"],
  }),
  /**
   * The long-conversation page (conversation-tests.server.ts conversationTestsPage): the persona's
   * name, the latest run in full and the run laid over it; kept only while no test is under way.
   */
  conversationPages: declare({
    name: "long conversations: pages",
    key: (creator: string, personaId: string, compare: string) => `${creator}:${personaId}:${compare}`,
    limit: 200,
    tables: ["public.personas", "public.conversation_tests"],
  }),
  /**
   * The persona page's 'Checks on your chats' (chat-checks.server.ts chatChecksOf): the replies
   * checked and flagged per version, and the newest flagged ones.
   */
  chatChecks: declare({
    name: "chat: reply checks",
    key: (creator: string, personaId: string) => `${creator}:${personaId}`,
    limit: 500,
    tables: ["public.chat_messages", "public.persona_versions"],
  }),
  /** The library page's 'Slips in chat' badges for the personas of a page (chat-checks.server.ts currentVersionFlags). */
  chatFlagBadges: declare({
    name: "chat: library badges",
    key: (creator: string, personaIds: string) => `${creator}:${personaIds}`,
    limit: 500,
    tables: ["public.chat_messages", "public.persona_versions"],
  }),
  /** How many personas a creator owns, for what the wizard offers on the Free plan (personas.server.ts usage). */
  ownedCounts: declare({
    name: "personas: owned counts",
    key: (creator: string) => creator,
    limit: 2_000,
    tables: ["public.personas"],
  }),
  /** A checked session with its account and profile (auth/local.server.ts getUser; private.session_user_profile). */
  checkedSessions: declare({
    name: "auth: checked sessions",
    key: (userId: string, sessionId: string) => `${userId}:${sessionId}`,
    limit: 10_000,
    tables: ["auth.sessions", "auth.users", "public.profiles"],
  }),
};

export type KeptReadName = keyof typeof KEPT_READS;

const stores = new WeakMap<ChangeFeed, Map<string, KeptPerUser<unknown>>>();

function storeOf(feed: ChangeFeed, declaration: { name: string; limit: number }): KeptPerUser<unknown> {
  let named = stores.get(feed);
  if (!named) stores.set(feed, (named = new Map()));
  let store = named.get(declaration.name);
  if (!store) {
    const created = new KeptPerUser<unknown>(declaration.limit);
    feed.watch((userId) => (userId === null ? created.forgetAll() : created.forgetUser(userId)));
    named.set(declaration.name, (store = created));
  }
  return store;
}

/**
 * The answer of the declared read kept under `parts`, or `fromDatabase()`'s, kept for the next
 * request unless a notice arrived meanwhile (null and undefined are never kept, nor an answer
 * `keep` refuses: one that can change without a write, like a run whose deadline will pass).
 * Where the database's notices are not heard, always `fromDatabase()`.
 */
export async function keptOrRead<P extends [userId: string, ...rest: unknown[]], V>(
  declaration: KeptReadDeclaration<P>,
  parts: P,
  fromDatabase: () => Promise<V>,
  keep: (value: V) => boolean = () => true,
): Promise<V> {
  const feed = await changeFeed();
  if (!feed.hearing) return fromDatabase();
  const store = storeOf(feed, declaration) as KeptPerUser<V>;
  const key = declaration.key(...parts);
  const userId = parts[0];
  const known = store.get(key, userId);
  if (known !== undefined) return known;
  const epoch = store.epoch;
  const value = await fromDatabase();
  if (value !== null && value !== undefined && feed.hearing && keep(value)) store.keep(key, userId, value, epoch);
  return value;
}

/** Whether an answer of the declared read is kept under `parts` now (tests). */
export async function isKept<P extends [userId: string, ...rest: unknown[]]>(
  declaration: KeptReadDeclaration<P>,
  parts: P,
): Promise<boolean> {
  const store = stores.get(await changeFeed())?.get(declaration.name);
  return store?.get(declaration.key(...parts), parts[0]) !== undefined;
}

/** How many answers each declared read keeps now for the open database (tests, metrics). */
export async function keptSizes(): Promise<Record<string, number>> {
  const named = stores.get(await changeFeed());
  return Object.fromEntries(Object.values(KEPT_READS).map(({ name }) => [name, named?.get(name)?.size ?? 0]));
}
