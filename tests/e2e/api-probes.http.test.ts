// Persona tests' JSON API (docs/api.md, Persona tests): probes read, added, changed and deleted;
// suggestions that store nothing; a run started off the request and polled to its end; a new version
// runs by itself; every bad input a 4xx with a readable message and nothing written; another
// creator's persona a 404; replies carry the version that wrote them.
import { createAccount, expect, personaBody, test } from "./support";

async function setUp(request: import("@playwright/test").APIRequestContext) {
  const account = await createAccount(request);
  const headers = { Authorization: `Bearer ${account.token}` };
  const created = await request.post("/api/personas", { headers, data: personaBody("Kira Moon") });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  return { headers, id, base: `/api/personas/${id}/probes` };
}

interface Run {
  runId: string;
  version: number;
  model: string;
  status: string;
  trigger: string;
  passed: number;
  failed: number;
  total: number;
  results: {
    probeId: string;
    name: string;
    passed: boolean;
    replies: string[];
    failures: { check: string; expected: string; got: string }[];
  }[];
}

async function finished(request: import("@playwright/test").APIRequestContext, url: string, headers: Record<string, string>): Promise<Run> {
  let run: Run | null = null;
  await expect
    .poll(
      async () => {
        run = (await (await request.get(url, { headers })).json()) as Run;
        return run.status;
      },
      { timeout: 20_000 },
    )
    .toMatch(/^(completed|failed)$/);
  return run!;
}

test("probes: suggest, add, read, change, delete; a run off the request, polled to its end", async ({ request }) => {
  const { headers, base, id } = await setUp(request);
  expect(await (await request.get(base, { headers })).json()).toEqual({ probes: [] });

  const suggested = await request.post(`${base}/suggest`, { headers });
  expect(suggested.status()).toBe(200);
  const { probes: suggestions } = (await suggested.json()) as { probes: Record<string, unknown>[] };
  expect(suggestions.length).toBeGreaterThanOrEqual(8);
  expect(suggestions.length).toBeLessThanOrEqual(15);
  expect(((await (await request.get(base, { headers })).json()) as { probes: unknown[] }).probes).toEqual([]);

  // A suggestion is posted back as it came; the fact it states is pinned by the server, whatever
  // `factExpected` the body carries.
  for (const probe of suggestions.slice(0, 3)) {
    expect((await request.post(base, { headers, data: probe })).status()).toBe(201);
  }
  const withFact = suggestions.find((suggestion) => suggestion.factExpected !== null);
  expect(withFact).toBeDefined();
  const pinned = await request.post(base, {
    headers,
    data: { ...withFact, name: "Pinned", factExpected: { label: "Forged", any: ["x"] } },
  });
  expect(pinned.status()).toBe(201);
  const pinnedProbe = (await pinned.json()) as { id: string; factExpected: unknown };
  expect(pinnedProbe.factExpected).toEqual(withFact!.factExpected);
  // … and a probe read back is sent back as it was read (its id stays in the address).
  const { id: _id, ...readBack } = pinnedProbe;
  const sentBack = await request.patch(`${base}/${pinnedProbe.id}`, { headers, data: readBack });
  expect(sentBack.status()).toBe(200);
  expect(await sentBack.json()).toEqual(pinnedProbe);
  const posted = await request.post(base, {
    headers,
    data: { name: "Greets", turns: ["Hi!", "How are you?"], mustMention: ["nonexistent-phrase"], maxLength: 500 },
  });
  expect(posted.status()).toBe(201);
  const probe = (await posted.json()) as Record<string, unknown>;
  expect(probe).toMatchObject({ name: "Greets", turns: ["Hi!", "How are you?"], enabled: true, inCharacter: false, maxLength: 500 });
  expect(probe.id).toMatch(/^[0-9a-f-]{36}$/);

  const patched = await request.patch(`${base}/${probe.id}`, { headers, data: { maxLength: null, inCharacter: true } });
  expect(patched.status()).toBe(200);
  expect(await patched.json()).toMatchObject({ name: "Greets", maxLength: null, inCharacter: true });
  const listed = (await (await request.get(base, { headers })).json()) as { probes: { id: string }[] };
  expect(listed.probes).toHaveLength(5);
  expect(listed.probes.at(-1)!.id).toBe(probe.id);

  const started = await request.post(`${base}/run`, { headers });
  expect(started.status()).toBe(202);
  const { runId } = (await started.json()) as { runId: string };
  const run = await finished(request, `${base}/runs/${runId}`, headers);
  expect(run).toMatchObject({ runId, model: "embedded", status: "completed", trigger: "manual", total: 5, passed: 4, failed: 1 });
  const greets = run.results.find((result) => result.probeId === probe.id)!;
  expect(greets.replies).toHaveLength(2);
  expect(greets.failures).toEqual([expect.objectContaining({ check: "mustMention", expected: "one of 'nonexistent-phrase'" })]);
  const runs = (await (await request.get(`${base}/runs`, { headers })).json()) as { runs: Run[] };
  expect(runs.runs.map((r) => r.runId)).toEqual([runId]);

  // A new version runs by itself.
  const edited = await request.patch(`/api/personas/${id}`, {
    headers,
    data: personaBody("Kira Moon", { description: "Now streams at dawn." }),
  });
  expect(edited.status()).toBe(200);
  await expect
    .poll(async () => ((await (await request.get(`${base}/runs`, { headers })).json()) as { runs: Run[] }).runs.length, { timeout: 20_000 })
    .toBe(2);
  const [latest] = ((await (await request.get(`${base}/runs`, { headers })).json()) as { runs: Run[] }).runs;
  expect(latest).toMatchObject({ trigger: "version", version: run.version + 1 });
  await finished(request, `${base}/runs/${latest!.runId}`, headers);

  // Chat replies say which version wrote them.
  const reply = await request.post(`/api/personas/${id}/chat`, { headers, data: { message: "Hi!" } });
  expect(((await reply.json()) as { version: number }).version).toBe(run.version + 1);

  expect((await request.delete(`${base}/${probe.id}`, { headers })).status()).toBe(200);
  const again = await request.delete(`${base}/${probe.id}`, { headers });
  expect(again.status()).toBe(404);
  expect(await again.json()).toMatchObject({ message: "Probe not found" });
});

