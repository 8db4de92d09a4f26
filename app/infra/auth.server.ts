// The auth adapter for this process, chosen once from the environment.
import { createLocalAuth } from "./auth/local.server";
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
        : createLocalAuth();
  }
  return adapter as AuthAdapter;
}

/** Tests install another adapter (or reset to the configured one with undefined). */
export function useAuth(next: AuthAdapter | undefined): void {
  adapter = next;
}

/** Third-party sign-in providers offered on the sign-in screens (Supabase mode only). */
export function oauthProviders(): string[] {
  const env = getEnv();
  if (!env.SUPABASE_URL || !env.OAUTH_PROVIDERS) return [];
  return env.OAUTH_PROVIDERS.split(",")
    .map((p) => p.trim().toLowerCase())
    .filter((p) => /^[a-z0-9_-]{2,30}$/.test(p));
}
