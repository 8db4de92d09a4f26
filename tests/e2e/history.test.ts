// Persona history (docs/product.md, History), with JavaScript and without: edit twice, open the history from
// the persona page, compare, restore (a dialog with JavaScript, a confirmation page without),
// see the new version. And the JSON API: list, one version, compare, restore, bad numbers,
// other users' ids, methods.
import type { Page } from "@playwright/test";

import { createAccount, expect, expectNoA11yViolations, personaBody, signIn, test, visit, VIEWPORTS, type Account } from "./support";

const toast = (page: Page) => page.getByTestId("toast").last();
const auth = (account: Account) => ({ Authorization: `Bearer ${account.token}` });

async function editName(page: Page, personaId: string, name: string) {
  await visit(page, `/persona/${personaId}/edit`);
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(page).toHaveURL(new RegExp(`/persona/${personaId}$`));
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
}

async function generatedImages(request: import("@playwright/test").APIRequestContext, account: Account, personaId: string) {
  const before = (
    (await (await request.get(`/api/personas/${personaId}`, { headers: auth(account) })).json()) as { imageUrl: string | null }
  ).imageUrl;
  expect((await request.post(`/api/personas/${personaId}/generate-images`, { headers: auth(account) })).status()).toBe(202);
  let imageUrl: string | null = null;
  await expect
    .poll(
      async () => {
        const body = (await (await request.get(`/api/personas/${personaId}`, { headers: auth(account) })).json()) as {
          imageUrl: string | null;
          imageGeneration: { status: string };
        };
        imageUrl = body.imageUrl;
        return body.imageGeneration.status === "idle" && !!body.imageUrl && body.imageUrl !== before;
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  return imageUrl!;
}

for (const [size, viewport] of Object.entries(VIEWPORTS)) {
  // At the laptop and the phone size (both projects).
  test.describe(`at ${viewport.width}×${viewport.height} (${size})`, () => {
    test.use({ viewport });
    test.describe("restoring keeps the reference image unless asked", () => {
      test("a restore keeps the current image; ticking the box brings the version's back; compare shows thumbnails", async ({
        page,
        request,
        jsEnabled,
      }) => {
        test.setTimeout(60_000);
        const account = await createAccount(request);
        const created = await request.post("/api/personas", { headers: auth(account), data: personaBody("Nova") });
        const persona = (await created.json()) as { id: string };
        // The reference image as the exports carry it (the JPEG download), taken while each is current.
        const exported = async () => {
          const response = await request.get(`/api/personas/${persona.id}/export?format=image`, { headers: auth(account) });
          expect(response.status()).toBe(200);
          return (await response.body()).toString("base64");
        };
        const first = await generatedImages(request, account, persona.id); // version 2
        const firstExport = await exported();
        // Another style draws another picture (the embedded generator draws the same one for the same style).
        const styled = await request.patch(`/api/personas/${persona.id}/image-style`, {
          headers: auth(account),
          data: { imageStyle: "anime" },
        }); // version 3
        expect(styled.status()).toBe(200);
        const second = await generatedImages(request, account, persona.id); // version 4
        const secondExport = await exported();
        expect(second).not.toBe(first);
        expect(secondExport).not.toBe(firstExport);
        const renamed = await request.patch(`/api/personas/${persona.id}`, { headers: auth(account), data: personaBody("Nova Quill") }); // version 5
        expect(renamed.status()).toBe(200);
        await signIn(page, account);

        const restore = async (n: number, withImage: boolean) => {
          await visit(page, `/persona/${persona.id}/history`);
          await page
            .getByRole("button", { name: `Restore version ${n}` })
            .or(page.getByRole("link", { name: `Restore version ${n}` }))
            .first()
            .click();
          const scope = jsEnabled ? page.getByTestId("restore-dialog") : page;
          const box = scope.getByLabel(`Also bring back version ${n}'s reference image`);
          await expect(box).not.toBeChecked();
          if (withImage) await box.check();
          if (!withImage) await expectNoA11yViolations(page);
          await scope.getByRole("button", { name: "Restore this version" }).click();
          await expect(toast(page)).toContainText(`Restored from version ${n}`);
        };
        const current = async () =>
          ((await (await request.get(`/api/personas/${persona.id}`, { headers: auth(account) })).json()) as { imageUrl: string | null })
            .imageUrl;

        // The persona page shows the image that is current, and the exports carry it.
        const stem = (url: string) => url.slice(url.lastIndexOf("/") + 1, url.lastIndexOf("."));
        const expectImage = async (imageUrl: string, bytes: string) => {
          expect(await current()).toBe(imageUrl);
          await visit(page, `/persona/${persona.id}`);
          const shown = page.getByTestId("image-box").getByRole("img").first();
          await expect(shown).toHaveAttribute("src", new RegExp(`${stem(imageUrl)}-\\d+\\.webp`));
          expect(await exported()).toBe(bytes);
        };

        await restore(2, false); // version 6: the name comes back, the image stays
        await expectImage(second, secondExport);
        await restore(2, true); // version 7: now the image too
        await expectImage(first, firstExport);

        // Compare shows the images as pictures, not paths.
        await visit(page, `/persona/${persona.id}/history/compare?from=6&to=7`);
        const image = page.getByTestId("changed-imageUrl");
        await expect(image.getByRole("img")).toHaveCount(2);
        await expect(image).not.toContainText("/images/");
        await expectNoA11yViolations(page);
      });
    });
  });
}
test.describe("persona history", () => {
  test("edit twice, open the history, compare, restore, see the new version", async ({ page, request, jsEnabled }) => {
    const account = await createAccount(request);
    const created = await request.post("/api/personas", {
      headers: auth(account),
      data: personaBody("Nova", { backstory: "Nova grew up among telescopes." }),
    });
    const persona = await created.json();
    await signIn(page, account);

    await editName(page, persona.id, "Nova Quill");
    await editName(page, persona.id, "Nova Quill Prime");

    await page.getByRole("link", { name: "History" }).click();
    await expect(page).toHaveURL(new RegExp(`/persona/${persona.id}/history$`));
    await expect(page.getByRole("heading", { level: 1, name: "History: Nova Quill Prime" })).toBeVisible();
    const versions = page.getByTestId("versions").getByRole("listitem");
    await expect(versions).toHaveCount(3);
    await expect(versions.nth(0)).toContainText("Version 3");
    await expect(versions.nth(0)).toContainText("Current");
    await expect(versions.nth(0)).toContainText("Name: Nova Quill → Nova Quill Prime");
    await expect(versions.nth(1)).toContainText("Name: Nova → Nova Quill");
    await expect(versions.nth(2)).toContainText("Created");
    await expect(versions.nth(2)).toContainText("First version: Nova");
    // The exact time is there for hover and focus.
    const time = versions.nth(0).locator("time");
    await expect(time).toHaveText(/just now|minute/);
    await expect(versions.nth(0).getByRole("tooltip", { includeHidden: true })).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);
    await expectNoA11yViolations(page);

    // Compare version 1 with version 3 through the GET form.
    await page.getByLabel("From version").fill("1");
    await page.getByLabel("To version").fill("3");
    await page.getByRole("button", { name: "Show differences" }).click();
    await expect(page).toHaveURL(new RegExp(`/persona/${persona.id}/history/compare\\?from=1&to=3$`));
    await expect(page.getByRole("heading", { level: 1, name: "Compare versions 1 and 3" })).toBeVisible();
    const name = page.getByTestId("changed-name");
    await expect(name.locator("del")).toHaveText(/Nova/);
    await expect(name.locator("ins")).toHaveText(/Nova Quill Prime/);
    // Read out, not only coloured: the words 'Removed' and 'Added' are in the text.
    await expect(name.locator("del")).toContainText("Removed:");
    await expect(name.locator("ins")).toContainText("Added:");
    await expect(page.getByTestId("changed-backstory")).toHaveCount(0);
    await expectNoA11yViolations(page);

    // Restore version 1.
    await page
      .getByRole("button", { name: "Restore version 1" })
      .or(page.getByRole("link", { name: "Restore version 1" }))
      .click();
    if (jsEnabled) {
      const dialog = page.getByTestId("restore-dialog");
      await expect(dialog.getByRole("heading", { name: "Restore version 1?" })).toBeVisible();
      await expectNoA11yViolations(page);
      await dialog.getByRole("button", { name: "Restore this version" }).click();
    } else {
      await expect(page).toHaveURL(new RegExp(`/persona/${persona.id}/history/1/restore$`));
      await expect(page.getByRole("heading", { level: 1, name: "Restore version 1?" })).toBeVisible();
      await expectNoA11yViolations(page);
      await page.getByRole("button", { name: "Restore this version" }).click();
    }
    await expect(page).toHaveURL(new RegExp(`/persona/${persona.id}/history$`));
    await expect(toast(page)).toContainText("Restored from version 1; it is now version 4.");
    await expect(versions).toHaveCount(4);
    await expect(versions.nth(0)).toContainText("Version 4");
    await expect(versions.nth(0)).toContainText("Restored from version 1");
    await expect(versions.nth(0)).toContainText("Name: Nova Quill Prime → Nova");
    await expect(page.getByRole("heading", { level: 1, name: "History: Nova" })).toBeVisible();

    // The default compare: the previous and the current version.
    await versions
      .nth(0)
      .getByRole("link", { name: /Compare/ })
      .click();
    await expect(page.getByRole("heading", { level: 1, name: "Compare versions 3 and 4" })).toBeVisible();
    // A version with itself.
    await visit(page, `/persona/${persona.id}/history/compare?from=2&to=2`);
    await expect(page.getByText("No differences")).toBeVisible();
  });

  test("version numbers that are none and other users' personas are not found", async ({ page, request }) => {
    const owner = await createAccount(request);
    const stranger = await createAccount(request);
    const persona = await (await request.post("/api/personas", { headers: auth(owner), data: personaBody("Mine") })).json();
    await signIn(page, owner);
    for (const path of ["history/9/restore", "history/-1/restore", "history/abc/restore", "history/compare?from=1&to=99999999999"]) {
      const res = await visit(page, `/persona/${persona.id}/${path}`);
      expect(res?.status(), path).toBe(404);
      await expect(page.getByRole("heading", { name: "Version Not Found" })).toBeVisible();
    }
    // The current version cannot be restored: the page says so and offers no form.
    await visit(page, `/persona/${persona.id}/history/1/restore`);
    await expect(page.getByText("This is already the current version")).toBeVisible();
    await expect(page.getByRole("button", { name: "Restore this version" })).toHaveCount(0);

    await signIn(page, stranger);
    const res = await visit(page, `/persona/${persona.id}/history`);
    expect(res?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Persona Not Found" })).toBeVisible();
  });
});

test.describe("persona history API", () => {
  test("list, one version, compare, restore; 404s, 409, 405", async ({ request }) => {
    const owner = await createAccount(request);
    const h = auth(owner);
    const persona = await (
      await request.post("/api/personas", { headers: h, data: personaBody("Nova", { personality: ["Curious", "Reserved"] }) })
    ).json();
    await request.patch(`/api/personas/${persona.id}`, { headers: h, data: personaBody("Nova Quill", { personality: ["Curious"] }) });
    await request.patch(`/api/personas/${persona.id}`, {
      headers: h,
      data: personaBody("Nova Quill", { personality: ["Curious"], backstory: "New." }),
    });

    const list = await request.get(`/api/personas/${persona.id}/versions`, { headers: h });
    expect(list.status()).toBe(200);
    expect(list.headers()["x-total-count"]).toBe("3");
    expect(list.headers()["x-page-size"]).toBe("20");
    const items = await list.json();
    expect(items.map((v: { version: number; summary: string }) => [v.version, v.summary])).toEqual([
      [3, "Backstory rewritten"],
      [2, "Name: Nova → Nova Quill; Traits: −Reserved"],
      [1, "First version: Nova"],
    ]);
    const paged = await request.get(`/api/personas/${persona.id}/versions?pageSize=2&page=2`, { headers: h });
    expect((await paged.json()).map((v: { version: number }) => v.version)).toEqual([1]);

    const one = await request.get(`/api/personas/${persona.id}/versions/1`, { headers: h });
    expect(await one.json()).toMatchObject({ version: 1, kind: "created", name: "Nova", personality: ["Curious", "Reserved"] });

    const compared = await (await request.get(`/api/personas/${persona.id}/versions/compare?from=1&to=3`, { headers: h })).json();
    expect(compared).toMatchObject({ from: 1, to: 3, changed: true });
    expect(compared.fields.filter((f: { changed: boolean }) => f.changed).map((f: { field: string }) => f.field)).toEqual([
      "name",
      "personality",
      "backstory",
    ]);
    const defaults = await (await request.get(`/api/personas/${persona.id}/versions/compare`, { headers: h })).json();
    expect([defaults.from, defaults.to]).toEqual([2, 3]);
    const same = await (await request.get(`/api/personas/${persona.id}/versions/compare?from=2&to=2`, { headers: h })).json();
    expect(same).toMatchObject({ changed: false, message: "No differences" });

    for (const n of ["0", "-1", "abc", "4", "99999999999", "1.5"]) {
      const res = await request.get(`/api/personas/${persona.id}/versions/${n}`, { headers: h });
      expect(res.status(), n).toBe(404);
      const restore = await request.post(`/api/personas/${persona.id}/versions/${n}/restore`, { headers: h });
      expect(restore.status(), n).toBe(404);
    }
    expect((await request.get(`/api/personas/${persona.id}/versions/compare?from=x&to=1`, { headers: h })).status()).toBe(404);

    const current = await request.post(`/api/personas/${persona.id}/versions/3/restore`, { headers: h });
    expect(current.status()).toBe(409);
    expect((await current.json()).message).toBe("This is already the current version");

    const restored = await request.post(`/api/personas/${persona.id}/versions/1/restore`, { headers: h, data: {} });
    expect(restored.status()).toBe(200);
    expect(await restored.json()).toMatchObject({ version: 4, restoredFrom: 1, persona: { id: persona.id, name: "Nova" } });
    const unknownField = await request.post(`/api/personas/${persona.id}/versions/2/restore`, { headers: h, data: { force: true } });
    expect(unknownField.status()).toBe(400);

    // The card says which version it carries.
    const card = await (await request.get(`/api/personas/${persona.id}/export?format=card-json`, { headers: h })).json();
    expect(card.data.character_version).toBe("4");

    // Another user: 404 everywhere, nothing changed.
    const stranger = await createAccount(request);
    const s = auth(stranger);
    for (const path of ["versions", "versions/1", "versions/compare?from=1&to=2"]) {
      expect((await request.get(`/api/personas/${persona.id}/${path}`, { headers: s })).status(), path).toBe(404);
    }
    expect((await request.post(`/api/personas/${persona.id}/versions/2/restore`, { headers: s })).status()).toBe(404);
    expect((await request.get(`/api/personas/${persona.id}/versions`, { headers: h })).headers()["x-total-count"]).toBe("4");

    // Methods: 405 with Allow and a message.
    const wrong = [
      await request.post(`/api/personas/${persona.id}/versions`, { headers: h }),
      await request.delete(`/api/personas/${persona.id}/versions/1`, { headers: h }),
      await request.post(`/api/personas/${persona.id}/versions/compare`, { headers: h }),
    ];
    for (const res of wrong) {
      expect(res.status()).toBe(405);
      expect(res.headers()["allow"]).toBe("GET");
      expect((await res.json()).message).toMatch(/not allowed/);
    }
    const get = await request.get(`/api/personas/${persona.id}/versions/1/restore`, { headers: h });
    expect(get.status()).toBe(405);
    expect(get.headers()["allow"]).toBe("POST");
  });
});
