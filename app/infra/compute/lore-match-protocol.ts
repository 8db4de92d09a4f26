// What the server and the lore-match thread say to each other (lore-match.server.ts, lore-match.worker.ts).
import type { LoreBook } from "~/domain/lorebook";

export interface LoreMatchAsk {
  id: number;
  /** The server's number for the lorebook; `book` comes with it the first time (or when the thread lost it). */
  bookId: number;
  book?: LoreBook;
  messages: string[];
  /** Milliseconds the pattern keys may take together; LORE_LIMITS.patternMs when not said. */
  patternMs?: number;
}

export type LoreMatchAnswer =
  | { id: number; ids: string[]; characters: number; patternsSkipped: number }
  | { id: number; missing: true }
  | { id: number; error: string };
