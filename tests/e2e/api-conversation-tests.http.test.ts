// Long-conversation tests' JSON API (docs/api.md, Persona tests: long conversations): a run started
// off the request and polled to its end, with its checkpoints, first failures and transcript; two
// starts at once are one run; every bad input a 4xx with a readable message and nothing started;
// another creator's persona a 404.
import { createAccount, expect, personaBody, test } from "./support";

async function setUp(request: import("@playwright/test").APIRequestContext) {
  const account = await createAccount(request);
  const headers = { Authorization: `Bearer ${account.token}` };
  const created = await request.post("/api/personas", { headers, data: personaBody("Kira Moon") });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  return { headers, id, base: `/api/personas/${id}/conversation-tests` };
}

interface Run {
  runId: string;
  version: number;
  model: string;
  status: string;
  turns: number;
  seed: number;
  checkpoints: { turn: number; passed: number; failed: number; byCategory: Record<string, { passed: number; failed: number }> }[];
  firstFailure: Record<string, number | null>;
  transcript: { role: string; content: string }[];
}

async function finished(request: import("@playwright/test").APIRequestContext, url: string, headers: Record<string, string>): Promise<Run> {
  let run: Run | null = null;
  await expect
    .poll(
      async () => {
        run = (await (await request.get(url, { headers })).json()) as Run;
        return run.status;
      },
      { timeout: 30_000 },
    )
    .toMatch(/^(completed|failed)$/);
  return run!;
}

test("a long-conversation test off the request, polled to its end", async ({ request }) => {
  const { headers, base } = await setUp(request);
  const started = await request.post(base, { headers, data: { turns: 12, seed: 99 } });
  expect(started.status()).toBe(202);
  const { runId } = (await started.json()) as { runId: string };
  const run = await finished(request, `${base}/${runId}`, headers);
  expect(run).toMatchObject({ runId, version: 1, model: "embedded", status: "completed", turns: 12, seed: 99 });
  expect(run.checkpoints.map((checkpoint) => checkpoint.turn)).toEqual([1, 5, 8, 12]);
  for (const checkpoint of run.checkpoints) {
    expect(checkpoint.passed + checkpoint.failed).toBeGreaterThan(0);
    expect(checkpoint.byCategory.inCharacter).toBeDefined();
  }
  expect(Object.keys(run.firstFailure).sort()).toEqual(["boundary", "falseMemory", "identity", "inCharacter", "secrets", "voice"]);
  expect(run.transcript.filter((turn) => turn.role === "user")).toHaveLength(12);
  expect(run.transcript.every((turn) => typeof turn.content === "string" && turn.content.length > 0)).toBe(true);

  // No body: 24 turns, a seed drawn.
  const plain = await request.post(base, { headers });
  expect(plain.status()).toBe(202);
  const drawn = await finished(request, `${base}/${((await plain.json()) as { runId: string }).runId}`, headers);
  expect(drawn.turns).toBe(24);
  expect(drawn.checkpoints.map((checkpoint) => checkpoint.turn)).toEqual([1, 8, 16, 24]);
});

test("bad input: a readable 4xx, and nothing started", async ({ request }) => {
  const { headers, base } = await setUp(request);
  const post = (data: string) => request.post(base, { headers: { ...headers, "Content-Type": "application/json" }, data });
  const cases: [string, number, RegExp][] = [
    ['{"turns": 1000}', 400, /^Turns must be a whole number from 4 to 60$/],
    ['{"turns": 2}', 400, /^Turns must be a whole number from 4 to 60$/],
    ['{"turns": 12.5}', 400, /^Turns must be a whole number from 4 to 60$/],
    ['{"turns": "24"}', 400, /^Turns must be a whole number from 4 to 60$/],
    ['{"seed": -3}', 400, /^Seed must be a whole number from 0 to 2147483647$/],
    ['{"turns": 24, "speed": 3}', 400, /Unknown field: speed/],
    ["{not json", 400, /JSON/i],
    ["[24]", 400, /JSON object/],
  ];
  for (const [data, status, message] of cases) {
    const response = await post(data);
    expect(response.status(), data).toBe(status);
    expect(((await response.json()) as { message: string }).message, data).toMatch(message);
  }
  expect((await post(`{"turns": 24, "pad": "${"x".repeat(5_000)}"}`)).status()).toBe(413);
  expect((await request.get(base, { headers })).status()).toBe(405);
  expect((await request.get(`${base}/00000000-0000-4000-8000-000000000000`, { headers })).status()).toBe(404);
  expect((await request.get(`${base}/not-a-run`, { headers })).status()).toBe(404);
});

test("two starts at once are one run", async ({ request }) => {
  const { headers, base } = await setUp(request);
  const [a, b] = await Promise.all([request.post(base, { headers }), request.post(base, { headers })]);
  expect([a.status(), b.status()]).toEqual([202, 202]);
  const { runId } = (await a.json()) as { runId: string };
  expect(((await b.json()) as { runId: string }).runId).toBe(runId);
  await finished(request, `${base}/${runId}`, headers);
});

test("another creator's persona is a 404 on every call", async ({ request }) => {
  const owner = await setUp(request);
  const { runId } = (await (await request.post(owner.base, { headers: owner.headers, data: { turns: 4 } })).json()) as { runId: string };
  const stranger = await setUp(request);
  const answers = await Promise.all([
    request.post(owner.base, { headers: stranger.headers }),
    request.get(`${owner.base}/${runId}`, { headers: stranger.headers }),
    request.get(`${stranger.base}/${runId}`, { headers: stranger.headers }),
  ]);
  expect(answers.map((answer) => answer.status())).toEqual([404, 404, 404]);
  await finished(request, `${owner.base}/${runId}`, owner.headers);
});
