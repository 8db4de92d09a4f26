// The JSON API of accounts (docs/api.md, Accounts), at its HTTP boundary.
import { createAccount, expect, newEmail, strongPassword, test } from "./support";

test.describe("auth API", () => {
  test("register 201, then login refuses until verified", async ({ request }) => {
    const email = newEmail();
    const password = strongPassword();
    const res = await request.post("/api/auth/register", { data: { firstName: "Ada", lastName: "Byron", email, password } });
    expect(res.status()).toBe(201);
    expect(await res.json()).toEqual({ message: "Please check your email to verify your account." });
    const login = await request.post("/api/auth/login", { data: { email, password } });
    expect(login.status()).toBe(403);
    expect((await login.json()).message).toMatch(/verify your e-mail/);
  });

  test("login returns the token and the user; /api/auth/user answers with the client's fields", async ({ request }) => {
    const account = await createAccount(request, { firstName: "Ada", lastName: "Byron" });
    const res = await request.get("/api/auth/user", { headers: { Authorization: `Bearer ${account.token}` } });
    expect(res.status()).toBe(200);
    const user = await res.json();
    expect(Object.keys(user).sort()).toEqual(["createdAt", "email", "firstName", "id", "lastName", "profileImageUrl"]);
    expect(user).toMatchObject({ firstName: "Ada", lastName: "Byron", email: account.email, profileImageUrl: null });
  });

  test("bad bodies get a 4xx with a readable message, never a 500", async ({ request }) => {
    const cases: [string, Parameters<typeof request.post>[1], number, RegExp][] = [
      ["malformed JSON", { data: Buffer.from("{nope"), headers: { "Content-Type": "application/json" } }, 400, /Malformed JSON/],
      ["not an object", { data: [1, 2] }, 400, /JSON object/],
      ["unknown field", { data: { email: "a@b.co", password: "x", isAdmin: true } }, 400, /Unknown field: isAdmin/],
      ["wrong types", { data: { email: 42, password: ["x"] } }, 400, /.+/],
      ["a form instead of JSON", { form: { email: "a@b.co", password: "x" } }, 415, /application\/json/],
      ["10 MB", { data: { email: "a@b.co", password: "x".repeat(10 * 1024 * 1024) } }, 413, /too large/],
    ];
    for (const [label, body, status, message] of cases) {
      const res = await request.post("/api/auth/login", body);
      expect(res.status(), label).toBe(status);
      expect((await res.json()).message, label).toMatch(message);
    }
    const reg = await request.post("/api/auth/register", {
      data: { firstName: "A", lastName: "", email: "nope", password: "short" },
    });
    expect(reg.status()).toBe(400);
    expect((await reg.json()).errors).toEqual({
      firstName: ["First name must be at least 2 characters"],
      lastName: ["Last name must be at least 2 characters"],
      email: ["Invalid email address"],
      password: ["Password must be at least 8 characters"],
    });
    const wrongMethod = await request.get("/api/auth/login");
    expect(wrongMethod.status()).toBe(405);
  });

  test("missing, invalid or revoked tokens get 401", async ({ request }) => {
    expect((await request.get("/api/auth/user")).status()).toBe(401);
    expect((await request.get("/api/auth/user", { headers: { Authorization: "Bearer nonsense" } })).status()).toBe(401);
    const account = await createAccount(request);
    const auth = { Authorization: `Bearer ${account.token}` };
    expect((await request.post("/api/auth/logout", { headers: auth })).status()).toBe(200);
    expect((await request.get("/api/auth/user", { headers: auth })).status()).toBe(401);
  });

  test("five failed sign-ins for one e-mail → 429 with Retry-After, even with the right password", async ({ request }) => {
    const account = await createAccount(request);
    for (let i = 0; i < 5; i++) {
      const res = await request.post("/api/auth/login", { data: { email: account.email, password: "Wrong#Pass1" } });
      expect(res.status()).toBe(401);
    }
    const blocked = await request.post("/api/auth/login", { data: { email: account.email, password: account.password } });
    expect(blocked.status()).toBe(429);
    expect(Number(blocked.headers()["retry-after"])).toBeGreaterThan(0);
    expect((await blocked.json()).message).toMatch(/Too many failed sign-in attempts/);
  });

  test("profile and notification preferences", async ({ request }) => {
    const account = await createAccount(request);
    const auth = { Authorization: `Bearer ${account.token}` };
    const updated = await request.patch("/api/user/profile", { headers: auth, data: { firstName: "Augusta", lastName: "King" } });
    expect(updated.status()).toBe(200);
    expect(await updated.json()).toMatchObject({ firstName: "Augusta", lastName: "King" });
    const bad = await request.patch("/api/user/profile", { headers: auth, data: { firstName: "A", lastName: "K" } });
    expect(bad.status()).toBe(400);
    expect((await bad.json()).errors).toEqual({
      firstName: ["First name must be at least 2 characters"],
      lastName: ["Last name must be at least 2 characters"],
    });
    const email = await request.patch("/api/user/profile", { headers: auth, data: { lastName: "King", email: "other@example.com" } });
    expect(email.status()).toBe(400);

    const prefs = { personaCreation: false, narrativeGeneration: true, imageGeneration: false, marketingEmails: true };
    const saved = await request.patch("/api/user/notifications", { headers: auth, data: prefs });
    expect(saved.status()).toBe(200);
    expect(await (await request.get("/api/user/notifications", { headers: auth })).json()).toEqual(prefs);
    const wrong = await request.patch("/api/user/notifications", { headers: auth, data: { ...prefs, marketingEmails: "yes" } });
    expect(wrong.status()).toBe(400);
  });
});
