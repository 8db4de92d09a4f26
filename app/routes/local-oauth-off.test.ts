// Without any OAUTH_* variable the embedded auth offers no third-party sign-in: no
// 'Continue with …' on the sign-in screens, and /api/auth/{provider} is a 404 with a message.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caught } from "../../tests/support/route-calls";

const { installTestDatabase } = await import("../../tests/support/test-database");

beforeAll(async () => {
  await installTestDatabase();
  process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), "pf-oauth-off-"));
  for (const key of Object.keys(process.env)) if (key.startsWith("OAUTH_") || key.startsWith("SUPABASE_")) delete process.env[key];
});

const { closeDatabase } = await import("~/infra/db/db.server");
const { oauthProviders } = await import("~/infra/auth/auth.server");
const login = await import("./login");
const register = await import("./register");
const oauthStart = await import("./api.$/auth.$provider");
const callback = await import("./auth.callback");

afterAll(() => closeDatabase());

describe("third-party sign-in not configured", () => {
  it("no provider on the login and register screens", async () => {
    expect(oauthProviders()).toEqual([]);
    for (const route of [login, register]) {
      const page = (await route.loader({ request: new Request("http://app.test/login"), params: {}, context: {} })) as unknown as {
        data: { providers: unknown[] };
      };
      expect(page.data.providers).toEqual([]);
    }
  });

  it("/api/auth/{provider} answers 404 with a message, for GET and POST", async () => {
    for (const method of ["GET", "POST"]) {
      const run = method === "GET" ? oauthStart.loader : oauthStart.action;
      const res = await caught(() =>
        run({ request: new Request("http://app.test/api/auth/google", { method }), params: { provider: "google" }, context: {} }),
      );
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ message: "This sign-in provider is not available." });
    }
  });

  it("a callback arriving anyway goes to the login page with a message", async () => {
    const res = await caught(() =>
      callback.loader({ request: new Request("http://app.test/auth/callback?code=abc&state=def"), params: {}, context: {} }),
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/login");
  });
});
