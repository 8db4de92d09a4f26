// Embedded backstory generation timing, run by tests/bench/bench.mjs (the "extra" group):
//
//   node_modules/.bin/tsx tests/bench/backstory-embedded.ts --out <file.json> [--count 100] [--warmup 10]
//
// Builds `count` varied, valid wizard inputs deterministically from the domain enumerations
// (every type, gender and age range; 1–3 interests; 1–7 traits from all categories; with and
// without a description), checks each one as 'Create Persona' would, then times
// generateBackstory() of the embedded generator (app/infra/ai/offline/local-text.server.ts) once per
// input, in this process. `warmup` generations on other inputs run first and are not counted;
// the very first (cold) call is reported on its own. Writes JSON to --out: the timings in input
// order, word counts, the inputs (bench.mjs sends the same ones over HTTP) and a hash of each
// story (to check the server writes the same text).
import { createHash } from "node:crypto";
import fs from "node:fs";
import { performance } from "node:perf_hooks";

import { AGE_RANGES, GENDERS, INTERESTS, PERSONA_LIMITS, PERSONA_TYPES, TRAITS } from "~/domain/persona";
import { mulberry32, pickMany } from "~/domain/random";
import { canGenerateBackstory, validatePersona } from "~/domain/persona-form";
import { createLocalTextGenerator } from "~/infra/ai/offline/local-text.server";
import { BACKSTORY_MIN_WORDS, countWords, type BackstoryInput } from "~/infra/ai/types";

const FIRST_NAMES = [
  "Nova",
  "Kai",
  "Luna",
  "Marcus",
  "Aiko",
  "Zoë",
  "Theo",
  "Priya",
  "Mateo",
  "Ingrid",
  "Oluwaseun",
  "Sasha",
  "Ezra",
  "Mei",
  "Rafael",
  "Freya",
  "Jun",
  "Amara",
  "Felix",
  "Søren",
];
const LAST_NAMES = ["Vance", "Okafor", "Nakamura", "Delgado", "Lindqvist", "Haddad", "O'Brien", "Kowalski", "Moreau", "Achebe"];
// Names the generator treats differently: a title (used whole), a single word, a long handle.
const SPECIAL_NAMES = ["Dr. Ada Quill", "Pixel", "Captain Juniper Hale", "DJ Sol", "Mx. River Stone", "Professor Otto von Brandt"];

const DESCRIPTIONS = [
  "",
  "A cozy late-night streamer who reviews indie games and answers every chat message.",
  "Explains the science behind everyday cooking in five-minute videos.",
  "Street-style photographer turned virtual fashion critic.",
  "Helps small business owners plan their first year without burning out.",
  '"Your calm voice in a loud internet."',
  "Trains for marathons and posts honest recovery logs, including the bad days.",
  "Composer of lo-fi beats for studying, with a soft spot for jazz history.",
  "A travel guide for people who prefer trains, markets and long walks over landmarks.",
];

/**
 * `count` valid persona inputs, the same for the same seed. Input i has type i mod 10, gender
 * ⌊i/10⌋ mod 4 and age range (i + ⌊i/10⌋) mod 5, so 100 inputs cover every type × gender pair
 * and every age range; 1 + (i mod 3) interests and 1 + (i mod 7) traits.
 */
function benchPersonas(count: number, seed = 0x5eed): BackstoryInput[] {
  const random = mulberry32(seed);
  const inputs: BackstoryInput[] = [];
  for (let i = 0; i < count; i++) {
    const name =
      i % 9 === 4
        ? SPECIAL_NAMES[Math.floor(i / 9) % SPECIAL_NAMES.length]
        : `${FIRST_NAMES[Math.floor(random() * FIRST_NAMES.length)]} ${LAST_NAMES[Math.floor(random() * LAST_NAMES.length)]}`;
    inputs.push({
      name,
      type: PERSONA_TYPES[i % PERSONA_TYPES.length],
      gender: GENDERS[Math.floor(i / PERSONA_TYPES.length) % GENDERS.length],
      ageRange: AGE_RANGES[(i + Math.floor(i / PERSONA_TYPES.length)) % AGE_RANGES.length],
      interests: pickMany(INTERESTS, PERSONA_LIMITS.interestsMin + (i % PERSONA_LIMITS.interestsMax), random),
      personality: pickMany(TRAITS, 1 + (i % PERSONA_LIMITS.traitsMax), random),
      description: DESCRIPTIONS[i % DESCRIPTIONS.length],
    });
  }
  return inputs;
}

function argValue(flag: string, fallback?: string): string | undefined {
  const at = process.argv.indexOf(flag);
  return at >= 0 && at + 1 < process.argv.length ? process.argv[at + 1] : fallback;
}

async function main(): Promise<void> {
  const out = argValue("--out");
  if (!out) throw new Error("--out <file> is required");
  const count = Number(argValue("--count", "100"));
  const warmup = Number(argValue("--warmup", "10"));

  const inputs = benchPersonas(count);
  for (const [i, input] of inputs.entries()) {
    const checked = validatePersona(input, "create");
    if (!checked.success || !canGenerateBackstory(input)) {
      throw new Error(`bench input ${i} is not a valid persona: ${JSON.stringify(checked.success ? input : checked.errors)}`);
    }
  }

  const generator = createLocalTextGenerator();
  const warmupInputs = benchPersonas(warmup, 0xc01d);
  let firstCallMs: number | null = null;
  for (const input of warmupInputs) {
    const t0 = performance.now();
    await generator.generateBackstory(input);
    firstCallMs ??= performance.now() - t0;
  }

  const timingsMs: number[] = [];
  const words: number[] = [];
  const chars: number[] = [];
  const hashes: string[] = [];
  for (const input of inputs) {
    const t0 = performance.now();
    const story = await generator.generateBackstory(input);
    const ms = performance.now() - t0;
    firstCallMs ??= ms;
    timingsMs.push(ms);
    words.push(countWords(story));
    chars.push(story.length);
    hashes.push(createHash("sha256").update(story).digest("hex"));
  }

  const result = {
    generator: generator.kind,
    node: process.version,
    count,
    warmup,
    firstCallMs,
    timingsMs,
    words,
    minWords: BACKSTORY_MIN_WORDS,
    maxChars: PERSONA_LIMITS.backstoryMax,
    chars,
    hashes,
    inputs,
    warmupInputs,
  };
  fs.writeFileSync(out, JSON.stringify(result));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
