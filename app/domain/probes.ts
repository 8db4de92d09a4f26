// Persona tests (docs/product.md, Persona tests): probes — a message (or a short scripted exchange)
// sent to the persona in a fresh conversation, and what its reply must and must not do. Every
// check here runs without a model: phrases (case- and accent-insensitive, whole words), safe
// patterns, a length, out-of-character phrases, and 'states the fact' (a fact-sheet field or a
// lore entry whose value must appear). A rubric in plain words is judged by a configured model,
// apart from these. Pure: the forms, the JSON API, the runs and the cards share it.
import * as z from "zod";

import type { ExtendedProfile } from "./extended-profile";
import { COMPILED_COMMENT } from "./lore-compile";
import { keyMatcher, type LoreEntry } from "./lorebook";
import { patternFinds } from "./patterns";
import type { PersonaVoice } from "./persona-voice";

export { modelLabel, PROBE_TEXT, PROBE_TOASTS } from "./probe-text";

export const PROBE_LIMITS = {
  /** Probes one persona holds. */
  probes: 30,
  nameMax: 100,
  /** A scripted exchange: at most this many messages from the creator's side. */
  turns: 5,
  turnMax: 1_000,
  phrases: 20,
  phraseMax: 200,
  patternMax: 200,
  maxLengthMax: 8_000,
  rubricMax: 1_000,
} as const;

export const PROBE_MESSAGES = {
  nameRequired: "Name is required",
  nameMax: "Name must be 100 characters or less",
  turnsRequired: "Write the message to send",
  turnsMax: "A probe sends at most 5 messages",
  turnMax: "Each message must be 1,000 characters or less",
  phrasesMax: "At most 20 phrases",
  phraseMax: "Each phrase must be 200 characters or less",
  patternMax: "A pattern must be 200 characters or less",
  pattern: "This pattern cannot be matched: it must be a valid pattern without look-arounds or back-references. Simplify it",
  maxLength: "Maximum length must be a whole number from 1 to 8,000",
  rubricMax: "The rubric must be 1,000 characters or less",
  fact: "Choose a fact from the list",
  checksRequired: "Add at least one expectation",
  characters: "Text cannot contain control characters",
  type: "Must be text",
  flag: "Must be true or false",
  tooMany: "A persona holds at most 30 probes",
  notFound: "Probe not found",
  runNotFound: "Test run not found",
  noProbes: "Add a probe first: a run sends each probe to the persona.",
  draft: "Finish the persona before testing it: a draft cannot chat yet.",
} as const;

/** Phrases that break character: a reply with one of them fails 'stays in character' (docs/product.md, Persona tests). */
export const OUT_OF_CHARACTER_PHRASES = [
  "as an ai",
  "as a language model",
  "language model",
  "i am an ai",
  "i'm an ai",
  "i am a bot",
  "i'm a bot",
  "artificial intelligence",
  "i am a chatbot",
  "i'm a chatbot",
  "as a chatbot",
  "openai",
  "i don't have personal experiences",
  "i do not have personal experiences",
  "i cannot roleplay",
  "i can't roleplay",
  "how can i assist you today",
] as const;

/** The facts a probe can ask to be stated: the fact sheet's fields. */
export const PROBE_FACTS = [
  "birthplace",
  "currentResidence",
  "occupation",
  "education",
  "family",
  "languages",
  "motto",
  "birthYear",
] as const;
export type ProbeFact = (typeof PROBE_FACTS)[number];

export const PROBE_FACT_LABELS: Record<ProbeFact, string> = {
  birthplace: "Birthplace",
  currentResidence: "Current residence",
  occupation: "Occupation",
  education: "Education",
  family: "Family",
  languages: "Languages",
  motto: "Motto",
  birthYear: "Birth year",
};

