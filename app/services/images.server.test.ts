// Reference images on a real database (PGlite in npm test, PostgreSQL 15 with DATABASE_URL)
// with the embedded generator and files in a temporary DATA_DIR: the style rules, a job per
// persona off the request, what a failure leaves (nothing), recovery after a restart, the
// owner-only reads, downloads, cards, and that deleting a persona or an account leaves no files.
import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), "pf-images-"));
const IMAGES_ROOT = path.join(process.env.DATA_DIR, "images");

const { createCreator, installTestDatabase } = await import("../../tests/support/test-database");
const { closeDatabase, withServiceRole } = await import("~/infra/db/db.server");
const { stopJobWorkers } = await import("~/infra/jobs/queue.server");
const { generations, imageJobs, personaVersions, personas } = await import("~/infra/db/schema.server");
const { AiError, useImageGenerator } = await import("~/infra/ai/ai.server");
const { useImageStorage, imageStorage } = await import("~/infra/storage/image-storage.server");
const { createLocalImageStorage } = await import("~/infra/storage/local.server");
const personasService = await import("./personas.server");
const library = await import("./persona-library.server");
const exporter = await import("./persona-export.server");
const images = await import("./images.server");
const { readCardFromPng } = await import("~/infra/formats/png.server");

let handle: Awaited<ReturnType<typeof installTestDatabase>>;
beforeAll(async () => {
  handle = await installTestDatabase();
});
afterAll(async () => {
  await images.settleImageJobs();
  await stopJobWorkers();
  await closeDatabase();
});

const newUser = () => createCreator(handle, "free", { first: "Ima", last: "Ger" });
const complete = (name = "Nova Quinn") => ({
  name,
  type: "vtuber",
  gender: "female",
  ageRange: "25-34",
  interests: ["gaming", "music"],
  description: "Streams at night.",
  personality: ["Outgoing", "Creative"],
  backstory: "",
});

const filesOf = (userId: string, personaId?: string) => {
  const dir = personaId ? path.join(IMAGES_ROOT, userId, personaId) : path.join(IMAGES_ROOT, userId);
  return existsSync(dir) ? readdirSync(dir, { recursive: true }).map(String) : [];
};

async function generated(user: Awaited<ReturnType<typeof newUser>>, name?: string) {
  const persona = await personasService.createPersona(user, complete(name));
  await images.startImageGeneration(user, persona.id);
  await images.settleImageJobs();
  return personasService.getPersona(user, persona.id);
}

/** Starts a generation that the image service refuses, and waits for it to fail. */
async function generateRefused(user: Awaited<ReturnType<typeof newUser>>, personaId: string) {
  useImageGenerator({
    kind: "openai",
    generateImage: async () => Promise.reject(new AiError("refused", "Your request was rejected by the safety system.", 400)),
  });
  try {
    await images.startImageGeneration(user, personaId);
    await images.settleImageJobs();
  } finally {
    useImageGenerator(undefined);
  }
}

describe("image style", () => {
  it("saves a known style and refuses anything else with 'Invalid image style', nothing saved", async () => {
    const user = await newUser();
    const persona = await personasService.createPersona(user, complete());
    expect((await images.setImageStyle(user, persona.id, "anime")).imageStyle).toBe("anime");
    for (const bad of ["Anime", "oil_painting", "", 3, null, undefined, ["anime"]]) {
      await expect(images.setImageStyle(user, persona.id, bad)).rejects.toMatchObject({ status: 400, message: "Invalid image style" });
    }
    expect((await personasService.getPersona(user, persona.id)).imageStyle).toBe("anime");
  });

  it("answers 404 for another user's persona, an unknown id and an id that is not a uuid", async () => {
    const owner = await newUser();
    const stranger = await newUser();
    const persona = await personasService.createPersona(owner, complete());
    await expect(images.setImageStyle(stranger, persona.id, "anime")).rejects.toMatchObject({ status: 404 });
    await expect(images.setImageStyle(owner, "00000000-0000-4000-8000-000000000000", "anime")).rejects.toMatchObject({ status: 404 });
    await expect(images.setImageStyle(owner, "../etc", "anime")).rejects.toMatchObject({ status: 404 });
    expect((await personasService.getPersona(owner, persona.id)).imageStyle).toBe("photorealistic");
  });
});

