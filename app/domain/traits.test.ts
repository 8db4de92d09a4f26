import { describe, expect, it } from "vitest";

import { INTERESTS, TRAIT_CATEGORIES, TRAITS, type TraitCategory } from "./persona";
import { hashString, intBetween, mulberry32, pick, pickMany, seededRandom, shuffle } from "./random";
import {
  autoSelectTraits,
  capTraits,
  isTrait,
  toggleInterest,
  toggleTrait,
  TRAIT_CAP_TEXT,
  TRAIT_CATEGORY_NAMES,
  traitCategory,
} from "./traits";

const SEEDS = Array.from({ length: 500 }, (_, i) => i);

describe("random", () => {
  it("is reproducible from a seed and differs between seeds", () => {
    const a = seededRandom("persona-1");
    const b = seededRandom("persona-1");
    const sequence = Array.from({ length: 5 }, () => a());
    expect(Array.from({ length: 5 }, () => b())).toEqual(sequence);
    const c = seededRandom("persona-2");
    expect(Array.from({ length: 5 }, () => c())).not.toEqual(sequence);
    expect(hashString("abc")).toBe(hashString("abc"));
    expect(hashString("abc")).not.toBe(hashString("abd"));
  });

  it("stays in [0, 1)", () => {
    const random = mulberry32(42);
    for (let i = 0; i < 10_000; i++) {
      const value = random();
      expect(value >= 0 && value < 1).toBe(true);
    }
  });

  it("intBetween includes both ends and nothing outside", () => {
    const random = mulberry32(1);
    const seen = new Set<number>();
    for (let i = 0; i < 2_000; i++) seen.add(intBetween(3, 6, random));
    expect([...seen].sort()).toEqual([3, 4, 5, 6]);
    expect(intBetween(5, 5, random)).toBe(5);
    expect(intBetween(1, 2, () => 0.9999999999)).toBe(2);
    expect(intBetween(1, 2, () => 1)).toBe(2);
  });

  it("pick returns an item, and every item eventually; an empty list is a programming error", () => {
    const random = mulberry32(7);
    const items = ["a", "b", "c"];
    const seen = new Set(Array.from({ length: 200 }, () => pick(items, random)));
    expect([...seen].sort()).toEqual(items);
    expect(pick(items, () => 1)).toBe("c");
    expect(() => pick([], random)).toThrow(RangeError);
  });

  it("pickMany draws distinct items, at most all of them; or repeats when asked", () => {
    const random = mulberry32(9);
    for (let i = 0; i < 100; i++) {
      const chosen = pickMany(TRAITS, 5, random);
      expect(chosen).toHaveLength(5);
      expect(new Set(chosen).size).toBe(5);
      expect(chosen.every((t) => TRAITS.includes(t))).toBe(true);
    }
    expect(pickMany(["a", "b"], 5, random).sort()).toEqual(["a", "b"]);
    expect(pickMany(["a", "b"], 0, random)).toEqual([]);
    expect(pickMany(["a"], 3, random, false)).toEqual(["a", "a", "a"]);
  });

  it("shuffle keeps every item", () => {
    const shuffled = shuffle(TRAITS, mulberry32(3));
    expect(shuffled).not.toEqual(TRAITS);
    expect([...shuffled].sort()).toEqual([...TRAITS].sort());
  });
});

describe("traitCategory", () => {
  it("knows the six categories of six traits", () => {
    expect(TRAIT_CATEGORY_NAMES).toEqual(["Extroversion", "Emotional", "Openness", "Agreeableness", "Conscientiousness", "Content Style"]);
    expect(TRAITS).toHaveLength(36);
    for (const category of TRAIT_CATEGORY_NAMES) {
      for (const trait of TRAIT_CATEGORIES[category]) expect(traitCategory(trait)).toBe(category);
    }
    expect(traitCategory("Adaptable")).toBe("Conscientiousness");
    expect(traitCategory("Humorous")).toBe("Content Style");
  });

  it("has no category for a trait from nowhere", () => {
    expect(traitCategory("Grumpy")).toBeUndefined();
    expect(traitCategory("creative")).toBeUndefined();
    expect(traitCategory("toString")).toBeUndefined();
    expect(isTrait("Creative")).toBe(true);
    expect(isTrait(7)).toBe(false);
  });
});

