// Supabase Auth (GoTrue) behind the AuthAdapter interface.
//
// Three kinds of client, each made for one call (creating one is cheap and keeps no
// state between requests):
// - the cookie client (@supabase/ssr createServerClient, PKCE): reads the session from
//   the request's cookies and writes every change (session, refresh, sign-out, PKCE
//   code verifier) as Set-Cookie on ctx.responseHeaders, with the no-store cache headers
//   @supabase/ssr asks for. It sees the cookies already set earlier in the same response,
//   so a sign-out after a sign-in in one request clears what was just set;
// - a stateless anon client for calls that must not touch the browser's session:
//   sending mails (sign-up, resend, reset request: implicit flow, so no stray PKCE
//   verifier cookie and plain token hashes in the mails), verifying an address, and
//   reading the user behind a bearer token;
// - the service-role client, for admin calls only. Its key never leaves this module:
//   error messages are scrubbed of both keys.
//
// Behaviour decisions (GoTrue facts behind them in parentheses):
// - signUp: "exists" when GoTrue answers a user with no identities (its answer for an
//   address that is already confirmed, sent so the response does not reveal accounts) or
//   422 user_already_exists / email_exists (what it says when auto-confirm is on);
// - verifyEmail uses verifyOtp type "signup", the type of the confirmation template's
//   link (type "email" would also accept a password-reset token hash and sign in with
//   it). The session GoTrue opens on verification is revoked at once: verifying does not
//   sign in, as in local mode;
// - a wrong, used or expired e-mail token is one GoTrue error (403 otp_expired, "Email
//   link is invalid or has expired"), so it maps to expired_token; malformed requests
//   (400) map to invalid_token;
// - the visitor's address goes to GoTrue as `Sb-Forwarded-For` on every call made for a
//   visitor (GoTrue reads the leftmost valid IP of that header for its per-IP limits when
//   the project enables "IP address forwarding"; without it every visitor shares the app
//   server's budget). It is the address the app itself trusts (TRUST_PROXY), never a
//   header passed through;
// - GoTrue's refusals become honest errors (toAuthError, GOTRUE_CODES): per-IP limit and the
//   project's mail quota (429 "Email rate limit exceeded") -> rate_limited; sign-ups closed,
//   e-mail provider off, address not authorised, banned account -> not_allowed; an address
//   GoTrue rejects -> invalid_email; its password rules -> weak_password. Only GoTrue's
//   per-address mail interval ("For security purposes, you can only request this after N
//   seconds") is not reported, because it tells that the address has an account:
//   sign-up answers as for a first registration, resend and reset answer {} (the mail sent
//   moments before is still valid);
// - resendVerification and requestPasswordReset answer {} for unknown addresses;
// - getUser verifies the access token locally (getClaims(): ES256/RS256 against the
//   project's JWKS, fetched once and cached by supabase-js for 10 minutes) and then asks
//   `lookupSession` whether its session (claim session_id) still exists: GoTrue deletes
//   the row on sign-out, so sign-out is noticed at once without a call to GoTrue. Tokens
//   of a project still on the legacy HS256 secret, and every token when no lookup is
//   available, are checked by GoTrue itself (GET /user). The cookie session is refreshed
//   first when its access token is (nearly) expired; any error is null;
// - signOut revokes globally: the bearer token's user through the admin API, the cookie
//   session through the cookie client, and clears the cookies. Tokens that are already
//   dead (bad_jwt, session_not_found, …) are not an error;
// - deleteUser is idempotent (404 user_not_found counts as done).
import { createServerClient, parseCookieHeader, serializeCookieHeader, type CookieOptions } from "@supabase/ssr";
import {
  createClient,
  isAuthApiError,
  isAuthError,
  isAuthRetryableFetchError,
  isAuthSessionMissingError,
  type Provider,
  type Session,
  type SupabaseClient,
  type User,
  type WebSocketLikeConstructor,
} from "@supabase/supabase-js";
import { isIP } from "node:net";

import WebSocket from "ws";

import {
  AuthError,
  type AuthAdapter,
  type AuthContext,
  type AuthErrorCode,
  type AuthUser,
  type SessionProfile,
  type SignedIn,
} from "./types";

