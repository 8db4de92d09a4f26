// Values kept between requests for a user (a checked session, a page's data), emptied the moment
// the database says that user changed (the store of one declared read, app/infra/db/kept-reads.server.ts). A lookup that was asked of the
// database before a change and answers after it must not be kept: `epoch` is read before
// asking, and `keep` refuses once any change has arrived since.
export class KeptPerUser<V> {
  readonly #entries = new Map<string, { userId: string; value: V; keptAt: number }>();
  readonly #byUser = new Map<string, Set<string>>();
  #epoch = 0;

  constructor(
    /** At most this many entries; the oldest go first. */
    readonly limit = 10_000,
    /** An entry is not used after this long, whatever the notices say. */
    readonly maxAgeMs = 5 * 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Changes seen so far: read it before asking the database, hand it to keep(). */
  get epoch(): number {
    return this.#epoch;
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: string, userId: string): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.userId !== userId || this.now() - entry.keptAt >= this.maxAgeMs) {
      this.#drop(key);
      return undefined;
    }
    return entry.value;
  }

  /** Keeps `value` unless a change arrived after `epoch` (then the answer may be stale). */
  keep(key: string, userId: string, value: V, epoch: number): boolean {
    if (epoch !== this.#epoch) return false;
    this.#drop(key);
    this.#entries.set(key, { userId, value, keptAt: this.now() });
    let keys = this.#byUser.get(userId);
    if (!keys) this.#byUser.set(userId, (keys = new Set()));
    keys.add(key);
    while (this.#entries.size > this.limit) this.#drop(this.#entries.keys().next().value as string);
    return true;
  }

  forgetUser(userId: string): void {
    this.#epoch++;
    for (const key of this.#byUser.get(userId) ?? []) this.#entries.delete(key);
    this.#byUser.delete(userId);
  }

  forgetAll(): void {
    this.#epoch++;
    this.#entries.clear();
    this.#byUser.clear();
  }

  #drop(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    const keys = this.#byUser.get(entry.userId);
    keys?.delete(key);
    if (keys?.size === 0) this.#byUser.delete(entry.userId);
  }
}