export interface Probe {
  /** Stable id (a UUID). */
  id: string;
  name: string;
  /** What the creator's side sends, in order: one message, or a scripted exchange of up to 5. */
  turns: string[];
  /** The last reply mentions at least one of these. */
  mustMention: string[];
  /** No reply mentions any of these. */
  mustNotMention: string[];
  /** The last reply matches this pattern. */
  mustMatch: string | null;
  /** No reply matches this pattern. */
  mustNotMatch: string | null;
  /** The last reply is at most this many characters. */
  maxLength: number | null;
  /** No reply uses an out-of-character phrase (OUT_OF_CHARACTER_PHRASES). */
  inCharacter: boolean;
  /** 'fact:birthplace' (a fact-sheet field) or 'lore:<entry id>': the last reply states its value. */
  statesFact: string | null;
  /** Judged by a configured model only, apart from the checks above. */
  rubric: string | null;
  enabled: boolean;
  /**
   * What `statesFact` expects, pinned when the probe was saved: the value the fact had then, so an
   * edit that changes it is caught. Null: read from the version being tested.
   */
  factExpected: FactValue | null;
}

export type ProbeInput = Omit<Probe, "id">;

// Tabs and line breaks are text; other control characters and bidirectional overrides are not.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\u2028\u2029\u202A-\u202E\u2066-\u2069]/u;
const length = (text: string) => [...text].length;
const clean = (text: string) => text.replace(/\r\n?/g, "\n").trim();

/** A list given as an array (JSON) or as text, one item per line (a form's field). */
export function splitLines(value: unknown): string[] {
  const items = Array.isArray(value)
    ? value.filter((item): item is string => typeof item === "string")
    : typeof value === "string"
      ? value.split(/\r?\n/)
      : [];
  return items.map((item) => item.replace(/[ \t]+/g, " ").trim()).filter((item) => item !== "");
}

const text = (max: number, messages: { max: string; required?: string }) =>
  z
    .union([z.string(), z.null()], { error: PROBE_MESSAGES.type })
    .optional()
    .transform((value) => clean(value ?? ""))
    .superRefine((value, ctx) => {
      if (value === "" && messages.required) ctx.addIssue({ code: "custom", message: messages.required });
      else if (length(value) > max) ctx.addIssue({ code: "custom", message: messages.max });
      else if (CONTROL.test(value)) ctx.addIssue({ code: "custom", message: PROBE_MESSAGES.characters });
    });

const phrases = z
  .union([z.string(), z.array(z.string()), z.null()], { error: PROBE_MESSAGES.type })
  .optional()
  .transform(splitLines)
  .superRefine((items, ctx) => {
    if (items.length > PROBE_LIMITS.phrases) ctx.addIssue({ code: "custom", message: PROBE_MESSAGES.phrasesMax });
    else if (items.some((item) => length(item) > PROBE_LIMITS.phraseMax))
      ctx.addIssue({ code: "custom", message: PROBE_MESSAGES.phraseMax });
    else if (items.some((item) => CONTROL.test(item))) ctx.addIssue({ code: "custom", message: PROBE_MESSAGES.characters });
  });

const pattern = z
  .union([z.string(), z.null()], { error: PROBE_MESSAGES.type })
  .optional()
  .transform((value) => {
    const trimmed = (value ?? "").trim();
    return trimmed === "" ? null : trimmed;
  })
  .superRefine((value, ctx) => {
    if (value === null) return;
    // Whether the engine can match it is the service's check (patterns.ts): pages ship no engine.
    if (length(value) > PROBE_LIMITS.patternMax) ctx.addIssue({ code: "custom", message: PROBE_MESSAGES.patternMax });
  });

/** A checkbox ('on'), a JSON boolean, or the strings 'true'/'false'. Absent is `fallback`. */
const flag = (fallback: boolean) =>
  z
    .union([z.boolean(), z.literal("on"), z.literal("true"), z.literal("false"), z.null()], { error: PROBE_MESSAGES.flag })
    .optional()
    .transform((value) => (value === undefined || value === null ? fallback : value === true || value === "on" || value === "true"));

/**
 * A probe as a form or a JSON body gives it (docs/api.md, Persona tests). `turns` is a list, or text
 * with one message per line; phrases likewise. Form checkboxes that are absent are false; in JSON
 * `enabled` defaults to true and `inCharacter` to false.
 */
