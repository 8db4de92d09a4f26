// Accounts: sign-up, e-mail verification, sign-in, password reset and change, profile,
// notification preferences, sign-out and account deletion (with the password, or for an
// account without one, a link mailed to its address). Screens and the JSON API
// call these same functions; the rules live here once.
import { eq } from "drizzle-orm";

import {
  ACCOUNT_MESSAGES,
  ACCOUNT_TOASTS,
  changePasswordRules,
  emailOnlyRules,
  loginRules,
  profileRules,
  registerRules,
  resetPasswordRules,
  type NotificationKey,
} from "~/domain/account";
import { ServiceError } from "./service-error.server";
import { validateValues, type FieldErrors, type Rules } from "~/domain/form-rules";
import { auth, oauthProviders } from "~/infra/auth/auth.server";
import { AuthError, type AuthContext, type AuthUser, type SessionProfile, type SignedIn } from "~/infra/auth/types";
import { notificationPreferences, profiles } from "~/infra/db/schema.server";
import { withUser } from "~/infra/db/db.server";
import { hasCookiesBesidesDevice, knownDevice, rememberDevice } from "~/infra/web/device-cookie.server";
import { getEnv } from "~/infra/setup/env.server";
import { imageStorage, userFolder } from "~/infra/storage/image-storage.server";
import { mailer, type MailMessage } from "~/infra/mail/mail.server";
import {
  beginPasswordAttempt,
  clearFailedSignIns,
  consumeMailAllowance,
  RateLimitedError,
  type PasswordAttempt,
} from "~/infra/web/rate-limit.server";
import { requestToken } from "~/infra/web/session-cookie.server";
import { signToken, verifiedPayload } from "~/infra/web/signed-token.server";

import {
  accountDeletedMail,
  accountDeletionMail,
  accountExistsMail,
  passwordChangedMail,
  passwordResetMail,
  resetLink,
  verificationLink,
  verificationMail,
} from "./account-mail.server";

/** What a request brings to the account services. */
export interface RequestContext extends AuthContext {
  /** The client's address, for abuse limits. */
  client: string;
}

export function requestContext(request: Request, context?: { clientAddress?: string }): RequestContext {
  return { request, responseHeaders: new Headers(), client: context?.clientAddress ?? "unknown" };
}

/** A sign-in, registration, account or e-mail change that cannot be made (service-error.server.ts). */
export class AccountError extends ServiceError {
  override name = "AccountError";
}

export interface CurrentUser {
  id: string;
  email: string;
  emailVerified: boolean;
  firstName: string | null;
  lastName: string | null;
  profileImageUrl: string | null;
  subscriptionStatus: string;
  createdAt: string;
}

const REGISTERED_MESSAGE = ACCOUNT_TOASTS.registered.description;
export const RESET_REQUESTED_MESSAGE =
  "If an account exists for that address, we have sent a link to reset the password. It is valid for 1 hour.";
export const VERIFICATION_RESENT_MESSAGE = "If that address has an account waiting for confirmation, we have sent a new verification link.";

function validated<K extends string>(rules: Rules<K>, raw: unknown, message: string): Record<K, string> {
  const values = raw && typeof raw === "object" ? (raw as Partial<Record<K, unknown>>) : {};
  const result = validateValues(rules, values);
  if (!result.ok) throw new AccountError(400, message, result.errors);
  return result.values;
}

/** Runs an abuse-limit check; a refusal becomes a 429 the visitor can read, with Retry-After. */
async function withinLimit<T>(check: Promise<T>): Promise<T> {
  try {
    return await check;
  } catch (error) {
    if (error instanceof RateLimitedError) throw new AccountError(429, error.message, undefined, "rate_limited", error.retryAfterSeconds);
    throw error;
  }
}

