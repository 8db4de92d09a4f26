// Lore matches of large lorebooks on a thread of their own (docs/decisions/039-work-on-the-main-thread-has-a-ceiling.md):
// a lorebook with pattern keys, or with many keys, is matched by build/workers/lore-match.mjs
// (scripts/build-workers.mjs), so the server's one thread answers other creators meanwhile. The
// thread starts at the first such match, keeps the lorebooks it was sent (each is sent once while
// it is the same object here), stops after a quiet spell, and is stopped at a deadline: a match
// that runs past it gives no entries. Small lorebooks are matched in place. Without the built
// thread (the development server, whose compiler rebuilds the app but not the thread) every
// match is made in place.
import { matchLore, type LoreBook, type LoreMatch } from "~/domain/lorebook";

import type { LoreMatchAnswer, LoreMatchAsk } from "./lore-match-protocol";
import { ComputeThread, ThreadDeadlineError, threadFile } from "./thread.server";

export const LORE_THREAD = {
  /**
   * A lorebook with this many keys (primary and secondary, of enabled entries) is matched off the
   * main thread, and so is any with a pattern key: one pattern's first run over a long text can
   * take tens of milliseconds.
   */
  minKeys: 1_000,
  /** How long a match may take on its thread before the thread is stopped. */
  deadlineMs: 5_000,
  /** The thread stops after this long without a match. */
  idleMs: 30_000,
};

/** A match that ran past LORE_THREAD.deadlineMs. */
export { ThreadDeadlineError as LoreMatchDeadlineError };

/** Whether a lorebook is matched off the main thread. */
export function matchedOffThread(book: LoreBook): boolean {
  let keys = 0;
  for (const entry of book.entries) {
    if (!entry.enabled || entry.constant) continue;
    if (entry.use_regex && entry.keys.length) return true;
    keys += entry.keys.length + entry.secondary_keys.length;
    if (keys >= LORE_THREAD.minKeys) return true;
  }
  return false;
}

class LoreThread {
  readonly thread: ComputeThread<LoreMatchAsk, LoreMatchAnswer>;
  /** The books the running thread holds. */
  #known = new Set<number>();

  constructor(file: string) {
    this.thread = new ComputeThread(file, {
      what: "The lore match",
      deadlineMs: () => LORE_THREAD.deadlineMs,
      idleMs: LORE_THREAD.idleMs,
      maxOldGenerationSizeMb: 128,
    });
    this.thread.onStop = () => this.#known.clear();
  }

  async #ask(bookId: number, book: LoreBook | undefined, messages: string[], patternMs?: number): Promise<LoreMatchAnswer> {
    const answer = this.thread.ask({ bookId, messages, ...(book ? { book } : {}), ...(patternMs === undefined ? {} : { patternMs }) });
    if (book) this.#known.add(bookId);
    return answer;
  }

  async match(
    bookId: number,
    book: LoreBook,
    messages: string[],
    patternMs?: number,
  ): Promise<Extract<LoreMatchAnswer, { ids: string[] }>> {
    let answer = await this.#ask(bookId, this.#known.has(bookId) ? undefined : book, messages, patternMs);
    // The thread had let the book go (it keeps the last few): send it again.
    if ("missing" in answer) answer = await this.#ask(bookId, book, messages, patternMs);
    if ("error" in answer) throw new Error(answer.error);
    if ("missing" in answer) throw new Error("The lore-match thread lost the lorebook it was sent.");
    return answer;
  }
}

let thread: LoreThread | null | undefined;
const bookIds = new WeakMap<object, number>();
let nextBookId = 1;

function loreThread(): LoreThread | null {
  if (thread !== undefined) return thread;
  const file = threadFile("lore-match");
  thread = file ? new LoreThread(file) : null;
  return thread;
}

/**
 * matchLore, off the main thread when the lorebook is large (matchedOffThread). `identity` is the
 * object the lorebook was read from (a persona's stored lore): while it is the same object, the
 * thread is not sent the lorebook again. A match past the deadline rejects with
 * LoreMatchDeadlineError. `patternMs`: the pattern keys' time allowance (LORE_LIMITS.patternMs).
 */
export async function matchLoreOffThread(
  book: LoreBook,
  messages: readonly string[],
  identity: object = book,
  { patternMs }: { patternMs?: number } = {},
): Promise<LoreMatch> {
  const worker = matchedOffThread(book) ? loreThread() : null;
  if (!worker) return matchLore(book, messages, patternMs === undefined ? {} : { patternMs });
  let bookId = bookIds.get(identity);
  if (bookId === undefined) bookIds.set(identity, (bookId = nextBookId++));
  const answer = await worker.match(bookId, book, [...messages], patternMs);
  const byId = new Map(book.entries.map((entry) => [entry.id, entry]));
  return {
    entries: answer.ids.flatMap((id) => byId.get(id) ?? []),
    characters: answer.characters,
    patternsSkipped: answer.patternsSkipped,
  };
}

/** Stops the lore-match thread (tests; a server that stops). */
export function closeLoreThread(): void {
  thread?.thread.close();
}

/** Whether the lore-match thread runs now (tests, metrics). */
export function loreThreadRunning(): boolean {
  return thread?.thread.running ?? false;
}
