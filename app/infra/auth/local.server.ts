// Embedded auth (the default): users in auth.users of the app database, passwords
// hashed with bcrypt, single-use verification (24 h) and reset (1 h) tokens stored as
// SHA-256 hashes, and access tokens that are JWTs signed with the session secret with
// Supabase-shaped claims, each naming a row of auth.sessions so that signing out,
// changing the password or deleting the account revokes every earlier token.
import { createHash, createSecretKey, randomBytes, randomUUID, type KeyObject } from "node:crypto";

import { createCookie } from "@remix-run/node";
import bcrypt from "bcryptjs";
import { sql } from "drizzle-orm";
import { SignJWT, jwtVerify } from "jose";

import { cookieSecret, cookieSecure } from "../web/cookies.server";
import { serviceStatement, withAuthTables, type Tx } from "../db/db.server";
import { KEPT_READS, keptOrRead } from "../db/kept-reads.server";

import {
  ACCESS_TOKEN_TTL_S,
  AuthError,
  RESET_TOKEN_TTL_MS,
  VERIFICATION_TOKEN_TTL_MS,
  type AuthAdapter,
  type AuthContext,
  type AuthUser,
  type SignedIn,
  sessionProfileFromRow,
  type SessionProfileRow,
} from "./types";
import { IdentityRefused, type ProviderIdentity } from "./oauth-identity";
import { ProviderUnavailable, beginSignIn, finishSignIn, type LocalOAuthProvider, type OAuthFlow } from "./oauth.server";

const BCRYPT_COST = 10;
const ISSUER = "personaforge";
// Compared against when the address has no account, so both cases take as long.
const DUMMY_HASH = bcrypt.hashSync("personaforge-timing-equaliser", BCRYPT_COST);

interface UserRow {
  id: string;
  email: string;
  encrypted_password: string | null;
  email_confirmed_at: Date | string | null;
  created_at: Date | string;
  confirmation_sent_at: Date | string | null;
  recovery_sent_at: Date | string | null;
}

interface SessionRow extends SessionProfileRow {
  id: string;
  email: string;
  email_confirmed_at: Date | string | null;
  created_at: Date | string;
}

const newToken = () => randomBytes(32).toString("base64url");
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;
const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");
const normaliseEmail = (email: string) => email.trim().toLowerCase();
// Imported once: importing the key on every verification costs a measurable share of a request.
let signingKey: KeyObject | undefined;
const secretKey = () => (signingKey ??= createSecretKey(Buffer.from(cookieSecret(), "utf8")));

// A token's signature is checked once: the HMAC (WebCrypto) was a measurable share of every
// signed-in request. Only what the signature proves is kept (subject, session, expiry), never
// whether the session is open: that is asked of the database on every request.
const VERIFIED_KEPT = 5000;
const verified = new Map<string, { sub: string; session_id: string; expMs: number }>();

async function verifiedClaims(token: string): Promise<{ sub: string; session_id: string } | null> {
  const known = verified.get(token);
  if (known) {
    if (known.expMs > Date.now()) return known;
    verified.delete(token);
    return null;
  }
  let claims: { sub?: string; session_id?: unknown; exp?: number };
  try {
    ({ payload: claims } = await jwtVerify(token, secretKey(), { issuer: ISSUER, audience: "authenticated", algorithms: ["HS256"] }));
  } catch {
    return null;
  }
  if (typeof claims.sub !== "string" || typeof claims.session_id !== "string" || typeof claims.exp !== "number") return null;
  const UUID = /^[0-9a-f-]{36}$/i;
  if (!UUID.test(claims.sub) || !UUID.test(claims.session_id)) return null;
  if (verified.size >= VERIFIED_KEPT) verified.delete(verified.keys().next().value!);
  const entry = { sub: claims.sub, session_id: claims.session_id, expMs: claims.exp * 1000 };
  verified.set(token, entry);
  return entry;
}

async function rows<T>(tx: Tx, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await tx.execute(query)) as unknown as T[] | { rows: T[] };
  return Array.isArray(result) ? result : result.rows;
}

async function findByEmail(tx: Tx, email: string): Promise<UserRow | undefined> {
  const [row] = await rows<UserRow>(
    tx,
    sql`select id, email, encrypted_password, email_confirmed_at, created_at, confirmation_sent_at, recovery_sent_at
        from auth.users where lower(email) = ${normaliseEmail(email)} and deleted_at is null limit 1`,
  );
  return row;
}

