// Reference images (docs/product.md, Reference images): the image style, generation as a job off the request, the
// stored files and their resized copies, what the page shows, downloads, and cleaning up.
//
// Generation: startImageGeneration() claims the persona's one generation row (image_jobs; a
// second start while one runs is a 409) and answers at once; the row's trigger puts a job on the
// queue in the same transaction (app/infra/jobs/queue.server.ts), and a worker draws the primary and
// the secondary image, checks their bytes, stores them (with 384 and 768 px WebP copies for the
// page) and then, in one transaction, points the persona at them, logs two 'image' generations
// and clears the row. A failure stores nothing, leaves the persona as it was and marks the row
// 'failed' with its reason. A generation cut off by a crash is tried once more by the queue (its
// time limit starts again); one still 'generating' past its deadline counts as failed. Every
// start counts against the creator's hourly quota (generation-quotas.server.ts); a start refused
// with a 4xx does not.
import { randomBytes, randomUUID } from "node:crypto";

import { and, eq, lt, or, sql } from "drizzle-orm";

import { NO_IMAGE_TOAST } from "~/domain/export-toasts";
import { parseVoice } from "~/domain/persona-voice";
import {
  IDLE_IMAGE_STATE,
  IMAGE_MESSAGES,
  IMAGE_SLOTS,
  IMAGE_WIDTHS,
  isImageStyle,
  type ImageGenerationState,
  type ImageSlot,
  type ImageStyle,
} from "~/domain/images";
import { AiError, imageGenerator } from "~/infra/ai/ai.server";
import { checkedImage } from "~/infra/ai/image-bytes.server";
import { loadSharp } from "~/infra/ai/sharp.server";
import type { GeneratedImage } from "~/infra/ai/types";
import { generations, imageJobs, personas, type ImageJob, type Persona } from "~/infra/db/schema.server";
import { withUser } from "~/infra/db/db.server";
import { handleJobs, queueWork, QUEUES, settleJobs, startJobWorkers, type Job } from "~/infra/jobs/queue.server";
import { imageStorage, isImageFileName, objectPath, StorageError } from "~/infra/storage/image-storage.server";
import { describeError } from "~/infra/web/log.server";

import { type CurrentUser } from "./accounts.server";
import { withGenerationQuota } from "./generation-quotas.server";
import { jobState } from "./image-job-state.server";
import { notifyImageJob } from "./notifications.server";
import { getPersona, isUuid, PERSONA_NOT_FOUND } from "./personas.server";
import { ServiceError } from "./service-error.server";

/** A reference image that cannot be generated, saved or read. */
export class ImageError extends ServiceError {
  override name = "ImageError";
}

/** How long a job may run (two images from a remote model); past it, it counts as failed. */
export const IMAGE_JOB_TIMEOUT_MS = 150_000;
/** Signed URLs (Supabase mode) live this long: enough for a page view, not for sharing. */
export const SIGNED_URL_SECONDS = 600;

export type ImageOwner = Pick<CurrentUser, "id" | "email">;

// ---------------------------------------------------------------------------------------
// Where images live: /images/<personaId>/<file> in the app, <userId>/<personaId>/<file> in storage.

