// A persona's voice (docs/product.md, Voice): how it opens a conversation and how it talks —
// greeting and alternate greetings, example dialogue, speech style with catchphrases,
// appearance and scenario. Every field is optional; each has a documented limit. Pure: used by
// the forms, the JSON API, the chat responders and the character cards alike.
import * as z from "zod";

import { AUTHORS_NOTE_DEFAULT_DEPTH, VOICE_FIELDS, VOICE_LABELS, type PersonaVoice, type VoiceField } from "./voice-text";

export {
  AUTHORS_NOTE_DEFAULT_DEPTH,
  fillPlaceholders,
  VOICE_FIELDS,
  VOICE_GUIDANCE_FIELDS,
  VOICE_LABELS,
  VOICE_TEXT,
  type PersonaVoice,
  type VoiceField,
} from "./voice-text";

export const VOICE_LIMITS = {
  greetingMax: 2_000,
  alternateGreetingsMax: 5,
  exampleDialogueMax: 4_000,
  speechStyleMax: 1_000,
  catchphrasesMax: 5,
  catchphraseMax: 120,
  appearanceMax: 2_000,
  scenarioMax: 2_000,
  systemPromptMax: 4_000,
  postHistoryInstructionsMax: 2_000,
  authorsNoteMax: 2_000,
  authorsNoteDepthMax: 100,
} as const;

export const EMPTY_VOICE: PersonaVoice = {
  greeting: null,
  alternateGreetings: [],
  exampleDialogue: null,
  speechStyle: null,
  catchphrases: [],
  appearance: null,
  scenario: null,
  systemPrompt: null,
  postHistoryInstructions: null,
  authorsNote: null,
  authorsNoteDepth: AUTHORS_NOTE_DEFAULT_DEPTH,
};

export const VOICE_HINTS: Record<VoiceField, string> = {
  greeting: "The first message of every new chat.",
  alternateGreetings: `Up to ${VOICE_LIMITS.alternateGreetingsMax}, one per line. A new chat may open with any of them.`,
  exampleDialogue: "A few lines in the persona's voice, such as '{{user}}: Hi!' and '{{char}}: Oh, hey there!'.",
  speechStyle: "How the persona talks: pace, words, habits.",
  catchphrases: `Up to ${VOICE_LIMITS.catchphrasesMax}, one per line.`,
  appearance: "What the persona looks like.",
  scenario: "Where and how conversations with the persona take place.",
  systemPrompt:
    "Replaces the model's default instructions for this persona; write {{original}} where the default ones should still go. Most cards leave it empty.",
  postHistoryInstructions: "Sent after the conversation, right before every reply: the strongest place for a rule the persona must keep.",
  authorsNote: "Put into the conversation near its end (at the depth below), so it stays close to every reply.",
};

export const VOICE_MESSAGES = {
  greetingMax: "Greeting must be 2,000 characters or less",
  alternateGreetingsMax: "At most 5 alternate greetings",
  alternateGreetingMax: "Each alternate greeting must be 2,000 characters or less",
  exampleDialogueMax: "Example dialogue must be 4,000 characters or less",
  speechStyleMax: "Speech style must be 1,000 characters or less",
  catchphrasesMax: "At most 5 catchphrases",
  catchphraseMax: "Each catchphrase must be 120 characters or less",
  appearanceMax: "Appearance must be 2,000 characters or less",
  scenarioMax: "Scenario must be 2,000 characters or less",
  systemPromptMax: "System prompt must be 4,000 characters or less",
  postHistoryInstructionsMax: "Post-history instructions must be 2,000 characters or less",
  authorsNoteMax: "Author's note must be 2,000 characters or less",
  authorsNoteDepth: "Author's note depth must be a whole number from 0 to 100",
  characters: "Text cannot contain control characters",
  type: "Must be text",
} as const;

// Tabs and line breaks are text; other control characters and bidirectional overrides are not.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\u2028\u2029\u202A-\u202E\u2066-\u2069]/u;

/** Code points, as Postgres' char_length counts them. */
const length = (text: string) => [...text].length;

/** Line endings made \n and outer whitespace trimmed; "" becomes null. */
export function cleanVoiceText(text: string): string | null {
  const clean = text.replace(/\r\n?/g, "\n").trim();
  return clean === "" ? null : clean;
}

const text = (max: number, message: string) =>
  z
    .union([z.string({ error: VOICE_MESSAGES.type }), z.null()], { error: VOICE_MESSAGES.type })
    .optional()
    .transform((value) => (typeof value === "string" ? cleanVoiceText(value) : null))
    .superRefine((value, ctx) => {
      if (value === null) return;
      if (length(value) > max) ctx.addIssue({ code: "custom", message });
      else if (CONTROL.test(value)) ctx.addIssue({ code: "custom", message: VOICE_MESSAGES.characters });
    });

