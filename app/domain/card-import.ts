// 'Import a Character Card' on the library page (docs/product.md, Exports and character cards):
// the form's schema, for conform: the action parses the post with it (the page checks the same
// rule, ./card-file.ts, before posting); what the file holds is the import service's to judge.
import * as z from "zod";

import {
  AGE_RANGES,
  GENDERS,
  INTERESTS,
  PERSONA_LIMITS,
  PERSONA_TYPES,
  type AgeRange,
  type Gender,
  type Interest,
  type PersonaType,
} from "./persona";
import { CARD_IMPORT_MESSAGES, isChosenFile } from "./card-file";
import { personaSchema } from "./persona-form";

export { CARD_IMPORT_MESSAGES } from "./card-file";

export const cardImportSchema = z.object({
  file: z.custom<File>(isChosenFile, { error: CARD_IMPORT_MESSAGES.empty }),
});

// ---------------------------------------------------------------------------------------
// Finishing an imported card (docs/product.md, Exports and character cards): a card rarely
// says the persona's type, gender, age range and interests, so one short step asks for them,
// prefilled with guesses from the card's texts and tags, and the persona is ready to chat.

export const finishImportSchema = personaSchema.pick({ type: true, gender: true, ageRange: true, interests: true });
export type FinishImportInput = z.infer<typeof finishImportSchema>;

export const FINISH_IMPORT_TEXT = {
  pageTitle: (name: string) => `Finish importing ${name}`,
  intro: "The card does not say everything a persona needs. These are guesses from the card: check them, and the persona is ready to chat.",
  interestsHint: "Choose 1 to 3.",
  submit: "Start Chatting",
  submitting: "Saving...",
  later: "Later",
} as const;

export const FINISH_IMPORT_TOASTS = {
  done: { title: "Persona Ready", description: "The chat opens with the card's greeting." },
  failed: { title: "Not Saved Yet", description: "Please fix the highlighted fields and try again." },
} as const;

/** What the step starts from: the persona's stored choices, and the card's words to guess from. */
export interface FinishImportSource {
  type: string | null;
  gender: string | null;
  ageRange: string | null;
  interests: readonly string[];
  /** The card's texts as kept: description, backstory, personality, scenario, greeting… */
  texts: readonly (string | null | undefined)[];
  tags: readonly string[];
}

export interface FinishImportGuess {
  type: PersonaType;
  gender: Gender | null;
  ageRange: AgeRange;
  interests: Interest[];
}

const TYPE_WORDS: readonly [PersonaType, RegExp][] = [
  ["vtuber", /\bv-?tubers?\b|\bstream(?:er|ers|s|ing)?\b|\btwitch\b/gi],
  ["influencer", /\binfluencers?\b|\binstagram\b|\btiktok\b|\bfollowers\b/gi],
  ["educator", /\bteach(?:er|ers|es|ing)?\b|\btutors?\b|\bprofessors?\b|\beducators?\b|\binstructors?\b|\bmentors?\b/gi],
  ["artist", /\bartists?\b|\bpainters?\b|\billustrators?\b|\bsculptors?\b/gi],
  ["advisor", /\badvis[eo]rs?\b|\bconsultants?\b|\bcoach(?:es)?\b|\bcounsell?ors?\b|\btherapists?\b/gi],
  ["entertainer", /\bentertainers?\b|\bcomedians?\b|\bperformers?\b|\bidols?\b|\bactors?\b|\bactress\b|\bmagicians?\b|\bbards?\b/gi],
  ["specialist", /\bdoctors?\b|\bscientists?\b|\bengineers?\b|\bexperts?\b|\bspecialists?\b|\bresearchers?\b|\bdetectives?\b/gi],
  ["content", /\byoutubers?\b|\bbloggers?\b|\bpodcast(?:er|ers|s)?\b|\bcontent creators?\b|\bvloggers?\b/gi],
  ["companion", /\bcompanions?\b|\bfriends?\b|\bgirlfriend\b|\bboyfriend\b|\bpartner\b|\broommate\b/gi],
];

