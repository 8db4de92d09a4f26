// The embedded image generator (the default, offline): the persona's portrait drawn as SVG
// (portrait-svg.ts) and rendered by sharp (librsvg) to a 768 × 768 WebP. Deterministic: the
// same persona, style and slot give the same bytes.

import { portraitSvg, PORTRAIT_SIZE } from "./portrait-svg";
import { loadSharp } from "../sharp.server";
import type { GeneratedImage, ImageGenerator, ImageInput } from "../types";

export async function renderPortrait(input: ImageInput): Promise<GeneratedImage> {
  const svg = portraitSvg(input, input.style, input.slot);
  const sharp = await loadSharp();
  const bytes = await sharp(Buffer.from(svg), { density: 72 })
    .resize(PORTRAIT_SIZE, PORTRAIT_SIZE)
    .webp({ quality: 88, effort: 2 })
    .toBuffer();
  return {
    bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    format: "webp",
    width: PORTRAIT_SIZE,
    height: PORTRAIT_SIZE,
  };
}

export function createLocalImageGenerator(): ImageGenerator {
  return {
    kind: "local",
    generateImage: (input) => renderPortrait(input),
  };
}