/** A list given as an array (JSON) or as text with one item per line (a form's textarea). */
const lines = (maxItems: number, itemMax: number, messages: { count: string; item: string }) =>
  z
    .union([z.string({ error: VOICE_MESSAGES.type }), z.array(z.string({ error: VOICE_MESSAGES.type })), z.null()], {
      error: VOICE_MESSAGES.type,
    })
    .optional()
    .transform((value) => {
      const items = Array.isArray(value) ? value : typeof value === "string" ? value.split(/\r?\n/) : [];
      return items.map((item) => cleanVoiceText(item.replace(/\n/g, " "))).filter((item): item is string => item !== null);
    })
    .superRefine((items, ctx) => {
      if (items.length > maxItems) ctx.addIssue({ code: "custom", message: messages.count });
      if (items.some((item) => length(item) > itemMax)) ctx.addIssue({ code: "custom", message: messages.item });
      else if (items.some((item) => CONTROL.test(item))) ctx.addIssue({ code: "custom", message: VOICE_MESSAGES.characters });
    });

/** A depth given as a number (JSON) or as a form's text; absent or empty is the default. */
const depth = () =>
  z
    .union([z.number(), z.string(), z.null()], { error: VOICE_MESSAGES.authorsNoteDepth })
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === null || (typeof value === "string" && value.trim() === "")) return AUTHORS_NOTE_DEFAULT_DEPTH;
      const n = typeof value === "string" && /^\s*\d{1,3}\s*$/.test(value) ? Number(value) : value;
      if (typeof n === "number" && Number.isInteger(n) && n >= 0 && n <= VOICE_LIMITS.authorsNoteDepthMax) return n;
      ctx.addIssue({ code: "custom", message: VOICE_MESSAGES.authorsNoteDepth });
      return z.NEVER;
    });

export const voiceSchema = z.object({
  greeting: text(VOICE_LIMITS.greetingMax, VOICE_MESSAGES.greetingMax),
  alternateGreetings: lines(VOICE_LIMITS.alternateGreetingsMax, VOICE_LIMITS.greetingMax, {
    count: VOICE_MESSAGES.alternateGreetingsMax,
    item: VOICE_MESSAGES.alternateGreetingMax,
  }),
  exampleDialogue: text(VOICE_LIMITS.exampleDialogueMax, VOICE_MESSAGES.exampleDialogueMax),
  speechStyle: text(VOICE_LIMITS.speechStyleMax, VOICE_MESSAGES.speechStyleMax),
  catchphrases: lines(VOICE_LIMITS.catchphrasesMax, VOICE_LIMITS.catchphraseMax, {
    count: VOICE_MESSAGES.catchphrasesMax,
    item: VOICE_MESSAGES.catchphraseMax,
  }),
  appearance: text(VOICE_LIMITS.appearanceMax, VOICE_MESSAGES.appearanceMax),
  scenario: text(VOICE_LIMITS.scenarioMax, VOICE_MESSAGES.scenarioMax),
  systemPrompt: text(VOICE_LIMITS.systemPromptMax, VOICE_MESSAGES.systemPromptMax),
  postHistoryInstructions: text(VOICE_LIMITS.postHistoryInstructionsMax, VOICE_MESSAGES.postHistoryInstructionsMax),
  authorsNote: text(VOICE_LIMITS.authorsNoteMax, VOICE_MESSAGES.authorsNoteMax),
  authorsNoteDepth: depth(),
}) satisfies z.ZodType<PersonaVoice, unknown>;

/** Whether any voice field is set. */
export function hasVoice(voice: PersonaVoice): boolean {
  return VOICE_FIELDS.some((field) => {
    const value = voice[field];
    return Array.isArray(value) ? value.length > 0 : value !== null;
  });
}

/**
 * A stored voice (a jsonb object) as the app reads it: a field that no longer reads (a row
 * written by hand, a limit made smaller) is empty, the others are kept; anything that is no object is no voice.
 */
export function parseVoice(value: unknown): PersonaVoice {
  if (!value || typeof value !== "object" || Array.isArray(value)) return EMPTY_VOICE;
  let candidate: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (let attempt = 0; attempt < 4; attempt++) {
    const result = voiceSchema.safeParse(candidate);
    if (result.success) return result.data;
    const wrong = new Set(result.error.issues.map((issue) => String(issue.path[0])));
    candidate = Object.fromEntries(Object.entries(candidate).filter(([key]) => !wrong.has(key)));
  }
  return EMPTY_VOICE;
}

export const VOICE_TOASTS = {
  saved: { title: "Voice Saved", description: "Chat and exports now use the persona's new voice." },
  failed: { title: "Voice Not Saved", description: "Please fix the highlighted fields and try again." },
} as const;

/** The voice as lines of text ('Greeting: …'), the fields that are set in the page's order: what history compares. */
export function voiceText(voice: PersonaVoice): string {
  return VOICE_FIELDS.flatMap((field) => {
    const value = voice[field];
    if (Array.isArray(value)) return value.length ? [`${VOICE_LABELS[field]}: ${value.join(" · ")}`] : [];
    if (value === null) return [];
    return field === "authorsNote"
      ? [`${VOICE_LABELS[field]} (depth ${voice.authorsNoteDepth}): ${value}`]
      : [`${VOICE_LABELS[field]}: ${value}`];
  }).join("\n");
}
