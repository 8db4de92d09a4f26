// The lore match on a thread of its own (docs/decisions/039-work-on-the-main-thread-has-a-ceiling.md):
// built to build/workers/lore-match.mjs by scripts/build-workers.mjs and started by
// lore-match.server.ts. It keeps the last lorebooks it was sent, by the number the server gave
// each, and answers a match with the ids of the entries it found.
import { parentPort } from "node:worker_threads";

import { matchLore, type LoreBook } from "~/domain/lorebook";

import type { LoreMatchAnswer, LoreMatchAsk } from "./lore-match-protocol";

const KEPT_BOOKS = 16;
const books = new Map<number, LoreBook>();

// The pattern keys share a time allowance (wall-clock): a first match on a cold thread would spend
// part of it on warming up the matcher. It is warmed here, before the first ask is read.
matchLore(
  {
    book: {},
    entries: [
      {
        id: "warm-up",
        name: "",
        keys: ["\\bwarm\\W+up\\b", "q\\d+z"],
        secondary_keys: [],
        selective: false,
        content: "-",
        enabled: true,
        constant: false,
        insertion_order: 0,
        case_sensitive: false,
        comment: "",
        use_regex: true,
        kind: null,
        extensions: {},
        card: {},
      },
    ],
  },
  ["A warm-up for the matcher, q1z."],
);

parentPort!.on("message", (ask: LoreMatchAsk) => {
  let answer: LoreMatchAnswer;
  try {
    if (ask.book) {
      books.delete(ask.bookId);
      books.set(ask.bookId, ask.book);
      while (books.size > KEPT_BOOKS) books.delete(books.keys().next().value!);
    }
    const book = books.get(ask.bookId);
    if (!book) answer = { id: ask.id, missing: true };
    else {
      const match = matchLore(book, ask.messages, ask.patternMs === undefined ? {} : { patternMs: ask.patternMs });
      answer = {
        id: ask.id,
        ids: match.entries.map((entry) => entry.id),
        characters: match.characters,
        patternsSkipped: match.patternsSkipped,
      };
    }
  } catch (error) {
    answer = { id: ask.id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(answer);
});
