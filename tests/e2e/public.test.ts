import { createAccount, expect, expectNoA11yViolations, signIn, test, visit, VIEWPORTS } from "./support";

test.describe("landing page", () => {
  test("shows the header, hero, features, sample chat, pricing, call to action and footer", async ({ page }) => {
    const response = await visit(page, "/");
    expect(response?.status()).toBe(200);

    const header = page.getByRole("banner");
    for (const name of ["Features", "Pricing", "Contact", "Sign In", "Get Started"]) {
      await expect(header.getByRole("link", { name, exact: true }).first()).toBeAttached();
    }
    await expect(page.getByText("Beta", { exact: true }).first()).toBeVisible();
    await expect(page.getByRole("heading", { level: 1 })).toContainText("AI characters");
    await expect(page.getByRole("heading", { name: "Everything a persona needs" })).toBeVisible();
    await expect(page.getByRole("figure", { name: /Luna/ })).toContainText("What are you streaming tonight?");

    const pricing = page.locator("#pricing");
    await expect(pricing.getByRole("article", { name: "Free" })).toContainText("$0");
    await expect(pricing.getByRole("article", { name: "Free" })).toContainText("Up to 10 personas");
    const premium = pricing.getByRole("article", { name: "Premium" });
    await expect(premium).toContainText("$9.99");
    await expect(premium).toContainText("Unlimited personas");
    await expect(premium).toContainText("May be limited by traffic");
    for (const included of ["Narratives of 800+ words", "Reference images in 5 styles", "Interactive chat"]) {
      await expect(premium).toContainText(included);
    }

    const footer = page.getByRole("contentinfo");
    for (const [name, href] of [
      ["Privacy Policy", "/privacy-policy"],
      ["Terms of Service", "/terms-of-service"],
      ["Commerce Disclosure", "/commerce-disclosure"],
      ["Contact", "/contact"],
    ]) {
      await expect(footer.getByRole("link", { name, exact: true })).toHaveAttribute("href", href);
    }
    await expectNoA11yViolations(page);
  });

  test("Get Started leads to registration and Sign In to login", async ({ page }) => {
    await visit(page, "/");
    await expect(page.getByRole("banner").getByRole("link", { name: "Get Started" }).first()).toHaveAttribute("href", "/register");
    await expect(page.getByRole("banner").getByRole("link", { name: "Sign In" }).first()).toHaveAttribute("href", "/login");
  });

  test("the mobile menu opens without a script", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 800 });
    await visit(page, "/");
    await page.locator("summary", { hasText: "Menu" }).click();
    const mobileNav = page.getByRole("navigation", { name: "Mobile" });
    await expect(mobileNav.getByRole("link", { name: "Contact" })).toBeVisible();
    await mobileNav.getByRole("link", { name: "Contact" }).click();
    await expect(page).toHaveURL(/\/contact$/);
    await expect(page.getByRole("heading", { name: "Contact us" })).toBeVisible();
  });
});

test.describe("legal pages", () => {
  for (const [path, heading] of [
    ["/privacy-policy", /Privacy Policy/],
    ["/terms-of-service", /Terms of Service/],
    ["/commerce-disclosure", /Commerce Disclosure/],
  ] as const) {
    test(`${path} is complete, reachable from the footer and accessible`, async ({ page }) => {
      await visit(page, "/");
      await page.getByRole("contentinfo").getByRole("link", { name: heading }).click();
      await expect(page).toHaveURL(new RegExp(`${path}$`));
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
      await expect(page.getByText(/Last updated/i).first()).toBeVisible();
      expect((await page.locator("#main").innerText()).split(/\s+/).length).toBeGreaterThan(200);
      await expectNoA11yViolations(page);
    });
  }

  test("the commerce disclosure carries the commerce notes", async ({ page }) => {
    await visit(page, "/commerce-disclosure");
    const main = page.locator("#main");
    await expect(main).toContainText(/within 7 days/i);
    await expect(main).toContainText(/10:00.18:00/);
    await expect(main).toContainText(/weekdays/i);
    await expect(main).toContainText(/immediately/i);
    await expect(main).toContainText(/refunds are generally not accepted/i);
    await expect(main).toContainText("$9.99");
  });
});

test.describe("not found", () => {
  test("an unknown path answers 404 with the spec's text", async ({ page }) => {
    const response = await visit(page, "/no/such/page");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "404 Page Not Found" })).toBeVisible();
    await expect(page.getByText("Did you forget to add the page to the router?")).toBeVisible();
    await expectNoA11yViolations(page);
  });
});

test.describe("bad requests get a clear 4xx, never a 500", () => {
  test("a wrong method answers 405 without a stack trace", async ({ request }) => {
    const response = await request.post("/", { form: { anything: "x" } });
    expect(response.status()).toBe(405);
    const body = await response.text();
    // No stack trace, no server paths.
    expect(body).not.toMatch(/\bat \S+ \(|node_modules|\.(?:js|ts):\d+:\d+/);
    expect(body).toContain("Method not allowed");
  });

  test("an oversized body answers 413", async ({ request }) => {
    const response = await request.post("/contact", {
      form: { name: "Ada", email: "ada@example.com", message: "x".repeat(200_000) },
    });
    expect(response.status()).toBe(413);
    expect(await response.text()).toContain("Request too large");
  });

  test("a body that is not a form answers 415", async ({ request }) => {
    const response = await request.post("/contact", { data: { name: "Ada" } });
    expect(response.status()).toBe(415);
  });

  test("a post to an unknown path answers 404", async ({ request }) => {
    const response = await request.post("/no/such/page", { form: { a: "b" } });
    expect(response.status()).toBe(404);
  });
});

for (const [size, viewport] of Object.entries(VIEWPORTS)) {
  test.describe(`at ${viewport.width}×${viewport.height} (${size})`, () => {
    test.use({ viewport });
    test("/pricing and /features go to the landing page's sections", async ({ page }) => {
      await visit(page, "/pricing");
      await expect(page).toHaveURL(/\/#pricing$/);
      await expect(page.locator("#pricing-heading")).toBeInViewport();
      await visit(page, "/features");
      await expect(page).toHaveURL(/\/#features$/);
      await expect(page.locator("#features-heading")).toBeInViewport();
    });

    test("a signed-in /pricing lands on the plans of /subscription", async ({ page, request }) => {
      await signIn(page, await createAccount(request));
      await visit(page, "/pricing");
      await expect(page).toHaveURL(/\/subscription#plans$/);
      await expect(page.locator("#plans-heading")).toBeInViewport();
    });
  });
}
