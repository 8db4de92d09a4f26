import { describe, expect, it } from "vitest";

import {
  birthYearFits,
  birthYearRange,
  CONTENT_BY_INTEREST,
  CONTENT_BY_LEANING,
  CONTENT_BY_TYPE,
  EXTENDED_PROFILE_DEFAULTS,
  EXTENDED_PROFILE_NOTE,
  EXTENDED_PROFILE_SECTIONS,
  EXTRA_LANGUAGES,
  extendedProfile,
  extendedProfileInputs,
  extendedProfileValue,
  TRAIT_LEANINGS,
  traitLeaning,
  type ExtendedProfile,
  type ExtendedProfileInput,
} from "./extended-profile";
import { AGE_RANGES, INTERESTS, PERSONA_TYPES, TRAITS } from "./persona";
import { pickMany, seededRandom } from "./random";

/** A varied persona per seed: every type, age range, and mixes of interests and traits. */
function persona(seed: number): ExtendedProfileInput {
  const random = seededRandom(seed);
  return {
    id: `00000000-0000-4000-8000-${String(seed).padStart(12, "0")}`,
    name: `Persona ${seed}`,
    type: PERSONA_TYPES[seed % PERSONA_TYPES.length],
    ageRange: AGE_RANGES[seed % AGE_RANGES.length],
    interests: pickMany(INTERESTS, 1 + (seed % 3), random),
    personality: pickMany(TRAITS, 1 + (seed % 7), random),
  };
}

const PROFILES = Array.from({ length: 400 }, (_, seed) => ({
  input: persona(seed),
  profile: extendedProfile(persona(seed)),
}));

const sentences = (text: string) => text.split(/(?<=[.!?])\s+/);

