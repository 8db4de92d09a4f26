// Character cards: a persona as Character Card V2 and V3, the JSON that SillyTavern, RisuAI,
// Agnai and other chat front ends import (V2: malfoyslastname/character-card-spec-v2; V3:
// kwaroran/character-card-spec-v3), and a card read back into a persona (its fields, rules and
// limits: docs/product.md, Personas). Pure; the PNG container lives in infra/png.server.ts.
//
// Export. The card's texts are written for a chat front end (a rich description with the
// voice's appearance, the traits with the speech style and catchphrases as personality, and
// the voice's scenario, greeting as first_mes, alternate greetings and example dialogue, each
// derived when the voice leaves it empty, and a short role prompt); our own fields, with the
// Extended Profile and the voice, go into data.extensions.personaforge, so a card read back
// loses nothing (docs/product.md, Exports and character cards). What AI generated (docs/product.md,
// AI disclosure) is said twice: as the last paragraph of creator_notes and as
// data.extensions.personaforge.ai_generated; on import the line is taken out of the notes and the
// record kept (CardMeta.aiGenerated), so it goes out again once (ai-disclosure.ts).
//
// Import. A card of ours gives its fields back from that extension (each checked against our
// enumerations and limits, anything invalid dropped). A foreign card gives what can be
// derived: its name, a short description and a backstory from its texts, the traits named in
// its personality or tags, interests and gender from its tags, its voice (first_mes,
// alternate_greetings, mes_example, scenario as plain text within the voice's limits) and a
// profile of the facts its texts state, nothing else. Everything the persona does not model is
// kept in CardMeta and written back on export: the card's own texts, tags, creator, version,
// dates, assets and every other front end's extension (its lorebook becomes the persona's own:
// card-lorebook.ts); a voice text only when the
// voice could not hold it as it came (cut or cleaned), and then only until the voice changes.
//
// Export → import → export gives the same bytes (for a persona at version 1: the card carries
// the persona's version number, and an import starts its own history at 1). To get there:
// - CardMeta keeps a text only when it differs from what the imported persona would produce,
//   so a card of ours keeps almost nothing and follows later edits of the persona.
// - The texts the persona models (description, personality, scenario, tags) and the
//   modification date come from CardMeta only while the persona is unedited, that is while
//   its fields (name, type, gender, age range, interests, traits, description, backstory)
//   still match the fingerprint taken at import. Saving an image, a style or the status
//   is no edit. Once edited, those texts are derived again (tags: ours first, then the
//   card's other tags) and modification_date is updatedAt (the latest version's time when
//   the caller passes it); character_version is the persona's version number when given.
//   Everything else in CardMeta is always written back, and creation_date never changes once
//   a card has one (V3 spec).
// - JSON objects from other front ends are written with their keys sorted, so the way the
//   database stores them (jsonb reorders keys) does not matter.
// - `status` tells the caller what to store for the round trip to hold (see ParsedCard).
//
// A card is hostile input: every text is capped (CARD_LIMITS), lists and foreign JSON are
// bounded in size and depth, NUL characters and broken UTF-16 are removed (PostgreSQL refuses
// them), what is kept fits the database's size checks (measured in bytes as it stores them),
// and text stays text: nothing here is ever read as HTML. A name loses markup and
// control characters and is cut to 80 characters; one that still has fewer than 2 is refused.
import * as z from "zod";

import {
  aiPartsFromNotice,
  aiRecord,
  mergeAiParts,
  parseAiParts,
  withAiNotice,
  withoutAiNotice,
  type AiGeneratedRecord,
} from "./ai-disclosure";
import { truncateDescription } from "./autofill";
import {
  CARD_META_VERSION,
  type CardAsset,
  type CardMeta,
  type CardTextFingerprints,
  type ExportPersona,
  type JsonValue,
} from "./persona-shapes";
import type { ExtendedProfile } from "./extended-profile";
import {
  AGE_RANGES,
  GENDERS,
  IMAGE_STYLES,
  nameLongEnough,
  PERSONA_LIMITS,
  PERSONA_STATUSES,
  PERSONA_TYPE_LABELS,
  PERSONA_TYPES,
  TRAITS,
  type AgeRange,
  type Gender,
  type ImageStyle,
  type Interest,
  type PersonaStatus,
  type PersonaType,
} from "./persona";
import { characterCount, GENDER_LABELS, INTEREST_LABELS, validatePersona } from "./persona-form";
import { cardBookFromLorebook, lorebookFromCard } from "./card-lorebook";
import { jsonbTextBytes } from "./json-limits";
import { parseLorebook, type LoreBook, type LoreJson } from "./lorebook";
import { hashString } from "./random";
import { PRODUCT_NAME } from "./site";
import { isInterest, isTrait, type Trait } from "./traits";
import { AUTHORS_NOTE_DEFAULT_DEPTH, EMPTY_VOICE, parseVoice, VOICE_LIMITS, voiceSchema, type PersonaVoice } from "./persona-voice";
import { parseProbe, PROBE_LIMITS, type ProbeInput } from "./probes";

export { CARD_META_VERSION, type CardAsset, type CardMeta, type JsonValue } from "./persona-shapes";

export const CARD_EXTENSION_KEY = "personaforge";
export const CARD_EXTENSION_VERSION = 1;
export const CARD_CHARACTER_VERSION = "1.0";

export const CARD_LIMITS = {
  /** Characters in one text field of a card. */
  textMax: 100_000,
  /** Characters in one tag. */
  tagMax: 1_000,
  /** Entries in a list: greetings, tags, sources, assets. */
  listMax: 100,
  /** Size of the extensions, the lorebook and the assets, each measured as JSON characters. */
  jsonMax: 2_000_000,
  /** Nesting depth of that JSON. */
  jsonDepth: 20,
  /**
   * Size of everything kept from one card, in bytes as the database stores it (jsonb text,
   * UTF-8): the CHECK on personas.card_meta (migration 20261121181045_persona_library).
   */
  metaMaxBytes: 2_097_152,
  /** Size of the Extended Persona Profile a card brings, the same way: the CHECK on personas.extended. */
  extendedMaxBytes: 65_536,
  /** Size of the lorebook a card brings, the same way: the CHECK on personas.lore (migration 20261126220000_persona_lore). */
  loreMaxBytes: 2_097_152,
} as const;

/** The chat greeting (docs/product.md, Chat), also the card's first message. */
export function chatGreeting(name: string): string {
  return `Hi there! I'm ${name}. How can I help you today?`;
}

// ---------------------------------------------------------------------------------------
// The card formats.

export interface CharacterCardV2Data {
  name: string;
  description: string;
  personality: string;
  scenario: string;
  first_mes: string;
  mes_example: string;
  creator_notes: string;
  system_prompt: string;
  post_history_instructions: string;
  alternate_greetings: string[];
  character_book?: JsonValue;
  tags: string[];
  creator: string;
  character_version: string;
  extensions: Record<string, JsonValue>;
}

export interface CharacterCardV2 {
  spec: "chara_card_v2";
  spec_version: "2.0";
  data: CharacterCardV2Data;
}

export interface CharacterCardV3Data extends CharacterCardV2Data {
  group_only_greetings: string[];
  /** Unix time in seconds (a card that wrote its dates as text keeps them as it wrote them). */
  creation_date?: number | string;
  modification_date?: number | string;
  assets?: CardAsset[];
  nickname?: string;
  creator_notes_multilingual?: Record<string, string>;
  source?: string[];
}

export interface CharacterCardV3 {
  spec: "chara_card_v3";
  spec_version: "3.0";
  data: CharacterCardV3Data;
}

/** What an imported card carried that the persona does not model (stored as personas.card_meta). */

/** data.extensions.personaforge: the persona's own fields. */
export interface PersonaCardExtension {
  version: typeof CARD_EXTENSION_VERSION;
  type: string | null;
  gender: string | null;
  ageRange: string | null;
  interests: string[];
  personality: string[];
  description: string;
  backstory: string;
  imageStyle: string;
  status: string;
  extended: ExtendedProfile;
  /** The persona's voice, every field (docs/product.md, Voice). Absent on cards written before voices. */
  voice?: PersonaVoice;
  /** The persona's tests (docs/product.md, Persona tests): its probes, without their ids. Absent when it has none. */
  probes?: ProbeInput[];
  /** Which parts were AI-generated and by what (docs/product.md, AI disclosure). Absent when none was. */
  ai_generated?: AiGeneratedRecord;
}

// ---------------------------------------------------------------------------------------
// Small text helpers.

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** What PostgreSQL can store: no NUL, no half of a surrogate pair. */
function cleanText(text: string): string {
  return text.replace(/\u0000/g, "").replace(LONE_SURROGATE, "\uFFFD");
}

/** At most `max` characters (code points), with "..." when cut. */
function cut(text: string, max: number): string {
  return characterCount(text) > max ? `${[...text].slice(0, max - 3).join("")}...` : text;
}

