// Reference images (docs/product.md, Reference images: the image box, generation, calls,
// toasts and timings): the styles with their labels, every text and toast of the image box, and the
// polling timings. Pure and isomorphic: the page, the actions and the API share it.
import { IMAGE_STYLES, type ImageStyle } from "./persona";

export { IMAGE_STYLES, type ImageStyle };

export const DEFAULT_IMAGE_STYLE: ImageStyle = "photorealistic";

export const IMAGE_STYLE_LABELS: Record<ImageStyle, string> = {
  photorealistic: "Photorealistic",
  anime: "Anime",
  digital_art: "Digital Art",
  cinematic: "Cinematic",
  minimalist: "Minimalist",
};

export function isImageStyle(value: unknown): value is ImageStyle {
  return typeof value === "string" && (IMAGE_STYLES as readonly string[]).includes(value);
}

/** The two images a generation makes (imageUrl, secondaryImageUrl). */
export const IMAGE_SLOTS = ["primary", "secondary"] as const;
export type ImageSlot = (typeof IMAGE_SLOTS)[number];

/** Widths of the resized copies the page picks from (srcset); the stored original is larger. */
export const IMAGE_WIDTHS = [384, 768] as const;
export type ImageWidth = (typeof IMAGE_WIDTHS)[number];

/** The image box's rendered width (`sizes`): a third of the page from lg, the column below. */
export const IMAGE_SIZES = "(min-width: 1024px) 320px, (min-width: 640px) 600px, 100vw";

/** Polling while generating (docs/product.md, Reference images): every 3 seconds, given up after 60 seconds. */
export const IMAGE_POLL_MS = 3_000;
export const IMAGE_POLL_LIMIT_MS = 60_000;

/** Where a persona's image generation stands. */
export type ImageGenerationStatus = "idle" | "generating" | "failed";

export interface ImageGenerationState {
  status: ImageGenerationStatus;
  style: ImageStyle | null;
  /** Why the last generation failed (the provider's reason when it gave one). */
  error: string | null;
  startedAt: string | null;
}

export const IDLE_IMAGE_STATE: ImageGenerationState = { status: "idle", style: null, error: null, startedAt: null };

export const IMAGE_TEXT = {
  boxTitle: "Reference Image",
  styleLabel: "Image style",
  save: "Save",
  generate: "Generate Reference Image",
  regenerate: "Regenerate Images",
  generating: "Generating reference images…",
  mayTake: "This may take up to 30 seconds",
  refresh: "Refresh",
  tookLong: "This is taking longer than expected. Please refresh the page in a moment.",
  failedReason: (reason: string) => `Reason: ${reason}`,
  draft: "Complete creation before generating images",
  imagesTitle: "Reference Images",
  overviewTitle: "Overview",
  primary: "Primary image",
  secondary: "Secondary image",
  noImages: "No reference images yet",
  alt: (name: string, slot: ImageSlot) => (slot === "primary" ? `Reference image of ${name}` : `Second reference image of ${name}`),
} as const;

export const IMAGE_MESSAGES = {
  invalidStyle: "Invalid image style",
  running: "Reference images are already being generated for this persona.",
  draft: "Complete creation before generating images",
  interrupted: "The server restarted before the images were finished.",
  timedOut: "Image generation took too long and was stopped.",
  storageFailed: "The images could not be stored.",
  notAnImage: "The image service answered with something that is not an image.",
} as const;

export const IMAGE_TOASTS = {
  styleFailed: { title: "Update Failed", description: "Could not update image style. Please try again." },
  styleSaved: { title: "Image Style Saved", description: "The next reference images will use this style." },
  started: {
    title: "Image Generation Started",
    description: "Your reference images are being generated. This may take up to 30 seconds.",
  },
  complete: { title: "Image Generation Complete", description: "Your reference images are ready." },
  failed: { title: "Image Generation Failed", description: "There was an error generating reference images. Please try again." },
  status: {
    title: "Image Generation Status",
    description: "Image generation is taking longer than expected. Please refresh the page in a moment.",
  },
} as const;

/** The failed toast, with the reason when there is one. */
export function failedToast(reason: string | null | undefined): { title: string; description: string } {
  const { title, description } = IMAGE_TOASTS.failed;
  return { title, description: reason ? `${description} ${IMAGE_TEXT.failedReason(reason)}` : description };
}
