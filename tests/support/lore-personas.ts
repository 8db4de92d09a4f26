// Random personas with a fact sheet, an embedded backstory and, for every other one, a paragraph a
// creator added naming a relative, a town, a group and a friend: what the lore compile and the
// chat's lore answers are measured on (app/infra/ai/offline/lore-chat.test.ts, tests/bench/lore-embedded.ts).
import { CONTENT_BY_TYPE, extendedProfile, type ExtendedProfile } from "~/domain/extended-profile";
import { compileLore, type LoreCompilation } from "~/domain/lore-compile";
import { newLoreEntry, type LoreBook, type LoreEntry } from "~/domain/lorebook";
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
import { composeBackstory, sheetFacts } from "~/infra/ai/offline/local-text.server";
import type { BackstoryInput, ChatPersona } from "~/infra/ai/types";

const FIRST = ["Kira", "Yuki", "Nova", "Clara", "Leo", "Ada", "Milo", "Iris", "Theo", "Zara", "Kai", "Luna"];
const LAST = ["Moon", "Hayes", "Lumen", "Park", "Okafor", "Silva", "Berg", "Tanaka", "Reyes", "Nilsson"];
const GIVEN = ["Mina", "Tomas", "Aiko", "Rafael", "Ines", "Oskar", "Priya", "Jun", "Selma", "Bruno"];
const RELATIVES = ["sister", "brother", "cousin", "aunt", "uncle", "grandmother"];
const TOWNS = ["Busan", "Valparaíso", "Tromsø", "Port Elyn", "Kraków", "Hobart", "Ghent", "Oaxaca"];
const GROUPS = ["Lantern Choir", "Northgate Theatre Club", "Blue Heron Studio", "Kestrel Guild", "Harbor Lights Band", "Ember Academy"];
const FRIENDS = ["Dana Reyes", "Omar Haddad", "Lena Vogel", "Sami Okoro", "Rosa Lindqvist"];
const KEEPSAKES = ["sketchbook", "concert ticket", "rejection letter", "train pass", "guitar pick"];

const city = (place: string) => place.split(",")[0]!.trim();
const country = (place: string) => place.split(",").slice(1).join(",").trim();
const PLACES = Object.values(CONTENT_BY_TYPE).flatMap((content) => content.cities);
/** Cities and countries the generators know. */
export const KNOWN_NAMES = [...new Set([...PLACES.map(city), ...PLACES.map(country).filter(Boolean)])];
/** The family words a sheet's family line uses. */
export const FAMILY_WORDS = /\b(parents|mother|father|sibling|brother|sister|grandmother|grandfather|cousins|aunt|uncle)\b/g;

export interface NamedThing {
  name: string;
  kind: "person" | "place" | "group";
}

export interface LorePersona {
  id: string;
  input: BackstoryInput;
  extended: ExtendedProfile;
  backstory: string;
  /** What the backstory and the sheet name: the sheet's places and family, the known places in the text, the creator's names. */
  named: NamedThing[];
  /** The creator's paragraph's relative and keepsake, for questions. */
  added: { relative: string; given: string; town: string; group: string; friend: string; year: number } | null;
}

