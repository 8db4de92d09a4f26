// The Supabase adapter against a fake GoTrue speaking GoTrue's HTTP (tests/support/fake-gotrue.ts):
// real supabase-js and @supabase/ssr, real HTTP, real cookies carried between requests.
import { createHash, generateKeyPairSync, randomUUID, sign } from "node:crypto";
import { createServer } from "node:net";

import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

import { startFakeGoTrue, type FakeGoTrue } from "../../../tests/support/fake-gotrue";
import { createSupabaseAuth } from "./supabase.server";
import { AuthError, type AuthAdapter, type AuthContext } from "./types";

const APP_URL = "http://localhost:3000";
const CALLBACK = `${APP_URL}/auth/callback`;

let fake: FakeGoTrue;
let auth: AuthAdapter;

beforeAll(async () => {
  fake = await startFakeGoTrue();
  auth = createSupabaseAuth(
    { SUPABASE_URL: fake.url, SUPABASE_ANON_KEY: fake.anonKey, SUPABASE_SERVICE_ROLE_KEY: fake.serviceRoleKey, APP_URL },
    { lookupSession },
  );
});

/** What auth.sessions joined to auth.users says in the project's database (auth.server.ts), read from the fake's state. */
async function lookupSession(sessionId: string, userId: string) {
  const session = fake.sessions.get(sessionId);
  const user = fake.users.get(userId);
  if (!session || session.userId !== userId || !user) return null;
  return {
    email: user.email,
    emailConfirmedAt: user.emailConfirmedAt ? new Date(user.emailConfirmedAt) : null,
    createdAt: new Date(user.createdAt),
  };
}
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  fake.reset();
});

/** A browser: keeps the cookies each response sets and sends them with the next request, as-is. */
class Browser {
  readonly jar = new Map<string, string>();
  /** The context of the last request (its responseHeaders hold what the route would send). */
  last!: AuthContext;

  context(path = "/"): AuthContext {
    const headers = new Headers();
    if (this.jar.size > 0) headers.set("Cookie", [...this.jar].map(([name, value]) => `${name}=${value}`).join("; "));
    return { request: new Request(`${APP_URL}${path}`, { headers }), responseHeaders: new Headers() };
  }

  store(ctx: AuthContext) {
    for (const line of ctx.responseHeaders.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const removed = value === "" || attributes.some((a) => /^\s*max-age\s*=\s*(0|-\d+)\s*$/i.test(a));
      if (removed) this.jar.delete(name);
      else this.jar.set(name, value);
    }
  }

  /** One request: builds the context from the jar, runs the adapter call, keeps the cookies it set (errors included). */
  async run<T>(call: (ctx: AuthContext) => Promise<T>, path = "/"): Promise<T> {
    const ctx = this.context(path);
    this.last = ctx;
    try {
      return await call(ctx);
    } finally {
      this.store(ctx);
    }
  }

  cookieNames(): string[] {
    return [...this.jar.keys()];
  }
  sessionCookie(): string | undefined {
    return this.cookieNames().find((n) => /^sb-.+-auth-token(\.\d+)?$/.test(n));
  }
  verifierCookie(): string | undefined {
    return this.cookieNames().find((n) => n.endsWith("-auth-token-code-verifier"));
  }
}

async function authErrorOf(promise: Promise<unknown>): Promise<AuthError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(AuthError);
    return error as AuthError;
  }
  throw new Error("expected an AuthError, but the call succeeded");
}

const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split(".")[1] ?? "", "base64url").toString("utf8")) as Record<string, unknown>;
const emptyCtx = (): AuthContext => ({ request: new Request(`${APP_URL}/api`), responseHeaders: new Headers() });

async function signedIn(email = "ada@example.com", password = "correct horse") {
  if (!fake.userByEmail(email)) fake.createUser({ email, password, userMetadata: { first_name: "Ada", last_name: "Lovelace" } });
  const browser = new Browser();
  const session = await browser.run((ctx) => auth.signIn(ctx, { email, password }), "/sign-in");
  return { browser, session };
}

describe("signUp", () => {
  it("sends the address, password, names and the verify-email redirect, and creates an unverified account", async () => {
    const browser = new Browser();
    const result = await browser.run((ctx) =>
      auth.signUp(ctx, { email: "Ada@Example.com", password: "correct horse", firstName: "Ada", lastName: "Lovelace" }),
    );

    const user = fake.userByEmail("ada@example.com");
    expect(result).toEqual({ status: "created", userId: user?.id });
    expect(result.verificationToken).toBeUndefined();
    expect(user?.emailConfirmedAt).toBeNull();

    const [req] = fake.requestsTo("/signup", "POST");
    expect(req?.query.redirect_to).toBe(`${APP_URL}/verify-email`);
    expect(req?.body).toMatchObject({
      email: "Ada@Example.com",
      password: "correct horse",
      data: { first_name: "Ada", last_name: "Lovelace" },
    });
    expect(req?.headers.apikey).toBe(fake.anonKey);
    // Supabase mails the link itself: a plain token hash, no PKCE verifier left in the browser.
    expect((req?.body as { code_challenge: unknown }).code_challenge).toBeNull();
    expect(fake.lastMail("ada@example.com", "signup")?.redirectTo).toBe(`${APP_URL}/verify-email`);
    expect(browser.last.responseHeaders.getSetCookie()).toEqual([]);
  });

  it("answers exists for a confirmed address (GoTrue's user without identities) and creates nothing", async () => {
    const existing = fake.createUser({ email: "ada@example.com", password: "first password" });
    const result = await auth.signUp(emptyCtx(), { email: "ada@example.com", password: "other password", firstName: "A", lastName: "L" });

    expect(result).toEqual({ status: "exists" });
    expect(fake.requestsTo("/signup")[0]?.status).toBe(200);
    expect([...fake.users.values()]).toEqual([existing]);
    expect(fake.mails).toEqual([]);
  });

  it("answers exists when an auto-confirming project says 422 user_already_exists", async () => {
    fake.config.autoconfirm = true;
    fake.createUser({ email: "ada@example.com", password: "first password" });
    const result = await auth.signUp(emptyCtx(), { email: "ada@example.com", password: "other password", firstName: "A", lastName: "L" });

    expect(result).toEqual({ status: "exists" });
    expect(fake.requestsTo("/signup")[0]?.status).toBe(422);
  });

  it("signs nobody in on an auto-confirming project: the session GoTrue opens is revoked", async () => {
    fake.config.autoconfirm = true;
    const browser = new Browser();
    const result = await browser.run((ctx) =>
      auth.signUp(ctx, { email: "ada@example.com", password: "correct horse", firstName: "A", lastName: "L" }),
    );

    expect(result.status).toBe("created");
    expect(fake.activeSessions(result.userId ?? "")).toBe(0);
    expect(browser.jar.size).toBe(0);
  });

  it("mails an unconfirmed address again and reports the same account as created", async () => {
    fake.config.maxFrequencySeconds = 0;
    const first = await auth.signUp(emptyCtx(), { email: "ada@example.com", password: "correct horse", firstName: "A", lastName: "L" });
    const again = await auth.signUp(emptyCtx(), { email: "ada@example.com", password: "correct horse", firstName: "A", lastName: "L" });

    expect(again).toEqual({ status: "created", userId: first.userId });
    expect(fake.mails.filter((m) => m.type === "signup")).toHaveLength(2);
  });

  it("turns GoTrue's weak_password refusal into weak_password with a readable message", async () => {
    const error = await authErrorOf(auth.signUp(emptyCtx(), { email: "ada@example.com", password: "abc", firstName: "A", lastName: "L" }));
    expect(error.code).toBe("weak_password");
    expect(error.message).toBe("This password is too weak or too common. Please choose another one.");
  });
});