const blank = (value: string | null | undefined) => !value || value.trim() === "";
const article = (word: string) => (/^[aeiou]/i.test(word) ? "an" : "a");

function listWords(words: readonly string[]): string {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

function distinct<T>(items: readonly T[]): T[] {
  return [...new Set(items)];
}

function oneOf<T extends string>(options: readonly T[], value: unknown): T | null {
  return typeof value === "string" && (options as readonly string[]).includes(value) ? (value as T) : null;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

const unixSeconds = (date: Date | string) => Math.floor(new Date(date).getTime() / 1000);

// ---------------------------------------------------------------------------------------
// Foreign JSON (extensions, lorebooks, assets): bounded, cleaned, keys sorted.

class JsonLimit extends Error {
  constructor(readonly problem: "large" | "deep" | "type") {
    super(problem);
  }
}

function boundedJson(value: unknown, maxChars: number = CARD_LIMITS.jsonMax, maxDepth: number = CARD_LIMITS.jsonDepth): JsonValue {
  let budget = maxChars;
  const spend = (n: number) => {
    budget -= n;
    if (budget < 0) throw new JsonLimit("large");
  };
  const walk = (v: unknown, depth: number): JsonValue => {
    if (depth > maxDepth) throw new JsonLimit("deep");
    if (v === null) {
      spend(4);
      return null;
    }
    switch (typeof v) {
      case "string":
        spend(v.length + 2);
        return cleanText(v);
      case "number":
        spend(8);
        return Number.isFinite(v) ? v : null;
      case "boolean":
        spend(5);
        return v;
      case "object": {
        spend(2);
        if (Array.isArray(v)) {
          const items: JsonValue[] = [];
          for (const item of v) items.push(walk(item, depth + 1));
          return items;
        }
        const entries: [string, JsonValue][] = [];
        for (const key of Object.keys(v).sort()) {
          spend(key.length + 3);
          entries.push([cleanText(key), walk((v as Record<string, unknown>)[key], depth + 1)]);
        }
        // fromEntries defines own properties, so a "__proto__" key stays a plain key.
        return Object.fromEntries(entries);
      }
      default:
        throw new JsonLimit("type");
    }
  };
  return walk(value, 0);
}

/** Keys sorted at every level, for a stable export whatever order storage kept. */
function canonical(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(canonical);
  if (isRecord(value)) {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical(value[key] as JsonValue)]),
    );
  }
  return value;
}

// ---------------------------------------------------------------------------------------
// The Extended Profile inside a card (or a stored row): checked, never trusted.

const profileText = z.string().max(2_000).transform(cleanText);
const profileList = z.array(profileText).max(20);

const extendedProfileSchema = z.object({
  birthplace: profileText,
  currentResidence: profileText,
  occupation: profileText,
  education: profileText,
  languages: profileList,
  hobbies: profileList,
  favoriteFood: profileText,
  favoritePlaces: profileList,
  motto: profileText,
  dailyRoutine: profileText,
  socialCircle: z.object({ family: profileText, friends: profileText, colleagues: profileText }),
  goals: z.object({ short: profileText, long: profileText }),
  challengesOvercome: profileText,
  influences: profileList,
  secretSkills: profileList,
  // 0: not stated (a foreign card's profile states only what the card says).
  birthYear: z.union([z.literal(0), z.number().int().min(1000).max(9999)]),
});

/** An Extended Profile from a card or the `extended` column, in the interface's key order; null when invalid. */
export function parseExtendedProfile(value: unknown): ExtendedProfile | null {
  const result = extendedProfileSchema.safeParse(value);
  return result.success ? orderedProfile(result.data) : null;
}

function orderedProfile(p: ExtendedProfile): ExtendedProfile {
  return {
    birthplace: p.birthplace,
    currentResidence: p.currentResidence,
    occupation: p.occupation,
    education: p.education,
    languages: [...p.languages],
    hobbies: [...p.hobbies],
    favoriteFood: p.favoriteFood,
    favoritePlaces: [...p.favoritePlaces],
    motto: p.motto,
    dailyRoutine: p.dailyRoutine,
    socialCircle: {
      family: p.socialCircle.family,
      friends: p.socialCircle.friends,
      colleagues: p.socialCircle.colleagues,
    },
    goals: { short: p.goals.short, long: p.goals.long },
    challengesOvercome: p.challengesOvercome,
    influences: [...p.influences],
    secretSkills: [...p.secretSkills],
    birthYear: p.birthYear,
  };
}

// ---------------------------------------------------------------------------------------
// The voice inside a card (docs/product.md, Exports and character cards): first_mes is the
// greeting, alternate_greetings the alternate greetings, mes_example the example dialogue,
// scenario the scenario; speech style, catchphrases and appearance travel in our extension.

/** The card fields the voice's texts map to, and the limits they are read within. */
const VOICE_TEXT_FIELDS = {
  first_mes: "greeting",
  mes_example: "exampleDialogue",
  scenario: "scenario",
  system_prompt: "systemPrompt",
  post_history_instructions: "postHistoryInstructions",
} as const;
const VOICE_TEXT_LIMITS = {
  first_mes: VOICE_LIMITS.greetingMax,
  mes_example: VOICE_LIMITS.exampleDialogueMax,
  scenario: VOICE_LIMITS.scenarioMax,
  system_prompt: VOICE_LIMITS.systemPromptMax,
  post_history_instructions: VOICE_LIMITS.postHistoryInstructionsMax,
} as const;
const VOICE_TEXT_NAMES = {
  first_mes: "greeting",
  mes_example: "example dialogue",
  scenario: "scenario",
  system_prompt: "system prompt",
  post_history_instructions: "post-history instructions",
} as const;

/** A card's `extensions.depth_prompt` (SillyTavern's per-character author's note): its text, depth and role. */
function depthPromptOf(extensions: unknown): { prompt: string; depth: unknown; role: unknown; rest: Record<string, JsonValue> } | null {
  if (!isRecord(extensions) || !isRecord(extensions.depth_prompt)) return null;
  const { prompt, depth, role, ...rest } = extensions.depth_prompt as Record<string, JsonValue>;
  return typeof prompt === "string" ? { prompt, depth, role, rest } : null;
}

/** A depth as the voice keeps it: a whole number within 0–100 (a bigger one is 100); anything else the default. */
function depthFromCard(value: unknown): { depth: number; clamped: boolean } {
  if (typeof value !== "number" || !Number.isFinite(value)) return { depth: AUTHORS_NOTE_DEFAULT_DEPTH, clamped: false };
  const depth = Math.min(VOICE_LIMITS.authorsNoteDepthMax, Math.max(0, Math.round(value)));
  return { depth, clamped: depth !== value };
}

/**
 * The author's note a card gives (its `extensions.depth_prompt`), read like the voice's other
 * texts; null when it has none.
 */
function authorsNoteFromCard(extensions: unknown): { text: string | null; depth: number; notes: string[]; markup: boolean } | null {
  const found = depthPromptOf(extensions);
  if (!found) return null;
  const read = voiceTextFromCard(found.prompt, VOICE_LIMITS.authorsNoteMax);
  const { depth, clamped } = depthFromCard(found.depth);
  const notes = [
    ...(read.cut ? [`The author's note was cut to ${formatNumber(VOICE_LIMITS.authorsNoteMax)} characters.`] : []),
    ...(clamped ? [`The author's note's depth became ${depth}: the voice keeps a whole number from 0 to 100.`] : []),
  ];
  return { text: read.text, depth, notes, markup: read.markup };
}

/**
 * A stored voice with the guidance its card carried: a persona imported before the voice held
 * guidance (the stored voice has no 'systemPrompt') reads its system prompt, post-history
 * instructions and author's note from the card data kept with it, so the voice page shows them,
 * chat uses them and an export writes them as they came.
 */
export function withCardGuidance(voice: PersonaVoice, storedVoice: unknown, meta: CardMeta | null): PersonaVoice {
  if (!meta || (isRecord(storedVoice) && Object.hasOwn(storedVoice, "systemPrompt"))) return voice;
  const read = (key: "system_prompt" | "post_history_instructions") => {
    const raw = meta[key];
    return typeof raw === "string" ? voiceTextFromCard(raw, VOICE_TEXT_LIMITS[key]).text : null;
  };
  const note = authorsNoteFromCard(meta.extensions);
  return checkedVoice({
    ...voice,
    systemPrompt: read("system_prompt"),
    postHistoryInstructions: read("post_history_instructions"),
    authorsNote: note?.text ?? null,
    authorsNoteDepth: note?.depth ?? AUTHORS_NOTE_DEFAULT_DEPTH,
  });
}

