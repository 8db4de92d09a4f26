// Card imports against the database's own size checks (personas.card_meta at most 2 MB and
// personas.extended at most 64 KB, measured by PostgreSQL in bytes of the jsonb text): the
// importer measures the same way, so a card the database would refuse is a 413 with a
// readable message and nothing stored, and one just under the limit is imported.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), "pf-card-limits-"));

const { createCreator, installTestDatabase } = await import("../../tests/support/test-database");
const { closeDatabase, withServiceRole } = await import("~/infra/db/db.server");
const { personas, personaVersions } = await import("~/infra/db/schema");
const { resetRateLimits } = await import("~/infra/web/rate-limit.server");
const { CARD_LIMITS, CARD_MESSAGES, parseCard } = await import("~/domain/character-card");
const { jsonbTextBytes } = await import("~/domain/json-limits");
const personasService = await import("./personas.server");
const exporter = await import("./persona-export.server");

let handle: Awaited<ReturnType<typeof installTestDatabase>>;
beforeAll(async () => {
  handle = await installTestDatabase();
});
beforeEach(() => resetRateLimits());
afterAll(async () => {
  await closeDatabase();
});

const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
/** A V3 card whose kept data is `extensions` plus `notes` as its creator notes. */
const card = (extensions: Record<string, unknown>, notes = "") => ({
  spec: "chara_card_v3",
  spec_version: "3.0",
  data: { name: "Big Card", description: "A traveller.", personality: "Curious", creator_notes: notes, extensions },
});
/** How many bytes the database will count for what the importer keeps of a card. */
function keptBytes(value: unknown): number {
  const parsed = parseCard(value);
  if (!parsed.ok) throw new Error(parsed.message);
  return jsonbTextBytes(parsed.card.cardMeta);
}

async function storedOf(userId: string) {
  return withServiceRole("test", async (tx) => ({
    personas: await tx.select({ id: personas.id }).from(personas).where(eq(personas.userId, userId)),
    versions: await tx.select({ id: personaVersions.id }).from(personaVersions).where(eq(personaVersions.userId, userId)),
  }));
}

describe("measuring as the database does", () => {
  it("jsonbTextBytes is octet_length(value::jsonb::text)", async () => {
    const values = [
      { a: [1, 2, { b: null }], c: "ユキ 🌃 é", d: true, e: false, 'k"ey': "line\nbreak\ttab\u0001" },
      [1e21, 1.5e-7, -2.5e-12, 123.456, -0, 5e-324, 1.7976931348623157e308, 0.1 + 0.2],
      { nested: { deeper: { deepest: ["x", "", {}, []] } }, emoji: "👩‍👩‍👧", slash: "a/b\\c", del: "\u007f", sep: "\u2028" },
    ];
    for (const value of values) {
      const [{ n }] = await handle.raw.rows<{ n: number }>("select octet_length($1::jsonb::text)::int as n", [JSON.stringify(value)]);
      expect(jsonbTextBytes(value), JSON.stringify(value).slice(0, 60)).toBe(n);
    }
  });
});

describe("card size", () => {
  it("a 2.5 MB card is a 413 that says why, and nothing is stored", async () => {
    const user = await createCreator(handle, "active");
    // 1.25 million two-byte characters: far fewer characters than bytes.
    const big = card({ lore: "é".repeat(1_250_000) });
    await expect(exporter.importCardFile(user, encode(big))).rejects.toMatchObject({ status: 413, message: CARD_MESSAGES.tooLarge });
    expect(CARD_MESSAGES.tooLarge).toBe("This character card is too large: at most 2 MB of its data can be kept.");
    expect(await storedOf(user.id)).toEqual({ personas: [], versions: [] });
  });

  it("just under the database's limit (multi-byte characters) is imported; one byte more is a 413", async () => {
    const user = await createCreator(handle, "active");
    const lore = "ü".repeat(1_000_000);
    const base = keptBytes(card({ lore }, "n"));
    const notes = "n".repeat(1 + CARD_LIMITS.metaMaxBytes - base);
    const atLimit = card({ lore }, notes);
    expect(keptBytes(atLimit)).toBe(CARD_LIMITS.metaMaxBytes);
    const overLimit = card({ lore }, `${notes}n`);

    await expect(exporter.importCardFile(user, encode(overLimit))).rejects.toMatchObject({ status: 413, code: "card_too_large" });
    expect(await storedOf(user.id)).toEqual({ personas: [], versions: [] });

    const imported = await exporter.importCardFile(user, encode(atLimit));
    const [{ n }] = await handle.raw.rows<{ n: number }>(
      "select octet_length(card_meta::text)::int as n from public.personas where id = $1",
      [imported.id],
    );
    expect(n).toBe(CARD_LIMITS.metaMaxBytes);
  });

  it("an Extended Persona Profile over what its column takes is a 413 too", async () => {
    const user = await createCreator(handle, "active");
    const exported = JSON.parse(
      String(
        (
          await exporter.exportFile(
            user,
            (
              await personasService.createPersona(user, {
                name: "Nova Quinn",
                type: "vtuber",
                gender: "female",
                ageRange: "25-34",
                interests: ["gaming"],
                description: "Streams at night.",
                personality: ["Outgoing"],
                backstory: "",
              })
            ).id,
            "card-json",
          )
        ).body,
      ),
    );
    const extended = exported.data.extensions.personaforge.extended;
    // Every list at its 20 entries of 2,000 characters: far over 64 KB.
    for (const key of ["languages", "hobbies", "favoritePlaces", "influences", "secretSkills"])
      extended[key] = Array(20).fill("ö".repeat(2_000));
    await expect(exporter.importCardFile(user, encode(exported))).rejects.toMatchObject({
      status: 413,
      message: CARD_MESSAGES.profileTooLarge,
    });
    expect((await storedOf(user.id)).personas).toHaveLength(1);
  });

  it("a value the database's checks refuse is a readable 4xx from the service, never a 500", async () => {
    const user = await createCreator(handle, "active");
    const values = { userId: user.id, name: "Checked", status: "in_progress" as const };
    await expect(
      personasService.insertPersona(user, { ...values, cardMeta: { lore: "x".repeat(CARD_LIMITS.metaMaxBytes) } }),
    ).rejects.toMatchObject({
      status: 413,
      message: CARD_MESSAGES.tooLarge,
    });
    await expect(personasService.insertPersona(user, { ...values, description: "d".repeat(151) })).rejects.toMatchObject({
      status: 400,
      code: "invalid_persona",
    });
    expect(await storedOf(user.id)).toEqual({ personas: [], versions: [] });
  });
});
