import { expect, expectNoA11yViolations, test, visit } from "./support";

test.describe("contact", () => {
  test("required fields are checked with the spec's message", async ({ page, jsEnabled }) => {
    await visit(page, "/contact");
    await expectNoA11yViolations(page);
    await page.getByLabel("Subject").fill("Only a subject");
    await page.getByRole("button", { name: "Send message" }).click();

    if (jsEnabled) {
      const toast = page.getByTestId("toast");
      await expect(toast).toContainText("Missing information");
      await expect(toast).toContainText("Please fill in all required fields.");
    } else {
      const alert = page.getByRole("alert");
      await expect(alert).toContainText("Missing information");
      await expect(alert).toContainText("Please fill in all required fields.");
      // What was typed survives the round trip.
      await expect(page.getByLabel("Subject")).toHaveValue("Only a subject");
    }
    await expect(page.getByLabel("Name")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("Message")).toHaveAttribute("aria-invalid", "true");
    await expectNoA11yViolations(page);
  });

  test("an invalid e-mail gets 'Invalid email address'", async ({ page }) => {
    await visit(page, "/contact");
    await page.getByLabel("Name").fill("Ada");
    await page.getByLabel("E-mail").fill("not-an-address");
    await page.getByLabel("Message").fill("Hello");
    await page.getByRole("button", { name: "Send message" }).click();
    await expect(page.getByText("Invalid email address")).toBeVisible();
  });

  test("submitting opens the mail client with the message filled in", async ({ page, jsEnabled }) => {
    await visit(page, "/contact");
    await page.getByLabel("Name").fill("Ada Lovelace");
    await page.getByLabel("E-mail").fill("ada@example.com");
    await page.getByLabel("Message").fill("I love the wizard & the exports!");
    await page.getByRole("button", { name: "Send message" }).click();

    const status = page.getByRole("status").filter({ hasText: "Email client opened" });
    await expect(status).toBeVisible();
    const mailto = await status.getByRole("link").getAttribute("href");
    expect(mailto).toMatch(/^mailto:hello@personaforge\.app\?subject=/);
    const url = new URL(mailto!);
    expect(url.searchParams.get("subject")).toBe("Message from Ada Lovelace");
    expect(url.searchParams.get("body")).toContain("I love the wizard & the exports!");
    expect(url.searchParams.get("body")).toContain("Ada Lovelace <ada@example.com>");

    if (jsEnabled) {
      await expect(page.getByTestId("toast")).toContainText("Email client opened");
    } else {
      // The server's answer sends the browser on to the mail client by itself.
      await expect(page.locator('meta[http-equiv="refresh"]')).toHaveAttribute("content", `0;url=${mailto}`);
    }
  });

  test("links to sign in through /api/login", async ({ page }) => {
    await visit(page, "/contact");
    const link = page.locator("#main").getByRole("link", { name: "Sign in", exact: true });
    await expect(link).toHaveAttribute("href", "/api/login");
    await link.click();
    // /api/login is a browser navigation to the sign-in screen.
    await expect(page).toHaveURL(/\/login$/);
  });
});