/**
 * Runs an auth adapter call; the auth service's own refusals (Supabase mode: its per-IP
 * limit or mail quota, closed sign-ups, an address it will not mail, its password rules, an
 * outage) become answers the visitor can act on instead of a server error. Other AuthErrors
 * (wrong password, bad token, …) go on to the caller, which knows what they mean there.
 */
async function viaAuth<T>(run: () => Promise<T>, passwordField = "password"): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof AuthError)) throw error;
    switch (error.code) {
      case "rate_limited":
        throw new AccountError(429, error.message, undefined, "rate_limited");
      case "not_allowed":
        throw new AccountError(403, error.message, undefined, "not_allowed");
      case "invalid_email":
        throw new AccountError(400, ACCOUNT_MESSAGES.invalidEmail, { email: [ACCOUNT_MESSAGES.invalidEmail] }, "invalid_email");
      case "weak_password":
        throw new AccountError(400, error.message, { [passwordField]: [error.message] }, "weak_password");
      case "provider_error":
        console.error(`[auth] ${error.message}`);
        throw new AccountError(503, AUTH_UNAVAILABLE, undefined, "provider_error");
      default:
        throw error;
    }
  }
}

const AUTH_UNAVAILABLE = "The sign-in service is not answering right now. Please try again in a moment.";

const limitMail = (ctx: RequestContext, email: string) => withinLimit(consumeMailAllowance(email, ctx.client));

/**
 * Counts one password check for the address before the password is evaluated: against the
 * device when the request carries a device cookie for the address, else against the
 * client and the account (rate-limit.server.ts).
 */
async function passwordAttempt(ctx: RequestContext, email: string): Promise<PasswordAttempt> {
  const device = await knownDevice(ctx.request, email);
  return withinLimit(beginPasswordAttempt(email, ctx.client, device));
}

async function send(message: MailMessage) {
  try {
    await mailer().send(message);
  } catch (error) {
    // The account change stands; the visitor can ask for the mail again.
    console.error(`[mail] could not send "${message.subject}": ${error instanceof Error ? error.message : error}`);
  }
}

const appUrl = () => getEnv().APP_URL;

export async function register(ctx: RequestContext, raw: unknown): Promise<{ message: string }> {
  const input = validated(registerRules, raw, ACCOUNT_TOASTS.registrationFailed.description);
  await limitMail(ctx, input.email);
  const result = await viaAuth(() => auth().signUp(ctx, input));
  if (result.status === "created" && result.verificationToken) {
    await send(
      verificationMail({ to: input.email, firstName: input.firstName, link: verificationLink(appUrl(), result.verificationToken) }),
    );
  } else if (result.status === "exists") {
    // Nothing is created and the visitor learns nothing; the owner hears about it
    // (Supabase stays silent in this case, so the app mails in both modes).
    await send(accountExistsMail({ to: input.email, loginLink: `${appUrl()}/login`, resetLink: `${appUrl()}/reset-password` }));
  }
  return { message: REGISTERED_MESSAGE };
}

export async function verifyEmail(ctx: RequestContext, token: string | null | undefined): Promise<{ message: string }> {
  if (!token || token.length > 200) throw new AccountError(400, ACCOUNT_TOASTS.verifyInvalid, undefined, "invalid_token");
  try {
    await viaAuth(() => auth().verifyEmail(ctx, token));
    return { message: ACCOUNT_TOASTS.verifySuccess };
  } catch (error) {
    if (error instanceof AuthError && error.code === "invalid_token") {
      throw new AccountError(400, ACCOUNT_TOASTS.verifyInvalid, undefined, "invalid_token");
    }
    if (error instanceof AuthError && error.code === "already_verified") {
      throw new AccountError(409, ACCOUNT_TOASTS.verifyAlready, undefined, "already_verified");
    }
    if (error instanceof AuthError) throw new AccountError(400, ACCOUNT_TOASTS.verifyFailed, undefined, error.code);
    throw error;
  }
}

