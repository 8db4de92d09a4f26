// A server with no Stripe keys (the embedded default): the subscription page shows the plans
// and says upgrading is not available there, the payment calls answer 503, and the webhook
// refuses everything. Runs the e2e build on a data directory of its own, over raw HTTP.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { expect, expectGoodLayout, freePort, strongPassword, test, VIEWPORTS } from "./support";

const root = fileURLToPath(new URL("../..", import.meta.url));

let child: ChildProcess | undefined;
test.afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child!.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }
});

test("no Stripe keys: the plans, 'Upgrading is not available on this server yet', and 503 from the payment calls", async ({ browser }) => {
  test.setTimeout(90_000);
  const dataDir = mkdtempSync(path.join(tmpdir(), "pf-billing-off-"));
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    NODE_ENV: "production",
    LOG_REQUESTS: "0",
  };
  for (const name of Object.keys(env)) if (name.startsWith("STRIPE_")) delete env[name];
  child = spawn(process.execPath, ["app/server.mjs"], { cwd: root, env, stdio: ["ignore", "pipe", "ignore"] });
  let log = "";
  child.stdout?.on("data", (chunk: Buffer) => (log += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  await expect.poll(async () => (await fetch(`${url}/api/auth/user`).catch(() => null))?.status ?? 0, { timeout: 30_000 }).toBe(401);

  // A creator, verified through the link in this server's outbox.
  const email = `off-${Date.now()}@example.com`;
  const password = strongPassword();
  const json = { "Content-Type": "application/json" };
  expect(
    (
      await fetch(`${url}/api/auth/register`, {
        method: "POST",
        headers: json,
        body: JSON.stringify({ firstName: "Off", lastName: "Line", email, password }),
      })
    ).status,
  ).toBe(201);
  let link = "";
  await expect
    .poll(() => {
      const outbox = path.join(dataDir, "outbox");
      const mails = (() => {
        try {
          return readdirSync(outbox).filter((f) => f.endsWith(".json"));
        } catch {
          return [];
        }
      })().map((f) => JSON.parse(readFileSync(path.join(outbox, f), "utf8")) as { to: string; text: string });
      link = mails.find((m) => m.to === email)?.text.match(/https?:\/\/\S+\/verify-email\?token=\S+/)?.[0] ?? "";
      return link;
    })
    .not.toBe("");
  const token = new URL(link).searchParams.get("token")!;
  expect((await fetch(`${url}/api/auth/verify-email?token=${encodeURIComponent(token)}`)).status).toBe(200);
  const login = await fetch(`${url}/api/auth/login`, { method: "POST", headers: json, body: JSON.stringify({ email, password }) });
  const { token: bearer } = (await login.json()) as { token: string };
  const auth = { Authorization: `Bearer ${bearer}` };

  for (const call of ["/api/create-checkout-session", "/api/create-customer-portal-session"]) {
    const res = await fetch(`${url}${call}`, { method: "POST", headers: auth });
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ message: "Payments are not configured on this server.", code: "payments_not_configured" });
  }
  const webhook = await fetch(`${url}/api/webhooks/stripe`, {
    method: "POST",
    headers: { ...json, "Stripe-Signature": "t=1,v1=00" },
    body: "{}",
  });
  expect(webhook.status).toBe(503);
  expect(await (await fetch(`${url}/api/subscription/status`, { headers: auth })).json()).toEqual({
    status: "free",
    currentPeriodEnd: null,
    trialDaysLeft: 0,
  });

  // The page, signed in through `/?token=` (which sets the session cookie).
  const signIn = await fetch(`${url}/?token=${encodeURIComponent(bearer)}`, { redirect: "manual" });
  const cookie = signIn.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const page = await fetch(`${url}/subscription`, { headers: { cookie } });
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain("Upgrading is not available on this server yet");
  // Operator instructions are for the operator (README, start-up log), never shown to creators.
  expect(html).not.toContain("STRIPE_SECRET_KEY");
  expect(html).not.toContain("npm run plan");
  // ...where the operator finds how to turn upgrades on.
  expect(log).toContain("billing is off");
  expect(log).toContain("npm run plan -- <email> premium");
  expect(html).toContain("$<!-- -->9.99");
  expect(html).toContain("Free Plan");
  expect(html).not.toMatch(/<button[^>]*>Upgrade to Premium<\/button>/);

  // As a creator sees it in a browser, with JavaScript on and off, at both sizes: the sentence,
  // nothing for the operator, and a page that holds its layout.
  for (const javaScriptEnabled of [true, false]) {
    for (const [size, viewport] of Object.entries(VIEWPORTS)) {
      const context = await browser.newContext({ javaScriptEnabled, viewport });
      await context.addCookies(
        cookie.split("; ").map((pair) => {
          const [name, ...value] = pair.split("=");
          return { name: name!, value: value.join("="), url };
        }),
      );
      const tab = await context.newPage();
      await tab.goto(`${url}/subscription`);
      await expect(
        tab.getByRole("heading", { name: "Upgrading is not available on this server yet" }),
        `${size}, JavaScript ${javaScriptEnabled}`,
      ).toBeVisible();
      await expect(tab.locator("body")).not.toContainText(/STRIPE_|npm run plan/);
      await expect(tab.getByRole("button", { name: "Upgrade to Premium" })).toHaveCount(0);
      await expectGoodLayout(tab, { sizes: [size as keyof typeof VIEWPORTS] });
      await context.close();
    }
  }

  // The no-JavaScript form post answers with the page and the message, not Stripe.
  const post = await fetch(`${url}/subscription`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie, Origin: url, "Content-Type": "application/x-www-form-urlencoded" },
    body: "intent=upgrade",
  });
  expect(post.status).toBe(302);
  expect(post.headers.get("location")).toBe("/subscription");
});
