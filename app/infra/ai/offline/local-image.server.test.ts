// The embedded image generator: deterministic, at least 768 × 768, WebP, and five styles that
// are different pictures (their shapes differ, not only their colours); the persona's fields
// change the picture; the secondary image is another picture (portrait-svg.test.ts measures how
// different).
import sharp from "sharp";
import { describe, expect, it } from "vitest";

import { IMAGE_STYLES, type ImageStyle } from "~/domain/images";

import { checkedImage, sniffImageFormat } from "../image-bytes.server";
import { renderPortrait } from "./local-image.server";
import { portraitFeatures, portraitSvg } from "./portrait-svg";
import type { ImageInput } from "../types";

const NOVA = {
  name: "Nova Quinn",
  type: "vtuber",
  gender: "female",
  ageRange: "25-34",
  interests: ["gaming", "music"],
  personality: ["Outgoing", "Creative"],
};
const ARTHUR = {
  name: "Arthur Bell",
  type: "educator",
  gender: "male",
  ageRange: "55+",
  interests: ["science"],
  personality: ["Reserved", "Focused"],
};

const input = (persona: typeof NOVA, style: ImageStyle, slot: ImageInput["slot"] = "primary"): ImageInput => ({ ...persona, style, slot });

/** Edges of a 64 × 64 greyscale copy: the picture's shapes, whatever its colours. */
async function edges(bytes: Uint8Array): Promise<Float64Array> {
  const size = 64;
  const grey = await sharp(bytes).resize(size, size).greyscale().normalise().raw().toBuffer();
  const out = new Float64Array(size * size);
  for (let y = 1; y < size - 1; y++) {
    for (let x = 1; x < size - 1; x++) {
      const i = y * size + x;
      out[i] = Math.abs(grey[i + 1]! - grey[i - 1]!) + Math.abs(grey[i + size]! - grey[i - size]!);
    }
  }
  return out;
}

function correlation(a: Float64Array, b: Float64Array): number {
  const mean = (v: Float64Array) => v.reduce((s, x) => s + x, 0) / v.length;
  const ma = mean(a);
  const mb = mean(b);
  let num = 0;
  let da = 0;
  let db = 0;
  for (let i = 0; i < a.length; i++) {
    num += (a[i]! - ma) * (b[i]! - mb);
    da += (a[i]! - ma) ** 2;
    db += (b[i]! - mb) ** 2;
  }
  return num / Math.sqrt(da * db);
}

describe("embedded image generator", () => {
  it("draws a WebP of at least 768 × 768 that reads back as an image", async () => {
    const image = await renderPortrait(input(NOVA, "photorealistic"));
    expect(image).toMatchObject({ format: "webp", width: 768, height: 768 });
    expect(sniffImageFormat(image.bytes)).toBe("webp");
    expect(await sharp(image.bytes).metadata()).toMatchObject({ format: "webp", width: 768, height: 768 });
    await expect(checkedImage(image.bytes)).resolves.toMatchObject({ format: "webp" });
  });

  it("is deterministic: the same persona, style and slot give the same bytes", async () => {
    for (const style of ["anime", "cinematic"] as const) {
      const a = await renderPortrait(input(NOVA, style));
      const b = await renderPortrait(input({ ...NOVA, interests: [...NOVA.interests] }, style));
      expect(Buffer.from(a.bytes).equals(Buffer.from(b.bytes))).toBe(true);
    }
  });

  it("draws five clearly different pictures for the five styles, not a colour swap", async () => {
    const shapes = await Promise.all(IMAGE_STYLES.map(async (style) => edges((await renderPortrait(input(NOVA, style))).bytes)));
    for (let i = 0; i < shapes.length; i++) {
      for (let j = i + 1; j < shapes.length; j++) {
        // A recoloured copy of the same drawing keeps its edges (correlation near 1).
        expect(correlation(shapes[i]!, shapes[j]!), `${IMAGE_STYLES[i]} vs ${IMAGE_STYLES[j]}`).toBeLessThan(0.75);
      }
    }
  });

  it("follows the persona: another persona, and the secondary framing, give another picture", async () => {
    const nova = await renderPortrait(input(NOVA, "anime"));
    const arthur = await renderPortrait(input(ARTHUR, "anime"));
    const secondary = await renderPortrait(input(NOVA, "anime", "secondary"));
    expect(Buffer.from(nova.bytes).equals(Buffer.from(arthur.bytes))).toBe(false);
    expect(Buffer.from(nova.bytes).equals(Buffer.from(secondary.bytes))).toBe(false);
    const svgNova = portraitSvg(NOVA, "minimalist", "primary");
    const svgArthur = portraitSvg(ARTHUR, "minimalist", "primary");
    // Glasses for an educator, cat-ear headphones for a VTuber.
    expect(portraitFeatures(ARTHUR).accessories).toContain("glasses");
    expect(portraitFeatures(NOVA).accessories).toContain("catEars");
    expect(svgNova).not.toBe(svgArthur);
    // The appearance is optional and followed when given.
    const described = await renderPortrait({ ...input(NOVA, "anime"), appearance: "short silver hair and round glasses" });
    expect(Buffer.from(described.bytes).equals(Buffer.from(nova.bytes))).toBe(false);
  });

  it("escapes nothing it should not: a name with markup does not reach the SVG", () => {
    const svg = portraitSvg({ ...NOVA, name: '<script>alert(1)</script>"' }, "photorealistic", "primary");
    expect(svg).not.toContain("<script>");
  });
});

describe("image bytes are sniffed, never trusted", () => {
  it("refuses text, truncated images and empty answers", async () => {
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#abc" } })
      .png()
      .toBuffer();
    await expect(checkedImage(new Uint8Array(png))).resolves.toMatchObject({ format: "png", width: 64 });
    for (const bad of [new TextEncoder().encode("<html>"), new Uint8Array(0), new Uint8Array(png.subarray(0, 40))]) {
      await expect(checkedImage(bad)).rejects.toMatchObject({ code: "bad_response" });
    }
  });
});
