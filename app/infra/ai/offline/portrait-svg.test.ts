// Reference images tell personas apart (docs/product.md, Reference images): 50 random personas
// give 50 visibly different portraits in every style, the secondary image is another picture
// (not a crop of the primary), Photorealistic is shaded and lit, and the appearance text's cues
// are followed. "Visibly different" is measured with a perceptual hash.
//
// The hash: a 256-bit difference hash (dHash) of the picture in greyscale, averaged over a grid of
// 17 × 16 cells; each bit says whether a cell is brighter than its right-hand neighbour (by more
// than LEVEL, so that flat ground hashes alike whatever the rendering noise). It
// ignores colour, size and compression: the generator's 768-pixel WebP and the same drawing
// rendered at 256 pixels stay within NEAR bits of each other (checked below); two unrelated
// pictures sit about 128 bits apart. Two portraits count as different pictures when their hashes
// are at least DISTINCT bits apart: further apart than one drawing is from itself at two sizes.
import sharp from "sharp";
import { describe, expect, it } from "vitest";

import { IMAGE_STYLES, type ImageSlot, type ImageStyle } from "~/domain/images";
import { AGE_RANGES, GENDERS, INTERESTS, PERSONA_TYPES, TRAITS } from "~/domain/persona";
import { mulberry32, pickMany } from "~/domain/random";

import { renderPortrait } from "./local-image.server";
import { appearanceCues, portraitFeatures, portraitSvg, type PortraitPersona } from "./portrait-svg";

/** The same drawing at two sizes stays this close to itself. */
const NEAR = 16;
/** Any two personas' portraits (and a persona's two images) are at least this far apart. */
const DISTINCT = 20;
/** The secondary image is at least this far from the primary and from any crop of it. */
const ANOTHER_PICTURE = 40;

function randomPersona(i: number): PortraitPersona {
  const random = mulberry32(90_000 + i * 7_919);
  const one = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  return {
    name: `Persona ${i}`,
    type: one(PERSONA_TYPES),
    gender: one(GENDERS),
    ageRange: one(AGE_RANGES),
    interests: pickMany(INTERESTS, 1 + Math.floor(random() * 3), random),
    personality: pickMany(TRAITS, 1 + Math.floor(random() * 7), random),
  };
}
const PERSONAS = Array.from({ length: 50 }, (_, i) => randomPersona(i));

/** A cell counts as brighter than its neighbour by more than this (of 255): flat ground stays 0 whatever the rendering noise. */
const LEVEL = 1;

/** The dHash of a whole image (any size, any format sharp reads). */
async function dHash(image: Uint8Array | Buffer): Promise<Uint8Array> {
  const { data, info } = await sharp(image).greyscale().raw().toBuffer({ resolveWithObject: true });
  return regionHash(data, info.width, 0, 0, Math.min(info.width, info.height));
}

/** dHash of a square region of a greyscale picture (cell means), for hashing many crops quickly. */
function regionHash(grey: Buffer, width: number, left: number, top: number, side: number): Uint8Array {
  const cells = new Float64Array(17 * 16);
  for (let cy = 0; cy < 16; cy++) {
    for (let cx = 0; cx < 17; cx++) {
      const x0 = left + Math.floor((cx * side) / 17);
      const x1 = left + Math.max(Math.floor(((cx + 1) * side) / 17), x0 - left + 1);
      const y0 = top + Math.floor((cy * side) / 16);
      const y1 = top + Math.max(Math.floor(((cy + 1) * side) / 16), y0 - top + 1);
      let sum = 0;
      for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) sum += grey[y * width + x]!;
      cells[cy * 17 + cx] = sum / ((x1 - x0) * (y1 - y0));
    }
  }
  const bits = new Uint8Array(256);
  for (let y = 0; y < 16; y++) for (let x = 0; x < 16; x++) bits[y * 16 + x] = cells[y * 17 + x]! > cells[y * 17 + x + 1]! + LEVEL ? 1 : 0;
  return bits;
}

const greyOf = (persona: PortraitPersona, style: ImageStyle, slot: ImageSlot) =>
  sharp(Buffer.from(portraitSvg(persona, style, slot)), { density: 36 })
    .greyscale()
    .raw()
    .toBuffer();

function distance(a: Uint8Array, b: Uint8Array): number {
  let d = 0;
  for (let i = 0; i < a.length; i++) d += a[i] === b[i] ? 0 : 1;
  return d;
}

/** The drawing itself, at a third of the size: the same picture as the generator's, quicker to hash. */
const small = (persona: PortraitPersona, style: ImageStyle, slot: ImageSlot = "primary") =>
  sharp(Buffer.from(portraitSvg(persona, style, slot)), { density: 24 })
    .png()
    .toBuffer();

function closest(hashes: Uint8Array[]): { min: number; pair: [number, number] } {
  let min = Infinity;
  let pair: [number, number] = [0, 0];
  for (let i = 0; i < hashes.length; i++) {
    for (let j = i + 1; j < hashes.length; j++) {
      const d = distance(hashes[i]!, hashes[j]!);
      if (d < min) [min, pair] = [d, [i, j]];
    }
  }
  return { min, pair };
}

