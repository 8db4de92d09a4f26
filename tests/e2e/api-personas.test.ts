// The persona calls of SPEC §7 that exist so far, at their HTTP boundary.
import { createAccount, expect, test } from "./support";

const persona = (name = "Nova") => ({
  name,
  type: "vtuber",
  gender: "female",
  ageRange: "18-24",
  interests: ["gaming", "music"],
  description: "A cheerful late-night streamer.",
  personality: ["Outgoing", "Creative"],
});

test.describe("persona API", () => {
  test("create, draft, read; another user's id is 404", async ({ request }) => {
    const owner = await createAccount(request);
    const auth = { Authorization: `Bearer ${owner.token}` };
    const created = await request.post("/api/personas", { headers: auth, data: persona() });
    expect(created.status()).toBe(201);
    const body = await created.json();
    expect(body).toMatchObject({ name: "Nova", status: "active", type: "vtuber", interests: ["gaming", "music"] });

    const draft = await request.post("/api/personas/draft", { headers: auth, data: { name: "Half Done" } });
    expect(draft.status()).toBe(201);
    expect(await draft.json()).toMatchObject({ name: "Half Done", status: "in_progress" });

    expect((await request.get(`/api/personas/${body.id}`, { headers: auth })).status()).toBe(200);
    const stranger = await createAccount(request);
    const peek = await request.get(`/api/personas/${body.id}`, { headers: { Authorization: `Bearer ${stranger.token}` } });
    expect(peek.status()).toBe(404);
    expect(await peek.json()).toEqual({ message: "Persona Not Found" });
    expect((await request.get(`/api/personas/${body.id}`)).status()).toBe(401);
  });

  test("invalid values get the spec's messages and nothing is stored", async ({ request }) => {
    const owner = await createAccount(request);
    const auth = { Authorization: `Bearer ${owner.token}` };
    const res = await request.post("/api/personas", {
      headers: auth,
      data: { ...persona("A"), gender: "robot", interests: [], personality: ["Sneaky"], description: "x".repeat(151) },
    });
    expect(res.status()).toBe(400);
    expect((await res.json()).errors).toMatchObject({
      name: ["Name must be at least 2 characters"],
      gender: ["Invalid gender"],
      interests: ["At least one interest is required"],
      description: ["Description must be 150 characters or less"],
    });
    const unknown = await request.post("/api/personas", { headers: auth, data: { ...persona(), userId: "someone-else" } });
    expect(unknown.status()).toBe(400);
    expect((await unknown.json()).message).toMatch(/Unknown field: userId/);
    expect(await (await request.get("/api/user/usage", { headers: auth })).json()).toEqual({ subscriptionStatus: "free", canCreateMore: true });
  });

  test("backstory: Missing Information without a trait; 800+ words otherwise", async ({ request }) => {
    const owner = await createAccount(request);
    const auth = { Authorization: `Bearer ${owner.token}` };
    const missing = await request.post("/api/generate-backstory", { headers: auth, data: { name: "Nova", type: "vtuber", gender: "female", personality: [] } });
    expect(missing.status()).toBe(400);
    expect((await missing.json()).message).toBe("Please provide name, type, gender, and at least one personality trait.");
    const ok = await request.post("/api/generate-backstory", { headers: auth, data: persona() });
    expect(ok.status()).toBe(200);
    const { backstory } = await ok.json();
    expect(backstory.split(/\s+/).filter(Boolean).length).toBeGreaterThanOrEqual(800);
  });

  test("the Free plan stops at 10 personas", async ({ request }) => {
    const owner = await createAccount(request);
    const auth = { Authorization: `Bearer ${owner.token}` };
    for (let i = 0; i < 10; i++) {
      expect((await request.post("/api/personas/draft", { headers: auth, data: { name: `Draft ${i}` } })).status()).toBe(201);
    }
    expect(await (await request.get("/api/user/usage", { headers: auth })).json()).toEqual({ subscriptionStatus: "free", canCreateMore: false });
    const eleventh = await request.post("/api/personas", { headers: auth, data: persona() });
    expect(eleventh.status()).toBe(403);
    expect(await eleventh.json()).toMatchObject({
      code: "persona_limit_reached",
      message: "You've reached the maximum of 10 personas for the Free Plan. Upgrade to Premium for unlimited persona creation and additional features.",
    });
  });
});
