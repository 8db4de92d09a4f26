// The account services on a real database (PGlite, real migrations) with the local
// auth adapter and an in-memory mailer: what a creator would notice, and what an
// attacker would try.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { sql } from "drizzle-orm";
import { decodeJwt } from "jose";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";

process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), "pf-accounts-"));
process.env.APP_URL = "http://app.test";

const { installTestDatabase } = await import("../../tests/support/test-database");
const { closeDatabase, withAuthTables, withUser } = await import("~/infra/db/db.server");
const { KEPT_READS, isKept } = await import("~/infra/db/kept-reads.server");
const { useMailer } = await import("~/infra/mail/mail.server");
const { LIMITS, resetRateLimits } = await import("~/infra/web/rate-limit.server");
const { auth, useAuth } = await import("~/infra/auth/auth.server");
const { personas } = await import("~/infra/db/schema.server");
const accounts = await import("./accounts.server");

type Mail = { to: string; subject: string; text: string; html: string };
const outbox: Mail[] = [];
let handle: Awaited<ReturnType<typeof installTestDatabase>>;

const ctxFor = (token?: string, client = "203.0.113.7", cookie?: string) =>
  accounts.requestContext(
    new Request("http://app.test/", {
      headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(cookie ? { Cookie: cookie } : {}) },
    }),
    { clientAddress: client },
  );
/** The device cookie a sign-in gave its browser, as the browser sends it back. */
const deviceCookieOf = (ctx: { responseHeaders: Headers }) => {
  const line = ctx.responseHeaders.getSetCookie().find((c) => c.startsWith("pf_device="));
  if (!line) throw new Error("no device cookie");
  return line.split(";")[0]!;
};
const password = "Forge!pass1";
let counter = 0;
const freshEmail = () => `creator${++counter}-${Date.now()}@example.com`;

function tokenFrom(mail: Mail | undefined, pathname: string): string {
  const link = mail?.text.match(/https?:\/\/\S+/g)?.find((l) => new URL(l).pathname === pathname);
  if (!link) throw new Error(`no ${pathname} link`);
  return new URL(link).searchParams.get("token")!;
}
const lastMailTo = (to: string) => outbox.filter((m) => m.to === to).at(-1);

async function verifiedAccount(firstName = "Ada") {
  const email = freshEmail();
  await accounts.register(ctxFor(), { firstName, lastName: "Lovelace", email, password });
  await accounts.verifyEmail(ctxFor(), tokenFrom(lastMailTo(email), "/verify-email"));
  const signInCtx = ctxFor();
  const session = await accounts.signIn(signInCtx, { email, password });
  const { user } = await accounts.currentUser(ctxFor(session.accessToken));
  return { email, session, user: user!, device: deviceCookieOf(signInCtx) };
}

beforeAll(async () => {
  handle = await installTestDatabase();
  useMailer({ kind: "outbox", send: async (m) => void outbox.push(m) });
});
beforeEach(() => resetRateLimits());
afterAll(async () => {
  useMailer(undefined);
  await closeDatabase();
});