// Elements of HTML, so that roleplay markers such as <START>, <grins> or <3 stay text.
const HTML_ELEMENTS =
  "a|abbr|article|aside|audio|b|big|blockquote|body|br|button|center|cite|code|col|colgroup|dd|del|details|dfn|div|dl|dt|em|" +
  "embed|figcaption|figure|font|footer|form|h[1-6]|head|header|hr|html|i|iframe|img|input|ins|kbd|label|li|link|main|mark|meta|" +
  "nav|object|ol|option|p|path|picture|pre|q|rp|rt|ruby|s|samp|section|select|small|source|span|strike|strong|sub|summary|" +
  "sup|svg|table|tbody|td|textarea|tfoot|th|thead|tr|tt|u|ul|var|video|wbr";
const HTML_TAG = new RegExp(`</?(?:${HTML_ELEMENTS})(?:\\s[^<>]*)?/?>`, "gi");
const HTML_BREAK = /<br\s*\/?>|<\/(?:p|div|h[1-6]|li|tr|blockquote|pre|section|article|header|footer|table|ul|ol|dl|dt|dd)\s*>/gi;
const HTML_DROPPED = /<(script|style|template|noscript|title)\b[^>]*>[\s\S]*?<\/\1\s*>|<!--[\s\S]*?-->/gi;
const HTML_ENTITY = /&(amp|lt|gt|quot|apos|nbsp);|&#(\d{1,7});|&#x([0-9a-f]{1,6});/gi;
const NAMED_ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };
// The voice's rule: tabs and line breaks are text, other control characters and bidirectional overrides are not.
const VOICE_CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\u202A-\u202E\u2066-\u2069]/gu;

function decodeEntity(match: string, name?: string, decimal?: string, hex?: string): string {
  if (name) return NAMED_ENTITIES[name.toLowerCase()] ?? match;
  const code = decimal ? Number(decimal) : parseInt(hex!, 16);
  return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : "";
}

export interface CardVoiceText {
  /** The text as the voice keeps it; null when nothing is left. */
  text: string | null;
  /** Whether it was cut at the limit. */
  cut: boolean;
  /** Whether HTML markup was removed. */
  markup: boolean;
}

/**
 * A card's text as a voice field: plain text (HTML elements removed, scripts and styles with
 * their content; <br> and block ends become line breaks; entities decoded), line breaks kept,
 * other control characters dropped, and cut at `max` characters (code points) with '…'.
 */
export function voiceTextFromCard(raw: string, max: number): CardVoiceText {
  const source = cleanText(raw);
  const stripped = source.replace(HTML_DROPPED, "").replace(HTML_BREAK, "\n").replace(HTML_TAG, "");
  const markup = stripped !== source;
  const text = stripped
    .replace(HTML_ENTITY, decodeEntity)
    .replace(/\r\n?|\u2028|\u2029/g, "\n")
    .replace(VOICE_CONTROL, "")
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  if (text === "") return { text: null, cut: false, markup };
  const points = [...text];
  if (points.length <= max) return { text, cut: false, markup };
  return {
    text: `${points
      .slice(0, max - 1)
      .join("")
      .trimEnd()}…`,
    cut: true,
    markup,
  };
}

/** A card's alternate greetings as the voice keeps them: one line each, at most VOICE_LIMITS.alternateGreetingsMax. */
function voiceGreetingsFromCard(list: readonly string[]): { items: string[]; dropped: number; cut: boolean; markup: boolean } {
  const read = list.map((item) => voiceTextFromCard(item.replace(/\s*\n\s*/g, " "), VOICE_LIMITS.greetingMax));
  const items = read.map((r) => r.text).filter((text): text is string => text !== null);
  return {
    items: items.slice(0, VOICE_LIMITS.alternateGreetingsMax),
    dropped: Math.max(0, items.length - VOICE_LIMITS.alternateGreetingsMax),
    cut: read.some((r, i) => r.cut && i < VOICE_LIMITS.alternateGreetingsMax),
    markup: read.some((r) => r.markup),
  };
}

/** A voice as the voice page would store it; fields that still fail its checks are left empty. */
function checkedVoice(voice: PersonaVoice): PersonaVoice {
  return parseVoice(voice);
}

/** A stored voice, checked (exports never trust a row). */
function parseVoiceShape(value: unknown): PersonaVoice {
  const result = voiceSchema.safeParse(value);
  return result.success ? result.data : EMPTY_VOICE;
}

/**
 * The voice a card gives, with a note for each text that had to be changed to fit. `base` is
 * what our extension carried (EMPTY_VOICE for a foreign card); `derived` the texts a card of
 * ours would have with that voice: a card text that still equals them leaves the base as it is,
 * one edited in another front end wins.
 */
function voiceFromCard(data: CardData, base: PersonaVoice, derived: DerivedTexts | null): { voice: PersonaVoice; notes: string[] } {
  const voice: PersonaVoice = { ...base, alternateGreetings: [...base.alternateGreetings], catchphrases: [...base.catchphrases] };
  const notes: string[] = [];
  const markup: string[] = [];
  for (const key of ["first_mes", "mes_example", "scenario", "system_prompt", "post_history_instructions"] as const) {
    const raw = data[key];
    if (raw === null || raw === undefined || (derived && cleanText(raw) === derived[key])) continue;
    const read = voiceTextFromCard(raw, VOICE_TEXT_LIMITS[key]);
    voice[VOICE_TEXT_FIELDS[key]] = read.text;
    const name = VOICE_TEXT_NAMES[key];
    if (read.cut) notes.push(`The ${name} was cut to ${formatNumber(VOICE_TEXT_LIMITS[key])} characters.`);
    if (read.markup) markup.push(name);
  }
  const list = data.alternate_greetings;
  if (list && !(derived && sameList(list.map(cleanText), derived.alternate_greetings))) {
    const read = voiceGreetingsFromCard(list);
    voice.alternateGreetings = read.items;
    if (read.dropped > 0) {
      notes.push(
        `The voice keeps the first ${VOICE_LIMITS.alternateGreetingsMax} of the card's ${read.items.length + read.dropped} alternate greetings.`,
      );
    }
    if (read.cut) notes.push(`An alternate greeting was cut to ${formatNumber(VOICE_LIMITS.greetingMax)} characters.`);
    if (read.markup) markup.push("alternate greetings");
  }
  // The author's note: a card of ours that still says what its voice says leaves the voice as it is.
  const note = authorsNoteFromCard(data.extensions);
  if (note && !(derived && note.text === base.authorsNote && note.depth === base.authorsNoteDepth)) {
    voice.authorsNote = note.text;
    voice.authorsNoteDepth = note.depth;
    notes.push(...note.notes);
    if (note.markup) markup.push("author's note");
  } else if (!note && derived && base.authorsNote !== null) {
    // A card of ours whose note was removed in another front end.
    voice.authorsNote = null;
  }
  if (markup.length > 0) notes.push(`HTML markup was removed from the ${listWords(markup)}: the voice keeps plain text.`);
  return { voice: checkedVoice(voice), notes };
}

// ---------------------------------------------------------------------------------------
// A foreign card's facts: the Extended Profile states what the card says, and nothing else.

const PROFILE_TEXT_MAX = 300;
const PROFILE_LIST_ITEMS = 8;
const PROFILE_ITEM_MAX = 100;

type ProfileTarget =
  | "birthplace"
  | "currentResidence"
  | "occupation"
  | "education"
  | "languages"
  | "hobbies"
  | "favoriteFood"
  | "favoritePlaces"
  | "motto"
  | "family"
  | "friends"
  | "colleagues"
  | "shortGoal"
  | "longGoal"
  | "birthYear";

// 'Label: value' lines a card's texts often hold (and our own card's description has).
const PROFILE_LINES: readonly [ProfileTarget, RegExp][] = [
  ["birthplace", /^(?:birthplace|place of birth|born in|hometown|home town|origin)$/],
  ["currentResidence", /^(?:current residence|residence|lives in|location|lives)$/],
  ["occupation", /^(?:occupation|job|profession|career|works as)$/],
  ["education", /^(?:education|school|studies)$/],
  ["languages", /^(?:languages?|speaks)$/],
  ["hobbies", /^(?:hobbies|hobby|pastimes)$/],
  ["favoriteFood", /^(?:favou?rite food)$/],
  ["favoritePlaces", /^(?:favou?rite places?)$/],
  ["motto", /^(?:motto)$/],
  ["family", /^(?:family)$/],
  ["friends", /^(?:friends)$/],
  ["colleagues", /^(?:colleagues|co-?workers)$/],
  ["shortGoal", /^(?:short[- ]term goals?)$/],
  ["longGoal", /^(?:goals?|long[- ]term goals?|dreams?)$/],
  ["birthYear", /^(?:birth year|year of birth|born)$/],
];

const LIST_TARGETS = new Set<ProfileTarget>(["languages", "hobbies", "favoritePlaces"]);

/** An Extended Profile with nothing stated (birth year 0: not stated). */
export function emptyProfile(): ExtendedProfile {
  return {
    birthplace: "",
    currentResidence: "",
    occupation: "",
    education: "",
    languages: [],
    hobbies: [],
    favoriteFood: "",
    favoritePlaces: [],
    motto: "",
    dailyRoutine: "",
    socialCircle: { family: "", friends: "", colleagues: "" },
    goals: { short: "", long: "" },
    challengesOvercome: "",
    influences: [],
    secretSkills: [],
    birthYear: 0,
  };
}

