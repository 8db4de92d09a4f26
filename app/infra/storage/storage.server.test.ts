// The two image storages behind one interface: files on a temporary DATA_DIR, and Supabase
// Storage through the real supabase-js client against a fake storage-api
// (tests/support/fake-storage.ts). Both: write, read, remove, remove a folder, refuse paths
// that are not ours. Supabase: signed URLs that load, failures as StorageError.
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startFakeStorage, type FakeStorage } from "../../../tests/support/fake-storage";
import { createLocalImageStorage } from "./local.server";
import { createSupabaseImageStorage } from "./supabase.server";
import { objectPath, StorageError, type ImageStorage } from "./types";

const USER = "11111111-1111-4111-8111-111111111111";
const OTHER = "22222222-2222-4222-8222-222222222222";
const PERSONA = "33333333-3333-4333-8333-333333333333";
const PERSONA2 = "44444444-4444-4444-8444-444444444444";
const FILE = "primary-0123456789abcdef.webp";
const bytes = (text: string) => new TextEncoder().encode(text);

let fake: FakeStorage;
let root: string;
beforeAll(async () => {
  fake = await startFakeStorage();
  root = mkdtempSync(path.join(tmpdir(), "pf-storage-"));
});
afterAll(async () => {
  await fake.close();
});

const adapters: [string, () => ImageStorage][] = [
  ["local", () => createLocalImageStorage(root)],
  ["supabase", () => createSupabaseImageStorage({ url: fake.url, serviceRoleKey: fake.serviceRoleKey })],
];

describe.each(adapters)("%s image storage", (kind, make) => {
  it("writes, reads, replaces and removes an object", async () => {
    const storage = make();
    const at = objectPath(USER, PERSONA, FILE);
    await storage.put(at, bytes("one"), "image/webp");
    const read = await storage.get(at);
    expect(new TextDecoder().decode(read!.bytes)).toBe("one");
    expect(read!.contentType).toBe("image/webp");
    expect(read!.etag).toMatch(/^".+"$/);
    await storage.put(at, bytes("two"), "image/webp");
    expect(new TextDecoder().decode((await storage.get(at))!.bytes)).toBe("two");
    await storage.remove([at]);
    expect(await storage.get(at)).toBeNull();
    await storage.remove([at]); // already gone: fine
  });

  it("removes a persona's folder or a user's folder, and nothing of anyone else", async () => {
    const storage = make();
    await storage.put(objectPath(USER, PERSONA, FILE), bytes("a"), "image/webp");
    await storage.put(objectPath(USER, PERSONA2, FILE), bytes("b"), "image/webp");
    await storage.put(objectPath(OTHER, PERSONA, FILE), bytes("c"), "image/webp");
    await storage.removeFolder(objectPath(USER, PERSONA));
    expect(await storage.get(objectPath(USER, PERSONA, FILE))).toBeNull();
    expect(await storage.get(objectPath(USER, PERSONA2, FILE))).not.toBeNull();
    await storage.removeFolder(`${USER}/`);
    expect(await storage.get(objectPath(USER, PERSONA2, FILE))).toBeNull();
    expect(await storage.get(objectPath(OTHER, PERSONA, FILE))).not.toBeNull();
    if (kind === "local") expect(existsSync(path.join(root, USER))).toBe(false);
  });

  it("refuses every path that is not of our shape", async () => {
    const storage = make();
    for (const bad of [
      "../x",
      `${USER}/../${OTHER}/${PERSONA}/${FILE}`,
      `${USER}/${PERSONA}/../../x.webp`,
      `/${USER}/${PERSONA}/${FILE}`,
      `${USER}/${PERSONA}/evil.svg`,
      `${"aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa".toUpperCase()}/${PERSONA}/${FILE}`,
    ]) {
      await expect(storage.get(bad), bad).rejects.toBeInstanceOf(StorageError);
      await expect(storage.put(bad, bytes("x"), "image/webp"), bad).rejects.toBeInstanceOf(StorageError);
    }
    await expect(storage.removeFolder("../")).rejects.toBeInstanceOf(StorageError);
    await expect(storage.removeFolder("")).rejects.toBeInstanceOf(StorageError);
    expect(() => objectPath(USER, "..", FILE)).toThrow(StorageError);
  });
});

describe("local image storage", () => {
  it("writes atomically: no temporary file is left and a failed write leaves no partial file", async () => {
    const storage = createLocalImageStorage(root);
    const at = objectPath(OTHER, PERSONA2, FILE);
    await storage.put(at, bytes("x".repeat(100_000)), "image/webp");
    expect(readdirSync(path.join(root, OTHER, PERSONA2))).toEqual([FILE]);
    // A root that cannot hold folders (it is a file): the write fails, nothing is left.
    const file = path.join(root, "not-a-folder");
    writeFileSync(file, "x");
    const blocked = createLocalImageStorage(file);
    await expect(blocked.put(at, bytes("y"), "image/webp")).rejects.toThrow();
  });

  it("has no signed URLs: the app serves the files", async () => {
    expect(await createLocalImageStorage(root).signedUrls([objectPath(USER, PERSONA, FILE)], 60)).toEqual([null]);
  });
});

describe("Supabase image storage", () => {
  const storage = () => createSupabaseImageStorage({ url: fake.url, serviceRoleKey: fake.serviceRoleKey });

  it("uploads into the reference-images bucket at <userId>/<personaId>/<file> with its content type", async () => {
    await storage().put(objectPath(USER, PERSONA, FILE), bytes("img"), "image/webp");
    expect(fake.objects.get(`${USER}/${PERSONA}/${FILE}`)).toMatchObject({ contentType: "image/webp" });
    expect(fake.requests.at(-1)).toMatchObject({ method: "POST", path: `/storage/v1/object/reference-images/${USER}/${PERSONA}/${FILE}` });
  });

  it("signs short-lived URLs that load the object", async () => {
    const at = objectPath(USER, PERSONA, FILE);
    await storage().put(at, bytes("signed"), "image/webp");
    const [url] = await storage().signedUrls([at], 600);
    expect(url).toMatch(new RegExp(`^${fake.url}/storage/v1/object/sign/reference-images/${USER}/${PERSONA}/${FILE}\\?token=`));
    const response = await fetch(url!);
    expect(await response.text()).toBe("signed");
    // Guessing another path with that token gets nothing.
    const guessed = await fetch(url!.replace(PERSONA, PERSONA2));
    expect(guessed.ok).toBe(false);
  });

  it("turns failures into StorageError, and a missing object into null", async () => {
    expect(await storage().get(objectPath(USER, PERSONA2, "secondary-0123456789abcdef.png"))).toBeNull();
    fake.failUploads = 500;
    try {
      await expect(storage().put(objectPath(USER, PERSONA, FILE), bytes("x"), "image/webp")).rejects.toBeInstanceOf(StorageError);
    } finally {
      fake.failUploads = null;
    }
    const wrongKey = createSupabaseImageStorage({ url: fake.url, serviceRoleKey: "not-the-key" });
    await expect(wrongKey.put(objectPath(USER, PERSONA, FILE), bytes("x"), "image/webp")).rejects.toBeInstanceOf(StorageError);
  });
});
