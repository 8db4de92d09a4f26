// Reference images with JavaScript: a style that cannot be saved says 'Update Failed' and goes
// back; a generation that fails says 'Image Generation Failed' with the reason.
import type { Page } from "@playwright/test";

import { createAccount, expect, personaBody, signIn, test, visit } from "./support";

const toast = (page: Page) => page.getByTestId("toast").last();

test("a style the server refuses: 'Update Failed' and the selector goes back", async ({ page, request }) => {
  const account = await createAccount(request);
  const persona = await (
    await request.post("/api/personas", { headers: { Authorization: `Bearer ${account.token}` }, data: personaBody("Refused Style") })
  ).json();
  await signIn(page, account);
  await visit(page, `/persona/${persona.id}`);
  await page.route(`**/api/personas/${persona.id}/image-style`, (route) =>
    route.fulfill({ status: 500, contentType: "application/json", body: "{}" }),
  );
  await page.getByLabel("Image style").selectOption("cinematic");
  await expect(toast(page)).toContainText("Update Failed");
  await expect(toast(page)).toContainText("Could not update image style. Please try again.");
  await expect(page.getByLabel("Image style")).toHaveValue("photorealistic");
});

test("a failed generation: 'Image Generation Failed' with the reason, and Generate again", async ({ page, request }) => {
  const account = await createAccount(request);
  const persona = await (
    await request.post("/api/personas", { headers: { Authorization: `Bearer ${account.token}` }, data: personaBody("Failing Images") })
  ).json();
  await signIn(page, account);
  await visit(page, `/persona/${persona.id}`);
  // The server starts (202); the poll then finds the job failed.
  let polls = 0;
  await page.route(`**/api/personas/${persona.id}`, async (route) => {
    if (route.request().method() !== "GET") return route.continue();
    polls += 1;
    const response = await route.fetch();
    const body = await response.json();
    await route.fulfill({
      response,
      json: {
        ...body,
        imageUrl: null,
        imageGeneration: {
          status: "failed",
          style: "photorealistic",
          error: "Your request was rejected by the safety system.",
          startedAt: new Date().toISOString(),
        },
      },
    });
  });
  await page.getByRole("button", { name: "Generate Reference Image" }).click();
  await expect(page.getByText("Image Generation Started")).toBeVisible();
  await expect(toast(page)).toContainText("There was an error generating reference images. Please try again.", { timeout: 10_000 });
  await expect(toast(page)).toContainText("Your request was rejected by the safety system.");
  expect(polls).toBeGreaterThan(0);
});

test("polling stops after 60 seconds with 'Image Generation Status' and a way to refresh", async ({ page, request }) => {
  const account = await createAccount(request);
  const persona = await (
    await request.post("/api/personas", { headers: { Authorization: `Bearer ${account.token}` }, data: personaBody("Slow Images") })
  ).json();
  await page.clock.install();
  await signIn(page, account);
  await visit(page, `/persona/${persona.id}`);
  // The server says 'generating' on every poll.
  await page.route(`**/api/personas/${persona.id}`, async (route) => {
    if (route.request().method() !== "GET") return route.continue();
    const response = await route.fetch();
    const body = await response.json();
    await route.fulfill({
      response,
      json: {
        ...body,
        imageGeneration: { status: "generating", style: "photorealistic", error: null, startedAt: new Date().toISOString() },
      },
    });
  });
  await page.route(`**/api/personas/${persona.id}/generate-images`, (route) =>
    route.fulfill({
      status: 202,
      json: {
        message: "started",
        imageGeneration: { status: "generating", style: "photorealistic", error: null, startedAt: new Date().toISOString() },
      },
    }),
  );
  await page.getByRole("button", { name: "Generate Reference Image" }).click();
  await expect(page.getByTestId("image-box").getByText("This may take up to 30 seconds")).toBeVisible();
  await page.clock.fastForward(30_000);
  await expect(page.getByTestId("image-box").getByText("This may take up to 30 seconds")).toBeVisible();
  await page.clock.fastForward(31_000);
  await page.clock.fastForward(3_000);
  await expect(toast(page)).toContainText("Image Generation Status");
  await expect(page.getByTestId("image-box").getByRole("link", { name: "Refresh" })).toBeVisible();
  // A poll still being answered by the stub when the test ends is not an error of the page.
  await page.unrouteAll({ behavior: "ignoreErrors" });
});
