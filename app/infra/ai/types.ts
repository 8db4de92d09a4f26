// The AI interface (docs/architecture.md, Adapters): one interface per concern, two
// implementations chosen once from the environment:
//   - local (default, no OPENAI_API_KEY): deterministic, offline, built from the persona's fields;
//   - openai (OPENAI_API_KEY set): any OpenAI-compatible endpoint through the `openai` package.
// Text generation is the first capability; chat replies and images extend this module later
// with the same shape (an input type, a method on an interface, AiError for every failure).
//
// Whether a backstory may be generated at all (name, type, gender and at least one trait,
// else 'Missing Information', docs/product.md, Wizard) is decided before calling a generator; see
// canGenerateBackstory in app/domain/persona-form.ts.
import type { LoreCompileInput, LoreProposal } from "~/domain/lore-compile";
import type { LoreKind } from "~/domain/lorebook";
import type { AgeRange, Gender, Interest, PersonaType } from "~/domain/persona";
import type { PersonaVoice } from "~/domain/persona-voice";

/** What a backstory is written from: the wizard's Basic Info and Personality steps. */
export interface BackstoryInput {
  name: string;
  type: PersonaType;
  gender: Gender;
  ageRange?: AgeRange | null;
  interests: Interest[];
  /** Trait names from TRAIT_CATEGORIES (e.g. "Curious"); unknown names are ignored. */
  personality: string[];
  /** The persona's short description (≤ 150 characters), woven into the story when given. */
  description?: string | null;
  /**
   * The persona's fact sheet (docs/product.md, Fact sheet): the story states these facts and no
   * others. Without it, the sheet the persona's basic info gives is used.
   */
  facts?: BackstoryFacts | null;
  /** Which draw of the embedded generator: each draw is another story true to the same facts (random when absent). */
  draw?: number;
}

/** The facts a backstory must agree with: the Extended Persona Profile's Background, family and birth year. */
export interface BackstoryFacts {
  birthplace: string;
  currentResidence: string;
  occupation: string;
  education: string;
  family: string;
  birthYear: number;
}

export interface GenerateOptions {
  /** Aborting (e.g. the browser went away, or a deadline passed) ends the call with AiError "timeout". */
  signal?: AbortSignal;
}

/** Who is talking: every field of the persona that shapes its voice (see chat-prompt.ts). */
export interface ChatPersona {
  name: string;
  type?: string | null;
  gender?: string | null;
  ageRange?: string | null;
  interests: readonly string[];
  personality: readonly string[];
  description?: string | null;
  backstory?: string | null;
  /** The Extended Persona Profile as shown on the persona page. */
  extended?: {
    birthplace?: string;
    currentResidence?: string;
    occupation?: string;
    education?: string;
    languages?: readonly string[];
    hobbies?: readonly string[];
    favoriteFood?: string;
    favoritePlaces?: readonly string[];
    motto?: string;
    dailyRoutine?: string;
    socialCircle?: { family?: string; friends?: string; colleagues?: string };
    goals?: { short?: string; long?: string };
    challengesOvercome?: string;
    influences?: readonly string[];
    secretSkills?: readonly string[];
    /** The year the persona was born, inside its age range. */
    birthYear?: number;
  } | null;
  /** How the persona talks (docs/product.md, Voice): greeting, example dialogue, speech style, catchphrases, appearance, scenario. */
  voice?: Partial<PersonaVoice> | null;
}

export interface ChatTurn {
  role: "user" | "assistant";
  content: string;
}

/** A lore entry a reply may draw on (docs/product.md, Lore in chat): what the persona knows about one subject. */
export interface ChatLoreEntry {
  id: string;
  name: string;
  content: string;
  kind: LoreKind | null;
  keys: string[];
}

/** What a reply is written from: the persona and the recent conversation, the user's turn last. */
export interface ChatInput {
  /** A stable id for the persona (seeds the embedded responder). */
  personaId: string;
  persona: ChatPersona;
  /** The recent conversation, oldest first, ending with the user's message (a bounded window). */
  history: ChatTurn[];
  /** Replies the new one must not repeat verbatim (the one being regenerated). */
  avoid?: string[];
  /**
   * The lore entries this reply may draw on: those whose keys came up in the last messages and the
   * constant ones, within the budget (matchLore, app/domain/lorebook.ts), in insertion order.
   */
  lore?: ChatLoreEntry[];
}

export interface ChatOptions extends GenerateOptions {
  /**
   * The caller shows the reply as it arrives. The embedded responder then sends it at a
   * reading pace (a word at a time, like a model's tokens); otherwise it answers at once.
   */
  live?: boolean;
}

