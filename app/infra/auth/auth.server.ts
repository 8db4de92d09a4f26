// The auth adapter for this process, chosen once from the environment.
import { sql } from "drizzle-orm";

import { createLocalAuth } from "./local.server";
import { localOAuthProviders } from "./oauth.server";
import { createSupabaseAuth, type SessionLookup } from "./supabase.server";
import { sessionProfileFromRow, type AuthAdapter, type SessionProfileRow } from "./types";
import { databaseIsSupabaseManaged, serviceStatement } from "../db/db.server";
import { getEnv } from "../setup/env.server";

/**
 * Supabase mode: a locally verified token's session, read from GoTrue's auth.sessions in the
 * project's own database, with the account and the profile every signed-in page shows, in one
 * statement (one primary-key lookup instead of a call to GoTrue, and no second transaction for
 * the profile). Undefined when the database is not the project's (then the adapter asks GoTrue).
 */
export const lookupGoTrueSession: SessionLookup = async (sessionId, userId) => {
  if (!(await databaseIsSupabaseManaged())) return undefined;
  const [row] = await serviceStatement<
    SessionProfileRow & { email: string | null; email_confirmed_at: string | Date | null; created_at: string | Date }
  >(
    "auth: Supabase session check",
    sql`select u.email, u.email_confirmed_at, u.created_at,
               p.first_name, p.last_name, p.profile_image_url, p.subscription_status, p.created_at as profile_created_at
          from auth.sessions s
          join auth.users u on u.id = s.user_id
          left join public.profiles p on p.id = u.id
         where s.id = ${sessionId} and s.user_id = ${userId}
           and (s.not_after is null or s.not_after > now())
           and u.deleted_at is null and (u.banned_until is null or u.banned_until <= now())`,
  );
  if (!row) return null;
  const createdAt = new Date(row.created_at);
  return {
    email: row.email ?? "",
    emailConfirmedAt: row.email_confirmed_at === null ? null : new Date(row.email_confirmed_at),
    createdAt,
    profile: sessionProfileFromRow(row, createdAt),
  };
};

let adapter: AuthAdapter | undefined;

export function auth(): AuthAdapter {
  if (!adapter) {
    const env = getEnv();
    adapter =
      env.SUPABASE_URL && env.SUPABASE_ANON_KEY && env.SUPABASE_SERVICE_ROLE_KEY
        ? createSupabaseAuth(
            {
              SUPABASE_URL: env.SUPABASE_URL,
              SUPABASE_ANON_KEY: env.SUPABASE_ANON_KEY,
              SUPABASE_SERVICE_ROLE_KEY: env.SUPABASE_SERVICE_ROLE_KEY,
              APP_URL: env.APP_URL,
            },
            { lookupSession: lookupGoTrueSession },
          )
        : createLocalAuth({ oauthProviders: localOAuthProviders(env) });
  }
  return adapter as AuthAdapter;
}

/** Tests install another adapter (or reset to the configured one with undefined). */
export function useAuth(next: AuthAdapter | undefined): void {
  adapter = next;
}

export interface OAuthProviderOption {
  /** The path segment of /api/auth/{id}. */
  id: string;
  /** What 'Continue with …' says. */
  name: string;
}

const PROVIDER_NAMES: Record<string, string> = {
  github: "GitHub",
  google: "Google",
  gitlab: "GitLab",
  discord: "Discord",
  apple: "Apple",
  azure: "Microsoft",
  twitter: "X",
};

/**
 * Third-party sign-in providers offered on the sign-in screens: in Supabase mode those
 * listed in OAUTH_PROVIDERS (enabled in Supabase Auth), on the embedded auth those whose
 * OAUTH_<PROVIDER>_* variables are set.
 */
export function oauthProviders(): OAuthProviderOption[] {
  const env = getEnv();
  if (!env.SUPABASE_URL) return localOAuthProviders(env).map(({ id, name }) => ({ id, name }));
  if (!env.OAUTH_PROVIDERS) return [];
  return env.OAUTH_PROVIDERS.split(",")
    .map((p) => p.trim().toLowerCase())
    .filter((p) => /^[a-z0-9_-]{2,30}$/.test(p))
    .map((id) => ({ id, name: PROVIDER_NAMES[id] ?? id }));
}