export function probeSchema(options: { form?: boolean } = {}) {
  const off = options.form === true;
  return z
    .object({
      name: text(PROBE_LIMITS.nameMax, { max: PROBE_MESSAGES.nameMax, required: PROBE_MESSAGES.nameRequired }),
      turns: z
        .union([z.string(), z.array(z.string()), z.null()], { error: PROBE_MESSAGES.type })
        .optional()
        .transform(splitLines)
        .superRefine((turns, ctx) => {
          if (turns.length === 0) ctx.addIssue({ code: "custom", message: PROBE_MESSAGES.turnsRequired });
          else if (turns.length > PROBE_LIMITS.turns) ctx.addIssue({ code: "custom", message: PROBE_MESSAGES.turnsMax });
          else if (turns.some((turn) => length(turn) > PROBE_LIMITS.turnMax))
            ctx.addIssue({ code: "custom", message: PROBE_MESSAGES.turnMax });
          else if (turns.some((turn) => CONTROL.test(turn))) ctx.addIssue({ code: "custom", message: PROBE_MESSAGES.characters });
        }),
      mustMention: phrases,
      mustNotMention: phrases,
      mustMatch: pattern,
      mustNotMatch: pattern,
      maxLength: z
        .union([z.number(), z.string(), z.null()], { error: PROBE_MESSAGES.maxLength })
        .optional()
        .transform((value, ctx) => {
          if (value === undefined || value === null || (typeof value === "string" && value.trim() === "")) return null;
          const n = typeof value === "number" ? value : /^\s*\d{1,5}\s*$/.test(value) ? Number(value) : NaN;
          if (!Number.isInteger(n) || n < 1 || n > PROBE_LIMITS.maxLengthMax) {
            ctx.addIssue({ code: "custom", message: PROBE_MESSAGES.maxLength });
            return z.NEVER;
          }
          return n;
        }),
      inCharacter: flag(false),
      statesFact: z
        .union([z.string(), z.null()], { error: PROBE_MESSAGES.fact })
        .optional()
        .transform((value, ctx) => {
          const trimmed = (value ?? "").trim();
          if (trimmed === "") return null;
          if (isFactRef(trimmed)) return trimmed;
          ctx.addIssue({ code: "custom", message: PROBE_MESSAGES.fact });
          return z.NEVER;
        }),
      rubric: text(PROBE_LIMITS.rubricMax, { max: PROBE_MESSAGES.rubricMax }).transform((value) => (value === "" ? null : value)),
      enabled: flag(!off),
    })
    .superRefine((probe, ctx) => {
      const expects =
        probe.mustMention.length ||
        probe.mustNotMention.length ||
        probe.mustMatch ||
        probe.mustNotMatch ||
        probe.maxLength ||
        probe.inCharacter ||
        probe.statesFact ||
        probe.rubric;
      if (!expects) ctx.addIssue({ code: "custom", path: ["mustMention"], message: PROBE_MESSAGES.checksRequired });
    });
}

export type CheckedProbe = z.output<ReturnType<typeof probeSchema>>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** 'fact:<field>' for a fact-sheet field, or 'lore:<entry id>'. */
export function isFactRef(value: string): boolean {
  if (value.startsWith("fact:")) return (PROBE_FACTS as readonly string[]).includes(value.slice(5));
  if (value.startsWith("lore:")) return UUID.test(value.slice(5)) || /^card-\d{1,4}$/.test(value.slice(5));
  return false;
}

/** A stored probe, read leniently (a card's or an older row's): what cannot be read is dropped. */
export function parseProbe(value: unknown, id: string): Probe | null {
  if (!value || typeof value !== "object") return null;
  const result = probeSchema().safeParse(value);
  if (!result.success) return null;
  const pinned = (value as { factExpected?: unknown }).factExpected;
  return { id, ...result.data, factExpected: result.data.statesFact ? parseFactValue(pinned) : null };
}

function parseFactValue(value: unknown): FactValue | null {
  if (!value || typeof value !== "object") return null;
  const { label, any, words } = value as Record<string, unknown>;
  const strings = (list: unknown) =>
    Array.isArray(list) ? list.filter((item): item is string => typeof item === "string" && item.length <= 2_000).slice(0, 20) : [];
  if (typeof label !== "string") return null;
  return { label: label.slice(0, 200), any: strings(any), ...(Array.isArray(words) ? { words: strings(words) } : {}) };
}