test("bad input: a readable 4xx, never a hang, and nothing written", async ({ request }) => {
  const { headers, base } = await setUp(request);
  const post = (data: unknown) =>
    request.post(base, {
      headers: { ...headers, "Content-Type": "application/json" },
      data: typeof data === "string" ? data : JSON.stringify(data),
    });
  const fieldCases: [unknown, string, string][] = [
    [{ name: "Empty", turns: [], inCharacter: true }, "turns", "Write the message to send"],
    [{ name: "Blank", turns: ["  ", ""], inCharacter: true }, "turns", "Write the message to send"],
    [{ name: "Long", turns: Array.from({ length: 50 }, () => "hi"), inCharacter: true }, "turns", "A probe sends at most 5 messages"],
    [{ name: "Big", turns: ["hi"], mustMention: ["x".repeat(10_000)] }, "mustMention", "Each phrase must be 200 characters or less"],
    [
      { name: "Lookahead", turns: ["hi"], mustMatch: "(?=a)a" },
      "mustMatch",
      "This pattern cannot be matched: it must be a valid pattern without look-arounds or back-references. Simplify it",
    ],
    [{ name: "None", turns: ["hi"] }, "mustMention", "Add at least one expectation"],
    [{ name: "Fact", turns: ["hi"], statesFact: "fact:shoeSize" }, "statesFact", "Choose a fact from the list"],
  ];
  for (const [data, field, message] of fieldCases) {
    const started = Date.now();
    const response = await post(data);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(response.status(), JSON.stringify(data).slice(0, 60)).toBe(400);
    expect(((await response.json()) as { errors: Record<string, string[]> }).errors[field]).toEqual([message]);
  }
  const plain: [unknown, number, RegExp][] = [
    ["{not json", 400, /JSON/i],
    [[1, 2], 400, /JSON object/],
    [{ name: "A", turns: "hi", inCharacter: true }, 400, /turns must be a list/i],
    [{ name: "A", turns: ["hi"], maxLength: "long" }, 400, /Maximum length must be a whole number/],
    [{ name: "A", turns: ["hi"], inCharacter: true, secret: 1 }, 400, /Unknown field: secret/],
  ];
  for (const [data, status, message] of plain) {
    const response = await post(data);
    expect(response.status(), JSON.stringify(data).slice(0, 60)).toBe(status);
    expect(((await response.json()) as { message: string }).message).toMatch(message);
  }
  expect((await post({ name: "Huge", turns: ["x".repeat(70_000)], inCharacter: true })).status()).toBe(413);
  expect((await request.post(`${base}/run`, { headers })).status()).toBe(409);
  expect(((await (await request.get(base, { headers })).json()) as { probes: unknown[] }).probes).toEqual([]);
  expect((await request.get(`${base}/suggest`, { headers })).status()).toBe(405);
  expect((await request.get(`${base}/runs/00000000-0000-4000-8000-000000000000`, { headers })).status()).toBe(404);
});

