// Notification e-mails (docs/product.md, Settings), with JavaScript and without: with 'Image
// generation' on, a reference image generated and the page left, its mail arrives in the outbox
// (at once, or in the digest when the page was still polling); with it off, a second generation
// mails nothing; a created persona arrives in the digest. The e2e server's digest interval is a
// few seconds (NOTIFY_DIGEST_INTERVAL_MS in tests/playwright.config.ts).
import type { APIRequestContext, Page } from "@playwright/test";

import { createAccount, expect, expectNoA11yViolations, mailsTo, personaBody, signIn, test, visit, type OutboxMail } from "./support";

const SETTINGS_LINK = /\/settings\?tab=notifications#notifications/;

async function setImageSwitch(page: Page, on: boolean) {
  await visit(page, "/settings?tab=notifications");
  const notifications = page.locator("#notifications");
  await expect(notifications.getByText("We send no marketing e-mails yet; this keeps your choice for when we do.")).toBeVisible();
  await notifications.getByRole("switch", { name: "Image generation" }).setChecked(on);
  await notifications.getByRole("button", { name: "Save Preferences" }).click();
  await expect(page.getByTestId("toast").last()).toContainText("Notification Preferences Updated");
  await expect(page.getByRole("switch", { name: "Image generation" })).toBeChecked({ checked: on });
}

/** The mails to the creator that say the persona's reference images are ready (at once, or a digest line). */
const imageMails = (email: string, name: string) =>
  mailsTo(email).filter(
    (m) => m.text.includes(`The reference images of ${name} are ready.`) || m.text.includes(`Reference images ready: ${name}`),
  );

async function generateAndLeave(page: Page, personaId: string, button: string, jsEnabled: boolean) {
  await visit(page, `/persona/${personaId}`);
  await page.getByRole("button", { name: button }).click();
  if (jsEnabled) await expect(page.getByText("Image Generation Started")).toBeVisible();
  else await expect(page).toHaveURL(new RegExp(`/persona/${personaId}\\?image=started`));
  // The creator leaves the persona's page.
  await visit(page, "/dashboard");
}

async function jobFinished(request: APIRequestContext, token: string, personaId: string) {
  await expect
    .poll(
      async () => {
        const response = await request.get(`/api/personas/${personaId}`, { headers: { Authorization: `Bearer ${token}` } });
        return ((await response.json()) as { imageGeneration: { status: string } }).imageGeneration.status;
      },
      { timeout: 20_000 },
    )
    .not.toBe("generating");
}

test.describe("notification e-mails", () => {
  test("'Image generation' mails a finished image once the creator has left, nothing when off; a new persona arrives in the digest", async ({
    page,
    request,
    jsEnabled,
  }) => {
    test.setTimeout(90_000);
    const account = await createAccount(request);
    const auth = { Authorization: `Bearer ${account.token}` };
    const persona = (await (await request.post("/api/personas", { headers: auth, data: personaBody("Nell Ortiz") })).json()) as {
      id: string;
    };
    await signIn(page, account);

    await setImageSwitch(page, true);
    await expectNoA11yViolations(page);
    await generateAndLeave(page, persona.id, "Generate Reference Image", jsEnabled);
    let mail: OutboxMail | undefined;
    await expect
      .poll(() => (mail = imageMails(account.email, "Nell Ortiz")[0]) !== undefined, { timeout: 30_000, message: "the images mail" })
      .toBe(true);
    expect(mail!.text).toMatch(SETTINGS_LINK);
    expect(mail!.text).toContain(`/persona/${persona.id}`);
    const imageMailsBefore = imageMails(account.email, "Nell Ortiz").length;

    await setImageSwitch(page, false);
    await generateAndLeave(page, persona.id, "Regenerate Images", jsEnabled);
    await jobFinished(request, account.token, persona.id);
    // A persona created now comes in a digest of its own, after any mail the second generation could have caused.
    const created = await request.post("/api/personas", { headers: auth, data: personaBody("Quin Soto") });
    expect(created.status()).toBe(201);
    let digest: OutboxMail | undefined;
    await expect
      .poll(() => (digest = mailsTo(account.email).find((m) => m.text.includes("Persona created: Quin Soto"))) !== undefined, {
        timeout: 30_000,
        message: "the digest naming Quin Soto",
      })
      .toBe(true);
    expect(digest!.subject).toBe("Your PersonaForge update: Quin Soto");
    expect(digest!.text).toMatch(SETTINGS_LINK);
    expect(digest!.text).not.toContain("Reference images");
    expect(imageMails(account.email, "Nell Ortiz")).toHaveLength(imageMailsBefore);
  });
});
