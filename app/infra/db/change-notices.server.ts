// The database's change notices as a process hears them (docs/decisions/023-kept-reads-declared-and-heard-everywhere.md).
// Triggers on every table a kept read depends on call private.notify_account_changed(), which
// sends the owner's id on the channel `pf_account_changed` when the write commits, and says it
// at once to the connection that wrote (`raise notice 'pf_account_changed <id>'`; migrations
// 20261123100000, 20261126010000, 20261126120000, 20261127100000 and 20261127120000). What is
// kept (app/infra/db/kept-reads.server.ts) may be kept only while this process hears them.
//
// - The embedded database is one session that only this process uses: the notice reaches
//   postgres.js's `onnotice` with the answer to the statement that wrote, before that statement's
//   promise resolves, and any read asked after it waits for the write's COMMIT on the one
//   connection (docs/decisions/032-one-database-path.md). Heard before the write's own request
//   goes on, always.
// - A database server delivers them on a connection of their own (postgres-js `listen`), a
//   moment after the commit. So that the writing process never answers from what it kept
//   before its own write, a transaction that wrote sends one more notice of its own (a marker)
//   before it commits, and the door waits until the marker is heard: the notices of one
//   listener arrive in commit order, so every notice of that write has been heard by then.
//   Other processes hear the same notices at the same moment, before the writer has answered.
//   When the listening connection is (re)established, or a marker is not heard in time, every
//   process forgets everything it kept; while notices are not heard nothing is kept.
import { randomUUID } from "node:crypto";

import { sql } from "drizzle-orm";
import type postgres from "postgres";

/** The channel of the change notices: the payload is the id of the user whose data changed. */
export const CHANGE_CHANNEL = "pf_account_changed";

/** The text of the notice a write says to its own connection: this channel, a space, the owner's id. */
const NOTICE = new RegExp(`^${CHANGE_CHANNEL} ([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$`, "i");

/** The owner a change notice names, or null when the notice is something else. */
export function changeNoticeOwner(message: string | undefined): string | null {
  return (message && NOTICE.exec(message)?.[1]) || null;
}

/** A marker's payload starts with this (a user id never does). */
const MARKER = "heard ";

/** How long a marker may take to come back before the process stops keeping. */
const MARKER_TIMEOUT_MS = 2_000;
/** How often an idle process checks that it still hears the notices. */
const HEARTBEAT_MS = 10_000;

export interface ChangeFeed {
  /** Whether notices are heard now: only then may anything be kept. */
  readonly hearing: boolean;
  /**
   * Calls `listener` with a user's id when a commit changed that user's data, and with null when
   * anything may have changed (the database opened again, its notices heard again or lost).
   * Returns what stops it.
   */
  watch(listener: (userId: string | null) => void): () => void;
  /**
   * Database servers only: the statement a transaction runs last, before its commit. It sends a
   * marker if the transaction wrote anything; `afterCommit` then waits until the marker is heard.
   */
  beforeCommit?(execute: (query: ReturnType<typeof sql>) => Promise<unknown>): Promise<string | null>;
  afterCommit?(marker: string): Promise<void>;
  /** Database servers only: waits until every notice committed before this call was heard. */
  settle?(): Promise<void>;
  close?(): void;
}

/** Listeners of a feed; `tell` calls each. */
export class Watchers {
  readonly #all = new Set<(userId: string | null) => void>();

  add(listener: (userId: string | null) => void): () => void {
    this.#all.add(listener);
    return () => this.#all.delete(listener);
  }

  tell(userId: string | null): void {
    for (const listener of this.#all) listener(userId);
  }
}

/** The embedded database: its notices come with the statement that wrote, so it always hears them. */
export function embeddedFeed(watchers: Watchers): ChangeFeed {
  return { hearing: true, watch: (listener) => watchers.add(listener) };
}

/**
 * A database server's notices, heard through postgres-js's `listen` on a connection of its own.
 * Nothing is kept until the first marker sent after LISTEN has come back; a server that cannot
 * LISTEN (a transaction-mode pooler) never hears it, and this process then reads the database
 * every time (one log line says so).
 */
export class ServerFeed implements ChangeFeed {
  readonly #watchers = new Watchers();
  readonly #token = randomUUID();
  readonly #waiting = new Map<string, () => void>();
  /** This process's markers heard before anyone waited for them (the listening connection can be quicker than the statement's answer). */
  readonly #early = new Set<string>();
  #sequence = 0;
  #hearing = false;
  #closed = false;
  #heartbeat: ReturnType<typeof setInterval> | undefined;
  /** What the log said last, so that it says each change of state once. */
  #said: "on" | "off" | undefined;

