// One thread of the server's own for work that must not hold its main thread
// (docs/decisions/039-work-on-the-main-thread-has-a-ceiling.md): a Worker on a file that
// scripts/build-workers.mjs built into build/workers, started at the first ask, stopped after a
// quiet spell, and stopped at a deadline (every ask waiting on it then fails). Each ask carries an
// `id`; the thread answers with the same `id`.
import { existsSync } from "node:fs";
import path from "node:path";
import { Worker, type TransferListItem } from "node:worker_threads";

export class ThreadDeadlineError extends Error {
  constructor(what: string, ms: number) {
    super(`${what} took longer than ${ms / 1000} s and was stopped.`);
    this.name = "ThreadDeadlineError";
  }
}

interface Waiting {
  resolve: (answer: { id: number }) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

export class ComputeThread<Ask extends { id: number }, Answer extends { id: number }> {
  #worker: Worker | undefined;
  #waiting = new Map<number, Waiting>();
  #nextAsk = 1;
  #idle: NodeJS.Timeout | undefined;
  /** Called when the thread ends (a new one starts empty). */
  onStop: (() => void) | undefined;

  constructor(
    readonly file: string,
    readonly options: { what: string; deadlineMs: () => number; idleMs: number; maxOldGenerationSizeMb: number },
  ) {}

  get running(): boolean {
    return this.#worker !== undefined;
  }

  #start(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(this.file, { resourceLimits: { maxOldGenerationSizeMb: this.options.maxOldGenerationSizeMb } });
    worker.unref();
    worker.on("message", (answer: Answer) => {
      const waiting = this.#waiting.get(answer.id);
      if (!waiting) return;
      this.#waiting.delete(answer.id);
      clearTimeout(waiting.timer);
      waiting.resolve(answer);
      this.#quiet();
    });
    worker.on("error", (error: Error) => this.#stop(error));
    worker.on(
      "exit",
      (code) => this.#worker === worker && this.#stop(new Error(`${this.options.what}: the thread ended (exit code ${code}).`)),
    );
    this.#worker = worker;
    return worker;
  }

  /** Ends the thread; every ask waiting on it fails with `reason`. */
  #stop(reason: Error): void {
    const worker = this.#worker;
    this.#worker = undefined;
    clearTimeout(this.#idle);
    for (const [id, waiting] of this.#waiting) {
      clearTimeout(waiting.timer);
      this.#waiting.delete(id);
      waiting.reject(reason);
    }
    this.onStop?.();
    if (worker) void worker.terminate();
  }

  #quiet(): void {
    clearTimeout(this.#idle);
    if (this.#waiting.size) return;
    this.#idle = setTimeout(() => this.#waiting.size === 0 && this.#stop(new Error("idle")), this.options.idleMs);
    this.#idle.unref();
  }

  /** Sends `ask` (with a fresh id) and waits for the thread's answer, or the deadline. */
  ask(ask: Omit<Ask, "id">, transfer: readonly TransferListItem[] = []): Promise<Answer> {
    const worker = this.#start();
    clearTimeout(this.#idle);
    const id = this.#nextAsk++;
    return new Promise<Answer>((resolve, reject) => {
      const ms = this.options.deadlineMs();
      const timer = setTimeout(() => this.#stop(new ThreadDeadlineError(this.options.what, ms)), ms);
      this.#waiting.set(id, { resolve: resolve as (answer: { id: number }) => void, reject, timer });
      worker.postMessage({ ...ask, id }, transfer);
    });
  }

  /** Stops the thread now (tests; a server that stops). */
  close(): void {
    this.#stop(new Error("closed"));
  }
}

/**
 * The built file of a thread (build/workers/<name>.mjs), or null where it is not used: missing
 * (not built), or on the development server, whose compiler rebuilds the app but not the threads.
 */
export function threadFile(name: string): string | null {
  const file = path.join(process.env.APP_ROOT ?? process.cwd(), "build", "workers", `${name}.mjs`);
  if (process.env.NODE_ENV === "development") return null;
  if (existsSync(file)) return file;
  if (process.env.NODE_ENV === "production")
    console.warn(`[compute] ${file} is missing: its work runs on the main thread (npm run build makes it)`);
  return null;
}