/**
 * The facts a foreign card states, as an Extended Profile: 'Occupation: …', 'Lives in: …',
 * 'Languages: …' and similar lines of its texts (the first of each wins, within the profile
 * editor's limits). Nothing else is stated: empty fields read 'Not stated'.
 */
export function profileFromCardTexts(texts: readonly string[]): ExtendedProfile {
  const found = new Map<ProfileTarget, string>();
  for (const line of texts.join("\n").split(/\r?\n/)) {
    const match = /^\s*(?:[-*•]\s*)?([A-Za-z][A-Za-z -]{1,30}?)\s*[:=]\s*(.+?)\s*$/.exec(line);
    if (!match) continue;
    const label = match[1]!.trim().toLowerCase().replace(/\s+/g, " ");
    const target = PROFILE_LINES.find(([, pattern]) => pattern.test(label))?.[0];
    if (target && !found.has(target)) found.set(target, match[2]!.replace(VOICE_CONTROL, "").replace(/\s+/g, " ").trim());
  }
  const text = (target: ProfileTarget) => {
    const value = found.get(target) ?? "";
    return [...value].length > PROFILE_TEXT_MAX
      ? `${[...value]
          .slice(0, PROFILE_TEXT_MAX - 1)
          .join("")
          .trimEnd()}…`
      : value;
  };
  const list = (target: ProfileTarget) =>
    (found.get(target) ?? "")
      .split(/\s*(?:,|;|\/|\band\b)\s*/)
      .map((item) => item.trim())
      .filter((item) => item !== "" && [...item].length <= PROFILE_ITEM_MAX)
      .slice(0, PROFILE_LIST_ITEMS);
  const year = /\b(1[0-9]{3}|[2-9][0-9]{3})\b/.exec(found.get("birthYear") ?? "");
  const profile = emptyProfile();
  for (const target of found.keys()) {
    if (LIST_TARGETS.has(target)) (profile as unknown as Record<string, unknown>)[target] = list(target);
  }
  return {
    ...profile,
    birthplace: text("birthplace"),
    currentResidence: text("currentResidence"),
    occupation: text("occupation"),
    education: text("education"),
    favoriteFood: text("favoriteFood"),
    motto: text("motto"),
    socialCircle: { family: text("family"), friends: text("friends"), colleagues: text("colleagues") },
    goals: { short: text("shortGoal"), long: text("longGoal") },
    birthYear: year ? Number(year[1]) : 0,
  };
}

// ---------------------------------------------------------------------------------------
// Export.

/** The persona fields the card's texts are made from. */
type CardSource = Pick<ExportPersona, "name" | "type" | "gender" | "ageRange" | "interests" | "personality" | "description" | "backstory">;

/**
 * Changes to these fields, and only these, count as editing an imported persona: the basic
 * fields, and the voice's appearance, speech style and catchphrases (they are part of the
 * card's description and personality) once any of them is set.
 */
function personaFingerprint(p: CardSource, voice: PersonaVoice | null): string {
  const fields: unknown[] = [
    p.name.trim(),
    p.type || null,
    p.gender || null,
    p.ageRange || null,
    p.interests,
    p.personality,
    (p.description ?? "").trim(),
    (p.backstory ?? "").trim(),
  ];
  if (voice && (voice.appearance || voice.speechStyle || voice.catchphrases.length > 0)) {
    fields.push([voice.appearance, voice.speechStyle, voice.catchphrases]);
  }
  return fingerprint(fields);
}

function fingerprint(fields: unknown): string {
  const text = JSON.stringify(fields);
  const hex = (n: number) => n.toString(16).padStart(8, "0");
  return hex(hashString(`a\u0000${text}`)) + hex(hashString(`b\u0000${text}`));
}

/**
 * The fields each card text is made from (CardMeta.fields): the description from the persona's
 * description, backstory and appearance; the personality from its traits, speech style and
 * catchphrases; the tags from its type and interests.
 */
function textFingerprints(p: CardSource, voice: PersonaVoice | null): CardTextFingerprints {
  return {
    description: fingerprint([(p.description ?? "").trim(), (p.backstory ?? "").trim(), voice?.appearance ?? null]),
    personality: fingerprint([p.personality, voice?.speechStyle ?? null, voice?.catchphrases ?? []]),
    tags: fingerprint([p.type || null, p.interests]),
  };
}

/**
 * The kept card data once the import's finishing step has set the type, gender, age range and
 * interests: that step is no edit of the card (docs/cards.md, Round trips), so the fingerprints
 * are taken again and the card's texts, tags, version and dates still go out as they came.
 */
export function cardMetaAfterFinishing(meta: CardMeta, persona: CardSource, voice: unknown): CardMeta {
  const checked = voice ? parseVoiceShape(voice) : EMPTY_VOICE;
  return { ...meta, importedAs: personaFingerprint(persona, checked), fields: textFingerprints(persona, checked) };
}

interface DerivedTexts {
  description: string;
  personality: string;
  scenario: string;
  first_mes: string;
  mes_example: string;
  creator_notes: string;
  system_prompt: string;
  post_history_instructions: string;
  alternate_greetings: string[];
  tags: string[];
}

/**
 * The card texts made from the persona alone; extended is null when it is not known. The voice
 * (docs/product.md, Exports and character cards) gives first_mes, alternate_greetings,
 * mes_example and scenario when set, adds the appearance to the description and the speech
 * style and catchphrases to the personality.
 */
function deriveTexts(p: CardSource, extended: ExtendedProfile | null, voice: PersonaVoice | null = null): DerivedTexts {
  const typeLabel = p.type && Object.hasOwn(PERSONA_TYPE_LABELS, p.type) ? PERSONA_TYPE_LABELS[p.type as PersonaType] : null;
  const genderLabel = p.gender && Object.hasOwn(GENDER_LABELS, p.gender) ? GENDER_LABELS[p.gender as Gender] : null;
  const interests = p.interests.filter(isInterest).map((interest) => INTEREST_LABELS[interest]);
  const traits = p.personality.filter((trait) => !blank(trait));
  const short = (p.description ?? "").trim();
  const backstory = (p.backstory ?? "").trim();
  const who = typeLabel ? `${article(typeLabel)} ${typeLabel}` : null;
  const topics = listWords(interests.map((i) => i.toLowerCase()));

  const facts = [
    `Name: ${p.name}`,
    typeLabel && `Type: ${typeLabel}`,
    genderLabel && `Gender: ${genderLabel}`,
    !blank(p.ageRange) && `Age: ${p.ageRange}`,
    interests.length > 0 && `Interests: ${interests.join(", ")}`,
    // A fact the sheet leaves empty is not stated.
    !blank(extended?.occupation) && `Occupation: ${extended!.occupation}`,
    !blank(extended?.currentResidence) && `Lives in: ${extended!.currentResidence}`,
    !blank(extended?.birthplace) && `Born in: ${extended!.birthplace}`,
    extended && extended.languages.length > 0 && `Languages: ${extended.languages.join(", ")}`,
    extended && extended.hobbies.length > 0 && `Hobbies: ${extended.hobbies.join(", ")}`,
    !blank(extended?.motto) && `Motto: ${extended!.motto}`,
  ].filter((line): line is string => typeof line === "string");
  const appearance = voice?.appearance;
  const speech = [
    voice?.speechStyle && `Speech style: ${voice.speechStyle}`,
    voice && voice.catchphrases.length > 0 && `Catchphrases: ${voice.catchphrases.map((c) => `"${c}"`).join(", ")}`,
  ].filter((line): line is string => typeof line === "string");

  return {
    description: [short, facts.join("\n"), appearance && `Appearance:\n${appearance}`, backstory && `Backstory:\n${backstory}`]
      .filter(Boolean)
      .join("\n\n"),
    personality: [traits.join(", "), ...speech].filter(Boolean).join("\n\n"),
    scenario: voice?.scenario ?? `{{char}} is ${who ? `${who} ` : ""}chatting with {{user}}${topics ? ` about ${topics}` : ""}.`,
    first_mes: voice?.greeting ?? chatGreeting(p.name),
    alternate_greetings: voice ? [...voice.alternateGreetings] : [],
    mes_example:
      voice?.exampleDialogue ??
      [
        "<START>",
        "{{user}}: Tell me a little about yourself.",
        `{{char}}: I'm {{char}}${who ? `, ${who}` : ""}.` +
          (topics ? ` I love talking about ${topics}.` : "") +
          (traits.length ? ` People say I'm ${listWords(traits.slice(0, 3).map((t) => t.toLowerCase()))}.` : ""),
      ].join("\n"),
    creator_notes: `${short ? `${short}\n\n` : ""}Created with ${PRODUCT_NAME}.`,
    system_prompt:
      voice?.systemPrompt ??
      `You are {{char}}${who ? `, ${who}` : ""}. ` +
        (traits.length ? `Your personality is ${listWords(traits.map((t) => t.toLowerCase()))}. ` : "") +
        "Stay in character, speak in the first person and keep your replies conversational.",
    post_history_instructions: voice?.postHistoryInstructions ?? "",
    tags: [...(typeLabel ? [typeLabel] : []), ...interests],
  };
}

