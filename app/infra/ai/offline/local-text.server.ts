// The embedded text generator (docs/architecture.md, Adapters): offline, built from the
// persona's fields. A backstory is composed from the phrase banks in backstory-phrases.ts with
// a small PRNG:
//   - the facts come from the persona's fact sheet (docs/product.md, Fact sheet): where it was
//     born and lives, its family, occupation, education and birth year are the sheet's, so the
//     story, the Extended Persona Profile and chat state the same things;
//   - each call is a new draw (input.draw, random when absent): another story, true to the same facts;
//   - every template's [one|other] choices are drawn anew, and long sentences may get a lead or a
//     tail (which have choices of their own), now and then name the persona in full, and weave in
//     the persona's city, interests and traits, so two personas' stories do not share long
//     sentences word for word;
//   - every field shapes it: the age range sets the era, each interest has its own sentences
//     (childhood and today), each trait has its own sentences that name it, the type decides how
//     the persona got started, works and what comes next, the gender the pronouns (he, she, or
//     they with plural verbs), and the description is quoted.
// Every story is at least BACKSTORY_MIN_WORDS words: short compositions get more small details.
import {
  AGE_RANGES,
  GENDERS,
  INTERESTS,
  PERSONA_LIMITS,
  PERSONA_TYPE_PROSE,
  PERSONA_TYPES,
  TRAIT_CATEGORIES,
  type AgeRange,
  type Gender,
  type Interest,
  type PersonaType,
} from "~/domain/persona";
import { birthYearFits, extendedProfile } from "~/domain/extended-profile";

import * as P from "./backstory-phrases";
import { composeChatReply, replyPieces } from "./local-chat.server";
import type { Template, Trait } from "./backstory-phrases";
import { AiError, capText, countWords, type BackstoryFacts, type BackstoryInput, type TextGenerator } from "../types";

/** The composer adds small details until the story has at least this many words. */
const TARGET_WORDS = 900;

/** A live chat reply arrives a word at a time at this pace, like a model's tokens. */
export const LOCAL_CHAT_PACE_MS = 15;

export interface LocalTextOptions {
  /** Milliseconds between the words of a live chat reply (0: all at once). */
  chatPaceMs?: number;
}

export function createLocalTextGenerator({ chatPaceMs = LOCAL_CHAT_PACE_MS }: LocalTextOptions = {}): TextGenerator {
  return {
    kind: "local",
    async generateBackstory(input, options) {
      if (options?.signal?.aborted) throw new AiError("timeout", "The backstory request was cancelled.");
      return composeBackstory(input);
    },
    async *chatReply(input, options = {}) {
      const cancelled = () => new AiError("timeout", "The chat reply was cancelled.");
      if (options.signal?.aborted) throw cancelled();
      const reply = composeChatReply(input);
      if (!options.live || chatPaceMs <= 0) {
        yield reply;
        return;
      }
      for (const [i, piece] of replyPieces(reply).entries()) {
        if (i > 0) await pause(chatPaceMs, options.signal);
        if (options.signal?.aborted) throw cancelled();
        yield piece;
      }
    },
  };
}

function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}

// ---------------------------------------------------------------- input

interface Persona {
  full: string;
  short: string;
  type: PersonaType;
  gender: Gender;
  ageRange: AgeRange | null;
  interests: Interest[];
  traits: Trait[];
  description: string | null;
  facts: BackstoryFacts;
  draw: number;
}

const TRAIT_NAMES = Object.values(TRAIT_CATEGORIES).flat() as Trait[];
const TRAIT_BY_LOWER = new Map(TRAIT_NAMES.map((t) => [t.toLowerCase(), t] as const));
const INNER_TRAITS = new Set<Trait>([...TRAIT_CATEGORIES.Extroversion, ...TRAIT_CATEGORIES.Emotional, ...TRAIT_CATEGORIES.Openness]);