/**
 * Writes persona text. Every failure is an AiError.
 *
 * - generateBackstory: plain prose (paragraphs separated by a blank line), trimmed, at least
 *   BACKSTORY_MIN_WORDS words and at most PERSONA_LIMITS.backstoryMax characters.
 * - chatReply: the persona's next chat message, in character, as pieces of text in order
 *   (their concatenation is the reply); a reply is never empty and at most
 *   CHAT_REPLY_MAX_CHARS characters. Aborting the signal ends it with AiError "timeout".
 *   A question about a lore entry's subject is answered from the entry (ChatInput.lore).
 */
export interface TextGenerator {
  readonly kind: "local" | "openai";
  generateBackstory(input: BackstoryInput, options?: GenerateOptions): Promise<string>;
  chatReply(input: ChatInput, options?: ChatOptions): AsyncIterable<string>;
  /**
   * Lore entries a model proposes from the backstory and facts only (docs/product.md, Lore), each
   * already checked with loreEntrySchema (the rest dropped). Absent on the embedded generator:
   * app/infra/ai/lore.server.ts then compiles them (app/domain/lore-compile.ts).
   */
  compileLore?(input: LoreCompileInput, options?: GenerateOptions): Promise<LoreProposal[]>;
  /**
   * A model's verdict on a persona test's rubric (docs/product.md, Persona tests): whether the
   * exchange meets the rubric, with a one-sentence reason. Absent on the embedded generator,
   * which judges no rubric (only the deterministic checks).
   */
  judgeRubric?(input: RubricInput, options?: GenerateOptions): Promise<{ passed: boolean; reason: string }>;
  /** The model that writes chat replies, as a test run records it; absent on the embedded generator. */
  readonly chatModel?: string;
}

/** What a rubric is judged on: the persona, the rubric in plain words, and the exchange (the persona's replies included). */
export interface RubricInput {
  persona: ChatPersona;
  rubric: string;
  exchange: ChatTurn[];
}

/** A reply is cut here (the column allows 16,000; a chat message is a few sentences). */
export const CHAT_REPLY_MAX_CHARS = 8_000;

export type AiErrorCode =
  | "unavailable" // the service could not be reached, was overloaded (429) or failed (5xx)
  | "timeout" // no answer in time, or the caller aborted
  | "too_short" // the text stayed under the minimum length even after asking to extend it
  | "refused" // credentials refused (401/403), request rejected (4xx) or the model declined
  | "bad_response"; // an answer without usable text

export class AiError extends Error {
  override name = "AiError";
  constructor(
    public readonly code: AiErrorCode,
    message: string,
    /** The HTTP status the AI service answered with, when it answered. */
    public readonly status?: number,
  ) {
    super(message);
  }
}

/** The minimum length of a generated backstory, in words (countWords). */
export const BACKSTORY_MIN_WORDS = 800;

/** Words in a text: whitespace-separated tokens that contain at least one letter or digit. */
export function countWords(text: string): number {
  let count = 0;
  for (const token of text.split(/\s+/)) {
    if (/[\p{L}\p{N}]/u.test(token)) count += 1;
  }
  return count;
}

/**
 * Cuts a text to at most `max` characters, at the end of a sentence when there is one in the
 * second half of the allowance (else at a word boundary). Texts within the limit are returned as-is.
 */
export function capText(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max);
  let cut = -1;
  const sentenceEnd = /[.!?…]["'”’)\]]*(?=\s)/g;
  for (let m = sentenceEnd.exec(head + " "); m; m = sentenceEnd.exec(head + " ")) {
    if (m.index + m[0].length <= max) cut = m.index + m[0].length;
  }
  if (cut < max / 2) {
    const space = head.lastIndexOf(" ");
    cut = space > 0 ? space : max;
  }
  return head.slice(0, cut).trimEnd();
}

/** What a reference image is drawn from: the persona's fields and the chosen style. */
export interface ImageInput {
  name: string;
  type?: string | null;
  gender?: string | null;
  ageRange?: string | null;
  interests: readonly string[];
  personality: readonly string[];
  description?: string | null;
  /** What the persona looks like, in words (its voice's appearance); the embedded generator follows its cues. */
  appearance?: string | null;
  style: import("~/domain/images").ImageStyle;
  /** The primary image (head and shoulders), or the secondary one (another picture of the same persona: half-body, another setting). */
  slot: import("~/domain/images").ImageSlot;
}

/** An image as bytes, with the format read from the bytes themselves (never from headers). */
export interface GeneratedImage {
  bytes: Uint8Array;
  format: "png" | "jpeg" | "webp";
  width: number;
  height: number;
}

/**
 * Draws reference images. Every failure is an AiError: "refused" with the provider's reason
 * for a content-policy refusal, "timeout", "unavailable", "bad_response" for an answer that
 * is not an image.
 */
export interface ImageGenerator {
  readonly kind: "local" | "openai";
  generateImage(input: ImageInput, options?: GenerateOptions): Promise<GeneratedImage>;
}
