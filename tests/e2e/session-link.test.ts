// Sign-in links and redirects as an attacker would use them, in Chromium, with JavaScript on
// and off: a `redirectTo` that normalises into another host, a `/?token=` link opened from a
// page on another site, and a link for another account than the one signed in.
import { createServer, type Server } from "node:http";

import type { Page } from "@playwright/test";

import { createAccount, expect, expectNoA11yViolations, personaBody, signIn, test, visit, type Account } from "./support";

/** A page on another site (127.0.0.1 is another site than localhost) with one link on it. */
async function anotherSite(href: string): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    res.end(
      `<!doctype html><html lang="en"><title>Free prize</title><main><a id="prize" href="${href}">Claim your prize</a></main></html>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/`, server };
}

async function signedInEmail(page: Page): Promise<string | null> {
  const res = await page.request.get("/api/auth/user");
  if (res.status() !== 200) return null;
  return ((await res.json()) as { email: string }).email;
}

test.describe("redirects that would leave the site", () => {
  test("signing in through /login?redirectTo=/.//evil.example ends on the dashboard", async ({ page, request }) => {
    const account = await createAccount(request);
    for (const to of ["/.//evil.example/fake-login", "/%2e//evil.example", "/a/..//evil.example/x"]) {
      await page.context().clearCookies();
      await visit(page, `/login?redirectTo=${encodeURIComponent(to)}`);
      await page.getByLabel("E-mail").fill(account.email);
      await page.getByLabel("Password", { exact: true }).fill(account.password);
      await page.getByRole("button", { name: "Sign In" }).click();
      await expect(page).toHaveURL(/^http:\/\/localhost:\d+\/dashboard$/);
    }
    // Signed in, the login page sends the creator on at once: still not away.
    await page.goto(`/login?redirectTo=${encodeURIComponent("/.//evil.example")}`);
    await expect(page).toHaveURL(/^http:\/\/localhost:\d+\/dashboard$/);
  });

  test("the delete page's Cancel link and its redirect after deleting stay on the site", async ({ page, request }) => {
    const account = await createAccount(request);
    const created = await request.post("/api/personas", {
      headers: { Authorization: `Bearer ${account.token}` },
      data: personaBody("Nova"),
    });
    expect(created.status(), await created.text()).toBe(201);
    const { id } = (await created.json()) as { id: string };
    await signIn(page, account);
    await visit(page, `/persona/${id}/delete?redirectTo=${encodeURIComponent("/.//evil.example/x")}`);
    await expect(page.getByRole("link", { name: "Cancel" })).toHaveAttribute("href", "/my-personas");
    await page.getByRole("main").getByRole("button", { name: "Delete", exact: true }).click();
    await expect(page).toHaveURL(/^http:\/\/localhost:\d+\/my-personas$/);
  });
});

test.describe("sign-in links", () => {
  let victim: Account;
  let attacker: Account;

  test.beforeEach(async ({ request }) => {
    victim = await createAccount(request, { firstName: "Victoria" });
    attacker = await createAccount(request, { firstName: "Mallory" });
  });

  test("a /?token= link opened from another site does not replace the session", async ({ page, baseURL }) => {
    await signIn(page, victim);
    expect(await signedInEmail(page)).toBe(victim.email);
    const site = await anotherSite(`${baseURL}/?token=${encodeURIComponent(attacker.token)}`);
    try {
      await page.goto(site.url);
      await page.getByRole("link", { name: "Claim your prize" }).click();
      await expect(page).toHaveURL(/^http:\/\/localhost:\d+\/dashboard$/);
      await expect(page.getByText("Sign-in link not used")).toBeVisible();
      expect(await signedInEmail(page)).toBe(victim.email);

      // Nobody signed in: the link signs nobody in either.
      await page.context().clearCookies();
      await page.goto(site.url);
      await page.getByRole("link", { name: "Claim your prize" }).click();
      await expect(page).toHaveURL(/^http:\/\/localhost:\d+\/$/);
      expect(await signedInEmail(page)).toBeNull();
    } finally {
      site.server.close();
    }
  });

  test("a typed link for another account asks 'Sign in as …?' and both answers work", async ({ page }) => {
    await signIn(page, victim);
    await visit(page, `/?token=${encodeURIComponent(attacker.token)}`);
    await expect(page.getByRole("heading", { name: `Sign in as ${attacker.email}?` })).toBeVisible();
    await expectNoA11yViolations(page);

    await page.getByRole("link", { name: `Stay signed in as ${victim.email}` }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    expect(await signedInEmail(page)).toBe(victim.email);

    await visit(page, `/?token=${encodeURIComponent(attacker.token)}`);
    await page.getByRole("button", { name: `Sign in as ${attacker.email}` }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    expect(await signedInEmail(page)).toBe(attacker.email);

    // The link of the account already signed in just opens the dashboard.
    await visit(page, `/?token=${encodeURIComponent(attacker.token)}`);
    await expect(page).toHaveURL(/\/dashboard$/);
  });
});
