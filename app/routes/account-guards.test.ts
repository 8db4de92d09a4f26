// The per-account sign-in budget and the device cookie through the real routes: the HTML
// sign-in form (a plain form post, as without JavaScript) and POST /api/auth/login both
// hand out the device cookie and honour it; the settings form deletes an account only
// with the current password.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { Jar, caught } from "../../tests/support/route-calls";

process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), "pf-sign-in-limits-"));
process.env.APP_URL = "http://app.test";

const { installTestDatabase } = await import("../../tests/support/test-database");
const { closeDatabase, withAuthTables } = await import("~/infra/db/db.server");
const { useMailer } = await import("~/infra/mail/mail.server");
const { LIMITS, resetRateLimits } = await import("~/infra/web/rate-limit.server");
const { register, requestContext, verifyEmail } = await import("~/services/accounts.server");
const login = await import("./login");
const apiLogin = await import("./api.$/auth.login");
const settings = await import("./_app.settings");
const { crossSiteRefusal } = await import("~/infra/web/http-guards.server");

const outbox: { to: string; text: string }[] = [];
const password = "Forge!pass1";
let counter = 0;

beforeAll(async () => {
  await installTestDatabase();
  useMailer({ kind: "outbox", send: async (m) => void outbox.push(m) });
});
beforeEach(() => resetRateLimits());
afterAll(async () => {
  useMailer(undefined);
  await closeDatabase();
});

async function verifiedAccount(): Promise<string> {
  const email = `limits${++counter}-${Date.now()}@example.com`;
  const ctx = () => requestContext(new Request("http://app.test/"), { clientAddress: "203.0.113.1" });
  await register(ctx(), { firstName: "Ada", lastName: "Lovelace", email, password });
  const link = outbox
    .filter((m) => m.to === email)
    .at(-1)!
    .text.match(/https?:\/\/\S+verify-email\S+/)![0];
  await verifyEmail(ctx(), new URL(link).searchParams.get("token"));
  return email;
}

const formPost = (url: string, fields: Record<string, string>, jar?: Jar) =>
  new Request(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...(jar ? { cookie: jar.header() } : {}) },
    body: new URLSearchParams(fields),
  });

/** What an action answered, as the browser gets it: a Response, or Remix's `data(…)` with its status and headers. */
type Answer = { status: number; headers: Headers; data?: unknown; json(): Promise<unknown> };
async function answer(run: () => Promise<unknown>): Promise<Answer> {
  const result = (await caught(run)) as Response | { data: unknown; init?: ResponseInit | null };
  if (result instanceof Response) return result;
  return {
    status: result.init?.status ?? 200,
    headers: new Headers(result.init?.headers),
    data: result.data,
    json: async () => result.data,
  };
}

/** The sign-in form, posted as a browser without JavaScript does. */
const formSignIn = (email: string, pass: string, client: string, jar?: Jar) =>
  answer(() =>
    login.action({
      request: formPost("http://app.test/login", { email, password: pass, redirectTo: "/dashboard" }, jar),
      params: {},
      context: { clientAddress: client },
    }),
  );

const apiSignIn = (email: string, pass: string, client: string, jar?: Jar) =>
  answer(() =>
    apiLogin.action({
      request: new Request("http://app.test/api/auth/login", {
        method: "POST",
        headers: { "content-type": "application/json", ...(jar ? { cookie: jar.header() } : {}) },
        body: JSON.stringify({ email, password: pass }),
      }),
      params: {},
      context: { clientAddress: client },
    }),
  );

/** 240 wrong passwords from 60 client addresses, 40 at a time, through the JSON API; the statuses. */
async function guessFromEverywhere(email: string): Promise<number[]> {
  const codes: number[] = [];
  for (let batch = 0; batch < 6; batch++) {
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => apiSignIn(email, `Wrong!pass${batch * 40 + i}`, `198.18.${batch}.${i % 10}`)),
    );
    codes.push(...answers.map((r) => r.status));
  }
  return codes;
}

const deviceCookie = (response: Answer) => response.headers.getSetCookie().find((c) => c.startsWith("pf_device="));

