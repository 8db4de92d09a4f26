// Where a persona's image generation stands, worked out from its job as stored (docs/product.md,
// Reference images): the persona page (personas.server.ts) and the image jobs (images.server.ts)
// both say it, so it lives apart from either.
import { IDLE_IMAGE_STATE, IMAGE_MESSAGES, isImageStyle, type ImageGenerationState } from "~/domain/images";
import type { ImageJob } from "~/infra/db/schema.server";

/** A job still 'generating' past its deadline was given up (its process is gone): it counts as failed. */
export function jobState(
  job: Pick<ImageJob, "status" | "style" | "error" | "startedAt" | "deadline"> | undefined,
  now = new Date(),
): ImageGenerationState {
  if (!job) return IDLE_IMAGE_STATE;
  const style = isImageStyle(job.style) ? job.style : null;
  const startedAt = new Date(job.startedAt).toISOString();
  if (job.status === "generating" && new Date(job.deadline) > now) return { status: "generating", style, error: null, startedAt };
  const error = job.status === "generating" ? IMAGE_MESSAGES.timedOut : job.error;
  return { status: "failed", style, error: error ?? null, startedAt };
}