describe("sign-up and verification", () => {
  it("creates an unverified account whose profile carries the names, and mails a 24-hour link", async () => {
    const email = freshEmail();
    const result = await accounts.register(ctxFor(), { firstName: "Grace", lastName: "Hopper", email, password });
    expect(result.message).toBe("Please check your email to verify your account.");
    const mail = lastMailTo(email)!;
    expect(mail.subject).toMatch(/confirm/i);
    expect(mail.text).toContain("http://app.test/verify-email?token=");

    const [row] = await handle.raw.rows<{ encrypted_password: string; confirmation_token: string; email_confirmed_at: unknown }>(
      "select encrypted_password, confirmation_token, email_confirmed_at from auth.users where email = $1",
      [email],
    );
    expect(row.encrypted_password).toMatch(/^\$2[aby]\$1\d\$/); // bcrypt, cost ≥ 10
    expect(row.email_confirmed_at).toBeNull();
    // Only a hash of the token is kept.
    expect(row.confirmation_token).not.toBe(tokenFrom(mail, "/verify-email"));
    expect(row.confirmation_token).toMatch(/^[0-9a-f]{64}$/);

    await expect(accounts.signIn(ctxFor(), { email, password })).rejects.toMatchObject({ status: 403, code: "email_not_verified" });
    await accounts.verifyEmail(ctxFor(), tokenFrom(mail, "/verify-email"));
    const session = await accounts.signIn(ctxFor(), { email, password });
    const { user } = await accounts.currentUser(ctxFor(session.accessToken));
    expect(user).toMatchObject({ email, firstName: "Grace", lastName: "Hopper", subscriptionStatus: "free", emailVerified: true });
  });

  it("a verification link works once", async () => {
    const email = freshEmail();
    await accounts.register(ctxFor(), { firstName: "Alan", lastName: "Turing", email, password });
    const token = tokenFrom(lastMailTo(email), "/verify-email");
    await accounts.verifyEmail(ctxFor(), token);
    // Used once: a second visit says the address is verified already. A link that was never one of ours is malformed.
    await expect(accounts.verifyEmail(ctxFor(), token)).rejects.toMatchObject({
      status: 409,
      code: "already_verified",
      message: "This e-mail address is already verified. You can sign in.",
    });
    await expect(accounts.verifyEmail(ctxFor(), "not-a-real-token")).rejects.toMatchObject({
      status: 400,
      message: "Invalid verification link. Please check your email for the correct link.",
    });
  });

  it("a verification link older than 24 hours has expired", async () => {
    const email = freshEmail();
    await accounts.register(ctxFor(), { firstName: "Alan", lastName: "Turing", email, password });
    await handle.raw.rows("update auth.users set confirmation_sent_at = now() - interval '25 hours' where email = $1", [email]);
    await expect(accounts.verifyEmail(ctxFor(), tokenFrom(lastMailTo(email), "/verify-email"))).rejects.toMatchObject({
      message: "Failed to verify email. The link may have expired.",
    });
  });

  it("an address that already has an account: same answer, nothing created, the owner is told", async () => {
    const { email } = await verifiedAccount();
    const before = await handle.raw.rows("select id from auth.users where lower(email) = $1", [email]);
    const result = await accounts.register(ctxFor(), {
      firstName: "Eve",
      lastName: "Stranger",
      email: email.toUpperCase(),
      password: "Other!pass1",
    });
    expect(result.message).toBe("Please check your email to verify your account.");
    expect(await handle.raw.rows("select id from auth.users where lower(email) = $1", [email])).toEqual(before);
    expect(lastMailTo(email.toUpperCase())?.subject ?? lastMailTo(email)?.subject).toMatch(/already have/i);
    await expect(accounts.signIn(ctxFor(), { email, password: "Other!pass1" })).rejects.toMatchObject({ status: 401 });
  });

  it("twenty simultaneous sign-ups for one address create exactly one account", async () => {
    const email = freshEmail();
    await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        accounts.register(ctxFor(undefined, `198.51.100.${i}`), { firstName: "Race", lastName: "Condition", email, password }),
      ),
    );
    expect(await handle.raw.rows("select id from auth.users where lower(email) = $1", [email])).toHaveLength(1);
  });

  it("rejects bad input with the spec's messages and writes nothing", async () => {
    const email = freshEmail();
    await expect(accounts.register(ctxFor(), { firstName: "A", lastName: "B\u0000", email, password: "password" })).rejects.toMatchObject({
      status: 400,
      errors: {
        firstName: ["First name must be at least 2 characters"],
        lastName: ["Names cannot contain control characters"],
        password: ["Password must contain uppercase, lowercase, number, and special character. Special characters: @ $ ! % * ? &"],
      },
    });
    await expect(
      accounts.register(ctxFor(), { firstName: "Ab", lastName: "Cd", email, password: `Aa1!${"x".repeat(70)}` }),
    ).rejects.toMatchObject({
      errors: { password: ["Password must be 72 characters or less"] },
    });
    await expect(accounts.register(ctxFor(), "not an object")).rejects.toMatchObject({ status: 400 });
    expect(await handle.raw.rows("select id from auth.users where email = $1", [email])).toHaveLength(0);
  });
});