export interface SupabaseAuthEnv {
  SUPABASE_URL: string;
  SUPABASE_ANON_KEY: string;
  SUPABASE_SERVICE_ROLE_KEY: string;
  APP_URL: string;
}

/** What the app's database says about a GoTrue session: undefined when it cannot tell (not GoTrue's database). */
export type SessionLookup = (
  sessionId: string,
  userId: string,
) => Promise<{ email: string; emailConfirmedAt: Date | null; createdAt: Date; profile?: SessionProfile | null } | null | undefined>;

export interface SupabaseAuthOptions {
  /** Checks a locally verified token's session (auth.sessions); without it GoTrue is asked (GET /user). */
  lookupSession?: SessionLookup;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A GoTrue call that takes longer than this fails as provider_error instead of hanging the request. */
const REQUEST_TIMEOUT_MS = 10_000;

/** GoTrue error codes that mean "this token or session is already gone": nothing left to sign out. */
const ALREADY_SIGNED_OUT = new Set([
  "bad_jwt",
  "session_not_found",
  "session_expired",
  "user_not_found",
  "refresh_token_not_found",
  "refresh_token_already_used",
  "no_authorization",
]);

/**
 * GoTrue's per-address mail interval: reporting it would reveal that the address has an
 * account. The same code with "Email rate limit exceeded" is the project's quota, which
 * concerns every address and is reported.
 */
function isAddressThrottle(error: unknown): boolean {
  return isAuthError(error) && error.code === "over_email_send_rate_limit" && !/rate limit exceeded/i.test(error.message);
}

/** Refusals GoTrue can give to any visitor-facing call, with the message the visitor sees. */
const GOTRUE_CODES: Readonly<Record<string, { code: AuthErrorCode; message: string }>> = {
  over_request_rate_limit: {
    code: "rate_limited",
    message: "Too many sign-in attempts from your network. Please wait a few minutes and try again.",
  },
  over_email_send_rate_limit: { code: "rate_limited", message: "We cannot send more e-mails right now. Please try again in an hour." },
  email_address_invalid: { code: "invalid_email", message: "Invalid email address" },
  email_address_not_authorized: { code: "not_allowed", message: "We cannot send e-mails to this address. Please use another address." },
  signup_disabled: { code: "not_allowed", message: "New sign-ups are closed at the moment." },
  email_provider_disabled: { code: "not_allowed", message: "Signing in with an e-mail address and password is switched off." },
  provider_disabled: { code: "not_allowed", message: "This sign-in provider is switched off." },
  oauth_provider_not_supported: { code: "not_allowed", message: "This sign-in provider is switched off." },
  user_banned: { code: "not_allowed", message: "This account is suspended." },
  weak_password: { code: "weak_password", message: "This password is too weak or too common. Please choose another one." },
  same_password: { code: "weak_password", message: "The new password must be different from the current one." },
};

type CodeMap = Readonly<Record<string, AuthErrorCode>>;

const SIGN_IN_CODES: CodeMap = {
  invalid_credentials: "invalid_credentials",
  email_not_confirmed: "email_not_verified",
  validation_failed: "invalid_credentials",
};
const EMAIL_TOKEN_CODES: CodeMap = {
  otp_expired: "expired_token",
  validation_failed: "invalid_token",
  bad_json: "invalid_token",
  user_not_found: "invalid_token",
};
const OAUTH_CODE_CODES: CodeMap = {
  pkce_code_verifier_not_found: "invalid_token",
  bad_code_verifier: "invalid_token",
  flow_state_not_found: "invalid_token",
  validation_failed: "invalid_token",
  flow_state_expired: "expired_token",
};

interface SetCookieLine {
  name: string;
  value: string;
  /** Max-Age ≤ 0, an Expires in the past or an empty value: the cookie is being removed. */
  removes: boolean;
}

function parseSetCookie(line: string): SetCookieLine | null {
  const [pair = "", ...attributes] = line.split(";");
  const eq = pair.indexOf("=");
  if (eq <= 0) return null;
  const name = pair.slice(0, eq).trim();
  const [parsed] = parseCookieHeader(pair.trim());
  const value = parsed?.value ?? "";
  let removes = value === "";
  for (const attribute of attributes) {
    const [key = "", val = ""] = attribute.split("=").map((s) => s.trim());
    if (key.toLowerCase() === "max-age" && Number(val) <= 0) removes = true;
    if (key.toLowerCase() === "expires" && Date.parse(val) <= Date.now()) removes = true;
  }
  return { name, value, removes };
}

/** The cookies the browser will hold after this response: the request's, updated by the Set-Cookie already written. */
function cookiesOf(ctx: AuthContext): { name: string; value: string }[] {
  const jar = new Map<string, string>();
  for (const { name, value } of parseCookieHeader(ctx.request.headers.get("Cookie") ?? "")) jar.set(name, value ?? "");
  for (const line of ctx.responseHeaders.getSetCookie()) {
    const cookie = parseSetCookie(line);
    if (!cookie) continue;
    if (cookie.removes) jar.delete(cookie.name);
    else jar.set(cookie.name, cookie.value);
  }
  return [...jar].map(([name, value]) => ({ name, value }));
}

/** Writes Set-Cookie lines; a later write of a cookie replaces the earlier line for it instead of stacking up. */
function writeCookies(headers: Headers, cookies: { name: string; value: string; options: CookieOptions }[]) {
  if (cookies.length === 0) return;
  const replaced = new Set(cookies.map((c) => c.name));
  const kept = headers.getSetCookie().filter((line) => !replaced.has(parseSetCookie(line)?.name ?? ""));
  headers.delete("Set-Cookie");
  for (const line of kept) headers.append("Set-Cookie", line);
  for (const { name, value, options } of cookies) headers.append("Set-Cookie", serializeCookieHeader(name, value, options));
}

const fetchWithTimeout: typeof fetch = (input, init) =>
  fetch(input, { ...init, signal: init?.signal ?? AbortSignal.timeout(REQUEST_TIMEOUT_MS) });

function toAuthUser(user: User): AuthUser {
  return {
    id: user.id,
    email: user.email ?? "",
    emailVerified: Boolean(user.email_confirmed_at),
    createdAt: new Date(user.created_at),
  };
}

function toSignedIn(session: Session): SignedIn {
  const expiresAtSeconds = session.expires_at ?? Math.floor(Date.now() / 1000) + session.expires_in;
  return {
    userId: session.user.id,
    email: session.user.email ?? "",
    accessToken: session.access_token,
    expiresAt: new Date(expiresAtSeconds * 1000),
  };
}

/** The visitor's address for GoTrue's per-IP limits; only a well-formed IP (what GoTrue accepts). */
function forwardedFor(ctx: AuthContext | undefined): Record<string, string> {
  const client = ctx?.client?.trim() ?? "";
  return client && isIP(client) ? { "Sb-Forwarded-For": client } : {};
}

function jwtAlgorithm(token: string): string {
  try {
    const header = JSON.parse(Buffer.from(token.split(".")[0] ?? "", "base64url").toString("utf8")) as { alg?: unknown };
    return typeof header.alg === "string" ? header.alg : "";
  } catch {
    return "";
  }
}

export function createSupabaseAuth(env: SupabaseAuthEnv, options: SupabaseAuthOptions = {}): AuthAdapter {
  const url = env.SUPABASE_URL.replace(/\/+$/, "");
  const appUrl = env.APP_URL.replace(/\/+$/, "");
  const verifyEmailUrl = `${appUrl}/verify-email`;
  const resetPasswordUrl = `${appUrl}/reset-password`;
  // Only the server reads these cookies (the app works without JavaScript), so HttpOnly.
  const cookieOptions: CookieOptions = { path: "/", sameSite: "lax", httpOnly: true, secure: appUrl.startsWith("https://") };
  const secrets = [env.SUPABASE_SERVICE_ROLE_KEY, env.SUPABASE_ANON_KEY].filter((s) => s.length >= 8);

  const shared = {
    // Node 20 has no global WebSocket; without a transport supabase-js throws at creation.
    realtime: { transport: WebSocket as unknown as WebSocketLikeConstructor },
    global: { fetch: fetchWithTimeout },
  };

  function cookieClient(ctx: AuthContext): SupabaseClient {
    return createServerClient(url, env.SUPABASE_ANON_KEY, {
      ...shared,
      global: { ...shared.global, headers: forwardedFor(ctx) },
      cookieOptions,
      cookies: {
        getAll: () => cookiesOf(ctx),
        setAll: (cookies, cacheHeaders) => {
          writeCookies(ctx.responseHeaders, cookies);
          for (const [name, value] of Object.entries(cacheHeaders)) ctx.responseHeaders.set(name, value);
        },
      },
      auth: { flowType: "pkce" },
    });
  }

  function statelessClient(ctx?: AuthContext): SupabaseClient {
    return createClient(url, env.SUPABASE_ANON_KEY, {
      ...shared,
      global: { ...shared.global, headers: forwardedFor(ctx) },
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false, flowType: "implicit" },
    });
  }