export async function resendVerification(ctx: RequestContext, raw: unknown): Promise<{ message: string }> {
  const { email } = validated(emailOnlyRules, raw, ACCOUNT_MESSAGES.invalidEmail);
  await limitMail(ctx, email);
  const { verificationToken } = await viaAuth(() => auth().resendVerification(ctx, email));
  if (verificationToken) {
    await send(verificationMail({ to: email, link: verificationLink(appUrl(), verificationToken) }));
  }
  return { message: VERIFICATION_RESENT_MESSAGE };
}

export async function signIn(ctx: RequestContext, raw: unknown): Promise<SignedIn> {
  const input = validated(loginRules, raw, ACCOUNT_TOASTS.signInFailed.description);
  // The attempt is counted before the password is evaluated, so parallel guesses cannot outrun the count.
  const attempt = await passwordAttempt(ctx, input.email);
  try {
    const session = await viaAuth(() => auth().signIn(ctx, input));
    await attempt.succeeded();
    // This browser is now a known device of the account (its own limit from now on).
    ctx.responseHeaders.append("Set-Cookie", await rememberDevice(ctx.request, input.email));
    return session;
  } catch (error) {
    if (error instanceof AuthError && error.code === "invalid_credentials") {
      await attempt.failed();
      throw new AccountError(401, "Invalid email or password.", undefined, "invalid_credentials");
    }
    if (error instanceof AuthError && error.code === "email_not_verified") {
      // The password was right (it is checked first); only the address waits for confirmation.
      await attempt.succeeded();
      throw new AccountError(
        403,
        "Please verify your e-mail address before signing in. We can send you a new verification link.",
        undefined,
        "email_not_verified",
      );
    }
    throw error;
  }
}

function toCurrentUser(user: AuthUser, profile: SessionProfile | null | undefined): CurrentUser {
  return {
    id: user.id,
    email: user.email,
    emailVerified: user.emailVerified,
    firstName: profile?.firstName ?? null,
    lastName: profile?.lastName ?? null,
    profileImageUrl: profile?.profileImageUrl ?? null,
    subscriptionStatus: profile?.subscriptionStatus ?? "free",
    createdAt: (profile?.createdAt ?? user.createdAt).toISOString(),
  };
}

/**
 * The signed-in user of a request, or null. `hadToken` tells the caller a token was
 * presented but did not work (the client then removes its stored token).
 */
export async function currentUser(ctx: RequestContext): Promise<{ user: CurrentUser | null; hadToken: boolean }> {
  const token = await requestToken(ctx.request);
  // No token and no cookie at all: nobody to look up (keeps anonymous pages cheap).
  if (!token && !hasCookiesBesidesDevice(ctx.request.headers.get("cookie"))) return { user: null, hadToken: false };
  const authUser = await auth().getUser(ctx, token);
  if (!authUser) return { user: null, hadToken: token !== undefined };
  // The embedded auth reads the profile in the session check's own statement.
  if (authUser.profile !== undefined) return { user: toCurrentUser(authUser, authUser.profile), hadToken: true };
  return { user: await loadUser(authUser), hadToken: true };
}

/** The profile of an authenticated user, read through the RLS door as that user. */
export async function loadUser(authUser: AuthUser): Promise<CurrentUser> {
  const [profile] = await withUser(authUser.id, (tx) => tx.select().from(profiles).where(eq(profiles.id, authUser.id)), {
    email: authUser.email,
  });
  return toCurrentUser(authUser, profile);
}

/** The user fields the client reads (docs/api.md, Accounts). */
export function publicUser(user: CurrentUser) {
  return {
    id: user.id,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    profileImageUrl: user.profileImageUrl,
    createdAt: user.createdAt,
  };
}

export async function signOut(ctx: RequestContext, user: CurrentUser): Promise<void> {
  await auth().signOut(ctx, user.id, await requestToken(ctx.request));
}

