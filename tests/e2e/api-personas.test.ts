// The persona calls (docs/product.md, API overview), at their HTTP boundary.
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
    expect(await (await request.get("/api/user/usage", { headers: auth })).json()).toEqual({
      subscriptionStatus: "free",
      canCreateMore: true,
    });
  });

  test("backstory: Missing Information without a trait; 800+ words otherwise", async ({ request }) => {
    const owner = await createAccount(request);
    const auth = { Authorization: `Bearer ${owner.token}` };
    const missing = await request.post("/api/generate-backstory", {
      headers: auth,
      data: { name: "Nova", type: "vtuber", gender: "female", personality: [] },
    });
    expect(missing.status()).toBe(400);
    expect((await missing.json()).message).toBe("Please provide name, type, gender, and at least one personality trait.");
    const ok = await request.post("/api/generate-backstory", { headers: auth, data: persona() });
    expect(ok.status()).toBe(200);
    const { backstory } = await ok.json();
    expect(backstory.split(/\s+/).filter(Boolean).length).toBeGreaterThanOrEqual(800);
  });

  test("the voice: created with the persona, read back whole, edited, cleared; a bad field changes nothing", async ({ request }) => {
    const owner = await createAccount(request);
    const auth = { Authorization: `Bearer ${owner.token}` };
    const created = await request.post("/api/personas", {
      headers: auth,
      data: { ...persona("Kira"), voice: { greeting: "Heya!", catchphrases: ["Stay cozy!"], speechStyle: "Short and bright." } },
    });
    expect(created.status()).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const read = async () => ((await (await request.get(`/api/personas/${id}`, { headers: auth })).json()) as { voice: unknown }).voice;
    expect(await read()).toEqual({
      greeting: "Heya!",
      alternateGreetings: [],
      exampleDialogue: null,
      speechStyle: "Short and bright.",
      catchphrases: ["Stay cozy!"],
      appearance: null,
      scenario: null,
      systemPrompt: null,
      postHistoryInstructions: null,
      authorsNote: null,
      authorsNoteDepth: 4,
    });

    // Guidance for chat models: a depth that is no whole number from 0 to 100 is refused, naming it.
    for (const authorsNoteDepth of [-1, 101, 2.5, "deep", true]) {
      const refused = await request.patch(`/api/personas/${id}`, {
        headers: auth,
        data: { ...persona("Kira"), voice: { greeting: "Heya!", authorsNote: "Sleepy.", authorsNoteDepth } },
      });
      expect(refused.status()).toBe(400);
      expect(await refused.json()).toMatchObject({
        message: "Author's note depth must be a whole number from 0 to 100",
        errors: { "voice.authorsNoteDepth": [expect.any(String)] },
      });
    }
    expect(await read()).toMatchObject({ authorsNote: null });

    const bad = await request.patch(`/api/personas/${id}`, {
      headers: auth,
      data: { ...persona("Kira"), voice: { greeting: "x".repeat(2001) } },
    });
    expect(bad.status()).toBe(400);
    expect(await bad.json()).toMatchObject({
      message: "Greeting must be 2,000 characters or less",
      errors: { "voice.greeting": [expect.any(String)] },
    });
    const wrongType = await request.patch(`/api/personas/${id}`, { headers: auth, data: { ...persona("Kira"), voice: "Heya" } });
    expect(wrongType.status()).toBe(400);
    expect(await read()).toMatchObject({ greeting: "Heya!" });

    const edited = await request.patch(`/api/personas/${id}`, {
      headers: auth,
      data: { ...persona("Kira"), voice: { scenario: "A cozy stream." } },
    });
    expect(edited.status()).toBe(200);
    expect(await read()).toMatchObject({ greeting: null, scenario: "A cozy stream." });
    // Without `voice` an edit leaves it as it is; null clears it.
    await request.patch(`/api/personas/${id}`, { headers: auth, data: persona("Kira Moon") });
    expect(await read()).toMatchObject({ scenario: "A cozy stream." });
    await request.patch(`/api/personas/${id}`, { headers: auth, data: { ...persona("Kira Moon"), voice: null } });
    expect(await read()).toMatchObject({ greeting: null, scenario: null, catchphrases: [] });
  });

  test("the Free plan stops at 10 personas", async ({ request }) => {
    const owner = await createAccount(request);
    const auth = { Authorization: `Bearer ${owner.token}` };
    for (let i = 0; i < 10; i++) {
      expect((await request.post("/api/personas/draft", { headers: auth, data: { name: `Draft ${i}` } })).status()).toBe(201);
    }
    expect(await (await request.get("/api/user/usage", { headers: auth })).json()).toEqual({
      subscriptionStatus: "free",
      canCreateMore: false,
    });
    const eleventh = await request.post("/api/personas", { headers: auth, data: persona() });
    expect(eleventh.status()).toBe(403);
    expect(await eleventh.json()).toMatchObject({
      code: "persona_limit_reached",
      message:
        "You've reached the maximum of 10 personas for the Free Plan. Upgrade to Premium for unlimited persona creation and additional features.",
    });
  });
});

