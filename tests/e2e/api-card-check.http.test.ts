// The card check's JSON API (docs/api.md, Card check): the findings, a fix, and every bad input
// a readable 4xx with nothing written.
import { createAccount, expect, test } from "./support";

const CARD = {
  spec: "chara_card_v3",
  spec_version: "3.0",
  data: {
    name: "Ada Lune",
    description: "An astronomer.",
    personality: "calm",
    first_mes: "Good evening.",
    creator_notes_multilingual: { en: "An astronomer of the old observatory." },
    extensions: { world: "Observatory" },
    character_book: {
      entries: [{ keys: ["dome"], content: "The dome.", use_regex: true, enabled: true, insertion_order: 1, extensions: {} }],
    },
  },
};

test("findings, a fix as a new version, and bad input", async ({ request }) => {
  const account = await createAccount(request);
  const headers = { Authorization: `Bearer ${account.token}` };
  const imported = await request.post("/api/personas/import", { headers, data: CARD });
  expect(imported.status()).toBe(201);
  const persona = (await imported.json()) as { id: string; cardCheck: { rule: string }[]; finishImport?: { guess: unknown } };
  expect(persona.cardCheck.map((f) => f.rule)).toEqual(expect.arrayContaining(["v3-without-v2", "regex-without-slashes", "linked-world"]));
  expect(persona.finishImport).toBeDefined();
  const base = `/api/personas/${persona.id}/card-check`;

  const check = await request.get(base, { headers });
  expect(check.status()).toBe(200);
  const body = (await check.json()) as {
    version: number;
    findings: { rule: string; field: string; severity: string; targets: string[]; message: string; fix?: string }[];
    imported: unknown[];
  };
  expect(body.findings.map((f) => [f.rule, f.field])).toEqual([
    ["regex-without-slashes", "character_book.entries[0].keys"],
    ["linked-world", "extensions.world"],
    ["v3-only-field", "creator_notes_multilingual"],
  ]);
  expect(body.findings[0]).toMatchObject({ severity: "warning", targets: ["risuai"], fix: "Write the keys as /…/" });

  const survival = await request.get(`/api/personas/${persona.id}/survival`, { headers });
  expect(survival.status()).toBe(200);
  const { targets } = (await survival.json()) as { targets: { target: string; fields: { field: string; fate: string }[]; tests: null }[] };
  expect(targets.map((t) => t.target)).toEqual(["sillytavern", "risuai", "chub", "janitorai", "backyard", "agnai"]);
  expect(targets.find((t) => t.target === "risuai")!.fields).toContainEqual(
    expect.objectContaining({ field: "entries.use_regex", fate: "changed" }),
  );
  expect(targets.every((t) => t.tests === null)).toBe(true);

  const bad = async (data: unknown, status: number, message: RegExp) => {
    const res = await request.post(`${base}/fix`, {
      headers: { ...headers, "Content-Type": "application/json" },
      data: typeof data === "string" ? data : JSON.stringify(data),
    });
    expect(res.status()).toBe(status);
    expect(((await res.json()) as { message: string }).message).toMatch(message);
  };
  await bad("{not json", 400, /JSON/);
  await bad({ rule: 5, field: "x" }, 400, /rule/);
  await bad({ rule: "linked-world", field: "extensions.world", extra: 1 }, 400, /Unknown field/);
  await bad({ rule: "no-greeting", field: "first_mes" }, 400, /no one-click fix/);
  await bad({ rule: "linked-world", field: "extensions.world", version: body.version + 3 }, 409, /changed since this check/);
  await bad({ rule: "linked-world", field: "extensions.nowhere" }, 409, /no longer there/);
  expect(((await (await request.get(base, { headers })).json()) as { version: number }).version).toBe(body.version);

  const fixed = await request.post(`${base}/fix`, {
    headers,
    data: { rule: "regex-without-slashes", field: "character_book.entries[0].keys", version: body.version },
  });
  expect(fixed.status()).toBe(200);
  expect(await fixed.json()).toMatchObject({ version: body.version + 1, note: 'Card check: wrote the keys of "dome" as /…/' });
  const lore = (await (await request.get(`/api/personas/${persona.id}/lorebook`, { headers })).json()) as { entries: { keys: string[] }[] };
  expect(lore.entries[0]!.keys).toEqual(["/dome/"]);

  // Another creator's persona: 404, nothing changes.
  const stranger = await createAccount(request);
  const theirs = { Authorization: `Bearer ${stranger.token}` };
  expect((await request.get(base, { headers: theirs })).status()).toBe(404);
  expect((await request.get(`/api/personas/${persona.id}/survival`, { headers: theirs })).status()).toBe(404);
  expect((await request.post(`${base}/fix`, { headers: theirs, data: { rule: "linked-world", field: "extensions.world" } })).status()).toBe(
    404,
  );
  expect((await request.get(base, { headers: { Authorization: "Bearer nonsense" } })).status()).toBe(401);
});