function personaExtension(
  p: ExportPersona,
  extended: ExtendedProfile,
  voice: PersonaVoice | null,
  aiGenerated: AiGeneratedRecord | null,
): PersonaCardExtension {
  return {
    version: CARD_EXTENSION_VERSION,
    type: p.type || null,
    gender: p.gender || null,
    ageRange: p.ageRange || null,
    interests: [...p.interests],
    personality: [...p.personality],
    description: (p.description ?? "").trim(),
    backstory: (p.backstory ?? "").trim(),
    imageStyle: p.imageStyle,
    status: p.status,
    extended: orderedProfile(extended),
    voice: orderedVoice(voice ?? EMPTY_VOICE),
    ...(p.probes?.length ? { probes: p.probes.map(orderedProbe) } : {}),
    ...(aiGenerated ? { ai_generated: aiGenerated } : {}),
  };
}

function orderedProbe(probe: ProbeInput): ProbeInput {
  return {
    name: probe.name,
    turns: [...probe.turns],
    mustMention: [...probe.mustMention],
    mustNotMention: [...probe.mustNotMention],
    mustMatch: probe.mustMatch,
    mustNotMatch: probe.mustNotMatch,
    maxLength: probe.maxLength,
    inCharacter: probe.inCharacter,
    statesFact: probe.statesFact,
    rubric: probe.rubric,
    enabled: probe.enabled,
    factExpected: probe.factExpected,
  };
}

function orderedVoice(v: PersonaVoice): PersonaVoice {
  return {
    greeting: v.greeting,
    alternateGreetings: [...v.alternateGreetings],
    exampleDialogue: v.exampleDialogue,
    speechStyle: v.speechStyle,
    catchphrases: [...v.catchphrases],
    appearance: v.appearance,
    scenario: v.scenario,
    systemPrompt: v.systemPrompt,
    postHistoryInstructions: v.postHistoryInstructions,
    authorsNote: v.authorsNote,
    authorsNoteDepth: v.authorsNoteDepth,
  };
}

export interface CardOptions {
  /** The card's creator, e.g. the user's name; a card imported with a creator keeps it. */
  creator?: string;
  /**
   * The persona's version (persona history): the card's character_version is its number and
   * modification_date its time (an imported card not edited since keeps its own date). Without
   * it, the card's own version and date are kept.
   */
  version?: { number: number; at: Date | string };
}

