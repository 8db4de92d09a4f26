// Third-party sign-in on the embedded auth (ADR 011) through the real routes, against a
// local identity provider (tests/support/fake-oauth-provider.ts: an OpenID Connect issuer
// standing in for Google and a generic issuer, and a GitHub): state, PKCE and nonce, the
// linking rules, and every refusal leaving no account created or changed.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { FAKE_OAUTH_CLIENT, startFakeOAuthProvider, type FakeOAuthProvider } from "../../tests/support/fake-oauth-provider";
import { Jar, caught } from "../../tests/support/route-calls";

const { installTestDatabase } = await import("../../tests/support/test-database");

let fake: FakeOAuthProvider;
let handle: Awaited<ReturnType<typeof installTestDatabase>>;
beforeAll(async () => {
  handle = await installTestDatabase();
  fake = await startFakeOAuthProvider();
  Object.assign(process.env, {
    DATA_DIR: mkdtempSync(path.join(tmpdir(), "pf-oauth-")),
    APP_URL: "http://app.test",
    OAUTH_GOOGLE_CLIENT_ID: FAKE_OAUTH_CLIENT.clientId,
    OAUTH_GOOGLE_CLIENT_SECRET: FAKE_OAUTH_CLIENT.clientSecret,
    OAUTH_GOOGLE_ISSUER: fake.url,
    OAUTH_GITHUB_CLIENT_ID: FAKE_OAUTH_CLIENT.clientId,
    OAUTH_GITHUB_CLIENT_SECRET: FAKE_OAUTH_CLIENT.clientSecret,
    OAUTH_GITHUB_URL: fake.githubUrl,
    OAUTH_OIDC_ISSUER: fake.url,
    OAUTH_OIDC_CLIENT_ID: FAKE_OAUTH_CLIENT.clientId,
    OAUTH_OIDC_CLIENT_SECRET: FAKE_OAUTH_CLIENT.clientSecret,
    OAUTH_OIDC_NAME: "Acme ID",
  });
});

const { closeDatabase } = await import("~/infra/db/db.server");
const { auth, oauthProviders } = await import("~/infra/auth/auth.server");
const { getToast } = await import("~/infra/web/toast.server");
const { requireUser } = await import("~/services/session.server");
const { register, signIn, requestContext } = await import("~/services/accounts.server");
const login = await import("./login");
const logout = await import("./logout");
const oauthStart = await import("./api.$/auth.$provider");
const callback = await import("./auth.callback");

afterAll(async () => {
  await closeDatabase();
  await fake.close();
});

type Person = Record<string, string | boolean>;

/** Presses 'Continue with …' and signs in at the provider as `person`; returns the callback address. */
async function atProvider(jar: Jar, provider: string, person: Person, redirectTo?: string): Promise<URL> {
  const body = redirectTo === undefined ? undefined : new URLSearchParams({ redirectTo });
  const start = jar.take(
    await caught(() =>
      oauthStart.action({
        request: new Request(`http://app.test/api/auth/${provider}`, { method: "POST", body }),
        params: { provider },
        context: {},
      }),
    ),
  );
  expect(start.status).toBe(302);
  const authorize = new URL(start.headers.get("Location")!);
  expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
  expect(authorize.searchParams.get("state")).toBeTruthy();
  const form = new URLSearchParams(authorize.searchParams);
  for (const [key, value] of Object.entries(person)) {
    if (value === false) continue;
    form.set(key, value === true ? "true" : value);
  }
  if (person.email_verified === false || person.verified === false) {
    form.delete("email_verified");
    form.delete("verified");
  } else {
    form.set(provider === "github" ? "verified" : "email_verified", "true");
  }
  let response = await fetch(`${authorize.origin}${authorize.pathname}`, { method: "POST", body: form, redirect: "manual" });
  let location = new URL(response.headers.get("Location")!, authorize);
  while (location.origin === authorize.origin) {
    response = await fetch(location, { redirect: "manual" });
    location = new URL(response.headers.get("Location")!, authorize);
  }
  expect(`${location.origin}${location.pathname}`).toBe("http://app.test/auth/callback");
  return location;
}

async function back(jar: Jar, url: URL | string) {
  return jar.take(
    await caught(() => callback.loader({ request: new Request(url, { headers: { cookie: jar.header() } }), params: {}, context: {} })),
  );
}