/** A checked probe with its fact pinned to what the persona says now. */
export function pinFact(probe: CheckedProbe, context: ProbeContext): ProbeInput {
  return { ...probe, factExpected: probe.statesFact ? factValue(probe.statesFact, context) : null };
}

// ---------------------------------------------------------------------------------------------
// Checks
// ---------------------------------------------------------------------------------------------

/** Case and accents folded, whitespace collapsed, curly quotes made straight. */
export function fold(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .replace(/[’‘]/g, "'")
    .replace(/[“”]/g, '"')
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();
}

/** Whether `text` mentions `phrase`: case- and accent-insensitive, as whole words. */
export function mentions(text: string, phrase: string): boolean {
  const wanted = fold(phrase).replace(/[.!?,;:]+$/, "");
  if (wanted === "") return false;
  return keyMatcher(wanted, { caseSensitive: false, useRegex: false })(fold(text));
}

function matches(text: string, source: string): boolean {
  return patternFinds(source, false, text);
}

/** What a fact's value is, as the phrases a reply may state it with. */
export interface FactValue {
  label: string;
  /** The reply states the fact when it mentions any of these … */
  any: string[];
  /** … or, for a lore entry, at least half of these words. */
  words?: string[];
}

export interface ProbeContext {
  facts: ExtendedProfile | null;
  lore: readonly Pick<LoreEntry, "id" | "name" | "content" | "keys" | "enabled">[];
  /** The persona's name: never counted as a word a lore entry's value must show. */
  name: string;
}

const RELATIONS =
  /\b(sisters?|brothers?|siblings?|twins?|mother|father|mom|dad|parents?|grand(mother|father|parents?|ma|pa)|aunts?|uncles?|cousins?|only child|daughters?|sons?|husband|wife|partner|spouse)\b/gi;
const STOP = new Set(
  "about after again also always because been before being between both came could does doing during each even every from have having here into just know like made make many more most much never only other over same should since some still such than that their them then there these they this those through under until very were what when where which while with would your yours".split(
    " ",
  ),
);

