// The auth adapter for this process, chosen once from the environment.
import { createLocalAuth } from "./auth/local.server";
import { localOAuthProviders } from "./auth/oauth.server";
import { createSupabaseAuth } from "./auth/supabase.server";
import type { AuthAdapter } from "./auth/types";
import { getEnv } from "./env.server";

let adapter: AuthAdapter | undefined;

export function auth(): AuthAdapter {
  if (!adapter) {
    const env = getEnv();
    adapter =
      env.SUPABASE_URL && env.SUPABASE_ANON_KEY && env.SUPABASE_SERVICE_ROLE_KEY
        ? createSupabaseAuth({
            SUPABASE_URL: env.SUPABASE_URL,
            SUPABASE_ANON_KEY: env.SUPABASE_ANON_KEY,
            SUPABASE_SERVICE_ROLE_KEY: env.SUPABASE_SERVICE_ROLE_KEY,
            APP_URL: env.APP_URL,
          })
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