test.describe("bad persona input through every entry point", () => {
  const patches: [string, Record<string, unknown>, string, string][] = [
    ["a missing name", { name: undefined }, "name", "Name must be at least 2 characters"],
    ["a name of the wrong type", { name: 42 }, "name", "Name must be at least 2 characters"],
    ["HTML in the name", { name: "<img src=x onerror=alert(1)>" }, "name", "Name cannot contain < or >"],
    ["an unknown type", { type: "wizard" }, "type", "Invalid persona type"],
    ["an unknown gender", { gender: "robot" }, "gender", "Invalid gender"],
    ["an unknown age range", { ageRange: "99+" }, "ageRange", "Invalid age range"],
    ["a 151-character description", { description: "x".repeat(151) }, "description", "Description must be 150 characters or less"],
    ["4 interests", { interests: ["gaming", "music", "art", "travel"] }, "interests", "Maximum 3 interests allowed"],
    ["an unknown interest", { interests: ["knitting"] }, "interests", "Invalid interest"],
    [
      "8 traits",
      { personality: ["Outgoing", "Reserved", "Social", "Quiet", "Assertive", "Reflective", "Stable", "Calm"] },
      "personality",
      "Maximum 7 personality traits allowed",
    ],
    ["duplicate traits", { personality: ["Calm", "Calm"] }, "personality", "Each personality trait can only be selected once"],
    ["a trait from no category", { personality: ["Sneaky"] }, "personality", "Invalid personality trait"],
    ["a 1 MB backstory", { backstory: "x".repeat(1024 * 1024) }, "backstory", "Backstory must be 20,000 characters or less"],
    ["a NUL in the description", { description: "a\u0000b" }, "description", "Description cannot contain control characters"],
  ];

  const escapeHtml = (text: string) =>
    text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll("'", "&#x27;");

  /** The same values as the wizard's form posts them: repeated keys for lists. */
  function asForm(values: Record<string, unknown>, intent: string) {
    const form = new FormData();
    form.set("intent", intent);
    form.set("step", "4");
    for (const [key, value] of Object.entries(values)) {
      if (value === undefined) continue;
      for (const item of Array.isArray(value) ? value : [value]) form.append(key, String(item));
    }
    return form;
  }

  test("the field's message, a 4xx, and nothing stored: API create and draft, wizard create and draft", async ({ request }) => {
    test.setTimeout(60_000);
    const owner = await createAccount(request);
    const auth = { Authorization: `Bearer ${owner.token}` };
    // Nine personas: one more stored by mistake would use up the Free plan.
    for (let i = 0; i < 9; i++) await request.post("/api/personas/draft", { headers: auth, data: { name: `Draft ${i}` } });

    for (const [label, patch, field, message] of patches) {
      const values = { ...persona(), ...patch };
      for (const path of ["/api/personas", "/api/personas/draft"]) {
        const res = await request.post(path, { headers: auth, data: values });
        expect(res.status(), `${label} → ${path}`).toBe(400);
        expect((await res.json()).errors?.[field], `${label} → ${path}`).toContain(message);
      }
      if (typeof patch[field] === "number") continue; // a form field is always text
      for (const intent of ["create", "save-draft"]) {
        const res = await request.post("/create-persona", { headers: auth, form: asForm(values, intent), maxRedirects: 0 });
        expect(res.status(), `${label} → wizard ${intent}`).toBe(400);
        const html = await res.text();
        expect(html.includes(escapeHtml(message)), `${label} → wizard ${intent}: ${message}`).toBe(true);
        expect(html.includes("<img src=x"), "markup is shown as text").toBe(false);
      }
    }
    expect(await (await request.get("/api/user/usage", { headers: auth })).json()).toEqual({
      subscriptionStatus: "free",
      canCreateMore: true,
    });
  });

  test("the wizard refuses an unknown move, and a stranger's draft is not found", async ({ request }) => {
    const owner = await createAccount(request);
    const draft = await (
      await request.post("/api/personas/draft", { headers: { Authorization: `Bearer ${owner.token}` }, data: { name: "Mine" } })
    ).json();
    const stranger = await createAccount(request);
    const auth = { Authorization: `Bearer ${stranger.token}` };
    const unknown = await request.post("/create-persona", { headers: auth, form: { intent: "delete-everything", name: "X" } });
    expect(unknown.status()).toBe(400);
    const form = asForm({ ...persona("Stolen"), personaId: draft.id }, "create");
    const stolen = await request.post("/create-persona", { headers: auth, form, maxRedirects: 0 });
    expect(stolen.status()).toBe(404);
    expect((await request.get(`/create-persona?id=${draft.id}`, { headers: auth })).status()).toBe(404);
    const mine = await request.get(`/api/personas/${draft.id}`, { headers: { Authorization: `Bearer ${owner.token}` } });
    expect(await mine.json()).toMatchObject({ name: "Mine", status: "in_progress" });
  });
});
