// The fake GoTrue must behave like GoTrue where the Supabase adapter's behaviour depends on
// it (docs/decisions/010-supabase-as-it-really-is.md): otherwise the adapter's tests would pass against a friendlier server.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { startFakeGoTrue, type FakeGoTrue } from "../support/fake-gotrue";

let fake: FakeGoTrue;
beforeAll(async () => {
  fake = await startFakeGoTrue({ siteUrl: "http://localhost:3000", additionalRedirectUrls: ["https://*.preview.example.test/**"] });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

async function call(path: string, init: { method?: string; body?: unknown; headers?: Record<string, string>; query?: string } = {}) {
  const res = await fetch(`${fake.url}/auth/v1${path}${init.query ? `?${init.query}` : ""}`, {
    method: init.method ?? "POST",
    headers: { apikey: fake.anonKey, "Content-Type": "application/json", "X-Supabase-Api-Version": "2024-01-01", ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: res.status, json: (await res.json().catch(() => null)) as Record<string, unknown> | null };
}

const signUp = (email: string, redirectTo?: string, headers?: Record<string, string>) =>
  call("/signup", {
    body: { email, password: "correct horse", data: { first_name: "Eve" } },
    query: redirectTo ? `redirect_to=${encodeURIComponent(redirectTo)}` : "",
    headers,
  });

describe("fake GoTrue", () => {
  it("signs ES256 with a kid its JWKS publishes; HS256 (empty JWKS) for a legacy project", async () => {
    fake.createUser({ email: "ada@example.test", password: "correct horse" });
    const token = (await call("/token", { query: "grant_type=password", body: { email: "ada@example.test", password: "correct horse" } }))
      .json?.access_token as string;
    const header = JSON.parse(Buffer.from(token.split(".")[0]!, "base64url").toString()) as { alg: string; kid: string };
    expect(header).toMatchObject({ alg: "ES256", kid: fake.signingKeyId });
    const jwks = await call("/.well-known/jwks.json", { method: "GET" });
    expect(jwks.json?.keys).toEqual([expect.objectContaining({ kty: "EC", crv: "P-256", kid: fake.signingKeyId, alg: "ES256" })]);

    fake.config.signing = "HS256";
    expect((await call("/.well-known/jwks.json", { method: "GET" })).json?.keys).toEqual([]);
  });

  it("matches redirects like GoTrue: any port and path on site_url's host name, else a glob where * stops at . and /", async () => {
    await signUp("a@example.test", "http://localhost:5173/verify-email");
    await signUp("b@example.test", "https://pr-1.preview.example.test/verify-email");
    await signUp("c@example.test", "https://evil.pr-1.preview.example.test/verify-email");
    await signUp("d@example.test", "https://localhost.evil.test/verify-email");
    expect(["a", "b", "c", "d"].map((n) => fake.lastMail(`${n}@example.test`)?.redirectTo)).toEqual([
      "http://localhost:5173/verify-email",
      "https://pr-1.preview.example.test/verify-email",
      "http://localhost:3000",
      "http://localhost:3000",
    ]);
  });

  it("limits mails per address (60 s by default) and per project (quota), with GoTrue's two messages", async () => {
    expect((await signUp("eve@example.test")).status).toBe(200);
    const again = await signUp("eve@example.test");
    expect(again.status).toBe(429);
    expect(again.json).toMatchObject({
      code: "over_email_send_rate_limit",
      message: expect.stringMatching(/^For security purposes, you can only request this after \d+ seconds\.$/),
    });

    fake.config.emailQuotaPerHour = 1;
    const quota = await signUp("zed@example.test");
    expect(quota).toMatchObject({ status: 429, json: { code: "over_email_send_rate_limit", message: "Email rate limit exceeded" } });
    expect(fake.userByEmail("zed@example.test")).toBeUndefined();
  });

  it("limits sign-ups and sign-ins per client IP, reading Sb-Forwarded-For only when the project allows forwarding", async () => {
    fake.config.signInSignUpsPerFiveMinutes = 1;
    fake.config.maxFrequencySeconds = 0;
    expect((await signUp("one@example.test", undefined, { "Sb-Forwarded-For": "198.51.100.1" })).status).toBe(200);
    expect((await signUp("two@example.test", undefined, { "Sb-Forwarded-For": "198.51.100.2" })).status).toBe(200);
    expect(await signUp("three@example.test", undefined, { "Sb-Forwarded-For": "198.51.100.1" })).toMatchObject({
      status: 429,
      json: { code: "over_request_rate_limit" },
    });

    fake.config.sbForwardedFor = false; // the header is ignored: everyone is the app server
    expect((await signUp("four@example.test", undefined, { "Sb-Forwarded-For": "198.51.100.3" })).status).toBe(200);
    expect((await signUp("five@example.test", undefined, { "Sb-Forwarded-For": "198.51.100.4" })).status).toBe(429);
  });

  it("verifies token hashes exactly: a pkce_ hash does not verify without its prefix", async () => {
    await call("/signup", {
      body: { email: "pk@example.test", password: "correct horse", code_challenge: "x".repeat(43), code_challenge_method: "s256" },
    });
    const hash = fake.lastMail("pk@example.test")!.tokenHash;
    expect(hash.startsWith("pkce_")).toBe(true);
    expect((await call("/verify", { body: { type: "signup", token_hash: hash.slice("pkce_".length) } })).status).toBe(403);
    expect((await call("/verify", { body: { type: "signup", token_hash: hash } })).status).toBe(200);
  });

  it("gives OAuth users the provider's claims only, and replaces an unconfirmed pre-registration's metadata", async () => {
    await signUp("victim@example.test"); // an attacker's unconfirmed sign-up with first_name "Eve"
    fake.setOAuthAccount("google", { email: "victim@example.test", name: "Victor Vega", avatarUrl: "https://lh3.example.test/v" });
    fake.setOAuthAccount("github", { email: "octo@example.test", userName: "octocat" });
    fake.mintAuthCode({ provider: "google", email: "victim@example.test", codeChallenge: "c" });
    fake.mintAuthCode({ provider: "github", email: "octo@example.test", codeChallenge: "c" });

    const victim = fake.userByEmail("victim@example.test")!;
    expect(victim.userMetadata).not.toHaveProperty("first_name");
    expect(victim.userMetadata).toMatchObject({
      name: "Victor Vega",
      full_name: "Victor Vega",
      picture: "https://lh3.example.test/v",
      avatar_url: "https://lh3.example.test/v",
    });
    expect(victim.password).toBeNull();
    expect(fake.userByEmail("octo@example.test")!.userMetadata).toMatchObject({ user_name: "octocat", preferred_username: "octocat" });
    expect(fake.userByEmail("octo@example.test")!.userMetadata).not.toHaveProperty("first_name");
  });
});