  constructor(
    private readonly client: postgres.Sql,
    private readonly log: (line: string) => void,
    private readonly timing = { markerTimeoutMs: MARKER_TIMEOUT_MS, heartbeatMs: HEARTBEAT_MS },
  ) {}

  get hearing(): boolean {
    return this.#hearing;
  }

  watch(listener: (userId: string | null) => void): () => void {
    return this.#watchers.add(listener);
  }

  /** LISTENs, then checks that a marker comes back. Never throws: a failure means nothing is kept. */
  async start(): Promise<void> {
    try {
      await this.client.listen(
        CHANGE_CHANNEL,
        (payload) => this.#heard(payload),
        // Called on the first LISTEN and after every reconnection: notices may have been
        // missed meanwhile, so everything kept goes, and keeping waits for a marker again.
        () => {
          this.#set(false);
          void this.#check();
        },
      );
    } catch (error) {
      this.#say(
        "off",
        `change notices cannot be heard (LISTEN failed: ${error instanceof Error ? error.message : String(error)}): every request reads the database`,
      );
      return;
    }
    this.#heartbeat = setInterval(() => void this.#check(), this.timing.heartbeatMs);
    this.#heartbeat.unref();
    await this.#check();
  }

  async beforeCommit(execute: (query: ReturnType<typeof sql>) => Promise<unknown>): Promise<string | null> {
    const marker = this.#nextMarker();
    // Sent only by a transaction that wrote (it has a transaction id): a read costs this one statement.
    const rows = (await execute(sql`select pg_notify(${CHANGE_CHANNEL}, ${marker}) where txid_current_if_assigned() is not null`)) as
      unknown[] | { rows: unknown[] };
    const sent = Array.isArray(rows) ? rows.length : rows.rows.length;
    return sent > 0 ? marker : null;
  }

  async afterCommit(marker: string): Promise<void> {
    if (!(await this.#awaitMarker(marker))) this.#lost();
  }

  async settle(): Promise<void> {
    if (!this.#hearing) return;
    if (!(await this.#roundTrip())) this.#lost();
  }

  close(): void {
    this.#closed = true;
    clearInterval(this.#heartbeat);
    this.#set(false);
    for (const resolve of this.#waiting.values()) resolve();
  }

  #nextMarker(): string {
    return `${MARKER}${this.#token} ${++this.#sequence}`;
  }

  #heard(payload: string): void {
    if (payload.startsWith(MARKER)) {
      const waiting = this.#waiting.get(payload);
      if (waiting) waiting();
      else if (payload.startsWith(`${MARKER}${this.#token} `)) {
        // A marker whose transaction failed after sending it is never waited for: keep few.
        if (this.#early.size >= 1_000) this.#early.clear();
        this.#early.add(payload);
      }
      return;
    }
    this.#watchers.tell(payload);
  }

  /** Resolves true once `marker` is heard, false after the timeout. */
  #awaitMarker(marker: string): Promise<boolean> {
    if (this.#early.delete(marker)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#waiting.delete(marker);
        resolve(false);
      }, this.timing.markerTimeoutMs);
      this.#waiting.set(marker, () => {
        clearTimeout(timer);
        this.#waiting.delete(marker);
        resolve(true);
      });
    });
  }

  /** Sends a marker outside any transaction and waits for it. */
  async #roundTrip(): Promise<boolean> {
    const marker = this.#nextMarker();
    try {
      await this.client`select pg_notify(${CHANGE_CHANNEL}, ${marker})`;
    } catch {
      return false;
    }
    return this.#awaitMarker(marker);
  }

  async #check(): Promise<void> {
    if (this.#closed) return;
    const heard = await this.#roundTrip();
    if (this.#closed) return;
    if (heard) {
      this.#set(true);
      this.#say("on", "change notices heard: page data is kept until they say it changed");
    } else {
      this.#lost();
    }
  }

  #lost(): void {
    this.#set(false);
    this.#say(
      "off",
      `change notices not heard within ${this.timing.markerTimeoutMs} ms: nothing is kept, every request reads the database until they are heard again`,
    );
  }

  #set(hearing: boolean): void {
    // Either way, what was kept (or was being read) before may be stale now.
    if (hearing !== this.#hearing || !hearing) this.#watchers.tell(null);
    this.#hearing = hearing;
  }

  #say(state: "on" | "off", line: string): void {
    if (this.#said === state) return;
    this.#said = state;
    this.log(line);
  }
}
