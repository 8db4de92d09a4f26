// A large card file is read, parsed and checked on a thread of its own
// (docs/decisions/039-work-on-the-main-thread-has-a-ceiling.md): build/workers/card-read.mjs
// (scripts/build-workers.mjs). The file's bytes move to the thread without a copy; the card comes
// back as a structured clone. A small file is read in place, and so is every file where the thread
// is not built (the development server).
import { CardFileError, readAndCheckCard, type ReadCard } from "~/infra/formats/card-file.server";

import type { CardReadAnswer, CardReadAsk } from "./card-read-protocol";
import { ComputeThread, ThreadDeadlineError, threadFile } from "./thread.server";

export const CARD_READ_THREAD = {
  /** Files from this size are read on the thread: a 200-entry lorebook's card is about 1 MB. */
  minBytes: 256 * 1024,
  /** How long a read may take on its thread before the thread is stopped. */
  deadlineMs: 10_000,
  /** The thread stops after this long without a file. */
  idleMs: 30_000,
};

let thread: ComputeThread<CardReadAsk, CardReadAnswer> | null | undefined;

function cardReadThread(): ComputeThread<CardReadAsk, CardReadAnswer> | null {
  if (thread !== undefined) return thread;
  const file = threadFile("card-read");
  thread = file
    ? new ComputeThread<CardReadAsk, CardReadAnswer>(file, {
        what: "Reading the card",
        deadlineMs: () => CARD_READ_THREAD.deadlineMs,
        idleMs: CARD_READ_THREAD.idleMs,
        maxOldGenerationSizeMb: 256,
      })
    : null;
  return thread;
}

/**
 * readAndCheckCard, on the thread for a large file. A refused file is a CardFileError, as in
 * place; a read past the deadline is a CardFileError too (the file is refused, nothing stored).
 */
export async function readCardOffThread(bytes: Uint8Array): Promise<ReadCard> {
  const worker = bytes.byteLength >= CARD_READ_THREAD.minBytes ? cardReadThread() : null;
  if (!worker) return readAndCheckCard(bytes);
  // A copy of its own to move: the caller's bytes stay usable.
  const moved = bytes.slice().buffer as ArrayBuffer;
  let answer: CardReadAnswer;
  try {
    answer = await worker.ask({ bytes: moved }, [moved]);
  } catch (error) {
    if (error instanceof ThreadDeadlineError)
      throw new CardFileError(
        400,
        `This card took longer than ${CARD_READ_THREAD.deadlineMs / 1000} s to read and was refused.`,
        "card_read_timeout",
      );
    throw error;
  }
  if ("refused" in answer) throw new CardFileError(answer.refused.status, answer.refused.message, answer.refused.code);
  if ("error" in answer) throw new Error(answer.error);
  return answer.read;
}

/** Stops the card-read thread (tests; a server that stops). */
export function closeCardReadThread(): void {
  thread?.close();
}

/** Whether the card-read thread runs now (tests). */
export function cardReadThreadRunning(): boolean {
  return thread?.running ?? false;
}
