// What the server and the card-read thread say to each other (card-read.server.ts, card-read.worker.ts).
import type { ReadCard } from "~/infra/formats/card-file.server";

export interface CardReadAsk {
  id: number;
  /** The file's bytes, moved to the thread. */
  bytes: ArrayBuffer;
}

export type CardReadAnswer =
  | { id: number; read: ReadCard }
  | { id: number; refused: { status: number; message: string; code?: string } }
  | { id: number; error: string };
