// A stand-in for Supabase Auth (GoTrue) at the HTTP boundary, for tests of the
// Supabase auth adapter. Nothing here can reach Supabase's cloud, so this server
// speaks the same HTTP as GoTrue (supabase/auth, API version 2024-01-01) for the
// endpoints supabase-js 2.109 calls: the same paths, bodies, status codes, error
// codes and response shapes. Its rules follow GoTrue's source:
//
// - errors are `{ code, message }` plus an `X-Supabase-Api-Version: 2024-01-01` header
//   when the request asks for that version (supabase-js always does), or GoTrue's
//   legacy `{ code: <status>, error_code, msg }` otherwise;
// - access tokens are ES256 JWTs (a project's asymmetric signing key, `kid` in the header,
//   public key at /auth/v1/.well-known/jwks.json), or HS256 with `jwtSecret` for a project
//   still on the legacy secret (`signing: "HS256"`, JWKS then empty); claims sub, email,
//   role, aud, exp, session_id, app_metadata, user_metadata; every authenticated endpoint
//   checks that the session still exists, so signing out makes earlier tokens fail with
//   403 `session_not_found`. The anon and service-role API keys stay HS256, as legacy keys are;
// - rate limits: per client IP (token bucket like GoTrue's: sign-ups and sign-ins 30 per
//   5 minutes by default), the IP being the leftmost valid address of `Sb-Forwarded-For`
//   when the project allows IP address forwarding (`sbForwardedFor`), else the gateway's
//   view (`X-Forwarded-For`, else the socket) -> 429 `over_request_rate_limit`; per address
//   (`maxFrequencySeconds`, GoTrue's SMTP max frequency, 60 s by default) -> 429
//   `over_email_send_rate_limit` "For security purposes, you can only request this after N
//   seconds."; the project's e-mail quota (`emailQuotaPerHour`) -> 429
//   `over_email_send_rate_limit` "Email rate limit exceeded";
// - redirects are allowed to any URL on site_url's host name (port and path ignored, as
//   GoTrue compares host names) or matching an additional_redirect_urls glob (`*` stops at
//   `.` and `/`, `**` does not); anything else falls back to site_url;
// - e-mail token hashes are matched exactly: one issued for a PKCE flow carries the
//   `pkce_` prefix, and the bare hash does not verify it;
// - OAuth users carry the provider's claims only (Google: name, full_name, picture,
//   avatar_url; GitHub: name, user_name, preferred_username, avatar_url), never first_name;
//   linking an unconfirmed address drops its password and replaces its user_metadata;
// - signing up with an address that is already confirmed answers 200 with an
//   obfuscated user whose `identities` is empty (422 `user_already_exists` when
//   auto-confirm is on); an unconfirmed address gets its confirmation mail again;
// - e-mail links carry a token hash (sha224 of e-mail + OTP, like GoTrue); a wrong,
//   used or expired hash is 403 `otp_expired` "Email link is invalid or has expired";
// - OAuth goes /authorize → (fake provider consent) → /callback → redirect_to?code=…,
//   and /token?grant_type=pkce checks the code verifier against the S256 challenge;
// - changing the password ends every other session; `/logout?scope=` global | local | others;
// - the gateway in front (Kong) refuses requests without a known `apikey`.
//
// Mails are not sent: they are recorded in `mails` (with the token hash the template
// would link to). Every request is recorded in `requests`.
import {
  createHash,
  createHmac,
  generateKeyPairSync,
  randomBytes,
  randomInt,
  randomUUID,
  sign,
  timingSafeEqual,
  verify,
  type JsonWebKey,
} from "node:crypto";
import { isIP } from "node:net";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type OtpType = "signup" | "recovery";

export interface FakeIdentity {
  identity_id: string;
  id: string;
  user_id: string;
  provider: string;
  identity_data: Record<string, unknown>;
  email: string;
  created_at: string;
  updated_at: string;
  last_sign_in_at: string;
}

export interface FakeUser {
  id: string;
  email: string;
  /** Plain text: this is a fake. `null` for accounts created through OAuth only. */
  password: string | null;
  emailConfirmedAt: string | null;
  createdAt: string;
  updatedAt: string;
  lastSignInAt: string | null;
  userMetadata: Record<string, unknown>;
  appMetadata: Record<string, unknown>;
  identities: FakeIdentity[];
  confirmationToken: string | null;
  confirmationSentAt: number | null;
  recoveryToken: string | null;
  recoverySentAt: number | null;
}

export interface FakeSession {
  id: string;
  userId: string;
  createdAt: number;
  /** How the session was opened: password, otp, oauth, … (GoTrue's amr method). */
  method: string;
}

export interface FakeMail {
  type: OtpType;
  email: string;
  /** What `{{ .TokenHash }}` renders to in the template. */
  tokenHash: string;
  /** What `{{ .Token }}` renders to (the 6-digit code). */
  otp: string;
  /** The redirect GoTrue accepted (`{{ .RedirectTo }}`): the requested one when allowed, else the site URL. */
  redirectTo: string;
  sentAt: Date;
}

export interface RecordedRequest {
  method: string;
  /** Full path without the query, e.g. `/auth/v1/token`. */
  path: string;
  query: Record<string, string>;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  /** Parsed JSON body, or null. */
  body: unknown;
  /** Status the fake answered with (set once the response is finished). */
  status: number;
}

export interface FakeGoTrueConfig {
  /** How access tokens are signed: the project's asymmetric key (new projects) or the legacy shared secret. */
  signing: "ES256" | "HS256";
  /** The project setting "IP address forwarding": rate limits count the Sb-Forwarded-For address. */
  sbForwardedFor: boolean;
  /** Sign-ups and sign-ins (password, PKCE, verify) per client IP in 5 minutes (GoTrue: sign_in_sign_ups). */
  signInSignUpsPerFiveMinutes: number;
  /** Mails the project may send per hour, all addresses together (GoTrue: RATE_LIMIT_EMAIL_SENT). */
  emailQuotaPerHour: number;
  siteUrl: string;
  additionalRedirectUrls: string[];
  jwtExpirySeconds: number;
  otpExpirySeconds: number;
  /** Minimum interval between two mails to one address (GoTrue's SMTP max frequency); 0 = off. */
  maxFrequencySeconds: number;
  minPasswordLength: number;
  /** GoTrue's MAILER_AUTOCONFIRM: sign-ups are confirmed at once and get a session. */
  autoconfirm: boolean;
  /** Enabled OAuth providers. */
  providers: string[];
  flowStateExpirySeconds: number;
  refreshTokenReuseIntervalSeconds: number;
}

