// Persona tests' checks, one kind at a time (docs/product.md, Persona tests), the probe schema's
// refusals, the suggested suite and the run summary.
import { describe, expect, it } from "vitest";

import { extendedProfile } from "./extended-profile";
import { newLoreEntry } from "./lorebook";
import { EMPTY_VOICE } from "./persona-voice";
import {
  checkReplies,
  factValue,
  fold,
  mentions,
  parseProbe,
  pinFact,
  probeSchema,
  PROBE_DEFAULTS,
  PROBE_MESSAGES,
  runSummary,
  suggestProbes,
  type Probe,
  type ProbeContext,
} from "./probes";

const facts = {
  ...extendedProfile({ id: "00000000-0000-4000-8000-000000000001", name: "Kira Moon", type: "vtuber", ageRange: "25-34" }),
  birthplace: "São Paulo, Brazil",
  currentResidence: "Seoul, South Korea",
  occupation: "Streamer and podcaster",
  languages: ["English", "Korean"],
  motto: "Stay curious.",
  birthYear: 1996,
};
const mina = newLoreEntry(
  {
    name: "Mina",
    keys: ["Mina"],
    secondary_keys: [],
    selective: false,
    content: "Mina is Kira's older sister, a night-shift nurse in Busan.",
    enabled: true,
    constant: false,
    insertion_order: 100,
    case_sensitive: false,
    comment: "",
    use_regex: false,
    kind: "person",
  },
  "00000000-0000-4000-8001-000000000001",
);
const context: ProbeContext = { facts, lore: [mina], name: "Kira Moon" };

const probe = (fields: Partial<Probe>): Probe => ({
  id: "p",
  name: "Probe",
  turns: ["Hi"],
  ...PROBE_DEFAULTS,
  inCharacter: false,
  factExpected: null,
  ...fields,
});

const checks = (fields: Partial<Probe>, replies: string[]) => checkReplies(probe(fields), replies, context).map((f) => f.check);

describe("checks", () => {
  it("must mention: any one phrase in the last reply, case- and accent-insensitive, as whole words", () => {
    expect(mentions("I was born in SAO PAULO!", "São Paulo")).toBe(true);
    expect(mentions("Catch you later", "cat")).toBe(false);
    expect(checks({ mustMention: ["Stay cozy", "Let's go"] }, ["Hmm", "Let’s go, chat!"])).toEqual([]);
    expect(checks({ mustMention: ["Stay cozy"] }, ["Stay cozy!", "Bye"])).toEqual(["mustMention"]);
    expect(fold("  Ça   VA ")).toBe("ca va");
  });

  it("must not mention: in no reply of the exchange", () => {
    expect(checks({ mustNotMention: ["loan shark"] }, ["I owe a loan shark", "Never mind"])).toEqual(["mustNotMention"]);
    expect(checks({ mustNotMention: ["loan shark"] }, ["Nothing to hide"])).toEqual([]);
  });

  it("must match / must not match: safe patterns, the last reply and every reply", () => {
    expect(checks({ mustMatch: "\\b19\\d\\d\\b" }, ["Born in 1996."])).toEqual([]);
    expect(checks({ mustMatch: "\\b19\\d\\d\\b" }, ["A while ago."])).toEqual(["mustMatch"]);
    expect(checks({ mustNotMatch: "https?://" }, ["see http://x.test", "ok"])).toEqual(["mustNotMatch"]);
  });

  it("maximum length: characters of the last reply", () => {
    expect(checks({ maxLength: 5 }, ["Hello there"])).toEqual(["maxLength"]);
    expect(checks({ maxLength: 5 }, ["Hi 👋"])).toEqual([]);
  });

  it("stays in character: none of the out-of-character phrases in any reply", () => {
    expect(checks({ inCharacter: true }, ["As an AI, I cannot"])).toEqual(["inCharacter"]);
    expect(checks({ inCharacter: true }, ["I'm a streamer from Seoul"])).toEqual([]);
  });

  it("states the fact: a fact-sheet field's value (the city is enough), pinned when saved", () => {
    expect(checks({ statesFact: "fact:birthplace" }, ["I was born in Sao Paulo."])).toEqual([]);
    expect(checks({ statesFact: "fact:birthplace" }, ["I was born in Lagos."])).toEqual(["statesFact"]);
    expect(checks({ statesFact: "fact:languages" }, ["English and Korean!"])).toEqual([]);
    expect(checks({ statesFact: "fact:birthYear" }, ["In 1996."])).toEqual([]);
    // Pinned: the persona moved its birthplace since; the probe still expects the value it was saved with.
    const pinned = pinFact({ ...probe({ statesFact: "fact:birthplace" }) }, context);
    const moved = { ...context, facts: { ...facts, birthplace: "Lagos, Nigeria" } };
    expect(checkReplies({ ...pinned, id: "p" }, ["I was born in Lagos."], moved).map((f) => f.check)).toEqual(["statesFact"]);
  });

  it("states the fact: a lore entry's words (at least half), and a deleted entry is a broken probe", () => {
    expect(factValue(`lore:${mina.id}`, context)?.words).toEqual(["older", "sister", "night", "shift", "nurse", "busan"]);
    expect(checks({ statesFact: `lore:${mina.id}` }, ["Mina is my older sister, a nurse in Busan."])).toEqual([]);
    expect(checks({ statesFact: `lore:${mina.id}` }, ["Mina? A friend."])).toEqual(["statesFact"]);
    const gone = checkReplies(probe({ statesFact: `lore:${mina.id}` }), ["Mina?"], { ...context, lore: [] });
    expect(gone).toEqual([{ check: "broken", expected: `the lore entry lore:${mina.id}`, got: "The entry is gone" }]);
  });
});

