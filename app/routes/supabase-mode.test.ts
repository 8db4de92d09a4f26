// Supabase mode through the real routes, against the fake GoTrue: Supabase's session
// cookies and the PKCE verifier cookie must ride on our redirects, and the session they
// carry must open the signed-in pages.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startFakeGoTrue, type FakeGoTrue } from "../../tests/support/fake-gotrue";
import { Jar, caught } from "../../tests/support/route-calls";

const { installTestDatabase } = await import("../../tests/support/test-database");

let fake: FakeGoTrue;
let handle: Awaited<ReturnType<typeof installTestDatabase>>;
beforeAll(async () => {
  // The database first (it follows DATABASE_URL, which Supabase mode below requires).
  handle = await installTestDatabase();
  // As supabase/config.toml: the app is the site and /auth/callback is an allowed redirect.
  fake = await startFakeGoTrue({ siteUrl: "http://app.test", additionalRedirectUrls: ["http://app.test/auth/callback"] });
  Object.assign(process.env, {
    DATA_DIR: mkdtempSync(path.join(tmpdir(), "pf-supa-")),
    APP_URL: "http://app.test",
    SUPABASE_URL: fake.url,
    SUPABASE_ANON_KEY: fake.anonKey,
    SUPABASE_SERVICE_ROLE_KEY: fake.serviceRoleKey,
    // Required in Supabase mode; never dialled here, the test installs its own database.
    DATABASE_URL: "postgres://unused@127.0.0.1:9/unused",
    OAUTH_PROVIDERS: "github",
  });
});

const { closeDatabase } = await import("~/infra/db/db.server");
const { auth } = await import("~/infra/auth/auth.server");
const { requireUser } = await import("~/services/session.server");
const login = await import("./login");
const logout = await import("./logout");
const oauthStart = await import("./api.$/auth.$provider");
const callback = await import("./auth.callback");
const apiRegister = await import("./api.$/auth.register");
const registerPage = await import("./register");

afterAll(async () => {
  await closeDatabase();
  await fake.close();
});

/** Supabase writes its own auth.users row, and our trigger makes the profile from it. */
async function mirrorUser(id: string, email: string, firstName: string) {
  await handle.raw.rows(
    `insert into auth.users (id, email, raw_user_meta_data, raw_app_meta_data, email_confirmed_at) values ($1, $2, $3::jsonb, '{"provider":"email"}'::jsonb, now())`,
    [id, email, JSON.stringify({ first_name: firstName, last_name: "Supa" })],
  );
}