describe("portraits tell personas apart", () => {
  it("hashes the same drawing alike at any size (the NEAR bound, below DISTINCT)", async () => {
    for (const style of IMAGE_STYLES) {
      for (const persona of PERSONAS.slice(0, 4)) {
        const { bytes } = await renderPortrait({ ...persona, style, slot: "primary" });
        expect(distance(await dHash(bytes), await dHash(await small(persona, style))), `${style}, ${persona.name}`).toBeLessThanOrEqual(
          NEAR,
        );
      }
    }
    expect(NEAR).toBeLessThan(DISTINCT);
  }, 60_000);

  it("gives 50 random personas 50 different Photorealistic portraits (the generator's own bytes)", async () => {
    const hashes: Uint8Array[] = [];
    for (const persona of PERSONAS)
      hashes.push(await dHash((await renderPortrait({ ...persona, style: "photorealistic", slot: "primary" })).bytes));
    const { min, pair } = closest(hashes);
    expect(min, `personas ${pair[0]} and ${pair[1]}`).toBeGreaterThanOrEqual(DISTINCT);
  }, 120_000);

  it.each(IMAGE_STYLES.filter((s) => s !== "photorealistic"))(
    "gives 50 random personas 50 different %s portraits",
    async (style) => {
      const hashes: Uint8Array[] = [];
      for (const persona of PERSONAS) hashes.push(await dHash(await small(persona, style)));
      const { min, pair } = closest(hashes);
      expect(min, `personas ${pair[0]} and ${pair[1]}`).toBeGreaterThanOrEqual(DISTINCT);
    },
    60_000,
  );

  it("makes the secondary image another picture: far from the primary and from every crop of it", async () => {
    const zooms = [1, 1.1, 1.25, 1.4, 1.6, 1.8, 2.2, 2.6];
    for (const style of IMAGE_STYLES) {
      for (const persona of PERSONAS.slice(0, 6)) {
        const primary = await greyOf(persona, style, "primary");
        const secondary = regionHash(await greyOf(persona, style, "secondary"), 384, 0, 0, 384);
        let nearest = Infinity;
        for (const zoom of zooms) {
          const side = Math.round(384 / zoom);
          for (let gy = 0; gy <= 6; gy++) {
            for (let gx = 0; gx <= 6; gx++) {
              const crop = regionHash(primary, 384, Math.round(((384 - side) * gx) / 6), Math.round(((384 - side) * gy) / 6), side);
              nearest = Math.min(nearest, distance(secondary, crop));
            }
          }
        }
        expect(nearest, `${style}, ${persona.name}`).toBeGreaterThanOrEqual(ANOTHER_PICTURE);
      }
    }
  }, 60_000);
});

describe("Photorealistic is painted light, not flat fills", () => {
  /** Share of face pixels inside a flat patch (a 3 × 3 of one colour), and the lit side's lead in brightness. */
  async function faceStats(persona: PortraitPersona, style: ImageStyle) {
    const svg = portraitSvg(persona, style, "primary");
    const { data, info } = await sharp(Buffer.from(svg))
      .extract({ left: 300, top: 250, width: 168, height: 160 })
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const { width, height } = info;
    const rgb = (x: number, y: number) =>
      (data[(y * width + x) * 3]! << 16) | (data[(y * width + x) * 3 + 1]! << 8) | data[(y * width + x) * 3 + 2]!;
    const grey = (x: number, y: number) => data[(y * width + x) * 3]! + data[(y * width + x) * 3 + 1]! + data[(y * width + x) * 3 + 2]!;
    let flat = 0;
    let count = 0;
    let left = 0;
    let right = 0;
    for (let y = 1; y < height - 1; y++) {
      for (let x = 1; x < width - 1; x++) {
        count += 1;
        if (x < width / 2) left += grey(x, y);
        else right += grey(x, y);
        const v = rgb(x, y);
        let same = true;
        for (let dy = -1; dy <= 1 && same; dy++) for (let dx = -1; dx <= 1 && same; dx++) same = rgb(x + dx, y + dy) === v;
        if (same) flat += 1;
      }
    }
    return { flat: flat / count, lead: Math.abs(left - right) / ((left + right) / 2) };
  }

  it("shades the face with gradients and a side light; the flat styles stay flat", async () => {
    for (const persona of PERSONAS.slice(0, 6)) {
      const painted = await faceStats(persona, "photorealistic");
      expect(painted.flat, persona.name).toBeLessThan(0.15);
      expect(painted.lead, persona.name).toBeGreaterThan(0.04);
      expect((await faceStats(persona, "anime")).flat, persona.name).toBeGreaterThan(0.5);
      expect((await faceStats(persona, "minimalist")).flat, persona.name).toBeGreaterThan(0.5);
    }
  });

  it("draws with gradients, highlights and shadows", () => {
    const svg = portraitSvg(PERSONAS[0]!, "photorealistic", "primary");
    for (const id of ["pSkin", "pHair", "pCloth", "pIris", "pShade", "pLight", "pTurn"]) expect(svg).toContain(`url(#${id})`);
  });
});

