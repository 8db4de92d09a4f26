// The signed-in shell (sidebar, header, mobile drawer), the dashboard's welcome banner and
// the settings page, with JavaScript on and off.
import { createAccount, expect, expectNoA11yViolations, signIn, strongPassword, test, visit } from "./support";

const NAV_LINKS = ["Dashboard", "My Personas", "Subscription", "Settings"];

test.describe("navigation shell", () => {
  test("the dashboard greets by first name inside the shell", async ({ page, request }) => {
    const account = await createAccount(request, { firstName: "Grace", lastName: "Hopper" });
    await signIn(page, account);

    const main = page.getByRole("main");
    // A new account is welcomed, not welcomed back.
    await expect(main.getByRole("heading", { level: 1 })).toHaveText("Welcome, Grace!");
    await expect(main.getByText("Ready to Create Some Magic?")).toBeVisible();
    await expect(main.getByText("Design unique AI characters with personalities, stories, and dynamic conversations.")).toBeVisible();
    await expect(main.getByRole("button", { name: "Create New Persona" }).first()).toBeVisible();
    // docs/product.md, Navigation shell: the header shows the product name on the dashboard.
    await expect(page.getByRole("banner")).toContainText("PersonaForge");
    await expect(page.getByRole("main")).toHaveCount(1);
    await expectNoA11yViolations(page);
  });

  test("a user without a first name is greeted as 'there' and shown as 'User'", async ({ page, request }) => {
    const account = await createAccount(request, { firstName: "Tess", lastName: "Nobody" });
    await signIn(page, account);
    await visit(page, "/settings");
    await page.getByLabel("First name").fill("");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expect(page.getByTestId("toast")).toContainText("Profile Updated");

    await visit(page, "/dashboard");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Hello there, welcome!");
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByText("User", { exact: true })).toBeVisible();
    await expect(nav.getByText(account.email)).toBeVisible();
  });

  test("the sidebar lists the five items, marks the active one and shows the user", async ({ page, request }) => {
    const account = await createAccount(request);
    await signIn(page, account);

    const nav = page.getByRole("navigation", { name: "Main" });
    for (const label of NAV_LINKS) await expect(nav.getByRole("link", { name: label, exact: true })).toBeVisible();
    // Create New Persona is a button (an action), not a plain link.
    await expect(nav.getByRole("button", { name: "Create New Persona" })).toBeVisible();
    await expect(nav.getByRole("link", { name: "Create New Persona" })).toHaveCount(0);

    await expect(nav.getByRole("link", { name: "Dashboard", exact: true })).toHaveAttribute("aria-current", "page");
    await expect(nav.locator("[aria-current]")).toHaveCount(1);

    await expect(nav.getByText(`${account.firstName} ${account.lastName}`)).toBeVisible();
    await expect(nav.getByText(account.email)).toBeVisible();
    await expect(nav.getByRole("button", { name: "Log out" })).toBeVisible();
    await expect(nav.getByRole("link", { name: "Account settings" })).toHaveAttribute("href", "/settings");

    await nav.getByRole("link", { name: "Settings", exact: true }).click();
    await expect(page).toHaveURL(/\/settings$/);
    await expect(nav.getByRole("link", { name: "Settings", exact: true })).toHaveAttribute("aria-current", "page");
    await expect(nav.getByRole("link", { name: "Dashboard", exact: true })).not.toHaveAttribute("aria-current", "page");
    await expect(nav.locator("[aria-current]")).toHaveCount(1);
    // docs/product.md, Navigation shell: 'Dashboard' is the header title on the settings page.
    await expect(page.getByRole("banner")).toContainText("Dashboard");

    await nav.getByRole("button", { name: "Create New Persona" }).click();
    await expect(page).toHaveURL(/\/create-persona\??$/);
  });

  test("the header's avatar badge leads to the settings", async ({ page, request }) => {
    await signIn(page, await createAccount(request));
    await page.getByRole("banner").getByRole("link", { name: "Account settings" }).click();
    await expect(page).toHaveURL(/\/settings$/);
    await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
  });

  test("signed-out visitors are sent to sign in and brought back", async ({ page }) => {
    await visit(page, "/settings?tab=account");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fsettings%3Ftab%3Daccount$/);
  });
});

