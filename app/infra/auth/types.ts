// One auth interface, two implementations chosen by env (docs/architecture.md, Adapters):
// - local (default): auth.users in the app database, bcrypt, JWTs signed with the
//   session secret, sessions in auth.sessions so sign-out revokes every token;
// - supabase: Supabase Auth (GoTrue) through @supabase/ssr, its own cookies.
// Services call these methods; routes never do.

export interface AuthUser {
  id: string;
  email: string;
  emailVerified: boolean;
  createdAt: Date;
  /**
   * The user's profile, when the adapter read it in the same statement as the session
   * (local auth: private.session_user_profile). Absent otherwise: the caller then reads it
   * through the RLS door. `null`: the account has no profile row.
   */
  profile?: SessionProfile | null;
}

/** What a signed-in page shows of the user's profile (a subset of public.profiles). */
export interface SessionProfile {
  firstName: string | null;
  lastName: string | null;
  profileImageUrl: string | null;
  subscriptionStatus: string;
  createdAt: Date;
}

/** The profile columns a one-statement session check reads (left-joined: all null without a profile row). */
export interface SessionProfileRow {
  first_name: string | null;
  last_name: string | null;
  profile_image_url: string | null;
  subscription_status: string | null;
  profile_created_at: string | Date | null;
}

/** The SessionProfile of a session check's row; null when the account has no profile row. */
export function sessionProfileFromRow(row: SessionProfileRow, accountCreatedAt: Date): SessionProfile | null {
  if (row.subscription_status === null) return null;
  return {
    firstName: row.first_name,
    lastName: row.last_name,
    profileImageUrl: row.profile_image_url,
    subscriptionStatus: row.subscription_status,
    createdAt: row.profile_created_at === null ? accountCreatedAt : new Date(row.profile_created_at),
  };
}

export type AuthErrorCode =
  | "invalid_credentials" // wrong e-mail or password
  | "email_not_verified" // right password, e-mail not confirmed yet
  | "invalid_token" // verification / reset / OAuth code unknown, used or malformed
  | "expired_token" // known but past its lifetime
  | "already_verified" // a verification link used before, of an account that is verified
  | "not_configured" // e.g. a sign-in provider this server does not offer
  | "identity_refused" // a provider's answer the app will not use (unverified e-mail, bad profile); the message says why
  | "rate_limited" // the auth service's own limits (per client address, or the project's mail quota)
  | "not_allowed" // the auth service refuses this address or account (sign-ups closed, address not authorised, account banned)
  | "invalid_email" // the auth service does not accept the address
  | "weak_password" // the auth service's password rules (e.g. a leaked password)
  | "provider_error"; // the auth service failed or answered something unexpected

export class AuthError extends Error {
  override name = "AuthError";
  constructor(
    public readonly code: AuthErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Per-request context. Adapters that keep their session in cookies (Supabase) read the
 * request's cookies and append Set-Cookie (and cache) headers to `responseHeaders`; the
 * route merges them into its response, redirects included.
 */
export interface AuthContext {
  request: Request;
  responseHeaders: Headers;
  /** The visitor's address as the app sees it (TRUST_PROXY-aware); Supabase mode forwards it to GoTrue. */
  client?: string;
}

export interface SignUpInput {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
}

export interface SignedIn {
  userId: string;
  email: string;
  /** A JWT (Supabase-shaped claims) usable as `Authorization: Bearer`. */
  accessToken: string;
  /** When the access token stops working. */
  expiresAt: Date;
}

export interface AuthAdapter {
  readonly kind: "local" | "supabase";

  /**
   * Creates an unverified account. `exists` when the address already has one (nothing
   * is created; the caller mails the owner). `verificationToken` is set when the app
   * must send the verification mail itself (local); Supabase sends its own.
   */
  signUp(ctx: AuthContext, input: SignUpInput): Promise<{ status: "created" | "exists"; userId?: string; verificationToken?: string }>;

  /** Confirms the address behind a verification token; single use. */
  verifyEmail(ctx: AuthContext, token: string): Promise<{ userId: string; email: string }>;

  /** A fresh verification token for an unverified account (undefined when there is none to verify or the provider mails itself). */
  resendVerification(ctx: AuthContext, email: string): Promise<{ verificationToken?: string }>;

  /** Checks e-mail and password; refuses unverified accounts with `email_not_verified`. */
  signIn(ctx: AuthContext, input: { email: string; password: string }): Promise<SignedIn>;

  /** The user behind an access token (or, without one, behind the adapter's own cookies); null when none is valid. */
  getUser(ctx: AuthContext, accessToken?: string): Promise<AuthUser | null>;

  /** Ends every session of the user: all earlier tokens and cookies stop working. */
  signOut(ctx: AuthContext, userId: string, accessToken?: string): Promise<void>;

  /** A reset token when the address has an account (undefined otherwise, or when the provider mails itself). */
  requestPasswordReset(ctx: AuthContext, email: string): Promise<{ resetToken?: string; email?: string }>;

  /** Sets a new password from a reset token (single use) and ends every session. */
  resetPassword(ctx: AuthContext, token: string, password: string): Promise<{ userId: string; email: string }>;

  /** Checks the current password, sets the new one, ends every other session and returns a fresh one. */
  changePassword(ctx: AuthContext, user: AuthUser, currentPassword: string, newPassword: string): Promise<SignedIn>;

  /** Whether the account has a password (false: it signs in only through a provider). */
  hasPassword(ctx: AuthContext, user: AuthUser): Promise<boolean>;

  /** Checks the password of a signed-in user without opening a session; `invalid_credentials` when it is wrong or the account has none. */
  verifyPassword(ctx: AuthContext, user: AuthUser, password: string): Promise<void>;

  /** Removes the account; the database cascades to everything the user owns. */
  deleteUser(ctx: AuthContext, userId: string): Promise<void>;

  /** OAuth (PKCE): where to send the browser to sign in with a provider. */
  oauthStart(ctx: AuthContext, provider: string, callbackUrl: string): Promise<{ url: string }>;

  /** OAuth callback: exchanges the code (with the PKCE verifier cookie) for a session. */
  oauthCallback(ctx: AuthContext, code: string): Promise<SignedIn>;
}

/** Token lifetimes (docs/product.md, Limits and constants: verification 24 h, reset 1 h). */
export const VERIFICATION_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;
export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;
export const ACCESS_TOKEN_TTL_S = 7 * 24 * 60 * 60;
