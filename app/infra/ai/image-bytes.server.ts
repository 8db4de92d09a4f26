// What an image really is, from its bytes (magic numbers, then sharp reading its header):
// a provider's Content-Type or a file name is never trusted. Anything but a decodable PNG,
// JPEG or WebP of sensible size is refused.

import { loadSharp } from "./sharp.server";
import { AiError, type GeneratedImage } from "./types";

/** Largest image taken from a provider, and its largest side. */
export const IMAGE_MAX_BYTES = 10 * 1024 * 1024;
export const IMAGE_MAX_SIDE = 4096;

export function sniffImageFormat(bytes: Uint8Array): GeneratedImage["format"] | null {
  const at = (i: number, ...values: number[]) => values.every((v, k) => bytes[i + k] === v);
  if (bytes.length >= 8 && at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "png";
  if (bytes.length >= 3 && at(0, 0xff, 0xd8, 0xff)) return "jpeg";
  if (bytes.length >= 12 && at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return "webp";
  return null;
}

/** The bytes as a checked image, or AiError "bad_response" (nothing is stored). */
export async function checkedImage(bytes: Uint8Array): Promise<GeneratedImage> {
  const notImage = () => new AiError("bad_response", "The image service answered with something that is not an image.");
  if (bytes.byteLength === 0 || bytes.byteLength > IMAGE_MAX_BYTES) throw notImage();
  const format = sniffImageFormat(bytes);
  if (!format) throw notImage();
  const sharp = await loadSharp();
  try {
    const meta = await sharp(bytes, { failOn: "error" }).metadata();
    const width = meta.width ?? 0;
    const height = meta.height ?? 0;
    if (meta.format !== format || width < 16 || height < 16 || width > IMAGE_MAX_SIDE || height > IMAGE_MAX_SIDE) throw notImage();
    // Decode it fully once: a header followed by garbage is no image either.
    await sharp(bytes, { failOn: "error" }).resize(8, 8).raw().toBuffer();
    return { bytes, format, width, height };
  } catch (error) {
    if (error instanceof AiError) throw error;
    throw notImage();
  }
}