describe("Supabase mode", () => {
  it("uses the Supabase adapter", () => {
    expect(auth().kind).toBe("supabase");
  });

  it("sign-in sets Supabase's cookies on the redirect; they open signed-in pages; log out ends it", async () => {
    const user = fake.createUser({ email: "sb-user@example.com", password: "Forge!pass1", confirmed: true });
    await mirrorUser(user.id, "sb-user@example.com", "Sabine");
    const jar = new Jar();
    const form = new URLSearchParams({ email: "sb-user@example.com", password: "Forge!pass1", redirectTo: "/settings" });
    const response = jar.take(
      (await login.action({
        request: new Request("http://app.test/login", {
          method: "POST",
          body: form,
          headers: { "content-type": "application/x-www-form-urlencoded" },
        }),
        params: {},
        context: { clientAddress: "203.0.113.5" },
      })) as Response,
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/settings");
    expect([...jar.cookies.keys()].some((name) => name.startsWith("sb-"))).toBe(true);

    const page = new Request("http://app.test/settings", { headers: { cookie: jar.header() } });
    const { user: signedIn } = await requireUser(page);
    expect(signedIn).toMatchObject({ id: user.id, email: "sb-user@example.com", firstName: "Sabine" });

    const out = jar.take(
      (await logout.action({
        request: new Request("http://app.test/logout", { method: "POST", headers: { cookie: jar.header() } }),
        params: {},
        context: {},
      })) as Response,
    );
    expect(out.headers.get("Location")).toBe("/");
    expect(fake.activeSessions(user.id)).toBe(0);
    const after = await caught(() =>
      requireUser(new Request("http://app.test/settings", { headers: { cookie: page.headers.get("cookie")! } })),
    );
    expect(after.status).toBe(302);
    expect(after.headers.get("Location")).toBe("/login?redirectTo=%2Fsettings");
  });

  it("OAuth with PKCE: the verifier cookie set on the way out is what completes the callback", async () => {
    fake.setOAuthAccount("github", { email: "octo@example.com", name: "Octo Cat" });
    const jar = new Jar();
    const start = jar.take(
      await caught(() =>
        oauthStart.action({
          request: new Request("http://app.test/api/auth/github", { method: "POST" }),
          params: { provider: "github" },
          context: {},
        }),
      ),
    );
    expect(start.status).toBe(302);
    const authorize = new URL(start.headers.get("Location")!);
    expect(authorize.pathname).toBe("/auth/v1/authorize");
    expect(authorize.searchParams.get("provider")).toBe("github");
    expect(authorize.searchParams.get("code_challenge")).toBeTruthy();
    expect([...jar.cookies.keys()].some((name) => name.includes("code-verifier"))).toBe(true);

    const back = await fake.followOAuth(authorize.toString());
    expect(`${back.origin}${back.pathname}`).toBe("http://app.test/auth/callback");
    const octo = fake.userByEmail("octo@example.com")!;
    await mirrorUser(octo.id, "octo@example.com", "Octo");

    // Without the verifier cookie the code is useless.
    const stranger = await caught(() => callback.loader({ request: new Request(back), params: {}, context: {} }));
    expect(stranger.headers.get("Location")).toBe("/login");

    const done = jar.take(
      await caught(() => callback.loader({ request: new Request(back, { headers: { cookie: jar.header() } }), params: {}, context: {} })),
    );
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe("/dashboard");
    const { user } = await requireUser(new Request("http://app.test/dashboard", { headers: { cookie: jar.header() } }));
    expect(user.email).toBe("octo@example.com");
  });

  it("an unknown provider is a 404", async () => {
    const res = await caught(() =>
      oauthStart.loader({ request: new Request("http://app.test/api/auth/myspace"), params: { provider: "myspace" }, context: {} }),
    );
    expect(res.status).toBe(404);
  });

  describe("GoTrue's refusals reach the visitor as readable 4xx answers", () => {
    const registerJson = (email: string, client = "198.51.100.20") =>
      caught(() =>
        apiRegister.action({
          request: new Request("http://app.test/api/auth/register", {
            method: "POST",
            headers: { "content-type": "application/json", origin: "http://app.test" },
            body: JSON.stringify({ firstName: "Repeat", lastName: "Visitor", email, password: "Forge!pass1" }),
          }),
          params: {},
          context: { clientAddress: client },
        }),
      );

    it("a repeat registration of an unconfirmed address is answered exactly like the first", async () => {
      const first = await registerJson("twice@example.com");
      const again = await registerJson("twice@example.com");
      expect(again.status).toBe(first.status);
      expect(await again.json()).toEqual(await first.json());
      expect(first.status).toBe(201);
      expect(fake.requestsTo("/signup").map((r) => r.status)).toEqual([200, 429]);
      expect(fake.requestsTo("/signup").every((r) => r.headers["sb-forwarded-for"] === "198.51.100.20")).toBe(true);
    });

    it("the project's e-mail quota is a 429 with a message, not a claim that a mail was sent", async () => {
      fake.config.emailQuotaPerHour = 0;
      try {
        const res = await registerJson("quota@example.com");
        expect(res.status).toBe(429);
        expect(await res.json()).toMatchObject({
          message: "We cannot send more e-mails right now. Please try again in an hour.",
          code: "rate_limited",
        });
        expect(fake.userByEmail("quota@example.com")).toBeUndefined();
      } finally {
        fake.config.emailQuotaPerHour = 30;
      }
    });

    it("closed sign-ups: the register page answers 403 with the reason, the form keeps its values", async () => {
      fake.fail({ path: "/signup", status: 422, body: { code: "signup_disabled", message: "Signups not allowed for this instance" } });
      const form = new URLSearchParams({ firstName: "Closed", lastName: "Door", email: "closed@example.com", password: "Forge!pass1" });
      const res = (await registerPage.action({
        request: new Request("http://app.test/register", {
          method: "POST",
          body: form,
          headers: { "content-type": "application/x-www-form-urlencoded" },
        }),
        params: {},
        context: { clientAddress: "198.51.100.21" },
      })) as unknown as { init: { status: number }; data: { message: string; values: { email: string } } };
      expect(res.init.status).toBe(403);
      expect(res.data.message).toBe("New sign-ups are closed at the moment.");
      expect(res.data.values.email).toBe("closed@example.com");
    });

    it("GoTrue down: 503 with a message to try again, no server error", async () => {
      fake.fail({ path: "/signup", status: 503, times: 3 });
      const res = await registerJson("down@example.com");
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ message: "The sign-in service is not answering right now. Please try again in a moment." });
      fake.clearFailures();
    });
  });
});