describe("verifyEmail and resendVerification", () => {
  async function signUpAda() {
    const { userId } = await auth.signUp(emptyCtx(), {
      email: "ada@example.com",
      password: "correct horse",
      firstName: "A",
      lastName: "L",
    });
    return { userId: userId ?? "", tokenHash: fake.lastMail("ada@example.com", "signup")?.tokenHash ?? "" };
  }

  it("confirms the address with the mail's token hash (verifyOtp type signup) without signing in", async () => {
    const { userId, tokenHash } = await signUpAda();
    const browser = new Browser();
    const result = await browser.run((ctx) => auth.verifyEmail(ctx, tokenHash), `/verify-email?token=${tokenHash}&type=signup`);

    expect(result).toEqual({ userId, email: "ada@example.com" });
    expect(fake.requestsTo("/verify", "POST")[0]?.body).toMatchObject({ token_hash: tokenHash, type: "signup" });
    expect(fake.userByEmail("ada@example.com")?.emailConfirmedAt).not.toBeNull();
    // The session GoTrue opened for the verification is revoked and no cookie is set.
    expect(fake.requestsTo("/logout", "POST")[0]?.query.scope).toBe("local");
    expect(fake.activeSessions(userId)).toBe(0);
    expect(browser.jar.size).toBe(0);
    expect((await auth.signIn(emptyCtx(), { email: "ada@example.com", password: "correct horse" })).userId).toBe(userId);
  });

  it("refuses a used, unknown or expired link with expired_token (GoTrue's single otp_expired answer)", async () => {
    const { tokenHash } = await signUpAda();
    await auth.verifyEmail(emptyCtx(), tokenHash);

    const used = await authErrorOf(auth.verifyEmail(emptyCtx(), tokenHash));
    expect(used.code).toBe("expired_token");
    expect(used.message).toBe("Email link is invalid or has expired");
    expect((await authErrorOf(auth.verifyEmail(emptyCtx(), "0".repeat(56)))).code).toBe("expired_token");

    fake.createUser({ email: "bob@example.com", password: "correct horse", confirmed: false });
    const stale = fake.issueOtp("bob@example.com", "signup");
    fake.expireOtp("bob@example.com", "signup");
    expect((await authErrorOf(auth.verifyEmail(emptyCtx(), stale))).code).toBe("expired_token");
    expect(fake.userByEmail("bob@example.com")?.emailConfirmedAt).toBeNull();
  });

  it("refuses an empty token as invalid_token without asking GoTrue", async () => {
    expect((await authErrorOf(auth.verifyEmail(emptyCtx(), ""))).code).toBe("invalid_token");
    expect(fake.requests).toEqual([]);
  });

  it("does not accept a password-reset token hash as a verification link (and leaves the reset link usable)", async () => {
    fake.createUser({ email: "ada@example.com", password: "correct horse", confirmed: false });
    const recovery = fake.issueOtp("ada@example.com", "recovery");

    expect((await authErrorOf(auth.verifyEmail(emptyCtx(), recovery))).code).toBe("expired_token");
    expect(fake.userByEmail("ada@example.com")?.recoveryToken).toBe(recovery);
  });

  it("resends the confirmation mail with the redirect; the new link replaces the old one", async () => {
    fake.config.maxFrequencySeconds = 0;
    const { tokenHash: first } = await signUpAda();
    expect(await auth.resendVerification(emptyCtx(), "ada@example.com")).toEqual({});

    const [req] = fake.requestsTo("/resend", "POST");
    expect(req?.body).toMatchObject({ type: "signup", email: "ada@example.com" });
    expect(req?.query.redirect_to).toBe(`${APP_URL}/verify-email`);
    const second = fake.lastMail("ada@example.com", "signup")?.tokenHash ?? "";
    expect(second).not.toBe(first);
    expect((await authErrorOf(auth.verifyEmail(emptyCtx(), first))).code).toBe("expired_token");
    expect((await auth.verifyEmail(emptyCtx(), second)).email).toBe("ada@example.com");
  });

  it("answers {} for unknown and confirmed addresses and when GoTrue throttles mails to the address", async () => {
    fake.createUser({ email: "done@example.com", password: "correct horse" });
    expect(await auth.resendVerification(emptyCtx(), "nobody@example.com")).toEqual({});
    expect(await auth.resendVerification(emptyCtx(), "done@example.com")).toEqual({});
    expect(fake.mails).toEqual([]);

    fake.config.maxFrequencySeconds = 60;
    await signUpAda();
    expect(await auth.resendVerification(emptyCtx(), "ada@example.com")).toEqual({});
    expect(fake.requestsTo("/resend").at(-1)?.status).toBe(429);
  });
});

