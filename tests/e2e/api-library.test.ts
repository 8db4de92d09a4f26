// The persona library's calls (docs/product.md, API overview) at their HTTP boundary: list, recent, stats, status,
// edit, delete, export and import; bad parameters and hostile card files; other users' ids.
import { createAccount, expect, test, type Account } from "./support";

const persona = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  type: "educator",
  gender: "male",
  ageRange: "45-54",
  interests: ["science", "education"],
  description: `${name} explains the stars.`,
  personality: ["Curious", "Organized"],
  backstory: `${name} grew up under dark skies.`,
  ...extra,
});

function auth(account: Account) {
  return { Authorization: `Bearer ${account.token}` };
}

test.describe("persona library API", () => {
  test("list with status, search, sort and paging; recent; stats", async ({ request }) => {
    const owner = await createAccount(request);
    const h = auth(owner);
    for (const name of ["Cleo", "Atlas", "Bram"]) await request.post("/api/personas", { headers: h, data: persona(name) });
    const draft = await (await request.post("/api/personas/draft", { headers: h, data: { name: "Dora" } })).json();

    const all = await request.get("/api/personas?sort=name-asc", { headers: h });
    expect(all.status()).toBe(200);
    expect((await all.json()).map((p: { name: string }) => p.name)).toEqual(["Atlas", "Bram", "Cleo", "Dora"]);
    expect(all.headers()["x-total-count"]).toBe("4");

    const paged = await request.get("/api/personas?sort=name-asc&pageSize=2&page=2", { headers: h });
    expect((await paged.json()).map((p: { name: string }) => p.name)).toEqual(["Cleo", "Dora"]);
    expect(paged.headers()["x-page-count"]).toBe("2");

    const drafts = await request.get("/api/personas?status=in_progress", { headers: h });
    expect((await drafts.json()).map((p: { id: string }) => p.id)).toEqual([draft.id]);

    const search = await request.get(`/api/personas?q=${encodeURIComponent("ATL")}`, { headers: h });
    expect((await search.json()).map((p: { name: string }) => p.name)).toEqual(["Atlas"]);

    const recent = await request.get("/api/personas/recent", { headers: h });
    expect((await recent.json())[0].name).toBe("Dora");

    const stats = await request.get("/api/personas/stats", { headers: h });
    expect(await stats.json()).toEqual({ activePersonas: 3, generatedContent: 0, subscriptionStatus: "free", trialDaysLeft: 0 });
  });

  test("bad list parameters: a clear 400 for an unknown status, defaults for the rest", async ({ request }) => {
    const owner = await createAccount(request);
    const h = auth(owner);
    await request.post("/api/personas", { headers: h, data: persona("Only") });
    const status = await request.get("/api/personas?status=deleted", { headers: h });
    expect(status.status()).toBe(400);
    expect((await status.json()).message).toMatch(/Unknown status/);
    for (const query of [
      "sort=random",
      "page=-1",
      "page=abc",
      "pageSize=100000",
      `q=${"%".repeat(10_000)}`,
      "q=.*%5B(",
      "q=' or 1=1 --",
      "q=a%00b",
    ]) {
      const res = await request.get(`/api/personas?${query}`, { headers: h });
      expect(res.status(), query).toBe(200);
    }
    const meta = await request.get(`/api/personas?q=${"%".repeat(10_000)}`, { headers: h });
    expect(await meta.json()).toEqual([]);
  });

  test("archive and restore, edit, delete; another user's id is 404 everywhere", async ({ request }) => {
    const owner = await createAccount(request);
    const stranger = await createAccount(request);
    const h = auth(owner);
    const p = await (await request.post("/api/personas", { headers: h, data: persona("Vega") })).json();

    for (const [method, path, data] of [
      ["GET", `/api/personas/${p.id}`, undefined],
      ["PATCH", `/api/personas/${p.id}`, persona("Stolen")],
      ["DELETE", `/api/personas/${p.id}`, undefined],
      ["PATCH", `/api/personas/${p.id}/status`, { status: "archived" }],
      ["GET", `/api/personas/${p.id}/export?format=json`, undefined],
    ] as const) {
      const res = await request.fetch(path, { method, headers: auth(stranger), data });
      expect(res.status(), `${method} ${path}`).toBe(404);
    }

    const archived = await request.patch(`/api/personas/${p.id}/status`, { headers: h, data: { status: "archived" } });
    expect(await archived.json()).toMatchObject({ status: "archived" });
    const unknown = await request.patch(`/api/personas/${p.id}/status`, { headers: h, data: { status: "deleted" } });
    expect(unknown.status()).toBe(400);
    const restored = await request.patch(`/api/personas/${p.id}/status`, { headers: h, data: { status: "restored" } });
    expect(await restored.json()).toMatchObject({ status: "active" });

    const edited = await request.patch(`/api/personas/${p.id}`, { headers: h, data: persona("Vega Prime") });
    expect(await edited.json()).toMatchObject({ id: p.id, name: "Vega Prime", status: "active", createdAt: p.createdAt });
    const invalid = await request.patch(`/api/personas/${p.id}`, { headers: h, data: { ...persona("V"), interests: [] } });
    expect(invalid.status()).toBe(400);
    expect((await invalid.json()).errors).toMatchObject({
      name: ["Name must be at least 2 characters"],
      interests: ["At least one interest is required"],
    });

    expect((await request.delete(`/api/personas/${p.id}`, { headers: h })).status()).toBe(200);
    expect((await request.get(`/api/personas/${p.id}`, { headers: h })).status()).toBe(404);
    expect((await request.delete(`/api/personas/${p.id}`, { headers: h })).status()).toBe(404);
  });

  test("exports: file names, the JSON field set, and an unknown format", async ({ request }) => {
    const owner = await createAccount(request);
    const h = auth(owner);
    const p = await (await request.post("/api/personas", { headers: h, data: persona("Star Gazer!") })).json();
    const json = await request.get(`/api/personas/${p.id}/export?format=json`, { headers: h });
    expect(json.headers()["content-disposition"]).toContain('filename="star_gazer__profile.json"');
    expect(Object.keys(await json.json()).sort()).toEqual(
      [
        "ageRange",
        "backstory",
        "createdAt",
        "description",
        "extended",
        "gender",
        "interests",
        "name",
        "personality",
        "status",
        "type",
        "voice",
      ].sort(),
    );
    for (const [format, ending] of [
      ["txt", "txt"],
      ["md", "md"],
      ["yaml", "yaml"],
    ] as const) {
      const res = await request.get(`/api/personas/${p.id}/export?format=${format}`, { headers: h });
      expect(res.headers()["content-disposition"]).toContain(`star_gazer__profile.${ending}`);
      expect((await res.text()).trimEnd()).toMatch(/PersonaForge$/);
    }
    const bad = await request.get(`/api/personas/${p.id}/export?format=docx`, { headers: h });
    expect(bad.status()).toBe(400);
    const image = await request.get(`/api/personas/${p.id}/export?format=image`, { headers: h });
    expect(image.status()).toBe(404);
    expect((await image.json()).message).toBe("This persona doesn't have an image to download.");
  });

  test("card round trip: export → import → export is identical; the import is a new persona", async ({ request }) => {
    const owner = await createAccount(request);
    const h = auth(owner);
    const p = await (await request.post("/api/personas", { headers: h, data: persona("Orbit") })).json();
    const first = await (await request.get(`/api/personas/${p.id}/export?format=card-json`, { headers: h })).text();
    const card = JSON.parse(first);
    expect(card).toMatchObject({ spec: "chara_card_v3", spec_version: "3.0", data: { name: "Orbit" } });
    expect(card.data.extensions.personaforge).toBeTruthy();

    const imported = await request.post("/api/personas/import", { headers: { ...h, "Content-Type": "application/json" }, data: first });
    expect(imported.status()).toBe(201);
    const copy = await imported.json();
    expect(copy.id).not.toBe(p.id);
    expect(copy).toMatchObject({ name: "Orbit", type: "educator", status: "active", personality: ["Curious", "Organized"] });
    const second = await (await request.get(`/api/personas/${copy.id}/export?format=card-json`, { headers: h })).text();
    expect(second).toBe(first);

    // The PNG card through a multipart upload.
    const png = Buffer.from(await (await request.get(`/api/personas/${p.id}/export?format=card-png`, { headers: h })).body());
    const viaForm = await request.post("/api/personas/import", {
      headers: h,
      multipart: { file: { name: "orbit.png", mimeType: "image/png", buffer: png } },
    });
    expect(viaForm.status()).toBe(201);
  });

  test("hostile card files get a clear 4xx and store nothing", async ({ request }) => {
    const owner = await createAccount(request);
    const h = auth(owner);
    const p = await (await request.post("/api/personas", { headers: h, data: persona("Real") })).json();
    const png = Buffer.from(await (await request.get(`/api/personas/${p.id}/export?format=card-png`, { headers: h })).body());

    const chunk = (type: string, body: Buffer) => {
      const length = Buffer.alloc(4);
      length.writeUInt32BE(body.length);
      const crc = Buffer.alloc(4); // wrong on purpose where it matters
      return Buffer.concat([length, Buffer.from(type, "latin1"), body, crc]);
    };
    const signature = png.subarray(0, 8);
    const header = png.subarray(8, 8 + 25);
    const cases: [string, Buffer, string, RegExp][] = [
      ["truncated PNG", png.subarray(0, Math.floor(png.length / 2)), "image/png", /truncated|PNG/i],
      [
        "a chunk claiming 2 GB",
        Buffer.concat([signature, header, Buffer.from([0x7f, 0xff, 0xff, 0xff]), Buffer.from("tEXt")]),
        "image/png",
        /PNG/i,
      ],
      ["bad CRC", Buffer.concat([signature, header, chunk("tEXt", Buffer.from("ccv3\0abc", "latin1"))]), "image/png", /PNG|CRC|damaged/i],
      ["not JSON", Buffer.from("{ nope"), "application/json", /not valid JSON|neither/i],
      [
        "a card with wrong types",
        Buffer.from(JSON.stringify({ spec: "chara_card_v2", spec_version: "2.0", data: { name: 42 } })),
        "application/json",
        /not a valid character card/,
      ],
      ["JSON that is no card", Buffer.from(JSON.stringify({ hello: "world" })), "application/json", /not a character card/],
      ["an empty body", Buffer.alloc(0), "application/json", /Choose a character card/],
    ];
    for (const [label, body, type, message] of cases) {
      const res = await request.post("/api/personas/import", { headers: { ...h, "Content-Type": type }, data: body });
      expect(res.status(), label).toBeGreaterThanOrEqual(400);
      expect(res.status(), label).toBeLessThan(500);
      expect((await res.json()).message, label).toMatch(message);
    }
    // Card chunks that are no base64, and base64 that is no JSON, inside a well-formed PNG (a
    // broken ccv3 falls back to chara, as the V3 spec asks, so both are broken here).
    const { withTextChunks } = await import("../../app/infra/formats/png.server");
    for (const [label, text, message] of [
      ["not base64", "!!!not base64!!!", /not base64/],
      ["not JSON", Buffer.from("not json").toString("base64"), /not JSON/],
    ] as const) {
      const bad = withTextChunks(png, [
        { keyword: "ccv3", text },
        { keyword: "chara", text },
      ]);
      const res = await request.post("/api/personas/import", { headers: { ...h, "Content-Type": "image/png" }, data: Buffer.from(bad) });
      expect(res.status(), label).toBe(400);
      expect((await res.json()).message, label).toMatch(message);
    }
    const tooBig = await request.post("/api/personas/import", {
      headers: { ...h, "Content-Type": "image/png" },
      data: Buffer.concat([png, Buffer.alloc(9 * 1024 * 1024)]),
    });
    expect(tooBig.status()).toBe(413);
    // Only the original persona exists.
    const list = await request.get("/api/personas?status=all", { headers: h });
    expect((await list.json()).map((x: { id: string }) => x.id)).toEqual([p.id]);
  });
});
