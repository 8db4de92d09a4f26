// The lorebook's JSON API (docs/api.md, Lore): read, add, change, delete, compile; every bad input
// a 4xx with a readable message and nothing written; a chat reply names the entries it drew on.
import { createAccount, expect, personaBody, test } from "./support";

const BACKSTORY =
  "Kira grew up in Seoul with her older sister Mina. At sixteen she joined the Starlight Academy art club, where she met her rival Jun Park.";

async function setUp(request: import("@playwright/test").APIRequestContext, extra: Record<string, unknown> = { backstory: BACKSTORY }) {
  const account = await createAccount(request);
  const headers = { Authorization: `Bearer ${account.token}` };
  const created = await request.post("/api/personas", { headers, data: personaBody("Kira Moon", extra) });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  return { headers, id, base: `/api/personas/${id}/lorebook` };
}

test("entries: add, read, change, delete", async ({ request }) => {
  const { headers, base } = await setUp(request);
  const empty = await request.get(base, { headers });
  expect(empty.status()).toBe(200);
  expect(await empty.json()).toEqual({ entries: [], scanDepth: 4, budget: 3000 });

  const posted = await request.post(`${base}/entries`, {
    headers,
    data: { name: "Mina", keys: ["Mina", "sister"], content: "Kira's older sister, a nurse.", insertion_order: 5, kind: "person" },
  });
  expect(posted.status()).toBe(201);
  const entry = (await posted.json()) as Record<string, unknown>;
  expect(entry).toMatchObject({
    name: "Mina",
    keys: ["Mina", "sister"],
    secondary_keys: [],
    selective: false,
    content: "Kira's older sister, a nurse.",
    enabled: true,
    constant: false,
    insertion_order: 5,
    case_sensitive: false,
    comment: "",
    use_regex: false,
    kind: "person",
  });
  expect(entry.id).toMatch(/^[0-9a-f-]{36}$/);

  const patched = await request.patch(`${base}/entries/${entry.id}`, { headers, data: { enabled: false } });
  expect(patched.status()).toBe(200);
  expect(await patched.json()).toMatchObject({ name: "Mina", enabled: false, content: "Kira's older sister, a nurse." });

  const read = (await (await request.get(base, { headers })).json()) as { entries: Record<string, unknown>[] };
  expect(read.entries).toHaveLength(1);
  expect(read.entries[0]).toMatchObject({ id: entry.id, enabled: false });

  expect((await request.delete(`${base}/entries/${entry.id}`, { headers })).status()).toBe(200);
  const again = await request.delete(`${base}/entries/${entry.id}`, { headers });
  expect(again.status()).toBe(404);
  expect(await again.json()).toMatchObject({ message: "Lore entry not found" });
});

test("bad input: a readable 4xx and nothing written", async ({ request }) => {
  const { headers, base } = await setUp(request);
  const post = (data: unknown, extra: Record<string, string> = {}) =>
    request.post(`${base}/entries`, {
      headers: { ...headers, "Content-Type": "application/json", ...extra },
      data: typeof data === "string" ? data : JSON.stringify(data),
    });
  const cases: [unknown, number, RegExp][] = [
    ["{not json", 400, /JSON/i],
    [[1, 2], 400, /JSON object/],
    [{ name: "Mina", keys: [], content: "x" }, 400, /fix the highlighted fields/],
    [{ name: "Mina", keys: ["Mina", "mina"], content: "x" }, 400, /fix the highlighted fields/],
    [{ name: "Mina", keys: ["x".repeat(1000)], content: "x" }, 400, /fix the highlighted fields/],
    [{ name: "Mina", keys: ["(a)\\1"], use_regex: true, content: "x" }, 400, /fix the highlighted fields/],
    [{ name: "Mina", keys: ["Mina"], content: 42 }, 400, /content must be text/i],
    [{ name: "Mina", keys: ["Mina"], content: "x", secret: true }, 400, /Unknown field: secret/],
    [{ name: "", keys: ["Mina"], content: "x" }, 400, /fix the highlighted fields/],
    [{ name: "Mina", keys: ["Mina"], content: "x".repeat(2001) }, 400, /fix the highlighted fields/],
    [{ name: "Mina", keys: ["Mina"], content: "x", insertion_order: -1 }, 400, /fix the highlighted fields|Order/],
  ];
  for (const [data, status, message] of cases) {
    const response = await post(data);
    expect(response.status(), JSON.stringify(data).slice(0, 80)).toBe(status);
    const body = (await response.json()) as { message: string; errors?: Record<string, string[]> };
    expect(body.message).toMatch(message);
  }
  const fields = async (data: unknown) => ((await (await post(data)).json()) as { errors: Record<string, string[]> }).errors;
  expect((await fields({ name: "Mina", keys: [], content: "x" })).keys).toEqual(["Add at least one key"]);
  expect((await fields({ name: "Mina", keys: ["Mina", "mina"], content: "x" })).keys).toEqual(["Keys must not repeat"]);
  expect((await fields({ name: "Mina", keys: ["(?<=a)b"], use_regex: true, content: "x" })).keys?.[0]).toMatch(
    /without look-arounds or back-references/,
  );
  // A pattern that would hold a backtracking engine runs in linear time here: it is kept.
  const nested = await post({ name: "Mina", keys: ["(a+)+$"], use_regex: true, content: "x" });
  expect(nested.status()).toBe(201);
  const { id: nestedId } = (await nested.json()) as { id: string };
  expect((await request.delete(`${base}/entries/${nestedId}`, { headers })).status()).toBe(200);
  const big = await post({ name: "Mina", keys: ["Mina"], content: "x".repeat(70_000) });
  expect(big.status()).toBe(413);
  expect((await (await request.get(base, { headers })).json()).entries).toEqual([]);

  // Another persona's entry id, or a made-up one.
  const other = await setUp(request);
  const foreign = await request.post(`${other.base}/entries`, {
    headers: other.headers,
    data: { name: "Jun", keys: ["Jun"], content: "A rival." },
  });
  const { id: foreignId } = (await foreign.json()) as { id: string };
  expect((await request.patch(`${base}/entries/${foreignId}`, { headers, data: { content: "Hijacked" } })).status()).toBe(404);
  expect((await request.patch(`${other.base}/entries/${foreignId}`, { headers, data: { content: "Hijacked" } })).status()).toBe(404);
  expect((await request.get(other.base, { headers })).status()).toBe(404);
  expect((await request.post(`${other.base}/compile`, { headers })).status()).toBe(404);
  const untouched = (await (await request.get(other.base, { headers: other.headers })).json()) as { entries: { content: string }[] };
  expect(untouched.entries[0]!.content).toBe("A rival.");
});

