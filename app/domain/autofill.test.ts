import { describe, expect, it } from "vitest";

import {
  AUTO_FILL_AGE_RANGES,
  AUTO_FILL_GENDERS,
  autoFill,
  autoFillToast,
  DESCRIPTION_TEMPLATES,
  describePersona,
  INTERESTS_BY_TYPE,
  NAMES_BY_TYPE,
  isStaleDescription,
  truncateDescription,
} from "./autofill";
import { PERSONA_TYPES } from "./persona";
import { characterCount, EMPTY_PERSONA_FORM, validatePersona, type PersonaFormValues } from "./persona-form";
import { seededRandom } from "./random";

const SEEDS = Array.from({ length: 300 }, (_, i) => i);

describe("autoFill on an empty form", () => {
  it("fills the six step-1 fields and the result is a valid persona", () => {
    for (const seed of SEEDS) {
      const { values, filled } = autoFill(EMPTY_PERSONA_FORM, seededRandom(seed));
      expect(filled).toBe(6);
      expect(validatePersona(values, "create").success).toBe(true);
      const type = values.type as (typeof PERSONA_TYPES)[number];
      expect(NAMES_BY_TYPE[type]).toContain(values.name);
      expect(AUTO_FILL_GENDERS).toContain(values.gender);
      expect(AUTO_FILL_AGE_RANGES).toContain(values.ageRange);
      expect(values.interests.length === 2 || values.interests.length === 3).toBe(true);
      expect(new Set(values.interests).size).toBe(values.interests.length);
      for (const interest of values.interests) expect(INTERESTS_BY_TYPE[type]).toContain(interest);
      // The description never names the persona (a rename would make it wrong) and speaks of
      // the interests selected with it.
      expect(values.description).not.toContain(values.name);
      expect(values.description).toContain(values.interests.at(-1));
      expect(characterCount(values.description)).toBeLessThanOrEqual(150);
      expect(values.personality).toEqual([]);
      expect(values.backstory).toBe("");
    }
  });

  it("uses every type, only male or female, only the three youngest age ranges, 2 and 3 interests", () => {
    const results = SEEDS.map((seed) => autoFill({}, seededRandom(seed)).values);
    expect(new Set(results.map((v) => v.type)).size).toBe(10);
    expect([...new Set(results.map((v) => v.gender))].sort()).toEqual(["female", "male"]);
    expect([...new Set(results.map((v) => v.ageRange))].sort()).toEqual(["18-24", "25-34", "35-44"]);
    expect([...new Set(results.map((v) => v.interests.length))].sort()).toEqual([2, 3]);
  });

  it("is deterministic for a seed", () => {
    expect(autoFill({}, seededRandom("s"))).toEqual(autoFill({}, seededRandom("s")));
  });
});

describe("autoFill only touches empty fields", () => {
  const full: PersonaFormValues = {
    name: "My Own Name",
    type: "artist",
    gender: "non-binary",
    ageRange: "55+",
    interests: ["science"],
    description: "Mine.",
    personality: ["Calm", "Curious"],
    backstory: "My own story.",
  };

  it("changes nothing on a full form and fills 0 fields", () => {
    for (const seed of SEEDS.slice(0, 20)) expect(autoFill(full, seededRandom(seed))).toEqual({ values: full, filled: 0 });
  });

  it.each([
    ["name", { name: "" }],
    ["name", { name: "   " }],
    ["type", { type: "" }],
    ["gender", { gender: "" }],
    ["ageRange", { ageRange: "" }],
    ["interests", { interests: [] }],
    ["description", { description: "" }],
  ] as const)("fills only %s when only it is empty", (field, patch) => {
    for (const seed of SEEDS.slice(0, 50)) {
      const { values, filled } = autoFill({ ...full, ...patch }, seededRandom(seed));
      expect(filled).toBe(1);
      expect({ ...values, [field]: full[field] }).toEqual(full);
      expect(values[field]).not.toEqual(patch[field as keyof typeof patch]);
    }
  });

  it("uses the chosen type for the name, interests and description", () => {
    for (const seed of SEEDS.slice(0, 50)) {
      const { values, filled } = autoFill({ type: "educator", gender: "female" }, seededRandom(seed));
      expect(filled).toBe(4);
      expect(values.type).toBe("educator");
      expect(values.gender).toBe("female");
      expect(NAMES_BY_TYPE.educator).toContain(values.name);
      for (const interest of values.interests) expect(INTERESTS_BY_TYPE.educator).toContain(interest);
    }
  });

  it("keeps chosen interests and traits, and describes the chosen interests without the name", () => {
    const { values, filled } = autoFill({ name: "Zed", interests: ["cooking"], personality: ["Calm"] }, seededRandom(1));
    expect(values.interests).toEqual(["cooking"]);
    expect(values.personality).toEqual(["Calm"]);
    expect(values.description).not.toContain("Zed");
    expect(values.description).toContain("cooking");
    expect(filled).toBe(4);
  });

  it("counts a choice that is none of the options as empty", () => {
    const { values, filled } = autoFill({ ...full, type: "robot", gender: "robot" }, seededRandom(2));
    expect(filled).toBe(2);
    expect(PERSONA_TYPES).toContain(values.type);
    expect(AUTO_FILL_GENDERS).toContain(values.gender);
  });

  it("does not change the values it was given", () => {
    const given = { ...EMPTY_PERSONA_FORM, interests: [], personality: ["Calm"] };
    autoFill(given, seededRandom(3));
    expect(given).toEqual({ ...EMPTY_PERSONA_FORM, interests: [], personality: ["Calm"] });
  });
});