export function lorePersonas(count: number, seed = 20261126): LorePersona[] {
  const random = mulberry32(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const some = <T>(items: readonly T[], max: number) => [
    ...new Set(Array.from({ length: 1 + Math.floor(random() * max) }, () => pick(items))),
  ];
  return Array.from({ length: count }, (_, i) => {
    const input: BackstoryInput = {
      name: `${pick(FIRST)} ${pick(LAST)}`,
      type: pick(PERSONA_TYPES) as PersonaType,
      gender: pick(GENDERS) as Gender,
      ageRange: pick(AGE_RANGES) as AgeRange,
      interests: some(INTERESTS, 3) as Interest[],
      personality: some(TRAITS, 7),
      draw: i,
    };
    const extended = extendedProfile({ id: null, ...input });
    let backstory = composeBackstory({ ...input, facts: sheetFacts(input) });
    const first = input.name.split(" ")[0]!;
    const [they, their] = input.gender === "female" ? ["she", "her"] : input.gender === "male" ? ["he", "his"] : ["they", "their"];
    let added: LorePersona["added"] = null;
    if (i % 2 === 0) {
      added = {
        relative: pick(RELATIVES),
        given: pick(GIVEN),
        town: pick(TOWNS),
        group: pick(GROUPS),
        friend: pick(FRIENDS),
        year: extended.birthYear + 14 + Math.floor(random() * 4),
      };
      const keepsake = pick(KEEPSAKES);
      backstory +=
        `\n\n${first} still writes to ${their} ${added.relative} ${added.given}, who lives in ${added.town} now and sends back pressed flowers. ` +
        `In ${added.year}, ${they} joined the ${added.group}, where ${they} met ${added.friend} on the first evening. ` +
        `No one knows that ${they} still ${they === "they" ? "keep" : "keeps"} ${their} first ${keepsake} in a shoebox.`;
    }
    const named: NamedThing[] = [
      { name: city(extended.birthplace), kind: "place" },
      { name: city(extended.currentResidence), kind: "place" },
      ...[...extended.socialCircle.family.matchAll(FAMILY_WORDS)].map((m) => ({ name: m[1]!, kind: "person" as const })),
      ...KNOWN_NAMES.filter((name) => new RegExp(`(?<![\\p{L}])${name}(?![\\p{L}])`, "u").test(backstory)).map((name) => ({
        name,
        kind: "place" as const,
      })),
      ...(added
        ? [
            { name: added.given, kind: "person" as const },
            { name: added.town, kind: "place" as const },
            { name: added.group, kind: "group" as const },
            { name: added.friend, kind: "person" as const },
          ]
        : []),
    ];
    const unique = [...new Map(named.map((thing) => [thing.name.toLowerCase(), thing])).values()];
    return { id: `lore-persona-${seed}-${i}`, input, extended, backstory, named: unique, added };
  });
}

/** What the compile gives for a persona with an empty lorebook, and its proposals kept as a lorebook. */
export function compiledBook(persona: LorePersona): { compiled: LoreCompilation; book: LoreBook } {
  const compiled = compileLore({ name: persona.input.name, backstory: persona.backstory, extended: persona.extended, existing: [] });
  const entries: LoreEntry[] = compiled.proposals.map((proposal, n) => newLoreEntry(proposal, `${persona.id}-entry-${n}`));
  return { compiled, book: { entries, book: {} } };
}

/** Whether a proposal or entry covers a named thing: one of its keys is its name (or a word of it, for a family word). */
export function covers(keys: readonly string[], thing: NamedThing): boolean {
  const name = thing.name.toLowerCase();
  return keys.some((key) => key.toLowerCase() === name);
}

/** The persona as the chat sees it. */
export function chatPersona(persona: LorePersona): ChatPersona {
  const { input, extended, backstory } = persona;
  return {
    name: input.name,
    type: input.type,
    gender: input.gender,
    ageRange: input.ageRange ?? null,
    interests: input.interests,
    personality: input.personality,
    backstory,
    extended,
  };
}

export interface LoreQuestion {
  persona: LorePersona;
  book: LoreBook;
  /** The entry the question is about. */
  entry: LoreEntry;
  question: string;
}

/** Questions about the compiled entries of the personas, one persona after another: 'Tell me about Busan', 'Who is your sister?', 'What happened in 2009?'. */
export function loreQuestions(personas: readonly LorePersona[], count: number, seed = 7): LoreQuestion[] {
  const random = mulberry32(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const books = personas.map((persona) => compiledBook(persona).book);
  const questions: LoreQuestion[] = [];
  for (let i = 0; questions.length < count && i < count * 10; i++) {
    const n = i % personas.length;
    const persona = personas[n]!;
    const book = books[n]!;
    const entry = pick(book.entries.filter((e) => e.kind !== "thing"));
    if (!entry) continue;
    const key = entry.keys[0]!;
    const relation = entry.keys.find((k) =>
      /^(sister|brother|cousin|aunt|uncle|grandmother|mother|father|sibling|parents|cousins)$/.test(k),
    );
    let question: string;
    if (entry.kind === "person")
      question = relation && random() < 0.5 ? `Who is your ${relation}?` : pick([`Tell me about ${key}.`, `Who is ${key}?`]);
    else if (entry.kind === "place")
      question = pick([`Tell me about ${key}.`, `What is ${key} like?`, `What do you remember about ${key}?`]);
    else if (entry.kind === "group") question = pick([`What is the ${key}?`, `Tell me about ${key}.`]);
    else if (entry.kind === "event") question = /^\d{4}$/.test(key) ? `What happened in ${key}?` : `Tell me about the ${key}.`;
    else if (/^secret skills?$/.test(key)) question = "What are your secret skills?";
    else question = pick(["Do you have a secret?", "What's your secret?"]);
    questions.push({ persona, book, entry, question });
  }
  return questions;
}

/** Words the first person changes ('her' → 'my', 'is' → 'am'): no evidence either way. */
const MASKED = new Set(
  "i me my myself mine she he they her his him them their herself himself themselves is are was were am be been has have had do does did i'm".split(
    " ",
  ),
);
/** Words that say nothing on their own: a run of three needs one other word. */
const SMALL = new Set("the a an and of to in on at for with that this it its as by from or but so".split(" "));
const words = (text: string) =>
  text
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .split(/[^\p{L}\p{N}']+/u)
    .filter(Boolean);

/** The entries a question asks about: its entry, or for 'Do you have a secret?' any secret the lorebook holds under that key. */
export function askedEntries(q: LoreQuestion): LoreEntry[] {
  if (q.entry.kind !== "secret" || /skills/.test(q.question)) return [q.entry];
  return q.book.entries.filter((entry) => entry.kind === "secret" && entry.keys.some((key) => key.toLowerCase() === "secret"));
}

/** Whether a reply states the entry's fact: three words in a row from its content (not pronouns, not the persona's name, not the question's words) are in it. */
export function statesEntry(reply: string, entry: LoreEntry, persona: LorePersona, question: string): boolean {
  const masked = new Set([...MASKED, ...words(persona.input.name)]);
  const asked = new Set(words(question));
  const content = words(entry.content);
  const said = ` ${words(reply).join(" ")} `;
  for (let i = 0; i + 3 <= content.length; i++) {
    const gram = content.slice(i, i + 3);
    if (gram.some((w) => masked.has(w)) || gram.every((w) => asked.has(w) || SMALL.has(w))) continue;
    if (said.includes(` ${gram.join(" ")} `)) return true;
  }
  return false;
}