describe("toggleTrait", () => {
  it("selects, and deselects a selected trait", () => {
    expect(toggleTrait([], "Calm")).toEqual(["Calm"]);
    expect(toggleTrait(["Calm", "Curious"], "Calm")).toEqual(["Curious"]);
  });

  it("ignores a click beyond 7 but still deselects", () => {
    const seven = TRAITS.slice(0, 7);
    expect(toggleTrait(seven, TRAITS[10]!)).toEqual(seven);
    expect(toggleTrait(seven, seven[3]!)).toEqual(seven.filter((_, i) => i !== 3));
    expect(toggleTrait(TRAITS.slice(0, 6), TRAITS[10]!)).toHaveLength(7);
  });

  it("ignores unknown traits", () => {
    expect(toggleTrait(["Calm"], "Grumpy")).toEqual(["Calm"]);
  });

  it("never changes the array it was given", () => {
    const selected = ["Calm"];
    toggleTrait(selected, "Curious");
    toggleTrait(selected, "Calm");
    expect(selected).toEqual(["Calm"]);
  });
});

describe("autoSelectTraits", () => {
  it("always gives 7 distinct traits after the cap, the first six one per category", () => {
    for (const seed of SEEDS) {
      const traits = autoSelectTraits(seededRandom(seed));
      expect(traits).toHaveLength(7);
      expect(new Set(traits).size).toBe(7);
      expect(traits.slice(0, 6).map((t) => traitCategory(t))).toEqual(TRAIT_CATEGORY_NAMES);
      expect(traits.every(isTrait)).toBe(true);
    }
  });

  it("picks 7 or 8 before the cap, both happening", () => {
    const lengths = new Set<number>();
    for (const seed of SEEDS) {
      const traits = autoSelectTraits(seededRandom(seed), Infinity);
      lengths.add(traits.length);
      expect(new Set(traits).size).toBe(traits.length);
      const perCategory = new Map<TraitCategory, number>();
      for (const t of traits) perCategory.set(traitCategory(t)!, (perCategory.get(traitCategory(t)!) ?? 0) + 1);
      expect(perCategory.size).toBe(6);
    }
    expect([...lengths].sort()).toEqual([7, 8]);
  });

  it("is random: over many seeds every trait is picked", () => {
    const seen = new Set(SEEDS.flatMap((seed) => autoSelectTraits(seededRandom(seed))));
    expect(seen.size).toBe(36);
  });

  it("is deterministic for a seed", () => {
    expect(autoSelectTraits(seededRandom("x"))).toEqual(autoSelectTraits(seededRandom("x")));
  });
});

describe("toggleInterest", () => {
  it("adds up to 3 and deselects", () => {
    expect(toggleInterest([], "art")).toEqual({ selected: ["art"], refused: false });
    expect(toggleInterest(["art", "tech"], "music")).toEqual({ selected: ["art", "tech", "music"], refused: false });
    expect(toggleInterest(["art", "tech"], "art")).toEqual({ selected: ["tech"], refused: false });
  });

  it("refuses a fourth (the UI then shows 'Maximum Interests')", () => {
    expect(toggleInterest(["art", "tech", "music"], "travel")).toEqual({
      selected: ["art", "tech", "music"],
      refused: true,
    });
    expect(toggleInterest(["art", "tech", "music"], "tech")).toEqual({ selected: ["art", "music"], refused: false });
  });

  it("ignores names that are no interest", () => {
    expect(toggleInterest(["art"], "knitting")).toEqual({ selected: ["art"], refused: false });
    expect(toggleInterest(["art", "tech", "music"], "knitting").refused).toBe(false);
    expect(INTERESTS).toHaveLength(12);
  });
});

describe("capTraits (a form sent without JavaScript)", () => {
  const seven = ["Outgoing", "Stable", "Creative", "Compassionate", "Organized", "Entertaining", "Calm"];
  it("keeps up to 7 as they are", () => {
    expect(capTraits(seven, [])).toEqual({ kept: seven, ignored: [] });
  });
  it("keeps the earlier selection and ignores the ticks beyond 7, naming them", () => {
    const { kept, ignored } = capTraits(["Quiet", ...seven], seven);
    expect(kept).toEqual(seven);
    expect(ignored).toEqual(["Quiet"]);
    expect(TRAIT_CAP_TEXT.ignored(ignored)).toBe("You can select up to 7 traits only, so Quiet was not added.");
  });
  it("adds new ticks in order when one was removed", () => {
    const before = [...seven.slice(0, 6), "Reserved"];
    const { kept, ignored } = capTraits([...seven, "Quiet"], before);
    expect(kept).toHaveLength(7);
    expect(kept).toContain("Calm");
    expect(ignored).toEqual(["Quiet"]);
  });
});
