// Persona tests (docs/product.md, Persona tests): suggest a suite and keep it, edit a probe, run it,
// break the persona with an edit and see the automatic run fail — on the tests page, the persona
// page, history and the library card — then fix it and see it pass; a refused probe keeps what was
// typed; chat replies say which version wrote them. With JavaScript and without.
import { createAccount, expect, expectNoA11yViolations, personaBody, signIn, test, visit } from "./support";

const toast = (page: import("@playwright/test").Page) => page.getByTestId("toast").last();

/** Waits for the run under way to end; without JavaScript the page refreshes itself meanwhile. */
async function runEnded(page: import("@playwright/test").Page, status: "passed" | "failed", text?: RegExp) {
  const summary = page.getByTestId("run-summary");
  await expect(page.getByTestId("run-pending")).toHaveCount(0, { timeout: 20_000 });
  await expect(summary).toHaveAttribute("data-status", status, { timeout: 20_000 });
  if (text) await expect(summary).toHaveText(text);
}

test("suggest, edit, run; an edit that breaks the persona fails its next run everywhere, and the fix passes", async ({
  page,
  request,
  jsEnabled,
}) => {
  test.slow();
  const account = await createAccount(request);
  const headers = { Authorization: `Bearer ${account.token}` };
  const voice = (catchphrases: string[]) => ({ greeting: "Heya, chat! Grab a blanket and stay a while.", catchphrases });
  const created = await request.post("/api/personas", { headers, data: personaBody("Kira Moon") });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const setVoice = async (catchphrases: string[]) =>
    expect(
      (await request.patch(`/api/personas/${id}`, { headers, data: personaBody("Kira Moon", { voice: voice(catchphrases) }) })).status(),
    ).toBe(200);
  await setVoice(["Stay cozy"]);

  await signIn(page, account);
  await visit(page, `/persona/${id}`);
  const section = page.getByRole("region", { name: "Tests" });
  await expect(section).toContainText("No probes yet");
  await section.getByRole("link", { name: "Suggest probes" }).click();
  await expect(page).toHaveURL(new RegExp(`/persona/${id}/tests$`));
  await expect(page.getByRole("heading", { level: 1, name: "Tests for Kira Moon" })).toBeVisible();
  await expect(page.getByText("Not run yet.")).toBeVisible();

  // Suggest: nothing stored until kept; drop one, keep the rest.
  await page.getByRole("button", { name: "Suggest probes" }).click();
  const suggestions = page.getByTestId("probe-suggestion");
  await expect(suggestions.first()).toBeVisible();
  const count = await suggestions.count();
  expect(count).toBeGreaterThanOrEqual(8);
  await expect(page.getByText("Probes (0)")).toBeVisible();
  await suggestions.filter({ hasText: "Keeps small talk short" }).getByRole("checkbox").uncheck();
  await page.getByRole("button", { name: "Keep selected probes" }).click();
  await expect(toast(page)).toContainText("Probes Added");
  const probes = page.getByTestId("probe");
  await expect(probes).toHaveCount(count - 1);
  await expectNoA11yViolations(page);

  // Edit one probe.
  await probes.filter({ hasText: "Knows their name" }).getByRole("link", { name: /^Edit/ }).click();
  await expect(page).toHaveURL(/\?edit=/);
  await page.getByLabel("Name", { exact: true }).fill("Knows her own name");
  await page.getByRole("button", { name: "Save Probe" }).click();
  await expect(toast(page)).toContainText("Probe Saved");
  await expect(probes.filter({ hasText: "Knows her own name" })).toHaveCount(1);

  // Run: every probe passes on the persona as it is.
  await page.getByRole("button", { name: "Run tests" }).click();
  await runEnded(page, "passed", new RegExp(`^Version \\d+: ${count - 1}/${count - 1}$`));
  await expect(page.locator('[data-testid="probe"][data-verdict="passed"]')).toHaveCount(count - 1);

  // Break it: the catchphrase changes; the new version runs by itself and fails.
  await setVoice(["Whatever"]);
  await visit(page, `/persona/${id}/tests`);
  await runEnded(page, "failed", /"Says their catchphrase" failed$/);
  const broken = probes.filter({ hasText: "Says their catchphrase" });
  await expect(broken).toHaveAttribute("data-verdict", "failed");
  await expect(broken.getByTestId("probe-failures")).toContainText("Must mention — expected one of 'Stay cozy'");

  await visit(page, `/persona/${id}`);
  await expect(page.getByTestId("tests-latest")).toHaveAttribute("data-status", "failed");
  await expect(page.getByTestId("tests-latest")).toContainText('"Says their catchphrase" failed');
  await visit(page, `/persona/${id}/history`);
  await expect(page.getByTestId("version-tests").first()).toHaveAttribute("data-status", "failed");
  await visit(page, "/my-personas");
  await expect(page.getByTestId("tests-badge")).toHaveAttribute("data-status", "failed");

  // Fix it: the next version passes again.
  await setVoice(["Stay cozy"]);
  await visit(page, `/persona/${id}/tests`);
  await runEnded(page, "passed");
  await visit(page, "/my-personas");
  await expect(page.getByTestId("tests-badge")).toHaveAttribute("data-status", "passed");

  // Chat replies say which version wrote them.
  await visit(page, `/persona/${id}?tab=chat`);
  await page.getByPlaceholder("Type a message...").fill("Hi!");
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(page.getByTestId("chat-message-version").last()).toHaveText(/· v\d+/);
  if (jsEnabled)
    await expect(page.getByTestId("chat-message-version").last().locator("abbr")).toHaveAttribute("title", /^Written with version \d+$/);
});

test("a refused probe names the field, keeps what was typed and stores nothing", async ({ page, request }) => {
  const account = await createAccount(request);
  const created = await request.post("/api/personas", {
    headers: { Authorization: `Bearer ${account.token}` },
    data: personaBody("Nova Park"),
  });
  const { id } = (await created.json()) as { id: string };
  await signIn(page, account);
  await visit(page, `/persona/${id}/tests`);

  const form = page.locator("#probe-form");
  if (!(await page.getByLabel("Name", { exact: true }).isVisible())) await form.getByText("Add Probe").first().click();
  await page.getByLabel("Name", { exact: true }).fill("Knows the city");
  await form.getByRole("button", { name: "Add Probe" }).click();
  await expect(page.getByText("Write the message to send")).toBeVisible();
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue("Knows the city");

  await page.getByLabel("Messages to send").fill("Where do you live?");
  await page.getByLabel("Must match").fill("(a+)+$");
  const started = Date.now();
  await form.getByRole("button", { name: "Add Probe" }).click();
  await expect(page.getByText("This pattern could take too long to match or is not a valid pattern: simplify it")).toBeVisible();
  expect(Date.now() - started).toBeLessThan(10_000);
  await expect(page.getByLabel("Messages to send")).toHaveValue("Where do you live?");
  await expect(page.getByText("Probes (0)")).toBeVisible();

  await page.getByLabel("Must match").fill("");
  await page.getByLabel("States the fact").selectOption({ label: "Current residence" });
  await form.getByRole("button", { name: "Add Probe" }).click();
  await expect(toast(page)).toContainText("Probe Added");
  await expect(page.getByTestId("probe")).toHaveCount(1);
  await expect(page.getByTestId("probe")).toContainText("States the fact: Current residence");
  await expectNoA11yViolations(page);
});