describe("extendedProfile", () => {
  it("is the same for the same persona, every time", () => {
    for (const { input, profile } of PROFILES.slice(0, 50)) {
      expect(extendedProfile(input)).toEqual(profile);
      expect(extendedProfile({ ...input })).toEqual(profile);
    }
  });

  it("is seeded by the id, or by the name without one", () => {
    const base = persona(1);
    expect(extendedProfile({ ...base, name: "Another Name" })).toEqual(extendedProfile(base));
    expect(extendedProfile({ ...base, id: undefined })).toEqual(extendedProfile({ ...base, id: null, name: base.name }));
    const byId = PROFILES.map(({ input }) => JSON.stringify(extendedProfile({ ...input, type: "content" })));
    expect(new Set(byId).size).toBeGreaterThan(byId.length * 0.9);
  });

  it("keeps fields unrelated to a change stable (each field has its own stream)", () => {
    const base = persona(5);
    const before = extendedProfile(base);
    const after = extendedProfile({ ...base, interests: ["cooking"] });
    expect(after.birthplace).toBe(before.birthplace);
    expect(after.birthYear).toBe(before.birthYear);
    expect(after.languages).toEqual(before.languages);
    expect(after.occupation).toBe(before.occupation);
  });

  it("has every count and shape the spec gives, over many personas", () => {
    for (const { profile } of PROFILES) {
      expect(profile.languages[0]).toBe("English");
      expect(profile.languages.length).toBeGreaterThanOrEqual(2);
      expect(profile.languages.length).toBeLessThanOrEqual(3);
      expect(new Set(profile.languages).size).toBe(profile.languages.length);
      for (const language of profile.languages.slice(1)) expect(EXTRA_LANGUAGES).toContain(language);

      const counts: [string[], number, number][] = [
        [profile.hobbies, 3, 5],
        [profile.favoritePlaces, 2, 3],
        [profile.influences, 2, 3],
        [profile.secretSkills, 2, 3],
      ];
      for (const [list, min, max] of counts) {
        expect(list.length).toBeGreaterThanOrEqual(min);
        expect(list.length).toBeLessThanOrEqual(max);
        expect(new Set(list).size).toBe(list.length);
      }

      const routine = sentences(profile.dailyRoutine);
      expect(routine).toHaveLength(3);
      for (const sentence of routine) expect(sentence).toMatch(/^[A-Z][^.!?]*\.$/);

      for (const text of [
        profile.birthplace,
        profile.currentResidence,
        profile.occupation,
        profile.education,
        profile.favoriteFood,
        profile.motto,
        profile.socialCircle.family,
        profile.socialCircle.friends,
        profile.socialCircle.colleagues,
        profile.goals.short,
        profile.goals.long,
        profile.challengesOvercome,
      ]) {
        expect(text.trim().length).toBeGreaterThan(0);
      }
      expect(profile.currentResidence).not.toBe(profile.birthplace);
    }
  });

  it("reaches every count the spec allows", () => {
    const lengths = (pick: (p: ExtendedProfile) => unknown[]) => [...new Set(PROFILES.map(({ profile }) => pick(profile).length))].sort();
    expect(lengths((p) => p.languages)).toEqual([2, 3]);
    expect(lengths((p) => p.hobbies)).toEqual([3, 4, 5]);
    expect(lengths((p) => p.favoritePlaces)).toEqual([2, 3]);
    expect(lengths((p) => p.influences)).toEqual([2, 3]);
    expect(lengths((p) => p.secretSkills)).toEqual([2, 3]);
    const extra = new Set(PROFILES.flatMap(({ profile }) => profile.languages.slice(1)));
    expect([...extra].sort()).toEqual([...EXTRA_LANGUAGES].sort());
  });

  it("gives birth years inside the age range at today's date", () => {
    for (const { input, profile } of PROFILES) {
      expect(birthYearFits(profile.birthYear, input.ageRange as Parameters<typeof birthYearFits>[1])).toBe(true);
    }
    const in2026 = new Date("2026-11-26T12:00:00Z");
    expect(birthYearRange("18-24", in2026)).toEqual({ from: 2002, to: 2007 });
    expect(birthYearRange("25-34", in2026)).toEqual({ from: 1992, to: 2000 });
    expect(birthYearRange("35-44", in2026)).toEqual({ from: 1982, to: 1990 });
    expect(birthYearRange("45-54", in2026)).toEqual({ from: 1972, to: 1980 });
    expect(birthYearRange("55+", in2026)).toEqual({ from: 1953, to: 1970 });
    // Born 1981, a 35-44 persona would be 45 this year.
    expect(birthYearFits(1981, "35-44", in2026)).toBe(false);
  });

  it("spreads birth years over the whole range", () => {
    const years = new Set(Array.from({ length: 300 }, (_, i) => extendedProfile({ id: `p${i}`, name: "X", ageRange: "18-24" }).birthYear));
    const { from, to } = birthYearRange("18-24");
    expect([...years].sort()).toEqual(Array.from({ length: to - from + 1 }, (_, i) => from + i));
  });

  it("takes places, occupation and education from the persona's type", () => {
    for (const { input, profile } of PROFILES) {
      const content = CONTENT_BY_TYPE[input.type as keyof typeof CONTENT_BY_TYPE];
      expect(content.cities).toContain(profile.birthplace);
      expect(content.cities).toContain(profile.currentResidence);
      expect(content.occupations).toContain(profile.occupation);
      expect(content.education).toContain(profile.education);
      expect(content.colleagues).toContain(profile.socialCircle.colleagues);
    }
  });

  it("takes hobbies from the persona's interests first", () => {
    const profile = extendedProfile({ id: "x", name: "X", interests: ["cooking", "fitness"] });
    const fromInterests = [...CONTENT_BY_INTEREST.cooking.hobbies, ...CONTENT_BY_INTEREST.fitness.hobbies];
    expect(profile.hobbies.some((hobby) => fromInterests.includes(hobby))).toBe(true);
  });

  it("has phrases for every type and every interest, with lists long enough for the counts", () => {
    expect(Object.keys(CONTENT_BY_TYPE).sort()).toEqual([...PERSONA_TYPES].sort());
    expect(Object.keys(CONTENT_BY_INTEREST).sort()).toEqual([...INTERESTS].sort());
    for (const type of PERSONA_TYPES) {
      const content = CONTENT_BY_TYPE[type];
      expect(new Set(content.cities).size).toBeGreaterThanOrEqual(5);
      expect(content.occupations.length).toBeGreaterThanOrEqual(3);
      expect(content.education.length).toBeGreaterThanOrEqual(3);
      for (const sentence of content.workday) expect(sentence).not.toMatch(/[.!?]/);
    }
    for (const interest of INTERESTS) expect(CONTENT_BY_INTEREST[interest].evening).not.toMatch(/[.!?]/);
  });

  it("varies the city lists by type", () => {
    const lists = PERSONA_TYPES.map((type) => JSON.stringify(CONTENT_BY_TYPE[type].cities));
    expect(new Set(lists).size).toBe(10);
  });
});