describe("signIn", () => {
  it("returns the session and writes HttpOnly session cookies plus no-store cache headers", async () => {
    const user = fake.createUser({ email: "ada@example.com", password: "correct horse" });
    const browser = new Browser();
    const before = Date.now();
    const result = await browser.run((ctx) => auth.signIn(ctx, { email: "ada@example.com", password: "correct horse" }));

    expect(result.userId).toBe(user.id);
    expect(result.email).toBe("ada@example.com");
    const claims = claimsOf(result.accessToken);
    expect(claims).toMatchObject({ sub: user.id, email: "ada@example.com", role: "authenticated", aud: "authenticated" });
    expect(result.expiresAt.getTime()).toBe((claims.exp as number) * 1000);
    expect(result.expiresAt.getTime()).toBeGreaterThan(before + 3500_000);

    expect(fake.requestsTo("/token", "POST")[0]).toMatchObject({
      query: { grant_type: "password" },
      body: { email: "ada@example.com", password: "correct horse" },
    });
    const headers = browser.last.responseHeaders;
    const line = headers.getSetCookie().find((l) => l.startsWith(`${browser.sessionCookie()}=`)) ?? "";
    expect(line).toMatch(/; HttpOnly/i);
    expect(line).toMatch(/; Path=\//i);
    expect(line).toMatch(/; SameSite=Lax/i);
    expect(line).not.toMatch(/; Secure/i); // APP_URL is http here
    expect(headers.get("Cache-Control")).toContain("no-store");
    expect(headers.get("Pragma")).toBe("no-cache");
  });

  it("refuses a wrong password and an unknown address alike with invalid_credentials, setting no cookie", async () => {
    fake.createUser({ email: "ada@example.com", password: "correct horse" });
    const browser = new Browser();

    expect((await authErrorOf(browser.run((ctx) => auth.signIn(ctx, { email: "ada@example.com", password: "wrong" })))).code).toBe(
      "invalid_credentials",
    );
    expect((await authErrorOf(browser.run((ctx) => auth.signIn(ctx, { email: "nobody@example.com", password: "x" })))).code).toBe(
      "invalid_credentials",
    );
    expect(browser.jar.size).toBe(0);
  });

  it("refuses an unconfirmed address with email_not_verified (GoTrue's email_not_confirmed)", async () => {
    fake.createUser({ email: "ada@example.com", password: "correct horse", confirmed: false });
    const error = await authErrorOf(auth.signIn(emptyCtx(), { email: "ada@example.com", password: "correct horse" }));
    expect(error.code).toBe("email_not_verified");
    expect(fake.requestsTo("/token")[0]?.status).toBe(400);
  });
});

describe("the cookie session", () => {
  it("round-trips: the cookies from signIn make getUser() in the next request return the user", async () => {
    const { browser, session } = await signedIn();
    const user = await browser.run((ctx) => auth.getUser(ctx));

    expect(user).toEqual({
      id: session.userId,
      email: "ada@example.com",
      emailVerified: true,
      createdAt: new Date(fake.userByEmail("ada@example.com")?.createdAt ?? ""),
    });
    // Verified locally (ES256 against the project's JWKS) and its session looked up: GoTrue is not asked.
    expect(fake.requestsTo("/user", "GET")).toEqual([]);
  });

  it("returns null without cookies, without asking GoTrue", async () => {
    expect(await auth.getUser(emptyCtx())).toBeNull();
    expect(fake.requests).toEqual([]);
  });

  it("reads the user behind a bearer token without cookies, and reports an unverified address", async () => {
    const { session } = await signedIn();
    expect((await auth.getUser(emptyCtx(), session.accessToken))?.id).toBe(session.userId);

    fake.userByEmail("ada@example.com")!.emailConfirmedAt = null;
    expect((await auth.getUser(emptyCtx(), session.accessToken))?.emailVerified).toBe(false);
  });

  it("returns null for tokens that fail: garbage, a foreign signature, a forged ES256 key, expired", async () => {
    const { session } = await signedIn();
    const claims = claimsOf(session.accessToken);
    const forgedKey = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey;
    const head = Buffer.from(JSON.stringify({ alg: "ES256", typ: "JWT", kid: fake.signingKeyId })).toString("base64url");
    const body = Buffer.from(JSON.stringify(claims)).toString("base64url");
    const forged = `${head}.${body}.${sign("sha256", Buffer.from(`${head}.${body}`), { key: forgedKey, dsaEncoding: "ieee-p1363" }).toString("base64url")}`;

    expect(await auth.getUser(emptyCtx(), "not-a-jwt")).toBeNull();
    expect(await auth.getUser(emptyCtx(), forged)).toBeNull();
    expect(await auth.getUser(emptyCtx(), fake.signJwt({ ...claims, exp: Math.floor(Date.now() / 1000) - 10 }))).toBeNull();
    expect(await auth.getUser(emptyCtx(), fake.signJwt({ ...claims, session_id: randomUUID() }))).toBeNull();
    // An HS256 token can only be checked by GoTrue, which refuses a foreign secret.
    expect(await auth.getUser(emptyCtx(), fake.signJwt(claims, "another-secret"))).toBeNull();
    expect(fake.requestsTo("/user").map((r) => r.status)).toEqual([403]);
    expect(await auth.getUser(emptyCtx(), session.accessToken)).not.toBeNull();
  });

  it("verifies ES256 tokens locally with the JWKS fetched once, and still notices sign-out", async () => {
    const { session } = await signedIn();
    const jwksBefore = fake.requestsTo("/.well-known/jwks.json").length;
    for (let i = 0; i < 5; i++) expect((await auth.getUser(emptyCtx(), session.accessToken))?.id).toBe(session.userId);
    expect(fake.requestsTo("/.well-known/jwks.json").length - jwksBefore).toBeLessThanOrEqual(1);
    expect(fake.requestsTo("/user")).toEqual([]);

    await auth.signOut(emptyCtx(), session.userId, session.accessToken);
    expect(await auth.getUser(emptyCtx(), session.accessToken)).toBeNull();
  });

  it("asks GoTrue for tokens of a project on the legacy HS256 secret, and on any failure answers null", async () => {
    fake.config.signing = "HS256";
    const { session } = await signedIn();
    expect(JSON.parse(Buffer.from(session.accessToken.split(".")[0] ?? "", "base64url").toString()).alg).toBe("HS256");
    expect((await auth.getUser(emptyCtx(), session.accessToken))?.id).toBe(session.userId);
    expect(fake.requestsTo("/user").at(-1)?.headers.authorization).toBe(`Bearer ${session.accessToken}`);

    fake.fail({ path: "/user", status: 401, body: { code: "no_authorization", message: "This endpoint requires a valid Bearer token" } });
    expect(await auth.getUser(emptyCtx(), session.accessToken)).toBeNull();
    fake.fail({ path: "/user", status: 500 });
    expect(await auth.getUser(emptyCtx(), session.accessToken)).toBeNull();
    expect(await auth.getUser(emptyCtx(), session.accessToken)).not.toBeNull();
  });

  it("asks GoTrue when the app's database cannot tell (not the project's database)", async () => {
    const unsure = createSupabaseAuth(
      { SUPABASE_URL: fake.url, SUPABASE_ANON_KEY: fake.anonKey, SUPABASE_SERVICE_ROLE_KEY: fake.serviceRoleKey, APP_URL },
      { lookupSession: async () => undefined },
    );
    const { session } = await signedIn();
    expect((await unsure.getUser(emptyCtx(), session.accessToken))?.id).toBe(session.userId);
    expect(fake.requestsTo("/user")).toHaveLength(1);
  });

  it("refreshes a nearly expired session through its refresh token and writes the new cookies", async () => {
    fake.config.jwtExpirySeconds = 30; // inside supabase-js's 90 s refresh margin
    const { browser, session } = await signedIn();
    const before = browser.jar.get(browser.sessionCookie() ?? "");

    const user = await browser.run((ctx) => auth.getUser(ctx));

    expect(user?.id).toBe(session.userId);
    expect(fake.requestsTo("/token").map((r) => r.query.grant_type)).toEqual(["password", "refresh_token"]);
    expect(browser.jar.get(browser.sessionCookie() ?? "")).not.toBe(before);
    expect(browser.last.responseHeaders.get("Cache-Control")).toContain("no-store");
    // Refreshed first; the refreshed token is then verified locally.
    expect(fake.requests.at(-1)?.query.grant_type).toBe("refresh_token");
    expect(fake.requestsTo("/user")).toEqual([]);
  });

  it("signOut revokes every session of the user, clears the cookies, and the old token and cookies stop working", async () => {
    const { browser, session } = await signedIn();
    const { browser: laptop } = await signedIn();
    const oldCookies = new Map(browser.jar);
    expect(fake.activeSessions(session.userId)).toBe(2);

    await browser.run((ctx) => auth.signOut(ctx, session.userId));

    expect(fake.requestsTo("/logout", "POST")[0]?.query.scope).toBe("global");
    const cleared = browser.last.responseHeaders.getSetCookie().find((l) => l.startsWith(`${[...oldCookies.keys()][0]}=`)) ?? "";
    expect(cleared).toMatch(/Max-Age=0/i);
    expect(browser.jar.size).toBe(0);
    expect(fake.activeSessions(session.userId)).toBe(0);

    expect(await auth.getUser(emptyCtx(), session.accessToken)).toBeNull();
    expect(await laptop.run((ctx) => auth.getUser(ctx))).toBeNull();
    const replay = new Browser();
    for (const [k, v] of oldCookies) replay.jar.set(k, v);
    expect(await replay.run((ctx) => auth.getUser(ctx))).toBeNull();
    expect(replay.jar.size).toBe(0); // GoTrue said session_not_found: supabase-js clears the dead cookies
  });

  it("signOut with only a bearer token revokes it through the admin API", async () => {
    const { session, browser } = await signedIn();
    await auth.signOut(emptyCtx(), session.userId, session.accessToken);

    const [req] = fake.requestsTo("/logout", "POST");
    expect(req?.query.scope).toBe("global");
    expect(req?.headers.authorization).toBe(`Bearer ${session.accessToken}`);
    expect(await auth.getUser(emptyCtx(), session.accessToken)).toBeNull();
    expect(await browser.run((ctx) => auth.getUser(ctx))).toBeNull();
  });

  it("signOut of sessions that are already gone succeeds", async () => {
    const { session, browser } = await signedIn();
    await auth.signOut(emptyCtx(), session.userId, session.accessToken);
    await auth.signOut(emptyCtx(), session.userId, session.accessToken);
    await browser.run((ctx) => auth.signOut(ctx, session.userId));
    await auth.signOut(emptyCtx(), session.userId, "not-a-jwt");
    expect(browser.jar.size).toBe(0);
  });

  it("keeps the Set-Cookie lines the app wrote itself, and marks cookies Secure behind https", async () => {
    fake.createUser({ email: "ada@example.com", password: "correct horse" });
    const ctx = emptyCtx();
    ctx.responseHeaders.append("Set-Cookie", "toast=hello; Path=/; HttpOnly");
    await createSupabaseAuth({
      SUPABASE_URL: fake.url,
      SUPABASE_ANON_KEY: fake.anonKey,
      SUPABASE_SERVICE_ROLE_KEY: fake.serviceRoleKey,
      APP_URL: "https://personaforge.example",
    }).signIn(ctx, { email: "ada@example.com", password: "correct horse" });

    const lines = ctx.responseHeaders.getSetCookie();
    expect(lines[0]).toBe("toast=hello; Path=/; HttpOnly");
    expect(lines.slice(1).length).toBeGreaterThan(0);
    for (const line of lines.slice(1)) expect(line).toMatch(/^sb-.+; Secure/i);
  });

  it("signIn then signOut in one request leaves only the removal of the cookie in the response", async () => {
    fake.createUser({ email: "ada@example.com", password: "correct horse" });
    const browser = new Browser();
    await browser.run(async (ctx) => {
      const s = await auth.signIn(ctx, { email: "ada@example.com", password: "correct horse" });
      await auth.signOut(ctx, s.userId);
    });
    const lines = browser.last.responseHeaders.getSetCookie();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^sb-.+-auth-token=;.*Max-Age=0/i);
  });
});