export interface OAuthAccount {
  email: string;
  /** Whether the provider says the address is verified (default true). */
  emailVerified?: boolean;
  /** The display name; GitHub users may have none. */
  name?: string;
  /** GitHub's login (user_name, preferred_username). */
  userName?: string;
  /** The provider's picture URL (Google: picture and avatar_url; GitHub: avatar_url). */
  avatarUrl?: string;
  /** The provider's user id (default derived from the e-mail). */
  subject?: string;
}

export interface FailureSpec {
  /** Route below `/auth/v1` (e.g. `/token`, `/user`), or a RegExp tested against it. */
  path: string | RegExp;
  method?: string;
  status: number;
  /** JSON body; defaults to GoTrue's unexpected_failure answer. */
  body?: unknown;
  /** How many requests fail (default 1; Infinity for all). */
  times?: number;
}

export interface FakeGoTrue {
  /** Use as SUPABASE_URL (the client appends /auth/v1). */
  url: string;
  anonKey: string;
  serviceRoleKey: string;
  jwtSecret: string;
  config: FakeGoTrueConfig;
  /** By user id. */
  users: Map<string, FakeUser>;
  /** By session id. */
  sessions: Map<string, FakeSession>;
  requests: RecordedRequest[];
  mails: FakeMail[];
  /** Requests to one route below /auth/v1 (e.g. "/token"), optionally of one method. */
  requestsTo(route: string, method?: string): RecordedRequest[];
  createUser(input: { email: string; password: string; confirmed?: boolean; userMetadata?: Record<string, unknown> }): FakeUser;
  userByEmail(email: string): FakeUser | undefined;
  confirmUser(email: string): FakeUser;
  /** Issues a fresh e-mail token as GoTrue's mailer would and records the mail; returns the token hash. */
  issueOtp(email: string, type: OtpType): string;
  /** Moves the token's send time past the OTP lifetime. */
  expireOtp(email: string, type: OtpType): void;
  lastMail(email: string, type?: OtpType): FakeMail | undefined;
  /** The account the fake provider signs in as (default: `oauth-<provider>@example.test`, verified). */
  setOAuthAccount(provider: string, account: OAuthAccount): void;
  /** A PKCE auth code as /callback would issue it, without the browser round-trip. */
  mintAuthCode(input: { provider: string; email: string; codeChallenge: string; codeChallengeMethod?: "s256" | "plain" }): string;
  /** Moves an auth code's issue time past the flow-state lifetime. */
  expireAuthCode(code: string): void;
  /** Plays the browser: follows redirects from an /authorize URL until they leave this server; returns that URL. */
  followOAuth(authorizeUrl: string): Promise<URL>;
  activeSessions(userId: string): number;
  /** Signs arbitrary claims as the project does (config.signing), or HS256 with `secret` (forged or legacy tokens in tests). */
  signJwt(claims: Record<string, unknown>, secret?: string): string;
  /** The key id of the project's ES256 signing key (the `kid` of its tokens). */
  signingKeyId: string;
  fail(spec: FailureSpec): void;
  clearFailures(): void;
  /** Forgets every user, session, mail, request, failure and config change. */
  reset(): void;
  close(): Promise<void>;
}

const PREFIX = "/auth/v1";
const API_VERSION = "2024-01-01";
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const defaultConfig = (): FakeGoTrueConfig => ({
  signing: "ES256",
  sbForwardedFor: true,
  signInSignUpsPerFiveMinutes: 30,
  emailQuotaPerHour: 30,
  siteUrl: "http://localhost:3000",
  additionalRedirectUrls: [],
  jwtExpirySeconds: 3600,
  otpExpirySeconds: 3600,
  maxFrequencySeconds: 60,
  minPasswordLength: 6,
  autoconfirm: false,
  providers: ["github", "google"],
  flowStateExpirySeconds: 300,
  refreshTokenReuseIntervalSeconds: 10,
});

interface RefreshTokenRow {
  sessionId: string;
  revokedAt: number | null;
  /** The token that replaced this one. */
  child: string | null;
}

interface FlowState {
  authCode: string;
  provider: string;
  codeChallenge: string;
  codeChallengeMethod: "s256" | "plain";
  userId: string | null;
  createdAt: number;
  authCodeIssuedAt: number | null;
}