async function signInWith(provider: string, person: Person) {
  const jar = new Jar();
  const url = await atProvider(jar, provider, person);
  const response = await back(jar, url);
  return { jar, url, response };
}

/** The failure toast the login page shows. */
async function toastOf(response: Response) {
  expect(response.status).toBe(302);
  expect(response.headers.get("Location")).toBe("/login");
  const jar = new Jar();
  jar.take(response);
  const { toast } = await getToast(new Request("http://app.test/login", { headers: { cookie: jar.header() } }));
  return toast;
}

async function signedInUser(jar: Jar) {
  const { user } = await requireUser(new Request("http://app.test/dashboard", { headers: { cookie: jar.header() } }));
  return user;
}

const count = async (query: string, params: unknown[] = []) =>
  Number((await handle.raw.rows<{ n: number | string }>(`select count(*) as n from ${query}`, params))[0]!.n);

async function passwordAccount(email: string, verified: boolean) {
  const ctx = requestContext(new Request("http://app.test/register", { method: "POST" }), { clientAddress: "203.0.113.9" });
  await register(ctx, { firstName: "Pass", lastName: "Word", email, password: "Forge!pass1" });
  if (verified) await handle.raw.rows(`update auth.users set email_confirmed_at = now() where email = $1`, [email]);
  const [row] = await handle.raw.rows<{ id: string }>(`select id from auth.users where email = $1`, [email]);
  return row!.id;
}

async function passwordWorks(email: string) {
  const ctx = requestContext(new Request("http://app.test/login", { method: "POST" }), {
    clientAddress: `203.0.113.${Math.floor(Math.random() * 200)}`,
  });
  try {
    await signIn(ctx, { email, password: "Forge!pass1" });
    return true;
  } catch {
    return false;
  }
}

