// The reference image calls over raw HTTP: PATCH …/image-style and POST …/generate-images with
// every bad input (docs/product.md, Reference images: unknown style, wrong types, strangers, drafts, bodies, methods),
// the owner-only image route (Content-Type, ETag, Cache-Control private, 304, 404 for anyone
// else and for paths of another shape), the image download, and deletion of a persona or an
// account leaving no image files in DATA_DIR.
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";

import type { APIRequestContext } from "@playwright/test";

import { createAccount, expect, personaBody, test, type Account } from "./support";

const bearer = (account: Account) => ({ Authorization: `Bearer ${account.token}` });
const imagesDir = () => path.join(process.env.E2E_DATA_DIR!, "images");

async function userId(request: APIRequestContext, account: Account): Promise<string> {
  return (await (await request.get("/api/auth/user", { headers: bearer(account) })).json()).id;
}

async function generatedPersona(request: APIRequestContext, account: Account, name = "Image Maker") {
  const persona = await (await request.post("/api/personas", { headers: bearer(account), data: personaBody(name) })).json();
  const started = await request.post(`/api/personas/${persona.id}/generate-images`, { headers: bearer(account) });
  expect(started.status(), await started.text()).toBe(202);
  const body = await started.json();
  expect(body.imageGeneration).toMatchObject({ status: "generating" });
  // The result comes by polling, as the page does.
  await expect
    .poll(async () => (await (await request.get(`/api/personas/${persona.id}`, { headers: bearer(account) })).json()).imageUrl, {
      timeout: 20_000,
    })
    .toMatch(/^\/images\//);
  return (await request.get(`/api/personas/${persona.id}`, { headers: bearer(account) })).json();
}

test("PATCH image-style: saves a style; bad input is a 4xx with a readable message and saves nothing", async ({ request }) => {
  const owner = await createAccount(request);
  const persona = await (await request.post("/api/personas", { headers: bearer(owner), data: personaBody("Styled") })).json();
  const url = `/api/personas/${persona.id}/image-style`;

  const ok = await request.patch(url, { headers: bearer(owner), data: { imageStyle: "digital_art" } });
  expect(ok.status()).toBe(200);
  expect((await ok.json()).imageStyle).toBe("digital_art");

  for (const data of [{ imageStyle: "oil" }, { imageStyle: "ANIME" }, {}, { imageStyle: 3 }, { imageStyle: null }]) {
    const res = await request.patch(url, { headers: bearer(owner), data });
    expect(res.status(), JSON.stringify(data)).toBe(400);
    expect((await res.json()).message).toBe("Invalid image style");
  }
  const extra = await request.patch(url, { headers: bearer(owner), data: { imageStyle: "anime", imageUrl: "https://evil.example/x.png" } });
  expect(extra.status()).toBe(400);
  expect((await extra.json()).message).toContain("Unknown field");
  const notJson = await request.patch(url, { headers: { ...bearer(owner), "Content-Type": "application/json" }, data: "{nope" });
  expect(notJson.status()).toBeGreaterThanOrEqual(400);
  expect(notJson.status()).toBeLessThan(500);

  const stranger = await createAccount(request);
  expect((await request.patch(url, { headers: bearer(stranger), data: { imageStyle: "anime" } })).status()).toBe(404);
  expect(
    (
      await request.patch("/api/personas/00000000-0000-4000-8000-000000000000/image-style", {
        headers: bearer(owner),
        data: { imageStyle: "anime" },
      })
    ).status(),
  ).toBe(404);
  expect(
    (await request.patch("/api/personas/not-a-uuid/image-style", { headers: bearer(owner), data: { imageStyle: "anime" } })).status(),
  ).toBe(404);
  expect((await request.patch(url, { data: { imageStyle: "anime" } })).status()).toBe(401);
  expect((await request.get(url, { headers: bearer(owner) })).status()).toBe(405);

  expect((await (await request.get(`/api/personas/${persona.id}`, { headers: bearer(owner) })).json()).imageStyle).toBe("digital_art");
});

test("POST generate-images: 202 and polling; drafts, strangers, bodies and methods are refused", async ({ request }) => {
  const owner = await createAccount(request);
  const persona = await generatedPersona(request, owner);
  expect(persona.imageUrl).toMatch(new RegExp(`^/images/${persona.id}/primary-[0-9a-f]{16}\\.webp$`));
  expect(persona.secondaryImageUrl).toMatch(new RegExp(`^/images/${persona.id}/secondary-[0-9a-f]{16}\\.webp$`));
  expect(persona.imageGeneration).toMatchObject({ status: "idle" });

  const draft = await (await request.post("/api/personas/draft", { headers: bearer(owner), data: { name: "Drafted" } })).json();
  const refused = await request.post(`/api/personas/${draft.id}/generate-images`, { headers: bearer(owner) });
  expect(refused.status()).toBe(409);
  expect((await refused.json()).message).toBe("Complete creation before generating images");

  const stranger = await createAccount(request);
  expect((await request.post(`/api/personas/${persona.id}/generate-images`, { headers: bearer(stranger) })).status()).toBe(404);
  expect((await request.post(`/api/personas/nope/generate-images`, { headers: bearer(owner) })).status()).toBe(404);
  const withBody = await request.post(`/api/personas/${persona.id}/generate-images`, { headers: bearer(owner), data: { style: "anime" } });
  expect(withBody.status()).toBe(400);
  expect((await request.get(`/api/personas/${persona.id}/generate-images`, { headers: bearer(owner) })).status()).toBe(405);
  expect((await request.post(`/api/personas/${persona.id}/generate-images`)).status()).toBe(401);

  // The generations log counts both images (the dashboard's 'Generated Content').
  const stats = await (await request.get("/api/personas/stats", { headers: bearer(owner) })).json();
  expect(stats.generatedContent).toBe(2);
});

test("the image route answers only the owner, with caching headers; everything else is 404", async ({ request }) => {
  const owner = await createAccount(request);
  const persona = await generatedPersona(request, owner);
  const src: string = persona.imageUrl;

  const res = await request.get(src, { headers: bearer(owner) });
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toBe("image/webp");
  expect(res.headers()["cache-control"]).toContain("private");
  const etag = res.headers()["etag"];
  expect(etag).toMatch(/^".+"$/);
  expect((await request.get(src, { headers: { ...bearer(owner), "If-None-Match": etag } })).status()).toBe(304);
  expect((await request.get(src.replace(".webp", "-384.webp"), { headers: bearer(owner) })).status()).toBe(200);

  const stranger = await createAccount(request);
  expect((await request.get(src, { headers: bearer(stranger) })).status()).toBe(404);
  expect((await request.get(src)).status()).toBe(404);
  for (const bad of [
    `/images/${persona.id}/..%2F..%2Fsession-secret`,
    `/images/${persona.id}/%2E%2E`,
    `/images/not-a-uuid/${src.split("/").pop()}`,
    `/images/${persona.id}/primary-0000000000000000.webp`,
    `/images/${persona.id}/evil.svg`,
  ]) {
    expect((await request.get(bad, { headers: bearer(owner) })).status(), bad).toBe(404);
  }

  // The Download menu's file: a JPEG named after the persona.
  const download = await request.get(`/api/personas/${persona.id}/export?format=image`, { headers: bearer(owner) });
  expect(download.status()).toBe(200);
  expect(download.headers()["content-type"]).toBe("image/jpeg");
  expect(download.headers()["content-disposition"]).toContain('filename="Image_Maker_image.jpg"');
  expect((await download.body()).subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
  expect((await request.get(`/api/personas/${persona.id}/export?format=image`, { headers: bearer(stranger) })).status()).toBe(404);
});

test("deleting a persona, then the account, leaves no image files behind", async ({ request, baseURL }) => {
  const owner = await createAccount(request);
  const id = await userId(request, owner);
  const first = await generatedPersona(request, owner, "First Images");
  const second = await generatedPersona(request, owner, "Second Images");
  expect(readdirSync(path.join(imagesDir(), id, first.id))).toHaveLength(6);

  expect((await request.delete(`/api/personas/${first.id}`, { headers: bearer(owner) })).status()).toBe(200);
  expect(existsSync(path.join(imagesDir(), id, first.id))).toBe(false);
  expect(readdirSync(path.join(imagesDir(), id, second.id))).toHaveLength(6);

  // The account goes through the settings form, signed in with its cookie.
  const login = await request.post("/login", {
    form: { email: owner.email, password: owner.password, redirectTo: "/dashboard" },
    headers: { Origin: baseURL! },
    maxRedirects: 0,
  });
  expect(login.status()).toBe(302);
  const deleted = await request.post("/settings?tab=account", {
    form: { intent: "delete-account", confirmEmail: owner.email, password: owner.password },
    headers: { Origin: baseURL! },
    maxRedirects: 0,
  });
  expect(deleted.status(), await deleted.text()).toBe(302);
  expect(existsSync(path.join(imagesDir(), id))).toBe(false);
});

test("the page's forms (no JavaScript): an unknown style is a 400 page with the message; a draft's Generate is a 409", async ({
  request,
  baseURL,
}) => {
  const owner = await createAccount(request);
  const persona = await (await request.post("/api/personas", { headers: bearer(owner), data: personaBody("Form Styled") })).json();
  const draft = await (await request.post("/api/personas/draft", { headers: bearer(owner), data: { name: "Form Draft" } })).json();
  const login = await request.post("/login", {
    form: { email: owner.email, password: owner.password, redirectTo: "/dashboard" },
    headers: { Origin: baseURL! },
    maxRedirects: 0,
  });
  expect(login.status()).toBe(302);

  const bad = await request.post(`/persona/${persona.id}`, {
    form: { intent: "image-style", imageStyle: "sepia" },
    headers: { Origin: baseURL! },
    maxRedirects: 0,
  });
  expect(bad.status()).toBe(400);
  expect(await bad.text()).toContain("Invalid image style");
  const saved = await request.post(`/persona/${persona.id}`, {
    form: { intent: "image-style", imageStyle: "minimalist" },
    headers: { Origin: baseURL! },
    maxRedirects: 0,
  });
  expect(saved.status()).toBe(302);
  expect((await (await request.get(`/api/personas/${persona.id}`, { headers: bearer(owner) })).json()).imageStyle).toBe("minimalist");

  const refused = await request.post(`/persona/${draft.id}`, {
    form: { intent: "generate-images" },
    headers: { Origin: baseURL! },
    maxRedirects: 0,
  });
  expect(refused.status()).toBe(409);
  expect(await refused.text()).toContain("Complete creation before generating images");

  const stranger = await request.post(`/persona/00000000-0000-4000-8000-000000000000`, {
    form: { intent: "generate-images" },
    headers: { Origin: baseURL! },
    maxRedirects: 0,
  });
  expect(stranger.status()).toBe(404);
});
