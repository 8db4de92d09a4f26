// Embedded reference image generation timing, run by tests/bench/bench.mjs (measureReferenceImages):
//
//   node_modules/.bin/tsx tests/bench/images-embedded.ts --out <file.json> [--count 30] [--warmup 3]
//
// Builds `count` varied personas deterministically from the domain enumerations (every type,
// gender and age range; 1–3 interests; 1–7 traits), each in one of the five styles in turn, and
// times one generation as the job does it: the primary and the secondary image drawn by the
// embedded generator (app/infra/ai/offline/local-image.server.ts) and checked (sniffed and decoded),
// in this process. `warmup` generations on other personas run first and are not counted.
// Writes JSON to --out: the timings, the styles, the image sizes in bytes.
import fs from "node:fs";
import { performance } from "node:perf_hooks";

import { IMAGE_STYLES } from "~/domain/images";
import { AGE_RANGES, GENDERS, INTERESTS, PERSONA_TYPES, TRAITS } from "~/domain/persona";
import { mulberry32, pickMany } from "~/domain/random";
import { checkedImage } from "~/infra/ai/image-bytes.server";
import { renderPortrait } from "~/infra/ai/offline/local-image.server";
import type { ImageInput } from "~/infra/ai/types";

const args = process.argv.slice(2);
const arg = (name: string, fallback: string) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? args[i + 1]! : fallback;
};
const out = arg("--out", "");
const count = Number(arg("--count", "30"));
const warmup = Number(arg("--warmup", "3"));
if (!out) throw new Error("--out <file.json> is required");

function persona(i: number): Omit<ImageInput, "slot"> {
  const random = mulberry32(7_000 + i);
  return {
    name: `Bench Persona ${i}`,
    type: PERSONA_TYPES[i % PERSONA_TYPES.length]!,
    gender: GENDERS[i % GENDERS.length]!,
    ageRange: AGE_RANGES[i % AGE_RANGES.length]!,
    interests: pickMany(INTERESTS, 1 + (i % 3), random),
    personality: pickMany(TRAITS, 1 + (i % 7), random),
    description: null,
    style: IMAGE_STYLES[i % IMAGE_STYLES.length]!,
  };
}

async function generation(input: Omit<ImageInput, "slot">) {
  const bytes: number[] = [];
  for (const slot of ["primary", "secondary"] as const) {
    const image = await renderPortrait({ ...input, slot });
    await checkedImage(image.bytes);
    bytes.push(image.bytes.byteLength);
  }
  return bytes;
}

for (let i = 0; i < warmup; i++) await generation(persona(10_000 + i));
const timingsMs: number[] = [];
const styles: string[] = [];
const sizes: number[] = [];
for (let i = 0; i < count; i++) {
  const input = persona(i);
  const t0 = performance.now();
  sizes.push(...(await generation(input)));
  timingsMs.push(performance.now() - t0);
  styles.push(input.style);
}
fs.writeFileSync(
  out,
  JSON.stringify({ generator: "embedded (SVG rendered by sharp)", node: process.version, warmup, timingsMs, styles, sizes }),
);