describe("the account's budget and the device cookie, through the sign-in routes", () => {
  it("both routes set an httpOnly device cookie at a successful sign-in, none at a failed one", async () => {
    const email = await verifiedAccount();
    expect(deviceCookie(await formSignIn(email, "Wrong!pass1", "192.0.2.1"))).toBeUndefined();
    const form = await formSignIn(email, password, "192.0.2.1");
    expect(form.status).toBe(302);
    const api = await apiSignIn(email, password, "192.0.2.2");
    expect(api.status).toBe(200);
    for (const response of [form, api]) {
      expect(deviceCookie(response)).toMatch(/; HttpOnly/i);
      expect(deviceCookie(response)).toMatch(/; SameSite=Lax/i);
      expect(deviceCookie(response)).toMatch(/; Path=\//);
    }
  });

  it("240 guesses from 60 addresses: at most 100 answered 401; the owner's browser still signs in by form and by API, an unknown client gets 429", async () => {
    const email = await verifiedAccount();
    const browser = new Jar();
    browser.take((await formSignIn(email, password, "192.0.2.10")) as Response);
    const apiClient = new Jar();
    apiClient.take((await apiSignIn(email, password, "192.0.2.11")) as Response);

    const codes = await guessFromEverywhere(email);
    const checked = codes.filter((c) => c === 401).length;
    expect(checked).toBeLessThanOrEqual(100);
    expect(checked).toBe(LIMITS.failsPerAccount.points);
    expect(codes.filter((c) => c === 429)).toHaveLength(240 - checked);

    const stranger = await apiSignIn(email, password, "203.0.113.50");
    expect(stranger.status).toBe(429);
    expect(Number(stranger.headers.get("Retry-After"))).toBeGreaterThan(3000);
    expect(await stranger.json()).toMatchObject({
      code: "rate_limited",
      message: expect.stringMatching(/^Too many failed sign-in attempts/),
    });
    const strangerForm = await formSignIn(email, password, "203.0.113.50");
    expect(strangerForm.status).toBe(429);
    expect(strangerForm.headers.get("Retry-After")).not.toBeNull();

    // The owner, from new addresses, with the cookies their earlier sign-ins left.
    const byForm = await formSignIn(email, password, "203.0.113.51", browser);
    expect(byForm.status).toBe(302);
    expect(byForm.headers.get("Location")).toBe("/dashboard");
    const byApi = await apiSignIn(email, password, "203.0.113.52", apiClient);
    expect(byApi.status).toBe(200);
    expect(await byApi.json()).toHaveProperty("token");
  });
});

describe("the device cookie alone", () => {
  it("signs nobody in: a request carrying only it is not a cookie-carrying request to the forgery guard", () => {
    const post = (cookie: string) => crossSiteRefusal("POST", new Headers({ cookie }));
    expect(post("pf_device=abc")).toBeNull();
    expect(post("pf_device=abc; pf_session=xyz")).not.toBeNull();
    expect(post("pf_session=xyz")).not.toBeNull();
  });
});

describe("deleting the account from the settings form", () => {
  async function signedInBrowser() {
    const email = await verifiedAccount();
    const browser = new Jar();
    browser.take((await formSignIn(email, password, "192.0.2.20")) as Response);
    return { email, browser };
  }
  const deletePost = (browser: Jar, fields: Record<string, string>) =>
    answer(() =>
      settings.action({
        request: formPost("http://app.test/settings?tab=account", { intent: "delete-account", ...fields }, browser),
        params: {},
        context: { clientAddress: "192.0.2.20" },
      }),
    );
  const accountsNamed = async (email: string) =>
    JSON.stringify(
      await withAuthTables("test", (tx) => tx.execute(sql`select count(*)::int as n from auth.users where lower(email) = ${email}`)),
    );

  it("shows a 'Current password' field; a wrong password is a 400 with the field's error and deletes nothing", async () => {
    const { email, browser } = await signedInBrowser();
    const page = (await settings.loader({
      request: new Request("http://app.test/settings?tab=account", { headers: { cookie: browser.header() } }),
      params: {},
      context: {},
    })) as unknown as { data: { deletion: { hasPassword: boolean } } };
    expect(page.data.deletion.hasPassword).toBe(true);

    const wrong = await deletePost(browser, { confirmEmail: email, password: "Wrong!pass1" });
    expect(wrong.status).toBe(400);
    // conform's reply: the field's error, and what was typed back into the form (never the password).
    expect(wrong.data).toMatchObject({
      intent: "delete-account",
      result: { error: { password: ["Current password is incorrect"] }, initialValue: { confirmEmail: email } },
    });
    expect(JSON.stringify(wrong.data)).not.toContain("Wrong!pass1");
    expect(await accountsNamed(email)).toContain('"n":1');

    const missing = await deletePost(browser, { confirmEmail: email });
    expect(missing.status).toBe(400);
    expect(await accountsNamed(email)).toContain('"n":1');

    const right = await deletePost(browser, { confirmEmail: email, password });
    expect(right.status).toBe(302);
    expect(right.headers.get("Location")).toBe("/");
    expect(await accountsNamed(email)).toContain('"n":0');
  });

  it("an account without a password: the form mails a link; the link opens the form with its token, which deletes the account", async () => {
    const { email, browser } = await signedInBrowser();
    await withAuthTables("test", (tx) => tx.execute(sql`update auth.users set encrypted_password = null where lower(email) = ${email}`));
    const asked = await deletePost(browser, { confirmEmail: email });
    expect(asked.status).toBe(302);
    expect(asked.headers.get("Location")).toBe("/settings?tab=account");
    expect(await accountsNamed(email)).toContain('"n":1');
    const link = outbox
      .filter((m) => m.to === email)
      .at(-1)!
      .text.match(/https?:\/\/\S+deleteToken\S+/)![0];

    const opened = (await settings.loader({
      request: new Request(link, { headers: { cookie: browser.header() } }),
      params: {},
      context: {},
    })) as unknown as { data: { deletion: { hasPassword: boolean; token: string | null; linkInvalid: boolean } } };
    expect(opened.data.deletion).toMatchObject({ hasPassword: false, linkInvalid: false });
    const token = opened.data.deletion.token!;
    expect(token).toBe(new URL(link).searchParams.get("deleteToken"));

    const deleted = await deletePost(browser, { confirmEmail: email, token });
    expect(deleted.status).toBe(302);
    expect(deleted.headers.get("Location")).toBe("/");
    expect(await accountsNamed(email)).toContain('"n":0');
  });
});
