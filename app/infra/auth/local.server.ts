// Embedded auth (the default): users in auth.users of the app database, passwords
// hashed with bcrypt, single-use verification (24 h) and reset (1 h) tokens stored as
// SHA-256 hashes, and access tokens that are JWTs signed with the session secret with
// Supabase-shaped claims, each naming a row of auth.sessions so that signing out,
// changing the password or deleting the account revokes every earlier token.
import { createHash, createSecretKey, randomBytes, randomUUID, type KeyObject } from "node:crypto";

import bcrypt from "bcryptjs";
import { sql } from "drizzle-orm";
import { SignJWT, jwtVerify } from "jose";

import { cookieSecret } from "../cookies.server";
import { withServiceRole, type Tx } from "../db.server";

import {
  ACCESS_TOKEN_TTL_S,
  AuthError,
  RESET_TOKEN_TTL_MS,
  VERIFICATION_TOKEN_TTL_MS,
  type AuthAdapter,
  type AuthUser,
  type SignedIn,
} from "./types";

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

const newToken = () => randomBytes(32).toString("base64url");
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;
const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");
const normaliseEmail = (email: string) => email.trim().toLowerCase();
// Imported once: importing the key on every verification costs a measurable share of a request.
let signingKey: KeyObject | undefined;
const secretKey = () => (signingKey ??= createSecretKey(Buffer.from(cookieSecret(), "utf8")));

async function rows<T>(tx: Tx, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await tx.execute(query)) as unknown as T[] | { rows: T[] };
  return Array.isArray(result) ? result : result.rows;
}

function toAuthUser(row: UserRow): AuthUser {
  return {
    id: row.id,
    email: row.email,
    emailVerified: row.email_confirmed_at !== null,
    createdAt: new Date(row.created_at),
  };
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
  await tx.execute(
    sql`insert into auth.sessions (id, user_id, not_after) values (${sessionId}, ${user.id}, ${expiresAt.toISOString()})`,
  );
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

function tokenAge(sentAt: Date | string | null): number {
  return sentAt ? Date.now() - new Date(sentAt).getTime() : Number.POSITIVE_INFINITY;
}

export function createLocalAuth(): AuthAdapter {
  return {
    kind: "local",

    async signUp(_ctx, input) {
      const email = normaliseEmail(input.email);
      const passwordHash = await bcrypt.hash(input.password, BCRYPT_COST);
      const token = newToken();
      return withServiceRole("auth: sign up", async (tx) => {
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
      return withServiceRole("auth: verify e-mail", async (tx) => {
        const [row] = await rows<UserRow>(
          tx,
          sql`select id, email, encrypted_password, email_confirmed_at, created_at, confirmation_sent_at, recovery_sent_at
              from auth.users where confirmation_token = ${hashToken(token)} for update`,
        );
        if (!row) throw new AuthError("expired_token", "This verification link was used already or has expired.");
        if (tokenAge(row.confirmation_sent_at) > VERIFICATION_TOKEN_TTL_MS) {
          throw new AuthError("expired_token", "This verification link has expired.");
        }
        await tx.execute(
          sql`update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now()), confirmation_token = null,
                                    updated_at = now() where id = ${row.id}`,
        );
        return { userId: row.id, email: row.email };
      });
    },

    async resendVerification(_ctx, email) {
      const token = newToken();
      return withServiceRole("auth: resend verification", async (tx) => {
        const row = await findByEmail(tx, email);
        if (!row || row.email_confirmed_at !== null) return {};
        await tx.execute(
          sql`update auth.users set confirmation_token = ${hashToken(token)}, confirmation_sent_at = now() where id = ${row.id}`,
        );
        return { verificationToken: token };
      });
    },

    async signIn(_ctx, { email, password }) {
      const row = await withServiceRole("auth: sign in lookup", (tx) => findByEmail(tx, email));
      const matches = await bcrypt.compare(password, row?.encrypted_password ?? DUMMY_HASH);
      if (!row || !matches) throw new AuthError("invalid_credentials", "Invalid email or password.");
      if (row.email_confirmed_at === null) {
        throw new AuthError("email_not_verified", "Please verify your e-mail address before signing in.");
      }
      return withServiceRole("auth: create session", (tx) => createSession(tx, row));
    },

    async getUser(_ctx, accessToken) {
      if (!accessToken) return null;
      let claims: { sub?: string; session_id?: unknown };
      try {
        ({ payload: claims } = await jwtVerify(accessToken, secretKey(), {
          issuer: ISSUER,
          audience: "authenticated",
          algorithms: ["HS256"],
        }));
      } catch {
        return null;
      }
      if (typeof claims.sub !== "string" || typeof claims.session_id !== "string") return null;
      const UUID = /^[0-9a-f-]{36}$/i;
      if (!UUID.test(claims.sub) || !UUID.test(claims.session_id)) return null;
      const [row] = await withServiceRole("auth: get user", (tx) =>
        rows<UserRow>(
          tx,
          sql`select u.id, u.email, u.encrypted_password, u.email_confirmed_at, u.created_at, u.confirmation_sent_at, u.recovery_sent_at
              from auth.sessions s join auth.users u on u.id = s.user_id
              where s.id = ${claims.session_id} and s.user_id = ${claims.sub}
                and (s.not_after is null or s.not_after > now()) and u.deleted_at is null`,
        ),
      );
      return row ? toAuthUser(row) : null;
    },

    async signOut(_ctx, userId) {
      await withServiceRole("auth: sign out", (tx) => endSessions(tx, userId));
    },

    async requestPasswordReset(_ctx, email) {
      const token = newToken();
      return withServiceRole("auth: request reset", async (tx) => {
        const row = await findByEmail(tx, email);
        if (!row) return {};
        await tx.execute(
          sql`update auth.users set recovery_token = ${hashToken(token)}, recovery_sent_at = now() where id = ${row.id}`,
        );
        return { resetToken: token, email: row.email };
      });
    },

    async resetPassword(_ctx, token, password) {
      const passwordHash = await bcrypt.hash(password, BCRYPT_COST);
      return withServiceRole("auth: reset password", async (tx) => {
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
      const row = await withServiceRole("auth: change password lookup", (tx) => findByEmail(tx, user.email));
      if (!row || row.id !== user.id || !(await bcrypt.compare(currentPassword, row.encrypted_password ?? DUMMY_HASH))) {
        throw new AuthError("invalid_credentials", "Current password is incorrect.");
      }
      const passwordHash = await bcrypt.hash(newPassword, BCRYPT_COST);
      return withServiceRole("auth: change password", async (tx) => {
        await tx.execute(sql`update auth.users set encrypted_password = ${passwordHash}, updated_at = now() where id = ${user.id}`);
        await endSessions(tx, user.id);
        return createSession(tx, row);
      });
    },

    async deleteUser(_ctx, userId) {
      await withServiceRole("auth: delete user", (tx) => tx.execute(sql`delete from auth.users where id = ${userId}`));
    },

    async oauthStart() {
      throw new AuthError("not_configured", "Third-party sign-in needs Supabase mode.");
    },

    async oauthCallback() {
      throw new AuthError("not_configured", "Third-party sign-in needs Supabase mode.");
    },
  };
}
