// The embedded database's thread, open only while it is used (docs/decisions/012-a-small-server.md). PGlite
// is a whole Postgres in WebAssembly: open, it holds 120–250 MB (its compiled code, the
// WebAssembly memory Postgres has touched, which never shrinks, and the thread's heap). A
// creator's server is idle most of the time, so the thread is closed after `idleMs` without a
// statement and opened again by the next one (a fresh worker: everything it held goes back to
// the operating system). Closing is PGlite's clean shutdown, so nothing committed is at risk;
// the data directory's lock stays with this process throughout.
//
// A statement or a transaction in progress keeps the thread open: the idle clock starts only
// when nothing is waiting for it, and a statement that arrives while it is closing waits for
// the close, then opens it again.
import type { DatabaseThreadMemory, PgliteThread } from "./pglite-thread.server";

type Thread = Pick<PgliteThread, "query" | "exec" | "transaction" | "close" | "memory">;

export interface OnDemandEvents {
  /** The thread was opened for a statement, after `ms` of waiting for it. */
  opened?(ms: number): void;
  /** The thread was closed after being idle. */
  released?(): void;
  /** Closing the idle thread failed (logged; the next statement opens a new one). */
  failed?(error: unknown): void;
}

export class PgliteOnDemand {
  #open: Promise<Thread> | undefined;
  #closing: Promise<void> | undefined;
  #busy = 0;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(
    private readonly openThread: () => Promise<Thread>,
    private readonly idleMs: number,
    private readonly events: OnDemandEvents = {},
  ) {}

  /** Starts with an open thread (e.g. the one that just migrated); it is released after idleMs like any other. */
  adopt(thread: Thread): void {
    this.#open = Promise.resolve(thread);
    this.#armTimer();
  }

  get isOpen(): boolean {
    return this.#open !== undefined;
  }

  query: Thread["query"] = (text, params, options) => this.#use((thread) => thread.query(text, params, options));
  exec: Thread["exec"] = (text, options) => this.#use((thread) => thread.exec(text, options));
  transaction: Thread["transaction"] = (fn) => this.#use((thread) => thread.transaction(fn));

  /** The open thread's memory, or null while it is closed (asking neither opens it nor counts as use). */
  async memory(): Promise<DatabaseThreadMemory | null> {
    const opened = this.#open;
    return opened ? (await opened).memory() : null;
  }

  /** Closes the thread now (it opens again on the next statement). */
  async release(): Promise<void> {
    clearTimeout(this.#timer);
    const opened = this.#open;
    if (!opened || this.#busy > 0) return;
    this.#open = undefined;
    const closing = opened
      .then((thread) => thread.close())
      .finally(() => {
        if (this.#closing === closing) this.#closing = undefined;
      });
    this.#closing = closing;
    await closing;
    this.events.released?.();
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    const opened = this.#open;
    this.#open = undefined;
    await this.#closing?.catch(() => {});
    if (opened) await (await opened).close();
  }

  async #use<T>(fn: (thread: Thread) => Promise<T>): Promise<T> {
    if (this.#closed) throw new Error("The database is closed.");
    this.#busy++;
    clearTimeout(this.#timer);
    try {
      if (this.#closing) await this.#closing.catch(() => {});
      if (!this.#open) {
        const started = performance.now();
        this.#open = this.openThread().then(
          (thread) => {
            this.events.opened?.(performance.now() - started);
            return thread;
          },
          (error: unknown) => {
            this.#open = undefined;
            throw error;
          },
        );
      }
      return await fn(await this.#open);
    } finally {
      this.#busy--;
      this.#armTimer();
    }
  }

  #armTimer(): void {
    if (this.#busy > 0 || this.#closed || !(this.idleMs > 0)) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.release().catch((error: unknown) => this.events.failed?.(error));
    }, this.idleMs);
    this.#timer.unref();
  }
}
