// Reference images (docs/product.md, Reference images), with JavaScript and without: pick a style (saved at once with
// JavaScript, with Save without), generate, see the images appear (polling with JavaScript,
// the page refreshing itself without), download the image, export the card with it as its
// picture; a draft is told to complete creation first; another creator gets 404 for the image.
import type { Page } from "@playwright/test";
import sharp from "sharp";

import { createAccount, expect, expectNoA11yViolations, personaBody, signIn, test, visit } from "./support";

const toast = (page: Page) => page.getByTestId("toast").last();

test.describe("reference images", () => {
  test("pick a style, generate, see the images, download the image and the card", async ({ page, request, jsEnabled }) => {
    test.setTimeout(60_000);
    const account = await createAccount(request);
    const auth = { Authorization: `Bearer ${account.token}` };
    const persona = await (await request.post("/api/personas", { headers: auth, data: personaBody("Nova Quinn") })).json();
    await signIn(page, account);
    await visit(page, `/persona/${persona.id}`);

    const box = page.getByTestId("image-box");
    await expect(box.getByText("No reference image yet")).toBeVisible();
    const style = page.getByLabel("Image style");
    await expect(style).toHaveValue("photorealistic");
    await expect(style.locator("option")).toHaveText(["Photorealistic", "Anime", "Digital Art", "Cinematic", "Minimalist"]);
    await expectNoA11yViolations(page);

    // Choosing a style saves it: at once with JavaScript, with Save without.
    if (jsEnabled) {
      const saved = page.waitForResponse(
        (r) => r.url().endsWith(`/api/personas/${persona.id}/image-style`) && r.request().method() === "PATCH",
      );
      await style.selectOption("anime");
      expect((await saved).status()).toBe(200);
      await expect(page.getByRole("button", { name: "Save" })).toHaveCount(0);
    } else {
      await style.selectOption("anime");
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await expect(toast(page)).toContainText("Image Style Saved");
      await expect(page.getByLabel("Image style")).toHaveValue("anime");
    }
    expect((await (await request.get(`/api/personas/${persona.id}`, { headers: auth })).json()).imageStyle).toBe("anime");

    await page.getByRole("button", { name: "Generate Reference Image" }).click();
    if (jsEnabled) {
      await expect(page.getByText("Image Generation Started")).toBeVisible();
      await expect(box.getByText("This may take up to 30 seconds")).toBeVisible();
    }
    // Polling (JavaScript) or the page refreshing itself (no JavaScript) brings the images.
    const image = box.getByRole("img", { name: "Reference image of Nova Quinn", exact: true });
    await expect(image).toBeVisible({ timeout: 20_000 });
    await expect(page.getByText("Image Generation Complete")).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/persona/${persona.id}$`));
    await expect(image).toHaveAttribute("width", "768");
    await expect(image).toHaveAttribute("srcset", /384w.*768w/);
    // It loads (the owner's cookie opens the image route).
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    const images = page.getByRole("region", { name: "Reference Images" });
    await expect(images.getByRole("img", { name: "Second reference image of Nova Quinn" })).toBeVisible();
    await expect(images.getByText("Primary image")).toBeVisible();
    await expect(images.getByText("Secondary image")).toBeVisible();
    // The style selector stays, to regenerate in another style later.
    await expect(page.getByRole("button", { name: "Regenerate Images" })).toBeVisible();
    await expectNoA11yViolations(page);

    // The Download menu's Reference Image: a JPEG named after the persona.
    const menu = page.getByTestId("download-menu");
    await menu.getByText("Download").click();
    const download = page.waitForEvent("download");
    await menu.getByRole(jsEnabled ? "menuitem" : "link", { name: "Reference Image", exact: true }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe("Nova_Quinn_image.jpg");
    const jpeg = await sharp(await file.path()).metadata();
    expect(jpeg).toMatchObject({ format: "jpeg", width: 768, height: 768 });

    // The card's picture is the reference image (PNG).
    const card = await page.request.get(`/api/personas/${persona.id}/export?format=card-png`);
    expect(card.headers()["content-type"]).toBe("image/png");
    const picture = await sharp(await card.body())
      .resize(8, 8)
      .raw()
      .toBuffer();
    const reference = await sharp(await file.path())
      .resize(8, 8)
      .raw()
      .toBuffer();
    const diff = picture.reduce((sum, v, i) => sum + Math.abs(v - reference[i]!), 0) / picture.length;
    expect(diff).toBeLessThan(12);

    // Another creator, and a signed-out visitor, get 404 for the image's address.
    const src = (await (await request.get(`/api/personas/${persona.id}`, { headers: auth })).json()).imageUrl as string;
    expect((await page.request.get(src)).status()).toBe(200);
    const stranger = await createAccount(request);
    expect((await request.get(src, { headers: { Authorization: `Bearer ${stranger.token}` } })).status()).toBe(404);
    expect((await request.get(src)).status()).toBe(404);
  });

  test("a draft is told to complete creation before generating images", async ({ page, request }) => {
    const account = await createAccount(request);
    const draft = await (
      await request.post("/api/personas/draft", { headers: { Authorization: `Bearer ${account.token}` }, data: { name: "Sketchy" } })
    ).json();
    await signIn(page, account);
    await visit(page, `/persona/${draft.id}`);
    await expect(page.getByTestId("image-box").getByText("Complete creation before generating images")).toBeVisible();
    await expect(page.getByRole("region", { name: "Reference Images" })).toContainText("Complete creation before generating images");
    await expect(page.getByRole("button", { name: "Generate Reference Image" })).toHaveCount(0);
  });
});