async function createSession(tx: Tx, user: { id: string; email: string }): Promise<SignedIn> {
  const sessionId = randomUUID();
  const expiresAt = new Date(Date.now() + ACCESS_TOKEN_TTL_S * 1000);
  await tx.execute(sql`insert into auth.sessions (id, user_id, not_after) values (${sessionId}, ${user.id}, ${expiresAt.toISOString()})`);
  await tx.execute(sql`update auth.users set last_sign_in_at = now() where id = ${user.id}`);
  const accessToken = await new SignJWT({ email: user.email, role: "authenticated", session_id: sessionId })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(user.id)
    .setAudience("authenticated")
    .setIssuer(ISSUER)
    .setIssuedAt()
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(secretKey());
  return { userId: user.id, email: user.email, accessToken, expiresAt };
}

async function endSessions(tx: Tx, userId: string) {
  await tx.execute(sql`delete from auth.sessions where user_id = ${userId}`);
}

// ---------------------------------------------------------------------------------
// Third-party sign-in (ADR 011)
// ---------------------------------------------------------------------------------

// The state, PKCE verifier and nonce of a sign-in in progress: signed, httpOnly, sent back
// only to the callback, and only for as long as someone takes to sign in at a provider.
const FLOW_TTL_S = 10 * 60;
let flowCookieInstance: ReturnType<typeof createCookie> | undefined;
const flowCookie = () =>
  (flowCookieInstance ??= createCookie("pf_oauth", {
    httpOnly: true,
    // Lax: the provider's redirect back is a top-level GET from another site.
    sameSite: "lax",
    path: "/auth/callback",
    secure: cookieSecure(),
    secrets: [cookieSecret()],
    maxAge: FLOW_TTL_S,
  }));

interface StoredFlow extends OAuthFlow {
  redirectUri: string;
  expiresAt: number;
}

async function readFlow(request: Request): Promise<StoredFlow | null> {
  const value: unknown = await flowCookie().parse(request.headers.get("cookie"));
  if (!value || typeof value !== "object") return null;
  const flow = value as Partial<StoredFlow>;
  const ok =
    typeof flow.provider === "string" &&
    typeof flow.state === "string" &&
    typeof flow.codeVerifier === "string" &&
    typeof flow.redirectUri === "string" &&
    typeof flow.expiresAt === "number" &&
    (flow.nonce === undefined || typeof flow.nonce === "string");
  return ok && flow.expiresAt! > Date.now() ? (flow as StoredFlow) : null;
}

const FLOW_LOST = "This sign-in could not be matched to this browser, or it was already used. Please start again with the button below.";

/**
 * Finds or makes the account of a provider's person, in one transaction (ADR 011):
 * - an identity linked before signs in to its account;
 * - otherwise the provider must vouch for the e-mail address (never an unverified one);
 * - an account with that address and a verified e-mail gets the identity linked;
 * - an account with that address whose e-mail was never verified was made by someone who
 *   could not prove the mailbox: the provider now proves it, so the address becomes
 *   verified, that registration's password stops working and its names and picture are
 *   replaced by the provider's;
 * - else a new account, verified, without a password, named and pictured by the provider.
 */
