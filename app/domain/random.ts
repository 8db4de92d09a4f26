// A tiny seedable PRNG for everything random in the domain (auto-fill, auto-select traits,
// extended profiles). Functions take an optional `random` so tests are deterministic and the
// server and the browser can derive the same values from a persona's id.

/** Returns a float in [0, 1), like Math.random. */
export type Random = () => number;

/** FNV-1a over UTF-16 code units, then a final avalanche so similar strings seed far apart. */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}

/** mulberry32: 32 bits of state, good enough for picking phrases, tiny and fast. */
export function mulberry32(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A generator seeded from a string (a persona id, a name) or a number. */
export function seededRandom(seed: string | number): Random {
  return mulberry32(typeof seed === "number" ? seed : hashString(seed));
}

function index(length: number, random: Random): number {
  // Guard against a custom generator that returns 1 (or slightly more).
  return Math.min(length - 1, Math.max(0, Math.floor(random() * length)));
}

/** A random integer between min and max, both included. */
export function intBetween(min: number, max: number, random: Random = Math.random): number {
  const low = Math.ceil(Math.min(min, max));
  const high = Math.floor(Math.max(min, max));
  return low + index(high - low + 1, random);
}

export function pick<T>(items: readonly T[], random: Random = Math.random): T {
  if (items.length === 0) throw new RangeError("pick() needs at least one item");
  return items[index(items.length, random)] as T;
}

/** A shuffled copy (Fisher–Yates). */
export function shuffle<T>(items: readonly T[], random: Random = Math.random): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = index(i + 1, random);
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

/**
 * n items. Distinct (the default) draws without replacement, so it returns at most
 * items.length of them, each position used once; otherwise items may repeat.
 */
export function pickMany<T>(items: readonly T[], n: number, random: Random = Math.random, distinct = true): T[] {
  const count = Math.max(0, Math.floor(n));
  if (!distinct) {
    if (count > 0 && items.length === 0) throw new RangeError("pickMany() needs at least one item");
    return Array.from({ length: count }, () => pick(items, random));
  }
  const pool = [...items];
  const chosen: T[] = [];
  while (chosen.length < count && pool.length > 0) {
    chosen.push(pool.splice(index(pool.length, random), 1)[0] as T);
  }
  return chosen;
}