test.describe("mobile drawer", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("opens from the header's menu button, the one menu control, and navigates", async ({ page, request }) => {
    const account = await createAccount(request);
    await signIn(page, account);

    await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
    const mobile = page.getByRole("navigation", { name: "Mobile" });
    const opener = mobile.locator("summary");
    await expect(opener).toBeVisible();
    await expect(opener).toContainText("Open navigation");
    // In the header's top-left corner, and the only menu control on the screen.
    const box = (await opener.boundingBox())!;
    const header = (await page.getByRole("banner").boundingBox())!;
    expect(box.x).toBeLessThan(24);
    expect(box.y).toBeGreaterThanOrEqual(header.y);
    expect(box.y + box.height).toBeLessThanOrEqual(header.y + header.height);
    await expect(page.getByRole("button", { name: /menu|navigation/i })).toHaveCount(0);

    await expect(mobile.getByRole("link", { name: "My Personas" })).toBeHidden();
    await opener.click();
    await expect(mobile.getByRole("link", { name: "Dashboard", exact: true })).toHaveAttribute("aria-current", "page");
    await expect(mobile.getByRole("link", { name: "My Personas" })).toBeVisible();
    await expect(mobile.getByRole("button", { name: "Create New Persona" })).toBeVisible();
    await expect(mobile.getByText(account.email)).toBeVisible();
    await expect(mobile.getByRole("button", { name: "Log out" })).toBeVisible();
    await expectNoA11yViolations(page);

    // The same control closes it, now named so.
    await expect(opener).toContainText("Close navigation");
    await opener.click();
    await expect(mobile.getByRole("link", { name: "My Personas" })).toBeHidden();

    await opener.click();
    await mobile.getByRole("link", { name: "Settings", exact: true }).click();
    await expect(page).toHaveURL(/\/settings$/);
    await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
    // Navigating closes the drawer.
    await expect(mobile.getByRole("link", { name: "My Personas" })).toBeHidden();
  });
});