describe("password reset", () => {
  it("requests the reset mail with the reset-password redirect, and answers the same for unknown addresses", async () => {
    fake.createUser({ email: "ada@example.com", password: "correct horse" });
    expect(await auth.requestPasswordReset(emptyCtx(), "ada@example.com")).toEqual({});
    expect(await auth.requestPasswordReset(emptyCtx(), "nobody@example.com")).toEqual({});

    const [known, unknown] = fake.requestsTo("/recover", "POST");
    expect(known?.body).toMatchObject({ email: "ada@example.com" });
    expect(known?.query.redirect_to).toBe(`${APP_URL}/reset-password`);
    expect([known?.status, unknown?.status]).toEqual([200, 200]);
    expect(fake.mails.map((m) => [m.type, m.email])).toEqual([["recovery", "ada@example.com"]]);
  });

  it("swallows GoTrue's per-address mail throttle (it would reveal the account)", async () => {
    fake.config.maxFrequencySeconds = 60;
    fake.createUser({ email: "ada@example.com", password: "correct horse" });
    await auth.requestPasswordReset(emptyCtx(), "ada@example.com");
    expect(await auth.requestPasswordReset(emptyCtx(), "ada@example.com")).toEqual({});
    expect(fake.requestsTo("/recover").map((r) => r.status)).toEqual([200, 429]);
  });

  it("sets the new password from the mail's token, ends every session and clears the cookies", async () => {
    const { browser: phone, session } = await signedIn();
    await auth.requestPasswordReset(emptyCtx(), "ada@example.com");
    const token = fake.lastMail("ada@example.com", "recovery")?.tokenHash ?? "";

    const laptop = new Browser();
    const result = await laptop.run((ctx) => auth.resetPassword(ctx, token, "a brand new secret"), "/reset-password");

    expect(result).toEqual({ userId: session.userId, email: "ada@example.com" });
    expect(fake.requestsTo("/verify", "POST")[0]?.body).toMatchObject({ token_hash: token, type: "recovery" });
    expect(fake.requestsTo("/user", "PUT")[0]?.body).toMatchObject({ password: "a brand new secret" });
    expect(fake.requestsTo("/logout", "POST")[0]?.query.scope).toBe("global");
    expect(fake.activeSessions(session.userId)).toBe(0);
    expect(laptop.sessionCookie()).toBeUndefined();
    expect(await phone.run((ctx) => auth.getUser(ctx))).toBeNull();
    expect(await auth.getUser(emptyCtx(), session.accessToken)).toBeNull();

    expect((await auth.signIn(emptyCtx(), { email: "ada@example.com", password: "a brand new secret" })).userId).toBe(session.userId);
    expect((await authErrorOf(auth.signIn(emptyCtx(), { email: "ada@example.com", password: "correct horse" }))).code).toBe(
      "invalid_credentials",
    );
  });

  it("accepts a reset token once; used, expired, unknown or verification tokens are refused", async () => {
    fake.createUser({ email: "ada@example.com", password: "correct horse" });
    const token = fake.issueOtp("ada@example.com", "recovery");
    await auth.resetPassword(emptyCtx(), token, "a brand new secret");
    expect((await authErrorOf(auth.resetPassword(emptyCtx(), token, "yet another secret"))).code).toBe("expired_token");

    const stale = fake.issueOtp("ada@example.com", "recovery");
    fake.expireOtp("ada@example.com", "recovery");
    expect((await authErrorOf(auth.resetPassword(emptyCtx(), stale, "yet another secret"))).code).toBe("expired_token");

    fake.createUser({ email: "bob@example.com", password: "correct horse", confirmed: false });
    const confirmation = fake.issueOtp("bob@example.com", "signup");
    expect((await authErrorOf(auth.resetPassword(emptyCtx(), confirmation, "yet another secret"))).code).toBe("expired_token");
    expect((await authErrorOf(auth.resetPassword(emptyCtx(), "", "yet another secret"))).code).toBe("invalid_token");
    expect(fake.userByEmail("ada@example.com")?.password).toBe("a brand new secret");
  });

  it("refuses a too-weak password as weak_password and leaves no session behind", async () => {
    const user = fake.createUser({ email: "ada@example.com", password: "correct horse" });
    const token = fake.issueOtp("ada@example.com", "recovery");
    const browser = new Browser();

    const error = await authErrorOf(browser.run((ctx) => auth.resetPassword(ctx, token, "abc")));
    expect(error.code).toBe("weak_password");
    expect(browser.sessionCookie()).toBeUndefined();
    expect(fake.activeSessions(user.id)).toBe(0);
    expect(user.password).toBe("correct horse");
  });
});