describe("the persona with its image state (one read)", () => {
  it("gives the owner the persona and where generation stands; anyone else, unknown and malformed ids get 404", async () => {
    const owner = await newUser();
    const stranger = await newUser();
    const persona = await personasService.createPersona(owner, complete());
    expect(await personasService.personaWithImageState(owner, persona.id)).toMatchObject({
      persona: { id: persona.id, name: persona.name },
      imageGeneration: { status: "idle" },
    });
    await images.startImageGeneration(owner, persona.id);
    expect((await personasService.personaWithImageState(owner, persona.id)).imageGeneration).toMatchObject({ status: "generating" });
    await images.settleImageJobs();
    const done = await personasService.personaWithImageState(owner, persona.id);
    expect(done.imageGeneration).toMatchObject({ status: "idle" });
    expect(done.persona.imageUrl).toMatch(/^\/images\//);
    for (const [who, id] of [
      [stranger, persona.id],
      [owner, "00000000-0000-4000-8000-000000000000"],
      [owner, "../etc"],
    ] as const) {
      await expect(personasService.personaWithImageState(who, id)).rejects.toMatchObject({ status: 404 });
    }
  });
});

describe("the persona page's read, kept between requests", () => {
  it("shows a start, a finish, a failure, an edit and a deletion at once; never a stranger's persona; never the card's data", async () => {
    const owner = await newUser();
    const stranger = await newUser();
    const persona = await personasService.createPersona(owner, complete());
    const read = () => personasService.personaPageState(owner, persona.id);
    expect(await read()).toMatchObject({
      persona: { id: persona.id, name: persona.name, imageUrl: null },
      imageGeneration: { status: "idle" },
    });
    expect(await read()).toMatchObject({ imageGeneration: { status: "idle" } });
    expect("cardMeta" in (await read()).persona).toBe(false);

    await images.startImageGeneration(owner, persona.id);
    expect((await read()).imageGeneration).toMatchObject({ status: "generating" });
    await images.settleImageJobs();
    const done = await read();
    expect(done.imageGeneration).toMatchObject({ status: "idle" });
    expect(done.persona.imageUrl).toMatch(/^\/images\//);

    await generateRefused(owner, persona.id);
    expect((await read()).imageGeneration).toMatchObject({ status: "failed", error: "Your request was rejected by the safety system." });

    await library.updatePersona(owner, persona.id, complete("Nova Renamed"));
    expect((await read()).persona.name).toBe("Nova Renamed");
    await expect(personasService.personaPageState(stranger, persona.id)).rejects.toMatchObject({ status: 404 });
    await library.deletePersona(owner, persona.id);
    await expect(read()).rejects.toMatchObject({ status: 404 });
  });
});

describe("generation", () => {
  it("answers at once as 'generating', then stores two images with resized copies, logs them and records an image version", async () => {
    const user = await newUser();
    const persona = await personasService.createPersona(user, complete());
    await images.setImageStyle(user, persona.id, "cinematic");
    const state = await images.startImageGeneration(user, persona.id);
    expect(state).toMatchObject({ status: "generating", style: "cinematic" });
    expect((await personasService.getPersona(user, persona.id)).imageUrl).toBeNull();
    await images.settleImageJobs();

    const after = await personasService.getPersona(user, persona.id);
    expect(after.imageUrl).toMatch(new RegExp(`^/images/${persona.id}/primary-[0-9a-f]{16}\\.webp$`));
    expect(after.secondaryImageUrl).toMatch(new RegExp(`^/images/${persona.id}/secondary-[0-9a-f]{16}\\.webp$`));
    expect(after.imageStyle).toBe("cinematic");
    expect(await images.imageState(user, persona.id)).toMatchObject({ status: "idle" });
    expect(filesOf(user.id, persona.id).sort()).toHaveLength(6);

    const logged = await withServiceRole("test", (tx) => tx.select().from(generations).where(eq(generations.userId, user.id)));
    expect(logged.filter((g) => g.kind === "image")).toHaveLength(2);
    const versions = await withServiceRole("test", (tx) =>
      tx.select().from(personaVersions).where(eq(personaVersions.personaId, persona.id)),
    );
    expect(versions.map((v) => v.kind)).toContain("image");

    const sources = await images.imageSources(after);
    expect(sources.primary).toMatchObject({ width: 768, height: 768 });
    expect(sources.primary!.srcSet).toContain(" 384w");
    expect(sources.primary!.srcSet).toContain(" 768w");
    const stored = await images.readImage(user, persona.id, after.imageUrl!.split("/").pop()!);
    const meta = await sharp(stored.bytes).metadata();
    expect(meta).toMatchObject({ format: "webp", width: 768, height: 768 });
  });

  it("runs one job per persona: a second start while one runs is a 409 and makes no second job", async () => {
    const user = await newUser();
    const persona = await personasService.createPersona(user, complete());
    await images.startImageGeneration(user, persona.id);
    await expect(images.startImageGeneration(user, persona.id)).rejects.toMatchObject({ status: 409, code: "generation_running" });
    await images.settleImageJobs();
    const logged = await withServiceRole("test", (tx) => tx.select().from(generations).where(eq(generations.userId, user.id)));
    expect(logged).toHaveLength(2);
  });

  it("refuses drafts with 'Complete creation before generating images' (409), and strangers with 404", async () => {
    const owner = await newUser();
    const draft = await personasService.saveDraft(owner, { name: "Drafty" });
    await expect(images.startImageGeneration(owner, draft.id)).rejects.toMatchObject({
      status: 409,
      message: "Complete creation before generating images",
    });
    const persona = await personasService.createPersona(owner, complete());
    const stranger = await newUser();
    await expect(images.startImageGeneration(stranger, persona.id)).rejects.toMatchObject({ status: 404 });
    await expect(images.startImageGeneration(owner, "not-a-uuid")).rejects.toMatchObject({ status: 404 });
  });

  it("regenerating in another style replaces the images and keeps the old files for the history", async () => {
    const user = await newUser();
    const first = await generated(user);
    await images.setImageStyle(user, first.id, "anime");
    await images.startImageGeneration(user, first.id);
    await images.settleImageJobs();
    const second = await personasService.getPersona(user, first.id);
    expect(second.imageUrl).not.toBe(first.imageUrl);
    // Earlier versions still name the first images, so a restore shows them again.
    expect(filesOf(user.id, first.id)).toHaveLength(12);
    expect(filesOf(user.id, first.id).some((f) => first.imageUrl!.endsWith(f))).toBe(true);
  });

  it("a provider failure leaves the persona unchanged, stores nothing and says why", async () => {
    const user = await newUser();
    const persona = await personasService.createPersona(user, complete());
    await generateRefused(user, persona.id);
    expect(await images.imageState(user, persona.id)).toMatchObject({
      status: "failed",
      error: "Your request was rejected by the safety system.",
    });
    expect((await personasService.getPersona(user, persona.id)).imageUrl).toBeNull();
    expect(filesOf(user.id, persona.id)).toEqual([]);
    // A failed job does not block the next start.
    await images.startImageGeneration(user, persona.id);
    await images.settleImageJobs();
    expect((await personasService.getPersona(user, persona.id)).imageUrl).not.toBeNull();
  });

  it("an answer that is not an image (sniffed from the bytes) fails and stores nothing", async () => {
    const user = await newUser();
    const persona = await personasService.createPersona(user, complete());
    const html = new TextEncoder().encode("<html>not an image</html>");
    useImageGenerator({ kind: "openai", generateImage: async () => ({ bytes: html, format: "png", width: 1024, height: 1024 }) });
    try {
      await images.startImageGeneration(user, persona.id);
      await images.settleImageJobs();
    } finally {
      useImageGenerator(undefined);
    }
    expect(await images.imageState(user, persona.id)).toMatchObject({ status: "failed" });
    expect((await personasService.getPersona(user, persona.id)).imageUrl).toBeNull();
    expect(filesOf(user.id, persona.id)).toEqual([]);
  });

  it("storage that cannot be written fails the job and leaves the persona as it was", async () => {
    const user = await newUser();
    const first = await generated(user);
    const broken = imageStorage();
    useImageStorage({
      ...broken,
      kind: "local",
      put: async () => Promise.reject(Object.assign(new Error("ENOSPC: no space left on device"), { code: "ENOSPC" })),
    });
    try {
      await images.setImageStyle(user, first.id, "minimalist");
      await images.startImageGeneration(user, first.id);
      await images.settleImageJobs();
    } finally {
      useImageStorage(undefined);
    }
    expect(await images.imageState(user, first.id)).toMatchObject({ status: "failed", error: "The images could not be stored." });
    const after = await personasService.getPersona(user, first.id);
    expect(after.imageUrl).toBe(first.imageUrl);
    expect(after.secondaryImageUrl).toBe(first.secondaryImageUrl);
  });

  it("a generation cut off by a crash is tried again after the restart and finishes; a passed deadline shows as failed meanwhile", async () => {
    await stopJobWorkers();
    const user = await newUser();
    const persona = await personasService.createPersona(user, complete());
    // A generation whose worker died: its row says 'generating' past its deadline, its job is active
    // past its expiry (how a database server tells a dead worker's attempt; the embedded one knows at start).
    await withServiceRole("test", (tx) =>
      tx.insert(imageJobs).values({
        personaId: persona.id,
        userId: user.id,
        style: "anime",
        status: "generating",
        startedAt: new Date(Date.now() - 200_000),
        deadline: new Date(Date.now() - 1000),
        notifyEmail: user.email,
      }),
    );
    await handle.raw.exec(
      `update pgboss.job set state = 'active', started_on = now() - interval '1 hour' where name = 'reference-images' and data->>'personaId' = '${persona.id}'`,
    );
    expect(await images.imageState(user, persona.id)).toMatchObject({ status: "failed" });
    // The server starts again: the interrupted job is tried again and the images are made.
    await images.settleImageJobs();
    expect((await personasService.getPersona(user, persona.id)).imageUrl).not.toBeNull();
    expect(await images.imageState(user, persona.id)).toMatchObject({ status: "idle" });
    const [job] = await handle.raw.rows<{ state: string; retry_count: number }>(
      `select state::text, retry_count from pgboss.job where name = 'reference-images' and data->>'personaId' = $1`,
      [persona.id],
    );
    expect(job).toEqual({ state: "completed", retry_count: 1 });
  });

  it("a try cut off after its images were written ends done, not cancelled, and writes nothing twice", async () => {
    const user = await newUser();
    const persona = await personasService.createPersona(user, complete());
    await images.startImageGeneration(user, persona.id);
    await images.settleImageJobs();
    const made = await personasService.getPersona(user, persona.id);
    expect(made.imageUrl).not.toBeNull();
    // The worker died between writing the images and telling the queue: the job is active again.
    await stopJobWorkers();
    await handle.raw.exec(
      `update pgboss.job set state = 'active', started_on = now() - interval '1 hour' where name = 'reference-images' and data->>'personaId' = '${persona.id}'`,
    );
    const counted = async () =>
      (
        await handle.raw.rows<{ n: number }>(`select count(*)::int as n from public.generations where user_id = $1 and kind = 'image'`, [
          user.id,
        ])
      )[0]!.n;
    const before = await counted();
    await images.settleImageJobs();
    const [job] = await handle.raw.rows<{ state: string; retry_count: number }>(
      `select state::text, retry_count from pgboss.job where name = 'reference-images' and data->>'personaId' = $1`,
      [persona.id],
    );
    expect(job).toEqual({ state: "completed", retry_count: 1 });
    expect(await counted()).toBe(before);
    expect((await personasService.getPersona(user, persona.id)).imageUrl).toBe(made.imageUrl);
    expect(await images.imageState(user, persona.id)).toMatchObject({ status: "idle" });
  });

  it("a generation whose tries are all cut off ends failed with the reason; one whose persona was deleted ends cancelled, writing nothing", async () => {
    await stopJobWorkers();
    const user = await newUser();
    const persona = await personasService.createPersona(user, complete());
    await withServiceRole("test", (tx) =>
      tx
        .insert(imageJobs)
        .values({ personaId: persona.id, userId: user.id, style: "anime", status: "generating", deadline: new Date(Date.now() + 60_000) }),
    );
    // Its last try was cut off too.
    await handle.raw.exec(
      `update pgboss.job set state = 'active', started_on = now() - interval '1 hour', retry_count = retry_limit where name = 'reference-images' and data->>'personaId' = '${persona.id}'`,
    );
    const gone = await personasService.createPersona(user, complete("Gone Soon"));
    await images.startImageGeneration(user, gone.id);
    await library.deletePersona(user, gone.id);
    // The server starts again.
    await images.settleImageJobs();
    expect(await images.imageState(user, persona.id)).toMatchObject({
      status: "failed",
      error: "The server restarted before the images were finished.",
    });
    expect((await personasService.getPersona(user, persona.id)).imageUrl).toBeNull();
    const states = await handle.raw.rows<{ persona: string; state: string }>(
      `select data->>'personaId' as persona, state::text as state from pgboss.job where name = 'reference-images' and data->>'personaId' = any($1::text[])`,
      [[persona.id, gone.id]],
    );
    expect(Object.fromEntries(states.map((row) => [row.persona, row.state]))).toEqual({ [persona.id]: "failed", [gone.id]: "cancelled" });
    expect(filesOf(user.id, gone.id)).toEqual([]);
  });
});

describe("reading, downloading and cards", () => {
  it("serves an image only to its owner; other files, paths and strangers get 404", async () => {
    const owner = await newUser();
    const persona = await generated(owner);
    const file = persona.imageUrl!.split("/").pop()!;
    const stranger = await newUser();
    await expect(images.readImage(stranger, persona.id, file)).rejects.toMatchObject({ status: 404 });
    await expect(images.readImage(null, persona.id, file)).rejects.toMatchObject({ status: 404 });
    for (const bad of ["../../etc/passwd", "..", "primary-0000000000000000.webp", "x.webp", `${file}/..`]) {
      await expect(images.readImage(owner, persona.id, bad)).rejects.toMatchObject({ status: 404 });
    }
    await expect(images.readImage(owner, "not-a-uuid", file)).rejects.toMatchObject({ status: 404 });
    expect((await images.readImage(owner, persona.id, file.replace(".webp", "-384.webp"))).contentType).toBe("image/webp");
  });

  it("downloads the reference image as a JPEG; none is 'No Image Available' (404)", async () => {
    const user = await newUser();
    const persona = await generated(user);
    const { bytes } = await images.referenceImageJpeg(user, persona.id);
    expect(await sharp(bytes).metadata()).toMatchObject({ format: "jpeg", width: 768, height: 768 });
    const bare = await personasService.createPersona(user, complete("Bare"));
    await expect(images.referenceImageJpeg(user, bare.id)).rejects.toMatchObject({
      status: 404,
      message: "This persona doesn't have an image to download.",
      code: "no_image",
    });
  });

  it("the PNG card's picture is the reference image; importing it keeps the picture as the new persona's image", async () => {
    const user = await newUser();
    const persona = await generated(user);
    const card = await exporter.exportFile(user, persona.id, "card-png");
    const png = card.body as Uint8Array;
    const meta = await sharp(png).metadata();
    expect(meta).toMatchObject({ format: "png", width: 768, height: 768 });
    const reference = await sharp((await images.readImage(user, persona.id, persona.imageUrl!.split("/").pop()!)).bytes)
      .resize(16, 16)
      .raw()
      .toBuffer();
    const picture = await sharp(png).resize(16, 16).raw().toBuffer();
    const diff = reference.reduce((sum, v, i) => sum + Math.abs(v - picture[i]!), 0) / reference.length;
    expect(diff).toBeLessThan(3);

    const copy = await exporter.importCardFile(user, png);
    expect(copy.id).not.toBe(persona.id);
    expect(copy.imageUrl).toMatch(new RegExp(`^/images/${copy.id}/primary-[0-9a-f]{16}\\.png$`));
    const kept = await images.readImage(user, copy.id, copy.imageUrl!.split("/").pop()!);
    expect(() => readCardFromPng(kept.bytes)).toThrow(); // the card chunks are not kept in the picture
    // Round trip: the copy's card is the same file.
    const again = await exporter.exportFile(user, copy.id, "card-png");
    expect(Buffer.from(again.body as Uint8Array).subarray(0, 64)).toEqual(Buffer.from(png).subarray(0, 64));
  });
});

describe("Supabase mode: the same service over Supabase Storage", () => {
  it("stores in the bucket, shows signed URLs, serves the owner and removes the objects with the persona", async () => {
    const { startFakeStorage } = await import("../../tests/support/fake-storage");
    const { createSupabaseImageStorage } = await import("~/infra/storage/supabase.server");
    const fake = await startFakeStorage();
    useImageStorage(createSupabaseImageStorage({ url: fake.url, serviceRoleKey: fake.serviceRoleKey }));
    try {
      const user = await newUser();
      const persona = await generated(user, "Cloud Nova");
      const keys = [...fake.objects.keys()].filter((k) => k.startsWith(`${user.id}/${persona.id}/`));
      expect(keys).toHaveLength(6);
      expect(filesOf(user.id, persona.id)).toEqual([]);

      const sources = await images.imageSources(persona);
      expect(sources.primary!.src).toMatch(
        new RegExp(
          `^${fake.url}/storage/v1/object/sign/reference-images/${user.id}/${persona.id}/primary-[0-9a-f]{16}-768\\.webp\\?token=`,
        ),
      );
      const loaded = await fetch(sources.primary!.src);
      expect(loaded.headers.get("content-type")).toBe("image/webp");
      expect((await sharp(new Uint8Array(await loaded.arrayBuffer())).metadata()).width).toBe(768);

      const file = persona.imageUrl!.split("/").pop()!;
      expect((await images.readImage(user, persona.id, file)).contentType).toBe("image/webp");
      await expect(images.readImage(await newUser(), persona.id, file)).rejects.toMatchObject({ status: 404 });
      expect((await images.referenceImageJpeg(user, persona.id)).bytes.subarray(0, 2)).toEqual(new Uint8Array([0xff, 0xd8]));

      await library.deletePersona(user, persona.id);
      expect([...fake.objects.keys()].filter((k) => k.startsWith(`${user.id}/`))).toEqual([]);
    } finally {
      useImageStorage(undefined);
      await fake.close();
    }
  });
});

describe("deleting leaves no images behind", () => {
  it("deleting a persona removes its files", async () => {
    const user = await newUser();
    const persona = await generated(user);
    expect(filesOf(user.id, persona.id).length).toBe(6);
    await library.deletePersona(user, persona.id);
    expect(existsSync(path.join(IMAGES_ROOT, user.id, persona.id))).toBe(false);
  });

  it("a persona deleted while its images are generated keeps none of them", async () => {
    const user = await newUser();
    const persona = await personasService.createPersona(user, complete());
    await images.startImageGeneration(user, persona.id);
    await library.deletePersona(user, persona.id);
    await images.settleImageJobs();
    expect(filesOf(user.id, persona.id)).toEqual([]);
  });

  it("deleting an account's folder removes every persona's images", async () => {
    const user = await newUser();
    await generated(user, "One");
    await generated(user, "Two");
    expect(filesOf(user.id).filter((f) => f.endsWith(".webp")).length).toBe(12);
    await createLocalImageStorage(IMAGES_ROOT).removeFolder(`${user.id}/`);
    expect(existsSync(path.join(IMAGES_ROOT, user.id))).toBe(false);
    void personas;
  });
});
