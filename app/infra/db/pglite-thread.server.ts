// PGlite on its own thread (issue 14). PGlite is Postgres compiled to WebAssembly: every
// statement runs synchronously on the thread that calls it. On the main thread that is the
// thread that also parses requests and renders pages, so the two took turns on one core. Here
// the database lives in a worker_threads worker and the main thread talks to it by messages;
// both cores work at once. The object below offers what drizzle's PGlite driver and the raw
// handle use (query, exec, transaction, close), so nothing above this file changes.
//
// Transactions: `begin` opens a PGlite transaction in the worker and keeps it open until the
// main thread says `commit` or `rollback`; PGlite's own lock makes every other statement wait
// meanwhile, as it does on one thread. Errors cross as plain objects with the database's fields
// (code, detail, constraint…) and are rebuilt as Errors with the same fields and message.
import { Worker } from "node:worker_threads";

import type { QueryOptions, Results } from "@electric-sql/pglite";

// CommonJS, evaluated by the worker: kept as text so the Remix build carries it without a
// separate file. Parsers cannot cross threads; drizzle's only keep values as text (identity),
// so the main thread sends their type ids and the worker installs identity parsers for them.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
let pg;
const open = new Map();
const identity = (value) => value;
function options(wire) {
  if (!wire) return undefined;
  const parsers = {};
  for (const oid of wire.textTypes || []) parsers[oid] = identity;
  return { rowMode: wire.rowMode, parsers };
}
function plainError(error) {
  const out = { message: String((error && error.message) || error), name: (error && error.name) || "Error" };
  for (const key of Object.keys(error || {})) {
    const value = error[key];
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") out[key] = value;
  }
  return out;
}
const target = (m) => (m.tx ? open.get(m.tx).tx : pg);

