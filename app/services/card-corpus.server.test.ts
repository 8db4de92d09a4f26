// The corpus of public cards (tests/fixtures/cards, SOURCES.md): every card imports, is ready to
// chat after at most the finishing step, and exported unedited in its own container comes out with
// every field equal to what came in (docs/cards.md, Round trips).
import { readdirSync, readFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), "pf-card-corpus-"));

const { createCreator, installTestDatabase } = await import("../../tests/support/test-database");
const { closeDatabase } = await import("~/infra/db/db.server");
const { resetRateLimits } = await import("~/infra/web/rate-limit.server");
const { readCardFromPng } = await import("~/infra/formats/png.server");
const { readZip } = await import("~/infra/formats/zip.server");
const { cardRoundTripDifferences } = await import("../../tests/support/card-round-trip");
const exporter = await import("./persona-export.server");
const personasService = await import("./personas.server");

const DIR = path.join(import.meta.dirname, "../../tests/fixtures/cards/corpus");
const corpus = JSON.parse(readFileSync(path.join(DIR, "../corpus.json"), "utf8")) as {
  file: string;
  format: "json" | "png" | "charx";
  spec: number;
}[];

let handle: Awaited<ReturnType<typeof installTestDatabase>>;
beforeAll(async () => {
  handle = await installTestDatabase();
});
beforeEach(() => resetRateLimits());
afterAll(async () => {
  await closeDatabase();
});

const LIMITS = { maxEntries: 500, maxEntryBytes: 8 * 1024 * 1024, maxTotalBytes: 24 * 1024 * 1024 };

/** The card a file holds, read the way the importer reads it. */
function cardIn(bytes: Uint8Array, format: string): unknown {
  if (format === "png") return readCardFromPng(bytes, { maxBytes: 8 * 1024 * 1024 });
  if (format === "charx") {
    const [entry] = readZip(bytes, LIMITS, (name) => name === "card.json");
    return JSON.parse(Buffer.from(entry!.bytes).toString("utf8"));
  }
  return JSON.parse(
    Buffer.from(bytes)
      .toString("utf8")
      .replace(/^\uFEFF/, ""),
  );
}

describe("the public card corpus", () => {
  it("lists every file it holds, at least 42 cards of V1, V2 and V3 in JSON, PNG and CharX", () => {
    expect(readdirSync(DIR).sort()).toEqual(corpus.map((card) => card.file).sort());
    expect(corpus.length).toBeGreaterThanOrEqual(42);
    expect(new Set(corpus.map((card) => card.spec))).toEqual(new Set([1, 2, 3]));
    expect(new Set(corpus.map((card) => card.format))).toEqual(new Set(["json", "png", "charx"]));
  });

  for (const { file, format } of corpus) {
    it(`${file}: imports, is ready to chat after at most the finishing step, and goes out as it came`, async () => {
      const user = await createCreator(handle, "active");
      const bytes = new Uint8Array(readFileSync(path.join(DIR, file)));
      const imported = await exporter.importCardFile(user, bytes);
      let persona = await personasService.getPersona(user, imported.id);
      if (exporter.canFinishImport(persona)) {
        const guess = imported.finishImport!.guess;
        persona = await exporter.finishImport(user, imported.id, { ...guess, gender: guess.gender ?? "other" });
      }
      expect(persona.status).toBe("active");
      const exportFormat = format === "png" ? "card-png" : format === "charx" ? "charx" : "card-json";
      const out = await exporter.exportFile(user, imported.id, exportFormat);
      const body = typeof out.body === "string" ? new TextEncoder().encode(out.body) : out.body;
      expect(cardRoundTripDifferences(cardIn(bytes, format), cardIn(body, format))).toEqual([]);
    });
  }
});