test.describe("settings", () => {
  test("tabs are links; each tab is axe-clean", async ({ page, request }) => {
    await signIn(page, await createAccount(request));
    await visit(page, "/settings");
    const tabs = page.getByRole("navigation", { name: "Settings sections" });
    await expect(tabs.getByRole("link", { name: "Profile" })).toHaveAttribute("aria-current", "page");
    await expectNoA11yViolations(page);

    await tabs.getByRole("link", { name: "Notifications" }).click();
    await expect(page).toHaveURL(/\/settings\?tab=notifications$/);
    await expect(tabs.getByRole("link", { name: "Notifications" })).toHaveAttribute("aria-current", "page");
    await expect(page.getByRole("switch")).toHaveCount(4);
    await expectNoA11yViolations(page);

    await tabs.getByRole("link", { name: "Account" }).click();
    await expect(page).toHaveURL(/\/settings\?tab=account$/);
    await expect(page.getByRole("heading", { name: "Change password" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Delete account" })).toBeVisible();
    await expect(page.getByText("Must contain uppercase, lowercase, number, and special character")).toBeVisible();
    await expectNoA11yViolations(page);
  });

  test("the profile saves with a toast and the new name shows in the user panel", async ({ page, request }) => {
    const account = await createAccount(request);
    await signIn(page, account);
    await visit(page, "/settings");

    // The e-mail address and the picture are managed by the sign-in provider.
    const email = page.getByLabel("E-mail");
    await expect(email).toHaveValue(account.email);
    await expect(email).not.toBeEditable();
    await expect(page.getByText("Profile picture")).toBeVisible();

    await page.getByLabel("First name").fill("Katherine");
    await page.getByLabel("Last name").fill("Johnson");
    await page.getByRole("button", { name: "Save Changes" }).click();

    await expect(page.getByTestId("toast")).toContainText("Profile Updated");
    await expect(page).toHaveURL(/\/settings\?tab=profile$/);
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByText("Katherine Johnson")).toBeVisible();
    await expect(page.getByLabel("First name")).toHaveValue("Katherine");
    await expect(page.getByLabel("Last name")).toHaveValue("Johnson");
  });

  test("a one-letter first name is refused with the spec's message", async ({ page, request, jsEnabled }) => {
    const account = await createAccount(request);
    await signIn(page, account);
    await visit(page, "/settings");

    await page.getByLabel("First name").fill("K");
    await page.getByLabel("Last name").fill("Lamarr");
    await page.getByRole("button", { name: "Save Changes" }).click();

    await expect(page.getByText("First name must be at least 2 characters")).toBeVisible();
    await expect(page.getByLabel("First name")).toHaveAttribute("aria-invalid", "true");
    // What was typed stays in the form; nothing was saved.
    await expect(page.getByLabel("First name")).toHaveValue("K");
    await expect(page.getByLabel("Last name")).toHaveValue("Lamarr");
    if (!jsEnabled) await expect(page.getByRole("alert").filter({ hasText: "Profile not saved" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Main" }).getByText(`${account.firstName} ${account.lastName}`)).toBeVisible();
    await expectNoA11yViolations(page);
  });

  test("notification switches save and persist after a reload", async ({ page, request }) => {
    await signIn(page, await createAccount(request));
    await visit(page, "/settings?tab=notifications");

    const personaCreation = page.getByRole("switch", { name: "Persona creation" });
    const productNews = page.getByRole("switch", { name: "Product news" });
    // docs/product.md, Settings defaults: the three product notices on, marketing off.
    await expect(personaCreation).toBeChecked();
    await expect(page.getByRole("switch", { name: "Narrative generation" })).toBeChecked();
    await expect(page.getByRole("switch", { name: "Image generation" })).toBeChecked();
    await expect(productNews).not.toBeChecked();

    await personaCreation.uncheck();
    await productNews.check();
    await page.getByRole("button", { name: "Save Preferences" }).click();
    await expect(page.getByTestId("toast")).toContainText("Notification Preferences Updated");

    await visit(page, "/settings?tab=notifications");
    await expect(page.getByRole("switch", { name: "Persona creation" })).not.toBeChecked();
    await expect(page.getByRole("switch", { name: "Product news" })).toBeChecked();
    await expect(page.getByRole("switch", { name: "Image generation" })).toBeChecked();
  });

  test("changing the password needs the current one, then keeps this session only", async ({ page, request, jsEnabled }) => {
    const account = await createAccount(request);
    await signIn(page, account);
    await visit(page, "/settings?tab=account");
    const newPassword = strongPassword();
    // The delete form asks for the current password too: each form's fields by its section.
    const changeForm = page.getByRole("region", { name: "Change password" });

    await changeForm.getByLabel("Current password", { exact: true }).fill("Wrong@pass1");
    await changeForm.getByLabel("New password", { exact: true }).fill(newPassword);
    await page.getByRole("button", { name: "Change Password" }).click();
    await expect(changeForm.getByText("Current password is incorrect", { exact: true })).toBeVisible();
    await expect(changeForm.getByLabel("Current password", { exact: true })).toHaveAttribute("aria-invalid", "true");
    // A password is never sent back into the page (with JavaScript the typed one simply stays).
    if (!jsEnabled) await expect(changeForm.getByLabel("New password", { exact: true })).toHaveValue("");

    await changeForm.getByLabel("Current password", { exact: true }).fill(account.password);
    await changeForm.getByLabel("New password", { exact: true }).fill("short");
    await page.getByRole("button", { name: "Change Password" }).click();
    await expect(page.getByText("Password must be at least 8 characters")).toBeVisible();

    await changeForm.getByLabel("Current password", { exact: true }).fill(account.password);
    await changeForm.getByLabel("New password", { exact: true }).fill(newPassword);
    await page.getByRole("button", { name: "Change Password" }).click();
    const toast = page.getByTestId("toast");
    await expect(toast).toContainText("Password Changed");
    await expect(toast).toContainText("Your other sessions have been signed out.");
    await expect(page).toHaveURL(/\/settings\?tab=account$/);
    await expect(changeForm.getByLabel("Current password", { exact: true })).toHaveValue("");
    await expect(changeForm.getByLabel("New password", { exact: true })).toHaveValue("");

    // Still signed in here; the token from before the change no longer works.
    await visit(page, "/dashboard");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Welcome, ${account.firstName}!`);
    const old = await request.get("/api/auth/user", { headers: { Authorization: `Bearer ${account.token}` } });
    expect(old.status()).toBe(401);
    const relogin = await request.post("/api/auth/login", { data: { email: account.email, password: newPassword } });
    expect(relogin.status()).toBe(200);
  });

  test("deleting the account needs the exact e-mail and the current password, then signs out", async ({ page, request, jsEnabled }) => {
    const account = await createAccount(request);
    await signIn(page, account);
    await visit(page, "/settings?tab=account");

    const deleteForm = page.getByRole("region", { name: "Delete account" });
    const confirm = deleteForm.getByLabel("Type your e-mail address to confirm");
    const currentPassword = deleteForm.getByLabel("Current password", { exact: true });
    await confirm.fill(`x${account.email}`);
    await currentPassword.fill(account.password);
    await deleteForm.getByRole("button", { name: "Delete Account" }).click();
    await expect(page.getByText("Type your e-mail address exactly to confirm")).toBeVisible();
    await expect(confirm).toHaveAttribute("aria-invalid", "true");
    await expect(page).toHaveURL(/\/settings\?tab=account$/);

    await confirm.fill(account.email);
    await currentPassword.fill("Wrong@pass1");
    await deleteForm.getByRole("button", { name: "Delete Account" }).click();
    await expect(deleteForm.getByText("Current password is incorrect", { exact: true })).toBeVisible();
    await expect(currentPassword).toHaveAttribute("aria-invalid", "true");
    if (!jsEnabled) await expect(currentPassword).toHaveValue("");
    await expect(page).toHaveURL(/\/settings\?tab=account$/);
    const stillThere = await request.post("/api/auth/login", { data: { email: account.email, password: account.password } });
    expect(stillThere.status()).toBe(200);

    await confirm.fill(account.email);
    await currentPassword.fill(account.password);
    await deleteForm.getByRole("button", { name: "Delete Account" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId("toast")).toContainText("Account Deleted");

    await visit(page, "/dashboard");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fdashboard$/);
    const login = await request.post("/api/auth/login", { data: { email: account.email, password: account.password } });
    expect(login.status()).toBe(401);
  });
});
