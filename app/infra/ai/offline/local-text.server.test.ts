// The embedded backstory generator: long enough, deterministic, shaped by every field,
// grammatical for every pronoun set, and different for different personas.
import { describe, expect, it } from "vitest";

import { birthYearFits, FAMILY } from "~/domain/extended-profile";
import {
  GENDERS,
  INTERESTS,
  PERSONA_TYPE_PROSE,
  PERSONA_TYPES,
  TRAIT_CATEGORIES,
  type AgeRange,
  type Gender,
  type Interest,
} from "~/domain/persona";

import * as P from "./backstory-phrases";
import bankFile from "./backstory-phrases.json";
import { composeBackstory, createLocalTextGenerator, sheetFacts, singularVerb } from "./local-text.server";
import { AiError, BACKSTORY_MIN_WORDS, countWords, type BackstoryInput } from "../types";

const ALL_TRAITS = Object.values(TRAIT_CATEGORIES).flat() as string[];

/** What shows that a trait shaped the story: the trait word, or a listed form of it. */
const TRAIT_MARKERS: Record<string, string[]> = Object.fromEntries(ALL_TRAITS.map((t) => [t, [t.toLowerCase()]]));
TRAIT_MARKERS.Humorous.push("humor");

/** Seven trait/interest sets that together use all 36 traits and all 12 interests. */
const SETS: Omit<BackstoryInput, "name" | "type" | "gender">[] = [
  { personality: ["Curious"], interests: ["science"], ageRange: "25-34" },
  {
    personality: ["Outgoing", "Passionate", "Creative", "Empathetic", "Organized", "Humorous", "Authentic"],
    interests: ["music", "travel", "cooking"],
    ageRange: "18-24",
    description: "A sunny globetrotter who cooks for strangers",
  },
  {
    personality: ["Reserved", "Calm", "Practical", "Skeptical", "Focused"],
    interests: ["tech", "business"],
    ageRange: "45-54",
  },
  {
    personality: ["Social", "Quiet"],
    interests: ["gaming"],
    ageRange: null,
    description: "Speedrunner, night owl and collector of terrible puns!",
  },
  {
    personality: ["Assertive", "Resilient", "Imaginative", "Competitive", "Disciplined", "Inspirational", "Adaptable"],
    interests: ["fitness", "fashion", "entertainment"],
    ageRange: "55+",
  },
  {
    personality: ["Reflective", "Sensitive", "Conventional", "Trusting", "Flexible", "Educational", "Aspirational"],
    interests: ["art", "education"],
    ageRange: "35-44",
    description: "Teaches watercolor to anyone with ten minutes to spare.",
  },
  {
    personality: ["Stable", "Reactive", "Cautious", "Compassionate", "Direct", "Spontaneous", "Entertaining"],
    interests: [],
    ageRange: "25-34",
  },
];

const NAMES = ["Luna Starlight", "Dr. Maya Chen", "Kai", "Ana-Lucía Torres", "the Oracle", "xXNovaXx", "Marcus James"];

