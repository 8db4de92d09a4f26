// One set of facts behind every text (docs/product.md, Fact sheet): over 1,000 random personas,
// the embedded chat answers 'Where were you born?', 'Where do you live?' and 'What do you do?'
// with the fact sheet's birthplace, residence and occupation.
import { describe, expect, it } from "vitest";

import { extendedProfile } from "~/domain/extended-profile";
import { AGE_RANGES, GENDERS, INTERESTS, PERSONA_TYPES, TRAITS } from "~/domain/persona";
import { mulberry32 } from "~/domain/random";

import { composeChatReply } from "./local-chat.server";

const random = mulberry32(26112026);
const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
const some = <T>(items: readonly T[], max: number) => [
  ...new Set(Array.from({ length: 1 + Math.floor(random() * max) }, () => pick(items))),
];
const FIRST = ["Kira", "Yuki", "Nova", "Clara", "Leo", "Ada", "Milo", "Iris", "Theo", "Zara", "Kai", "Luna"];
const LAST = ["Moon", "Hayes", "Lumen", "Park", "Okafor", "Silva", "Berg", "Tanaka", "Reyes", "Nilsson"];
const city = (place: string) => place.split(",")[0]!.trim();
const words = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}\s-]/gu, " ");

describe("the fact sheet and the embedded chat", () => {
  it("answers where the persona was born, lives and what it does with the sheet's facts, for 1,000 personas", () => {
    const misses: string[] = [];
    for (let i = 0; i < 1000; i++) {
      const base = {
        name: `${pick(FIRST)} ${pick(LAST)}`,
        type: pick(PERSONA_TYPES),
        gender: pick(GENDERS),
        ageRange: pick(AGE_RANGES),
        interests: some(INTERESTS, 3),
        personality: some(TRAITS, 7),
      };
      const extended = extendedProfile({ id: null, ...base });
      const ask = (message: string) =>
        composeChatReply({ personaId: `p${i}`, persona: { ...base, extended }, history: [{ role: "user", content: message }] });
      const born = ask("Where were you born?");
      const lives = ask("Where do you live?");
      const work = ask("What do you do?");
      if (!born.includes(city(extended.birthplace))) misses.push(`born: ${extended.birthplace} not in "${born}"`);
      if (!lives.includes(city(extended.currentResidence))) misses.push(`lives: ${extended.currentResidence} not in "${lives}"`);
      if (!words(work).includes(words(extended.occupation).trim())) misses.push(`work: ${extended.occupation} not in "${work}"`);
    }
    expect(misses.slice(0, 5)).toEqual([]);
  });
});