describe("sessions", () => {
  it("issues a JWT with Supabase-shaped claims that opens the RLS door as the user", async () => {
    const { session, user } = await verifiedAccount();
    const claims = decodeJwt(session.accessToken);
    expect(claims).toMatchObject({ sub: user.id, email: user.email, role: "authenticated", aud: "authenticated" });
    expect(claims.exp! * 1000).toBeGreaterThan(Date.now());
    const rows = await withUser(claims.sub!, (tx) => tx.execute(sql`select auth.uid()::text as uid`));
    expect(JSON.stringify(rows)).toContain(user.id);
  });

  it("signing out makes every earlier token of the user stop working", async () => {
    const { email, session, user } = await verifiedAccount();
    const second = await accounts.signIn(ctxFor(), { email, password });
    await accounts.signOut(ctxFor(session.accessToken), user);
    expect((await accounts.currentUser(ctxFor(session.accessToken))).user).toBeNull();
    expect((await accounts.currentUser(ctxFor(second.accessToken))).user).toBeNull();
  });

  it("a forged or tampered token is nobody", async () => {
    const { session } = await verifiedAccount();
    const [header, payload, signature] = session.accessToken.split(".");
    const forgedPayload = Buffer.from(
      JSON.stringify({ ...decodeJwt(session.accessToken), sub: "00000000-0000-0000-0000-000000000000" }),
    ).toString("base64url");
    for (const token of [`${header}.${forgedPayload}.${signature}`, `${header}.${payload}.AAAA`, "garbage", ""]) {
      expect((await accounts.currentUser(ctxFor(token))).user).toBeNull();
    }
  });

  it("changing the password ends the other sessions and returns a fresh one", async () => {
    const { email, session, user } = await verifiedAccount();
    await expect(
      accounts.changePassword(ctxFor(session.accessToken), user, { currentPassword: "Wrong!pass1", newPassword: "Newer!pass2" }),
    ).rejects.toMatchObject({
      errors: { currentPassword: ["Current password is incorrect"] },
    });
    const fresh = await accounts.changePassword(ctxFor(session.accessToken), user, {
      currentPassword: password,
      newPassword: "Newer!pass2",
    });
    expect((await accounts.currentUser(ctxFor(session.accessToken))).user).toBeNull();
    expect((await accounts.currentUser(ctxFor(fresh.accessToken))).user?.id).toBe(user.id);
    await expect(accounts.signIn(ctxFor(), { email, password })).rejects.toMatchObject({ status: 401 });
    expect(lastMailTo(email)?.subject).toMatch(/password was changed/i);
  });
});

