import { describe, expect, it } from "vitest";

import { ENV_KEYS, EnvError, modes, parseEnv } from "./env.server";

describe("parseEnv", () => {
  it("needs no variable at all: the embedded defaults", () => {
    const env = parseEnv({});
    expect(env).toMatchObject({ PORT: 3000, DATA_DIR: "./.data", APP_URL: "http://localhost:3000" });
    expect(modes.database(env)).toBe("pglite");
    expect(modes.auth(env)).toBe("local");
    expect(modes.mail(env)).toBe("outbox");
    expect(modes.ai(env)).toBe("local");
    expect(modes.billing(env)).toBe("none");
  });

  it("follows PORT and HOST for the app URL unless APP_URL is given", () => {
    expect(parseEnv({ PORT: "4100", HOST: "127.0.0.1" }).APP_URL).toBe("http://127.0.0.1:4100");
    expect(parseEnv({ APP_URL: "https://personaforge.app/" }).APP_URL).toBe("https://personaforge.app");
  });

  it("treats empty values as unset", () => {
    expect(parseEnv({ DATABASE_URL: "", SUPABASE_URL: " " }).DATABASE_URL).toBeUndefined();
  });

  it("chooses the production adapters from their variables", () => {
    const env = parseEnv({
      DATABASE_URL: "postgres://u:p@127.0.0.1:54322/postgres",
      SUPABASE_URL: "http://127.0.0.1:54321",
      SUPABASE_ANON_KEY: "anon",
      SUPABASE_SERVICE_ROLE_KEY: "service",
      SMTP_URL: "smtp://127.0.0.1:2525",
      OPENAI_API_KEY: "sk-test",
      STRIPE_SECRET_KEY: "sk_test_123",
      STRIPE_WEBHOOK_SECRET: "whsec_123",
      STRIPE_PRICE_ID: "price_123",
    });
    expect([modes.database(env), modes.auth(env), modes.mail(env), modes.ai(env), modes.billing(env)]).toEqual([
      "postgres",
      "supabase",
      "smtp",
      "openai",
      "stripe",
    ]);
  });

  it("lists every problem of a half-set configuration in one readable error", () => {
    let error: unknown;
    try {
      parseEnv({ SUPABASE_URL: "http://127.0.0.1:54321", STRIPE_SECRET_KEY: "sk_test_1", PORT: "0", DATABASE_URL: "mysql://x" });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(EnvError);
    const message = (error as EnvError).message;
    expect(message).toContain("SUPABASE_ANON_KEY is required when SUPABASE_URL is set");
    expect(message).toContain("SUPABASE_SERVICE_ROLE_KEY is required when SUPABASE_URL is set");
    expect(message).toContain("STRIPE_WEBHOOK_SECRET is required");
    expect(message).toContain("STRIPE_PRICE_ID is required");
    expect(message).toContain("PORT");
    expect(message).toContain("DATABASE_URL must be a URL starting with postgres:// or postgresql://");
    expect(message).toContain("See .env.example");
  });

  it("rejects a short session secret and malformed keys", () => {
    expect(() => parseEnv({ SESSION_SECRET: "short" })).toThrow(/SESSION_SECRET must be at least 32 characters/);
    expect(() => parseEnv({ STRIPE_SECRET_KEY: "pk_test_1", STRIPE_WEBHOOK_SECRET: "whsec_1", STRIPE_PRICE_ID: "price_1" })).toThrow(
      /STRIPE_SECRET_KEY must be a secret key/,
    );
    expect(() => parseEnv({ OPENAI_BASE_URL: "http://127.0.0.1:8080/v1" })).toThrow(/OPENAI_API_KEY is required/);
  });

  it("needs each third-party sign-in provider's variables together", () => {
    expect(() => parseEnv({ OAUTH_GOOGLE_CLIENT_ID: "id" })).toThrow(
      /OAUTH_GOOGLE_CLIENT_SECRET is required when OAUTH_GOOGLE_CLIENT_ID is set/,
    );
    expect(() => parseEnv({ OAUTH_GITHUB_CLIENT_SECRET: "s" })).toThrow(/OAUTH_GITHUB_CLIENT_ID is required/);
    expect(() => parseEnv({ OAUTH_OIDC_ISSUER: "https://id.example.com" })).toThrow(
      /OAUTH_OIDC_CLIENT_ID is required[\s\S]*OAUTH_OIDC_CLIENT_SECRET is required/,
    );
    expect(() => parseEnv({ OAUTH_OIDC_ISSUER: "ftp://id.example.com", OAUTH_OIDC_CLIENT_ID: "a", OAUTH_OIDC_CLIENT_SECRET: "b" })).toThrow(
      /OAUTH_OIDC_ISSUER must be a URL/,
    );
    expect(parseEnv({ OAUTH_GITHUB_CLIENT_ID: "id", OAUTH_GITHUB_CLIENT_SECRET: "s" }).OAUTH_GITHUB_CLIENT_ID).toBe("id");
  });

  it("documents every variable in .env.example", async () => {
    const { readFileSync } = await import("node:fs");
    const example = readFileSync(new URL("../../../.env.example", import.meta.url), "utf8");
    const documented = new Set([...example.matchAll(/^#?\s*([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]));
    expect(ENV_KEYS.length).toBeGreaterThan(15);
    for (const key of ENV_KEYS) expect(documented, `${key} in .env.example`).toContain(key);
  });
});
