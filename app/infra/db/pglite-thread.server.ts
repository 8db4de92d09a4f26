// PGlite on its own thread (docs/decisions/008-one-statement-sessions-and-a-database-thread.md). PGlite is Postgres compiled to WebAssembly: every
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
// every run. Planning was most of the cost of a page's reads. As PGlite's own query() does,
// parameters are serialised for the types Postgres inferred and rows parsed with its parsers.
// Outside a transaction (PGlite then also syncs to disk) statements take PGlite's own path.
// Anything that may change the schema (an exec, or a statement that is not a select, insert,
// update, delete or with) makes every later statement be prepared anew, under a new name.
//
// A run of a prepared statement is one call into Postgres (bind, execute and sync in one
// buffer), and its answer is read here from the bytes Postgres wrote (decision 016): PGlite's
// reader copied every field into an ArrayBuffer of its own and built a message object for each
// row before its results were built from those, about a third of this thread's time.
let protocol, parseDescribeStatementResults, defaultParsers;
const prepared = new Map();
let preparedNames = 0;
const PREPARED_LIMIT = 1000;
const PREPARABLE = /^\\s*(select|insert|update|delete|with)\\s/i;
function forgetPreparedAfter(text, always) {
  if (always || !PREPARABLE.test(text)) prepared.clear();
}

// The answer's bytes, gathered from Postgres's writes (each a view of its memory, valid only
// during the call) into one buffer that is reused; after an answer of more than a megabyte (an
// export, say) it goes back to its first size.
const ANSWER_SIZE = 64 * 1024;
const ANSWER_KEPT = 1024 * 1024;
let answer = Buffer.alloc(ANSWER_SIZE);
let answerLength = 0;
function gather(chunk) {
  if (answerLength + chunk.length > answer.length) {
    const bigger = Buffer.alloc(Math.max(answer.length * 2, answerLength + chunk.length));
    answer.copy(bigger, 0, 0, answerLength);
    answer = bigger;
  }
  answer.set(chunk, answerLength);
  answerLength += chunk.length;
}
// An error or a notification (the rare messages of an answer besides rows and the completion):
// read by PGlite's own protocol parser, so an error is PGlite's DatabaseError with its fields.
function parsedMessage(b, at, end) {
  let message;
  new protocol.Parser().parse(b.subarray(at, end), (parsed) => (message = parsed));
  return message;
}
// The statement's result as PGlite's parseResults builds it: rows (arrays or objects), fields,
// command, affectedRows, rowCount. The first error in the answer is thrown.
function readAnswer(b, length, statement, wire) {
  const fields = statement.fields;
  const overrides = new Set(wire && wire.textTypes ? wire.textTypes : []);
  const parsers = fields.map((field) => (overrides.has(field.dataTypeID) ? null : pg.parsers[field.dataTypeID] || defaultParsers[field.dataTypeID] || null));
  const asArrays = wire && wire.rowMode === "array";
  const result = { rows: [], fields, command: undefined, affectedRows: 0 };
  let error;
  let at = 0;
  while (at + 5 <= length) {
    const type = b[at];
    const size = b.readInt32BE(at + 1);
    const body = at + 5;
    const end = at + 1 + size;
    if (type === 68 && !error) {
      // DataRow: a count, then each field's length (-1 for null) and text.
      const count = b.readInt16BE(body);
      const row = asArrays ? new Array(count) : {};
      let p = body + 2;
      for (let i = 0; i < count; i++) {
        const n = b.readInt32BE(p);
        p += 4;
        let value = null;
        if (n !== -1) {
          value = b.toString("utf8", p, p + n);
          p += n;
          const parse = parsers[i];
          if (parse) value = parse(value, fields[i].dataTypeID);
        }
        if (asArrays) row[i] = value;
        else row[fields[i].name] = value;
      }
      result.rows.push(row);
    } else if (type === 67 && !error) {
      // CommandComplete: 'SELECT 3', 'INSERT 0 1', 'UPDATE 2'…
      const words = b.toString("utf8", body, end - 1).split(" ");
      const counted = parseInt(words[words.length - 1], 10);
      result.command = words[0];
      if (["INSERT", "UPDATE", "DELETE", "COPY", "MERGE"].includes(words[0])) result.affectedRows += counted;
      if (!Number.isNaN(counted)) result.rowCount = counted;
    } else if (type === 69) {
      error ??= parsedMessage(b, at, end);
    } else if (type === 65) {
      // A notification (none is expected inside a transaction): passed on as PGlite's listener would.
      const { channel, payload } = parsedMessage(b, at, end);
      if (workerData.channels.includes(channel)) parentPort.postMessage({ channel, payload });
    }
    at = end;
  }
  if (error) throw error;
  if (result.command === undefined) delete result.command;
  return result;
}
function inTransaction(entry, text, params, wire) {
  if (!PREPARABLE.test(text)) {
    prepared.clear();
    return entry.tx.query(text, params, options(wire));
  }
  if (!prepared.has(text) && prepared.size >= PREPARED_LIMIT) return entry.tx.query(text, params, options(wire));
  return pg.runExclusive(async () => {
    let statement = prepared.get(text);
    if (!statement) {
      const run = (message) => pg.execProtocolStream(message, { syncToFs: false });
      const name = "pf_" + ++preparedNames;
      try {
        await run(protocol.serialize.parse({ name, text }));
        const described = await run(protocol.serialize.describe({ type: "S", name }));
        const row = described.find((x) => x.name === "rowDescription");
        statement = {
          name,
          paramTypes: parseDescribeStatementResults(described),
          fields: row ? row.fields.map((field) => ({ name: field.name, dataTypeID: field.dataTypeID })) : [],
        };
      } catch (error) {
        await run(protocol.serialize.sync());
        throw error;
      }
      await run(protocol.serialize.sync());
      prepared.set(text, statement);
    }
    const values = (params || []).map((value, i) => {
      if (value === null || value === undefined) return null;
      const serialize = pg.serializers[statement.paramTypes[i]];
      return serialize ? serialize(value) : value.toString();
    });
    const message = Buffer.concat([protocol.serialize.bind({ statement: statement.name, values }), protocol.serialize.execute({}), protocol.serialize.sync()]);
    answerLength = 0;
    await pg.execProtocolRawStream(message, { syncToFs: false, onRawData: gather });
    try {
      return readAnswer(answer, answerLength, statement, wire);
    } finally {
      if (answer.length > ANSWER_KEPT) answer = Buffer.alloc(ANSWER_SIZE);
    }
  });
}
async function handle(m) {
  switch (m.op) {
    case "open": {
      const pglite = await import("@electric-sql/pglite");
      const { PGlite } = pglite;
      ({ protocol } = pglite);
      ({ parseDescribeStatementResults } = pglite.parse);
      defaultParsers = pglite.types.parsers;
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

type Call =
  | { op: "open" | "close" | "memory" }
  | { op: "commit" | "rollback"; tx: number }
  | {
      op: "query" | "exec";
      tx?: number;
      text: string;
      params?: unknown[];
      options?: WireOptions;
    }
  | { op: "begin"; exec?: boolean; text: string; params?: unknown[]; options?: WireOptions };

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
    this.#worker.on(
      "message",
      (message: { id: number; result?: unknown; error?: Record<string, unknown>; channel?: string; payload?: string }) => {
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
      },
    );
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
    const send = <R>(call: { op: "query" | "exec"; text: string; params?: unknown[]; options?: QueryOptions }): Promise<R> => {
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