export async function requestPasswordReset(ctx: RequestContext, raw: unknown): Promise<{ message: string }> {
  const { email } = validated(emailOnlyRules, raw, ACCOUNT_MESSAGES.invalidEmail);
  // Counted whether or not the address has an account, so the answer reveals nothing.
  await limitMail(ctx, email);
  const { resetToken, email: to } = await viaAuth(() => auth().requestPasswordReset(ctx, email));
  if (resetToken && to) await send(passwordResetMail({ to, link: resetLink(appUrl(), resetToken) }));
  return { message: RESET_REQUESTED_MESSAGE };
}

export async function resetPassword(ctx: RequestContext, raw: unknown): Promise<{ message: string }> {
  const input = validated(resetPasswordRules, raw, "Please check the new password.");
  try {
    const { email } = await viaAuth(() => auth().resetPassword(ctx, input.token, input.password));
    await clearFailedSignIns(email, ctx.client, await knownDevice(ctx.request, email));
    return { message: "Your password has been changed. Sign in with your new password." };
  } catch (error) {
    if (error instanceof AuthError && (error.code === "invalid_token" || error.code === "expired_token")) {
      throw new AccountError(400, "This password reset link is invalid or has expired. Please ask for a new one.", undefined, error.code);
    }
    throw error;
  }
}

export async function updateProfile(user: CurrentUser, raw: unknown): Promise<CurrentUser> {
  const input = validated(profileRules, raw, ACCOUNT_TOASTS.profileFailed);
  const [profile] = await withUser(user.id, (tx) =>
    tx
      .update(profiles)
      .set({ firstName: input.firstName || null, lastName: input.lastName })
      .where(eq(profiles.id, user.id))
      .returning(),
  );
  if (!profile) throw new AccountError(404, ACCOUNT_TOASTS.profileFailed);
  return { ...user, firstName: profile.firstName, lastName: profile.lastName };
}

/** How the creator signs in: 'email' (e-mail and password) or a provider's name (authMethod; docs/product.md, Registration and sign-in). */
export async function signInMethod(user: CurrentUser): Promise<string> {
  const [row] = await withUser(user.id, (tx) =>
    tx.select({ authMethod: profiles.authMethod }).from(profiles).where(eq(profiles.id, user.id)),
  );
  return row?.authMethod ?? "email";
}

export type NotificationSettings = Record<NotificationKey, boolean>;

export async function getNotificationPreferences(user: CurrentUser): Promise<NotificationSettings> {
  const [row] = await withUser(user.id, (tx) =>
    tx.select().from(notificationPreferences).where(eq(notificationPreferences.userId, user.id)),
  );
  return {
    personaCreation: row?.personaCreation ?? true,
    narrativeGeneration: row?.narrativeGeneration ?? true,
    imageGeneration: row?.imageGeneration ?? true,
    marketingEmails: row?.marketingEmails ?? false,
  };
}

const NOTIFICATION_KEYS: NotificationKey[] = ["personaCreation", "narrativeGeneration", "imageGeneration", "marketingEmails"];

/** The JSON body of the notification settings call: every switch a boolean. */
export const NOTIFICATIONS_BODY = Object.fromEntries(NOTIFICATION_KEYS.map((key) => [key, "boolean" as const])) as Record<
  NotificationKey,
  "boolean"
>;

/** Accepts booleans (JSON) or form values ("on"/"true"/"1" for on; absent for off in a form). */
export function parseNotificationSettings(raw: unknown, source: "json" | "form"): NotificationSettings {
  const values = raw && typeof raw === "object" ? (raw as Record<string, unknown>) : null;
  if (!values) throw new AccountError(400, ACCOUNT_TOASTS.notificationsFailed);
  const errors: FieldErrors = {};
  const settings = {} as NotificationSettings;
  for (const key of NOTIFICATION_KEYS) {
    const value = values[key];
    if (source === "form") settings[key] = value === "on" || value === "true" || value === "1";
    else if (typeof value === "boolean") settings[key] = value;
    else errors[key] = ["Must be true or false"];
  }
  if (Object.keys(errors).length) throw new AccountError(400, ACCOUNT_TOASTS.notificationsFailed, errors);
  return settings;
}