// A checked session is kept between requests, on every database, until the database says its
// user changed (KEPT_READS.checkedSessions in app/infra/db/kept-reads.server.ts). Every change below
// is seen by the very next request.
describe("a checked session kept between requests", () => {
  const keptFor = async (token: string) => {
    const { sub, session_id } = decodeJwt(token) as { sub: string; session_id: string };
    return isKept(KEPT_READS.checkedSessions, [sub, session_id]);
  };
  const lookedUp = async (token: string) => (await accounts.currentUser(ctxFor(token))).user;

  it("is kept on every database, and answers the same as asking", async () => {
    const { session, user } = await verifiedAccount("Grace");
    const first = await lookedUp(session.accessToken);
    expect(await lookedUp(session.accessToken)).toEqual(first);
    expect(first).toMatchObject({ id: user.id, firstName: "Grace" });
    expect(await keptFor(session.accessToken)).toBe(true);
  });

  it("signing out, the password changing and the account going are seen by the next request, for sessions already kept", async () => {
    const signedOut = await verifiedAccount();
    const other = await accounts.signIn(ctxFor(), { email: signedOut.email, password });
    for (const token of [signedOut.session.accessToken, other.accessToken]) expect(await lookedUp(token)).not.toBeNull();
    await accounts.signOut(ctxFor(signedOut.session.accessToken), signedOut.user);
    for (const token of [signedOut.session.accessToken, other.accessToken]) expect(await lookedUp(token)).toBeNull();

    const changed = await verifiedAccount();
    expect(await lookedUp(changed.session.accessToken)).not.toBeNull();
    const fresh = await accounts.changePassword(ctxFor(changed.session.accessToken), changed.user, {
      currentPassword: password,
      newPassword: "Newer!pass2",
    });
    expect(await lookedUp(changed.session.accessToken)).toBeNull();
    expect((await lookedUp(fresh.accessToken))?.id).toBe(changed.user.id);

    const deleted = await verifiedAccount();
    expect(await lookedUp(deleted.session.accessToken)).not.toBeNull();
    await accounts.deleteAccount(ctxFor(deleted.session.accessToken), deleted.user, { confirmEmail: deleted.email, password });
    expect(await lookedUp(deleted.session.accessToken)).toBeNull();
  });

  it("a change made by any statement, even outside the app's code, is seen by the next request", async () => {
    const { session, user } = await verifiedAccount("Ada");
    expect((await lookedUp(session.accessToken))?.firstName).toBe("Ada");
    await accounts.updateProfile(user, { firstName: "Augusta", lastName: "King" });
    expect(await lookedUp(session.accessToken)).toMatchObject({ firstName: "Augusta", lastName: "King" });
    await handle.raw.rows(`update public.profiles set subscription_status = 'active' where id = $1`, [user.id]);
    expect((await lookedUp(session.accessToken))?.subscriptionStatus).toBe("active");
    await handle.raw.rows(`update auth.users set email_confirmed_at = null where id = $1`, [user.id]);
    expect((await lookedUp(session.accessToken))?.emailVerified).toBe(false);
    await handle.raw.rows(`delete from auth.sessions where user_id = $1`, [user.id]);
    expect(await lookedUp(session.accessToken)).toBeNull();
  });

  it("a change that is rolled back changes nothing, and another user's change leaves this one kept", async () => {
    const { session, user } = await verifiedAccount("Ada");
    const neighbour = await verifiedAccount("Mary");
    await lookedUp(session.accessToken);
    await handle
      .rawTransaction(async (raw) => {
        await raw.rows(`update public.profiles set first_name = 'Nobody' where id = $1`, [user.id]);
        throw new Error("changed my mind");
      })
      .catch(() => {});
    expect((await lookedUp(session.accessToken))?.firstName).toBe("Ada");
    await accounts.updateProfile(neighbour.user, { firstName: "Mary", lastName: "Somerville" });
    expect(await keptFor(session.accessToken)).toBe(true);
  });
});

describe("password reset", () => {
  it("a 1-hour single-use link sets a new password and ends every session", async () => {
    const { email, session } = await verifiedAccount();
    const answer = await accounts.requestPasswordReset(ctxFor(), { email });
    const unknown = await accounts.requestPasswordReset(ctxFor(), { email: freshEmail() });
    expect(unknown).toEqual(answer);
    const token = tokenFrom(lastMailTo(email), "/reset-password");
    await accounts.resetPassword(ctxFor(), { token, password: "Reset!pass3" });
    expect((await accounts.currentUser(ctxFor(session.accessToken))).user).toBeNull();
    await accounts.signIn(ctxFor(), { email, password: "Reset!pass3" });
    await expect(accounts.resetPassword(ctxFor(), { token, password: "Again!pass4" })).rejects.toMatchObject({ status: 400 });
  });

  it("a reset link older than an hour has expired", async () => {
    const { email } = await verifiedAccount();
    await accounts.requestPasswordReset(ctxFor(), { email });
    await handle.raw.rows("update auth.users set recovery_sent_at = now() - interval '61 minutes' where lower(email) = $1", [email]);
    await expect(
      accounts.resetPassword(ctxFor(), { token: tokenFrom(lastMailTo(email), "/reset-password"), password: "Reset!pass3" }),
    ).rejects.toMatchObject({ code: "expired_token" });
  });
});