function sentencesOf(text: string): string[] {
  return text
    .split(/\n\n/)
    .flatMap((paragraph) => paragraph.split(/(?<!\b(?:Dr|Mr|Mrs|Ms|Mx|St|Prof|Jr|Sr)\.)(?<=[.!?]["”]?)\s+(?=["“]?[\p{Lu}\p{Ll}])/u))
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const occurrences = (text: string, word: string) => (text.match(new RegExp(`\\b${escape(word)}\\b`, "gi")) ?? []).length;

const PRONOUNS_OF_OTHERS: Record<Gender, RegExp> = {
  male: /\b(she|her|hers|herself|themselves|themself)\b/i,
  female: /\b(he|him|his|himself|themselves|themself)\b/i,
  "non-binary": /\b(he|him|his|himself|she|her|hers|herself)\b/i,
  other: /\b(he|him|his|himself|she|her|hers|herself)\b/i,
};
const OWN_PRONOUN: Record<Gender, RegExp> = {
  male: /\b(he|him|his)\b/gi,
  female: /\b(she|her)\b/gi,
  "non-binary": /\b(they|them|their)\b/gi,
  other: /\b(they|them|their)\b/gi,
};
// Words that may follow "they" and end in s without being a singular verb.
const THEY_S_OK = new Set(["always", "across", "as", "has-been"]);

/** Everything wrong with a story for an input, as readable strings (empty when all is well). */
function problems(story: string, input: BackstoryInput): string[] {
  const out: string[] = [];
  const name = input.name;
  const words = countWords(story);
  if (words < BACKSTORY_MIN_WORDS) out.push(`only ${words} words`);
  if (words > 1600) out.push(`${words} words`);

  // template artefacts
  if (/[{}]/.test(story)) out.push("unreplaced placeholder");
  if (/\b(undefined|null|NaN)\b|\[object/.test(story)) out.push("undefined/null in text");
  if (/ {2}/.test(story)) out.push("double space");
  if (/ [,.;:!?]/.test(story)) out.push("space before punctuation");
  if (/[,;:]{2}|\.\.|,\.|\.,/.test(story)) out.push("doubled punctuation");
  // (?<!\p{L}) rather than \b: "Lucía" is one word
  if (/(?<![\p{L}-])(a|an|the) (a|an|the)(?!\p{L})/iu.test(story)) out.push("article artefact");
  for (const m of story.matchAll(/(?<![\p{L}-])a ([aeiou]\p{L}*)/giu)) {
    if (!/^(one|unique|university|usual|useful|user|european)/i.test(m[1])) out.push(`"a ${m[1]}"`);
  }
  for (const m of story.matchAll(/(?<![\p{L}-])an ([^aeiou\s]\p{L}*)/giu)) {
    if (!/^(hour|honest|AI)/i.test(m[1])) out.push(`"an ${m[1]}"`);
  }
  if (story !== story.trim()) out.push("untrimmed");
  const paragraphs = story.split("\n\n");
  if (paragraphs.length < 6) out.push(`${paragraphs.length} paragraphs`);
  for (const p of paragraphs) {
    if (p.trim() !== p || p === "" || p.includes("\n")) out.push("malformed paragraph");
  }
  const sentences = sentencesOf(story);
  const seen = new Set<string>();
  for (const s of sentences) {
    if (seen.has(s)) out.push(`repeated sentence: ${s}`);
    seen.add(s);
    // a name typed in lower case (e.g. "xXNovaXx") may open a sentence as typed
    const asTyped = /^\p{Ll}/u.test(name) && !/^(the|a|an) /.test(name) && s.startsWith(name.split(" ")[0]);
    if (!/^["“\p{Lu}]/u.test(s) && !asTyped) out.push(`lower-case start: ${s}`);
    if (!/[.!?]["”]?$/.test(s)) out.push(`no end punctuation: ${s}`);
  }

  // every field shapes the story
  if (!story.includes(name)) out.push("full name missing");
  if (!story.includes(PERSONA_TYPE_PROSE[input.type])) out.push("type label missing");
  if (/\ban? AI\w|AIVTuber/.test(story)) out.push("a type label that does not read as prose");
  for (const trait of input.personality) {
    if (!TRAIT_MARKERS[trait].some((m) => occurrences(story, m) > 0)) out.push(`trait ${trait} not visible`);
  }
  for (const interest of input.interests) {
    if (occurrences(story, interest) < 2) out.push(`interest ${interest} mentioned ${occurrences(story, interest)}×`);
  }
  const years = [...story.matchAll(/\b(19|20)\d\d\b/g)].map((m) => Number(m[0]));
  if (input.ageRange) {
    const ageRange = input.ageRange;
    if (years.length === 0 || years.some((y) => !birthYearFits(y, ageRange))) out.push(`birth year ${years} for ${ageRange}`);
  } else if (years.length > 0) {
    out.push(`a year without an age range: ${years}`);
  }
  if (input.description && !story.includes(input.description.replace(/[.!?]$/, ""))) out.push("description missing");

  // pronouns and agreement
  const gender = input.gender;
  const wrong = PRONOUNS_OF_OTHERS[gender].exec(story);
  if (wrong) out.push(`pronoun "${wrong[0]}" for ${gender}`);
  if ((story.match(OWN_PRONOUN[gender]) ?? []).length < 10) out.push(`few ${gender} pronouns`);
  if (/\bthey (is|was|has|does|doesn't|isn't|wasn't|hasn't)\b/i.test(story)) out.push("they + singular verb");
  for (const m of story.matchAll(
    /\bthey (?:still |often |never |rarely |quietly |simply |secretly |also |finally |always )?([a-z']+)\b/gi,
  )) {
    const word = m[1].toLowerCase();
    if (/[^s]s$/.test(word) && !THEY_S_OK.has(word)) out.push(`"they ${word}"`);
  }
  if (gender === "male" || gender === "female") {
    if (/\b(he|she) (are|were|have|do|don't|aren't|weren't|haven't)\b/i.test(story)) out.push("he/she + plural verb");
  }
  return out;
}

function sweep(): { input: BackstoryInput; story: string }[] {
  const out: { input: BackstoryInput; story: string }[] = [];
  PERSONA_TYPES.forEach((type, t) => {
    GENDERS.forEach((gender, g) => {
      SETS.forEach((set, s) => {
        const input: BackstoryInput = { name: NAMES[(t + g + s) % NAMES.length], type, gender, ...set, draw: t * 100 + g * 10 + s };
        out.push({ input, story: composeBackstory(input) });
      });
    });
  });
  return out;
}

describe("the local backstory generator", () => {
  it("writes at least 800 words of clean, agreeing prose shaped by every field, for 280 personas", () => {
    const results = sweep();
    expect(results).toHaveLength(PERSONA_TYPES.length * GENDERS.length * SETS.length);
    const failures = results.flatMap(({ input, story }) =>
      problems(story, input).map((p) => `${input.type}/${input.gender}/${input.personality[0]}: ${p}`),
    );
    expect(failures).toEqual([]);

    const counts = results.map(({ story }) => countWords(story));
    const min = Math.min(...counts);
    const max = Math.max(...counts);
    expect(min).toBeGreaterThanOrEqual(BACKSTORY_MIN_WORDS);
    console.info(`[local backstory] ${counts.length} personas: ${min}–${max} words`);
  });

  it("reaches 800 words even with nothing but a name, a type and a gender", () => {
    for (const type of PERSONA_TYPES) {
      for (const gender of GENDERS) {
        const input: BackstoryInput = { name: "Io", type, gender, interests: [], personality: [], draw: 1 };
        const story = composeBackstory(input);
        expect(countWords(story)).toBeGreaterThanOrEqual(BACKSTORY_MIN_WORDS);
        expect(problems(story, input)).toEqual([]);
      }
    }
  });

  it("gives the same story for the same draw, across generator instances, and another story for another draw", async () => {
    const input: BackstoryInput = {
      name: "Luna Starlight",
      type: "vtuber",
      gender: "non-binary",
      ageRange: "18-24",
      interests: ["gaming", "music"],
      personality: ["Outgoing", "Creative", "Humorous"],
      description: "A cozy night-owl streamer",
      draw: 42,
    };
    const first = await createLocalTextGenerator().generateBackstory(input);
    expect(await createLocalTextGenerator().generateBackstory({ ...input })).toBe(first);
    expect(composeBackstory(structuredClone(input))).toBe(first);
    // normalized: spacing, letter case and duplicates do not make another persona
    expect(
      composeBackstory({
        ...input,
        name: "  Luna   Starlight ",
        personality: ["outgoing", "Creative", "Creative", "HUMOROUS", "Not a trait"],
        interests: ["gaming", "music", "gaming"],
      }),
    ).toBe(first);
    // ...but any real change does
    expect(composeBackstory({ ...input, ageRange: "25-34" })).not.toBe(first);
    expect(composeBackstory({ ...input, description: null })).not.toBe(first);
    // Each generation is a new draw: three clicks, three stories.
    const { draw: _draw, ...undrawn } = input;
    const stories = await Promise.all([1, 2, 3].map(() => createLocalTextGenerator().generateBackstory(undrawn)));
    expect(new Set(stories).size).toBe(3);
  });

  it("shares fewer than half of its sentences between personas that differ in type and traits", () => {
    const base = { name: "Robin Vale", gender: "female" as Gender, ageRange: "25-34" as AgeRange };
    const interestSets: Interest[][] = [["music"], ["tech", "travel"], ["art", "cooking", "fitness"]];
    const traitSets = SETS.map((s) => s.personality);
    let worst = 0;
    let pairs = 0;
    for (const interests of interestSets) {
      for (let a = 0; a < PERSONA_TYPES.length; a++) {
        for (let b = 0; b < PERSONA_TYPES.length; b++) {
          if (a === b) continue;
          const ta = traitSets[a % traitSets.length];
          const tb = traitSets[(b + 3) % traitSets.length];
          if (ta === tb) continue;
          const one = sentencesOf(composeBackstory({ ...base, interests, type: PERSONA_TYPES[a], personality: ta }));
          const two = new Set(sentencesOf(composeBackstory({ ...base, interests, type: PERSONA_TYPES[b], personality: tb })));
          const shared = one.filter((s) => two.has(s)).length;
          worst = Math.max(worst, shared / one.length, shared / two.size);
          pairs += 1;
        }
      }
    }
    expect(pairs).toBeGreaterThan(200);
    expect(worst).toBeLessThan(0.5);
    console.info(`[local backstory] ${pairs} pairs differing in type and traits: at most ${(worst * 100).toFixed(1)}% shared sentences`);
  });

  it("gives no sentence a lead that names again the sentence's place or period, nor two 'and all's, over 500 personas", () => {
    // A lead as a pattern: its choices as alternatives, its placeholders as any words.
    const source = (template: string) =>
      template
        .replace(/[.*+?^$()\\]/g, "\\$&")
        .replace(/\[/g, "(?:")
        .replace(/\]/g, ")")
        .replace(/\{(their|them)\}/g, "(?:his|her|their|him|them)")
        .replace(/\{[^{}]+\}/g, "[^,:]+?");
    const leads = new RegExp(`^(?:${[...new Set(Object.values(P.LEADS).flat())].map(source).join("|")}) `, "u");
    const PERIODS = [/\bteen/i, /\b(early|earlier|earliest|childhood|child|kid|youngster|first years)\b/i];
    const HOME = /\b(back home|hometown|where (he|she|they) grew up|old neighborhood)\b/i;
    const failures: string[] = [];
    let withLead = 0;
    for (let i = 0; i < 500; i++) {
      const input: BackstoryInput = {
        name: NAMES[i % NAMES.length],
        type: PERSONA_TYPES[i % PERSONA_TYPES.length],
        gender: GENDERS[Math.floor(i / 7) % GENDERS.length],
        ...SETS[Math.floor(i / 3) % SETS.length],
        draw: 9000 + i,
      };
      const facts = sheetFacts(input);
      const home = facts.birthplace.split(",")[0]!.trim();
      const residence = facts.currentResidence.split(",")[0]!.trim();
      for (const s of sentencesOf(composeBackstory(input))) {
        if ((s.match(/\band all\b/g) ?? []).length > 1) failures.push(`"and all" twice: ${s}`);
        const lead = leads.exec(s)?.[0];
        if (!lead) continue;
        withLead += 1;
        const rest = s.slice(lead.length);
        const again =
          PERIODS.some((period) => period.test(lead) && period.test(rest)) ||
          (lead.includes(home) && (rest.includes(home) || HOME.test(rest))) ||
          (lead.includes(residence) && rest.includes(residence));
        if (again) failures.push(`lead repeats: ${s}`);
      }
    }
    expect(failures).toEqual([]);
    expect(withLead).toBeGreaterThan(500 * 5);
  });

  it("uses the right pronouns and verb forms for each gender", () => {
    const input = (gender: Gender, draw: number): BackstoryInput => ({
      name: "Sam Rivera",
      type: "companion",
      gender,
      ageRange: "35-44",
      interests: ["cooking"],
      personality: ["Calm", "Empathetic", "Resilient", "Disciplined"],
      draw,
    });
    // three draws each, so the check does not hang on one draw's wording
    const stories = (gender: Gender) => [1, 2, 3].map((draw) => composeBackstory(input(gender, draw))).join("\n\n");
    const he = stories("male");
    const she = stories("female");
    const they = stories("non-binary");
    expect(he).toMatch(/\bHe\b/);
    expect(he).toMatch(/\bhis\b/);
    expect(she).toMatch(/\bShe\b/);
    expect(she).toMatch(/\bher\b/);
    expect(they).toMatch(/\bThey\b/);
    expect(they).toMatch(/\bthey (are|were|have|keep|love|believe|listen|know)\b/);
    expect(they).not.toMatch(/\bthey (is|was|has|does)\b/i);
    expect(stories("other")).not.toMatch(/\bthey (is|was|has|does)\b/i);
  });

  it("conjugates verbs for he and she", () => {
    expect(["are", "were", "have", "do", "go", "don't", "love", "watch", "fix", "try", "say", "miss"].map(singularVerb)).toEqual([
      "is",
      "was",
      "has",
      "does",
      "goes",
      "doesn't",
      "loves",
      "watches",
      "fixes",
      "tries",
      "says",
      "misses",
    ]);
  });

  it("uses a first name after the first mention, but keeps titles and one-word names whole", () => {
    const story = (name: string) =>
      composeBackstory({ name, type: "educator", gender: "female", interests: ["science"], personality: ["Curious"] });
    const maya = story("Maya Chen");
    expect(occurrences(maya, "Maya")).toBeGreaterThan(occurrences(maya, "Maya Chen") + 5);
    const doctor = story("Dr. Maya Chen");
    expect(doctor).not.toMatch(/\bDr\.? (is|was|has)\b/);
    expect(occurrences(doctor, "Dr. Maya Chen")).toBeGreaterThan(5);
  });

  it("quotes the description, keeping the creator's text as typed", () => {
    const description = 'Says {name} a lot and likes "quotes"';
    const story = composeBackstory({
      name: "Quill",
      type: "artist",
      gender: "other",
      interests: ["art"],
      personality: ["Imaginative"],
      description,
    });
    expect(story).toContain(`"Says {name} a lot and likes 'quotes'."`);
  });

  it("needs a name", () => {
    expect(() => composeBackstory({ name: "   ", type: "artist", gender: "male", interests: [], personality: ["Calm"] })).toThrow(
      TypeError,
    );
  });

  it("implements the TextGenerator interface and honors an aborted signal", async () => {
    const generator = createLocalTextGenerator();
    expect(generator.kind).toBe("local");
    const input: BackstoryInput = {
      name: "Kai",
      type: "advisor",
      gender: "male",
      interests: ["business"],
      personality: ["Direct"],
      draw: 5,
    };
    expect(await generator.generateBackstory(input)).toBe(composeBackstory(input));
    const controller = new AbortController();
    controller.abort();
    const error = await generator.generateBackstory(input, { signal: controller.signal }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AiError);
    expect((error as AiError).code).toBe("timeout");
  });
});

/**
 * A template's readings, enough to see every choice once: each `[one|other]` at its first option,
 * then each option of each choice in turn with the others at their first.
 */
function readings(template: string): string[] {
  let at = 0;
  const sequence = (nested: boolean): string[] => {
    const parts: string[][] = [];
    let text = "";
    while (at < template.length) {
      const ch = template[at]!;
      if (nested && (ch === "|" || ch === "]")) break;
      at += 1;
      if (ch !== "[") {
        text += ch;
        continue;
      }
      parts.push([text]);
      text = "";
      const options = [sequence(true)];
      while (template[at] === "|") {
        at += 1;
        options.push(sequence(true));
      }
      expect(template[at], `unclosed choice in ${template}`).toBe("]");
      at += 1;
      parts.push(options.flat());
    }
    parts.push([text]);
    const base = parts.map((p) => p[0]!);
    const out = [base.join("")];
    parts.forEach((p, i) => p.slice(1).forEach((option) => out.push(base.map((b, j) => (j === i ? option : b)).join(""))));
    return out;
  };
  return sequence(false);
}

describe("the backstory phrase banks", () => {
  const banks: [string, readonly string[]][] = [
    ...Object.entries(P)
      .filter(([, v]) => Array.isArray(v) && v.every((t) => typeof t === "string"))
      .map(([k, v]) => [k, v as string[]] as [string, string[]]),
    ...Object.entries(P.ERA).map(([k, v]) => [`ERA.${k}`, v] as [string, string[]]),
    ["FAMILY_STORIES", Object.values(P.FAMILY_STORIES).flat()] as [string, string[]],
    ...Object.entries(P.AGE_CAREER).map(([k, v]) => [`AGE_CAREER.${k}`, v] as [string, string[]]),
    ...Object.entries(P.AGE_NOW).map(([k, v]) => [`AGE_NOW.${k}`, v] as [string, string[]]),
    ...Object.entries(P.INTEREST_EARLY).map(([k, v]) => [`INTEREST_EARLY.${k}`, v] as [string, string[]]),
    ...Object.entries(P.INTEREST_LATER).map(([k, v]) => [`INTEREST_LATER.${k}`, v] as [string, string[]]),
    ...Object.entries(P.TRAIT_BANKS).flatMap(
      ([k, v]) =>
        [
          [`TRAIT.${k}.lead`, v.lead],
          [`TRAIT.${k}.follow`, v.follow],
        ] as [string, string[]][],
    ),
    ...Object.entries(P.TYPE_BANKS).flatMap(([k, v]) =>
      (["origin", "craft", "audience", "breakthrough", "goals", "day"] as const).map(
        (part) => [`TYPE.${k}.${part}`, v[part]] as [string, string[]],
      ),
    ),
  ];
  const templates = banks.filter(([k]) => !["FIRST_JOBS", "PAST_CAREERS", "FALLBACK_PASTIMES", "FALLBACK_QUALITIES"].includes(k));

  it("are the data file's banks, each named once by the module, with every opposite a pair of traits", () => {
    const named = Object.keys(P).filter((k) => /^[A-Z_]+$/.test(k));
    expect(Object.keys(bankFile).sort()).toEqual(named.sort());
    for (const [a, b] of P.OPPOSITES) expect([ALL_TRAITS.includes(a), ALL_TRAITS.includes(b), a !== b]).toEqual([true, true, true]);
  });

  it("tell every family a profile can have", () => {
    expect(Object.keys(P.FAMILY_STORIES).sort()).toEqual([...FAMILY].sort());
  });

  it("cover every trait, interest, type and age range", () => {
    expect(Object.keys(P.TRAIT_BANKS).sort()).toEqual([...ALL_TRAITS].sort());
    expect(Object.keys(P.INTEREST_EARLY).sort()).toEqual([...INTERESTS].sort());
    expect(Object.keys(P.INTEREST_LATER).sort()).toEqual([...INTERESTS].sort());
    expect(Object.keys(P.TYPE_BANKS).sort()).toEqual([...PERSONA_TYPES].sort());
    for (const trait of ALL_TRAITS) {
      expect(P.TRAIT_BANKS[trait as P.Trait].lead.length).toBeGreaterThanOrEqual(3);
      expect(P.TRAIT_BANKS[trait as P.Trait].follow.length).toBeGreaterThanOrEqual(2);
    }
  });

  it("name the trait in every lead sentence and the interest in every interest sentence", () => {
    for (const [trait, bank] of Object.entries(P.TRAIT_BANKS)) {
      for (const lead of bank.lead.flatMap(readings)) {
        expect(
          TRAIT_MARKERS[trait].some((m) => occurrences(lead, m) > 0),
          `${trait}: ${lead}`,
        ).toBe(true);
      }
    }
    for (const interest of INTERESTS) {
      for (const t of [...P.INTEREST_EARLY[interest], ...P.INTEREST_LATER[interest]].flatMap(readings)) {
        expect(occurrences(t, interest), `${interest}: ${t}`).toBeGreaterThan(0);
      }
    }
  });

  it("tell each family with its marker, and no other sentence holds one", () => {
    for (const [family, list] of Object.entries(P.FAMILY_STORIES)) {
      for (const t of list.flatMap(readings)) expect(t, family).toContain(P.FAMILY_MARKERS[family]);
    }
    const markers = Object.values(P.FAMILY_MARKERS);
    const others = templates.filter(([k]) => k !== "FAMILY_STORIES").flatMap(([, list]) => list);
    for (const t of [...others, ...Object.values(P.LEADS).flat(), ...Object.values(P.TAILS).flat()].flatMap(readings)) {
      for (const marker of markers) expect(t).not.toContain(marker);
    }
  });

  it("lead and tail sentences with known placeholders", () => {
    for (const lead of Object.values(P.LEADS).flat().flatMap(readings)) expect(lead).toMatch(/^[\p{Lu}{][^[\]|]*[,:]$/u);
    for (const tail of Object.values(P.TAILS).flat().flatMap(readings)) expect(tail).toMatch(/^, [^[\]|.]*[^\s.]$/);
  });

  it("are single sentences with known placeholders and no verb agreement after a name", () => {
    const known = new Set([
      "name",
      "name's",
      "full",
      "full's",
      "they",
      "They",
      "them",
      "their",
      "Their",
      "themselves",
      "year",
      "place",
      "home",
      "topic",
      "field",
      "aLabel",
      "a",
      "b",
      "trait",
      "job",
      "job2",
      "career",
      "desc",
      "interest",
      "education",
      "occupation",
      "residence",
      "residenceCity",
      "family",
      "pastime",
      "quality",
    ]);
    for (const [bank, list] of templates) {
      for (const t of list.flatMap(readings)) {
        for (const [, key] of t.matchAll(/\{([^{}]+)\}/g)) {
          expect(known.has(key) || /^v:[a-z']+$/.test(key), `${bank}: {${key}} in ${t}`).toBe(true);
        }
        expect(t, bank).not.toMatch(/\{(name|full)\}\s+(\w+\s+)?\{v:/);
        expect(t, bank).not.toMatch(/ {2}|^\s|\s$/);
        expect(t, bank).toMatch(/^["{\p{Lu}]/u);
        expect(t.endsWith(":") ? t : t, bank).toMatch(/([.!?]["”]?|\{desc\}|\{family\})$/);
      }
    }
  });
});