describe("the description", () => {
  it("is cut to 150 characters: 147 plus '...' when longer", () => {
    expect(truncateDescription("a".repeat(150))).toBe("a".repeat(150));
    const cut = truncateDescription("a".repeat(151));
    expect(cut).toBe(`${"a".repeat(147)}...`);
    expect(cut).toHaveLength(150);
    expect(truncateDescription("🎮".repeat(200))).toBe(`${"🎮".repeat(147)}...`);
  });

  it("fits the limit whatever the name and interests, and validates", () => {
    const name = "N".repeat(80);
    for (const seed of SEEDS.slice(0, 50)) {
      const { values } = autoFill({ name, interests: ["entertainment", "education", "business"] }, seededRandom(seed));
      expect(characterCount(values.description)).toBeLessThanOrEqual(150);
      expect(values.description).not.toContain(name);
      expect(validatePersona(values, "create").success).toBe(true);
    }
  });

  it("has templates for every type that name the interests, never the persona, and fill every placeholder", () => {
    for (const type of PERSONA_TYPES) {
      expect(DESCRIPTION_TEMPLATES[type].length).toBeGreaterThan(0);
      for (const template of DESCRIPTION_TEMPLATES[type]) {
        expect(template).not.toContain("{name}");
        expect(template).toContain("{interests}");
      }
      for (const seed of SEEDS.slice(0, 20)) {
        const text = describePersona({ type, interests: ["art", "tech", "music"] }, seededRandom(seed));
        expect(text).not.toMatch(/[{}]/);
        expect(text).toContain("art, tech and music");
      }
    }
  });
});

describe("a stale description (one a backstory must not quote)", () => {
  it("is an auto-fill line whose interests are no longer the selected ones", () => {
    const line = describePersona({ type: "personality", interests: ["music", "fashion"] }, () => 0);
    expect(isStaleDescription(line, { name: "Nova QA", interests: ["music", "fashion"] })).toBe(false);
    expect(isStaleDescription(line, { name: "Nova QA", interests: ["fashion", "music"] })).toBe(false);
    expect(isStaleDescription(line, { name: "Nova QA", interests: ["music"] })).toBe(true);
    expect(isStaleDescription(line, { name: "Nova QA", interests: ["gaming", "tech"] })).toBe(true);
  });

  it("is a line that names another suggested persona (written before a rename)", () => {
    const old = "Orion Gray is a charismatic digital personality known for sharp takes on music and fashion.";
    expect(isStaleDescription(old, { name: "Nova QA", interests: ["music", "fashion"] })).toBe(true);
    expect(isStaleDescription(old, { name: "Orion Gray", interests: ["music", "fashion"] })).toBe(false);
  });

  it("is never the creator's own words", () => {
    expect(isStaleDescription("A sunny globetrotter who cooks for strangers", { name: "Nova", interests: ["gaming"] })).toBe(false);
    expect(isStaleDescription("Loves music and fashion.", { name: "Nova", interests: ["tech"] })).toBe(false);
  });
});

describe("per-type lists", () => {
  it("have about eight names and 4 to 6 related interests for each of the ten types", () => {
    for (const type of PERSONA_TYPES) {
      expect(NAMES_BY_TYPE[type]).toHaveLength(8);
      expect(new Set(NAMES_BY_TYPE[type]).size).toBe(8);
      for (const name of NAMES_BY_TYPE[type]) expect(validatePersona({ name }, "draft").success).toBe(true);
      expect(INTERESTS_BY_TYPE[type].length).toBeGreaterThanOrEqual(4);
      expect(INTERESTS_BY_TYPE[type].length).toBeLessThanOrEqual(6);
      expect(new Set(INTERESTS_BY_TYPE[type]).size).toBe(INTERESTS_BY_TYPE[type].length);
    }
  });
});

describe("autoFillToast", () => {
  it("reads 'Auto-Fill Complete' / 'Filled N fields with AI-suggested content!'", () => {
    expect(autoFillToast(6)).toEqual({
      title: "Auto-Fill Complete",
      description: "Filled 6 fields with AI-suggested content!",
    });
    expect(autoFillToast(2).description).toBe("Filled 2 fields with AI-suggested content!");
    expect(autoFillToast(1).description).toBe("Filled 1 field with AI-suggested content!");
  });
});