test("two starts at once are one run", async ({ request }) => {
  const { headers, base } = await setUp(request);
  expect((await request.post(base, { headers, data: { name: "Greets", turns: ["Hi!"], inCharacter: true } })).status()).toBe(201);
  const [a, b] = await Promise.all([request.post(`${base}/run`, { headers }), request.post(`${base}/run`, { headers })]);
  expect([a.status(), b.status()]).toEqual([202, 202]);
  expect(((await a.json()) as { runId: string }).runId).toBe(((await b.json()) as { runId: string }).runId);
});

test("another creator's persona is a 404 on every call, and stays untouched", async ({ request }) => {
  const owner = await setUp(request);
  const posted = await request.post(owner.base, { headers: owner.headers, data: { name: "Greets", turns: ["Hi!"], inCharacter: true } });
  const { id: probeId } = (await posted.json()) as { id: string };
  const { runId } = (await (await request.post(`${owner.base}/run`, { headers: owner.headers })).json()) as { runId: string };
  const stranger = await setUp(request);
  const as = stranger.headers;
  const answers = await Promise.all([
    request.get(owner.base, { headers: as }),
    request.post(owner.base, { headers: as, data: { name: "Mine", turns: ["Hi"], inCharacter: true } }),
    request.patch(`${owner.base}/${probeId}`, { headers: as, data: { name: "Mine" } }),
    request.delete(`${owner.base}/${probeId}`, { headers: as }),
    request.post(`${owner.base}/suggest`, { headers: as }),
    request.post(`${owner.base}/run`, { headers: as }),
    request.get(`${owner.base}/runs`, { headers: as }),
    request.get(`${owner.base}/runs/${runId}`, { headers: as }),
    request.patch(`${stranger.base}/${probeId}`, { headers: as, data: { name: "Mine" } }),
    request.get(`${stranger.base}/runs/${runId}`, { headers: as }),
  ]);
  expect(answers.map((answer) => answer.status())).toEqual(Array(answers.length).fill(404));
  const probes = (await (await request.get(owner.base, { headers: owner.headers })).json()) as { probes: { name: string }[] };
  expect(probes.probes.map((p) => p.name)).toEqual(["Greets"]);
});

test("runs past the quota (60 an hour per creator) are a 429 with Retry-After, and start nothing", async ({ request }) => {
  test.setTimeout(120_000);
  const { headers, base } = await setUp(request);
  expect((await request.post(base, { headers, data: { name: "Greets", turns: ["Hi!"], inCharacter: true } })).status()).toBe(201);
  let last = "";
  for (let i = 0; i < 60; i++) {
    const started = await request.post(`${base}/run`, { headers });
    expect(started.status(), `run ${i + 1}`).toBe(202);
    last = ((await started.json()) as { runId: string }).runId;
    await finished(request, `${base}/runs/${last}`, headers);
  }
  const refused = await request.post(`${base}/run`, { headers });
  expect(refused.status()).toBe(429);
  expect(Number(refused.headers()["retry-after"])).toBeGreaterThan(0);
  expect(((await refused.json()) as { message: string }).message).toMatch(/You can run persona tests 60 times an hour/);
  const runs = ((await (await request.get(`${base}/runs`, { headers })).json()) as { runs: Run[] }).runs;
  expect(runs[0]).toMatchObject({ runId: last, status: "completed" });
});