export async function updateNotificationPreferences(user: CurrentUser, settings: NotificationSettings): Promise<NotificationSettings> {
  const [row] = await withUser(user.id, (tx) =>
    tx.update(notificationPreferences).set(settings).where(eq(notificationPreferences.userId, user.id)).returning(),
  );
  if (!row) throw new AccountError(404, ACCOUNT_TOASTS.notificationsFailed);
  return settings;
}

export async function changePassword(ctx: RequestContext, user: CurrentUser, raw: unknown): Promise<SignedIn> {
  const input = validated(changePasswordRules, raw, "Please check the passwords.");
  // Guessing the current password from a signed-in session counts like failed sign-ins,
  // taken before the password is evaluated.
  const attempt = await passwordAttempt(ctx, user.email);
  try {
    const session = await viaAuth(
      () => auth().changePassword(ctx, asAuthUser(user), input.currentPassword, input.newPassword),
      "newPassword",
    );
    await attempt.succeeded();
    await send(passwordChangedMail({ to: user.email, firstName: user.firstName, resetLink: `${appUrl()}/reset-password` }));
    return session;
  } catch (error) {
    if (error instanceof AuthError && error.code === "invalid_credentials") {
      await attempt.failed();
      throw new AccountError(400, "Current password is incorrect.", { currentPassword: ["Current password is incorrect"] });
    }
    throw error;
  }
}

const asAuthUser = (user: CurrentUser): AuthUser => ({
  id: user.id,
  email: user.email,
  emailVerified: user.emailVerified,
  createdAt: new Date(user.createdAt),
});

/** Whether the creator signs in with a password (false: only through a provider). */
export async function hasPassword(ctx: RequestContext, user: CurrentUser): Promise<boolean> {
  return viaAuth(() => auth().hasPassword(ctx, asAuthUser(user)));
}

const CURRENT_PASSWORD_INCORRECT = "Current password is incorrect";

/** The current password, checked through the auth adapter and counted like a sign-in before it is evaluated. */
async function checkCurrentPassword(ctx: RequestContext, user: CurrentUser, password: unknown): Promise<void> {
  if (typeof password !== "string" || password === "") {
    throw new AccountError(400, ACCOUNT_MESSAGES.currentPasswordRequired, { password: [ACCOUNT_MESSAGES.currentPasswordRequired] });
  }
  const attempt = await passwordAttempt(ctx, user.email);
  try {
    await viaAuth(() => auth().verifyPassword(ctx, asAuthUser(user), password));
    await attempt.succeeded();
  } catch (error) {
    if (error instanceof AuthError && error.code === "invalid_credentials") {
      await attempt.failed();
      throw new AccountError(400, `${CURRENT_PASSWORD_INCORRECT}.`, { password: [CURRENT_PASSWORD_INCORRECT] }, "invalid_credentials");
    }
    throw error;
  }
}

// An account without a password confirms its deletion from its mailbox: a link to the
// settings page carrying a token signed for this account, valid for an hour. The account
// is gone once it is used, so it cannot be used twice.
const DELETION_LINK_TTL_MS = 60 * 60 * 1000;
const DELETION_PURPOSE = "account deletion";
const deletionSubject = (user: CurrentUser) => `${user.id}\n${user.email.toLowerCase()}`;
export const DELETION_MAILED_MESSAGE = "We have e-mailed you a link to confirm the deletion. It is valid for 1 hour.";
export const DELETION_LINK_INVALID = "This deletion link is invalid or has expired. Please ask for a new one.";

/** Whether a deletion link's token was made for this account and has not expired. */
export function deletionTokenValid(user: CurrentUser, token: unknown): boolean {
  const expires = Number(verifiedPayload(DELETION_PURPOSE, deletionSubject(user), token));
  return Number.isFinite(expires) && expires > Date.now();
}