// Statements inside a transaction run as named prepared statements (decision 014): Postgres
// parses, rewrites (row-level security included) and plans each distinct text once, not on
// every run, and each run takes three protocol messages instead of PGlite's six. Planning was
// most of the cost of a page's reads. As PGlite's own query() does, parameters are serialised
// for the types Postgres inferred and rows parsed with its parsers. Outside a transaction
// (PGlite then also syncs to disk) statements take PGlite's own path. Anything that may change
// the schema (an exec, or a statement that is not a select, insert, update, delete or with)
// makes every later statement be prepared anew, under a new name.
let protocol, parseResults, parseDescribeStatementResults;
const prepared = new Map();
let preparedNames = 0;
const PREPARED_LIMIT = 1000;
const PREPARABLE = /^\\s*(select|insert|update|delete|with)\\s/i;
function forgetPreparedAfter(text, always) {
  if (always || !PREPARABLE.test(text)) prepared.clear();
}
function inTransaction(entry, text, params, wire) {
  if (!PREPARABLE.test(text)) {
    prepared.clear();
    return entry.tx.query(text, params, options(wire));
  }
  if (!prepared.has(text) && prepared.size >= PREPARED_LIMIT) return entry.tx.query(text, params, options(wire));
  return pg.runExclusive(async () => {
    const run = (message) => pg.execProtocolStream(message, { syncToFs: false });
    const messages = [];
    try {
      let statement = prepared.get(text);
      if (!statement) {
        const name = "pf_" + ++preparedNames;
        await run(protocol.serialize.parse({ name, text }));
        const described = await run(protocol.serialize.describe({ type: "S", name }));
        statement = { name, paramTypes: parseDescribeStatementResults(described), row: described.find((x) => x.name === "rowDescription") };
        prepared.set(text, statement);
      }
      const values = (params || []).map((value, i) => {
        if (value === null || value === undefined) return null;
        const serialize = pg.serializers[statement.paramTypes[i]];
        return serialize ? serialize(value) : value.toString();
      });
      messages.push(...(await run(protocol.serialize.bind({ statement: statement.name, values }))));
      if (statement.row) messages.push(statement.row);
      messages.push(...(await run(protocol.serialize.execute({}))));
    } finally {
      messages.push(...(await run(protocol.serialize.sync())));
    }
    return parseResults(messages, pg.parsers, options(wire))[0];
  });
}
async function handle(m) {
  switch (m.op) {
    case "open": {
      const pglite = await import("@electric-sql/pglite");
      const { PGlite } = pglite;
      ({ protocol } = pglite);
      ({ parseResults, parseDescribeStatementResults } = pglite.parse);
      const extensions = {};
      for (const name of workerData.extensions) extensions[name] = (await import("@electric-sql/pglite/contrib/" + name))[name];
      pg = new PGlite(workerData.dataDir, { startParams: workerData.startParams, extensions });
      await pg.waitReady;
      // PGlite hands a notice over while it answers the statement that committed it, so this
      // message reaches the main thread before that statement's answer does.
      for (const channel of workerData.channels) {
        await pg.listen(channel, (payload) => parentPort.postMessage({ channel, payload }));
      }
      return null;
    }
    case "query":
      if (m.tx) return inTransaction(open.get(m.tx), m.text, m.params, m.options);
      forgetPreparedAfter(m.text);
      return pg.query(m.text, m.params, options(m.options));
    case "exec":
      forgetPreparedAfter(m.text, true);
      return target(m).exec(m.text, options(m.options));
    case "begin": {
      // The transaction's first statement comes with it: one message instead of two.
      const entry = {};
      await new Promise((ready, failed) => {
        entry.finished = pg.transaction((tx) => new Promise((commit, rollback) => {
          Object.assign(entry, { tx, commit, rollback });
          open.set(m.id, entry);
          ready();
        }));
        entry.finished.catch(failed);
      });
      if (m.exec) forgetPreparedAfter(m.text, true);
      return m.exec ? entry.tx.exec(m.text, options(m.options)) : inTransaction(entry, m.text, m.params, m.options);
    }
    case "commit": {
      const entry = open.get(m.tx);
      open.delete(m.tx);
      entry.commit();
      await entry.finished;
      return null;
    }
    case "rollback": {
      const entry = open.get(m.tx);
      open.delete(m.tx);
      entry.rollback(new Error("rolled back"));
      await entry.finished.catch(() => {});
      return null;
    }
    case "close":
      await pg.close();
      return null;
    case "memory": {
      // This thread's own heap, and PGlite's WebAssembly memory (reserved; the pages it touched count in RSS).
      const usage = process.memoryUsage();
      return { heapUsedBytes: usage.heapUsed, heapTotalBytes: usage.heapTotal, wasmMemoryBytes: pg && pg.mod && pg.mod.wasmMemory ? pg.mod.wasmMemory.buffer.byteLength : null, preparedStatements: prepared.size };
    }
  }
  throw new Error("unknown operation " + m.op);
}
parentPort.on("message", (m) => {
  handle(m).then(
    (result) => parentPort.postMessage({ id: m.id, result }),
    (error) => parentPort.postMessage({ id: m.id, error: plainError(error) }),
  );
});
`;

interface WireOptions {
  rowMode?: "array" | "object";
  textTypes?: number[];
}

type Call = { op: "open" | "close" | "memory" } | { op: "commit" | "rollback"; tx: number } | {
  op: "query" | "exec";
  tx?: number;
  text: string;
  params?: unknown[];
  options?: WireOptions;
} | { op: "begin"; exec?: boolean; text: string; params?: unknown[]; options?: WireOptions };

function toWire(options?: QueryOptions): WireOptions | undefined {
  if (!options) return undefined;
  const unsupported = Object.keys(options).filter((key) => !["rowMode", "parsers"].includes(key));
  if (unsupported.length) throw new Error(`PGlite on its own thread does not support the query options ${unsupported.join(", ")}`);
  return { rowMode: options.rowMode, textTypes: Object.keys(options.parsers ?? {}).map(Number) };
}

function rebuiltError(plain: Record<string, unknown>): Error {
  const error = new Error(String(plain.message));
  Object.assign(error, plain);
  return error;
}

export interface DatabaseThreadMemory {
  heapUsedBytes: number;
  heapTotalBytes: number;
  wasmMemoryBytes: number | null;
  /** Statements prepared by name (see inTransaction in the worker's source). */
  preparedStatements: number;
}

interface Queryable {
  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(text: string, options?: QueryOptions): Promise<Results[]>;
}

/** PGlite in a worker thread: the subset of PGlite's interface the app uses. */
export class PgliteThread implements Queryable {
  readonly #worker: Worker;
  #next = 1;
  readonly #pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  #failure: Error | undefined;

  private constructor(
    workerData: { dataDir?: string; startParams: string[]; extensions: string[]; channels: string[] },
    onNotification: (channel: string, payload: string) => void,
  ) {
    this.#worker = new Worker(WORKER_SOURCE, { eval: true, workerData });
    // The worker keeps the process alive only while a call is waiting for it.
    this.#worker.unref();
    this.#worker.on("message", (message: { id: number; result?: unknown; error?: Record<string, unknown>; channel?: string; payload?: string }) => {
      if (message.channel !== undefined) {
        onNotification(message.channel, message.payload ?? "");
        return;
      }
      const call = this.#pending.get(message.id);
      if (!call) return;
      this.#pending.delete(message.id);
      if (this.#pending.size === 0) this.#worker.unref();
      if (message.error) call.reject(rebuiltError(message.error));
      else call.resolve(message.result);
    });
    const fail = (error: Error) => {
      this.#failure = error;
      for (const call of this.#pending.values()) call.reject(error);
      this.#pending.clear();
    };
    this.#worker.on("error", fail);
    this.#worker.on("exit", (code) => fail(new Error(`The database thread stopped (exit ${code}).`)));
  }

  /**
   * Opens PGlite on a new thread. `listen` names channels to LISTEN on: each NOTIFY committed on
   * one reaches `onNotification` before the answer to the statement that committed it.
   */
  static async open(options: {
    dataDir?: string;
    startParams: string[];
    extensions: string[];
    listen?: { channels: string[]; onNotification: (channel: string, payload: string) => void };
  }): Promise<PgliteThread> {
    const { listen, ...rest } = options;
    const thread = new PgliteThread({ ...rest, channels: listen?.channels ?? [] }, listen?.onNotification ?? (() => {}));
    try {
      await thread.#call({ op: "open" });
    } catch (error) {
      await thread.#worker.terminate();
      throw error;
    }
    return thread;
  }

  #call<T>(call: Call): Promise<T> {
    if (this.#failure) return Promise.reject(this.#failure);
    const id = this.#next++;
    return new Promise<T>((resolve, reject) => {
      if (this.#pending.size === 0) this.#worker.ref();
      this.#pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.#worker.postMessage({ ...call, id });
    });
  }

  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return this.#call({ op: "query", text, params, options: toWire(options) });
  }

  exec(text: string, options?: QueryOptions): Promise<Results[]> {
    return this.#call({ op: "exec", text, options: toWire(options) });
  }

  /**
   * A transaction opens with its first query, in the same message (the doors' first statement
   * sets the role and claims), so a transaction of n queries costs n + 1 messages; one that
   * never queries costs none. A message's id is its transaction's id.
   */
  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    let begun: Promise<unknown> | undefined;
    let tx = 0;
    const send = <R,>(call: { op: "query" | "exec"; text: string; params?: unknown[]; options?: QueryOptions }): Promise<R> => {
      const wire = { text: call.text, params: call.params, options: toWire(call.options) };
      if (!begun) {
        tx = this.#next;
        begun = this.#call<R>({ op: "begin", exec: call.op === "exec", ...wire });
        return begun as Promise<R>;
      }
      // The statements of a transaction are awaited one by one (drizzle does); after the first.
      const next = () => this.#call<R>({ op: call.op, tx, ...wire });
      return begun.then(next, next);
    };
    const inside: Queryable = {
      query: (text, params, options) => send({ op: "query", text, params, options }),
      exec: (text, options) => send({ op: "exec", text, options }),
    };
    let result: T;
    try {
      result = await fn(inside);
    } catch (error) {
      if (begun) await this.#call({ op: "rollback", tx }).catch(() => {});
      throw error;
    }
    if (begun) await this.#call({ op: "commit", tx });
    return result;
  }

  /** The database thread's heap and PGlite's WebAssembly memory, for the server's metrics. */
  memory(): Promise<DatabaseThreadMemory> {
    return this.#call({ op: "memory" });
  }

  async close(): Promise<void> {
    try {
      await this.#call({ op: "close" });
    } finally {
      await this.#worker.terminate();
    }
  }
}