/** A GoTrue error answer: thrown by handlers, rendered by the dispatcher. */
class GoTrueError extends Error {
  constructor(
    public readonly status: number,
    public readonly code: string,
    message: string,
    public readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** A gateway (Kong) answer: `{ message }`, no error code. */
class GatewayError extends Error {
  constructor(
    public readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const iso = (ms: number) => new Date(ms).toISOString();
const b64url = (data: string | Buffer) => Buffer.from(data).toString("base64url");
const tokenHashOf = (email: string, otp: string) =>
  createHash("sha224")
    .update(email + otp)
    .digest("hex");

export async function startFakeGoTrue(overrides: Partial<FakeGoTrueConfig> = {}): Promise<FakeGoTrue> {
  const jwtSecret = randomBytes(32).toString("hex");
  const config: FakeGoTrueConfig = { ...defaultConfig(), ...overrides };
  const users = new Map<string, FakeUser>();
  const sessions = new Map<string, FakeSession>();
  const refreshTokens = new Map<string, RefreshTokenRow>();
  const flowStates = new Map<string, FlowState>(); // by auth code
  const providerCodes = new Map<string, { provider: string; account: OAuthAccount }>();
  const oauthAccounts = new Map<string, OAuthAccount>();
  const requests: RecordedRequest[] = [];
  const mails: FakeMail[] = [];
  let failures: Array<FailureSpec & { times: number }> = [];
  let baseUrl = "";

  // ---- JWTs ---------------------------------------------------------------------------

  const signingKey = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const signingKeyId = randomUUID();
  const publicJwk: JsonWebKey = {
    ...signingKey.publicKey.export({ format: "jwk" }),
    kid: signingKeyId,
    alg: "ES256",
    use: "sig",
    key_ops: ["verify"],
  };

  function signHs256(claims: Record<string, unknown>, secret: string): string {
    const head = b64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
    const body = b64url(JSON.stringify(claims));
    const sig = createHmac("sha256", secret).update(`${head}.${body}`).digest("base64url");
    return `${head}.${body}.${sig}`;
  }

  function signJwt(claims: Record<string, unknown>, secret?: string): string {
    if (secret !== undefined || config.signing === "HS256") return signHs256(claims, secret ?? jwtSecret);
    const head = b64url(JSON.stringify({ alg: "ES256", typ: "JWT", kid: signingKeyId }));
    const body = b64url(JSON.stringify(claims));
    const sig = sign("sha256", Buffer.from(`${head}.${body}`), { key: signingKey.privateKey, dsaEncoding: "ieee-p1363" }).toString(
      "base64url",
    );
    return `${head}.${body}.${sig}`;
  }

  function verifyJwt(token: string): Record<string, unknown> {
    const bad = (why: string) => new GoTrueError(403, "bad_jwt", `invalid JWT: unable to parse or verify signature, ${why}`);
    const parts = token.split(".");
    if (parts.length !== 3) throw bad("token is malformed: token contains an invalid number of segments");
    const [head, body, sig] = parts as [string, string, string];
    let header: { alg?: string; kid?: string };
    let claims: Record<string, unknown>;
    try {
      header = JSON.parse(Buffer.from(head, "base64url").toString("utf8")) as { alg?: string; kid?: string };
      claims = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as Record<string, unknown>;
    } catch {
      throw bad("token is malformed: could not JSON decode header or claims");
    }
    const given = Buffer.from(sig, "base64url");
    if (header.alg === "HS256") {
      // Legacy tokens (and the API keys) stay valid after a project moves to asymmetric keys.
      const expected = createHmac("sha256", jwtSecret).update(`${head}.${body}`).digest();
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        throw bad("token signature is invalid: signature is invalid");
      }
    } else if (header.alg === "ES256" && header.kid === signingKeyId) {
      const ok = verify("sha256", Buffer.from(`${head}.${body}`), { key: signingKey.publicKey, dsaEncoding: "ieee-p1363" }, given);
      if (!ok) throw bad("token signature is invalid: crypto/ecdsa: verification error");
    } else {
      throw bad("token is unverifiable: signing method is invalid");
    }
    if (typeof claims.exp === "number" && claims.exp * 1000 <= Date.now()) {
      throw bad("token has invalid claims: token is expired");
    }
    return claims;
  }

  const anonKey = signHs256({ iss: "supabase-demo", role: "anon", exp: 1983812996 }, jwtSecret);
  const serviceRoleKey = signHs256({ iss: "supabase-demo", role: "service_role", exp: 1983812996 }, jwtSecret);

  // ---- users and sessions ---------------------------------------------------------------

  function userByEmail(email: string): FakeUser | undefined {
    const wanted = email.trim().toLowerCase();
    for (const u of users.values()) if (u.email === wanted) return u;
    return undefined;
  }

  function newIdentity(user: FakeUser, provider: string, data: Record<string, unknown>, providerId = user.id): FakeIdentity {
    const now = iso(Date.now());
    return {
      identity_id: randomUUID(),
      id: providerId,
      user_id: user.id,
      provider,
      identity_data: { sub: providerId, email: user.email, email_verified: false, phone_verified: false, ...data },
      email: user.email,
      created_at: now,
      updated_at: now,
      last_sign_in_at: now,
    };
  }

  function newUser(email: string, password: string | null, metadata: Record<string, unknown>, provider: string): FakeUser {
    const now = iso(Date.now());
    const user: FakeUser = {
      id: randomUUID(),
      email: email.trim().toLowerCase(),
      password,
      emailConfirmedAt: null,
      createdAt: now,
      updatedAt: now,
      lastSignInAt: null,
      userMetadata: { ...metadata },
      appMetadata: { provider, providers: [provider] },
      identities: [],
      confirmationToken: null,
      confirmationSentAt: null,
      recoveryToken: null,
      recoverySentAt: null,
    };
    users.set(user.id, user);
    return user;
  }

  function confirm(user: FakeUser) {
    const now = iso(Date.now());
    user.emailConfirmedAt ??= now;
    user.confirmationToken = null;
    user.updatedAt = now;
    for (const identity of user.identities) {
      if (identity.email === user.email) identity.identity_data = { ...identity.identity_data, email_verified: true };
    }
  }

  function userJson(u: FakeUser): Record<string, unknown> {
    const json: Record<string, unknown> = {
      id: u.id,
      aud: "authenticated",
      role: "authenticated",
      email: u.email,
      phone: "",
      app_metadata: u.appMetadata,
      user_metadata: u.userMetadata,
      identities: u.identities,
      created_at: u.createdAt,
      updated_at: u.updatedAt,
      is_anonymous: false,
    };
    if (u.emailConfirmedAt) {
      json.email_confirmed_at = u.emailConfirmedAt;
      json.confirmed_at = u.emailConfirmedAt;
    }
    if (u.confirmationSentAt) json.confirmation_sent_at = iso(u.confirmationSentAt);
    if (u.recoverySentAt) json.recovery_sent_at = iso(u.recoverySentAt);
    if (u.lastSignInAt) json.last_sign_in_at = u.lastSignInAt;
    return json;
  }

  function accessTokenFor(user: FakeUser, session: FakeSession): { token: string; expiresAt: number } {
    const iat = Math.floor(Date.now() / 1000);
    const exp = iat + config.jwtExpirySeconds;
    const token = signJwt({
      iss: `${baseUrl}${PREFIX}`,
      sub: user.id,
      aud: "authenticated",
      exp,
      iat,
      email: user.email,
      phone: "",
      app_metadata: user.appMetadata,
      user_metadata: user.userMetadata,
      role: "authenticated",
      aal: "aal1",
      amr: [{ method: session.method, timestamp: Math.floor(session.createdAt / 1000) }],
      session_id: session.id,
      is_anonymous: false,
    });
    return { token, expiresAt: exp };
  }

  function tokenResponse(user: FakeUser, session: FakeSession, refreshToken: string) {
    const { token, expiresAt } = accessTokenFor(user, session);
    return {
      access_token: token,
      token_type: "bearer",
      expires_in: config.jwtExpirySeconds,
      expires_at: expiresAt,
      refresh_token: refreshToken,
      user: userJson(user),
    };
  }

  function newRefreshToken(sessionId: string): string {
    const token = randomBytes(16).toString("base64url");
    refreshTokens.set(token, { sessionId, revokedAt: null, child: null });
    return token;
  }

  function issueSession(user: FakeUser, method: string) {
    const session: FakeSession = { id: randomUUID(), userId: user.id, createdAt: Date.now(), method };
    sessions.set(session.id, session);
    user.lastSignInAt = iso(Date.now());
    return tokenResponse(user, session, newRefreshToken(session.id));
  }

  function endSessions(keep: (s: FakeSession) => boolean) {
    for (const [id, s] of sessions) if (!keep(s)) sessions.delete(id);
    for (const [token, row] of refreshTokens) if (!sessions.has(row.sessionId)) refreshTokens.delete(token);
  }

  // ---- mail ---------------------------------------------------------------------------

  /** GoTrue's IsRedirectURLValid: site_url's host name (any port, any path), else an allow-list glob. */
  function isRedirectAllowed(target: string): boolean {
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      return false;
    }
    const site = new URL(config.siteUrl);
    if (url.hostname === site.hostname) return true;
    return config.additionalRedirectUrls.some((pattern) => {
      // gobwas/glob with separators '.' and '/': `*` and `?` stop at them, `**` does not.
      const re = new RegExp(
        `^${pattern
          .replace(/[.+^${}()|[\]\\]/g, "\\$&")
          .replace(/\*\*/g, "\u0000")
          .replace(/\*/g, "[^./]*")
          .replace(/\?/g, "[^./]")
          .replace(/\u0000/g, ".*")}$`,
      );
      return re.test(target);
    });
  }
  const referrer = (requested: string | undefined) => (requested && isRedirectAllowed(requested) ? requested : config.siteUrl);

  function sendMail(user: FakeUser, type: OtpType, redirectTo: string, pkce: boolean, enforceFrequency: boolean): string {
    const now = Date.now();
    if (enforceFrequency && mails.filter((m) => now - m.sentAt.getTime() < 3_600_000).length >= config.emailQuotaPerHour) {
      throw new GoTrueError(429, "over_email_send_rate_limit", "Email rate limit exceeded");
    }
    const lastSent = type === "signup" ? user.confirmationSentAt : user.recoverySentAt;
    if (enforceFrequency && config.maxFrequencySeconds > 0 && lastSent !== null && now - lastSent < config.maxFrequencySeconds * 1000) {
      const wait = Math.ceil((lastSent + config.maxFrequencySeconds * 1000 - now) / 1000);
      throw new GoTrueError(429, "over_email_send_rate_limit", `For security purposes, you can only request this after ${wait} seconds.`);
    }
    const otp = String(randomInt(0, 1_000_000)).padStart(6, "0");
    const tokenHash = (pkce ? "pkce_" : "") + tokenHashOf(user.email, otp);
    if (type === "signup") {
      user.confirmationToken = tokenHash;
      user.confirmationSentAt = now;
    } else {
      user.recoveryToken = tokenHash;
      user.recoverySentAt = now;
    }
    mails.push({ type, email: user.email, tokenHash, otp, redirectTo, sentAt: new Date(now) });
    return tokenHash;
  }

  // ---- request plumbing -------------------------------------------------------------------

  interface Call {
    req: IncomingMessage;
    res: ServerResponse;
    route: string;
    query: URLSearchParams;
    body: Record<string, unknown>;
    versioned: boolean;
  }

  function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
    if (status === 204) {
      res.writeHead(204, headers).end();
      return;
    }
    res.writeHead(status, { "Content-Type": "application/json", ...headers }).end(JSON.stringify(body));
  }

  function sendError(call: Pick<Call, "res" | "versioned">, err: GoTrueError) {
    if (call.versioned) {
      send(call.res, err.status, { code: err.code, message: err.message, ...err.extra }, { "X-Supabase-Api-Version": API_VERSION });
    } else {
      send(call.res, err.status, { code: err.status, error_code: err.code, msg: err.message, ...err.extra });
    }
  }

  function redirect(res: ServerResponse, location: string, status = 302) {
    res.writeHead(status, { Location: location }).end();
  }

  async function readBody(req: IncomingMessage): Promise<unknown> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    if (text.trim() === "") return null;
    try {
      return JSON.parse(text) as unknown;
    } catch (e) {
      throw new GoTrueError(400, "bad_json", `Could not parse request body as JSON: ${(e as Error).message}`);
    }
  }