describe("third-party sign-in on the embedded auth", () => {
  it("offers the configured providers by name", () => {
    expect(auth().kind).toBe("local");
    expect(oauthProviders()).toEqual([
      { id: "google", name: "Google" },
      { id: "github", name: "GitHub" },
      { id: "oidc", name: "Acme ID" },
    ]);
  });

  it("the login page lists them", async () => {
    const page = (await login.loader({ request: new Request("http://app.test/login"), params: {}, context: {} })) as unknown as {
      data: { providers: { id: string }[] };
    };
    expect(page.data.providers.map((p) => p.id)).toEqual(["google", "github", "oidc"]);
  });

  it("Google: a new account, verified, named and pictured from the claims; a session like a password one", async () => {
    const { jar, response } = await signInWith("google", {
      email: "Grace@Example.com",
      given_name: "Grace",
      family_name: "Hopper",
      name: "Grace Hopper",
      picture: "https://images.example.com/grace.png",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/dashboard");
    const user = await signedInUser(jar);
    expect(user).toMatchObject({
      email: "grace@example.com",
      emailVerified: true,
      firstName: "Grace",
      lastName: "Hopper",
      profileImageUrl: "https://images.example.com/grace.png",
    });
    expect(await count(`private.oauth_identities where user_id = $1 and provider = 'google'`, [user.id])).toBe(1);

    // Sign-out ends it exactly as for a password session.
    const cookie = jar.header();
    const out = jar.take(
      (await logout.action({
        request: new Request("http://app.test/logout", { method: "POST", headers: { cookie } }),
        params: {},
        context: {},
      })) as Response,
    );
    expect(out.headers.get("Location")).toBe("/");
    const after = await caught(() => requireUser(new Request("http://app.test/dashboard", { headers: { cookie } })));
    expect(after.status).toBe(302);

    // Signing in again finds the same account through the identity.
    const again = await signInWith("google", { email: "grace@example.com", given_name: "Grace", family_name: "Hopper" });
    expect((await signedInUser(again.jar)).id).toBe(user.id);
  });

  it("a password reset ends a provider's session and gives the account a password", async () => {
    const { jar } = await signInWith("google", { email: "reset-me@example.com", given_name: "Reset" });
    const user = await signedInUser(jar);
    expect(await passwordWorks("reset-me@example.com")).toBe(false);
    const ctx = requestContext(new Request("http://app.test/reset-password", { method: "POST" }), {});
    const { resetToken } = await auth().requestPasswordReset(ctx, "reset-me@example.com");
    await auth().resetPassword(ctx, resetToken!, "Forge!pass1");
    const after = await caught(() => requireUser(new Request("http://app.test/dashboard", { headers: { cookie: jar.header() } })));
    expect(after.status).toBe(302);
    expect(await passwordWorks("reset-me@example.com")).toBe(true);
    // And the provider still opens the same account.
    const again = await signInWith("google", { email: "reset-me@example.com", given_name: "Reset" });
    expect((await signedInUser(again.jar)).id).toBe(user.id);
  });

  it("comes back to the page that sent the visitor to sign in, same-site paths only", async () => {
    const jar = new Jar();
    const url = await atProvider(jar, "oidc", { email: "back@example.com", given_name: "Back" }, "/persona/123?tab=chat");
    expect((await back(jar, url)).headers.get("Location")).toBe("/persona/123?tab=chat");
    const offsite = new Jar();
    const url2 = await atProvider(offsite, "oidc", { email: "back@example.com" }, "//evil.example.com/");
    expect((await back(offsite, url2)).headers.get("Location")).toBe("/dashboard");
  });

  it("GitHub: names from `name`, else the login; the e-mail from /user/emails", async () => {
    const named = await signInWith("github", {
      login: "adal",
      name: "Ada King Lovelace",
      email: "ada@example.com",
      avatar_url: "https://avatars.example.com/u/1",
    });
    expect(await signedInUser(named.jar)).toMatchObject({
      email: "ada@example.com",
      firstName: "Ada",
      lastName: "King Lovelace",
      profileImageUrl: "https://avatars.example.com/u/1",
    });
    const unnamed = await signInWith("github", { login: "octokitten", email: "kitten@example.com" });
    expect(await signedInUser(unnamed.jar)).toMatchObject({ firstName: "octokitten", lastName: null, profileImageUrl: null });
  });

  it("a generic OpenID Connect issuer: full name split when there are no given/family names", async () => {
    const { jar } = await signInWith("oidc", { email: "linus@example.com", name: "Linus Benedict Torvalds" });
    expect(await signedInUser(jar)).toMatchObject({ firstName: "Linus", lastName: "Benedict Torvalds" });
  });

  it("links an existing account with a verified e-mail, keeping its names and password", async () => {
    const id = await passwordAccount("verified-owner@example.com", true);
    const { jar } = await signInWith("google", { email: "verified-owner@example.com", given_name: "Other", family_name: "Name" });
    const user = await signedInUser(jar);
    expect(user).toMatchObject({ id, firstName: "Pass", lastName: "Word" });
    expect(await passwordWorks("verified-owner@example.com")).toBe(true);
  });

  it("an unverified pre-registration of the address does not survive the owner's verified sign-in", async () => {
    // Someone registered the owner's address with their own password and names, never confirmed.
    const id = await passwordAccount("victim@example.com", false);
    await handle.raw.rows(`update public.profiles set profile_image_url = 'https://evil.example.com/x.png' where id = $1`, [id]);
    const { jar } = await signInWith("google", {
      email: "victim@example.com",
      given_name: "Real",
      family_name: "Owner",
      picture: "https://images.example.com/owner.png",
    });
    expect(await signedInUser(jar)).toMatchObject({
      id,
      emailVerified: true,
      firstName: "Real",
      lastName: "Owner",
      profileImageUrl: "https://images.example.com/owner.png",
    });
    // The squatter's password no longer opens the account.
    expect(await passwordWorks("victim@example.com")).toBe(false);
  });

  it("an unverified provider e-mail never takes over an account, nor creates one", async () => {
    const id = await passwordAccount("target@example.com", true);
    const before = await count("auth.users");
    const takeover = await signInWith("google", { email: "target@example.com", email_verified: false, given_name: "Mallory" });
    const toast = await toastOf(takeover.response);
    expect(toast?.description).toMatch(/e-mail address at Google is not verified/);
    expect(takeover.response.headers.getSetCookie().some((c) => c.startsWith("pf_session=") && !c.startsWith("pf_session=;"))).toBe(false);
    expect(await count(`private.oauth_identities where user_id = $1`, [id])).toBe(0);

    const fresh = await signInWith("github", { login: "nobody", email: "nobody@example.com", verified: false });
    expect((await toastOf(fresh.response))?.description).toMatch(/e-mail address at GitHub is not verified/);
    expect(await count("auth.users")).toBe(before);
    const [profile] = await handle.raw.rows<{ first_name: string }>(`select first_name from public.profiles where id = $1`, [id]);
    expect(profile!.first_name).toBe("Pass");
  });

  it("refuses an avatar that is not http(s) and a 10,000-character name, creating nothing", async () => {
    const before = await count("auth.users");
    const script = await signInWith("google", { email: "pic@example.com", given_name: "Pic", picture: "javascript:alert(1)" });
    expect((await toastOf(script.response))?.description).toMatch(/profile picture address that is not an http\(s\) web address/);
    const long = await signInWith("github", { login: "longname", name: "N".repeat(10_000), email: "long@example.com" });
    expect((await toastOf(long.response))?.description).toMatch(/name longer than 60 characters/);
    expect(await count("auth.users")).toBe(before);
    expect(await count(`auth.users where email in ('pic@example.com', 'long@example.com')`)).toBe(0);
  });

  it("a wrong or missing state, a lost flow cookie and a replayed callback are refused", async () => {
    const before = await count("auth.users");
    const jar = new Jar();
    const url = await atProvider(jar, "google", { email: "state@example.com", given_name: "State" });

    const wrong = new URL(url);
    wrong.searchParams.set("state", "forged");
    const wrongJar = new Jar();
    wrongJar.cookies = new Map(jar.cookies);
    expect((await toastOf(await back(wrongJar, wrong)))?.description).toMatch(/could not be matched to this browser/);

    const missing = new URL(url);
    missing.searchParams.delete("state");
    const missingJar = new Jar();
    missingJar.cookies = new Map(jar.cookies);
    expect((await toastOf(await back(missingJar, missing)))?.description).toMatch(/could not be matched to this browser/);

    // Another browser (no flow cookie) with the right address.
    expect((await toastOf(await back(new Jar(), url)))?.description).toMatch(/could not be matched to this browser/);
    expect(await count("auth.users")).toBe(before);

    // The real one completes; the same callback again is refused.
    const flowCookie = new Map(jar.cookies);
    const ok = await back(jar, url);
    expect(ok.headers.get("Location")).toBe("/dashboard");
    expect((await toastOf(await back(jar, url)))?.description).toMatch(/could not be matched to this browser/);
    // Even with the flow cookie copied from before, the provider will not take the code twice.
    const copied = new Jar();
    copied.cookies = flowCookie;
    const replay = await back(copied, url);
    expect(replay.headers.getSetCookie().some((c) => /^pf_session=[^;]/.test(c))).toBe(false);
    expect((await toastOf(replay))?.description).toBe(
      "Google did not accept this sign-in (the code was already used or has expired). Please start again.",
    );
    expect(await count("auth.users")).toBe(before + 1);
  });

  it("cancelling at the provider says so", async () => {
    const response = await back(new Jar(), "http://app.test/auth/callback?error=access_denied&state=x");
    expect((await toastOf(response))?.description).toBe("Signing in was cancelled at the provider.");
  });

  it("an identity signs in to its account even after its e-mail changed at the provider", async () => {
    const first = await signInWith("github", { id: "4242", login: "mover", email: "old@example.com" });
    const id = (await signedInUser(first.jar)).id;
    const second = await signInWith("github", { id: "4242", login: "mover", email: "new@example.com" });
    expect((await signedInUser(second.jar)).id).toBe(id);
  });

  it("a provider this server does not offer is a 404 with a message", async () => {
    const res = await caught(() =>
      oauthStart.loader({ request: new Request("http://app.test/api/auth/myspace"), params: { provider: "myspace" }, context: {} }),
    );
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: "This sign-in provider is not available." });
  });

  it("a provider that cannot be reached leaves the visitor on the login page with a message", async () => {
    // An OIDC issuer nobody listens on: discovery fails, nothing is started.
    const { createLocalAuth } = await import("~/infra/auth/local.server");
    const offline = createLocalAuth({
      oauthProviders: [{ id: "oidc", name: "Offline ID", clientId: "x", clientSecret: "y", url: "http://127.0.0.1:9" }],
    });
    const ctx = requestContext(new Request("http://app.test/api/auth/oidc", { method: "POST" }), {});
    await expect(offline.oauthStart(ctx, "oidc", "http://app.test/auth/callback")).rejects.toMatchObject({ code: "provider_error" });
  });
});