describe("abuse limits", () => {
  /** Counts the passwords the auth adapter actually evaluates. */
  function countingAuth() {
    const real = auth();
    const calls = { signIn: 0, changePassword: 0, verifyPassword: 0 };
    useAuth({
      ...real,
      verifyPassword: (...args) => {
        calls.verifyPassword++;
        return real.verifyPassword(...args);
      },
      signIn: (...args) => {
        calls.signIn++;
        return real.signIn(...args);
      },
      changePassword: (...args) => {
        calls.changePassword++;
        return real.changePassword(...args);
      },
    });
    return calls;
  }
  afterEach(() => useAuth(undefined));

  const statuses = (results: PromiseSettledResult<unknown>[]) =>
    results.map((r) => (r.status === "fulfilled" ? 200 : (r.reason as { status: number }).status));

  it("50 parallel wrong passwords for one address from one client: at most 5 evaluated, the rest 429", async () => {
    const { email } = await verifiedAccount();
    const calls = countingAuth();
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, () => accounts.signIn(ctxFor(undefined, "192.0.2.10"), { email, password: "Wrong!pass1" })),
    );
    expect(calls.signIn).toBeLessThanOrEqual(5);
    const codes = statuses(results);
    expect(codes.filter((c) => c === 401)).toHaveLength(calls.signIn);
    expect(codes.filter((c) => c === 429)).toHaveLength(50 - calls.signIn);
    const refused = results.find(
      (r) => r.status === "rejected" && (r.reason as { status: number }).status === 429,
    ) as PromiseRejectedResult;
    expect(refused.reason.message).toMatch(/^Too many failed sign-in attempts\. Please try again in 1[45] minutes\.$/);
    expect(refused.reason.retryAfterSeconds).toBeGreaterThan(800);
    // Afterwards, from that client, even the right password waits out the window.
    await expect(accounts.signIn(ctxFor(undefined, "192.0.2.10"), { email, password })).rejects.toMatchObject({ status: 429 });
  });

  it("the right password at position 41 of a burst of guesses does not get in", async () => {
    const { email } = await verifiedAccount();
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        accounts.signIn(ctxFor(undefined, "192.0.2.11"), { email, password: i === 40 ? password : `Wrong!pass${i}` }),
      ),
    );
    expect(results[40].status).toBe("rejected");
    expect(statuses(results)[40]).toBe(429);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(0);
  });

  it("a neighbour behind the same client still signs in, and the owner from another client too", async () => {
    const victim = await verifiedAccount("Victim");
    const neighbour = await verifiedAccount("Neighbour");
    await Promise.allSettled(
      Array.from({ length: 30 }, () => accounts.signIn(ctxFor(undefined, "192.0.2.12"), { email: victim.email, password: "Wrong!pass1" })),
    );
    await expect(accounts.signIn(ctxFor(undefined, "192.0.2.12"), { email: victim.email, password })).rejects.toMatchObject({
      status: 429,
    });
    await expect(accounts.signIn(ctxFor(undefined, "192.0.2.12"), { email: neighbour.email, password })).resolves.toHaveProperty(
      "accessToken",
    );
    await expect(accounts.signIn(ctxFor(undefined, "198.51.100.12"), { email: victim.email, password })).resolves.toHaveProperty(
      "accessToken",
    );
  });

  it("a success clears the consecutive failures of that address and client", async () => {
    const { email } = await verifiedAccount();
    for (let i = 0; i < 4; i++) {
      await expect(accounts.signIn(ctxFor(undefined, "192.0.2.13"), { email, password: "Wrong!pass1" })).rejects.toMatchObject({
        status: 401,
      });
    }
    await accounts.signIn(ctxFor(undefined, "192.0.2.13"), { email, password });
    for (let i = 0; i < 4; i++) {
      await expect(accounts.signIn(ctxFor(undefined, "192.0.2.13"), { email, password: "Wrong!pass1" })).rejects.toMatchObject({
        status: 401,
      });
    }
  });

  it("guessing the current password when changing it: counted before the check, per account and client", async () => {
    const { session, user } = await verifiedAccount();
    const calls = countingAuth();
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        accounts.changePassword(ctxFor(session.accessToken, "192.0.2.14"), user, {
          currentPassword: `Wrong!pass${i}`,
          newPassword: "Newer!pass2",
        }),
      ),
    );
    expect(calls.changePassword).toBeLessThanOrEqual(5);
    expect(statuses(results).filter((c) => c === 429)).toHaveLength(20 - calls.changePassword);
    await expect(
      accounts.changePassword(ctxFor(session.accessToken, "192.0.2.14"), user, { currentPassword: password, newPassword: "Newer!pass2" }),
    ).rejects.toMatchObject({ status: 429 });
    // The owner on another device is not locked out of the settings.
    await expect(
      accounts.changePassword(ctxFor(session.accessToken, "198.51.100.14"), user, {
        currentPassword: password,
        newPassword: "Newer!pass2",
      }),
    ).resolves.toHaveProperty("accessToken");
  });

  /** 240 wrong passwords at one account from 60 client addresses (4 each), 40 at a time; the answers' statuses. */
  async function guessFromEverywhere(email: string): Promise<number[]> {
    const codes: number[] = [];
    for (let batch = 0; batch < 6; batch++) {
      const results = await Promise.allSettled(
        Array.from({ length: 40 }, (_, i) =>
          accounts.signIn(ctxFor(undefined, `198.18.${batch}.${i % 10}`), { email, password: `Wrong!pass${batch * 40 + i}` }),
        ),
      );
      codes.push(...statuses(results));
    }
    return codes;
  }

  it("240 guesses at one account from 60 addresses, 40 at a time: at most 100 evaluated; the owner's browser still gets in, an unknown client gets 429", async () => {
    const { email, device } = await verifiedAccount();
    const calls = countingAuth();
    const codes = await guessFromEverywhere(email);
    expect(calls.signIn).toBeLessThanOrEqual(100);
    expect(calls.signIn).toBe(LIMITS.failsPerAccount.points);
    expect(codes.filter((c) => c === 401)).toHaveLength(calls.signIn);
    expect(codes.filter((c) => c === 429)).toHaveLength(240 - calls.signIn);

    // A client that never tried, with the right password: refused before the check, with Retry-After.
    const unknown = accounts.signIn(ctxFor(undefined, "203.0.113.99"), { email, password });
    await expect(unknown).rejects.toMatchObject({
      status: 429,
      message: expect.stringMatching(/^Too many failed sign-in attempts\. Please try again in (60|59) minutes\.$/),
    });
    await expect(unknown).rejects.toHaveProperty("retryAfterSeconds", expect.any(Number));
    // The owner's browser, which signed in before, from any address: in, and its cookie renewed.
    const owner = ctxFor(undefined, "203.0.113.100", device);
    await expect(accounts.signIn(owner, { email, password })).resolves.toHaveProperty("accessToken");
    expect(deviceCookieOf(owner)).not.toBe(device);
    expect(calls.signIn).toBe(LIMITS.failsPerAccount.points + 1);
  });

  it("a device cookie is good only for its own account, and 5 wrong passwords on it lock it but not the owner's other browsers", async () => {
    const owner = await verifiedAccount("Owner");
    const other = await verifiedAccount("Other");
    await guessFromEverywhere(owner.email);
    // Another account's device cookie, or a tampered one, is an unknown client.
    await expect(accounts.signIn(ctxFor(undefined, "203.0.113.101", other.device), { email: owner.email, password })).rejects.toMatchObject(
      { status: 429 },
    );
    const tampered = owner.device.replace(/.(?=.{4}$)/, (c) => (c === "A" ? "B" : "A"));
    await expect(accounts.signIn(ctxFor(undefined, "203.0.113.101", tampered), { email: owner.email, password })).rejects.toMatchObject({
      status: 429,
    });

    const second = ctxFor(undefined, "203.0.113.102", owner.device);
    await accounts.signIn(second, { email: owner.email, password });
    const phone = deviceCookieOf(second);
    for (let i = 0; i < 5; i++) {
      await expect(
        accounts.signIn(ctxFor(undefined, "203.0.113.103", owner.device), { email: owner.email, password: "Wrong!pass1" }),
      ).rejects.toMatchObject({ status: 401 });
    }
    await expect(accounts.signIn(ctxFor(undefined, "203.0.113.103", owner.device), { email: owner.email, password })).rejects.toMatchObject(
      { status: 429 },
    );
    await expect(accounts.signIn(ctxFor(undefined, "203.0.113.104", phone), { email: owner.email, password })).resolves.toHaveProperty(
      "accessToken",
    );
  });

  it("a password reset by e-mail works during an attack and opens the account to unknown clients again", async () => {
    const { email } = await verifiedAccount();
    await guessFromEverywhere(email);
    await accounts.requestPasswordReset(ctxFor(undefined, "203.0.113.105"), { email });
    await accounts.resetPassword(ctxFor(undefined, "203.0.113.105"), {
      token: tokenFrom(lastMailTo(email), "/reset-password"),
      password: "Reset!pass3",
    });
    await expect(accounts.signIn(ctxFor(undefined, "203.0.113.106"), { email, password: "Reset!pass3" })).resolves.toHaveProperty(
      "accessToken",
    );
  });

  it("account e-mails are limited per address and client: one client cannot block someone's reset mails", async () => {
    const email = freshEmail();
    await accounts.register(ctxFor(undefined, "192.0.2.15"), { firstName: "Mail", lastName: "Bomb", email, password });
    await accounts.resendVerification(ctxFor(undefined, "192.0.2.15"), { email });
    await accounts.requestPasswordReset(ctxFor(undefined, "192.0.2.15"), { email });
    const blocked = accounts.requestPasswordReset(ctxFor(undefined, "192.0.2.15"), { email });
    await expect(blocked).rejects.toMatchObject({
      status: 429,
      message: expect.stringMatching(/^Too many e-mails requested\. Please try again in \d+ minutes\.$/),
    });
    const before = outbox.filter((m) => m.to === email).length;
    await expect(accounts.requestPasswordReset(ctxFor(undefined, "198.51.100.15"), { email })).resolves.toHaveProperty("message");
    expect(outbox.filter((m) => m.to === email)).toHaveLength(before + 1);
  });
});