export async function signInWithIdentity(tx: Tx, identity: ProviderIdentity, providerName: string): Promise<SignedIn> {
  const [linked] = await rows<{ user_id: string }>(
    tx,
    sql`select user_id from private.oauth_identities where provider = ${identity.provider} and subject = ${identity.subject} for update`,
  );
  if (linked) {
    const [user] = await rows<UserRow>(
      tx,
      sql`select id, email, encrypted_password, email_confirmed_at, created_at, confirmation_sent_at, recovery_sent_at
          from auth.users where id = ${linked.user_id} and deleted_at is null`,
    );
    if (user) {
      await tx.execute(
        sql`update private.oauth_identities set last_sign_in_at = now() where provider = ${identity.provider} and subject = ${identity.subject}`,
      );
      return createSession(tx, user);
    }
  }
  if (!identity.emailVerified) {
    throw new AuthError(
      "email_not_verified",
      `Your e-mail address at ${providerName} is not verified, so no account was created or changed. Verify it at ${providerName} first, or sign in with your password.`,
    );
  }
  const names = {
    first_name: identity.firstName,
    last_name: identity.lastName,
    full_name: [identity.firstName, identity.lastName].filter(Boolean).join(" ") || null,
    avatar_url: identity.avatarUrl,
  };
  let [user] = await rows<UserRow>(
    tx,
    sql`select id, email, encrypted_password, email_confirmed_at, created_at, confirmation_sent_at, recovery_sent_at
        from auth.users where lower(email) = ${identity.email} and deleted_at is null limit 1 for update`,
  );
  if (user && user.email_confirmed_at === null) {
    await tx.execute(
      sql`update auth.users set email_confirmed_at = now(), encrypted_password = null, confirmation_token = null,
                                recovery_token = null, raw_user_meta_data = ${JSON.stringify(names)}::jsonb,
                                raw_app_meta_data = ${JSON.stringify({ provider: identity.provider, providers: [identity.provider] })}::jsonb,
                                updated_at = now()
          where id = ${user.id}`,
    );
    await tx.execute(
      sql`update public.profiles set first_name = ${identity.firstName}, last_name = ${identity.lastName},
                                     profile_image_url = ${identity.avatarUrl}, auth_method = ${identity.provider}
          where id = ${user.id}`,
    );
    await endSessions(tx, user.id);
  } else if (user) {
    await tx.execute(
      sql`update auth.users set raw_app_meta_data = jsonb_set(coalesce(raw_app_meta_data, '{}'::jsonb), '{providers}',
                                  (select coalesce(jsonb_agg(distinct p), '[]'::jsonb) from jsonb_array_elements_text(
                                     coalesce(raw_app_meta_data -> 'providers', '[]'::jsonb) || ${JSON.stringify([identity.provider])}::jsonb) p)),
                                updated_at = now()
          where id = ${user.id}`,
    );
  } else {
    const id = randomUUID();
    const inserted = await rows<UserRow>(
      tx,
      sql`insert into auth.users (id, aud, role, email, encrypted_password, raw_user_meta_data, raw_app_meta_data,
                                  email_confirmed_at, created_at, updated_at)
          values (${id}, 'authenticated', 'authenticated', ${identity.email}, null, ${JSON.stringify(names)}::jsonb,
                  ${JSON.stringify({ provider: identity.provider, providers: [identity.provider] })}::jsonb, now(), now(), now())
          on conflict do nothing
          returning id, email, encrypted_password, email_confirmed_at, created_at, confirmation_sent_at, recovery_sent_at`,
    );
    // A sign-up with the same address won a race: start again and it is found.
    if (inserted.length === 0) throw new AuthError("invalid_token", FLOW_LOST);
    user = inserted[0]!;
  }
  // One statement for a new link, a link moving off an account that is gone, and a second
  // callback for the same identity that raced this one (two tabs): never a key violation.
  await tx.execute(
    sql`insert into private.oauth_identities (provider, subject, user_id, email)
        values (${identity.provider}, ${identity.subject}, ${user.id}, ${identity.email})
        on conflict (provider, subject) do update set user_id = excluded.user_id, email = excluded.email`,
  );
  return createSession(tx, user);
}

function tokenAge(sentAt: Date | string | null): number {
  return sentAt ? Date.now() - new Date(sentAt).getTime() : Number.POSITIVE_INFINITY;
}

export interface LocalAuthOptions {
  /** Third-party sign-in providers (none: the 'Continue with …' buttons are absent). */
  oauthProviders?: LocalOAuthProvider[];
}