  let admin: SupabaseClient | undefined;
  function adminClient(): SupabaseClient {
    admin ??= createClient(url, env.SUPABASE_SERVICE_ROLE_KEY, {
      ...shared,
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    });
    return admin;
  }

  function scrub(message: string): string {
    let out = message;
    for (const secret of secrets) out = out.split(secret).join("[redacted]");
    return out;
  }

  /** Maps anything a supabase-js call returned or threw to our AuthError; `codes` names the expected refusals. */
  function toAuthError(error: unknown, what: string, codes: CodeMap = {}): AuthError {
    if (error instanceof AuthError) return error;
    if (isAuthError(error)) {
      const mapped = error.code ? codes[error.code] : undefined;
      const general = !mapped && error.code ? GOTRUE_CODES[error.code] : undefined;
      if (general) return new AuthError(general.code, general.message);
      if (mapped) {
        const message =
          error.code === "pkce_code_verifier_not_found"
            ? "The sign-in could not be matched to this browser (its PKCE verifier cookie is missing); start again."
            : scrub(error.message);
        return new AuthError(mapped, message);
      }
      const status = error.status ?? 0;
      if (isAuthRetryableFetchError(error) || status === 0 || status >= 500) {
        return new AuthError("provider_error", `Supabase Auth is unavailable (${what}): ${scrub(error.message) || `HTTP ${status}`}`);
      }
      const detail = [error.code, status ? `HTTP ${status}` : ""].filter(Boolean).join(", ");
      return new AuthError("provider_error", `Supabase Auth refused ${what}: ${scrub(error.message)}${detail ? ` (${detail})` : ""}`);
    }
    const message = error instanceof Error ? error.message : String(error);
    return new AuthError("provider_error", `Supabase Auth failed (${what}): ${scrub(message)}`);
  }

