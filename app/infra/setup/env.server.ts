// Every variable the app reads, validated once at startup. A bad or half-set
// configuration stops the server with a readable list of what is wrong.
import * as z from "zod";

const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === "" ? undefined : v))
  .optional();
const optionalUrl = (protocols: string[]) =>
  optionalString.refine(
    (v) => {
      if (v === undefined) return true;
      try {
        return protocols.includes(new URL(v).protocol);
      } catch {
        return false;
      }
    },
    { message: `must be a URL starting with ${protocols.map((p) => `${p}//`).join(" or ")}` },
  );

export const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    HOST: optionalString,
    DATA_DIR: optionalString.default("./.data"),
    DATABASE_URL: optionalUrl(["postgres:", "postgresql:"]),
    APP_URL: optionalUrl(["http:", "https:"]),
    SESSION_SECRET: optionalString.refine((v) => v === undefined || v.length >= 32, {
      message: "must be at least 32 characters",
    }),
    SUPABASE_URL: optionalUrl(["http:", "https:"]),
    SUPABASE_ANON_KEY: optionalString,
    SUPABASE_SERVICE_ROLE_KEY: optionalString,
    OAUTH_PROVIDERS: optionalString,
    // Third-party sign-in on the embedded auth (no SUPABASE_URL): each provider by its pair.
    OAUTH_GOOGLE_CLIENT_ID: optionalString,
    OAUTH_GOOGLE_CLIENT_SECRET: optionalString,
    // Another OpenID Connect issuer standing in for Google (a local test server).
    OAUTH_GOOGLE_ISSUER: optionalUrl(["http:", "https:"]),
    OAUTH_GITHUB_CLIENT_ID: optionalString,
    OAUTH_GITHUB_CLIENT_SECRET: optionalString,
    // A GitHub Enterprise Server (its API at /api/v3), or a local test server.
    OAUTH_GITHUB_URL: optionalUrl(["http:", "https:"]),
    OAUTH_OIDC_ISSUER: optionalUrl(["http:", "https:"]),
    OAUTH_OIDC_CLIENT_ID: optionalString,
    OAUTH_OIDC_CLIENT_SECRET: optionalString,
    // The button says 'Continue with <name>'.
    OAUTH_OIDC_NAME: optionalString.refine((v) => v === undefined || (v.length <= 40 && !/[\u0000-\u001f]/.test(v)), {
      message: "must be at most 40 characters without control characters",
    }),
    OPENAI_API_KEY: optionalString,
    OPENAI_BASE_URL: optionalUrl(["http:", "https:"]),
    OPENAI_TEXT_MODEL: optionalString.default("gpt-4o-mini"),
    OPENAI_CHAT_MODEL: optionalString.default("gpt-4o-mini"),
    OPENAI_IMAGE_MODEL: optionalString.default("gpt-image-1"),
    STRIPE_SECRET_KEY: optionalString.refine((v) => v === undefined || /^(sk|rk)_/.test(v), {
      message: "must be a secret key (sk_… or rk_…)",
    }),
    STRIPE_WEBHOOK_SECRET: optionalString.refine((v) => v === undefined || v.startsWith("whsec_"), {
      message: "must start with whsec_",
    }),
    STRIPE_PRICE_ID: optionalString.refine((v) => v === undefined || v.startsWith("price_"), {
      message: "must start with price_",
    }),
    // Another Stripe API host (stripe-mock, or the tests' fake): the `stripe` client talks to it exactly as to Stripe.
    STRIPE_API_URL: optionalUrl(["http:", "https:"]),
    // Days of free trial Checkout adds to a new subscription (0: none).
    STRIPE_TRIAL_DAYS: z.coerce.number().int().min(0).max(730).default(0),
    SMTP_URL: optionalUrl(["smtp:", "smtps:"]),
    MAIL_FROM: optionalString.default("PersonaForge <no-reply@personaforge.local>"),
    // Multiplies every per-creator generation quota (reference images, backstories, card
    // imports: app/infra/web/rate-limit.server.ts). For load tests and benchmarks only.
    GENERATION_QUOTA_MULTIPLIER: z.coerce.number().int().min(1).max(1000).default(1),
    // How long a creator's notification digest waits after its first event (docs/product.md,
    // Settings): an hour; the end-to-end tests shorten it.
    NOTIFY_DIGEST_INTERVAL_MS: z.coerce
      .number()
      .int()
      .min(1_000)
      .max(7 * 24 * 3_600_000)
      .default(3_600_000),
    // Read by app/server.mjs; listed here so they are validated and documented with the rest.
    TRUST_PROXY: optionalString,
    LOG_REQUESTS: z.enum(["0", "1"]).optional(),
    // The embedded database served from its own thread (default); 0 serves it from the main thread.
    PGLITE_THREAD: z.enum(["0", "1"]).optional(),
    // Seconds without a statement after which the app's connection to the embedded database
    // is closed, and the database with it (it opens again on the next one); 0 keeps it open.
    // Also: it is not opened again after the migrations at start until a request needs it.
    PGLITE_IDLE_SECONDS: z.coerce.number().int().min(0).max(86_400).optional(),
    // 1: the embedded database compiled by V8's baseline compiler only (60–70 MB less, more CPU per request).
    PGLITE_WASM_LIFTOFF: z.enum(["0", "1"]).optional(),
    // Background work (app/infra/jobs/queue.server.ts): 0 starts a web-only process, whose jobs
    // other processes run (`npm run worker`, docs/deployment.md).
    WORKERS: z.enum(["0", "1"]).optional(),
    // How many persona test runs one process runs at once.
    TEST_RUN_CONCURRENCY: z.coerce.number().int().min(1).max(32).optional(),
  })
  .superRefine((env, ctx) => {
    const group = (names: (keyof typeof env)[], what: string) => {
      const set = names.filter((n) => env[n] !== undefined);
      if (set.length > 0 && set.length < names.length) {
        for (const n of names.filter((n) => env[n] === undefined)) {
          ctx.addIssue({
            code: "custom",
            path: [n],
            message: `is required when ${set.join(", ")} ${set.length > 1 ? "are" : "is"} set (${what})`,
          });
        }
      }
    };
    group(["SUPABASE_URL", "SUPABASE_ANON_KEY", "SUPABASE_SERVICE_ROLE_KEY"], "Supabase mode needs all three");
    group(["STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET", "STRIPE_PRICE_ID"], "billing needs all three");
    group(["OAUTH_GOOGLE_CLIENT_ID", "OAUTH_GOOGLE_CLIENT_SECRET"], "sign-in with Google needs both");
    group(["OAUTH_GITHUB_CLIENT_ID", "OAUTH_GITHUB_CLIENT_SECRET"], "sign-in with GitHub needs both");
    group(
      ["OAUTH_OIDC_ISSUER", "OAUTH_OIDC_CLIENT_ID", "OAUTH_OIDC_CLIENT_SECRET"],
      "sign-in with an OpenID Connect issuer needs all three",
    );
    if (env.SUPABASE_URL && !env.DATABASE_URL) {
      ctx.addIssue({
        code: "custom",
        path: ["DATABASE_URL"],
        message: "is required in Supabase mode (the database URL from `npx supabase status`)",
      });
    }
    if (env.OPENAI_BASE_URL && !env.OPENAI_API_KEY) {
      ctx.addIssue({ code: "custom", path: ["OPENAI_API_KEY"], message: "is required when OPENAI_BASE_URL is set" });
    }
    if (env.STRIPE_API_URL && !env.STRIPE_SECRET_KEY) {
      ctx.addIssue({
        code: "custom",
        path: ["STRIPE_SECRET_KEY"],
        message: "is required when STRIPE_API_URL is set (with STRIPE_WEBHOOK_SECRET and STRIPE_PRICE_ID)",
      });
    }
    if (env.OAUTH_PROVIDERS && !env.SUPABASE_URL) {
      ctx.addIssue({ code: "custom", path: ["OAUTH_PROVIDERS"], message: "needs Supabase mode (SUPABASE_URL and its keys)" });
    }
  });

export type Env = z.infer<typeof envSchema> & { APP_URL: string };

export const ENV_KEYS = Object.keys(envSchema.shape);

export class EnvError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}\nSee .env.example for every variable.`);
    this.name = "EnvError";
  }
}

export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    throw new EnvError(result.error.issues.map((issue) => `${issue.path.join(".") || "environment"} ${issue.message}`));
  }
  const env = result.data;
  const host = env.HOST && env.HOST !== "0.0.0.0" && env.HOST !== "::" ? env.HOST : "localhost";
  return { ...env, APP_URL: (env.APP_URL ?? `http://${host}:${env.PORT}`).replace(/\/$/, "") };
}

let cached: Env | undefined;
export function getEnv(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

export const modes = {
  database: (env: Env) => (env.DATABASE_URL ? "postgres" : "pglite"),
  auth: (env: Env) => (env.SUPABASE_URL ? "supabase" : "local"),
  mail: (env: Env) => (env.SMTP_URL ? "smtp" : "outbox"),
  ai: (env: Env) => (env.OPENAI_API_KEY ? "openai" : "local"),
  billing: (env: Env) => (env.STRIPE_SECRET_KEY ? "stripe" : "none"),
};
