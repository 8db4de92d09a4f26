// What a third-party identity provider says about a person, checked and reduced to what
// the embedded sign-in uses (ADR 011). Pure: no network, no database, so every rule about a
// provider's claims is unit-tested here. A claim the app would store that fails a rule
// refuses the sign-in with a message the login page shows; nothing is created or changed.
import { NAME_MAX } from "~/domain/account";

export interface ProviderIdentity {
  /** Our provider id: google, github, oidc. */
  provider: string;
  /** The provider's stable id for the person (OIDC `sub`, GitHub's numeric id). */
  subject: string;
  email: string;
  /** The provider vouches that the person controls `email`. */
  emailVerified: boolean;
  firstName: string | null;
  lastName: string | null;
  /** An http(s) address or null. */
  avatarUrl: string | null;
}

export class IdentityRefused extends Error {
  override name = "IdentityRefused";
}

const AVATAR_MAX = 2048;
const EMAIL_MAX = 254;
const SUBJECT_MAX = 255;
// Same rule as the register and settings forms (domain/account.ts): no control characters.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const str = (value: unknown): string | null => (typeof value === "string" && value.trim() !== "" ? value.trim() : null);

function name(providerName: string, value: string | null): string | null {
  if (value === null) return null;
  if (value.length > NAME_MAX) {
    throw new IdentityRefused(
      `${providerName} sent a name longer than ${NAME_MAX} characters, so no account was created or changed. Shorten the name there, or register with e-mail and password.`,
    );
  }
  if (CONTROL.test(value)) {
    throw new IdentityRefused(`${providerName} sent a name with control characters, so no account was created or changed.`);
  }
  // The forms ask for at least 2 characters; a shorter name from a provider is left out, not refused.
  return value.length >= 2 ? value : null;
}

/** 'Ada King Lovelace' → Ada / King Lovelace; a single word is a first name only. */
export function splitFullName(full: string | null): { first: string | null; last: string | null } {
  if (!full) return { first: null, last: null };
  const parts = full.split(/\s+/).filter(Boolean);
  if (parts.length === 0) return { first: null, last: null };
  return { first: parts[0]!, last: parts.length > 1 ? parts.slice(1).join(" ") : null };
}

function avatar(providerName: string, value: unknown): string | null {
  const raw = str(value);
  if (raw === null) return null;
  const url = URL.canParse(raw) ? new URL(raw) : null;
  if (!url || (url.protocol !== "https:" && url.protocol !== "http:") || raw.length > AVATAR_MAX) {
    throw new IdentityRefused(
      `${providerName} sent a profile picture address that is not an http(s) web address, so no account was created or changed.`,
    );
  }
  return url.href;
}

function email(providerName: string, value: unknown): string {
  const raw = str(value)?.toLowerCase() ?? null;
  if (raw === null) {
    throw new IdentityRefused(`${providerName} did not share an e-mail address, so you cannot sign in with it here.`);
  }
  if (raw.length > EMAIL_MAX || !EMAIL.test(raw)) {
    throw new IdentityRefused(`${providerName} sent an e-mail address that is not valid, so no account was created or changed.`);
  }
  return raw;
}

function subject(providerName: string, value: unknown): string {
  const raw = typeof value === "number" && Number.isSafeInteger(value) ? String(value) : str(value);
  if (raw === null || raw.length > SUBJECT_MAX) throw new IdentityRefused(`${providerName} did not identify the account it signed in.`);
  return raw;
}

/** `email_verified` is a boolean in OIDC; some providers send the string "true". */
const verified = (value: unknown) => value === true || value === "true";

/** A full name split into first and last, each held to the rules of `name`. */
function fullName(providerName: string, value: unknown): { first: string | null; last: string | null } {
  const raw = str(value);
  if (raw !== null && raw.length > NAME_MAX * 2 + 1) name(providerName, raw);
  const { first, last } = splitFullName(raw);
  return { first: name(providerName, first), last: name(providerName, last) };
}

/**
 * An OpenID Connect provider's claims (Google and any issuer): `sub`, `email`,
 * `email_verified`, `given_name`/`family_name` or else `name` split at the first space,
 * and `picture`.
 */
export function identityFromOidcClaims(provider: string, providerName: string, claims: Record<string, unknown>): ProviderIdentity {
  const given = name(providerName, str(claims.given_name));
  const family = name(providerName, str(claims.family_name));
  const full = fullName(providerName, claims.name);
  const ownNames = given !== null || family !== null;
  return {
    provider,
    subject: subject(providerName, claims.sub),
    email: email(providerName, claims.email),
    emailVerified: verified(claims.email_verified),
    firstName: ownNames ? given : full.first,
    lastName: ownNames ? family : full.last,
    avatarUrl: avatar(providerName, claims.picture),
  };
}

export interface GitHubUser {
  id?: unknown;
  login?: unknown;
  name?: unknown;
  avatar_url?: unknown;
}

export interface GitHubEmail {
  email?: unknown;
  primary?: unknown;
  verified?: unknown;
}

/**
 * GitHub's `/user` and `/user/emails`: the primary address with its `verified` flag (the
 * profile's public `email` carries none, so it is not used), names from `name` split at
 * the first space or else the `login` as first name, the picture from `avatar_url`.
 */
export function identityFromGitHub(user: GitHubUser, emails: GitHubEmail[]): ProviderIdentity {
  const providerName = "GitHub";
  const primary = emails.find((e) => e.primary === true) ?? emails.find((e) => e.verified === true);
  const full = fullName(providerName, user.name);
  const login = str(user.login);
  return {
    provider: "github",
    subject: subject(providerName, user.id),
    email: email(providerName, primary?.email),
    emailVerified: primary?.verified === true,
    firstName: full.first ?? name(providerName, login),
    lastName: full.last,
    avatarUrl: avatar(providerName, user.avatar_url),
  };
}