describe("the probe schema", () => {
  const refusal = (raw: unknown) => {
    const result = probeSchema().safeParse(raw);
    return result.success ? null : Object.fromEntries(result.error.issues.map((i) => [String(i.path[0]), i.message]));
  };

  it("reads turns and phrases from lists or from text, one per line", () => {
    const parsed = probeSchema({ form: true }).parse({
      name: "A",
      turns: "Hi\r\n\r\nHow are you?",
      mustMention: "Heya\nHowdy",
      enabled: "on",
    });
    expect(parsed).toMatchObject({ turns: ["Hi", "How are you?"], mustMention: ["Heya", "Howdy"], enabled: true, inCharacter: false });
  });

  it("refuses what cannot be checked, with the documented messages", () => {
    expect(refusal({ name: "", turns: ["Hi"], inCharacter: true })).toEqual({ name: PROBE_MESSAGES.nameRequired });
    expect(refusal({ name: "A", turns: [], inCharacter: true })).toEqual({ turns: PROBE_MESSAGES.turnsRequired });
    expect(refusal({ name: "A", turns: Array(6).fill("Hi"), inCharacter: true })).toEqual({ turns: PROBE_MESSAGES.turnsMax });
    expect(refusal({ name: "A", turns: ["x".repeat(1_001)], inCharacter: true })).toEqual({ turns: PROBE_MESSAGES.turnMax });
    expect(refusal({ name: "A", turns: ["Hi"], mustMention: ["x".repeat(10_000)] })).toEqual({ mustMention: PROBE_MESSAGES.phraseMax });
    expect(refusal({ name: "A", turns: ["Hi"], mustMatch: "x".repeat(201) })).toEqual({ mustMatch: PROBE_MESSAGES.patternMax });
    expect(refusal({ name: "A", turns: ["Hi"], maxLength: 0 })).toEqual({ maxLength: PROBE_MESSAGES.maxLength });
    expect(refusal({ name: "A", turns: ["Hi"], statesFact: "fact:shoeSize" })).toEqual({ statesFact: PROBE_MESSAGES.fact });
    expect(refusal({ name: "A", turns: ["Hi"] })).toEqual({ mustMention: PROBE_MESSAGES.checksRequired });
    expect(refusal({ name: "A", turns: ["Hi"], inCharacter: "maybe" })).toEqual({ inCharacter: PROBE_MESSAGES.flag });
  });

  it("reads a stored probe leniently: one that cannot be read is null", () => {
    expect(parseProbe({ name: "A", turns: ["Hi"], inCharacter: true }, "x")?.id).toBe("x");
    expect(parseProbe({ name: "A" }, "x")).toBeNull();
    expect(parseProbe("nope", "x")).toBeNull();
  });
});

describe("suggestions", () => {
  it("write 8 to 15 probes from facts, voice, traits and lore, each valid", () => {
    const suggested = suggestProbes({
      ...context,
      voice: { ...EMPTY_VOICE, greeting: "Heya, chat! Grab a blanket.", catchphrases: ["Stay cozy~"] },
      personality: ["Outgoing", "Curious"],
      lore: [
        mina,
        {
          ...mina,
          id: "00000000-0000-4000-8001-000000000002",
          name: "The debt",
          keys: ["debt"],
          kind: "secret",
          content: "Owes a loan shark.",
        },
      ],
    });
    expect(suggested.length).toBeGreaterThanOrEqual(8);
    expect(suggested.length).toBeLessThanOrEqual(15);
    for (const s of suggested) expect(probeSchema().safeParse(s).success, s.name).toBe(true);
    const byName = Object.fromEntries(suggested.map((s) => [s.name, s]));
    expect(byName["Knows where they were born"]).toMatchObject({
      statesFact: "fact:birthplace",
      factExpected: { any: ["São Paulo, Brazil", "São Paulo"] },
    });
    expect(byName["Says their catchphrase"]?.mustMention).toEqual(["Stay cozy"]);
    expect(byName["Opens with their greeting"]?.mustMention).toEqual(["Heya, chat! Grab a blanket"]);
    expect(byName["Comes across as outgoing"]?.mustMention).toEqual(["Outgoing"]);
    expect(byName["Knows about Mina"]?.statesFact).toBe(`lore:${mina.id}`);
    expect(byName["Keeps 'The debt' to themselves"]?.mustNotMention).toEqual(["owes", "loan", "shark"]);
  });

  it("give a persona without facts, voice or lore 8 probes all the same", () => {
    const suggested = suggestProbes({ facts: null, lore: [], name: "Nova", voice: EMPTY_VOICE, personality: [] });
    expect(suggested).toHaveLength(8);
  });
});

describe("a run's summary", () => {
  it("names the failing probes", () => {
    const results = [
      { name: "Knows her sister", passed: false },
      { name: "Greets", passed: true },
    ];
    expect(runSummary({ version: 8, passed: 11, failed: 1, results })).toBe('Version 8: 11/12 — "Knows her sister" failed');
    expect(runSummary({ version: 2, passed: 3, failed: 0, results: [] })).toBe("Version 2: 3/3");
    const many = ["A", "B", "C", "D"].map((name) => ({ name, passed: false }));
    expect(runSummary({ version: 3, passed: 0, failed: 4, results: many })).toBe('Version 3: 0/4 — "A", "B" and 2 more failed');
  });
});
