import {
  createAccount,
  expect,
  expectNoA11yViolations,
  latestMail,
  linkIn,
  mailsTo,
  newEmail,
  signIn,
  strongPassword,
  test,
  visit,
  VIEWPORTS,
} from "./support";

test.describe("sign-up, verification and sign-in", () => {
  test("register → open the link from the outbox → sign in → dashboard greeting → log out", async ({ page, jsEnabled }) => {
    const email = newEmail("grace");
    const password = strongPassword();
    await visit(page, "/register");
    await expectNoA11yViolations(page);
    await expect(page.getByText("Must contain uppercase, lowercase, number, and special character")).toBeVisible();
    // The e2e server offers the local identity provider's three (tests/support/e2e-oauth.ts; oauth.test.ts).
    await expect(page.getByRole("button", { name: /Continue with/ })).toHaveCount(3);
    await page.getByLabel("First name").fill("Grace");
    await page.getByLabel("Last name").fill("Hopper");
    await page.getByLabel("E-mail").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByRole("button", { name: "Create account" }).click();

    await expect(page).toHaveURL(/\/login$/);
    const toast = page.getByTestId("toast");
    await expect(toast).toContainText("Registration Successful");
    await expect(toast).toContainText("Please check your email to verify your account.");

    // Not verified yet: refused, with a way to get a new mail.
    await page.getByLabel("E-mail").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page.getByRole("alert")).toContainText("verify your e-mail address");
    await page.getByRole("button", { name: "Send a new verification e-mail" }).click();
    await expect(page.getByRole("status").filter({ hasText: "new verification link" })).toBeVisible();

    const mail = await latestMail(email, /confirm/i);
    await visit(page, linkIn(mail, "/verify-email"));
    await expect(page.getByText("Email verified successfully!")).toBeVisible();
    await expectNoA11yViolations(page);
    if (jsEnabled) {
      // After 3 seconds the page moves on to /login by itself.
      await expect(page).toHaveURL(/\/login$/, { timeout: 10_000 });
    } else {
      await page.getByRole("link", { name: "Go to Login" }).click();
    }

    await page.getByLabel("E-mail").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Grace");
    await expect(page.getByText("Ready to Create Some Magic?")).toBeVisible();

    await page.getByRole("button", { name: "Log out" }).first().click();
    await expect(page).toHaveURL(/\/$/);
    await visit(page, "/dashboard");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fdashboard$/);
  });

  test("a wrong password says 'Sign In Failed'", async ({ page, request }) => {
    const account = await createAccount(request);
    await visit(page, "/login");
    await page.getByLabel("E-mail").fill(account.email);
    await page.getByLabel("Password", { exact: true }).fill("Wrong#Password1");
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page.getByRole("alert")).toContainText("Sign In Failed");
    await expect(page.getByRole("alert")).toContainText("Please check your email and password.");
    await expect(page.getByLabel("E-mail")).toHaveValue(account.email);
    await expectNoA11yViolations(page);
  });

  test("registering an address that already has an account reveals nothing and mails the owner", async ({ page, request }) => {
    const account = await createAccount(request);
    await visit(page, "/register");
    await page.getByLabel("First name").fill("Mallory");
    await page.getByLabel("Last name").fill("Stranger");
    await page.getByLabel("E-mail").fill(account.email);
    await page.getByLabel("Password", { exact: true }).fill(strongPassword());
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByTestId("toast")).toContainText("Please check your email to verify your account.");
    const mail = await latestMail(account.email, /already have/i);
    expect(mail.text).toContain("/login");
    // The owner's password still works.
    const login = await request.post("/api/auth/login", { data: { email: account.email, password: account.password } });
    expect(login.status()).toBe(200);
  });
});