describe("profile, preferences and deletion", () => {
  it("updates names with the spec's rules; the first name may be cleared", async () => {
    const { user } = await verifiedAccount();
    expect(await accounts.updateProfile(user, { firstName: "", lastName: "Byron" })).toMatchObject({ firstName: null, lastName: "Byron" });
    await expect(accounts.updateProfile(user, { firstName: "A", lastName: "B" })).rejects.toMatchObject({
      errors: { firstName: ["First name must be at least 2 characters"], lastName: ["Last name must be at least 2 characters"] },
    });
  });

  it("stores notification preferences with the spec's defaults", async () => {
    const { user } = await verifiedAccount();
    expect(await accounts.getNotificationPreferences(user)).toEqual({
      personaCreation: true,
      narrativeGeneration: true,
      imageGeneration: true,
      marketingEmails: false,
    });
    await accounts.updateNotificationPreferences(user, accounts.parseNotificationSettings({ marketingEmails: "on" }, "form"));
    expect(await accounts.getNotificationPreferences(user)).toEqual({
      personaCreation: false,
      narrativeGeneration: false,
      imageGeneration: false,
      marketingEmails: true,
    });
    expect(() => accounts.parseNotificationSettings({ personaCreation: "yes" }, "json")).toThrow();
  });

  const leftOf = async (userId: string) =>
    JSON.stringify(
      await withAuthTables("test", (tx) =>
        tx.execute(sql`select
        (select count(*) from auth.users where id = ${userId})::int as users,
        (select count(*) from public.profiles where id = ${userId})::int as profiles,
        (select count(*) from public.personas where user_id = ${userId})::int as personas,
        (select count(*) from public.notification_preferences where user_id = ${userId})::int as prefs`),
      ),
    );

  it("deleting the account needs the exact e-mail and the current password, and removes the user with everything they own", async () => {
    const { email, session, user } = await verifiedAccount();
    await withUser(user.id, (tx) => tx.insert(personas).values({ userId: user.id, name: "Nova" }));
    const ctx = () => ctxFor(session.accessToken);
    await expect(accounts.deleteAccount(ctx(), user, { confirmEmail: "someone@else.com", password })).rejects.toMatchObject({
      status: 400,
    });
    await expect(accounts.deleteAccount(ctx(), user, { confirmEmail: email })).rejects.toMatchObject({
      status: 400,
      errors: { password: ["Current password is required"] },
    });
    await expect(accounts.deleteAccount(ctx(), user, { confirmEmail: email, password: "Wrong!pass1" })).rejects.toMatchObject({
      status: 400,
      errors: { password: ["Current password is incorrect"] },
    });
    expect(await leftOf(user.id)).toMatch(/"users":1.*"profiles":1.*"personas":1.*"prefs":1/);
    expect((await accounts.currentUser(ctx())).user?.id).toBe(user.id);

    await expect(accounts.deleteAccount(ctx(), user, { confirmEmail: ` ${email.toUpperCase()} `, password })).resolves.toEqual({
      status: "deleted",
    });
    expect((await accounts.currentUser(ctx())).user).toBeNull();
    expect(await leftOf(user.id)).toMatch(/"users":0.*"profiles":0.*"personas":0.*"prefs":0/);
  });

  it("guessing the password to delete an account is counted like sign-ins, before the check", async () => {
    const { email, session, user } = await verifiedAccount();
    const calls = (() => {
      const real = auth();
      const counted = { verifyPassword: 0 };
      useAuth({ ...real, verifyPassword: (...args) => (counted.verifyPassword++, real.verifyPassword(...args)) });
      return counted;
    })();
    try {
      const results = await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) =>
          accounts.deleteAccount(ctxFor(session.accessToken, "192.0.2.16"), user, { confirmEmail: email, password: `Wrong!pass${i}` }),
        ),
      );
      expect(calls.verifyPassword).toBeLessThanOrEqual(5);
      const codes = results.map((r) => (r.status === "fulfilled" ? 200 : (r.reason as { status: number }).status));
      expect(codes.filter((c) => c === 429)).toHaveLength(20 - calls.verifyPassword);
      await expect(
        accounts.deleteAccount(ctxFor(session.accessToken, "192.0.2.16"), user, { confirmEmail: email, password }),
      ).rejects.toMatchObject({ status: 429 });
      expect(await leftOf(user.id)).toMatch(/"users":1/);
    } finally {
      useAuth(undefined);
    }
  });

  it("an account without a password confirms its deletion from a link mailed to it, valid for an hour", async () => {
    const { email, session, user } = await verifiedAccount();
    const other = await verifiedAccount();
    // What signing up through a provider leaves: no password.
    await handle.raw.rows("update auth.users set encrypted_password = null where id = $1", [user.id]);
    const ctx = () => ctxFor(session.accessToken);
    expect(await accounts.hasPassword(ctx(), user)).toBe(false);
    expect(await accounts.hasPassword(ctxFor(other.session.accessToken), other.user)).toBe(true);

    // A password proves nothing here; the account stays and a link is mailed.
    const asked = await accounts.deleteAccount(ctx(), user, { confirmEmail: email, password: "Anything!1" });
    expect(asked).toEqual({ status: "mailed", message: "We have e-mailed you a link to confirm the deletion. It is valid for 1 hour." });
    expect(await leftOf(user.id)).toMatch(/"users":1/);
    const mail = lastMailTo(email)!;
    expect(mail.subject).toMatch(/confirm the deletion/i);
    expect(mail.text).toContain("valid for 1 hour");
    const link = new URL(mail.text.match(/https?:\/\/\S+/g)!.find((l) => new URL(l).pathname === "/settings")!);
    expect(link.searchParams.get("tab")).toBe("account");
    const token = link.searchParams.get("deleteToken")!;
    expect(accounts.deletionTokenValid(user, token)).toBe(true);

    // Another account's link, an expired one and a made-up one do nothing.
    const otherLink = new URL(accounts.deletionLink(other.user)).searchParams.get("deleteToken")!;
    const expired = new URL(accounts.deletionLink(user, Date.now() - 1000)).searchParams.get("deleteToken")!;
    for (const bad of [otherLink, expired, `${token}x`, "1.abc"]) {
      await expect(accounts.deleteAccount(ctx(), user, { confirmEmail: email, token: bad })).rejects.toMatchObject({
        status: 400,
        code: "invalid_token",
      });
    }
    expect(await leftOf(user.id)).toMatch(/"users":1/);

    await expect(accounts.deleteAccount(ctx(), user, { confirmEmail: email, token })).resolves.toEqual({ status: "deleted" });
    expect(await leftOf(user.id)).toMatch(/"users":0.*"profiles":0/);
    expect(await leftOf(other.user.id)).toMatch(/"users":1/);
  });
});