describe("changePassword", () => {
  it("checks the current password, sets the new one, ends the other sessions and returns a fresh one", async () => {
    const { browser, session: old } = await signedIn();
    const { browser: laptop } = await signedIn();
    const user = (await browser.run((ctx) => auth.getUser(ctx)))!;

    const fresh = await browser.run((ctx) => auth.changePassword(ctx, user, "correct horse", "a brand new secret"));

    expect(fresh.userId).toBe(user.id);
    expect(fresh.accessToken).not.toBe(old.accessToken);
    expect(fake.requestsTo("/token", "POST").at(-1)?.body).toMatchObject({ email: "ada@example.com", password: "correct horse" });
    expect(fake.requestsTo("/user", "PUT")[0]?.body).toMatchObject({ password: "a brand new secret" });
    expect(fake.requestsTo("/logout", "POST")[0]?.query.scope).toBe("others");
    expect(fake.activeSessions(user.id)).toBe(1);

    expect((await browser.run((ctx) => auth.getUser(ctx)))?.id).toBe(user.id); // the fresh session, from the new cookies
    expect(await auth.getUser(emptyCtx(), fresh.accessToken)).not.toBeNull();
    expect(await laptop.run((ctx) => auth.getUser(ctx))).toBeNull();
    expect(await auth.getUser(emptyCtx(), old.accessToken)).toBeNull();
    expect((await auth.signIn(emptyCtx(), { email: "ada@example.com", password: "a brand new secret" })).userId).toBe(user.id);
  });

  it("refuses a wrong current password with invalid_credentials and changes nothing", async () => {
    const { browser, session } = await signedIn();
    const { browser: laptop } = await signedIn();
    const user = (await browser.run((ctx) => auth.getUser(ctx)))!;

    const error = await authErrorOf(browser.run((ctx) => auth.changePassword(ctx, user, "wrong", "a brand new secret")));

    expect(error.code).toBe("invalid_credentials");
    expect(fake.requestsTo("/user", "PUT")).toEqual([]);
    expect(fake.activeSessions(session.userId)).toBe(2);
    expect(await laptop.run((ctx) => auth.getUser(ctx))).not.toBeNull();
    expect(fake.userByEmail("ada@example.com")?.password).toBe("correct horse");
  });

  it("reports GoTrue's refusal of an unchanged password as weak_password", async () => {
    const { browser } = await signedIn();
    const user = (await browser.run((ctx) => auth.getUser(ctx)))!;
    const error = await authErrorOf(browser.run((ctx) => auth.changePassword(ctx, user, "correct horse", "correct horse")));
    expect(error.code).toBe("weak_password");
    expect(error.message).toBe("The new password must be different from the current one.");
  });
});