export function deletionLink(user: CurrentUser, expiresAt = Date.now() + DELETION_LINK_TTL_MS): string {
  const token = signToken(DELETION_PURPOSE, deletionSubject(user), String(expiresAt));
  return `${appUrl()}/settings?tab=account&deleteToken=${encodeURIComponent(token)}`;
}

/** What a deletion request did: the account is gone, or (no password) a link to confirm was mailed. */
export type DeletionResult = { status: "deleted" } | { status: "mailed"; message: string };

/**
 * Deletes the account after the e-mail typed matches and the current password is right; an
 * account without a password gets a link mailed instead, and is deleted when the request
 * carries that link's token.
 */
export async function deleteAccount(ctx: RequestContext, user: CurrentUser, raw: unknown): Promise<DeletionResult> {
  const values = raw && typeof raw === "object" ? (raw as Record<string, unknown>) : {};
  const confirm = typeof values.confirmEmail === "string" ? values.confirmEmail.trim().toLowerCase() : "";
  if (confirm !== user.email.toLowerCase()) {
    throw new AccountError(400, ACCOUNT_MESSAGES.confirmEmailMismatch, { confirmEmail: [ACCOUNT_MESSAGES.confirmEmailMismatch] });
  }
  if (await hasPassword(ctx, user)) {
    await checkCurrentPassword(ctx, user, values.password);
  } else if (typeof values.token === "string" && values.token !== "") {
    if (!deletionTokenValid(user, values.token)) throw new AccountError(400, DELETION_LINK_INVALID, undefined, "invalid_token");
  } else {
    await limitMail(ctx, user.email);
    await send(accountDeletionMail({ to: user.email, firstName: user.firstName, link: deletionLink(user) }));
    return { status: "mailed", message: DELETION_MAILED_MESSAGE };
  }
  await auth().deleteUser(ctx, user.id);
  // The account's reference images go with it (files or storage objects): no orphans.
  await imageStorage()
    .removeFolder(userFolder(user.id))
    .catch((error) => console.error(`[images] could not remove the images of deleted account ${user.id}:`, error));
  await send(accountDeletedMail({ to: user.email, firstName: user.firstName }));
  return { status: "deleted" };
}

// ---------------------------------------------------------------- sign-in links and providers

/** The third-party sign-in providers this server offers ('Continue with …'). */
export function signInProviders(): { id: string; name: string }[] {
  return oauthProviders();
}

/** The account a sign-in link's token belongs to, or null for a token that is not valid (any more). */
export function signInLinkUser(ctx: RequestContext, token: string): Promise<AuthUser | null> {
  return token.length > 0 && token.length <= 4096 ? auth().getUser(ctx, token) : Promise.resolve(null);
}

/** Where to send the browser to sign in with a provider (its PKCE verifier rides in ctx's cookies). */
export function startProviderSignIn(ctx: RequestContext, provider: string, callbackUrl: string): Promise<{ url: string }> {
  return auth().oauthStart(ctx, provider, callbackUrl);
}

export const PROVIDER_SIGN_IN_FAILED = "Signing in with the provider did not complete. Please try again.";

/**
 * The provider sent the browser back with a code: the session, or an AccountError whose message
 * the person signing in can read (the embedded auth's refusals are written for them; anything
 * else is logged and said in general words).
 */
export async function finishProviderSignIn(ctx: RequestContext, code: string): Promise<SignedIn> {
  try {
    return await auth().oauthCallback(ctx, code);
  } catch (error) {
    if (error instanceof AuthError && auth().kind === "local" && error.code !== "provider_error") {
      throw new AccountError(400, error.message, undefined, error.code);
    }
    console.error(`third-party sign-in failed: ${error instanceof Error ? error.message : String(error)}`);
    throw new AccountError(502, PROVIDER_SIGN_IN_FAILED, undefined, "provider_error");
  }
}