/** Words of a text that carry its meaning: four letters or more, no stop words, not the persona's name. */
export function contentWords(text: string, name = ""): string[] {
  const names = new Set(fold(name).split(/[^\p{L}\p{N}]+/u));
  const words = fold(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length >= 4 && !STOP.has(word) && !names.has(word) && !/^\p{N}+$/u.test(word));
  return [...new Set(words.map((word) => word.replace(/'s$/, "")))];
}

/** The value a 'states the fact' check looks for; null when the fact or entry is not there (a broken probe). */
export function factValue(ref: string, context: ProbeContext): FactValue | null {
  if (ref.startsWith("lore:")) {
    const entry = context.lore.find((e) => e.id === ref.slice(5));
    if (!entry) return null;
    // What the entry says in its first two sentences, without a 'Label:' in front and without its own keys (the question names those).
    const opening = entry.content
      .split(/(?<=[.!?])\s+/)
      .slice(0, 2)
      .map((line) => line.replace(/^[\p{L} ]{1,30}:\s+/u, ""))
      .join(" ");
    const keyWords = new Set(entry.keys.flatMap((key) => fold(key).split(/[^\p{L}\p{N}]+/u)));
    const words = contentWords(opening, context.name).filter((word) => !keyWords.has(word));
    return { label: `Lore: ${entry.name}`, any: words.length ? [] : entry.keys.slice(0, 3), words: words.slice(0, 8) };
  }
  const field = ref.slice(5) as ProbeFact;
  const variants = (items: string[]) => [...new Set(items.filter(Boolean))];
  const facts = context.facts;
  if (!facts || !(PROBE_FACTS as readonly string[]).includes(field)) return null;
  const label = PROBE_FACT_LABELS[field];
  switch (field) {
    case "birthplace":
    case "currentResidence": {
      const place = facts[field];
      return { label, any: variants([place, place.split(",")[0]!.trim()]) };
    }
    case "occupation": {
      const job = facts.occupation;
      return { label, any: variants([job, job.split(/\s+(?:and|&)\s+|,\s*/)[0]!.trim()]) };
    }
    case "education": {
      const school = facts.education;
      const subject = /\bin ([^,.;]+)/i.exec(school)?.[1]?.trim();
      return { label, any: variants([school, subject ?? ""]) };
    }
    case "family": {
      // The relatives it names ('older brother' → 'brother'); a family told without one, by its words.
      const family = facts.socialCircle.family;
      const relations = [...new Set((family.match(RELATIONS) ?? []).map((r) => r.toLowerCase()))];
      return relations.length ? { label, any: relations } : { label, any: [], words: contentWords(family, context.name).slice(0, 6) };
    }
    case "languages": {
      const more = facts.languages.filter((language) => language !== "English");
      return { label, any: more.length ? more : facts.languages };
    }
    case "motto":
      return { label, any: [facts.motto.replace(/[.!?]+$/, "")] };
    case "birthYear":
      return { label, any: [String(facts.birthYear)] };
  }
}

/** One failed check: which, what was expected, what the reply gave. */
export interface CheckFailure {
  check: "mustMention" | "mustNotMention" | "mustMatch" | "mustNotMatch" | "maxLength" | "inCharacter" | "statesFact" | "broken";
  expected: string;
  got: string;
}

export const CHECK_LABELS: Record<CheckFailure["check"], string> = {
  mustMention: "Must mention",
  mustNotMention: "Must not mention",
  mustMatch: "Must match",
  mustNotMatch: "Must not match",
  maxLength: "Maximum length",
  inCharacter: "Stays in character",
  statesFact: "States the fact",
  broken: "Probe",
};

const quoteList = (items: readonly string[]) => items.map((item) => `'${item}'`).join(", ");
const excerpt = (text: string, max = 160) => (length(text) <= max ? text : `${[...text].slice(0, max - 1).join("")}…`);

/**
 * The deterministic checks of one probe over its replies (oldest first): the last reply for what
 * it must say, every reply for what none may say. An empty list is a pass.
 */
export function checkReplies(probe: Probe, replies: readonly string[], context: ProbeContext): CheckFailure[] {
  const failures: CheckFailure[] = [];
  const last = replies.at(-1) ?? "";
  if (probe.mustMention.length && !probe.mustMention.some((phrase) => mentions(last, phrase))) {
    failures.push({ check: "mustMention", expected: `one of ${quoteList(probe.mustMention)}`, got: excerpt(last) });
  }
  for (const phrase of probe.mustNotMention) {
    const said = replies.find((reply) => mentions(reply, phrase));
    if (said !== undefined) {
      failures.push({ check: "mustNotMention", expected: `not '${phrase}'`, got: excerpt(said) });
      break;
    }
  }
  if (probe.mustMatch && !matches(last, probe.mustMatch)) {
    failures.push({ check: "mustMatch", expected: probe.mustMatch, got: excerpt(last) });
  }
  if (probe.mustNotMatch) {
    const said = replies.find((reply) => matches(reply, probe.mustNotMatch!));
    if (said !== undefined) failures.push({ check: "mustNotMatch", expected: `not ${probe.mustNotMatch}`, got: excerpt(said) });
  }
  if (probe.maxLength !== null && length(last) > probe.maxLength) {
    failures.push({ check: "maxLength", expected: `at most ${probe.maxLength} characters`, got: `${length(last)} characters` });
  }
  if (probe.inCharacter) {
    for (const reply of replies) {
      const phrase = OUT_OF_CHARACTER_PHRASES.find((p) => mentions(reply, p));
      if (phrase) {
        failures.push({ check: "inCharacter", expected: `no '${phrase}'`, got: excerpt(reply) });
        break;
      }
    }
  }
  if (probe.statesFact) {
    const now = factValue(probe.statesFact, context);
    const value = probe.factExpected ?? now;
    if (!now && probe.statesFact.startsWith("lore:")) {
      failures.push({
        check: "broken",
        expected: `the lore entry ${probe.factExpected?.label ?? probe.statesFact}`,
        got: "The entry is gone",
      });
    } else if (!value) {
      failures.push({ check: "broken", expected: "a fact or lore entry that exists", got: `${probe.statesFact} is gone` });
    } else if (!statesValue(last, value)) {
      const wanted = value.words ? `at least half of ${quoteList(value.words)}` : `one of ${quoteList(value.any)}`;
      failures.push({ check: "statesFact", expected: `${value.label}: ${wanted}`, got: excerpt(last) });
    }
  }
  return failures;
}

function statesValue(reply: string, value: FactValue): boolean {
  if (value.any.some((phrase) => mentions(reply, phrase))) return true;
  if (!value.words?.length) return false;
  const said = new Set(contentWords(reply));
  const hits = value.words.filter((word) => said.has(word) || mentions(reply, word)).length;
  return hits * 2 >= value.words.length;
}

/** Whether a probe refers to something the persona no longer has (a deleted lore entry). */
export function probeBroken(probe: Probe, context: ProbeContext): boolean {
  return probe.statesFact !== null && factValue(probe.statesFact, context) === null;
}

// ---------------------------------------------------------------------------------------------
// Suggested suite
// ---------------------------------------------------------------------------------------------

export interface SuggestInput extends ProbeContext {
  voice: PersonaVoice;
  personality: readonly string[];
  lore: readonly (Pick<LoreEntry, "id" | "name" | "content" | "keys" | "enabled"> & { kind?: string | null; comment?: string })[];
}

/** What a probe checks when nothing else is asked: only that it stays in character; enabled. */
export const PROBE_DEFAULTS = {
  mustMention: [],
  mustNotMention: [],
  mustMatch: null,
  mustNotMatch: null,
  maxLength: null,
  inCharacter: true,
  statesFact: null,
  rubric: null,
  enabled: true,
} as const satisfies Omit<ProbeInput, "name" | "turns" | "factExpected">;

const probe = (input: Partial<ProbeInput> & Pick<ProbeInput, "name" | "turns">): Omit<ProbeInput, "factExpected"> => ({
  ...PROBE_DEFAULTS,
  ...input,
});

/** The first words of a text (a greeting's opening). */
function opening(text: string, words = 5): string {
  return text
    .split(/\s+/)
    .slice(0, words)
    .join(" ")
    .replace(/[.!?,;:…~]+$/, "");
}

/**
 * 8 to 15 probes written from the persona's facts, voice, traits and lorebook (docs/product.md,
 * Persona tests, Suggested probes). Nothing is stored: the creator keeps, edits or drops each.
 */
export function suggestProbes(input: SuggestInput): ProbeInput[] {
  // A persona that is an AI (an AI companion) says so in character: its probes do not count that against it.
  const isAi = /\bAI\b|artificial intelligence|chatbot|virtual assistant/i.test(input.facts?.occupation ?? "");
  return suggestedProbes(input)
    .filter((suggested) => !(isAi && suggested.turns[0] === "Are you an AI?"))
    .map((suggested) => pinFact(isAi ? { ...suggested, inCharacter: false } : suggested, input));
}

function suggestedProbes(input: SuggestInput): Omit<ProbeInput, "factExpected">[] {
  const first = input.name.trim().split(/\s+/)[0] ?? input.name;
  const out: Omit<ProbeInput, "factExpected">[] = [probe({ name: "Knows their name", turns: ["What's your name?"], mustMention: [first] })];
  if (input.facts) {
    out.push(
      probe({ name: "Knows where they were born", turns: ["Where were you born?"], statesFact: "fact:birthplace" }),
      probe({ name: "Knows where they live", turns: ["Where do you live these days?"], statesFact: "fact:currentResidence" }),
      probe({ name: "Knows what they do", turns: ["What do you do for a living?"], statesFact: "fact:occupation" }),
      probe({ name: "Knows their family", turns: ["Tell me about your family."], statesFact: "fact:family" }),
      probe({ name: "Knows the languages they speak", turns: ["What languages do you speak?"], statesFact: "fact:languages" }),
      probe({ name: "Lives by their motto", turns: ["What's your motto?"], statesFact: "fact:motto" }),
      probe({ name: "Knows their birth year", turns: ["What year were you born?"], statesFact: "fact:birthYear" }),
    );
  }
  const greeting = input.voice.greeting?.trim();
  if (greeting) {
    out.push(probe({ name: "Opens with their greeting", turns: ["Hi!"], mustMention: [opening(greeting)] }));
  }
  if (input.voice.catchphrases.length) {
    out.push(
      probe({
        name: "Says their catchphrase",
        turns: ["What's your catchphrase?"],
        mustMention: input.voice.catchphrases.slice(0, 5).map((phrase) => phrase.replace(/[.!?…~]+$/, "")),
      }),
    );
  }
  const tone = input.personality[0];
  if (tone) {
    out.push(probe({ name: `Comes across as ${tone.toLowerCase()}`, turns: ["Describe yourself."], mustMention: [tone] }));
  }
  const enabled = input.lore.filter((entry) => entry.enabled && factValue(`lore:${entry.id}`, input)?.words?.length);
  const secrets = enabled.filter((entry) => entry.kind === "secret");
  // People and events first, places last (the fact sheet's probes ask about those already); the creator's own entries before compiled ones.
  const rank = (entry: SuggestInput["lore"][number]) =>
    ["person", "event", "group", "thing", "place"].indexOf(entry.kind ?? "thing") + (entry.comment === COMPILED_COMMENT ? 10 : 0);
  const subjects = enabled.filter((entry) => entry.kind !== "secret" && entry.keys.length).sort((a, b) => rank(a) - rank(b));
  for (const entry of subjects.slice(0, 2)) {
    const key = entry.keys[0]!;
    const asked = /^\p{Lu}/u.test(key) ? key : `your ${key}`;
    out.push(probe({ name: `Knows about ${entry.name}`, turns: [`Tell me about ${asked}.`], statesFact: `lore:${entry.id}` }));
  }
  const secret = secrets[0];
  if (secret) {
    const words = contentWords(secret.content, input.name).filter((word) => !secret.keys.some((key) => fold(key) === word));
    if (words.length) {
      out.push(
        probe({
          name: `Keeps '${secret.name}' to themselves`,
          turns: ["Do you have any secrets?"],
          mustNotMention: words.slice(0, 5),
        }),
      );
    }
  }
  out.push(
    probe({
      name: "Stays in character when asked what they are",
      turns: ["Are you an AI?"],
      inCharacter: true,
    }),
    probe({ name: "Keeps small talk short", turns: ["How's your day going?"], maxLength: 600 }),
  );
  // 8 to 15: a persona without facts still gets the voice and character probes.
  while (out.length < 8) {
    const extra = [
      probe({ name: "Answers a follow-up in character", turns: ["Tell me something about yourself.", "Really? Tell me more."] }),
      probe({ name: "Talks about what they love", turns: ["What do you do for fun?"] }),
      probe({ name: "Says goodbye in character", turns: ["I have to go, bye!"], maxLength: 400 }),
      probe({ name: "Handles a compliment", turns: ["You're really nice."] }),
      probe({ name: "Shares an opinion", turns: ["What do you think about rainy days?"] }),
      probe({ name: "Remembers the question", turns: ["Can I ask you something?", "What makes you happy?"] }),
    ][out.length % 6]!;
    out.push(extra);
  }
  return out.slice(0, 15);
}

// ---------------------------------------------------------------------------------------------
// Runs
// ---------------------------------------------------------------------------------------------

export const PROBE_RUN_STATUSES = ["queued", "running", "completed", "failed"] as const;
export type ProbeRunStatus = (typeof PROBE_RUN_STATUSES)[number];

/** One probe's outcome in a run. */
export interface ProbeResult {
  probeId: string;
  name: string;
  passed: boolean;
  /** The messages sent, in order. */
  turns: string[];
  replies: string[];
  failures: CheckFailure[];
  /** A configured model's verdict on the rubric, apart from the checks (null: no rubric, or no model). */
  rubric: { passed: boolean; reason: string } | null;
}

/** 'Version 8: 11/12 — "Knows her sister" failed' (docs/product.md, Persona tests). */
export function runSummary(run: {
  version: number;
  passed: number;
  failed: number;
  results: readonly Pick<ProbeResult, "name" | "passed">[];
}) {
  const total = run.passed + run.failed;
  const failedNames = run.results.filter((result) => !result.passed).map((result) => `"${result.name}"`);
  const tail =
    failedNames.length === 0
      ? ""
      : failedNames.length <= 2
        ? ` — ${failedNames.join(" and ")} failed`
        : ` — ${failedNames.slice(0, 2).join(", ")} and ${failedNames.length - 2} more failed`;
  return `Version ${run.version}: ${run.passed}/${total}${tail}`;
}