const INTEREST_WORDS: Record<Interest, RegExp> = {
  gaming: /\bgam(?:e|es|er|ers|ing)\b|\besports?\b/gi,
  tech: /\btech(?:nology)?\b|\bcomputers?\b|\bhack(?:er|ers|ing)?\b|\bcod(?:e|ing)\b|\bprogramm(?:er|ing)\b|\brobots?\b|\bcyber\w*/gi,
  fashion: /\bfashion\w*\b|\bstyl(?:e|ish)\b|\bclothes\b|\boutfits?\b/gi,
  music: /\bmusic\w*\b|\bsing(?:s|er|ing)?\b|\bsongs?\b|\bguitar\b|\bpiano\b|\bbands?\b/gi,
  art: /\bart\b|\bartists?\b|\bpaint(?:s|er|ing)?\b|\bdraw(?:s|ing)?\b|\bsketch\w*/gi,
  fitness: /\bgym\b|\bfitness\b|\bworkouts?\b|\bsports?\b|\bathlet\w*|\bmartial\b|\btraining\b/gi,
  science: /\bscien\w*|\bphysics\b|\bchemistry\b|\bbiology\b|\bastronom\w*|\bspace\b/gi,
  cooking: /\bcook\w*|\bchefs?\b|\bbak(?:e|es|er|ing)\b|\bfood\b|\bcuisine\b|\brecipes?\b/gi,
  travel: /\btravel\w*|\badventur\w*|\bexplor\w*|\bjourneys?\b/gi,
  education: /\bschool\b|\bteach\w*|\bstud(?:y|ies|ent|ents)\b|\blearn\w*|\bacadem\w*/gi,
  business: /\bbusiness\w*|\bcompany\b|\bceo\b|\bfinanc\w*|\bmarket\w*|\bstartups?\b/gi,
  entertainment: /\bmovies?\b|\bfilms?\b|\banime\b|\bshows?\b|\bcomedy\b|\bentertain\w*/gi,
};

const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;

function ageRangeOf(age: number): AgeRange {
  if (age < 25) return "18-24";
  if (age < 35) return "25-34";
  if (age < 45) return "35-44";
  if (age < 55) return "45-54";
  return "55+";
}

/**
 * Best guesses for what a card did not say: stored choices stay; the type from the words the
 * card uses most (else 'AI Companion'), the gender from its pronouns (none when unclear), the
 * age range from an age it states (else 25-34), interests from its tags and words (else
 * entertainment).
 */
export function guessMissingFields(source: FinishImportSource): FinishImportGuess {
  const text = [...source.texts, ...source.tags].filter(Boolean).join("\n");
  const pick = <T extends string>(options: readonly T[], value: string | null) =>
    value !== null && (options as readonly string[]).includes(value) ? (value as T) : null;

  const scored = TYPE_WORDS.map(([type, pattern]) => ({ type, n: count(text, pattern) })).filter((s) => s.n > 0);
  const type = pick(PERSONA_TYPES, source.type) ?? scored.sort((a, b) => b.n - a.n)[0]?.type ?? "companion";

  const she = count(text, /\b(?:she|her|hers|herself|girl|woman|lady)\b/gi);
  const he = count(text, /\b(?:he|him|his|himself|boy|man|guy)\b/gi);
  const pronouns: Gender | null = she > 2 * he && she > 0 ? "female" : he > 2 * she && he > 0 ? "male" : null;
  const gender = pick(GENDERS, source.gender) ?? pronouns;

  const stated = /\b(\d{2})[- ]?(?:years?[- ]old|yo|y\/o)\b|\bage[d:]?\s*(\d{2})\b/i.exec(text);
  const ageRange = pick(AGE_RANGES, source.ageRange) ?? (stated ? ageRangeOf(Number(stated[1] ?? stated[2])) : "25-34");

  const kept = source.interests.filter((i): i is Interest => (INTERESTS as readonly string[]).includes(i));
  const found = (Object.keys(INTEREST_WORDS) as Interest[])
    .map((interest) => ({ interest, n: count(text, INTEREST_WORDS[interest]) }))
    .filter((s) => s.n > 0 && !kept.includes(s.interest))
    .sort((a, b) => b.n - a.n)
    .map((s) => s.interest);
  const interests = [...kept, ...found].slice(0, PERSONA_LIMITS.interestsMax);
  return { type, gender, ageRange, interests: interests.length > 0 ? interests : ["entertainment"] };
}
