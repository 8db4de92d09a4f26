// The lore match off the main thread (docs/decisions/039-work-on-the-main-thread-has-a-ceiling.md),
// with the thread built by the test run's set-up (tests/support/built-workers.ts): the same answers
// as the match in place, the server's thread free meanwhile, a thread stopped at its deadline, and
// small lorebooks matched in place.
import { afterEach, describe, expect, it } from "vitest";

import { matchLore, type LoreBook, type LoreEntry } from "~/domain/lorebook";

import {
  closeLoreThread,
  LORE_THREAD,
  LoreMatchDeadlineError,
  loreThreadRunning,
  matchedOffThread,
  matchLoreOffThread,
} from "./lore-match.server";

const WORDS = ["lantern", "harbor", "sister", "orchard", "violin", "comet", "archive", "meadow", "signal", "ember"];

function entry(i: number, keys: string[], options: Partial<LoreEntry> = {}): LoreEntry {
  return {
    id: `entry-${i}`,
    name: `Entry ${i}`,
    keys,
    secondary_keys: [],
    selective: false,
    content: `What the persona knows about subject ${i}.`,
    enabled: true,
    constant: false,
    insertion_order: i,
    case_sensitive: false,
    comment: "",
    use_regex: false,
    kind: null,
    extensions: {},
    card: {},
    ...options,
  };
}

/** 200 entries of 20 pattern keys each (the attack's and the bench's shapes, none of them slow in RE2). */
function heavyBook(): LoreBook {
  const entries = Array.from({ length: 200 }, (_, e) =>
    entry(
      e,
      Array.from({ length: 20 }, (_, k) => {
        const a = WORDS[(e + k) % WORDS.length]!;
        const b = WORDS[(e + 3 * k + 1) % WORDS.length]!;
        return k === 19 && e % 7 === 0 ? `\\b${a}\\W+${b}` : `\\b(?:${a}|${b})[\\p{L}'-]{0,12}\\s+(?:\\w+\\s+){0,6}q${e}x${k}z`;
      }),
      { use_regex: true },
    ),
  );
  return { entries, book: {} };
}

const MESSAGE = Array.from({ length: 400 }, (_, i) => `${WORDS[i % WORDS.length]} ${WORDS[(i * 3 + 1) % WORDS.length]}`)
  .join(" ")
  .slice(0, 4000);

afterEach(() => {
  closeLoreThread();
});

describe("lore matched off the main thread", () => {
  it("gives the same entries as the match in place, and keeps the thread for the next match", async () => {
    // A few pattern keys (well within the patterns' time allowance), and many plain keys.
    const patterns: LoreBook = {
      entries: Array.from({ length: 10 }, (_, e) =>
        entry(e, [`\\b${WORDS[e % WORDS.length]}\\W+${WORDS[(e + 1) % WORDS.length]}`, `q${e}x\\d+z`], { use_regex: true }),
      ),
      book: {},
    };
    const plain: LoreBook = {
      entries: Array.from({ length: 150 }, (_, e) =>
        entry(
          e,
          Array.from({ length: 10 }, (_, k) =>
            k === 9 && e % 11 === 0 ? WORDS[e % WORDS.length]! : `${WORDS[(e + k) % WORDS.length]}-${e}-${k}`,
          ),
        ),
      ),
      book: {},
    };
    // The pattern keys' allowance is wall-clock time, which a loaded machine can spend on either
    // side: the answers are compared with time enough (the allowance has tests of its own).
    const ample = { patternMs: 60_000 };
    for (const book of [patterns, plain]) {
      expect(matchedOffThread(book)).toBe(true);
      const messages = ["Hello there.", MESSAGE];
      const inPlace = matchLore(book, messages, ample);
      const offThread = await matchLoreOffThread(book, messages, book, ample);
      expect(loreThreadRunning()).toBe(true);
      expect(offThread.entries.map((e) => e.id)).toEqual(inPlace.entries.map((e) => e.id));
      expect(offThread.entries.length).toBeGreaterThan(0);
      expect(offThread.characters).toBe(inPlace.characters);
      // The entries are the caller's own objects, not copies from the thread.
      expect(offThread.entries[0]).toBe(book.entries.find((e) => e.id === offThread.entries[0]!.id));
      const again = await matchLoreOffThread(book, ["What about the comet?"], book, ample);
      expect(again.entries.map((e) => e.id)).toEqual(matchLore(book, ["What about the comet?"], ample).entries.map((e) => e.id));
    }
  });

  it("leaves the server's thread free while it matches", async () => {
    const book = heavyBook();
    let finished = false;
    const match = matchLoreOffThread(book, ["Hello there.", MESSAGE]).then(() => (finished = true));
    // A timer due at once runs before the match is answered: the match did not hold this thread.
    const timerRanFirst = await new Promise<boolean>((resolve) => setTimeout(() => resolve(!finished), 0));
    expect(timerRanFirst).toBe(true);
    await match;
  });

  it("stops a match that runs past its deadline, and starts a new thread for the next one", async () => {
    const book = heavyBook();
    const deadline = LORE_THREAD.deadlineMs;
    LORE_THREAD.deadlineMs = 1;
    try {
      await expect(matchLoreOffThread(book, ["Hello there.", MESSAGE])).rejects.toBeInstanceOf(LoreMatchDeadlineError);
      expect(loreThreadRunning()).toBe(false);
    } finally {
      LORE_THREAD.deadlineMs = deadline;
    }
    const next = await matchLoreOffThread(book, ["the comet"]);
    expect(next.entries.map((e) => e.id)).toEqual(matchLore(book, ["the comet"]).entries.map((e) => e.id));
  });

  it("matches a small lorebook of plain keys in place, without a thread", async () => {
    const book: LoreBook = { entries: [entry(1, ["sister", "Mina"]), entry(2, ["harbor"])], book: {} };
    expect(matchedOffThread(book)).toBe(false);
    const match = await matchLoreOffThread(book, ["How is your sister?"]);
    expect(match.entries.map((e) => e.id)).toEqual(["entry-1"]);
    expect(loreThreadRunning()).toBe(false);
  });
});
