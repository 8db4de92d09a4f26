// A large card file read, parsed and checked on a thread of its own
// (docs/decisions/039-work-on-the-main-thread-has-a-ceiling.md), with the thread built by the test
// run's set-up (tests/support/built-workers.ts): the same card, findings and refusals as in place,
// the server's thread free meanwhile, and small files read in place.
import { readFileSync } from "node:fs";
import path from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { CardFileError, readAndCheckCard } from "~/infra/formats/card-file.server";

import { CARD_READ_THREAD, cardReadThreadRunning, closeCardReadThread, readCardOffThread } from "./card-read.server";

const corpus = (file: string) => new Uint8Array(readFileSync(path.join(import.meta.dirname, "../../../tests/fixtures/cards/corpus", file)));

/** A parsed card without the ids each read gives its lorebook entries (new UUIDs every time). */
const withoutEntryIds = (value: unknown) =>
  JSON.parse(
    JSON.stringify(value, (key, item) => (key === "id" && typeof item === "string" && /^[0-9a-f-]{36}$/.test(item) ? "<id>" : item)),
  );

afterEach(() => {
  closeCardReadThread();
});

describe("card files read off the main thread", () => {
  it("gives the same card, findings and picture as the read in place", async () => {
    for (const file of ["bunny-guide.v3.png", "gm-dice-of-fate.v2.png"]) {
      const bytes = corpus(file);
      expect(bytes.byteLength).toBeGreaterThanOrEqual(CARD_READ_THREAD.minBytes);
      const inPlace = readAndCheckCard(bytes);
      const offThread = await readCardOffThread(bytes);
      expect(cardReadThreadRunning()).toBe(true);
      expect(withoutEntryIds(offThread.parsed)).toEqual(withoutEntryIds(inPlace.parsed));
      expect(offThread.findings).toEqual(inPlace.findings);
      expect(offThread.file.card).toEqual(inPlace.file.card);
      expect(offThread.file.container).toEqual(inPlace.file.container);
      expect(Buffer.from(offThread.file.picture!).equals(Buffer.from(inPlace.file.picture!))).toBe(true);
      // The caller's bytes are still whole.
      expect(bytes.byteLength).toBe(readFileSync(path.join(import.meta.dirname, "../../../tests/fixtures/cards/corpus", file)).byteLength);
    }
  });

  it("refuses what the read in place refuses, with the same status and message", async () => {
    const bad = new Uint8Array(CARD_READ_THREAD.minBytes + 1000);
    bad.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    let inPlace: CardFileError | undefined;
    try {
      readAndCheckCard(bad);
    } catch (error) {
      inPlace = error as CardFileError;
    }
    expect(inPlace).toBeInstanceOf(CardFileError);
    await expect(readCardOffThread(bad)).rejects.toMatchObject({
      name: "CardFileError",
      status: inPlace!.status,
      message: inPlace!.message,
    });
  });

  it("leaves the server's thread free while it reads", async () => {
    let finished = false;
    const read = readCardOffThread(corpus("gm-dice-of-fate.v2.png")).then(() => (finished = true));
    const timerRanFirst = await new Promise<boolean>((resolve) => setTimeout(() => resolve(!finished), 0));
    expect(timerRanFirst).toBe(true);
    await read;
  });

  it("reads a small file in place, without a thread", async () => {
    const bytes = corpus("tavernkit-minimal.v2.json");
    expect(bytes.byteLength).toBeLessThan(CARD_READ_THREAD.minBytes);
    expect(withoutEntryIds((await readCardOffThread(bytes)).parsed)).toEqual(withoutEntryIds(readAndCheckCard(bytes).parsed));
    expect(cardReadThreadRunning()).toBe(false);
  });
});