describe("traits shape the motto, the mornings, the challenges and the friends", () => {
  it("every trait leans one way, once", () => {
    const all = Object.values(TRAIT_LEANINGS).flat();
    expect([...all].sort()).toEqual([...TRAITS].sort());
    expect(traitLeaning("Quiet")).toBe("inward");
    expect(traitLeaning("Outgoing")).toBe("outgoing");
  });

  it("a Quiet, Calm persona gets quiet and calm phrases only", () => {
    const allowed = [CONTENT_BY_LEANING.inward, CONTENT_BY_LEANING.steady];
    for (let i = 0; i < 100; i++) {
      const profile = extendedProfile({ id: `q${i}`, name: "Q", personality: ["Quiet", "Calm"] });
      expect(allowed.flatMap((c) => c.mottos)).toContain(profile.motto);
      expect(allowed.flatMap((c) => c.challenges)).toContain(profile.challengesOvercome);
      expect(allowed.some((c) => c.mornings.some((m) => profile.dailyRoutine.startsWith(`${m}.`)))).toBe(true);
      expect(profile.socialCircle.friends).not.toMatch(/large, lively|talking to everyone/);
    }
  });

  it("morning sentences have no inner full stop", () => {
    for (const content of Object.values(CONTENT_BY_LEANING)) {
      for (const morning of content.mornings) expect(morning).not.toMatch(/[.!?]/);
    }
  });
});

describe("defaults", () => {
  it("are type content, age range 25-34, interests tech and art, traits Creative and Adaptable", () => {
    expect(EXTENDED_PROFILE_DEFAULTS).toEqual({
      type: "content",
      ageRange: "25-34",
      interests: ["tech", "art"],
      personality: ["Creative", "Adaptable"],
    });
    expect(extendedProfileInputs({ name: "X" })).toEqual(EXTENDED_PROFILE_DEFAULTS);
    expect(extendedProfileInputs({ name: "X", type: null, ageRange: "", interests: null, personality: [] })).toEqual(
      EXTENDED_PROFILE_DEFAULTS,
    );
    expect(
      extendedProfileInputs({
        name: "X",
        type: "robot",
        ageRange: "99",
        interests: ["knitting"],
        personality: ["Grumpy"],
      }),
    ).toEqual(EXTENDED_PROFILE_DEFAULTS);
  });

  it("make a draft with only a name give the same profile as one with the defaults spelled out", () => {
    const bare = extendedProfile({ id: "draft-1", name: "Draft" });
    expect(bare).toEqual(extendedProfile({ id: "draft-1", name: "Draft", ...EXTENDED_PROFILE_DEFAULTS }));
    expect(CONTENT_BY_TYPE.content.cities).toContain(bare.birthplace);
    expect(birthYearFits(bare.birthYear, "25-34")).toBe(true);
  });

  it("keep the given values that are valid", () => {
    expect(extendedProfileInputs({ name: "X", type: "artist", interests: ["music", "bogus", "music"] })).toEqual({
      ...EXTENDED_PROFILE_DEFAULTS,
      type: "artist",
      interests: ["music"],
    });
  });
});

describe("sections", () => {
  it("are the spec's five sections with their fields, in order", () => {
    expect(EXTENDED_PROFILE_SECTIONS.map((s) => [s.title, s.fields.map((f) => f.label)])).toEqual([
      ["Background", ["Birthplace", "Current Residence", "Occupation", "Education"]],
      ["Personal", ["Languages", "Favorite Food", "Hobbies", "Favorite Places"]],
      ["Social Circle", ["Family", "Friends", "Colleagues"]],
      ["Goals & Philosophy", ["Motto", "Short-term Goals", "Long-term Goals"]],
      ["Additional Info", ["Daily Routine", "Challenges Overcome", "Major Influences", "Secret Skills"]],
    ]);
  });

  it("each field reads its value from a profile", () => {
    const { profile } = PROFILES[0]!;
    const values = EXTENDED_PROFILE_SECTIONS.flatMap((s) => s.fields.map((f) => extendedProfileValue(profile, f.key)));
    expect(values).toEqual([
      profile.birthplace,
      profile.currentResidence,
      profile.occupation,
      profile.education,
      profile.languages,
      profile.favoriteFood,
      profile.hobbies,
      profile.favoritePlaces,
      profile.socialCircle.family,
      profile.socialCircle.friends,
      profile.socialCircle.colleagues,
      profile.motto,
      profile.goals.short,
      profile.goals.long,
      profile.dailyRoutine,
      profile.challengesOvercome,
      profile.influences,
      profile.secretSkills,
    ]);
  });

  it("come with a note that the profile is AI-generated and may be modified", () => {
    expect(EXTENDED_PROFILE_NOTE).toMatch(/generated by AI/);
    expect(EXTENDED_PROFILE_NOTE).toMatch(/basic information/);
    expect(EXTENDED_PROFILE_NOTE).toMatch(/may be modified/);
  });
});