  /** Runs a step; anything unexpected it throws becomes a provider_error without the keys. */
  async function guarded<T>(what: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw toAuthError(error, what);
    }
  }

  const alreadySignedOut = (error: unknown) =>
    isAuthSessionMissingError(error) || (isAuthApiError(error) && ALREADY_SIGNED_OUT.has(error.code ?? ""));

  /** Best effort: ends the session a stateless call just opened (verification). */
  async function revokeQuietly(accessToken: string) {
    try {
      await adminClient().auth.admin.signOut(accessToken, "local");
    } catch {
      // The session expires on its own; verification itself succeeded.
    }
  }

  return {
    kind: "supabase",

    signUp: (ctx, input) =>
      guarded("sign-up", async () => {
        const { data, error } = await statelessClient(ctx).auth.signUp({
          email: input.email,
          password: input.password,
          options: { emailRedirectTo: verifyEmailUrl, data: { first_name: input.firstName, last_name: input.lastName } },
        });
        if (error) {
          if (error.code === "user_already_exists" || error.code === "email_exists") return { status: "exists" as const };
          // An unconfirmed account for the address got its mail moments ago: answer as for a first registration.
          if (isAddressThrottle(error)) return { status: "created" as const };
          throw toAuthError(error, "sign-up");
        }
        // Auto-confirming projects answer with a session: signing up does not sign in.
        if (data.session) await revokeQuietly(data.session.access_token);
        const user = data.user;
        if (!user) throw new AuthError("provider_error", "Supabase Auth answered the sign-up without a user.");
        if (Array.isArray(user.identities) && user.identities.length === 0) return { status: "exists" as const };
        return { status: "created" as const, userId: user.id };
      }),

    verifyEmail: (ctx, token) =>
      guarded("e-mail verification", async () => {
        if (!token) throw new AuthError("invalid_token", "The verification link has no token.");
        const { data, error } = await statelessClient(ctx).auth.verifyOtp({ token_hash: token, type: "signup" });
        if (error) throw toAuthError(error, "e-mail verification", EMAIL_TOKEN_CODES);
        if (!data.user) throw new AuthError("provider_error", "Supabase Auth verified the address but returned no user.");
        if (data.session) await revokeQuietly(data.session.access_token);
        return { userId: data.user.id, email: data.user.email ?? "" };
      }),

    resendVerification: (ctx, email) =>
      guarded("resending the verification mail", async () => {
        const { error } = await statelessClient(ctx).auth.resend({ type: "signup", email, options: { emailRedirectTo: verifyEmailUrl } });
        if (error && !isAddressThrottle(error)) throw toAuthError(error, "resending the verification mail");
        return {};
      }),

    signIn: (ctx, { email, password }) =>
      guarded("sign-in", async () => {
        const { data, error } = await cookieClient(ctx).auth.signInWithPassword({ email, password });
        if (error) {
          if (isAuthApiError(error) && error.status === 400 && error.code !== "email_not_confirmed" && !GOTRUE_CODES[error.code ?? ""]) {
            throw new AuthError("invalid_credentials", scrub(error.message) || "Invalid login credentials");
          }
          throw toAuthError(error, "sign-in", SIGN_IN_CODES);
        }
        return toSignedIn(data.session);
      }),

    async getUser(ctx, accessToken) {
      try {
        const client = accessToken ? statelessClient(ctx) : cookieClient(ctx);
        // The cookie session's access token, refreshed (and its cookies rewritten) when it is (nearly) expired.
        const token = accessToken ?? (await client.auth.getSession()).data.session?.access_token;
        if (!token) return null;
        const byGoTrue = async () => {
          const { data, error } = await client.auth.getUser(token);
          return error || !data.user ? null : toAuthUser(data.user);
        };
        // Legacy HS256 projects: only GoTrue can check the signature (getClaims would ask it too).
        if (!options.lookupSession || jwtAlgorithm(token).startsWith("HS")) return await byGoTrue();
        const { data, error } = await client.auth.getClaims(token);
        if (error || !data) return null;
        const { sub, session_id: sessionId, email } = data.claims as { sub?: unknown; session_id?: unknown; email?: unknown };
        if (typeof sub !== "string" || typeof sessionId !== "string" || !UUID.test(sub) || !UUID.test(sessionId)) return null;
        // A failed lookup (the database unreachable for a moment) is GoTrue's to decide, not a sign-out.
        const session = await options.lookupSession(sessionId, sub).catch(() => undefined);
        if (session === undefined) return await byGoTrue();
        if (session === null) {
          // Signed out elsewhere: drop the dead cookies too (GoTrue answers session_not_found; supabase-js clears them).
          if (!accessToken) await client.auth.signOut({ scope: "local" }).catch(() => undefined);
          return null;
        }
        return {
          id: sub,
          email: typeof email === "string" && email ? email : session.email,
          emailVerified: session.emailConfirmedAt !== null,
          createdAt: session.createdAt,
          ...(session.profile !== undefined ? { profile: session.profile } : {}),
        };
      } catch {
        return null;
      }
    },

    signOut: (ctx, _userId, accessToken) =>
      guarded("sign-out", async () => {
        if (accessToken) {
          const { error } = await adminClient().auth.admin.signOut(accessToken, "global");
          if (error && !alreadySignedOut(error)) throw toAuthError(error, "sign-out");
        }
        // Revokes the cookie session (refreshing it first if needed) and clears the cookies.
        const { error } = await cookieClient(ctx).auth.signOut({ scope: "global" });
        if (error && !alreadySignedOut(error)) throw toAuthError(error, "sign-out");
      }),

    requestPasswordReset: (ctx, email) =>
      guarded("requesting a password reset", async () => {
        const { error } = await statelessClient(ctx).auth.resetPasswordForEmail(email, { redirectTo: resetPasswordUrl });
        if (error && !isAddressThrottle(error)) throw toAuthError(error, "requesting a password reset");
        return {};
      }),

    resetPassword: (ctx, token, password) =>
      guarded("password reset", async () => {
        if (!token) throw new AuthError("invalid_token", "The reset link has no token.");
        const client = cookieClient(ctx);
        const { data, error } = await client.auth.verifyOtp({ token_hash: token, type: "recovery" });
        if (error) throw toAuthError(error, "password reset", EMAIL_TOKEN_CODES);
        if (!data.user || !data.session)
          throw new AuthError("provider_error", "Supabase Auth accepted the reset link but opened no session.");
        const updated = await client.auth.updateUser({ password });
        if (updated.error) {
          // The link is spent either way; do not leave its session behind in the cookies.
          await client.auth.signOut({ scope: "local" }).catch(() => undefined);
          throw toAuthError(updated.error, "password reset");
        }
        const out = await client.auth.signOut({ scope: "global" });
        if (out.error && !alreadySignedOut(out.error)) throw toAuthError(out.error, "password reset");
        return { userId: data.user.id, email: data.user.email ?? "" };
      }),

    changePassword: (ctx, user, currentPassword, newPassword) =>
      guarded("password change", async () => {
        const client = cookieClient(ctx);
        const { data, error } = await client.auth.signInWithPassword({ email: user.email, password: currentPassword });
        if (error) throw toAuthError(error, "password change", SIGN_IN_CODES);
        if (data.user.id !== user.id) {
          await client.auth.signOut({ scope: "local" }).catch(() => undefined);
          throw new AuthError("invalid_credentials", "The password does not belong to this account.");
        }
        const updated = await client.auth.updateUser({ password: newPassword });
        if (updated.error) throw toAuthError(updated.error, "password change");
        const others = await client.auth.signOut({ scope: "others" });
        if (others.error) throw toAuthError(others.error, "password change");
        return toSignedIn(data.session);
      }),

    hasPassword: (_ctx, user) =>
      guarded("account lookup", async () => {
        const { data, error } = await adminClient().auth.admin.getUserById(user.id);
        if (error) throw toAuthError(error, "account lookup");
        // GoTrue gives an account that signs in with a password an "email" identity.
        const providers = [
          ...(data.user.identities ?? []).map((i) => i.provider),
          ...((data.user.app_metadata?.providers as string[] | undefined) ?? []),
        ];
        return providers.includes("email");
      }),

    verifyPassword: (ctx, user, password) =>
      guarded("password check", async () => {
        const { data, error } = await statelessClient(ctx).auth.signInWithPassword({ email: user.email, password });
        if (error) throw toAuthError(error, "password check", SIGN_IN_CODES);
        // Only the check was wanted: the session it opened goes at once.
        await revokeQuietly(data.session.access_token);
        if (data.user.id !== user.id) throw new AuthError("invalid_credentials", "The password does not belong to this account.");
      }),

    deleteUser: (_ctx, userId) =>
      guarded("account deletion", async () => {
        const { error } = await adminClient().auth.admin.deleteUser(userId);
        if (error && !(isAuthApiError(error) && error.status === 404)) throw toAuthError(error, "account deletion");
      }),

    oauthStart: (ctx, provider, callbackUrl) =>
      guarded("OAuth sign-in", async () => {
        if (!provider) throw new AuthError("not_configured", "No OAuth provider was named.");
        const { data, error } = await cookieClient(ctx).auth.signInWithOAuth({
          provider: provider as Provider,
          options: { redirectTo: callbackUrl, skipBrowserRedirect: true },
        });
        if (error || !data.url) throw toAuthError(error ?? new Error("no authorization URL"), "OAuth sign-in");
        return { url: data.url };
      }),

    oauthCallback: (ctx, code) =>
      guarded("OAuth callback", async () => {
        if (!code) throw new AuthError("invalid_token", "The OAuth callback has no code.");
        const { data, error } = await cookieClient(ctx).auth.exchangeCodeForSession(code);
        if (error) throw toAuthError(error, "OAuth callback", OAUTH_CODE_CODES);
        return toSignedIn(data.session);
      }),
  };
}
