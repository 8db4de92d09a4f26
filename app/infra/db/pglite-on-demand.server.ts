// The embedded database as a server of its own, open only while it is used
// (docs/decisions/032-one-database-path.md, 012-a-small-server.md). PGlite is a whole Postgres in
// WebAssembly: open, it holds 120–250 MB. It is served on a unix socket (pglite-server.mjs) in a
// worker thread, or in this process for tests and PGLITE_THREAD=0, and reached through
// postgres.js like any PostgreSQL server: `connect` is postgres.js's documented `socket` option,
// so the first connection opens the database and, when postgres.js closes its idle connection
// (its `idle_timeout`), the database is closed too (a worker: everything it held goes back to
// the operating system). Closing is PGlite's clean shutdown, so nothing committed is at risk;
// the data directory's lock stays with this process throughout.
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";

import { servePglite } from "./pglite-server.mjs";

export interface DatabaseThreadMemory {
  /** The database thread's JavaScript heap, used and reserved. */
  heapUsedBytes: number;
  heapTotalBytes: number;
}

interface Served {
  stop(): Promise<void>;
  dump?(): Promise<Blob>;
  memory?(): Promise<DatabaseThreadMemory>;
}

export interface EmbeddedServerOptions {
  /** PGlite's data directory; in memory without one (then it is never closed while in use). */
  dataDir?: string;
  /** In memory and in this process: start as this dump of a database (tests: the migrated schema). */
  loadDataDir?: Blob;
  startParams: string[];
  /** The worker's file (pglite-server.worker.mjs) to serve from a thread of its own; in this process without one. */
  workerFile?: string;
  /** Close the database when its last connection closes (only with a data directory). */
  releaseWhenIdle: boolean;
  events?: {
    /** The database was opened for a connection, after `ms`. */
    opened?(ms: number): void;
    /** The database was closed after its connection closed. */
    released?(): void;
    /** Closing it failed (logged; the next connection opens it again). */
    failed?(error: unknown): void;
  };
}

export class EmbeddedServer {
  readonly socketPath: string;
  readonly #dir: string;
  #served: Promise<Served> | undefined;
  #stopping: Promise<void> | undefined;
  #sockets = 0;
  #closed = false;

  constructor(private readonly options: EmbeddedServerOptions) {
    // A directory only this user may enter (mkdtemp makes it 0700): the socket's peer is superuser.
    this.#dir = mkdtempSync(path.join(os.tmpdir(), "personaforge-db-"));
    this.socketPath = path.join(this.#dir, ".s.PGSQL.5432");
  }

  /** postgres.js's `socket` option: opens the database if it is closed, then connects to it. */
  readonly connect = async (): Promise<net.Socket> => {
    if (this.#closed) throw new Error("The database is closed.");
    if (this.#stopping) await this.#stopping.catch(() => {});
    await this.open();
    const socket = net.connect(this.socketPath);
    this.#sockets++;
    socket.once("close", () => {
      this.#sockets--;
      if (this.#sockets === 0 && this.options.releaseWhenIdle && this.options.dataDir) {
        this.release().catch((error: unknown) => this.options.events?.failed?.(error));
      }
    });
    return socket;
  };

  /** Opens the database now (the first connection would). */
  open(): Promise<Served> {
    if (!this.#served) {
      const started = performance.now();
      const served = this.#serve().then(
        (ready) => {
          this.options.events?.opened?.(performance.now() - started);
          return ready;
        },
        (error: unknown) => {
          if (this.#served === served) this.#served = undefined;
          throw error;
        },
      );
      this.#served = served;
    }
    return this.#served;
  }

  /** The open database as a dump (in this process only; tests make their migrated copy with it). */
  async dump(): Promise<Blob> {
    const served = await this.open();
    if (!served.dump) throw new Error("Only a database served in this process can be dumped.");
    return served.dump();
  }

  /** The database thread's memory, or null while it is closed (asking never opens it); undefined without a thread. */
  async memory(): Promise<DatabaseThreadMemory | null | undefined> {
    if (!this.options.workerFile) return undefined;
    const served = this.#served;
    return served ? ((await (await served).memory?.()) ?? null) : null;
  }

  /** Closes the database unless a connection is open (the next connection opens it again). */
  async release(): Promise<void> {
    const served = this.#served;
    if (!served || this.#sockets > 0) return;
    this.#served = undefined;
    const stopping = served
      .then((ready) => ready.stop())
      .finally(() => {
        if (this.#stopping === stopping) this.#stopping = undefined;
      });
    this.#stopping = stopping;
    await stopping;
    this.options.events?.released?.();
  }

  /** Closes the database for good (the client's connections must be ended first). */
  async close(): Promise<void> {
    this.#closed = true;
    const served = this.#served;
    this.#served = undefined;
    try {
      await this.#stopping?.catch(() => {});
      if (served) await (await served.catch(() => undefined))?.stop();
    } finally {
      rmSync(this.#dir, { recursive: true, force: true });
    }
  }

  #serve(): Promise<Served> {
    const { dataDir, startParams, workerFile, loadDataDir } = this.options;
    const options = { dataDir, socketPath: this.socketPath, startParams, loadDataDir };
    return workerFile ? serveInWorker(workerFile, options, () => this.#lost()) : servePglite(options);
  }

  /** The worker ended by itself (it failed): the next connection opens a new one. */
  #lost(): void {
    this.#served = undefined;
  }
}

/** servePglite in a worker thread; `lost` is called if the thread ends without being stopped. */
async function serveInWorker(file: string, options: Parameters<typeof servePglite>[0], lost: () => void): Promise<Served> {
  const worker = new Worker(file, { workerData: options });
  const answers: ((message: { memory?: DatabaseThreadMemory; stopped?: boolean; error?: string }) => void)[] = [];
  let stopping = false;
  await new Promise<void>((resolve, reject) => {
    const failed = (error: Error) => reject(error);
    worker.once("error", failed);
    worker.once("exit", (code) => reject(new Error(`The database thread ended while opening (exit code ${code}).`)));
    worker.once("message", (message: { ready?: boolean; failed?: string }) => {
      worker.off("error", failed);
      if (message.ready) resolve();
      else reject(new Error(message.failed ?? "The database thread could not open the database."));
    });
  }).catch(async (error: unknown) => {
    await worker.terminate();
    throw error;
  });
  worker.removeAllListeners("exit");
  worker.on("message", (message) => answers.shift()?.(message));
  worker.on("error", () => {});
  worker.on("exit", () => {
    for (const answer of answers.splice(0)) answer({ stopped: true, error: "The database thread ended." });
    if (!stopping) lost();
  });
  const ask = <T>(message: string, read: (answer: { memory?: DatabaseThreadMemory; stopped?: boolean; error?: string }) => T) =>
    new Promise<T>((resolve) => {
      answers.push((answer) => resolve(read(answer)));
      worker.postMessage(message);
    });
  return {
    memory: () => ask("memory", (answer) => answer.memory ?? { heapUsedBytes: 0, heapTotalBytes: 0 }),
    async stop() {
      stopping = true;
      const answer = await ask("stop", (reply) => reply);
      await worker.terminate();
      if (answer.error) throw new Error(`Closing the database failed: ${answer.error}`);
    },
  };
}