export function createLocalAuth(options: LocalAuthOptions = {}): AuthAdapter {
  const providers = options.oauthProviders ?? [];
  const provider = (id: string) => {
    const found = providers.find((p) => p.id === id);
    if (!found) throw new AuthError("not_configured", "This sign-in provider is not available.");
    return found;
  };
  const clearFlow = async (ctx: AuthContext) =>
    ctx.responseHeaders.append("Set-Cookie", await flowCookie().serialize("", { maxAge: 0, expires: new Date(0) }));

  return {
    kind: "local",

    async signUp(_ctx, input) {
      const email = normaliseEmail(input.email);
      const passwordHash = await bcrypt.hash(input.password, BCRYPT_COST);
      const token = newToken();
      return withAuthTables("auth: sign up", async (tx) => {
        if (await findByEmail(tx, email)) return { status: "exists" as const };
        const id = randomUUID();
        const inserted = await rows<{ id: string }>(
          tx,
          sql`insert into auth.users (id, aud, role, email, encrypted_password, raw_user_meta_data, raw_app_meta_data,
                                      confirmation_token, confirmation_sent_at, created_at, updated_at)
              values (${id}, 'authenticated', 'authenticated', ${email}, ${passwordHash},
                      ${JSON.stringify({ first_name: input.firstName, last_name: input.lastName })}::jsonb,
                      '{"provider":"email","providers":["email"]}'::jsonb,
                      ${hashToken(token)}, now(), now(), now())
              on conflict do nothing
              returning id`,
        );
        // A simultaneous sign-up with the same address won the race.
        if (inserted.length === 0) return { status: "exists" as const };
        return { status: "created" as const, userId: id, verificationToken: token };
      });
    },

    async verifyEmail(_ctx, token) {
      // A token of another shape was never one of ours: a malformed link. One of our shape
      // that matches nothing was used already or replaced by a newer mail: it has expired.
      if (!TOKEN_SHAPE.test(token)) throw new AuthError("invalid_token", "This verification link is not valid.");
      return withAuthTables("auth: verify e-mail", async (tx) => {
        const [row] = await rows<UserRow>(
          tx,
          sql`select id, email, encrypted_password, email_confirmed_at, created_at, confirmation_sent_at, recovery_sent_at
              from auth.users where confirmation_token = ${hashToken(token)} for update`,
        );
        if (!row) throw new AuthError("expired_token", "This verification link was used already or has expired.");
        // The link stays known after use, so a second visit can say the address is verified already.
        if (row.email_confirmed_at !== null) throw new AuthError("already_verified", "This e-mail address is verified already.");
        if (tokenAge(row.confirmation_sent_at) > VERIFICATION_TOKEN_TTL_MS) {
          throw new AuthError("expired_token", "This verification link has expired.");
        }
        await tx.execute(sql`update auth.users set email_confirmed_at = now(), updated_at = now() where id = ${row.id}`);
        return { userId: row.id, email: row.email };
      });
    },

    async resendVerification(_ctx, email) {
      const token = newToken();
      return withAuthTables("auth: resend verification", async (tx) => {
        const row = await findByEmail(tx, email);
        if (!row || row.email_confirmed_at !== null) return {};
        await tx.execute(
          sql`update auth.users set confirmation_token = ${hashToken(token)}, confirmation_sent_at = now() where id = ${row.id}`,
        );
        return { verificationToken: token };
      });
    },

    async signIn(_ctx, { email, password }) {
      const row = await withAuthTables("auth: sign in lookup", (tx) => findByEmail(tx, email));
      const matches = await bcrypt.compare(password, row?.encrypted_password ?? DUMMY_HASH);
      if (!row || !matches) throw new AuthError("invalid_credentials", "Invalid email or password.");
      if (row.email_confirmed_at === null) {
        throw new AuthError("email_not_verified", "Please verify your e-mail address before signing in.");
      }
      return withAuthTables("auth: create session", (tx) => createSession(tx, row));
    },

    async getUser(_ctx, accessToken) {
      if (!accessToken) return null;
      const claims = await verifiedClaims(accessToken);
      if (!claims) return null;
      // A checked session is kept until the database says its user changed (KEPT_READS.checkedSessions):
      // sign-out, a password change or reset, deletion and profile edits reach every process
      // before the writing request has answered.
      return keptOrRead(KEPT_READS.checkedSessions, [claims.sub, claims.session_id], async () => {
        // One statement: the session is open, the account exists, and its profile (see the
        // migration 20261123060000_session_lookup).
        const [row] = await serviceStatement<SessionRow>(
          "auth: get user",
          sql`select * from private.session_user_profile(${claims.session_id}, ${claims.sub})`,
        );
        if (!row) return null;
        const createdAt = new Date(row.created_at);
        const user: AuthUser = {
          id: row.id,
          email: row.email,
          emailVerified: row.email_confirmed_at !== null,
          createdAt,
          profile: sessionProfileFromRow(row, createdAt),
        };
        return user;
      });
    },

    async signOut(_ctx, userId) {
      await withAuthTables("auth: sign out", (tx) => endSessions(tx, userId));
    },

    async requestPasswordReset(_ctx, email) {
      const token = newToken();
      return withAuthTables("auth: request reset", async (tx) => {
        const row = await findByEmail(tx, email);
        if (!row) return {};
        await tx.execute(sql`update auth.users set recovery_token = ${hashToken(token)}, recovery_sent_at = now() where id = ${row.id}`);
        return { resetToken: token, email: row.email };
      });
    },

    async resetPassword(_ctx, token, password) {
      const passwordHash = await bcrypt.hash(password, BCRYPT_COST);
      return withAuthTables("auth: reset password", async (tx) => {
        const [row] = await rows<UserRow>(
          tx,
          sql`select id, email, encrypted_password, email_confirmed_at, created_at, confirmation_sent_at, recovery_sent_at
              from auth.users where recovery_token = ${hashToken(token)} and deleted_at is null for update`,
        );
        if (!row) throw new AuthError("invalid_token", "This password reset link is not valid.");
        if (tokenAge(row.recovery_sent_at) > RESET_TOKEN_TTL_MS) {
          throw new AuthError("expired_token", "This password reset link has expired.");
        }
        // Following the link proves the mailbox is theirs, so the address counts as verified.
        await tx.execute(
          sql`update auth.users set encrypted_password = ${passwordHash}, recovery_token = null,
                                    email_confirmed_at = coalesce(email_confirmed_at, now()), updated_at = now()
              where id = ${row.id}`,
        );
        await endSessions(tx, row.id);
        return { userId: row.id, email: row.email };
      });
    },

    async changePassword(_ctx, user, currentPassword, newPassword) {
      const row = await withAuthTables("auth: change password lookup", (tx) => findByEmail(tx, user.email));
      if (!row || row.id !== user.id || !(await bcrypt.compare(currentPassword, row.encrypted_password ?? DUMMY_HASH))) {
        throw new AuthError("invalid_credentials", "Current password is incorrect.");
      }
      const passwordHash = await bcrypt.hash(newPassword, BCRYPT_COST);
      return withAuthTables("auth: change password", async (tx) => {
        await tx.execute(sql`update auth.users set encrypted_password = ${passwordHash}, updated_at = now() where id = ${user.id}`);
        await endSessions(tx, user.id);
        return createSession(tx, row);
      });
    },

    async hasPassword(_ctx, user) {
      const row = await withAuthTables("auth: has password", (tx) => findByEmail(tx, user.email));
      return Boolean(row && row.id === user.id && row.encrypted_password);
    },

    async verifyPassword(_ctx, user, password) {
      const row = await withAuthTables("auth: password check", (tx) => findByEmail(tx, user.email));
      if (!row || row.id !== user.id || !(await bcrypt.compare(password, row.encrypted_password ?? DUMMY_HASH))) {
        throw new AuthError("invalid_credentials", "Current password is incorrect.");
      }
    },

    async deleteUser(_ctx, userId) {
      await withAuthTables("auth: delete user", (tx) => tx.execute(sql`delete from auth.users where id = ${userId}`));
    },

    async oauthStart(ctx, providerId, callbackUrl) {
      const p = provider(providerId);
      let started: Awaited<ReturnType<typeof beginSignIn>>;
      try {
        started = await beginSignIn(p, callbackUrl);
      } catch (error) {
        if (error instanceof ProviderUnavailable) throw new AuthError("provider_error", error.message);
        throw error;
      }
      const stored: StoredFlow = { ...started.flow, redirectUri: callbackUrl, expiresAt: Date.now() + FLOW_TTL_S * 1000 };
      ctx.responseHeaders.append("Set-Cookie", await flowCookie().serialize(stored));
      return { url: started.url };
    },

    async oauthCallback(ctx, code) {
      // Single use: whatever happens next, this browser's flow is over.
      await clearFlow(ctx);
      const flow = await readFlow(ctx.request);
      const params = new URL(ctx.request.url).searchParams;
      const state = params.get("state");
      if (!flow || !state || state !== flow.state || !code) throw new AuthError("invalid_token", FLOW_LOST);
      const p = provider(flow.provider);
      // The address the provider redirected to, as registered (APP_URL), with the answer's parameters.
      const callbackUrl = new URL(flow.redirectUri);
      for (const [key, value] of params) callbackUrl.searchParams.append(key, value);
      let identity: ProviderIdentity;
      try {
        identity = await finishSignIn(p, callbackUrl, flow);
      } catch (error) {
        if (error instanceof IdentityRefused) throw new AuthError("identity_refused", error.message);
        if (error instanceof ProviderUnavailable) throw new AuthError("provider_error", error.message);
        throw error;
      }
      return withAuthTables("auth: third-party sign-in", (tx) => signInWithIdentity(tx, identity, p.name));
    },
  };
}