test.describe("registration input", () => {
  test("every field shows the spec's message", async ({ page, jsEnabled }) => {
    await visit(page, "/register");
    await page.getByLabel("First name").fill("A");
    await page.getByLabel("Last name").fill("B");
    await page.getByLabel("E-mail").fill("not-an-email");
    await page.getByLabel("Password", { exact: true }).fill("short");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByText("First name must be at least 2 characters")).toBeVisible();
    await expect(page.getByText("Last name must be at least 2 characters")).toBeVisible();
    await expect(page.getByText("Invalid email address")).toBeVisible();
    await expect(page.getByText("Password must be at least 8 characters")).toBeVisible();
    if (!jsEnabled) await expect(page.getByRole("alert")).toContainText("Registration Failed");
    else await expect(page.getByTestId("toast")).toContainText("Registration Failed");

    await page.getByLabel("Password", { exact: true }).fill("alllowercase1!");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByText("Password must contain uppercase, lowercase, number, and special character")).toBeVisible();
    await expectNoA11yViolations(page);
  });

  test("names are text, never HTML", async ({ page, request }) => {
    const account = await createAccount(request, { firstName: "<img src=x onerror=alert(1)>", lastName: "O'Brien" });
    await signIn(page, account);
    await expect(page.getByRole("heading", { level: 1 })).toContainText("<img src=x onerror=alert(1)>");
    expect(await page.locator("img[src=x]").count()).toBe(0);
  });
});

test.describe("password reset", () => {
  test("forgotten password → link → new password → sign in with it", async ({ page, request }) => {
    const account = await createAccount(request);
    await visit(page, "/login");
    await page.getByRole("link", { name: "Forgot password" }).click();
    await expect(page).toHaveURL(/\/reset-password$/);
    await page.getByLabel("E-mail").fill(account.email);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await expect(page.getByRole("status").filter({ hasText: "If an account exists" })).toBeVisible();
    await expectNoA11yViolations(page);

    const mail = await latestMail(account.email, /reset/i);
    await visit(page, linkIn(mail, "/reset-password"));
    const newPassword = strongPassword();
    await page.getByLabel("New password").fill("weak");
    await page.getByRole("button", { name: "Set new password" }).click();
    await expect(page.getByText("Password must be at least 8 characters")).toBeVisible();
    await page.getByLabel("New password").fill(newPassword);
    await page.getByRole("button", { name: "Set new password" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByTestId("toast")).toContainText("Password Changed");

    // The old session and password no longer work; the new password does.
    const old = await request.get("/api/auth/user", { headers: { Authorization: `Bearer ${account.token}` } });
    expect(old.status()).toBe(401);
    await page.getByLabel("E-mail").fill(account.email);
    await page.getByLabel("Password", { exact: true }).fill(newPassword);
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);

    // The link works once.
    await visit(page, linkIn(mail, "/reset-password"));
    await page.getByLabel("New password").fill(strongPassword());
    await page.getByRole("button", { name: "Set new password" }).click();
    await expect(page.getByRole("alert")).toContainText("invalid or has expired");
  });

  test("the answer is the same for an address without an account", async ({ page }) => {
    await visit(page, "/reset-password");
    await page.getByLabel("E-mail").fill(newEmail("nobody"));
    await page.getByRole("button", { name: "Send reset link" }).click();
    await expect(page.getByRole("status").filter({ hasText: "If an account exists" })).toBeVisible();
  });
});

test.describe("protected pages and the session token", () => {
  test("a protected path sends you to sign in and back again", async ({ page, request }) => {
    const account = await createAccount(request);
    await visit(page, "/settings?tab=notifications");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fsettings%3Ftab%3Dnotifications$/);
    await page.getByLabel("E-mail").fill(account.email);
    await page.getByLabel("Password", { exact: true }).fill(account.password);
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page).toHaveURL(/\/settings\?tab=notifications$/);
  });

  test("only same-site paths are followed after sign-in", async ({ page, request }) => {
    const account = await createAccount(request);
    await visit(page, "/login?redirectTo=%2F%2Fevil.example%2F");
    await page.getByLabel("E-mail").fill(account.email);
    await page.getByLabel("Password", { exact: true }).fill(account.password);
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test("/?token= stores the session, cleans the address and opens the dashboard; signed-in visitors of / go there too", async ({
    page,
    request,
  }) => {
    const account = await createAccount(request);
    await page.goto(`/?token=${encodeURIComponent(account.token)}`);
    await expect(page).toHaveURL(/\/dashboard$/);
    await visit(page, "/");
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.context().clearCookies();
    await page.goto("/?token=forged.token.value");
    await expect(page).toHaveURL(/\/login$/);
  });
});