describe("deleteUser", () => {
  it("deletes through the admin API with the service-role key; the account and its sessions are gone", async () => {
    const { session } = await signedIn();
    await auth.deleteUser(emptyCtx(), session.userId);

    const [req] = fake.requestsTo(`/admin/users/${session.userId}`, "DELETE");
    expect(req?.headers.authorization).toBe(`Bearer ${fake.serviceRoleKey}`);
    expect(req?.headers.apikey).toBe(fake.serviceRoleKey);
    expect(fake.users.has(session.userId)).toBe(false);
    expect(await auth.getUser(emptyCtx(), session.accessToken)).toBeNull();
    expect((await authErrorOf(auth.signIn(emptyCtx(), { email: "ada@example.com", password: "correct horse" }))).code).toBe(
      "invalid_credentials",
    );
  });

  it("is idempotent, and refuses an id that is no Supabase user id", async () => {
    await auth.deleteUser(emptyCtx(), randomUUID());
    expect((await authErrorOf(auth.deleteUser(emptyCtx(), "not-a-uuid"))).code).toBe("provider_error");
  });
});

describe("OAuth (PKCE)", () => {
  it("start writes the PKCE verifier cookie; the callback request carrying it exchanges the code for a session", async () => {
    fake.setOAuthAccount("github", { email: "grace@example.com", name: "Grace Hopper" });
    const browser = new Browser();
    const { url } = await browser.run((ctx) => auth.oauthStart(ctx, "github", CALLBACK), "/auth/github");

    const authorize = new URL(url);
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${fake.url}/auth/v1/authorize`);
    expect(authorize.searchParams.get("provider")).toBe("github");
    expect(authorize.searchParams.get("redirect_to")).toBe(CALLBACK);
    expect(authorize.searchParams.get("code_challenge_method")).toBe("s256");
    const challenge = authorize.searchParams.get("code_challenge");
    expect(browser.verifierCookie()).toBeDefined();
    expect(browser.last.responseHeaders.getSetCookie().some((l) => l.includes("-code-verifier=") && /HttpOnly/i.test(l))).toBe(true);

    const back = await fake.followOAuth(url); // GoTrue → provider consent → GoTrue callback → our callback
    expect(`${back.origin}${back.pathname}`).toBe(CALLBACK);
    const code = back.searchParams.get("code") ?? "";

    const signed = await browser.run((ctx) => auth.oauthCallback(ctx, code), `/auth/callback?code=${code}`);

    const user = fake.userByEmail("grace@example.com");
    expect(signed).toMatchObject({ userId: user?.id, email: "grace@example.com" });
    const [exchange] = fake.requestsTo("/token", "POST");
    expect(exchange?.query.grant_type).toBe("pkce");
    const verifier = (exchange?.body as { code_verifier: string }).code_verifier;
    expect((exchange?.body as { auth_code: string }).auth_code).toBe(code);
    expect(createHash("sha256").update(verifier).digest("base64url")).toBe(challenge);
    expect(browser.verifierCookie()).toBeUndefined(); // spent, and cleared
    expect(browser.sessionCookie()).toBeDefined();
    expect((await browser.run((ctx) => auth.getUser(ctx)))?.email).toBe("grace@example.com");
  });

  it("fails with invalid_token when the callback request lacks the verifier cookie (e.g. a redirect dropped it)", async () => {
    const browser = new Browser();
    const { url } = await browser.run((ctx) => auth.oauthStart(ctx, "github", CALLBACK));
    const code = (await fake.followOAuth(url)).searchParams.get("code") ?? "";

    const error = await authErrorOf(new Browser().run((ctx) => auth.oauthCallback(ctx, code)));
    expect(error.code).toBe("invalid_token");
    expect(error.message).toContain("PKCE verifier cookie is missing");
    expect(fake.requestsTo("/token")).toEqual([]);
  });

  it("fails with invalid_token when a later sign-in attempt replaced the verifier (bad_code_verifier)", async () => {
    const browser = new Browser();
    const first = await browser.run((ctx) => auth.oauthStart(ctx, "github", CALLBACK));
    await browser.run((ctx) => auth.oauthStart(ctx, "google", CALLBACK));
    const code = (await fake.followOAuth(first.url)).searchParams.get("code") ?? "";

    expect((await authErrorOf(browser.run((ctx) => auth.oauthCallback(ctx, code)))).code).toBe("invalid_token");
    expect(fake.requestsTo("/token")[0]?.status).toBe(400);
    expect(browser.sessionCookie()).toBeUndefined();
  });

  it("refuses an unknown code with invalid_token and an expired one with expired_token", async () => {
    const browser = new Browser();
    await browser.run((ctx) => auth.oauthStart(ctx, "github", CALLBACK));
    expect((await authErrorOf(browser.run((ctx) => auth.oauthCallback(ctx, randomUUID())))).code).toBe("invalid_token");
    expect(fake.requestsTo("/token")[0]?.status).toBe(404);

    const { url } = await browser.run((ctx) => auth.oauthStart(ctx, "github", CALLBACK));
    const code = (await fake.followOAuth(url)).searchParams.get("code") ?? "";
    fake.expireAuthCode(code);
    expect((await authErrorOf(browser.run((ctx) => auth.oauthCallback(ctx, code)))).code).toBe("expired_token");
    expect((await authErrorOf(browser.run((ctx) => auth.oauthCallback(ctx, "")))).code).toBe("invalid_token");
  });
});

describe("when GoTrue fails", () => {
  const secretsIn = (message: string) => [fake.anonKey, fake.serviceRoleKey].filter((key) => message.includes(key));

  const calls: Array<[string, (b: Browser, s: { userId: string; accessToken: string }) => Promise<unknown>]> = [
    [
      "signUp",
      (b) => b.run((ctx) => auth.signUp(ctx, { email: "new@example.com", password: "correct horse", firstName: "A", lastName: "L" })),
    ],
    ["verifyEmail", (b) => b.run((ctx) => auth.verifyEmail(ctx, "a".repeat(56)))],
    ["resendVerification", (b) => b.run((ctx) => auth.resendVerification(ctx, "ada@example.com"))],
    ["signIn", (b) => b.run((ctx) => auth.signIn(ctx, { email: "ada@example.com", password: "correct horse" }))],
    ["signOut", (b, s) => b.run((ctx) => auth.signOut(ctx, s.userId, s.accessToken))],
    ["requestPasswordReset", (b) => b.run((ctx) => auth.requestPasswordReset(ctx, "ada@example.com"))],
    ["resetPassword", (b) => b.run((ctx) => auth.resetPassword(ctx, "a".repeat(56), "a brand new secret"))],
    [
      "changePassword",
      (b, s) =>
        b.run((ctx) =>
          auth.changePassword(
            ctx,
            { id: s.userId, email: "ada@example.com", emailVerified: true, createdAt: new Date() },
            "correct horse",
            "new secret",
          ),
        ),
    ],
    ["deleteUser", (b, s) => b.run((ctx) => auth.deleteUser(ctx, s.userId))],
    ["oauthCallback", (b) => b.run((ctx) => auth.oauthCallback(ctx, randomUUID()))],
  ];

  it.each(calls)("%s: a 500 becomes provider_error without the keys", async (_name, call) => {
    const { browser, session } = await signedIn();
    await browser.run((ctx) => auth.oauthStart(ctx, "github", CALLBACK)); // so oauthCallback reaches GoTrue
    fake.fail({ path: /.*/, status: 500, times: Infinity });

    const error = await authErrorOf(call(browser, session));
    expect(error.code).toBe("provider_error");
    expect(error.message).toMatch(/^Supabase Auth is unavailable/);
    expect(secretsIn(error.message)).toEqual([]);
  });

  it("redacts the keys even when the answer echoes one back", async () => {
    fake.fail({
      path: "/token",
      status: 400,
      body: { code: "unexpected", message: `rejected apikey ${fake.anonKey} / ${fake.serviceRoleKey}` },
    });
    fake.fail({ path: "/admin/users", status: 403, body: { message: `service key ${fake.serviceRoleKey} not allowed` } });
    fake.createUser({ email: "ada@example.com", password: "correct horse" });

    const signIn = await authErrorOf(auth.signIn(emptyCtx(), { email: "ada@example.com", password: "correct horse" }));
    expect(signIn.message).toContain("[redacted]");
    expect(secretsIn(signIn.message)).toEqual([]);
    fake.fail({ path: /^\/admin\/users\//, status: 403, body: { message: `service key ${fake.serviceRoleKey} not allowed` } });
    const del = await authErrorOf(auth.deleteUser(emptyCtx(), randomUUID()));
    expect(del.code).toBe("provider_error");
    expect(secretsIn(del.message)).toEqual([]);
  });

  it("reports a wrong API key (the gateway's 401) as provider_error", async () => {
    const misconfigured = createSupabaseAuth({
      SUPABASE_URL: fake.url,
      SUPABASE_ANON_KEY: "not-the-anon-key-of-this-project",
      SUPABASE_SERVICE_ROLE_KEY: fake.serviceRoleKey,
      APP_URL,
    });
    fake.createUser({ email: "ada@example.com", password: "correct horse" });
    const error = await authErrorOf(misconfigured.signIn(emptyCtx(), { email: "ada@example.com", password: "correct horse" }));
    expect(error.code).toBe("provider_error");
    expect(error.message).toContain("Invalid API key");
    expect(error.message).not.toContain("not-the-anon-key-of-this-project");
  });

  it("reports an unreachable server as provider_error", async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer();
      probe.listen(0, "127.0.0.1", () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
    const offline = createSupabaseAuth({
      SUPABASE_URL: `http://127.0.0.1:${port}`,
      SUPABASE_ANON_KEY: fake.anonKey,
      SUPABASE_SERVICE_ROLE_KEY: fake.serviceRoleKey,
      APP_URL,
    });
    const quiet = vi.spyOn(console, "error").mockImplementation(() => undefined); // supabase-js logs fetch failures
    try {
      const error = await authErrorOf(offline.signIn(emptyCtx(), { email: "ada@example.com", password: "correct horse" }));
      expect(error.code).toBe("provider_error");
      expect(secretsIn(error.message)).toEqual([]);
      expect(await offline.getUser(emptyCtx(), "some.jwt.token")).toBeNull();
    } finally {
      quiet.mockRestore();
    }
  });
});