const IMAGE_URL = /^\/images\/([0-9a-f-]{36})\/([^/?#]+)$/;

/** The stored file an image URL names, or null for one that is not ours. */
export function imageFileOf(url: string | null | undefined): string | null {
  const match = url ? IMAGE_URL.exec(url) : null;
  return match && isImageFileName(match[2]!) ? match[2]! : null;
}

function imageUrl(personaId: string, file: string): string {
  return `/images/${personaId}/${file}`;
}

function variantName(file: string, width: number): string {
  return `${file.slice(0, file.lastIndexOf("."))}-${width}.webp`;
}

/** An original and its resized copies. */
function familyOf(file: string): string[] {
  return [file, ...IMAGE_WIDTHS.map((w) => variantName(file, w))];
}

const EXTENSIONS: Record<GeneratedImage["format"], string> = { png: "png", jpeg: "jpg", webp: "webp" };
const TYPES: Record<GeneratedImage["format"], string> = { png: "image/png", jpeg: "image/jpeg", webp: "image/webp" };

/**
 * Stores an image and its 384/768 px WebP copies; returns the original's file name. On
 * failure whatever was written is removed and a StorageError is thrown.
 */
export async function storeImage(userId: string, personaId: string, slot: ImageSlot, image: GeneratedImage): Promise<string> {
  // A new name on every write (the embedded generator draws the same bytes for the same persona
  // and style): undoing a failed run then never removes the files the persona shows.
  const file = `${slot}-${randomBytes(8).toString("hex")}.${EXTENSIONS[image.format]}`;
  const written: string[] = [];
  const sharp = await loadSharp();
  try {
    const copies = await Promise.all(
      IMAGE_WIDTHS.map(async (width) => ({
        name: variantName(file, width),
        bytes: await sharp(image.bytes).resize(width, width, { fit: "cover" }).webp({ quality: 82, effort: 2 }).toBuffer(),
      })),
    );
    const storage = imageStorage();
    for (const { name, bytes } of [{ name: file, bytes: image.bytes }, ...copies]) {
      const path = objectPath(userId, personaId, name);
      written.push(path);
      await storage.put(
        path,
        new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
        name === file ? TYPES[image.format] : "image/webp",
      );
    }
    return file;
  } catch (error) {
    await imageStorage()
      .remove(written)
      .catch(() => {});
    if (error instanceof StorageError) throw error;
    throw new StorageError(`${IMAGE_MESSAGES.storageFailed} (${error instanceof Error ? error.message : String(error)})`);
  }
}

async function removeFiles(userId: string, personaId: string, files: (string | null)[]): Promise<void> {
  const paths = files.filter((f): f is string => !!f).flatMap((f) => familyOf(f).map((name) => objectPath(userId, personaId, name)));
  if (paths.length === 0) return;
  await imageStorage()
    .remove(paths)
    .catch((error) => console.error(`[images] could not remove old images of ${personaId}: ${describeError(error)}`));
}

/** Every image of one persona (its deletion). Failures are logged, never thrown. */
export async function removePersonaImages(userId: string, personaId: string): Promise<void> {
  await imageStorage()
    .removeFolder(objectPath(userId, personaId))
    .catch((error) => console.error(`[images] could not remove the images of persona ${personaId}: ${describeError(error)}`));
}

// ---------------------------------------------------------------------------------------
// The style.

/** PATCH …/image-style and the no-JavaScript Save: an unknown style is a 400, nothing saved. */
export async function setImageStyle(user: CurrentUser, id: string, style: unknown): Promise<Persona> {
  if (!isImageStyle(style))
    throw new ImageError(400, IMAGE_MESSAGES.invalidStyle, { imageStyle: [IMAGE_MESSAGES.invalidStyle] }, "invalid_image_style");
  if (!isUuid(id)) throw new ImageError(404, PERSONA_NOT_FOUND);
  const [row] = await withUser(user.id, (tx) => tx.update(personas).set({ imageStyle: style }).where(eq(personas.id, id)).returning());
  if (!row) throw new ImageError(404, PERSONA_NOT_FOUND);
  return row;
}

// ---------------------------------------------------------------------------------------
// Generation state.

/** Where the persona's generation stands (another user's or an unknown persona: idle). */
export async function imageState(user: CurrentUser, personaId: string): Promise<ImageGenerationState> {
  if (!isUuid(personaId)) return IDLE_IMAGE_STATE;
  const [job] = await withUser(user.id, (tx) => tx.select().from(imageJobs).where(eq(imageJobs.personaId, personaId)));
  return jobState(job);
}

/** Whether generation is allowed for this persona: drafts (and archived drafts) must be completed first. */
function isDraft(persona: Pick<Persona, "status" | "statusBeforeArchive">): boolean {
  return persona.status === "in_progress" || persona.statusBeforeArchive === "in_progress";
}

/** Tests: runs the queued generations in this process and resolves when every one has ended. */
export async function settleImageJobs(): Promise<void> {
  handleImageJobs();
  await startJobWorkers();
  await settleJobs({ queues: [QUEUES.referenceImages, QUEUES.referenceImagesFailed] });
}

/**
 * POST …/generate-images: claims the persona's job and starts it after this call returns.
 * 404 for another user's or an unknown persona, 409 for a draft or while a job runs, 429
 * when the creator's hourly quota is used up (a refused start does not count against it).
 */
export async function startImageGeneration(user: CurrentUser, id: string): Promise<ImageGenerationState> {
  return withGenerationQuota("images", user, () => claimImageJob(user, id));
}

async function claimImageJob(user: CurrentUser, id: string): Promise<ImageGenerationState> {
  const persona = await getPersona(user, id);
  if (isDraft(persona)) throw new ImageError(409, IMAGE_MESSAGES.draft, undefined, "draft");
  const style = isImageStyle(persona.imageStyle) ? persona.imageStyle : "photorealistic";
  // Millisecond times from here (not now()): the job is later found again by its start time,
  // and a JavaScript Date cannot hold the database's microseconds.
  const startedAt = new Date();
  const deadline = new Date(startedAt.getTime() + IMAGE_JOB_TIMEOUT_MS);
  const [job] = await withUser(user.id, (tx) =>
    tx
      .insert(imageJobs)
      .values({ personaId: id, userId: user.id, style, status: "generating", startedAt, deadline, notifyEmail: user.email })
      .onConflictDoUpdate({
        target: imageJobs.personaId,
        set: { style, status: "generating", error: null, startedAt, deadline, finishedAt: null, notifyEmail: user.email },
        // One job at a time: only a finished, failed or abandoned job is replaced.
        setWhere: or(eq(imageJobs.status, "failed"), lt(imageJobs.deadline, sql`now()`)),
      })
      .returning(),
  );
  if (!job) throw new ImageError(409, IMAGE_MESSAGES.running, undefined, "generation_running");
  // The row's trigger queued its job; this process's workers look at once.
  queueWork();
  return jobState(job);
}

/** A reason a creator can read, for the failed state and toast. */
function reasonOf(error: unknown): string {
  if (error instanceof AiError) {
    if (error.code === "refused") return error.message.slice(0, 300);
    if (error.code === "timeout") return IMAGE_MESSAGES.timedOut;
    if (error.code === "bad_response") return IMAGE_MESSAGES.notAnImage;
    return "The image service is not available right now.";
  }
  if (error instanceof StorageError) return IMAGE_MESSAGES.storageFailed;
  return "Something went wrong while generating the images.";
}

async function runImageJob(owner: ImageOwner, persona: Persona, job: ImageJob, startedAt: string): Promise<void> {
  const style = job.style as ImageStyle;
  const stored: string[] = [];
  const signal = AbortSignal.timeout(Math.max(1_000, new Date(job.deadline).getTime() - Date.now()));
  // Only this run's job row: a newer start (after this one was given up) is not touched.
  const thisJob = and(eq(imageJobs.personaId, persona.id), sql`${imageJobs.startedAt} = ${startedAt}::timestamptz`);
  try {
    const files: Record<ImageSlot, string> = { primary: "", secondary: "" };
    for (const slot of IMAGE_SLOTS) {
      const generated = await imageGenerator().generateImage(
        {
          name: persona.name,
          type: persona.type,
          gender: persona.gender,
          ageRange: persona.ageRange,
          interests: persona.interests,
          personality: persona.personality,
          description: persona.description,
          // The persona's own words for its look (docs/product.md, Voice) shape the portrait.
          appearance: parseVoice(persona.voice).appearance,
          style,
          slot,
        },
        { signal },
      );
      const image = await checkedImage(generated.bytes);
      files[slot] = await storeImage(owner.id, persona.id, slot, image);
      stored.push(files[slot]);
    }
    // The previous images' files stay: earlier versions of the persona (its history) still
    // name them, and restoring one brings them back. They go with the persona or the account.
    const finished = await withUser(
      owner.id,
      async (tx) => {
        const done = await tx.delete(imageJobs).where(thisJob).returning({ personaId: imageJobs.personaId });
        // Deleted meanwhile (the job went with the persona), or this job was given up and replaced: keep nothing of it.
        if (done.length === 0) return false;
        await tx
          .update(personas)
          .set({
            imageUrl: imageUrl(persona.id, files.primary),
            secondaryImageUrl: imageUrl(persona.id, files.secondary),
            imageStyle: style,
          })
          .where(eq(personas.id, persona.id));
        await tx.insert(generations).values(IMAGE_SLOTS.map(() => ({ userId: owner.id, kind: "image" as const })));
        return true;
      },
      { email: owner.email },
    );
    if (!finished) await removeFiles(owner.id, persona.id, stored);
    // docs/product.md, Settings: 'Image generation' (a persona deleted meanwhile is told nothing).
    else if (owner.email) await notifyImageJob(owner, persona.id, { ok: true });
  } catch (error) {
    console.error(`[images] generation for persona ${persona.id} failed: ${describeError(error, 0)}`);
    await removeFiles(owner.id, persona.id, stored);
    const marked = await withUser(owner.id, (tx) =>
      tx
        .update(imageJobs)
        .set({ status: "failed", error: reasonOf(error), finishedAt: sql`now()` })
        .where(and(thisJob, eq(imageJobs.status, "generating")))
        .returning({ personaId: imageJobs.personaId }),
    ).catch((e) => {
      console.error(`[images] could not record the failure for persona ${persona.id}: ${describeError(e)}`);
      return [];
    });
    if (marked.length > 0 && owner.email) await notifyImageJob(owner, persona.id, { ok: false, reason: reasonOf(error) });
  }
}

const JOB_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The generation a job names: its persona, owner and start time (as the database wrote it, to the
 * microsecond: compared in SQL, never through a JavaScript Date).
 */
function generationOf(job: Job): { personaId: string; userId: string; startedAt: string } | null {
  const { personaId, userId, startedAt } = job.data as { personaId?: unknown; userId?: unknown; startedAt?: unknown };
  if (typeof personaId !== "string" || typeof userId !== "string" || typeof startedAt !== "string") return null;
  if (!JOB_UUID.test(personaId) || !JOB_UUID.test(userId)) return null;
  return Number.isNaN(Date.parse(startedAt)) ? null : { personaId, userId, startedAt };
}

const generationRow = (ref: { personaId: string; startedAt: string }) =>
  and(
    eq(imageJobs.personaId, ref.personaId),
    sql`${imageJobs.startedAt} = ${ref.startedAt}::timestamptz`,
    eq(imageJobs.status, "generating"),
  );

/**
 * The job of one generation. One replaced by a newer start, or gone with its persona, ends the job
 * 'cancelled' with nothing written; a try after a crash that finds its images written ends done.
 * A try after a crash gets the whole time limit again.
 */
export async function runImageGenerationJob(job: Job): Promise<"cancelled" | void> {
  const ref = generationOf(job);
  if (!ref) return "cancelled";
  const claimed = await withUser(ref.userId, async (tx) => {
    const [row] = await tx
      .update(imageJobs)
      .set({ deadline: new Date(Date.now() + IMAGE_JOB_TIMEOUT_MS) })
      .where(generationRow(ref))
      .returning();
    if (!row) {
      // A try cut off after its generation was written (the row goes when the images are in)
      // ends done; one replaced by a newer start, failed, or gone with its persona, cancelled.
      const [current] = await tx.select({ personaId: imageJobs.personaId }).from(imageJobs).where(eq(imageJobs.personaId, ref.personaId));
      const [persona] = await tx.select({ id: personas.id }).from(personas).where(eq(personas.id, ref.personaId));
      return !current && persona && job.retryCount > 0 ? "done" : null;
    }
    const [persona] = await tx.select().from(personas).where(eq(personas.id, ref.personaId));
    return persona ? { row, persona } : null;
  });
  if (claimed === "done") return;
  if (!claimed) return "cancelled";
  await runImageJob({ id: ref.userId, email: claimed.row.notifyEmail ?? "" }, claimed.persona, claimed.row, ref.startedAt);
}

/** A generation whose every try was cut off (the queue's dead letters): it is recorded as failed. */
export async function recordInterruptedGeneration(job: Job): Promise<"cancelled" | void> {
  const ref = generationOf(job);
  if (!ref) return "cancelled";
  await withUser(ref.userId, (tx) =>
    tx
      .update(imageJobs)
      .set({ status: "failed", error: IMAGE_MESSAGES.interrupted, finishedAt: sql`now()` })
      .where(generationRow(ref)),
  );
}

/** The queues of reference-image generations, for this process's workers. */
export function handleImageJobs(): void {
  handleJobs(QUEUES.referenceImages, runImageGenerationJob, { concurrency: 2 });
  handleJobs(QUEUES.referenceImagesFailed, recordInterruptedGeneration);
}

// ---------------------------------------------------------------------------------------
// Showing and serving images.

export interface ImageSource {
  src: string;
  srcSet: string;
  width: number;
  height: number;
}

/** What the page's <img> elements need for the persona's two images (signed URLs in Supabase mode). */
export async function imageSources(
  persona: Pick<Persona, "id" | "userId" | "imageUrl" | "secondaryImageUrl">,
): Promise<Record<ImageSlot, ImageSource | null>> {
  const files: Record<ImageSlot, string | null> = {
    primary: imageFileOf(persona.imageUrl),
    secondary: imageFileOf(persona.secondaryImageUrl),
  };
  const names = IMAGE_SLOTS.flatMap((slot) => (files[slot] ? IMAGE_WIDTHS.map((w) => variantName(files[slot]!, w)) : []));
  let signed: (string | null)[] = names.map(() => null);
  try {
    signed = await imageStorage().signedUrls(
      names.map((n) => objectPath(persona.userId, persona.id, n)),
      SIGNED_URL_SECONDS,
    );
  } catch (error) {
    console.error(`[images] could not sign the image addresses of ${persona.id}: ${describeError(error)}`);
  }
  const urlOf = (name: string) => signed[names.indexOf(name)] ?? imageUrl(persona.id, name);
  const largest = IMAGE_WIDTHS[IMAGE_WIDTHS.length - 1]!;
  const source = (file: string | null): ImageSource | null =>
    file
      ? {
          src: urlOf(variantName(file, largest)),
          srcSet: IMAGE_WIDTHS.map((w) => `${urlOf(variantName(file, w))} ${w}w`).join(", "),
          width: largest,
          height: largest,
        }
      : null;
  return { primary: source(files.primary), secondary: source(files.secondary) };
}

/**
 * GET /images/<personaId>/<file>: one of the user's persona's current images or its copies.
 * Anyone else, an unknown persona or file, a path of another shape: 404.
 */
export async function readImage(user: CurrentUser | null, personaId: string, file: string) {
  const notFound = () => new ImageError(404, "Image Not Found");
  if (!user || !isUuid(personaId) || !isImageFileName(file)) throw notFound();
  const persona = await getPersona(user, personaId.toLowerCase()).catch(() => {
    throw notFound();
  });
  const current = [imageFileOf(persona.imageUrl), imageFileOf(persona.secondaryImageUrl)].filter((f): f is string => !!f);
  if (!current.some((f) => familyOf(f).includes(file))) throw notFound();
  const stored = await imageStorage().get(objectPath(persona.userId, persona.id, file));
  if (!stored) throw notFound();
  return stored;
}

async function originalOf(user: CurrentUser, id: string) {
  const persona = await getPersona(user, id);
  const file = imageFileOf(persona.imageUrl);
  const stored = file ? await imageStorage().get(objectPath(persona.userId, persona.id, file)) : null;
  return { persona, stored };
}

/** The reference image as JPEG (converted when stored otherwise); none: 404 'No Image Available'. */
export async function referenceImageJpeg(user: CurrentUser, id: string): Promise<{ persona: Persona; bytes: Uint8Array }> {
  const { persona, stored } = await originalOf(user, id);
  if (!stored) throw new ImageError(404, NO_IMAGE_TOAST.description, undefined, "no_image");
  if (stored.contentType === "image/jpeg") return { persona, bytes: stored.bytes };
  const sharp = await loadSharp();
  const jpeg = await sharp(stored.bytes).flatten({ background: "#ffffff" }).jpeg({ quality: 90, mozjpeg: true }).toBuffer();
  return { persona, bytes: new Uint8Array(jpeg.buffer, jpeg.byteOffset, jpeg.byteLength) };
}

/** The reference image as PNG for a character card, or null when the persona has none. */
export async function referenceImagePng(persona: Pick<Persona, "id" | "userId" | "imageUrl">): Promise<Uint8Array | null> {
  const file = imageFileOf(persona.imageUrl);
  if (!file) return null;
  const stored = await imageStorage()
    .get(objectPath(persona.userId, persona.id, file))
    .catch(() => null);
  if (!stored) return null;
  if (stored.contentType === "image/png") return stored.bytes;
  const sharp = await loadSharp();
  const png = await sharp(stored.bytes).png().toBuffer();
  return new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
}

/**
 * The images a CharX card carried besides its icon (docs/cards.md, CharX), stored with the
 * persona for its next CharX export: each checked like any image; one that is not readable is
 * not kept. Answers the file each kept asset was stored as, by the asset's URI.
 */
export async function storeCardAssets(
  userId: string,
  personaId: string,
  assets: readonly { uri: string; bytes: Uint8Array }[],
): Promise<Record<string, string>> {
  const kept: Record<string, string> = {};
  for (const asset of assets) {
    try {
      const image = await checkedImage(asset.bytes);
      const file = `asset-${randomBytes(8).toString("hex")}.${EXTENSIONS[image.format]}`;
      await imageStorage().put(objectPath(userId, personaId, file), image.bytes, TYPES[image.format]);
      kept[asset.uri] = file;
    } catch (error) {
      if (!(error instanceof AiError)) console.error(`[images] a card asset was not kept: ${describeError(error)}`);
    }
  }
  return kept;
}

/** A kept card asset's bytes (see storeCardAssets), or null when it is gone. */
export async function cardAssetBytes(persona: Pick<Persona, "id" | "userId">, file: string): Promise<Uint8Array | null> {
  if (!/^asset-[0-9a-f]{16}\.(png|jpg|webp)$/.test(file)) return null;
  const stored = await imageStorage()
    .get(objectPath(persona.userId, persona.id, file))
    .catch(() => null);
  return stored?.bytes ?? null;
}

/**
 * A new persona's id with its imported card picture stored as its reference image: the
 * picture is checked like any image; one that is not readable is simply not kept.
 */
export async function storeImportedPicture(
  userId: string,
  picture: Uint8Array,
  personaId: string = randomUUID(),
): Promise<{ personaId: string; imageUrl: string | null }> {
  try {
    const image = await checkedImage(picture);
    const file = await storeImage(userId, personaId, "primary", image);
    return { personaId, imageUrl: imageUrl(personaId, file) };
  } catch (error) {
    if (!(error instanceof AiError)) console.error(`[images] an imported card's picture was not kept: ${describeError(error)}`);
    return { personaId, imageUrl: null };
  }
}
