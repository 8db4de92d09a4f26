// A card file read, parsed and checked on a thread of its own
// (docs/decisions/039-work-on-the-main-thread-has-a-ceiling.md): built to
// build/workers/card-read.mjs by scripts/build-workers.mjs and started by card-read.server.ts.
import { parentPort, type TransferListItem } from "node:worker_threads";

import { CardFileError, readAndCheckCard } from "~/infra/formats/card-file.server";

import type { CardReadAnswer, CardReadAsk } from "./card-read-protocol";

parentPort!.on("message", (ask: CardReadAsk) => {
  let answer: CardReadAnswer;
  const transfer: TransferListItem[] = [];
  try {
    const read = readAndCheckCard(new Uint8Array(ask.bytes));
    // The picture and the other images go back without a copy.
    for (const bytes of [read.file.picture, ...(read.file.assets ?? []).map((asset) => asset.bytes)]) {
      const buffer = bytes?.buffer;
      if (buffer instanceof ArrayBuffer && bytes!.byteOffset === 0 && bytes!.byteLength === buffer.byteLength && !transfer.includes(buffer))
        transfer.push(buffer);
    }
    answer = { id: ask.id, read };
  } catch (error) {
    answer =
      error instanceof CardFileError
        ? { id: ask.id, refused: { status: error.status, message: error.message, ...(error.code ? { code: error.code } : {}) } }
        : { id: ask.id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(answer, transfer);
});
