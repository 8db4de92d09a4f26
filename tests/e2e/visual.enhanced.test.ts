// Visual snapshots of the main screens at 1280×800 and 390×844 (docs/decisions/009-toasts-in-the-header-and-a-layout-guard.md): an unintended change
// to how a screen looks fails the suite. The pictures live in tests/e2e/visual/ and are rewritten
// with `npm run test:visual:update` (one screen: `npm run test:visual:update -- -g "persona page"`).
// What differs from run to run is fixed or masked: the same account name and personas every
// time, relative times and dates, e-mail addresses, the seeded extended profile; the font is
// fixed by tests/e2e/visual/screenshot.css. JavaScript on only: the no-JS pages are the same
// server HTML, checked by the layout guard in both projects.
import type { Locator, Page } from "@playwright/test";

import { createAccount, expect, personaBody, signIn, test, visit, VIEWPORTS } from "./support";

const PERSONAS = [
  personaBody("Nova Lumen", {
    description: "A cheerful late-night streamer.",
    backstory: "Nova grew up between arcade lights.\n\nShe streams every night.",
  }),
  personaBody("Milo Weatherby", {
    type: "educator",
    gender: "male",
    ageRange: "35-44",
    interests: ["science", "education"],
    description: "Explains the weather with paper planes.",
    personality: ["Curious", "Calm"],
  }),
  personaBody("Iris Vale", {
    type: "artist",
    ageRange: "25-34",
    interests: ["art", "music"],
    description: "Paints cities at dawn.",
    personality: ["Creative", "Reflective", "Authentic"],
  }),
];

/** What changes between runs: relative times and dates, the e-mail address, the footer's year. */
function masks(page: Page): Locator[] {
  return [
    page.locator("time"),
    page.getByTestId("user-panel").locator("p.text-xs"),
    page.locator("input[type=email]"),
    page.locator("footer").getByText(/©/),
  ];
}

async function snap(page: Page, name: string, extra: Locator[] = [], fullPage = true) {
  await expect(page).toHaveScreenshot(`${name}.png`, { fullPage, mask: [...masks(page), ...extra] });
}

for (const [size, viewport] of Object.entries(VIEWPORTS)) {
  test.describe(`visual ${size}`, () => {
    test.use({ viewport });

    test(`landing (${size})`, async ({ page }) => {
      await visit(page, "/");
      await snap(page, `landing-${size}`);
    });

    test(`signed-in screens: dashboard, library, wizard steps, settings, subscription (${size})`, async ({ page, request }) => {
      test.slow();
      const account = await createAccount(request, { firstName: "Ada", lastName: "Lovelace" });
      for (const body of PERSONAS) {
        const res = await request.post("/api/personas", { headers: { Authorization: `Bearer ${account.token}` }, data: body });
        expect(res.status()).toBe(201);
      }
      await signIn(page, account);
      await snap(page, `dashboard-${size}`);

      await visit(page, "/my-personas");
      await snap(page, `library-${size}`);

      await visit(page, "/settings");
      await snap(page, `settings-${size}`);

      await visit(page, "/subscription");
      await snap(page, `subscription-${size}`);

      await visit(page, "/create-persona");
      await snap(page, `wizard-1-basic-info-${size}`);
      await page.getByLabel("Name", { exact: true }).fill("Nova Lumen");
      await page.getByLabel("Type").selectOption("vtuber");
      await page.getByLabel("Female", { exact: true }).check();
      await page.getByLabel("Age Range").selectOption("18-24");
      await page.getByLabel("Gaming", { exact: true }).check();
      await page.getByLabel("Music", { exact: true }).check();
      await page.getByLabel("Short description").fill("A cheerful late-night streamer.");
      await page.getByRole("button", { name: "Continue", exact: true }).click();
      for (const trait of ["Outgoing", "Creative", "Calm"]) await page.getByLabel(trait, { exact: true }).check();
      await page.evaluate(() => window.scrollTo(0, 0));
      await snap(page, `wizard-2-personality-${size}`);
      await page.getByRole("button", { name: "Continue", exact: true }).click();
      await page.getByLabel(/^Backstory/).fill("Nova grew up between arcade lights.\n\nShe streams every night.");
      await page.evaluate(() => window.scrollTo(0, 0));
      await snap(page, `wizard-3-backstory-${size}`);
      await page.getByRole("button", { name: "Continue", exact: true }).click();
      await expect(page.getByRole("button", { name: "Create Persona" })).toBeVisible();
      await page.evaluate(() => window.scrollTo(0, 0));
      await snap(page, `wizard-4-review-${size}`);
    });

    test(`the header with a toast below it (${size})`, async ({ page, request }) => {
      const account = await createAccount(request, { firstName: "Ada", lastName: "Lovelace" });
      await signIn(page, account);
      await visit(page, "/settings");
      await page.getByRole("button", { name: "Save Changes" }).click();
      const toast = page.getByTestId("toast").last();
      await expect(toast).toContainText("Profile Updated");
      // The top of the page: the sticky header, then the toast in the page's flow, then the page.
      await expect(page).toHaveScreenshot(`header-with-toast-${size}.png`, {
        clip: { x: 0, y: 0, width: viewport.width, height: 300 },
        mask: masks(page),
      });
    });

    test(`persona page (${size})`, async ({ page, request }) => {
      const account = await createAccount(request, { firstName: "Ada", lastName: "Lovelace" });
      const res = await request.post("/api/personas", { headers: { Authorization: `Bearer ${account.token}` }, data: PERSONAS[0] });
      const persona = await res.json();
      await signIn(page, account);
      await visit(page, `/persona/${persona.id}`);
      // The extended profile is drawn from the persona's id: masked. The viewport only, so the
      // picture's size does not follow the profile's length.
      await snap(page, `persona-page-${size}`, [page.getByRole("region", { name: "Extended Persona Profile" })], false);
    });
  });
}
