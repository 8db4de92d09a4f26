// Lore matches of large lorebooks on a thread of their own (docs/decisions/039-work-on-the-main-thread-has-a-ceiling.md):
// a lorebook with pattern keys, or with many keys, is matched by build/workers/lore-match.mjs
// (scripts/build-workers.mjs), so the server's one thread answers other creators meanwhile. The
// thread starts at the first such match, keeps the lorebooks it was sent (each is sent once while
// it is the same object here), stops after a quiet spell, and is stopped at a deadline: a match
// that runs past it gives no entries. Small lorebooks are matched in place. Without the built
// thread (the development server, whose compiler rebuilds the app but not the thread) every
// match is made in place.
import { existsSync } from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";

import { matchLore, type LoreBook, type LoreMatch } from "~/domain/lorebook";

import type { LoreMatchAnswer, LoreMatchAsk } from "./lore-match-protocol";

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

export class LoreMatchDeadlineError extends Error {
  constructor() {
    super(`The lore match took longer than ${LORE_THREAD.deadlineMs / 1000} s and was stopped.`);
    this.name = "LoreMatchDeadlineError";
  }
}

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

const workerPath = () => path.join(process.env.APP_ROOT ?? process.cwd(), "build", "workers", "lore-match.mjs");

interface Waiting {
  resolve: (answer: LoreMatchAnswer) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

class LoreThread {
  #worker: Worker | undefined;
  /** The books the running thread holds. */
  #known = new Set<number>();
  #waiting = new Map<number, Waiting>();
  #nextAsk = 1;
  #idle: NodeJS.Timeout | undefined;

  constructor(readonly file: string) {}

  #start(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(this.file, { resourceLimits: { maxOldGenerationSizeMb: 128 } });
    worker.unref();
    worker.on("message", (answer: LoreMatchAnswer) => {
      const waiting = this.#waiting.get(answer.id);
      if (!waiting) return;
      this.#waiting.delete(answer.id);
      clearTimeout(waiting.timer);
      waiting.resolve(answer);
      this.#quiet();
    });
    const lost = (error: Error) => this.#stop(error);
    worker.on("error", lost);
    worker.on("exit", (code) => this.#worker === worker && this.#stop(new Error(`The lore-match thread ended (exit code ${code}).`)));
    this.#worker = worker;
    this.#known.clear();
    return worker;
  }

  /** Ends the thread; every match waiting on it fails with `reason`. */
  #stop(reason: Error): void {
    const worker = this.#worker;
    this.#worker = undefined;
    this.#known.clear();
    clearTimeout(this.#idle);
    for (const [id, waiting] of this.#waiting) {
      clearTimeout(waiting.timer);
      this.#waiting.delete(id);
      waiting.reject(reason);
    }
    if (worker) void worker.terminate();
  }

  #quiet(): void {
    clearTimeout(this.#idle);
    if (this.#waiting.size) return;
    this.#idle = setTimeout(() => this.#waiting.size === 0 && this.#stop(new Error("idle")), LORE_THREAD.idleMs);
    this.#idle.unref();
  }

  #ask(bookId: number, book: LoreBook | undefined, messages: string[]): Promise<LoreMatchAnswer> {
    const worker = this.#start();
    clearTimeout(this.#idle);
    const id = this.#nextAsk++;
    return new Promise<LoreMatchAnswer>((resolve, reject) => {
      const timer = setTimeout(() => this.#stop(new LoreMatchDeadlineError()), LORE_THREAD.deadlineMs);
      this.#waiting.set(id, { resolve, reject, timer });
      const ask: LoreMatchAsk = { id, bookId, messages, ...(book ? { book } : {}) };
      worker.postMessage(ask);
      if (book) this.#known.add(bookId);
    });
  }

  async match(bookId: number, book: LoreBook, messages: string[]): Promise<Extract<LoreMatchAnswer, { ids: string[] }>> {
    let answer = await this.#ask(bookId, this.#known.has(bookId) ? undefined : book, messages);
    // The thread had let the book go (it keeps the last few): send it again.
    if ("missing" in answer) answer = await this.#ask(bookId, book, messages);
    if ("error" in answer) throw new Error(answer.error);
    if ("missing" in answer) throw new Error("The lore-match thread lost the lorebook it was sent.");
    return answer;
  }

  get running(): boolean {
    return this.#worker !== undefined;
  }

  /** Stops the thread now (tests, shutdown). */
  close(): void {
    this.#stop(new Error("closed"));
  }
}

let thread: LoreThread | null | undefined;
const bookIds = new WeakMap<object, number>();
let nextBookId = 1;

function loreThread(): LoreThread | null {
  if (thread !== undefined) return thread;
  const file = workerPath();
  thread = process.env.NODE_ENV !== "development" && existsSync(file) ? new LoreThread(file) : null;
  if (!thread && process.env.NODE_ENV === "production")
    console.warn(`[lore] ${file} is missing: lore is matched on the main thread (npm run build makes it)`);
  return thread;
}

/**
 * matchLore, off the main thread when the lorebook is large (matchedOffThread). `identity` is the
 * object the lorebook was read from (a persona's stored lore): while it is the same object, the
 * thread is not sent the lorebook again. A match past the deadline rejects with
 * LoreMatchDeadlineError.
 */
export async function matchLoreOffThread(book: LoreBook, messages: readonly string[], identity: object = book): Promise<LoreMatch> {
  const worker = matchedOffThread(book) ? loreThread() : null;
  if (!worker) return matchLore(book, messages);
  let bookId = bookIds.get(identity);
  if (bookId === undefined) bookIds.set(identity, (bookId = nextBookId++));
  const answer = await worker.match(bookId, book, [...messages]);
  const byId = new Map(book.entries.map((entry) => [entry.id, entry]));
  return {
    entries: answer.ids.flatMap((id) => byId.get(id) ?? []),
    characters: answer.characters,
    patternsSkipped: answer.patternsSkipped,
  };
}

/** Stops the lore-match thread (tests; a server that stops). */
export function closeLoreThread(): void {
  thread?.close();
}

/** Whether the lore-match thread runs now (tests, metrics). */
export function loreThreadRunning(): boolean {
  return thread?.running ?? false;
}