describe("GoTrue's limits and refusals", () => {
  const visitor = (client: string): AuthContext => ({ ...emptyCtx(), client });

  it("forwards the visitor's address as Sb-Forwarded-For, so each visitor has their own per-IP budget", async () => {
    fake.config.signInSignUpsPerFiveMinutes = 2;
    fake.createUser({ email: "ada@example.com", password: "correct horse" });
    const signIn = (client: string) => auth.signIn(visitor(client), { email: "ada@example.com", password: "correct horse" });

    await signIn("198.51.100.7");
    await signIn("198.51.100.7");
    const limited = await authErrorOf(signIn("198.51.100.7"));
    expect(limited.code).toBe("rate_limited");
    expect(limited.message).toBe("Too many sign-in attempts from your network. Please wait a few minutes and try again.");
    // Another visitor behind the same app server is not affected.
    expect((await signIn("203.0.113.9")).email).toBe("ada@example.com");
    expect(fake.requestsTo("/token").map((r) => r.headers["sb-forwarded-for"])).toEqual([
      "198.51.100.7",
      "198.51.100.7",
      "198.51.100.7",
      "203.0.113.9",
    ]);
  });

  it("forwards only a well-formed IP address (never a header passed through)", async () => {
    await auth.signUp(visitor("198.51.100.7, 10.0.0.1"), {
      email: "ada@example.com",
      password: "correct horse",
      firstName: "A",
      lastName: "L",
    });
    await auth.signUp(visitor("::ffff:192.0.2.1"), { email: "bob@example.com", password: "correct horse", firstName: "B", lastName: "L" });
    expect(fake.requestsTo("/signup").map((r) => r.headers["sb-forwarded-for"])).toEqual([undefined, "::ffff:192.0.2.1"]);
  });

  it("answers a repeat registration inside GoTrue's mail interval exactly like a first one, without a second mail", async () => {
    const input = { email: "ada@example.com", password: "correct horse", firstName: "A", lastName: "L" };
    const first = await auth.signUp(emptyCtx(), input);
    const again = await auth.signUp(emptyCtx(), input);

    expect(first.status).toBe("created");
    expect(again).toEqual({ status: "created" });
    expect(fake.requestsTo("/signup").map((r) => r.status)).toEqual([200, 429]);
    expect(fake.mails).toHaveLength(1);
  });

  it("reports the project's e-mail quota on sign-up, resend and reset instead of pretending a mail was sent", async () => {
    fake.config.emailQuotaPerHour = 1;
    await auth.signUp(emptyCtx(), { email: "ada@example.com", password: "correct horse", firstName: "A", lastName: "L" });
    fake.createUser({ email: "bob@example.com", password: "correct horse" });

    for (const call of [
      () => auth.signUp(emptyCtx(), { email: "cy@example.com", password: "correct horse", firstName: "C", lastName: "Y" }),
      () => auth.resendVerification(emptyCtx(), "ada@example.com"),
      () => auth.requestPasswordReset(emptyCtx(), "bob@example.com"),
    ]) {
      const error = await authErrorOf(call());
      expect(error.code).toBe("rate_limited");
      expect(error.message).toBe("We cannot send more e-mails right now. Please try again in an hour.");
    }
    expect(fake.mails).toHaveLength(1);
    expect(fake.userByEmail("cy@example.com")).toBeUndefined();
  });

  it.each([
    ["email_address_invalid", 400, "invalid_email", "Invalid email address"],
    ["email_address_not_authorized", 400, "not_allowed", "We cannot send e-mails to this address. Please use another address."],
    ["signup_disabled", 422, "not_allowed", "New sign-ups are closed at the moment."],
    ["email_provider_disabled", 422, "not_allowed", "Signing in with an e-mail address and password is switched off."],
    [
      "over_request_rate_limit",
      429,
      "rate_limited",
      "Too many sign-in attempts from your network. Please wait a few minutes and try again.",
    ],
    ["weak_password", 422, "weak_password", "This password is too weak or too common. Please choose another one."],
  ])("sign-up: GoTrue's %s becomes %s with a message for the visitor", async (gotrueCode, status, code, message) => {
    fake.fail({ path: "/signup", status, body: { code: gotrueCode, message: `GoTrue says ${gotrueCode}` } });
    const error = await authErrorOf(
      auth.signUp(emptyCtx(), { email: "ada@example.com", password: "correct horse", firstName: "A", lastName: "L" }),
    );
    expect([error.code, error.message]).toEqual([code, message]);
  });

  it("sign-in: a banned account is told so, not that the password is wrong", async () => {
    fake.fail({ path: "/token", status: 400, body: { code: "user_banned", message: "User is banned" } });
    const error = await authErrorOf(auth.signIn(emptyCtx(), { email: "ada@example.com", password: "correct horse" }));
    expect([error.code, error.message]).toEqual(["not_allowed", "This account is suspended."]);
  });
});