describe("the persona decides the look", () => {
  it("varies every feature across personas", () => {
    const seen: Record<string, Set<string>> = {};
    for (let i = 0; i < 300; i++) {
      const features = portraitFeatures(randomPersona(1_000 + i));
      for (const [key, value] of Object.entries(features)) (seen[key] ??= new Set()).add(String(value));
    }
    expect(seen.face!.size).toBe(6);
    expect(seen.skin!.size).toBeGreaterThanOrEqual(10);
    expect(seen.hairStyle!.size).toBeGreaterThanOrEqual(14);
    expect(seen.hairLength!.size).toBe(3);
    expect(seen.hairColour!.size).toBeGreaterThanOrEqual(20);
    expect(seen.eyes!.size).toBeGreaterThanOrEqual(6);
    expect(seen.clothing!.size).toBeGreaterThanOrEqual(10);
    expect(seen.expression!.size).toBe(5);
  });

  it("follows type, gender and age", () => {
    const base = { name: "Ada", interests: ["music"], personality: ["Calm"] };
    expect(portraitFeatures({ ...base, type: "advisor", gender: "female", ageRange: "25-34" }).clothing).toBe("blazer");
    expect(portraitFeatures({ ...base, type: "educator", gender: "male", ageRange: "25-34" }).accessories).toContain("glasses");
    expect(portraitFeatures({ ...base, type: "vtuber", gender: "male", ageRange: "25-34" }).accessories).toContain("catEars");
    // Only men get beards unless the appearance says so; grey hair comes with age.
    for (let i = 0; i < 40; i++) expect(portraitFeatures({ ...randomPersona(i), gender: "female" }).facialHair).toBe("none");
    const greys = PERSONAS.filter((p) => {
      const hair = portraitFeatures({ ...p, ageRange: "55+", type: "advisor" }).hairColour;
      const v = parseInt(hair.slice(1), 16);
      const [r, g, b] = [(v >> 16) & 255, (v >> 8) & 255, v & 255];
      return Math.max(r, g, b) - Math.min(r, g, b) < 40 && r > 100;
    });
    expect(greys.length).toBeGreaterThan(PERSONAS.length * 0.6);
  });

  it("reads simple cues from the appearance text", () => {
    expect(appearanceCues("Long silver hair, green eyes, round glasses and cat-ear headphones.")).toMatchObject({
      hairLength: "long",
      hairColour: "#b6b1aa",
      eyes: "#4e7a39",
      accessories: expect.arrayContaining(["glasses", "catEars"]),
    });
    expect(appearanceCues("Short pink hair and a red hoodie")).toMatchObject({
      hairLength: "short",
      hairColour: "#e27aae",
      clothing: "hoodie",
      clothingColour: "#b8323f",
    });
    expect(appearanceCues("A bald man with a grey beard and dark skin")).toMatchObject({
      hairStyle: "bald",
      facialHair: "beard",
      skin: [7, 9],
    });
    expect(appearanceCues("Blue eyes, black hair in a ponytail")).toMatchObject({
      eyes: "#3f6ea8",
      hairColour: "#15100e",
      hairStyle: "ponytail",
    });
    expect(appearanceCues("curly auburn shoulder-length hair, freckles, wears a lab coat")).toMatchObject({
      hairColour: "#86391d",
      hairLength: "medium",
      freckles: true,
      clothing: "labcoat",
    });
    expect(appearanceCues(null)).toEqual({ accessories: [] });
    expect(appearanceCues("No glasses.").accessories).not.toContain("glasses");
  });

  it("follows the appearance, changing only what it names", async () => {
    const persona = { ...PERSONAS[3]!, gender: "male", type: "advisor" };
    const plain = portraitFeatures(persona);
    const described = portraitFeatures({
      ...persona,
      appearance: "Long wavy blonde hair, blue eyes, round glasses and cat-ear headphones",
    });
    expect(described).toMatchObject({
      hairStyle: "wavy",
      hairLength: "long",
      hairColour: "#d6b26c",
      eyes: "#3f6ea8",
      face: plain.face,
      skin: plain.skin,
    });
    expect(described.accessories).toEqual(expect.arrayContaining(["glasses", "catEars"]));
    const before = await dHash(await small(persona, "photorealistic"));
    const after = await dHash(
      await small({ ...persona, appearance: "Long wavy blonde hair, blue eyes, round glasses and cat-ear headphones" }, "photorealistic"),
    );
    expect(distance(before, after)).toBeGreaterThanOrEqual(DISTINCT);
  });

  it("is deterministic in every style and slot; the appearance is optional", () => {
    for (const style of IMAGE_STYLES) {
      for (const slot of ["primary", "secondary"] as const) {
        const persona = PERSONAS[7]!;
        expect(portraitSvg({ ...persona, interests: [...persona.interests] }, style, slot)).toBe(portraitSvg(persona, style, slot));
        expect(portraitSvg({ ...persona, appearance: null }, style, slot)).toBe(portraitSvg(persona, style, slot));
        expect(portraitSvg({ ...persona, appearance: "" }, style, slot)).toBe(portraitSvg(persona, style, slot));
      }
    }
  });
});