/** Ours first, then the card's other tags, without repeats (ignoring case). */
function mergeTags(ours: readonly string[], theirs: readonly string[]): string[] {
  const seen = new Set<string>();
  return [...ours, ...theirs].filter((tag) => {
    const key = tag.trim().toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function cardData(persona: ExportPersona, extended: ExtendedProfile, options: CardOptions): CharacterCardV3Data {
  const meta = persona.cardMeta;
  const voice = withCardGuidance(persona.voice ? parseVoiceShape(persona.voice) : EMPTY_VOICE, persona.voice, meta);
  // A card imported before voices: its own texts stand in for a voice field left empty.
  const legacy = meta !== null && !meta.voiced;
  const derived = deriveTexts(persona, extended, voice);
  // The card as imported, while the persona is unedited (see the header).
  const unedited = meta !== null && meta.importedAs === personaFingerprint(persona, voice) ? meta : null;
  const kept = <T>(value: T | undefined, fallback: T): T => (value !== undefined ? value : fallback);
  // Each text the persona models is the card's own while the fields it is made from are unedited
  // (a card imported before field fingerprints: while the whole persona is); one it does not model always is.
  const now = meta?.fields ? textFingerprints(persona, voice) : null;
  const own = (key: keyof CardTextFingerprints): CardMeta | null =>
    meta?.fields && now ? (meta.fields[key] === now[key] ? meta : null) : unedited;
  const modelled = (key: "description" | "personality" | "scenario") =>
    kept((key === "scenario" ? unedited : own(key))?.[key], derived[key]);
  // A text the voice models is the voice's; the card's own text only while the voice still holds
  // what reading it gave (so a greeting cut or cleaned to fit the voice goes out whole until the
  // creator changes it). A persona stored before voices keeps the card's texts.
  const voiced = (key: keyof typeof VOICE_TEXT_FIELDS, before: string): string => {
    const own = meta?.[key];
    const value = voice[VOICE_TEXT_FIELDS[key]];
    if (legacy && key !== "system_prompt" && key !== "post_history_instructions") return value !== null ? derived[key] : before;
    return own !== undefined && voiceTextFromCard(own, VOICE_TEXT_LIMITS[key]).text === value ? own : derived[key];
  };
  const greetings = (): string[] => {
    const own = meta?.alternate_greetings;
    if (legacy) return voice.alternateGreetings.length > 0 ? derived.alternate_greetings : kept(own, []);
    return own !== undefined && sameList(voiceGreetingsFromCard(own).items, voice.alternateGreetings) ? own : derived.alternate_greetings;
  };
  const ownTags = own("tags");
  const tags = ownTags ? kept(ownTags.tags, derived.tags) : mergeTags(derived.tags, meta?.tags ?? []);
  // The lorebook; a persona imported before lorebooks were read keeps the book its card carried.
  const characterBook = cardBookFromLorebook(parseLorebook(persona.lore), meta?.character_book as LoreJson | undefined);
  // What AI made (docs/product.md, AI disclosure): what the card said, then what was generated here.
  const aiParts = mergeAiParts(meta?.aiGenerated, persona.aiGenerated);
  // The author's note is SillyTavern's depth_prompt: the card's own (its role and other keys too)
  // while the voice still says what reading it gave; the voice's otherwise; none when the voice has none.
  const { depth_prompt: ownDepthPrompt, ...otherExtensions } = meta?.extensions ?? {};
  const ownNote = depthPromptOf(meta?.extensions);
  const ownNoteRead = ownNote ? voiceTextFromCard(ownNote.prompt, VOICE_LIMITS.authorsNoteMax).text : null;
  const depthPrompt: JsonValue | undefined =
    voice.authorsNote === null
      ? // No note: the card's own depth_prompt goes out as it came when it had none that reads (an empty one); a cleared one goes.
        ownDepthPrompt !== undefined && ownNoteRead === null
        ? ownDepthPrompt
        : undefined
      : ownNote && ownNoteRead === voice.authorsNote && depthFromCard(ownNote.depth).depth === voice.authorsNoteDepth
        ? ownDepthPrompt
        : {
            ...(ownNote?.rest ?? {}),
            prompt: voice.authorsNote,
            depth: voice.authorsNoteDepth,
            role: typeof ownNote?.role === "string" ? ownNote.role : "system",
          };
  const extensions = canonical({
    ...otherExtensions,
    ...(depthPrompt !== undefined ? { depth_prompt: depthPrompt } : {}),
    [CARD_EXTENSION_KEY]: personaExtension(persona, extended, voice, aiRecord(aiParts)) as unknown as JsonValue,
  }) as Record<string, JsonValue>;

  return {
    name: persona.name,
    description: modelled("description"),
    personality: modelled("personality"),
    scenario: voiced("scenario", modelled("scenario")),
    first_mes: voiced("first_mes", kept(meta?.first_mes, derived.first_mes)),
    mes_example: voiced("mes_example", kept(meta?.mes_example, derived.mes_example)),
    creator_notes: withAiNotice(kept(meta?.creator_notes, derived.creator_notes), aiParts),
    system_prompt: voiced("system_prompt", kept(meta?.system_prompt, derived.system_prompt)),
    post_history_instructions: voiced(
      "post_history_instructions",
      kept(meta?.post_history_instructions, derived.post_history_instructions),
    ),
    alternate_greetings: [...greetings()],
    ...(characterBook !== undefined ? { character_book: canonical(characterBook) } : {}),
    tags: [...tags],
    creator: kept(meta?.creator, options.creator ?? ""),
    // The card's own version while unedited; then the persona's version number.
    character_version:
      unedited?.character_version !== undefined
        ? unedited.character_version
        : options.version
          ? String(options.version.number)
          : kept(meta?.character_version, CARD_CHARACTER_VERSION),
    extensions,
    group_only_greetings: [...kept(meta?.group_only_greetings, [])],
    creation_date: kept(meta?.creation_date, unixSeconds(persona.createdAt)),
    // An imported card left unedited keeps its own date (so export → import → export holds).
    modification_date: kept(unedited?.modification_date, unixSeconds(options.version?.at ?? persona.updatedAt)),
    ...(meta?.assets !== undefined ? { assets: meta.assets.map((a) => ({ type: a.type, uri: a.uri, name: a.name, ext: a.ext })) } : {}),
    ...(meta?.nickname !== undefined ? { nickname: meta.nickname } : {}),
    ...(meta?.creator_notes_multilingual !== undefined
      ? { creator_notes_multilingual: canonical(meta.creator_notes_multilingual) as Record<string, string> }
      : {}),
    ...(meta?.source !== undefined ? { source: [...meta.source] } : {}),
  };
}

/** The persona as a Character Card V3 (what the `ccv3` PNG chunk and a .json card hold). */
export function toCardV3(persona: ExportPersona, extended: ExtendedProfile, options: CardOptions = {}): CharacterCardV3 {
  // Fields of the card that no spec names go back where they came, under the ones we write.
  return {
    spec: "chara_card_v3",
    spec_version: "3.0",
    data: { ...(persona.cardMeta?.unknownFields ?? {}), ...cardData(persona, extended, options) },
  };
}

/** The persona as a Character Card V2 (the `chara` PNG chunk, for front ends that read only V2). */
export function toCardV2(persona: ExportPersona, extended: ExtendedProfile, options: CardOptions = {}): CharacterCardV2 {
  const d = cardData(persona, extended, options);
  return {
    spec: "chara_card_v2",
    spec_version: "2.0",
    data: {
      ...(persona.cardMeta?.unknownFields ?? {}),
      name: d.name,
      description: d.description,
      personality: d.personality,
      scenario: d.scenario,
      first_mes: d.first_mes,
      mes_example: d.mes_example,
      creator_notes: d.creator_notes,
      system_prompt: d.system_prompt,
      post_history_instructions: d.post_history_instructions,
      alternate_greetings: d.alternate_greetings,
      ...(d.character_book !== undefined ? { character_book: d.character_book } : {}),
      tags: d.tags,
      creator: d.creator,
      character_version: d.character_version,
      extensions: d.extensions,
    },
  };
}

/** A card as a file: pretty JSON with a final newline. Also what goes into the PNG chunks. */
export function cardJson(card: CharacterCardV2 | CharacterCardV3): string {
  return `${JSON.stringify(card, null, 2)}\n`;
}

// ---------------------------------------------------------------------------------------
// Import.

const formatNumber = (n: number) => n.toLocaleString("en-US");
const formatBytes = (n: number) => (n % (1024 * 1024) === 0 ? `${n / 1024 / 1024} MB` : `${n / 1024} KB`);
const MUST_BE_TEXT = "must be text";

const cardText = (max: number = CARD_LIMITS.textMax) =>
  z.string({ error: MUST_BE_TEXT }).max(max, { error: `is too long (over ${formatNumber(max)} characters)` });

const cardTextList = (itemMax: number = CARD_LIMITS.textMax) =>
  z
    .array(cardText(itemMax), { error: "must be a list of text" })
    .max(CARD_LIMITS.listMax, { error: `has too many entries (over ${CARD_LIMITS.listMax})` });

// Foreign objects are checked, not rebuilt: a rebuilt object would lose a "__proto__" key
// (assigning it sets the prototype instead). boundedJson copies them safely later.
const cardObject = z.custom<Record<string, unknown>>(isRecord, { error: "must be an object" });
const cardTextObject = z.custom<Record<string, string>>(
  (v) => isRecord(v) && Object.values(v).every((text) => typeof text === "string" && text.length <= CARD_LIMITS.textMax),
  { error: "must be an object of texts" },
);

/** A date: kept when it is a number of seconds, ignored otherwise (it is only informative). */
const cardDate = z
  .unknown()
  .transform((v) =>
    typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : typeof v === "string" && v.length <= 100 ? cleanText(v) : undefined,
  )
  .optional();

const cardAssets = z
  .array(
    z.object(
      { type: cardText(1_000), uri: z.string({ error: MUST_BE_TEXT }), name: cardText(1_000), ext: cardText(100) },
      { error: "must be an object with type, uri, name and ext" },
    ),
    { error: "must be a list" },
  )
  .max(CARD_LIMITS.listMax, { error: `has too many entries (over ${CARD_LIMITS.listMax})` });

/** The fields of a card's data we read. Absent and null are the same; unknown fields are ignored. */
const cardFields = {
  description: cardText().nullish(),
  personality: cardText().nullish(),
  scenario: cardText().nullish(),
  first_mes: cardText().nullish(),
  mes_example: cardText().nullish(),
  creator_notes: cardText().nullish(),
  system_prompt: cardText().nullish(),
  post_history_instructions: cardText().nullish(),
  // One greeting written as text instead of a list is read as a list of one (the card check says so).
  alternate_greetings: z.preprocess((v) => (typeof v === "string" ? (v.trim() ? [v] : []) : v), cardTextList().nullish()),
  group_only_greetings: z.preprocess((v) => (typeof v === "string" ? (v.trim() ? [v] : []) : v), cardTextList().nullish()),
  tags: cardTextList(CARD_LIMITS.tagMax).nullish(),
  creator: cardText(1_000).nullish(),
  character_version: cardText(1_000).nullish(),
  // Any shape: card-lorebook.ts reads what it can and names the rest (a string or a list breaks no import).
  character_book: z.unknown().optional(),
  assets: cardAssets.nullish(),
  nickname: cardText(1_000).nullish(),
  creator_notes_multilingual: cardTextObject.nullish(),
  source: cardTextList(10_000).nullish(),
  creation_date: cardDate,
  modification_date: cardDate,
  extensions: cardObject.nullish(),
};

const cardDataSchema = z.object({ name: cardText(), ...cardFields });

/** Every field the V2 and V3 specs name in a card's data (and, for a V1 card, at its top). */
const KNOWN_DATA_FIELDS = new Set(["name", ...Object.keys(cardFields), "spec", "spec_version", "data"]);
type CardData = z.infer<typeof cardDataSchema>;

const TEXT_FIELDS = [
  "description",
  "personality",
  "scenario",
  "first_mes",
  "mes_example",
  "creator_notes",
  "system_prompt",
  "post_history_instructions",
] as const;

export interface ImportedPersona {
  name: string;
  type: PersonaType | null;
  gender: Gender | null;
  ageRange: AgeRange | null;
  interests: Interest[];
  /** "" when the card has none. */
  description: string;
  personality: Trait[];
  backstory: string;
  imageStyle: ImageStyle;
}

export interface ParsedCard {
  /** 1 for an old flat card (name, description… at the top), else the card's spec version. */
  version: 1 | 2 | 3;
  /** The creation form's fields (docs/product.md, Personas) and the image style. */
  persona: ImportedPersona;
  /**
   * The card's Extended Profile: a card of ours carries one; a foreign card's states what the
   * card says and leaves the rest empty. Null (a card of ours without a valid one): derive it.
   */
  extended: ExtendedProfile | null;
  /** The persona's voice: from our extension, or the card's first_mes, alternate greetings, example dialogue and scenario. */
  voice: PersonaVoice;
  /** What had to change for the card's texts to fit the voice (cut at a limit, markup removed), and what of its lorebook could not be read; shown after the import. */
  notes: string[];
  /** The card's `character_book` as the persona's lorebook (docs/product.md, Lore); null when it carried none. */
  lore: LoreBook | null;
  /** The persona's tests a card of ours carried (docs/product.md, Persona tests), without ids; [] otherwise. */
  probes: ProbeInput[];
  /** To store as personas.card_meta. */
  cardMeta: CardMeta;
  /** Whether the persona passes 'Create Persona' validation (else it is a draft). */
  complete: boolean;
  /**
   * The status to store: what a card of ours was exported with, while that still holds (a
   * draft stays a draft, an archived persona stays archived; active and archived need a
   * complete persona); otherwise active when complete and in_progress when not.
   */
  status: PersonaStatus;
}

/** A refusal; `tooLarge` when the card is refused for its size (HTTP 413). */
export type ParseCardResult = { ok: true; card: ParsedCard } | { ok: false; message: string; tooLarge?: boolean };

export const CARD_MESSAGES = {
  notACard: "This file is not a character card (Character Card V2 or V3).",
  invalid: (detail: string) => `This file is not a valid character card: ${detail}.`,
  name: "This character card has no usable name: a persona's name needs at least 2 characters, without markup.",
  tooLarge: `This character card is too large: at most ${formatBytes(CARD_LIMITS.metaMaxBytes)} of its data can be kept.`,
  profileTooLarge: `This character card's Extended Persona Profile is too large: at most ${formatBytes(CARD_LIMITS.extendedMaxBytes)} can be kept.`,
  loreTooLarge: `This character card's lorebook is too large: at most ${formatBytes(CARD_LIMITS.loreMaxBytes)} of it can be kept.`,
} as const;

function issuePath(prefix: string, path: readonly PropertyKey[]): string {
  let text = prefix;
  for (const segment of path) {
    if (typeof segment === "number") text += `[${segment}]`;
    else text += text ? `.${String(segment)}` : String(segment);
  }
  return text || "card";
}

// Line breaks and bidirectional overrides do not belong in a name (as in persona-form.ts).
const NAME_CONTROL = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]/gu;

/** The card's name under our name rule, or null when nothing usable is left. */
export function cleanCardName(raw: string): string | null {
  const text = cleanText(raw)
    .replace(/<\/?[a-z][^<>]{0,200}>/gi, " ")
    .replace(/[<>]/g, "")
    .replace(NAME_CONTROL, " ")
    .replace(/\s+/gu, " ")
    .trim();
  const name = [...text].slice(0, PERSONA_LIMITS.nameMax).join("").trim();
  return nameLongEnough(name) ? name : null;
}

/** {{char}} and <BOT> become the name, {{user}} and <USER> 'the user', in text taken into the persona. */
function resolveMacros(text: string, name: string): string {
  return text.replace(/\{\{char\}\}|<bot>/gi, name).replace(/\{\{user\}\}|<user>/gi, "the user");
}

// Tags front ends use for our interests and genders (lower case).
const INTEREST_TAGS: Record<Interest, readonly string[]> = {
  gaming: ["gaming", "games", "gamer", "video games"],
  tech: ["tech", "technology", "programming", "computers"],
  fashion: ["fashion"],
  music: ["music", "musician", "singer"],
  art: ["art", "artist", "drawing", "painting"],
  fitness: ["fitness", "gym", "workout", "sports"],
  science: ["science", "scientist"],
  cooking: ["cooking", "chef", "baking", "food"],
  travel: ["travel", "traveler", "traveller"],
  education: ["education", "teacher", "tutor"],
  business: ["business", "entrepreneur", "finance"],
  entertainment: ["entertainment", "comedy", "movies"],
};
const GENDER_TAGS: Record<Gender, readonly string[]> = {
  male: ["male", "man"],
  female: ["female", "woman"],
  "non-binary": ["non-binary", "nonbinary", "enby"],
  other: [],
};

function interestsFromTags(tags: readonly string[]): Interest[] {
  const found = tags.flatMap((tag) => {
    const key = tag.trim().toLowerCase();
    return (Object.keys(INTEREST_TAGS) as Interest[]).filter((interest) => INTEREST_TAGS[interest].includes(key));
  });
  return distinct(found).slice(0, PERSONA_LIMITS.interestsMax);
}

function genderFromTags(tags: readonly string[]): Gender | null {
  const keys = tags.map((tag) => tag.trim().toLowerCase());
  const found = GENDERS.filter((gender) => GENDER_TAGS[gender].some((tag) => keys.includes(tag)));
  return found.length === 1 ? found[0]! : null;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const TRAIT_PATTERNS = (TRAITS as Trait[]).map((trait) => ({
  trait,
  pattern: new RegExp(`\\b${escapeRegExp(trait)}\\b`, "i"),
}));

/** Trait names in the text, in order of first appearance, at most 7. */
function traitsIn(text: string): Trait[] {
  return TRAIT_PATTERNS.map(({ trait, pattern }) => ({ trait, at: text.search(pattern) }))
    .filter(({ at }) => at >= 0)
    .sort((a, b) => a.at - b.at)
    .map(({ trait }) => trait)
    .slice(0, PERSONA_LIMITS.traitsMax);
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

/** Our fields back from data.extensions.personaforge; anything invalid is dropped. */
function fromOurExtension(name: string, ext: Record<string, unknown>) {
  const text = (value: unknown) => (typeof value === "string" ? cleanText(value).trim() : "");
  return {
    persona: {
      name,
      type: oneOf(PERSONA_TYPES, ext.type),
      gender: oneOf(GENDERS, ext.gender),
      ageRange: oneOf(AGE_RANGES, ext.ageRange),
      interests: distinct(stringList(ext.interests).filter(isInterest)).slice(0, PERSONA_LIMITS.interestsMax),
      description: truncateDescription(text(ext.description)),
      personality: distinct(stringList(ext.personality).filter(isTrait)).slice(0, PERSONA_LIMITS.traitsMax),
      backstory: cut(text(ext.backstory), PERSONA_LIMITS.backstoryMax),
      imageStyle: oneOf(IMAGE_STYLES, ext.imageStyle) ?? "photorealistic",
    } satisfies ImportedPersona,
    extended: parseExtendedProfile(ext.extended),
    voice: isRecord(ext.voice) ? checkedVoice({ ...EMPTY_VOICE, ...(ext.voice as Partial<PersonaVoice>) }) : EMPTY_VOICE,
    status: oneOf(PERSONA_STATUSES, ext.status),
    // The persona's tests: each probe checked as a form would be; one that cannot be read is dropped (and said).
    probes: Array.isArray(ext.probes) ? ext.probes.slice(0, PROBE_LIMITS.probes).map((raw) => parseProbe(raw, "")) : [],
    aiGenerated: parseAiParts(ext.ai_generated),
  };
}

/** What a foreign card gives: see the header. */
function fromForeignCard(name: string, data: CardData): ImportedPersona {
  const tags = data.tags ?? [];
  const own = (value: string | null | undefined) => resolveMacros(cleanText(value ?? ""), name).trim();
  const description = own(data.description);
  const personality = own(data.personality);
  // The personality text is kept whole (its trait names are also selected); the scenario is the voice's.
  const backstory = [description, personality && `Personality: ${personality}`].filter(Boolean).join("\n\n");
  return {
    name,
    type: null,
    gender: genderFromTags(tags),
    ageRange: null,
    interests: interestsFromTags(tags),
    description: truncateDescription(description.replace(/\s+/gu, " ").trim()),
    personality: traitsIn(`${tags.join(", ")}\n${personality}`),
    backstory: cut(backstory, PERSONA_LIMITS.backstoryMax),
    imageStyle: "photorealistic",
  };
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((v, i) => v === b[i]);

function buildMeta(
  data: CardData,
  persona: ImportedPersona,
  extended: ExtendedProfile | null,
  voice: PersonaVoice,
  ours: boolean,
  extensions: Record<string, JsonValue>,
  aiGenerated: ReturnType<typeof parseAiParts>,
): CardMeta {
  // Cards of ours keep only what differs from what the persona gives; the description also
  // depends on the Extended Profile, so without one it is always kept.
  const withVoice = deriveTexts(persona, extended, voice);
  const derived = ours ? withVoice : null;
  const meta: CardMeta = {
    version: CARD_META_VERSION,
    importedAs: personaFingerprint(persona, voice),
    fields: textFingerprints(persona, voice),
    voiced: true,
  };
  for (const key of TEXT_FIELDS) {
    const value = data[key];
    if (value === null || value === undefined) continue;
    // Our AI line is written again from the record on export, never kept as the card's own text.
    const text = key === "creator_notes" ? withoutAiNotice(cleanText(value)) : cleanText(value);
    // The voice's texts are kept only when the export would not give them back as they came
    // (cut or cleaned to fit the voice, or empty).
    if (Object.hasOwn(VOICE_TEXT_FIELDS, key) && text === withVoice[key as keyof typeof VOICE_TEXT_FIELDS]) continue;
    if (derived && text === derived[key] && (key !== "description" || extended)) continue;
    meta[key] = text;
  }
  const tags = data.tags?.map(cleanText);
  if (tags && !(derived && sameList(tags, derived.tags))) meta.tags = tags;
  const greetings = data.alternate_greetings?.map(cleanText);
  if (greetings && !sameList(greetings, withVoice.alternate_greetings)) meta.alternate_greetings = greetings;
  // Export writes the greetings always ([] by default), so an empty list of ours is not kept.
  const groupGreetings = data.group_only_greetings?.map(cleanText);
  if (groupGreetings && (groupGreetings.length > 0 || !derived)) meta.group_only_greetings = groupGreetings;
  if (data.source) meta.source = data.source.map(cleanText);
  if (data.creator !== null && data.creator !== undefined) meta.creator = cleanText(data.creator);
  if (data.character_version !== null && data.character_version !== undefined) {
    const version = cleanText(data.character_version);
    // A card of ours carries the version number of the persona it came from: the imported
    // persona starts its own history at 1, so the number is not kept.
    if (!derived || (version !== CARD_CHARACTER_VERSION && !/^[0-9]+$/.test(version))) meta.character_version = version;
  }
  if (data.nickname !== null && data.nickname !== undefined) meta.nickname = cleanText(data.nickname);
  if (data.creator_notes_multilingual) {
    meta.creator_notes_multilingual = boundedJson(data.creator_notes_multilingual) as Record<string, string>;
  }
  // The card's character_book becomes the persona's lorebook (card-lorebook.ts), not card data.
  if (data.assets) meta.assets = boundedJson(data.assets) as unknown as CardAsset[];
  if (data.creation_date !== undefined) meta.creation_date = data.creation_date;
  if (data.modification_date !== undefined) meta.modification_date = data.modification_date;
  if (Object.keys(extensions).length > 0) meta.extensions = extensions;
  // What the card said AI made: its record, or for a card that lost it on the way, our line in its notes.
  const parts = aiGenerated.length ? aiGenerated : aiPartsFromNotice(cleanText(data.creator_notes ?? ""));
  if (parts.length) meta.aiGenerated = parts;
  return meta;
}

function detect(input: unknown): { version: 1 | 2 | 3; data: unknown; prefix: string } | null {
  if (!isRecord(input)) return null;
  if (input.spec === "chara_card_v3") return { version: 3, data: input.data, prefix: "data" };
  if (input.spec === "chara_card_v2") return { version: 2, data: input.data, prefix: "data" };
  // Old flat cards: no spec, the fields at the top.
  const flat =
    input.spec === undefined &&
    typeof input.name === "string" &&
    ["description", "personality", "first_mes", "scenario", "mes_example"].some((key) => typeof input[key] === "string");
  return flat ? { version: 1, data: input, prefix: "" } : null;
}

/** A card (parsed JSON from a .json file or a PNG's chunk) as a persona to create. */
export function parseCard(input: unknown): ParseCardResult {
  const found = detect(input);
  if (!found) return { ok: false, message: CARD_MESSAGES.notACard };
  if (!isRecord(found.data)) return { ok: false, message: CARD_MESSAGES.invalid(`${found.prefix} must be an object`) };

  const result = cardDataSchema.safeParse(found.data);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    return { ok: false, message: CARD_MESSAGES.invalid(`${issuePath(found.prefix, issue.path)} ${issue.message}`) };
  }
  const data = result.data;

  const name = cleanCardName(data.name);
  if (!name) return { ok: false, message: CARD_MESSAGES.name };

  let extensions: Record<string, JsonValue>;
  try {
    extensions = boundedJson(data.extensions ?? {}) as Record<string, JsonValue>;
    for (const key of ["character_book", "assets", "creator_notes_multilingual"] as const) boundedJson(data[key] ?? null);
  } catch (error) {
    if (!(error instanceof JsonLimit)) throw error;
    const where = issuePath(found.prefix, ["extensions"]);
    return {
      ok: false,
      message: CARD_MESSAGES.invalid(
        error.problem === "deep"
          ? `${where}, character_book or assets is nested too deeply`
          : `${where}, character_book or assets is too large`,
      ),
      tooLarge: error.problem === "large",
    };
  }

  const ourExtension = extensions[CARD_EXTENSION_KEY];
  const { [CARD_EXTENSION_KEY]: _ours, ...otherExtensions } = extensions;
  const ours = isRecord(ourExtension) ? fromOurExtension(name, ourExtension) : null;
  const persona = ours ? ours.persona : fromForeignCard(name, data);
  const own = (value: string | null | undefined) => resolveMacros(cleanText(value ?? ""), name);
  const extended = ours ? ours.extended : profileFromCardTexts([own(data.description), own(data.personality), own(data.scenario)]);
  const { voice, notes } = ours
    ? voiceFromCard(data, ours.voice, deriveTexts(persona, extended, ours.voice))
    : voiceFromCard(data, EMPTY_VOICE, null);

  const probes = (ours?.probes ?? [])
    .filter((probe): probe is NonNullable<typeof probe> => probe !== null)
    .map(({ id: _id, ...probe }) => probe);
  const dropped = (ours?.probes ?? []).length - probes.length;
  const probeNotes = dropped > 0 ? [`${dropped} of the card's persona tests could not be read and were left out.`] : [];

  const book = lorebookFromCard(data.character_book);
  if (!book.ok)
    return { ok: false, message: CARD_MESSAGES.invalid(`${issuePath(found.prefix, ["character_book", "entries"])}: ${book.message}`) };

  const cardMeta = buildMeta(data, persona, extended, voice, ours !== null, otherExtensions, ours?.aiGenerated ?? []);
  // Fields no spec names (an editor's metadata, an old front end's avatar or chat): kept as they came.
  const unknown = Object.keys(found.data).filter((key) => !KNOWN_DATA_FIELDS.has(key));
  if (unknown.length) {
    try {
      cardMeta.unknownFields = boundedJson(
        Object.fromEntries(unknown.map((key) => [key, (found.data as Record<string, unknown>)[key]])),
      ) as Record<string, JsonValue>;
    } catch (error) {
      if (!(error instanceof JsonLimit)) throw error;
      return { ok: false, message: CARD_MESSAGES.tooLarge, tooLarge: true };
    }
  }
  // Measured as the database will: an import never passes what the row's CHECK refuses.
  if (jsonbTextBytes(cardMeta) > CARD_LIMITS.metaMaxBytes) return { ok: false, message: CARD_MESSAGES.tooLarge, tooLarge: true };
  if (extended && jsonbTextBytes(extended) > CARD_LIMITS.extendedMaxBytes) {
    return { ok: false, message: CARD_MESSAGES.profileTooLarge, tooLarge: true };
  }
  if (book.lore && jsonbTextBytes(book.lore) > CARD_LIMITS.loreMaxBytes)
    return { ok: false, message: CARD_MESSAGES.loreTooLarge, tooLarge: true };

  const complete = validatePersona(persona, "create").success;
  const exported = ours?.status;
  const status: PersonaStatus =
    exported === "in_progress" ? "in_progress" : exported && complete ? exported : complete ? "active" : "in_progress";

  return {
    ok: true,
    card: {
      version: found.version,
      persona,
      extended,
      voice,
      notes: [...notes, ...book.notes, ...probeNotes],
      lore: book.lore,
      probes,
      cardMeta,
      complete,
      status,
    },
  };
}

const storedMetaSchema = z.object({
  ...cardFields,
  version: z.literal(CARD_META_VERSION),
  importedAs: z.string().max(100),
  fields: z.object({ description: z.string().max(100), personality: z.string().max(100), tags: z.string().max(100) }).optional(),
  voiced: z.boolean().optional(),
  creation_date: z.union([z.number(), z.string().max(100)]).optional(),
  modification_date: z.union([z.number(), z.string().max(100)]).optional(),
  unknownFields: z.record(z.string(), z.unknown()).optional(),
  aiGenerated: z.unknown().optional(),
  assetFiles: z.record(z.string().max(10_000), z.string().regex(/^asset-[0-9a-f]{16}\.(png|jpg|webp)$/)).optional(),
  checkedAtImport: z
    .array(
      z.object({
        rule: z.string().max(50),
        severity: z.enum(["error", "warning", "info"]),
        field: z.string().max(200),
        targets: z.array(z.string().max(20)).max(10),
        message: z.string().max(1_000),
      }),
    )
    .max(50)
    .optional(),
});

/** personas.card_meta as stored, checked; null when absent or not understood (export then derives everything). */
export function parseCardMeta(value: unknown): CardMeta | null {
  if (value === null || value === undefined) return null;
  const result = storedMetaSchema.safeParse(value);
  if (!result.success) return null;
  const m = result.data;
  try {
    const meta: CardMeta = { version: CARD_META_VERSION, importedAs: m.importedAs };
    if (m.fields) meta.fields = { description: m.fields.description, personality: m.fields.personality, tags: m.fields.tags };
    if (m.voiced) meta.voiced = true;
    for (const key of TEXT_FIELDS) if (typeof m[key] === "string") meta[key] = m[key];
    for (const key of ["alternate_greetings", "group_only_greetings", "tags", "source"] as const) if (m[key]) meta[key] = m[key];
    if (typeof m.creator === "string") meta.creator = m.creator;
    if (typeof m.character_version === "string") meta.character_version = m.character_version;
    if (typeof m.nickname === "string") meta.nickname = m.nickname;
    if (m.creator_notes_multilingual) meta.creator_notes_multilingual = boundedJson(m.creator_notes_multilingual) as Record<string, string>;
    if (m.character_book) meta.character_book = boundedJson(m.character_book);
    if (m.assets) meta.assets = boundedJson(m.assets) as unknown as CardAsset[];
    if (m.creation_date !== undefined) meta.creation_date = m.creation_date;
    if (m.modification_date !== undefined) meta.modification_date = m.modification_date;
    if (m.unknownFields && Object.keys(m.unknownFields).length)
      meta.unknownFields = boundedJson(m.unknownFields) as Record<string, JsonValue>;
    if (m.extensions) meta.extensions = boundedJson(m.extensions) as Record<string, JsonValue>;
    if (m.assetFiles && Object.keys(m.assetFiles).length) meta.assetFiles = { ...m.assetFiles };
    if (m.checkedAtImport?.length) meta.checkedAtImport = m.checkedAtImport as CardMeta["checkedAtImport"];
    const aiGenerated = parseAiParts(m.aiGenerated);
    if (aiGenerated.length) meta.aiGenerated = aiGenerated;
    return meta;
  } catch (error) {
    if (error instanceof JsonLimit) return null;
    throw error;
  }
}
