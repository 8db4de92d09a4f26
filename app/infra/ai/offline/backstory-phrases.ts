// Phrase banks for the local backstory generator (local-text.server.ts). The phrases themselves
// are data, in backstory-phrases.json; this module names each bank, says what it holds and which
// placeholders it may use, and gives it its type (backstory-phrases.test.ts checks the file).
//
// A template is one sentence. Its choices, written [one|other|a third], are made independently
// each time it is used (they may nest: [a [big|small] one|none]), so the same template reads
// differently from story to story; a choice may be empty ([, at least|]).
// Placeholders, filled in one pass after the choices (values are never re-scanned, so a name or
// a description containing braces or brackets stays as typed):
//   {name} {name's}   the persona's short name (first name when it has one), and its possessive
//   {full} {full's}   the full name
//   {they} {They} {them} {their} {Their} {themselves}
//                     pronouns: he/him/his/himself, she/her/her/herself, or they/them/their/themselves
//   {v:verb}          a present-tense verb whose subject is the pronoun just before it, written in
//                     the plural form ("{they} {v:are}", "{they} {v:love}"); it becomes "is" / "loves"
//                     for he and she. Never used after {name}: a name always takes the singular.
//   {pastime}         one of the persona's interests ("music"), drawn each time; everyday pastimes without any
//   {quality}         one of the persona's traits as a noun ("curiosity"), drawn each time
//   anything else     a value the section supplies: {year}, {place}, {home}, {topic}, {field},
//                     {aLabel}, {education}, {occupation}, {residence}, {residenceCity}, {a}, {b}, {trait}, {job}, {job2}, {career}, {desc}, {interest}.
// Templates are written in US English and each ends with its punctuation. Sentences of more than
// twelve words carry enough choices and persona details that two personas' stories do not share
// them word for word; generic remarks are kept short.
import type { AgeRange, Interest, PersonaType, TRAIT_CATEGORIES } from "~/domain/persona";

import banks from "./backstory-phrases.json";

export type Template = string;
export type Trait = (typeof TRAIT_CATEGORIES)[keyof typeof TRAIT_CATEGORIES][number];

/** {pastime} for a persona with no interests. */
export const FALLBACK_PASTIMES: string[] = banks.FALLBACK_PASTIMES;

/** {quality} for a persona with no traits. */
export const FALLBACK_QUALITIES: string[] = banks.FALLBACK_QUALITIES;

/**
 * Leads a sentence that opens with the persona may get ("By all accounts, she…"), by part of
 * the story; each is used at most once per story. The composer adds the space after the comma.
 * Leads and tails may hold choices and placeholders like any template.
 */
export const LEADS: Record<"origins" | "childhood" | "youth" | "character" | "past" | "present" | "later" | "future", Template[]> =
  banks.LEADS;

/**
 * Tails a long sentence may get before its full stop (", friends say."), by part of the story;
 * each at most once per story.
 */
export const TAILS: Record<keyof typeof LEADS, Template[]> = banks.TAILS;

// ------------------------------------------------------------------ origins

export const BIRTH: Template[] = banks.BIRTH;

/** When no age range is given: no year, no era. */
export const BIRTH_NO_AGE: Template[] = banks.BIRTH_NO_AGE;

export const ERA: Record<AgeRange, Template[]> = banks.ERA;

/** When no age range is given. */
export const ERA_NONE: Template[] = banks.ERA_NONE;

/**
 * The fact sheet's family (app/domain/extended-profile.ts, FAMILY) as the backstory tells it: the
 * same people, nobody added. Every telling of a family holds its marker (FAMILY_MARKERS), and no
 * other sentence does. A family the creator wrote is told in FAMILY_OWN_WORDS.
 */
export const FAMILY_STORIES: Record<string, Template[]> = banks.FAMILY_STORIES;

/** The words every telling of each family holds (and no other sentence does). */
export const FAMILY_MARKERS: Record<string, string> = banks.FAMILY_MARKERS;

export const FAMILY_OWN_WORDS: Template[] = banks.FAMILY_OWN_WORDS;

export const HOMETOWN_LIFE: Template[] = banks.HOMETOWN_LIFE;

// ------------------------------------------------------------------ childhood and interests

export const CHILDHOOD_OPENERS: Template[] = banks.CHILDHOOD_OPENERS;

/** The childhood paragraph when no interest is given. */
export const CHILDHOOD_NO_INTERESTS: Template[] = banks.CHILDHOOD_NO_INTERESTS;

export const INTEREST_EARLY: Record<Interest, Template[]> = banks.INTEREST_EARLY;

/** How each interest still shows in the persona's life today. */
export const INTEREST_LATER: Record<Interest, Template[]> = banks.INTEREST_LATER;

/** When two or more interests are chosen: how they meet. {a} and {b} are interest names. */
export const INTEREST_PAIR: Template[] = banks.INTEREST_PAIR;

/** A noun phrase for what the persona's work is about, from an interest. */
export const INTEREST_TOPIC: Record<Interest, string> = banks.INTEREST_TOPIC;
export const DEFAULT_TOPIC: string = banks.DEFAULT_TOPIC;

/** A Domain Specialist's field, from an interest. */
export const SPECIALIST_FIELDS: Record<Interest, string> = banks.SPECIALIST_FIELDS;
export const DEFAULT_SPECIALIST_FIELD: string = banks.DEFAULT_SPECIALIST_FIELD;