// First words that are a title or an article rather than a first name: such names are used whole.
const NOT_FIRST_NAMES = new Set(
  "a an the dr doctor mr mister mrs ms miss mx prof professor sir dame lady lord captain capt coach chef agent saint st king queen prince princess madame dj mc lil big little uncle aunt auntie sister brother father mother".split(
    " ",
  ),
);

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function normalize(input: BackstoryInput): Persona {
  const full = oneLine(String(input.name ?? ""));
  if (full === "") throw new TypeError("A backstory needs the persona's name.");
  const words = full.split(" ");
  const first = words[0];
  const short =
    words.length >= 2 &&
    words.length <= 4 &&
    /^\p{Lu}[\p{L}'’-]+$/u.test(first) &&
    !NOT_FIRST_NAMES.has(first.toLowerCase().replace(/\.$/, ""))
      ? first
      : full;

  const interests: Interest[] = [];
  for (const interest of input.interests ?? []) {
    const known = INTERESTS.find((i) => i === String(interest).trim().toLowerCase());
    if (known && !interests.includes(known)) interests.push(known);
  }
  const traits: Trait[] = [];
  for (const name of input.personality ?? []) {
    const known = TRAIT_BY_LOWER.get(String(name).trim().toLowerCase());
    if (known && !traits.includes(known)) traits.push(known);
  }
  let description = oneLine(String(input.description ?? ""));
  // a description typed in quotes is quoted once, not twice
  const quoted = /^["“](.*)["”]$/.exec(description);
  if (quoted && !/["“”]/.test(quoted[1])) description = quoted[1].trim();

  return {
    full,
    short,
    type: PERSONA_TYPES.includes(input.type) ? input.type : "content",
    gender: GENDERS.includes(input.gender) ? input.gender : "other",
    ageRange: input.ageRange && AGE_RANGES.includes(input.ageRange) ? input.ageRange : null,
    interests,
    traits,
    description: description === "" ? null : description,
    facts: withDrawnGaps(input.facts, input),
    draw: input.draw ?? Math.floor(Math.random() * 2 ** 32),
  };
}

/**
 * The facts a story tells: the sheet's, and where it states nothing (an imported card's sheet
 * keeps only what the card said), what the persona's basic info gives, so no sentence is left
 * with a hole in it.
 */
function withDrawnGaps(facts: BackstoryFacts | null | undefined, input: BackstoryInput): BackstoryFacts {
  const drawn = sheetFacts(input);
  if (!facts) return drawn;
  const text = (value: string, fallback: string) => (value.trim() === "" ? fallback : value);
  return {
    birthplace: text(facts.birthplace, drawn.birthplace),
    currentResidence: text(facts.currentResidence, drawn.currentResidence),
    occupation: text(facts.occupation, drawn.occupation),
    education: text(facts.education, drawn.education),
    family: text(facts.family, drawn.family),
    birthYear: facts.birthYear > 0 ? facts.birthYear : drawn.birthYear,
  };
}

/** The facts of the sheet the persona's basic info gives (docs/product.md, Extended Persona Profile). */
export function sheetFacts(input: Pick<BackstoryInput, "name" | "type" | "ageRange" | "interests" | "personality">): BackstoryFacts {
  const profile = extendedProfile({
    id: null,
    name: oneLine(String(input.name ?? "")),
    type: input.type,
    ageRange: input.ageRange ?? null,
    interests: input.interests,
    personality: input.personality,
  });
  return {
    birthplace: profile.birthplace,
    currentResidence: profile.currentResidence,
    occupation: profile.occupation,
    education: profile.education,
    family: profile.socialCircle.family,
    birthYear: profile.birthYear,
  };
}

// ---------------------------------------------------------------- randomness

/** xmur3: a 32-bit string hash, used as the seed. */
function hash(text: string): number {
  let h = 1779033703 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    h = Math.imul(h ^ text.charCodeAt(i), 3432918353);
    h = (h << 13) | (h >>> 19);
  }
  h = Math.imul(h ^ (h >>> 16), 2246822507);
  h = Math.imul(h ^ (h >>> 13), 3266489909);
  return (h ^ (h >>> 16)) >>> 0;
}

/** sfc32: a small, fast generator with four words of state (no two seeds give shifted copies of one stream). */
function sfc32(a: number, b: number, c: number, d: number): () => number {
  const next = () => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 12; i++) next();
  return next;
}

// ---------------------------------------------------------------- rendering

const PRONOUNS: Record<"he" | "she" | "they", Record<string, string>> = {
  he: { they: "he", They: "He", them: "him", their: "his", Their: "His", themselves: "himself" },
  she: { they: "she", They: "She", them: "her", their: "her", Their: "Her", themselves: "herself" },
  they: { they: "they", They: "They", them: "them", their: "their", Their: "Their", themselves: "themselves" },
};

const SINGULAR: Record<string, string> = {
  are: "is",
  were: "was",
  have: "has",
  do: "does",
  go: "goes",
  "don't": "doesn't",
  "aren't": "isn't",
  "weren't": "wasn't",
  "haven't": "hasn't",
};

/** The third-person singular of a verb given in its plural form. */
export function singularVerb(plural: string): string {
  const known = SINGULAR[plural];
  if (known) return known;
  if (/(s|sh|ch|x|z|o)$/.test(plural)) return `${plural}es`;
  if (/[^aeiou]y$/.test(plural)) return `${plural.slice(0, -1)}ies`;
  return `${plural}s`;
}

function article(phrase: string): string {
  return /^[aeiou]/i.test(phrase) ? "an" : "a";
}

type Vars = Record<string, string>;

class Composer {
  private readonly random: () => number;
  private readonly pronouns: Record<string, string>;
  private readonly plural: boolean;
  private readonly used = new Set<string>();
  /** How often the story has named each city so far (a city is named a few times, then called "there", "back home"...). */
  private readonly named = new Map<string, number>();
  /** The template `say` used last. */
  last: Template = "";
  /** Openers said with a pronoun, and the same opener with the name (they/them only). */
  readonly byName = new Map<string, string>();
  readonly vars: Vars = {};

  constructor(private readonly persona: Persona) {
    const text = JSON.stringify(persona);
    this.random = sfc32(hash(text), hash(`a${text}`), hash(`b${text}`), hash(`c${text}`));
    const set = persona.gender === "male" ? "he" : persona.gender === "female" ? "she" : "they";
    this.pronouns = PRONOUNS[set];
    this.plural = set === "they";
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.random() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)];
  }

  /** Up to `count` different items, in random order. */
  pickMany<T>(items: readonly T[], count: number): T[] {
    const pool = [...items];
    const out: T[] = [];
    while (out.length < count && pool.length > 0) {
      out.push(pool.splice(Math.floor(this.random() * pool.length), 1)[0]);
    }
    return out;
  }

  /**
   * One template rendered; each template is used at most once per story. With a `part`, a long
   * sentence may get that part's lead ("By all accounts, she…") or tail ("…, friends say."), each
   * at most once per story.
   */
  say(templates: readonly Template[], extra: Vars = {}, part?: Part): string {
    const fresh = templates.filter((t) => !this.used.has(t));
    const template = this.pick(fresh.length > 0 ? fresh : templates);
    this.used.add(template);
    this.last = template;
    return this.told(template, part, extra);
  }

  /** `count` different templates rendered, in the bank's order (banks tell things in time order). */
  sayMany(templates: readonly Template[], count: number, extra: Vars = {}, part?: Part): string[] {
    const fresh = templates.filter((t) => !this.used.has(t));
    const chosen = new Set(this.pickMany(fresh, count));
    return fresh
      .filter((t) => chosen.has(t))
      .map((template) => {
        this.used.add(template);
        return this.told(template, part, extra);
      });
  }

  /**
   * The template rendered, a long sentence sometimes with a lead in front of its subject and a
   * tail before its full stop. The tail is added once the choices are made, so a sentence that
   * ends in a choice gets one too (unless the choice ends in a question, an exclamation or a quote).
   */
  told(template: Template, part: Part | undefined, extra: Vars = {}): string {
    if (part === undefined || !isLong(template)) return this.render(template, extra);
    // now and then the full name, as a profile writer would (the first mention of the persona in the sentence)
    let out = this.random() < FULL_NAME_CHANCE ? template.replace(/\{name('s)?\}/, "{full$1}") : template;
    const withLead = takesLead(out) && this.random() < LEAD_CHANCE;
    out = this.choose(out);
    // The lead is drawn once the sentence's choices are made: not one that names again a place,
    // a period or a word the sentence names ('In those teenage years, his late teens …').
    if (withLead) {
      // "As a child in Lagos, …" needs the persona as the subject, not "art was the first thing …"
      const leads = /^\{(They|name|full)\}/.test(out) ? P.LEADS[part] : P.LEADS[part].filter((l) => !l.startsWith("As a [kid"));
      const lead = this.fitting(leads, out);
      if (lead) out = `${lead} ${out.replace(/^\{(They|Their)\}|^[A-Z][a-z-]* /, (word: string) => word.toLowerCase())}`;
    }
    if (/[^.!?"”]\.$/.test(out) && this.random() < TAIL_CHANCE) {
      // Likewise the tail ('Years before Kyoto, …, years before Kyoto'; '…, art and all, music and all').
      const ending = this.fitting(P.TAILS[part], out);
      if (ending) out = `${out.slice(0, -1)}${ending}.`;
    }
    return this.render(out, extra);
  }

  /**
   * A lead or tail not used yet in this story (marked used), its choices made, that names no
   * place, period or word `sentence` names (see `topics`); undefined when none is left.
   */
  private fitting(phrases: readonly Template[], sentence: string): string | undefined {
    const pool = phrases.filter((l) => !this.used.has(l) && !this.namesCityAgain(l));
    const told = topics(sentence, this.sameCities);
    while (pool.length > 0) {
      const phrase = pool.splice(Math.floor(this.random() * pool.length), 1)[0]!;
      const text = this.choose(phrase);
      if ([...topics(text, this.sameCities)].some((topic) => told.has(topic))) continue;
      this.used.add(phrase);
      return text;
    }
    return undefined;
  }

  /** Whether the persona lives in the city it was born in (an imported sheet may say so): {residenceCity} is then {home}. */
  private get sameCities(): boolean {
    return sameCity(this.vars.home ?? "", this.vars.residenceCity ?? "");
  }

  /**
   * A paragraph's short opener ("The small details say a lot about them."); for they/them, its
   * form with the name in place of the first pronoun is kept in `byName`, for when the sentence
   * before it is about someone or something else (see composeBackstory).
   */
  opener(templates: readonly Template[]): string {
    const text = this.say(templates);
    if (this.plural) {
      const named = withName(this.last);
      if (named !== this.last) this.byName.set(text, this.render(named));
    }
    return text;
  }

  /**
   * Whether a rendered sentence is about the persona: it names the persona, or opens with "they"
   * (or does so after its first comma, a lead).
   */
  aboutPersona(sentence: string): boolean {
    const { short, full } = this.persona;
    const lower = sentence.toLowerCase();
    if ([short, full].some((name) => lower.includes(name.toLowerCase()))) return true;
    return [sentence, sentence.replace(/^[^,:]*[,:] /, "")].some((s) => /^(They|they)\b/.test(s));
  }

  /** Like say, preferring a template that does not open like `avoid` (to vary sentence openings). */
  sayVaried(templates: readonly Template[], avoid: string | undefined, part?: Part): string {
    const varied = templates.filter((t) => !this.used.has(t) && opening(t) !== avoid);
    return this.say(varied.length > 0 ? varied : templates, {}, part);
  }

  render(template: Template, extra: Vars = {}): string {
    const { full, short } = this.persona;
    const text = this.choose(template).replace(/\{([^{}]+)\}/g, (_, key: string) => {
      switch (key) {
        case "pastime":
          return this.pick(this.pastimes);
        case "quality":
          return this.pick(this.qualities);
        case "name":
          return short;
        case "name's":
          return `${short}'s`;
        case "full":
          return full;
        case "full's":
          return `${full}'s`;
        case "home":
        case "place":
        case "residenceCity":
        case "residence": {
          const city = cityOf(this.vars[key] ?? "");
          this.named.set(city, (this.named.get(city) ?? 0) + 1);
          break;
        }
      }
      if (key.startsWith("v:")) {
        const verb = key.slice(2);
        return this.plural ? verb : singularVerb(verb);
      }
      const value = this.pronouns[key] ?? extra[key] ?? this.vars[key];
      if (value === undefined) throw new Error(`Backstory template has no value for {${key}}: ${template}`);
      return value;
    });
    const sentence = text.replace(/\s+/g, " ").trim();
    // A name like "the Oracle" opening a sentence is capitalized; other names stay as typed.
    return /^(the|a|an) /.test(sentence) ? sentence[0].toUpperCase() + sentence.slice(1) : sentence;
  }

  /** Each `[one|other]` of a template replaced by one of its options, drawn independently (groups may nest). */
  choose(template: Template): string {
    if (!template.includes("[")) return template;
    let at = 0;
    const sequence = (nested: boolean): string => {
      let out = "";
      while (at < template.length) {
        const ch = template[at];
        if (nested && (ch === "|" || ch === "]")) break;
        at += 1;
        if (ch !== "[") {
          out += ch;
          continue;
        }
        const options = [sequence(true)];
        while (template[at] === "|") {
          at += 1;
          options.push(sequence(true));
        }
        at += 1; // the closing bracket
        // an option naming a city the story has named enough gives way to the others ("[in {home}|back home]")
        const fresh = options.filter((option) => !this.namesCityAgain(option));
        out += this.pick(fresh.length > 0 ? fresh : options);
      }
      return out;
    };
    return sequence(false);
  }

  /** Whether a phrase names a city the story has already named CITY_MENTIONS times. */
  private namesCityAgain(phrase: string): boolean {
    if (!phrase.includes("{")) return false;
    for (const [, key] of phrase.matchAll(/\{(home|place|residenceCity|residence)\}/g)) {
      if ((this.named.get(cityOf(this.vars[key] ?? "")) ?? 0) >= CITY_MENTIONS) return true;
    }
    return false;
  }

  /** The persona's interests, or everyday pastimes when it has none ({pastime}). */
  private get pastimes(): readonly string[] {
    return this.persona.interests.length > 0 ? this.persona.interests : P.FALLBACK_PASTIMES;
  }

  /** The persona's traits as noun phrases ("curiosity"), or plain virtues when it has none ({quality}). */
  private get qualities(): readonly string[] {
    return this.persona.traits.length > 0 ? this.persona.traits.map((t) => P.TRAIT_BANKS[t].noun) : P.FALLBACK_QUALITIES;
  }
}

/**
 * Whether a (long) template can follow a lead: it opens with the persona, an article or a plain
 * word that is no opener of its own ("Next,", "Looking back,", "As a child, ...": a lead in front
 * of those would read as two openers), and has no comma in its first six words.
 */
function takesLead(template: Template): boolean {
  const words = template.split(" ");
  if (words.slice(0, 6).some((word) => word.endsWith(","))) return false;
  if (/^\{(They|Their|name|name's)\}$/.test(words[0]!)) return true;
  return /^[A-Z][a-z-]*$/.test(words[0]!) && !NO_LEAD_WORDS.has(words[0]!);
}

/**
 * The places, periods and meaningful words of a template (choices made, placeholders in), one
 * form each: a lead or tail sharing one with its sentence would name it again. A city is one
 * form however told ({home}, {place}, "back home", "hometown", "where they grew up", "the old
 * neighborhood"; {residence}, {residenceCity}; both one when the persona stayed), so is a period
 * (the teens; the early years, childhood), and "and all"; other words ("Back then, … back then",
 * "As friends tell it, {their} friends …") count unless they are function words or pronouns.
 */
function topics(template: string, sameCities: boolean): Set<string> {
  let text = template.toLowerCase();
  for (const [pattern, topic] of TOPICS) text = text.replace(pattern, topic);
  if (sameCities) text = text.replace(/\{residencecity\}/g, "{home}");
  const out = new Set<string>();
  for (const word of text.match(/\{[a-z':]+\}|[a-z'-]+/g) ?? []) {
    if (word.length < 3 || NOT_TOPICS.has(word)) continue;
    out.add(/^[a-z'-]{3,}s$/.test(word) && !word.endsWith("ss") ? word.slice(0, -1) : word);
  }
  return out;
}

/** One form for each way a story names the same place or period. */
const TOPICS: [RegExp, string][] = [
  [/\{place\}|\bback home\b|\bhometown\b|\bwhere \{they\} grew up\b|(\bthe|\{their\}) old neighborhood\b/g, " {home} "],
  [/\{residence\}/g, " {residencecity} "],
  [/\bteen(s|age|ager|agers)?\b/g, " teen "],
  [/\b(earl(y|ier|iest)|first (few )?years|child(hood|ren)?|kids?|youngsters?)\b/g, " early "],
  [/\band all\b/g, " and-all "],
  [/\{v:([a-z']+)\}/g, " $1 "],
];

/** Words whose repeat goes unnoticed: function words, pronouns, the persona's name. */
const NOT_TOPICS = new Set(
  "about across after all also and any anybody anyone are around been before being between both but can could did does each for from had has have her here his into its just like many may might more most much nor not off once one only onto other our out over own same should some someone such than that the their them there these they this those too under very was way well were what when which while who whom will with within without would yet you your {they} {them} {their} {themselves} {name} {name's} {full} {full's}".split(
    " ",
  ),
);

/** First words that open a sentence on their own terms (time, place, condition): no lead in front of them. */
const NO_LEAD_WORDS = new Set(
  "After Afternoons And Around As At Back Because Before Being Born By Each Even Every For From Growing If In It Later Long Looking Most Much Next Now On Once Over Past Somewhere Still Sundays Then There These This Today Two Until What Whatever When While With Years".split(
    " ",
  ),
);

const LONG = new Map<Template, boolean>();

/** Whether a template is a long sentence (more than 12 words, counting each choice as one). */
function isLong(template: Template): boolean {
  let long = LONG.get(template);
  if (long === undefined) LONG.set(template, (long = template.split(" ").length > 12));
  return long;
}

/** How often such a sentence gets a lead, and how often a long sentence gets a tail. */
const LEAD_CHANCE = 0.65;
const TAIL_CHANCE = 0.55;
/** How often a city is named before the choices that name it give way to the others ("there", "back home"). */
const CITY_MENTIONS = 3;
/** How often a long sentence calls the persona by the full name rather than the first name. */
const FULL_NAME_CHANCE = 0.3;

/** The part of the story a sentence belongs to, for its leads and tails. */
type Part = keyof typeof P.LEADS;

/** The first word of a template ("{name}", "{Their}", "Being", ...). */
function opening(template: Template): string {
  return template.split(" ")[0];
}

/**
 * A template with the persona's name in place of its first pronoun, the verb after it made
 * singular ("Looking ahead, {they} {v:have} …" → "Looking ahead, {name} has …"); the template itself when it has none.
 */
function withName(template: Template): Template {
  return template.replace(/\{(they|They|them)\}( (?:still |also |often )?)?(\{v:([a-z']+)\})?|\{(their|Their)\}/, (...m: string[]) =>
    m[5] ? "{name's}" : `{name}${m[2] ?? ""}${m[4] ? singularVerb(m[4]) : ""}`,
  );
}

// ---------------------------------------------------------------- composition

/** The local generator's backstory for an input: plain prose, paragraphs separated by a blank line. */
export function composeBackstory(input: BackstoryInput): string {
  const persona = normalize(input);
  const c = new Composer(persona);
  const { type, ageRange, interests, traits } = persona;
  const bank = P.TYPE_BANKS[type];

  // The facts every section agrees on: the fact sheet's.
  const { facts } = persona;
  const home = cityOf(facts.birthplace);
  const residenceCity = cityOf(facts.currentResidence);
  // What the work is about: an interest, preferably not the one the type already names.
  const distinct = interests.filter((i) => i !== SAME_AS_TYPE[type]);
  const topicInterest = interests.length > 0 ? c.pick(distinct.length > 0 ? distinct : interests) : null;
  const [job, job2] = c.pickMany(P.FIRST_JOBS, 2);
  const label = PERSONA_TYPE_PROSE[type];
  Object.assign(c.vars, {
    place: facts.birthplace,
    home,
    residence: facts.currentResidence,
    residenceCity,
    topic: topicInterest ? P.INTEREST_TOPIC[topicInterest] : P.DEFAULT_TOPIC,
    field: type === "specialist" ? (topicInterest ? P.SPECIALIST_FIELDS[topicInterest] : P.DEFAULT_SPECIALIST_FIELD) : bank.field,
    job,
    job2,
    career: c.pick(P.PAST_CAREERS),
    aLabel: `${article(label)} ${label}`,
    occupation: withArticle(facts.occupation),
    family: sentence(facts.family),
  } satisfies Vars);
  if (ageRange) c.vars.year = String(birthYearOf(facts, ageRange));
  const degree = DEGREE.test(facts.education);
  c.vars.education = degree ? withArticle(facts.education) : lowerFirst(facts.education.replace(/[.!]+$/, ""));

  // Origins: birth, era, family, hometown.
  const origins = [
    ageRange ? c.say(P.BIRTH) : c.say(P.BIRTH_NO_AGE),
    ageRange ? c.say(P.ERA[ageRange], {}, "origins") : c.say(P.ERA_NONE, {}, "origins"),
    P.FAMILY_STORIES[facts.family] ? c.say(P.FAMILY_STORIES[facts.family]!, {}, "origins") : c.say(P.FAMILY_OWN_WORDS),
    c.say(P.HOMETOWN_LIFE, {}, "origins"),
  ];

  // Childhood: each interest in its own sentences.
  let childhood: string[];
  if (interests.length > 0) {
    const perInterest = interests.length === 1 ? 3 : interests.length === 2 ? 2 : 1;
    childhood = [c.opener(P.CHILDHOOD_OPENERS)];
    for (const interest of interests) childhood.push(...c.sayMany(P.INTEREST_EARLY[interest], perInterest, {}, "childhood"));
    if (interests.length >= 2) {
      const [a, b] = c.pickMany(interests, 2);
      childhood.push(c.say(P.INTEREST_PAIR, { a, b }, "childhood"));
    }
  } else {
    childhood = c.sayMany(P.CHILDHOOD_NO_INTERESTS, 4);
  }

  // Youth: school, studies, first job, what came before (by age).
  const youth = [
    c.say(P.SCHOOL, {}, "youth"),
    c.say(degree ? P.STUDIES_DEGREE : P.STUDIES_OTHER, {}, "youth"),
    c.say(P.FIRST_JOB, {}, "youth"),
    ageRange ? c.say(P.AGE_CAREER[ageRange], {}, "youth") : c.say(P.AGE_CAREER_NONE, {}, "youth"),
  ];

  // Personality: every trait names itself, temperament first, then working style.
  const character = personality(c, traits);

  // The path into the work, shaped by the type.
  const path = [
    c.say(bank.origin, {}, "past"),
    ...c.sayMany(bank.craft, 2, {}, "present"),
    c.say(bank.audience, {}, "present"),
    c.say(bank.breakthrough, {}, "past"),
  ];

  // A turning point, survived thanks to one of the traits.
  const strength = traits.length > 0 ? c.pick(traits) : null;
  const turn = [
    c.opener(P.TURNING_OPENERS),
    c.say(P.SETBACKS, {}, "past"),
    strength ? c.say(P.RECOVERY_TRAIT, { trait: P.TRAIT_BANKS[strength].noun }, "later") : c.say(P.RECOVERY_PLAIN, {}, "later"),
    c.say(P.LESSONS, {}, "later"),
    c.say(P.RETURNS),
  ];

  // Today: the type label, the age, each interest again, the description, a typical day.
  const today = [
    c.say(P.PRESENT_LABEL, {}, "present"),
    c.say(P.OCCUPATION, {}, "present"),
    c.say(sameCity(facts.birthplace, facts.currentResidence) ? P.RESIDENCE_STAYED : P.RESIDENCE_MOVED),
    ageRange ? c.say(P.AGE_NOW[ageRange], {}, "present") : c.say(P.AGE_NOW_NONE, {}, "present"),
  ];
  for (const interest of interests) today.push(c.say(P.INTEREST_LATER[interest], {}, "present"));
  if (persona.description) today.push(c.say(P.DESCRIPTION, { desc: quote(persona.description) }));
  today.push(c.say(bank.audience, {}, "present"), c.say(P.REFLECTIONS), c.say(bank.day, {}, "present"));

  // Small details (two at least), then the future: next steps first, the long term after.
  const details = [c.opener(P.DETAILS_OPENERS), ...c.sayMany(P.DETAILS, 2, {}, "present")];
  const future = [c.opener(P.GOALS_OPENERS), ...bank.goals.map((t) => c.told(t, "future"))];
  if (topicInterest) future.push(c.say(P.GOAL_INTEREST, { interest: topicInterest }, "future"));
  future.push(c.say(P.CLOSINGS, {}, "future"));

  // Short stories (few traits or interests) get optional material until they reach the target.
  const circle: string[] = [];
  const paragraphs = () => [origins, childhood, youth, ...character, path, turn, today, circle, details, future];
  const topUps = [
    () => path.splice(3, 0, c.say(bank.craft, {}, "present")),
    () => youth.splice(3, 0, c.say(P.MENTORS, {}, "youth")),
    () => circle.push(c.opener(P.CIRCLE_OPENERS), ...c.sayMany(P.CIRCLE, 3, {}, "present")),
    ...P.DETAILS.slice(2).map(() => () => details.push(c.say(P.DETAILS, {}, "present"))),
  ];
  const wordsOf = new Map<string, number>();
  const words = () =>
    paragraphs()
      .flat()
      .reduce((sum, s) => sum + (wordsOf.get(s) ?? wordsOf.set(s, countWords(s)).get(s)!), 0);
  for (const topUp of topUps) {
    if (words() >= TARGET_WORDS) break;
    topUp();
  }

  const told = paragraphs().filter((sentences) => sentences.length > 0);
  // After a sentence about someone or something else, a they/them opener names the persona
  // ('… the regulars love them. The small details say a lot about Kai.').
  for (let i = 1; i < told.length; i++) {
    const named = c.byName.get(told[i]![0]!);
    if (named && !c.aboutPersona(told[i - 1]!.at(-1)!)) told[i] = [named, ...told[i]!.slice(1)];
  }
  const text = told.map((sentences) => sentences.join(" ")).join("\n\n");
  return capText(text, PERSONA_LIMITS.backstoryMax);
}

/** The interest a type already is about ("an AI Educator ... lessons on learning"). */
const SAME_AS_TYPE: Partial<Record<PersonaType, Interest>> = {
  educator: "education",
  artist: "art",
  entertainer: "entertainment",
  content: "entertainment",
};

/** The sheet's birth year; one outside the age range (an old sheet) gives way to one inside it. */
function birthYearOf(facts: BackstoryFacts, ageRange: AgeRange): number {
  if (birthYearFits(facts.birthYear, ageRange)) return facts.birthYear;
  return extendedProfile({ name: String(facts.birthYear), ageRange }).birthYear;
}

/** "Seoul, South Korea" → "Seoul". */
function cityOf(place: string): string {
  return place.split(",")[0]!.trim();
}

function sameCity(a: string, b: string): boolean {
  return cityOf(a).toLowerCase() === cityOf(b).toLowerCase();
}

const DEGREE = /^(bachelor|master|phd|mba|degree|diploma|associate|doctorate)\b/i;

/** "Lifestyle influencer" → "a lifestyle influencer"; "VTuber and voice actor" → "a VTuber and voice actor". */
function withArticle(phrase: string): string {
  const text = lowerFirst(phrase.trim().replace(/[.!]+$/, ""));
  if (/^(a|an|the)\s/i.test(text)) return text;
  const an = /^(mba|[aeiou])/i.test(text) && !/^(uni|use|eu)/i.test(text);
  return `${an ? "an" : "a"} ${text}`;
}

/** Lower-cases an ordinary first word ("Degree" → "degree"), never a name or an acronym ("VTuber", "PhD", "YouTuber"). */
function lowerFirst(text: string): string {
  const word = text.split(/\s/)[0] ?? "";
  return /^[A-Z][a-z'-]+$/.test(word) && !PROPER.has(word) ? text[0]!.toLowerCase() + text.slice(1) : text;
}

const PROPER = new Set(["English", "Bachelor"]);

/** A profile phrase as a sentence of its own: first person turned to the persona, a full stop at the end. */
function sentence(text: string): string {
  const clean = oneLine(text);
  return /[.!?…]$/.test(clean) ? clean : `${clean}.`;
}

function quote(description: string): string {
  const text = description.replace(/"/g, "'");
  return `"${text}${/[.!?…]$/.test(text) ? "" : "."}"`;
}

function personality(c: Composer, traits: Trait[]): string[][] {
  if (traits.length === 0) return [P.PERSONALITY_NONE.map((t) => c.render(t))];
  const follows = (index: number) => (traits.length <= 2 ? 2 : traits.length <= 5 ? 1 : index < 3 ? 1 : 0);
  let lastOpening: string | undefined;
  const sentencesOf = (trait: Trait, index: number) => {
    const bank = P.TRAIT_BANKS[trait];
    const lead = c.sayVaried(bank.lead, lastOpening, "character");
    lastOpening = opening(c.last);
    return [lead, ...c.sayMany(bank.follow, follows(index), {}, "character")];
  };

  const inner = traits.filter((t) => INNER_TRAITS.has(t));
  const outer = traits.filter((t) => !INNER_TRAITS.has(t));
  const groups = [inner, outer].filter((g) => g.length > 0);
  const paragraphs = groups.map((group, g) => [
    c.opener(g === 0 ? P.TRAIT_OPENERS_INNER : P.TRAIT_OPENERS_OUTER),
    ...group.flatMap((trait) => sentencesOf(trait, traits.indexOf(trait))),
  ]);

  const clash = P.OPPOSITES.find(([a, b]) => traits.includes(a) && traits.includes(b));
  if (clash) {
    paragraphs[paragraphs.length - 1].push(c.say(P.CONTRADICTION, { a: clash[0].toLowerCase(), b: clash[1].toLowerCase() }));
  }
  return paragraphs;
}