test("a lorebook holds at most 200 entries", async ({ request }) => {
  const { headers, base } = await setUp(request);
  for (let batch = 0; batch < 20; batch++) {
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        request
          .post(`${base}/entries`, { headers, data: { name: `Entry ${batch * 10 + i}`, keys: [`key${batch * 10 + i}`], content: "x" } })
          .then((response) => expect(response.status()).toBe(201)),
      ),
    );
  }
  const refused = await request.post(`${base}/entries`, { headers, data: { name: "One too many", keys: ["more"], content: "x" } });
  expect(refused.status()).toBe(400);
  expect(await refused.json()).toMatchObject({ message: "A lorebook holds at most 200 entries" });
  expect(((await (await request.get(base, { headers })).json()) as { entries: unknown[] }).entries).toHaveLength(200);
});

test("compile proposes entries and stores nothing; a chat reply names the lore it used", async ({ request }) => {
  const { headers, base, id } = await setUp(request);
  const compiled = await request.post(`${base}/compile`, { headers });
  expect(compiled.status()).toBe(200);
  const body = (await compiled.json()) as {
    proposals: { name: string; keys: string[]; content: string; kind: string | null }[];
    coverage: { name: string; kind: string | null; entryId: string | null }[];
  };
  expect(body.proposals.length).toBeGreaterThan(0);
  expect(body.proposals.some((proposal) => proposal.keys.includes("Mina"))).toBe(true);
  expect(body.coverage.some((item) => item.name.includes("Seoul"))).toBe(true);
  expect(((await (await request.get(base, { headers })).json()) as { entries: unknown[] }).entries).toEqual([]);

  const mina = body.proposals.find((proposal) => proposal.keys.includes("Mina"))!;
  const kept = await request.post(`${base}/entries`, { headers, data: { ...mina, content: "My sister Mina is a nurse in Incheon." } });
  expect(kept.status()).toBe(201);
  const { id: entryId } = (await kept.json()) as { id: string };

  const reply = await request.post(`/api/personas/${id}/chat`, { headers, data: { message: "Tell me about Mina." } });
  expect(reply.status()).toBe(201);
  const answer = (await reply.json()) as { messageId: string; response: string; lore: string[] };
  expect(answer.lore).toEqual([entryId]);
  expect(answer.response).toContain("Incheon");
  const history = (await (await request.get(`/api/personas/${id}/chat`, { headers })).json()) as {
    lore?: { id: string; name: string }[];
  }[];
  expect(history.at(-1)!.lore).toEqual([{ id: entryId, name: mina.name }]);

  // A fresh conversation about something else draws on no lore (the last 4 messages are scanned).
  expect((await request.delete(`/api/personas/${id}/chat`, { headers })).status()).toBe(200);
  const plain = await request.post(`/api/personas/${id}/chat`, { headers, data: { message: "What's your favourite colour?" } });
  expect(((await plain.json()) as { lore: string[] }).lore).toEqual([]);

  // Without a backstory there is nothing to build from.
  const bare = await setUp(request, {});
  const refused = await request.post(`${bare.base}/compile`, { headers: bare.headers });
  expect(refused.status()).toBe(400);
  expect(await refused.json()).toMatchObject({ message: "Write or generate a backstory first: the lorebook is built from it." });
});

test("compiles past the quota (30 an hour per creator) are a 429 with Retry-After; other creators still compile", async ({ request }) => {
  const { headers, base } = await setUp(request);
  for (let i = 0; i < 30; i++) expect((await request.post(`${base}/compile`, { headers })).status()).toBe(200);
  const over = await request.post(`${base}/compile`, { headers });
  expect(over.status()).toBe(429);
  expect(Number(over.headers()["retry-after"])).toBeGreaterThan(3000);
  expect(await over.json()).toMatchObject({
    code: "rate_limited",
    message: expect.stringMatching(
      /^You can build a lorebook from the backstory 30 times an hour\. Please try again in (60|59) minutes\.$/,
    ),
  });
  const other = await setUp(request);
  expect((await request.post(`${other.base}/compile`, { headers: other.headers })).status()).toBe(200);
});