// ------------------------------------------------------------------ youth

export const SCHOOL: Template[] = banks.SCHOOL;

/** {education} is the fact sheet's education with its article ('a degree in Journalism'). */
export const STUDIES_DEGREE: Template[] = banks.STUDIES_DEGREE;

/** {education} is the fact sheet's education as written ('Self-taught through years of posting'). */
export const STUDIES_OTHER: Template[] = banks.STUDIES_OTHER;

export const FIRST_JOBS: string[] = banks.FIRST_JOBS;

export const FIRST_JOB: Template[] = banks.FIRST_JOB;

export const PAST_CAREERS: string[] = banks.PAST_CAREERS;

/** What came before the current work, by age range. {job} and {job2} are first jobs, {career} a past career. */
export const AGE_CAREER: Record<AgeRange, Template[]> = banks.AGE_CAREER;

/** What came before the current work when no age range is given. */
export const AGE_CAREER_NONE: Template[] = banks.AGE_CAREER_NONE;

// ------------------------------------------------------------------ personality

/** The personality paragraph when no trait is given. */
export const PERSONALITY_NONE: Template[] = banks.PERSONALITY_NONE;

/** Opens the paragraph on temperament (Extroversion, Emotional and Openness traits). */
export const TRAIT_OPENERS_INNER: Template[] = banks.TRAIT_OPENERS_INNER;

/** Opens the paragraph on working style (Agreeableness, Conscientiousness and Content Style traits). */
export const TRAIT_OPENERS_OUTER: Template[] = banks.TRAIT_OPENERS_OUTER;

export interface TraitBank {
  /** Each names the trait (or a close form of it: the markers tests look for). */
  lead: Template[];
  /** Each shows the trait at work without necessarily naming it. */
  follow: Template[];
  /** The trait as a noun phrase after "{their}", e.g. "curiosity". */
  noun: string;
}

export const TRAIT_BANKS: Record<Trait, TraitBank> = banks.TRAIT_BANKS;

/** Pairs of traits that pull in opposite directions; when both are chosen the story says so. */
export const OPPOSITES = banks.OPPOSITES as [Trait, Trait][];

/** {a} and {b} are the two traits, lower case. */
export const CONTRADICTION: Template[] = banks.CONTRADICTION;

// ------------------------------------------------------------------ the path into the work, by type

export interface TypeBank {
  /** What the persona studied ({field} in STUDIES); for specialists the field comes from an interest. */
  field: string;
  origin: Template[];
  craft: Template[];
  audience: Template[];
  breakthrough: Template[];
  goals: Template[];
  day: Template[];
}

// {topic} is what the work is about (from an interest), {field} the specialist's field, {home} the hometown.
export const TYPE_BANKS: Record<PersonaType, TypeBank> = banks.TYPE_BANKS;

// ------------------------------------------------------------------ a turning point

export const TURNING_OPENERS: Template[] = banks.TURNING_OPENERS;

export const SETBACKS: Template[] = banks.SETBACKS;

/** {trait} is a trait's noun phrase. */
export const RECOVERY_TRAIT: Template[] = banks.RECOVERY_TRAIT;

export const RECOVERY_PLAIN: Template[] = banks.RECOVERY_PLAIN;

export const LESSONS: Template[] = banks.LESSONS;

export const RETURNS: Template[] = banks.RETURNS;

// ------------------------------------------------------------------ today

/** {aLabel} is the type as prose with its article, e.g. "an online educator". */
export const PRESENT_LABEL: Template[] = banks.PRESENT_LABEL;

/** {occupation} is the fact sheet's occupation with its article ('a virtual streamer'). */
export const OCCUPATION: Template[] = banks.OCCUPATION;

/** Where the persona lives now: {residence} in full, {residenceCity} its first part. */
export const RESIDENCE_MOVED: Template[] = banks.RESIDENCE_MOVED;

export const RESIDENCE_STAYED: Template[] = banks.RESIDENCE_STAYED;

export const AGE_NOW: Record<AgeRange, Template[]> = banks.AGE_NOW;

export const AGE_NOW_NONE: Template[] = banks.AGE_NOW_NONE;

/** What the work means to the persona: one of these always appears today. */
export const REFLECTIONS: Template[] = banks.REFLECTIONS;

/** {desc} is the persona's description, already quoted. */
export const DESCRIPTION: Template[] = banks.DESCRIPTION;

// ------------------------------------------------------------------ optional material
// Used, in this order, only when a story would otherwise be short (few traits or interests).

/** A mentor in the youth paragraph. */
export const MENTORS: Template[] = banks.MENTORS;

/** A paragraph about the people around the persona: an opener, then the rest. */
export const CIRCLE_OPENERS: Template[] = banks.CIRCLE_OPENERS;

export const CIRCLE: Template[] = banks.CIRCLE;

// ------------------------------------------------------------------ small details

export const DETAILS_OPENERS: Template[] = banks.DETAILS_OPENERS;

export const DETAILS: Template[] = banks.DETAILS;

// ------------------------------------------------------------------ goals and closing

export const GOALS_OPENERS: Template[] = banks.GOALS_OPENERS;

/** {interest} is an interest name. */
export const GOAL_INTEREST: Template[] = banks.GOAL_INTEREST;

export const CLOSINGS: Template[] = banks.CLOSINGS;