  function bearer(call: Call): string {
    const header = call.req.headers.authorization ?? "";
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match) throw new GoTrueError(401, "no_authorization", "This endpoint requires a valid Bearer token");
    return match[1] as string;
  }

  /** GoTrue's requireAuthentication + maybeLoadUserOrSession. */
  function authenticate(call: Call): { user: FakeUser; session: FakeSession | null } {
    const claims = verifyJwt(bearer(call));
    if (typeof claims.sub !== "string" || claims.sub === "") {
      throw new GoTrueError(403, "bad_jwt", "invalid claim: missing sub claim");
    }
    const user = users.get(claims.sub);
    if (!user) throw new GoTrueError(403, "user_not_found", "User from sub claim in JWT does not exist");
    let session: FakeSession | null = null;
    if (typeof claims.session_id === "string" && claims.session_id !== "") {
      session = sessions.get(claims.session_id) ?? null;
      if (!session) throw new GoTrueError(403, "session_not_found", "Session from session_id claim in JWT does not exist");
    }
    return { user, session };
  }

  function requireAdmin(call: Call) {
    const claims = verifyJwt(bearer(call));
    if (claims.role !== "service_role" && claims.role !== "supabase_admin") {
      throw new GoTrueError(403, "not_admin", "User not allowed");
    }
  }

  const str = (v: unknown) => (typeof v === "string" ? v : "");

  function validEmail(raw: unknown): string {
    const email = str(raw).trim().toLowerCase();
    if (!EMAIL_RE.test(email)) throw new GoTrueError(400, "validation_failed", "Unable to validate email address: invalid format");
    return email;
  }

  function checkPassword(password: string) {
    if (password.length < config.minPasswordLength) {
      throw new GoTrueError(422, "weak_password", `Password should be at least ${config.minPasswordLength} characters.`, {
        weak_password: { reasons: ["length"] },
      });
    }
  }

  function pkceParams(body: Record<string, unknown>): { challenge: string; method: "s256" | "plain" } | null {
    const challenge = str(body.code_challenge);
    const method = str(body.code_challenge_method).toLowerCase();
    if (!challenge && !method) return null;
    if (!challenge || !method)
      throw new GoTrueError(400, "validation_failed", "PKCE flow requires code_challenge_method and code_challenge");
    if (method !== "s256" && method !== "plain") throw new GoTrueError(400, "validation_failed", "Unsupported PKCE code challenge method");
    return { challenge, method };
  }

  // ---- OAuth --------------------------------------------------------------------------

  function accountFor(provider: string): OAuthAccount {
    return oauthAccounts.get(provider) ?? { email: `oauth-${provider}@example.test` };
  }

  /** GoTrue's createAccountFromExternalIdentity (automatic linking by verified e-mail). */
  function userFromProvider(provider: string, account: OAuthAccount): FakeUser {
    const verified = account.emailVerified ?? true;
    if (!verified && !config.autoconfirm) {
      throw new GoTrueError(
        422,
        "provider_email_needs_verification",
        `Unverified email with ${provider}. Verify the email with ${provider} in order to sign in`,
      );
    }
    const subject = account.subject ?? createHash("sha256").update(`${provider}:${account.email}`).digest("hex").slice(0, 20);
    // The provider's claims as GoTrue stores them (internal/api/provider/google.go, github.go): no first_name.
    const data: Record<string, unknown> =
      provider === "github"
        ? {
            iss: "https://api.github.com",
            sub: subject,
            provider_id: subject,
            email: account.email.toLowerCase(),
            email_verified: verified,
            phone_verified: false,
            ...(account.name ? { name: account.name, full_name: account.name } : {}),
            user_name: account.userName ?? account.email.split("@")[0],
            preferred_username: account.userName ?? account.email.split("@")[0],
            ...(account.avatarUrl ? { avatar_url: account.avatarUrl } : {}),
          }
        : {
            iss: provider === "google" ? "https://accounts.google.com" : `https://${provider}.example.test`,
            sub: subject,
            provider_id: subject,
            email: account.email.toLowerCase(),
            email_verified: verified,
            phone_verified: false,
            ...(account.name ? { name: account.name, full_name: account.name } : {}),
            ...(account.avatarUrl ? { picture: account.avatarUrl, avatar_url: account.avatarUrl } : {}),
          };
    let user = userByEmail(account.email);
    if (!user) {
      user = newUser(account.email, null, data, provider);
      user.identities.push(newIdentity(user, provider, data, subject));
    } else {
      if (!user.emailConfirmedAt) {
        // RemoveUnconfirmedIdentities: an unconfirmed password sign-up may be someone else's:
        // GoTrue drops its password and identities and replaces its metadata.
        user.password = null;
        user.identities = user.identities.filter((i) => i.provider !== "email");
        user.userMetadata = { ...data };
      } else {
        user.userMetadata = { ...user.userMetadata, ...data };
      }
      if (!user.identities.some((i) => i.provider === provider)) user.identities.push(newIdentity(user, provider, data, subject));
      const providers = new Set([...((user.appMetadata.providers as string[] | undefined) ?? []), provider]);
      user.appMetadata = { ...user.appMetadata, providers: [...providers] };
    }
    confirm(user);
    return user;
  }

  // ---- per-IP limits -------------------------------------------------------------------

  const ipBuckets = new Map<string, { tokens: number; at: number }>();

  /** GoTrue's view of the client: Sb-Forwarded-For (when forwarding is allowed), else the gateway's X-Forwarded-For, else the socket. */
  function clientIp(req: IncomingMessage): string {
    const leftmost = (value: string | string[] | undefined) => {
      const first = (Array.isArray(value) ? value[0] : value)?.split(",")[0]?.trim() ?? "";
      return isIP(first) ? first : "";
    };
    if (config.sbForwardedFor) {
      const forwarded = leftmost(req.headers["sb-forwarded-for"]);
      if (forwarded) return forwarded;
    }
    return leftmost(req.headers["x-forwarded-for"]) || req.socket.remoteAddress || "unknown";
  }

  /** A token bucket per IP: `signInSignUpsPerFiveMinutes` capacity, refilled evenly over 5 minutes. */
  function limitByIp(req: IncomingMessage) {
    const capacity = config.signInSignUpsPerFiveMinutes;
    const now = Date.now();
    const ip = clientIp(req);
    const bucket = ipBuckets.get(ip) ?? { tokens: capacity, at: now };
    bucket.tokens = Math.min(capacity, bucket.tokens + ((now - bucket.at) / 300_000) * capacity);
    bucket.at = now;
    ipBuckets.set(ip, bucket);
    if (bucket.tokens < 1) throw new GoTrueError(429, "over_request_rate_limit", "Request rate limit reached");
    bucket.tokens -= 1;
  }

  // ---- routes ---------------------------------------------------------------------------

  async function route(call: Call): Promise<void> {
    const { req, res, route: path, query, body } = call;
    const method = req.method ?? "GET";

    if (path === "/.well-known/jwks.json" && method === "GET") {
      return send(res, 200, { keys: config.signing === "ES256" ? [publicJwk] : [] });
    }

    if (path === "/signup" && method === "POST") {
      limitByIp(req);
      const password = str(body.password);
      if (!password) throw new GoTrueError(400, "validation_failed", "Signup requires a valid password");
      checkPassword(password);
      if (!str(body.email)) throw new GoTrueError(400, "validation_failed", "Sign up only available with email or phone provider");
      const pkce = pkceParams(body);
      const email = validEmail(body.email);
      const data = (body.data && typeof body.data === "object" ? body.data : {}) as Record<string, unknown>;
      const redirectTo = referrer(query.get("redirect_to") ?? undefined);
      const existing = userByEmail(email);
      if (existing?.emailConfirmedAt) {
        if (config.autoconfirm) throw new GoTrueError(422, "user_already_exists", "User already registered");
        // sanitizeUser: nothing about the real account leaks.
        const now = iso(Date.now());
        return send(res, 200, {
          id: randomUUID(),
          aud: "authenticated",
          role: "",
          email,
          phone: "",
          confirmation_sent_at: now,
          app_metadata: { provider: "email", providers: ["email"] },
          user_metadata: data,
          identities: [],
          created_at: now,
          updated_at: now,
          is_anonymous: false,
        });
      }
      // An unconfirmed account is not updated ("we can't be sure of their claimed identity").
      const user = existing ?? newUser(email, password, data, "email");
      if (!existing) user.identities.push(newIdentity(user, "email", data));
      if (config.autoconfirm) {
        confirm(user);
        return send(res, 200, issueSession(user, "password"));
      }
      try {
        sendMail(user, "signup", redirectTo, pkce !== null, true);
      } catch (e) {
        if (!existing) users.delete(user.id); // one transaction in GoTrue: no mail, no user
        throw e;
      }
      return send(res, 200, userJson(user));
    }

    if (path === "/token" && method === "POST") {
      const grant = query.get("grant_type");
      if (grant === "password" || grant === "pkce") limitByIp(req);
      if (grant === "password") {
        if (!str(body.email) && !str(body.phone)) throw new GoTrueError(400, "validation_failed", "missing email or phone");
        const user = userByEmail(str(body.email));
        if (!user || user.password === null || user.password !== str(body.password)) {
          throw new GoTrueError(400, "invalid_credentials", "Invalid login credentials");
        }
        if (!user.emailConfirmedAt) throw new GoTrueError(400, "email_not_confirmed", "Email not confirmed");
        return send(res, 200, issueSession(user, "password"));
      }
      if (grant === "refresh_token") {
        const token = str(body.refresh_token);
        const row = refreshTokens.get(token);
        if (!token || !row || !sessions.has(row.sessionId)) {
          throw new GoTrueError(400, "refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found");
        }
        const session = sessions.get(row.sessionId) as FakeSession;
        const user = users.get(session.userId);
        if (!user) throw new GoTrueError(400, "refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found");
        if (row.revokedAt !== null) {
          if (row.child && Date.now() - row.revokedAt <= config.refreshTokenReuseIntervalSeconds * 1000) {
            return send(res, 200, tokenResponse(user, session, row.child));
          }
          endSessions((s) => s.id !== session.id); // reuse outside the interval: treated as theft
          throw new GoTrueError(400, "refresh_token_already_used", "Invalid Refresh Token: Already Used");
        }
        row.revokedAt = Date.now();
        row.child = newRefreshToken(session.id);
        return send(res, 200, tokenResponse(user, session, row.child));
      }
      if (grant === "pkce") {
        const code = str(body.auth_code);
        const verifier = str(body.code_verifier);
        if (!code || !verifier) {
          throw new GoTrueError(400, "validation_failed", "invalid request: both auth code and code verifier should be non-empty");
        }
        const flow = flowStates.get(code);
        if (!flow || flow.userId === null)
          throw new GoTrueError(404, "flow_state_not_found", "invalid flow state, no valid flow state found");
        const issued = flow.authCodeIssuedAt ?? flow.createdAt;
        if (Date.now() - issued > config.flowStateExpirySeconds * 1000) {
          throw new GoTrueError(422, "flow_state_expired", "invalid flow state, flow state has expired");
        }
        const user = users.get(flow.userId);
        if (!user) throw new GoTrueError(404, "user_not_found", "User not found");
        const computed = flow.codeChallengeMethod === "s256" ? createHash("sha256").update(verifier).digest("base64url") : verifier;
        if (computed !== flow.codeChallenge) {
          throw new GoTrueError(400, "bad_code_verifier", "code challenge does not match previously saved code verifier");
        }
        flowStates.delete(code);
        return send(res, 200, issueSession(user, flow.provider === "email" ? "otp" : "oauth"));
      }
      return send(res, 400, { error: "unsupported_grant_type", error_description: "" });
    }

    if (path === "/verify" && method === "POST") {
      limitByIp(req);
      const type = str(body.type);
      if (!type) throw new GoTrueError(400, "validation_failed", "Verify requires a verification type");
      const token = str(body.token);
      let tokenHash = str(body.token_hash);
      if ((token === "") === (tokenHash === ""))
        throw new GoTrueError(400, "validation_failed", "Verify requires either a token or a token hash");
      if (token) tokenHash = tokenHashOf(validEmail(body.email), token);
      else if (body.email || body.phone || body.redirect_to)
        throw new GoTrueError(400, "validation_failed", "Only the token_hash and type should be provided");
      // Exact: a hash issued for a PKCE flow is stored (and mailed) with its pkce_ prefix.
      const matches = (stored: string | null) => stored !== null && stored === tokenHash;
      let kind: "confirmation" | "recovery";
      let user: FakeUser | undefined;
      const all = [...users.values()];
      if (type === "signup" || type === "invite") {
        kind = "confirmation";
        user = all.find((u) => matches(u.confirmationToken));
      } else if (type === "recovery" || type === "magiclink") {
        kind = "recovery";
        user = all.find((u) => matches(u.recoveryToken));
      } else if (type === "email") {
        user = all.find((u) => matches(u.confirmationToken));
        kind = "confirmation";
        if (!user) {
          user = all.find((u) => matches(u.recoveryToken));
          kind = "recovery";
        }
      } else {
        throw new GoTrueError(400, "validation_failed", "Invalid email verification type");
      }
      if (!user) throw new GoTrueError(403, "otp_expired", "Email link is invalid or has expired");
      const sentAt = kind === "confirmation" ? user.confirmationSentAt : user.recoverySentAt;
      if (sentAt === null || Date.now() - sentAt > config.otpExpirySeconds * 1000) {
        throw new GoTrueError(403, "otp_expired", "Email link is invalid or has expired");
      }
      if (kind === "confirmation") {
        confirm(user);
      } else {
        user.recoveryToken = null;
        if (!user.emailConfirmedAt) confirm(user);
      }
      return send(res, 200, issueSession(user, "otp"));
    }

    if (path === "/recover" && method === "POST") {
      const email = validEmail(body.email);
      const pkce = pkceParams(body);
      const user = userByEmail(email);
      if (!user) return send(res, 200, {}); // does not leak whether the address has an account
      sendMail(user, "recovery", referrer(query.get("redirect_to") ?? undefined), pkce !== null, true);
      return send(res, 200, {});
    }

    if (path === "/resend" && method === "POST") {
      const type = str(body.type);
      if (!["signup", "email_change", "sms", "phone_change"].includes(type)) {
        throw new GoTrueError(400, "validation_failed", "Missing one of these types: signup, email_change, sms, phone_change");
      }
      if (type !== "signup") throw new GoTrueError(400, "validation_failed", `The fake only resends signup mails, not ${type}`);
      const email = validEmail(body.email);
      const user = userByEmail(email);
      if (!user || user.emailConfirmedAt) return send(res, 200, {});
      sendMail(user, "signup", referrer(query.get("redirect_to") ?? undefined), false, true);
      return send(res, 200, {});
    }

    if (path === "/user" && method === "GET") {
      const { user } = authenticate(call);
      return send(res, 200, userJson(user));
    }

    if (path === "/user" && method === "PUT") {
      const { user, session } = authenticate(call);
      if (body.password !== undefined && body.password !== null) {
        const password = str(body.password);
        checkPassword(password);
        if (password === user.password) {
          throw new GoTrueError(422, "same_password", "New password should be different from the old password.");
        }
        user.password = password;
        // models.User.UpdatePassword: every other session ends.
        endSessions((s) => s.userId !== user.id || (session !== null && s.id === session.id));
      }
      if (body.data && typeof body.data === "object")
        user.userMetadata = { ...user.userMetadata, ...(body.data as Record<string, unknown>) };
      if (body.email !== undefined) throw new GoTrueError(400, "validation_failed", "The fake does not change e-mail addresses");
      user.updatedAt = iso(Date.now());
      return send(res, 200, userJson(user));
    }

    if (path === "/logout" && method === "POST") {
      const scope = query.get("scope") ?? "global";
      if (!["global", "local", "others"].includes(scope)) {
        throw new GoTrueError(400, "validation_failed", `Unsupported logout scope "${scope}"`);
      }
      const { user, session } = authenticate(call);
      if (session === null || scope === "global") endSessions((s) => s.userId !== user.id);
      else if (scope === "local") endSessions((s) => s.id !== session.id);
      else endSessions((s) => s.userId !== user.id || s.id === session.id);
      return send(res, 204, null);
    }

    if (path === "/authorize" && method === "GET") {
      const provider = query.get("provider") ?? "";
      if (!config.providers.includes(provider)) {
        throw new GoTrueError(400, "validation_failed", `Unsupported provider: provider ${provider || "(none)"} is not enabled`);
      }
      const pkce = pkceParams({ code_challenge: query.get("code_challenge"), code_challenge_method: query.get("code_challenge_method") });
      let flowStateId = "";
      if (pkce) {
        const flow: FlowState = {
          authCode: randomUUID(),
          provider,
          codeChallenge: pkce.challenge,
          codeChallengeMethod: pkce.method,
          userId: null,
          createdAt: Date.now(),
          authCodeIssuedAt: null,
        };
        flowStates.set(flow.authCode, flow);
        flowStateId = flow.authCode;
      }
      const state = signJwt({
        provider,
        referrer: referrer(query.get("redirect_to") ?? undefined),
        flow_state_id: flowStateId,
        site_url: config.siteUrl,
        exp: Math.floor(Date.now() / 1000) + 300,
      });
      // Unknown parameters (scopes aside) go on to the provider, as in GoTrue.
      const forward = new URLSearchParams(query);
      for (const k of ["provider", "code_challenge", "code_challenge_method", "redirect_to"]) forward.delete(k);
      forward.set("client_id", `fake-${provider}-client`);
      forward.set("redirect_uri", `${baseUrl}${PREFIX}/callback`);
      forward.set("response_type", "code");
      forward.set("state", state);
      return redirect(res, `${baseUrl}/fake-provider/${encodeURIComponent(provider)}/authorize?${forward.toString()}`);
    }

    if (path === "/callback" && method === "GET") {
      let claims: Record<string, unknown>;
      try {
        claims = verifyJwt(query.get("state") ?? "");
      } catch {
        throw new GoTrueError(400, "bad_oauth_state", "OAuth state is invalid");
      }
      const target = new URL(str(claims.referrer) || config.siteUrl);
      const flow = str(claims.flow_state_id) ? flowStates.get(str(claims.flow_state_id)) : undefined;
      const providerCode = providerCodes.get(query.get("code") ?? "");
      const fail = (status: number, code: string, description: string) => {
        const q = new URLSearchParams({
          error: status === 422 ? "invalid_request" : "server_error",
          error_code: code,
          error_description: description,
        });
        if (flow) for (const [k, v] of q) target.searchParams.set(k, v);
        target.hash = q.toString();
        return redirect(res, target.toString());
      };
      if (!providerCode) return fail(500, "bad_oauth_callback", "Unable to exchange external code");
      providerCodes.delete(query.get("code") ?? "");
      if (str(claims.flow_state_id) && !flow) return fail(422, "flow_state_not_found", "Flow state not found");
      let user: FakeUser;
      try {
        user = userFromProvider(providerCode.provider, providerCode.account);
      } catch (e) {
        if (e instanceof GoTrueError) return fail(e.status, e.code, e.message);
        throw e;
      }
      if (flow) {
        flow.userId = user.id;
        flow.authCodeIssuedAt = Date.now();
        target.searchParams.set("code", flow.authCode);
        return redirect(res, target.toString());
      }
      const session = issueSession(user, "oauth");
      const fragment = new URLSearchParams({
        access_token: session.access_token,
        expires_at: String(session.expires_at),
        expires_in: String(session.expires_in),
        provider_token: "fake-provider-token",
        refresh_token: session.refresh_token,
        token_type: "bearer",
      });
      target.hash = fragment.toString();
      return redirect(res, target.toString());
    }

    const adminUser = /^\/admin\/users\/([^/]+)$/.exec(path);
    if (path === "/admin/users" && method === "POST") {
      requireAdmin(call);
      const email = validEmail(body.email);
      if (userByEmail(email)) throw new GoTrueError(422, "email_exists", "A user with this email address has already been registered");
      const password = body.password === undefined ? null : str(body.password);
      if (password !== null) checkPassword(password);
      const metadata = (body.user_metadata && typeof body.user_metadata === "object" ? body.user_metadata : {}) as Record<string, unknown>;
      const user = newUser(email, password, metadata, "email");
      user.identities.push(newIdentity(user, "email", metadata));
      if (body.email_confirm === true) confirm(user);
      return send(res, 200, userJson(user));
    }
    if (adminUser && (method === "GET" || method === "DELETE")) {
      requireAdmin(call);
      const user = users.get(decodeURIComponent(adminUser[1] as string));
      if (!user) throw new GoTrueError(404, "user_not_found", "User not found");
      if (method === "GET") return send(res, 200, userJson(user));
      users.delete(user.id);
      endSessions((s) => s.userId !== user.id);
      for (const [code, flow] of flowStates) if (flow.userId === user.id) flowStates.delete(code);
      return send(res, 200, {});
    }

    return send(res, 404, { message: "no Route matched with those values" });
  }

  // ---- the fake provider's consent screen (not GoTrue: what the browser visits in between) ----

  function providerAuthorize(res: ServerResponse, provider: string, query: URLSearchParams) {
    const redirectUri = query.get("redirect_uri");
    if (!redirectUri) return send(res, 400, { error: "invalid_request", error_description: "redirect_uri is required" });
    const code = randomBytes(12).toString("hex");
    providerCodes.set(code, { provider, account: accountFor(provider) });
    const back = new URL(redirectUri);
    back.searchParams.set("code", code);
    back.searchParams.set("state", query.get("state") ?? "");
    return redirect(res, back.toString());
  }

  // ---- server ---------------------------------------------------------------------------

  const OPEN_ROUTES = new Set(["GET /authorize", "GET /callback", "GET /verify", "GET /.well-known/jwks.json"]);

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", baseUrl);
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(", ") : v;
      const record: RecordedRequest = {
        method: req.method ?? "GET",
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers,
        body: null,
        status: 0,
      };
      requests.push(record);
      res.on("finish", () => {
        record.status = res.statusCode;
      });
      const requestedVersion = headers["x-supabase-api-version"] ?? "";
      const versioned = /^\d{4}-\d{2}-\d{2}$/.test(requestedVersion) && requestedVersion >= API_VERSION;
      try {
        record.body = await readBody(req);
        const provider = /^\/fake-provider\/([^/]+)\/authorize$/.exec(url.pathname);
        if (provider && req.method === "GET") return providerAuthorize(res, decodeURIComponent(provider[1] as string), url.searchParams);
        if (!url.pathname.startsWith(`${PREFIX}/`)) return send(res, 404, { message: "no Route matched with those values" });
        const path = url.pathname.slice(PREFIX.length);
        const method = req.method ?? "GET";

        const failure = failures.find(
          (f) => (f.method === undefined || f.method === method) && (typeof f.path === "string" ? f.path === path : f.path.test(path)),
        );
        if (failure) {
          failure.times -= 1;
          failures = failures.filter((f) => f.times > 0);
          return send(
            res,
            failure.status,
            failure.body ?? { code: "unexpected_failure", message: "Unexpected failure, please check server logs for more information" },
            versioned ? { "X-Supabase-Api-Version": API_VERSION } : {},
          );
        }

        if (!OPEN_ROUTES.has(`${method} ${path}`)) {
          const apikey = headers.apikey;
          if (!apikey) throw new GatewayError(401, "No API key found in request");
          if (apikey !== anonKey && apikey !== serviceRoleKey) throw new GatewayError(401, "Invalid API key");
        }
        const body =
          record.body && typeof record.body === "object" && !Array.isArray(record.body) ? (record.body as Record<string, unknown>) : {};
        await route({ req, res, route: path, query: url.searchParams, body, versioned });
      } catch (e) {
        if (res.headersSent) return;
        if (e instanceof GoTrueError) return sendError({ res, versioned }, e);
        if (e instanceof GatewayError) {
          return send(res, e.status, { message: e.message, hint: "Double check your Supabase `anon` or `service_role` API key." });
        }
        sendError({ res, versioned }, new GoTrueError(500, "unexpected_failure", `Unexpected failure: ${(e as Error).message}`));
      }
    })();
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  function findUser(email: string): FakeUser {
    const user = userByEmail(email);
    if (!user) throw new Error(`fake GoTrue: no user ${email}`);
    return user;
  }

  const fake: FakeGoTrue = {
    url: baseUrl,
    anonKey,
    serviceRoleKey,
    jwtSecret,
    config,
    users,
    sessions,
    requests,
    mails,
    requestsTo: (route, method) => requests.filter((r) => r.path === `${PREFIX}${route}` && (method === undefined || r.method === method)),
    createUser({ email, password, confirmed = true, userMetadata = {} }) {
      if (userByEmail(email)) throw new Error(`fake GoTrue: ${email} already exists`);
      const user = newUser(email, password, userMetadata, "email");
      user.identities.push(newIdentity(user, "email", userMetadata));
      if (confirmed) confirm(user);
      return user;
    },
    userByEmail,
    confirmUser(email) {
      const user = findUser(email);
      confirm(user);
      return user;
    },
    issueOtp(email, type) {
      return sendMail(findUser(email), type, config.siteUrl, false, false);
    },
    expireOtp(email, type) {
      const user = findUser(email);
      const past = Date.now() - (config.otpExpirySeconds + 60) * 1000;
      if (type === "signup") user.confirmationSentAt = past;
      else user.recoverySentAt = past;
    },
    lastMail(email, type) {
      const wanted = email.toLowerCase();
      return mails.filter((m) => m.email === wanted && (type === undefined || m.type === type)).at(-1);
    },
    setOAuthAccount(provider, account) {
      oauthAccounts.set(provider, account);
    },
    mintAuthCode({ provider, email, codeChallenge, codeChallengeMethod = "s256" }) {
      const user = userFromProvider(provider, { ...accountFor(provider), email });
      const flow: FlowState = {
        authCode: randomUUID(),
        provider,
        codeChallenge,
        codeChallengeMethod,
        userId: user.id,
        createdAt: Date.now(),
        authCodeIssuedAt: Date.now(),
      };
      flowStates.set(flow.authCode, flow);
      return flow.authCode;
    },
    expireAuthCode(code) {
      const flow = flowStates.get(code);
      if (!flow) throw new Error(`fake GoTrue: no auth code ${code}`);
      flow.authCodeIssuedAt = Date.now() - (config.flowStateExpirySeconds + 60) * 1000;
    },
    async followOAuth(authorizeUrl) {
      let current = new URL(authorizeUrl);
      for (let hop = 0; hop < 10; hop += 1) {
        const res = await fetch(current, { redirect: "manual" });
        const location = res.headers.get("location");
        if (res.status < 300 || res.status >= 400 || !location) {
          throw new Error(`fake GoTrue: OAuth flow stopped at ${current.pathname} with ${res.status}: ${await res.text()}`);
        }
        await res.body?.cancel();
        const next = new URL(location, current);
        if (next.origin !== baseUrl) return next;
        current = next;
      }
      throw new Error("fake GoTrue: too many redirects");
    },
    signingKeyId,
    activeSessions: (userId) => [...sessions.values()].filter((s) => s.userId === userId).length,
    signJwt,
    fail(spec) {
      failures.push({ ...spec, times: spec.times ?? 1 });
    },
    clearFailures() {
      failures = [];
    },
    reset() {
      ipBuckets.clear();
      users.clear();
      sessions.clear();
      refreshTokens.clear();
      flowStates.clear();
      providerCodes.clear();
      oauthAccounts.clear();
      requests.length = 0;
      mails.length = 0;
      failures = [];
      Object.assign(config, defaultConfig(), overrides);
    },
    close() {
      return new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      });
    },
  };
  return fake;
}
