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

test("the tests in each front end: a run off the request, polled, and bad input", async ({ request }) => {
  const account = await createAccount(request);
  const headers = { Authorization: `Bearer ${account.token}` };
  const imported = await request.post("/api/personas/import", { headers, data: CARD });
  const persona = (await imported.json()) as { id: string; finishImport: { guess: Record<string, unknown> } };
  const run = `/api/personas/${persona.id}/survival/run`;

  // A draft (the import not finished yet) has no run, nor does a persona without probes.
  const draft = await request.post(run, { headers });
  expect(draft.status()).toBe(409);
  expect(
    (
      await request.post(`/api/personas/${persona.id}/finish-import`, {
        headers,
        data: { ...persona.finishImport.guess, gender: "female" },
      })
    ).status(),
  ).toBe(200);
  const none = await request.post(run, { headers });
  expect(none.status()).toBe(409);
  expect(((await none.json()) as { message: string }).message).toMatch(/probe/i);
  expect(
    (
      await request.post(`/api/personas/${persona.id}/probes`, {
        headers,
        data: { name: "Dome", turns: ["Tell me about the dome."], mustMention: ["dome"] },
      })
    ).status(),
  ).toBe(201);

  // A body, a wrong method, another creator's persona: readable 4xx, nothing queued.
  const withBody = await request.post(run, { headers, data: { turns: 3 } });
  expect(withBody.status()).toBe(400);
  expect((await request.get(run, { headers })).status()).toBe(405);
  const stranger = await createAccount(request);
  const theirs = { Authorization: `Bearer ${stranger.token}` };
  expect((await request.post(run, { headers: theirs })).status()).toBe(404);
  expect(((await (await request.get(`/api/personas/${persona.id}/survival`, { headers })).json()) as { run: unknown }).run).toBeNull();

  const started = await request.post(run, { headers });
  expect(started.status()).toBe(202);
  const { runId } = (await started.json()) as { runId: string };
  expect(runId).toMatch(/^[0-9a-f-]{36}$/);
  // Two starts of one version are one run.
  expect(((await (await request.post(run, { headers })).json()) as { runId: string }).runId).toBe(runId);

  const one = `/api/personas/${persona.id}/survival/runs/${runId}`;
  let body: {
    status: string;
    here: { passed: number; failed: number } | null;
    results: { target: string; passed: number; failed: number; losses: string[] }[];
  } = {
    status: "queued",
    here: null,
    results: [],
  };
  await expect
    .poll(
      async () => {
        body = (await (await request.get(one, { headers })).json()) as typeof body;
        return body.status;
      },
      { timeout: 30_000 },
    )
    .toBe("completed");
  expect(body.here!.passed + body.here!.failed).toBe(1);
  expect(body.results.map((result) => result.target)).toEqual(["sillytavern", "risuai", "chub", "janitorai", "backyard", "agnai"]);

  const survival = (await (await request.get(`/api/personas/${persona.id}/survival`, { headers })).json()) as {
    run: { runId: string };
    targets: { target: string; tests: { version: number; passed: number; failed: number; status: string } }[];
  };
  expect(survival.run.runId).toBe(runId);
  expect(survival.targets.find((t) => t.target === "agnai")!.tests).toMatchObject({ status: "completed" });

  expect((await request.get(one, { headers: theirs })).status()).toBe(404);
  const unknown = await request.get(`/api/personas/${persona.id}/survival/runs/00000000-0000-4000-8000-000000000000`, { headers });
  expect(unknown.status()).toBe(404);
  expect(((await unknown.json()) as { message: string }).message).toBe("Run not found.");
  expect((await request.get(`/api/personas/${persona.id}/survival/runs/nonsense`, { headers })).status()).toBe(404);
});
