// A lorebook's history cannot fill the disk (docs/product.md, Lore): each distinct entry is stored
// once and a version references its entries, so toggling one entry of a 200-entry lorebook 1,000
// times grows the database by less than 5 MB, and every version still reads back as it was. On
// PGlite in npm test and on PostgreSQL 15 with DATABASE_URL.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), "pf-lore-disk-"));

const { createCreator, installTestDatabase } = await import("../../tests/support/test-database");
const { closeDatabase } = await import("~/infra/db/db.server");
const { maintenanceSettled } = await import("~/infra/db/maintenance.server");
const personasService = await import("./personas.server");
const lore = await import("./lore.server");
const history = await import("./persona-history.server");

let handle: Awaited<ReturnType<typeof installTestDatabase>>;
beforeAll(async () => {
  handle = await installTestDatabase();
});
afterAll(async () => {
  await closeDatabase();
});

const MB = 1024 * 1024;

/** What the database takes on disk now, after the maintenance the app runs. */
async function databaseBytes(): Promise<number> {
  const [row] = await handle.raw.rows<{ bytes: string }>(`select pg_database_size(current_database())::text as bytes`);
  return Number(row!.bytes);
}

// A full lorebook, each entry near the size creators write: ~600 characters of content.
const entry = (i: number) => ({
  name: `Place ${i}`,
  keys: [`place ${i}`, `landmark ${i}`, `district ${i}`],
  content: `Place ${i} is a district of the old harbour town where the persona grew up. `.repeat(8).slice(0, 600),
  kind: "place",
});

describe("a lorebook's history", () => {
  it("toggling one entry of 200 a thousand times grows the database by less than 5 MB; every version reads back", async () => {
    const user = await createCreator(handle, "active", { first: "Disk", last: "Keeper" });
    const persona = await personasService.createPersona(user, {
      name: "Kira Moon",
      type: "vtuber",
      gender: "female",
      ageRange: "18-24",
      interests: ["gaming"],
      description: "A late-night streamer.",
      personality: ["Outgoing"],
      backstory: "Kira grew up in the old harbour town.",
    });
    const added = await lore.addLoreEntries(
      user,
      persona.id,
      Array.from({ length: 200 }, (_, i) => entry(i)),
    );
    const toggled = added[100]!;
    const before = await databaseBytes();
    for (let i = 0; i < 1000; i++) await lore.setLoreEntryEnabled(user, persona.id, toggled.id, i % 2 === 1);
    await maintenanceSettled();
    const grown = (await databaseBytes()) - before;
    expect(grown, `1,000 toggles grew the database by ${(grown / MB).toFixed(2)} MB`).toBeLessThan(5 * MB);

    // Every version still holds its whole lorebook: the toggled entry off, then on, in its place.
    const { latest } = await history.listVersions(user, persona.id);
    for (const version of [latest - 1, latest]) expect((await history.getVersion(user, persona.id, version)).lore).toContain("Place 199");
    const [was, now] = [await history.getVersion(user, persona.id, latest - 1), await history.getVersion(user, persona.id, latest)];
    expect(was.lore).not.toEqual(now.lore);
    expect(now.lore).toContain("Place 0");
  }, 300_000);
});
