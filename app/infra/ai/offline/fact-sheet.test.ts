// One set of facts behind every text (docs/product.md, Fact sheet): over 1,000 random personas,
// the embedded backstory tells the sheet's birthplace, residence, family and birth year, and no
// other city or family the generators know.
import { describe, expect, it } from "vitest";

import { birthYearFits, CONTENT_BY_TYPE, extendedProfile, FAMILY } from "~/domain/extended-profile";
import {
  AGE_RANGES,
  GENDERS,
  INTERESTS,
  PERSONA_TYPES,
  TRAITS,
  type AgeRange,
  type Gender,
  type Interest,
  type PersonaType,
} from "~/domain/persona";
import { mulberry32 } from "~/domain/random";

import * as P from "./backstory-phrases";
import { composeBackstory, sheetFacts } from "./local-text.server";
import type { BackstoryInput } from "../types";

const FIRST = ["Kira", "Yuki", "Nova", "Clara", "Leo", "Ada", "Milo", "Iris", "Theo", "Zara", "Kai", "Luna"];
const LAST = ["Moon", "Hayes", "Lumen", "Park", "Okafor", "Silva", "Berg", "Tanaka", "Reyes", "Nilsson"];

/** `count` random personas (random type, gender, age range, interests and traits), the same for the same seed; draws 0 to count - 1. */
function randomPersonas(seed: number, count: number): BackstoryInput[] {
  const random = mulberry32(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const some = <T>(items: readonly T[], max: number) => [
    ...new Set(Array.from({ length: 1 + Math.floor(random() * max) }, () => pick(items))),
  ];
  return Array.from({ length: count }, (_, i) => ({
    name: `${pick(FIRST)} ${pick(LAST)}`,
    type: pick(PERSONA_TYPES) as PersonaType,
    gender: pick(GENDERS) as Gender,
    ageRange: pick(AGE_RANGES) as AgeRange,
    interests: some(INTERESTS, 3) as Interest[],
    personality: some(TRAITS, 7),
    draw: i,
  }));
}

const city = (place: string) => place.split(",")[0]!.trim();
const ALL_CITIES = [...new Set(Object.values(CONTENT_BY_TYPE).flatMap((c) => c.cities.map(city)))];
/** The words that tell each family in the story. */
const FAMILY_MARKER = (family: string) => P.FAMILY_MARKERS[family]!;

/** The sentences of more than 12 words in a story, normalized (lower case, whitespace collapsed). */
const longSentences = (story: string) =>
  story
    .split("\n\n")
    .flatMap((paragraph) => paragraph.split(/(?<=[.!?])\s+/))
    .map((sentence) => sentence.toLowerCase().replace(/\s+/g, " ").trim())
    .filter((sentence) => sentence.split(" ").length > 12);

/** The long sentences told in the stories of two different personas of a sample. */
function sharedSentences(sample: readonly BackstoryInput[]): { told: number; shared: string[] } {
  const firstTeller = new Map<string, number>();
  const shared = new Set<string>();
  sample.forEach((input, i) => {
    for (const sentence of new Set(longSentences(composeBackstory(input)))) {
      const teller = firstTeller.get(sentence);
      if (teller === undefined) firstTeller.set(sentence, i);
      else if (teller !== i) shared.add(sentence);
    }
  });
  return { told: firstTeller.size, shared: [...shared] };
}

describe("the fact sheet and the embedded backstory", () => {
  const personas = randomPersonas(20261126, 1000);

  it("tell the same birthplace, residence, family and birth year, and no other city, for 1,000 personas", () => {
    const failures: string[] = [];
    for (const input of personas) {
      const facts = sheetFacts(input);
      const story = composeBackstory({ ...input, facts });
      const label = `${input.name} (${input.type}, draw ${input.draw})`;
      if (!story.includes(facts.birthplace)) failures.push(`${label}: birthplace ${facts.birthplace} missing`);
      if (!story.includes(city(facts.currentResidence))) failures.push(`${label}: residence ${facts.currentResidence} missing`);
      const named = new Set([city(facts.birthplace), city(facts.currentResidence)]);
      for (const other of ALL_CITIES) {
        if (!named.has(other) && new RegExp(`\\b${other}\\b`).test(story)) failures.push(`${label}: names ${other}`);
      }
      for (const family of FAMILY) {
        const told = story.includes(FAMILY_MARKER(family));
        if (family === facts.family && !told) failures.push(`${label}: family '${family}' not told`);
        if (family !== facts.family && told) failures.push(`${label}: another family told ('${family}')`);
      }
      const years = [...story.matchAll(/\b(19|20)\d\d\b/g)].map((m) => Number(m[0]));
      if (!years.includes(facts.birthYear) || years.some((y) => !birthYearFits(y, input.ageRange!))) {
        failures.push(`${label}: years ${years}, sheet ${facts.birthYear}`);
      }
    }
    expect(failures.slice(0, 10)).toEqual([]);
  });

  it("share no sentence of more than 12 words between two personas' stories, in each of 10 samples of 50", () => {
    const samples = [personas.slice(0, 50), ...Array.from({ length: 9 }, (_, k) => randomPersonas(1 + k, 50))];
    const shared: string[] = [];
    for (const [k, sample] of samples.entries()) {
      const result = sharedSentences(sample);
      expect(result.told).toBeGreaterThan(1500);
      shared.push(...result.shared.map((sentence) => `sample ${k}: ${sentence}`));
    }
    expect(shared).toEqual([]);
  });

  it("are the Extended Persona Profile a new persona stores", () => {
    for (const input of personas.slice(0, 50)) {
      const profile = extendedProfile({ id: null, ...input });
      expect(sheetFacts(input)).toEqual({
        birthplace: profile.birthplace,
        currentResidence: profile.currentResidence,
        occupation: profile.occupation,
        education: profile.education,
        family: profile.socialCircle.family,
        birthYear: profile.birthYear,
      });
    }
  });

  it("tells a family the creator wrote in their words, and an edited birthplace instead of the drawn one", () => {
    const input = personas[0]!;
    const facts = { ...sheetFacts(input), birthplace: "Reykjavik, Iceland", family: "Raised by two grandmothers on a sheep farm" };
    const story = composeBackstory({ ...input, facts });
    expect(story).toContain("Reykjavik, Iceland");
    expect(story).toContain("Raised by two grandmothers on a sheep farm.");
  });

  it("tells a sheet that states little (an imported card's) without holes: what it states, the rest drawn", () => {
    const input = personas[1]!;
    const facts = { birthplace: "", currentResidence: "Neo Tokyo", occupation: "", education: "", family: "", birthYear: 0 };
    const story = composeBackstory({ ...input, facts });
    expect(story).toContain("Neo Tokyo");
    expect(story).not.toMatch(/ in [,.]|: \.| {2}|\b0\b/);
  });
});