// What a creator meets on a phone as on a laptop (both projects): the verification link opened a
// second time, and the password rule that names its special characters.
for (const [size, viewport] of Object.entries(VIEWPORTS)) {
  test.describe(`at ${viewport.width}×${viewport.height} (${size})`, () => {
    test.use({ viewport });
    test("a used link of a verified account says so; a replaced or unknown link shows the error state with its two ways out", async ({
      page,
      request,
    }) => {
      const account = await createAccount(request);
      // Opened a second time, the link of a verified account: verified already, nothing failed.
      await visit(page, linkIn(await latestMail(account.email, /confirm/i), "/verify-email"));
      await expect(page.getByRole("heading", { name: "E-mail already verified" })).toBeVisible();
      await expect(page.getByRole("status")).toContainText("This e-mail address is already verified. You can sign in.");
      await expect(page.getByRole("link", { name: "Go to Login" })).toHaveAttribute("href", "/login");
      await expect(page.getByRole("link", { name: "Register Again" })).toHaveCount(0);
      await expectNoA11yViolations(page);

      await visit(page, "/verify-email?token=not-a-real-token");
      await expect(page.getByRole("alert")).toContainText("Invalid verification link. Please check your email for the correct link.");
      // A link of the right shape that a newer mail replaced has expired: the other documented text.
      const email = newEmail();
      const registered = await request.post("/api/auth/register", {
        data: { firstName: "Ada", lastName: "Byron", email, password: strongPassword() },
      });
      expect(registered.status()).toBe(201);
      const first = linkIn(await latestMail(email, /confirm/i), "/verify-email");
      expect((await request.post("/api/auth/resend-verification", { data: { email } })).status()).toBe(200);
      await expect.poll(() => mailsTo(email).length).toBeGreaterThan(1);
      await visit(page, first);
      await expect(page.getByRole("alert")).toHaveText("Failed to verify email. The link may have expired.");
      await expect(page.getByRole("link", { name: "Go to Login" })).toHaveAttribute("href", "/login");
      await expect(page.getByRole("link", { name: "Register Again" })).toHaveAttribute("href", "/register");
      await expectNoA11yViolations(page);
      await visit(page, "/verify-email");
      await expect(page.getByRole("alert")).toBeVisible();
    });

    test("a password with a special character the rule does not take says which ones it takes, and keeps the other fields", async ({
      page,
    }) => {
      await visit(page, "/register");
      // The hint names the accepted characters before anything is typed.
      await expect(page.getByText("Special characters: @ $ ! % * ? &").first()).toBeVisible();
      await page.getByLabel("First name").fill("Sparkle");
      await page.getByLabel("Last name").fill("Creator");
      await page.getByLabel("E-mail").fill(`sparkle-${Date.now()}@example.com`);
      for (const password of ["Sparkle#2026", "Sparkle🙂2026", "Sparkle2026^"]) {
        await page.getByLabel("Password", { exact: true }).fill(password);
        await page.getByRole("button", { name: "Create account" }).click();
        await expect(
          page.getByText("Password must contain uppercase, lowercase, number, and special character. Special characters: @ $ ! % * ? &"),
        ).toBeVisible();
        await expect(page.getByLabel("First name")).toHaveValue("Sparkle");
        await expect(page.getByLabel("Last name")).toHaveValue("Creator");
        await expect(page.getByLabel("E-mail")).toHaveValue(/^sparkle-/);
      }
      await page.getByLabel("Password", { exact: true }).fill("x".repeat(1000));
      await page.getByRole("button", { name: "Create account" }).click();
      await expect(page.getByText("Password must be 72 characters or less")).toBeVisible();
      await expect(page.getByLabel("First name")).toHaveValue("Sparkle");
      await expectNoA11yViolations(page);
    });
  });
}
