// A voice's words (docs/product.md, Voice): its fields and their labels, the page's texts and the
// filling of {{char}} and {{user}}, apart from its rules (persona-voice.ts), so that a page that only
// shows a voice does not load the schema library.

export interface PersonaVoice {
  /** The first message of every new chat (a card's `first_mes`). */
  greeting: string | null;
  /** Other first messages a chat may open with (`alternate_greetings`). */
  alternateGreetings: string[];
  /** Sample exchanges in the persona's voice (`mes_example`): lines such as '{{user}}: …' and '{{char}}: …'. */
  exampleDialogue: string | null;
  /** How the persona talks: pace, register, habits. */
  speechStyle: string | null;
  /** Phrases the persona says often. */
  catchphrases: string[];
  /** What the persona looks like. */
  appearance: string | null;
  /** Where and how conversations with the persona take place (`scenario`). */
  scenario: string | null;
}

export const VOICE_FIELDS = [
  "greeting",
  "alternateGreetings",
  "exampleDialogue",
  "speechStyle",
  "catchphrases",
  "appearance",
  "scenario",
] as const;
export type VoiceField = (typeof VOICE_FIELDS)[number];

export const VOICE_LABELS: Record<VoiceField, string> = {
  greeting: "Greeting",
  alternateGreetings: "Alternate Greetings",
  exampleDialogue: "Example Dialogue",
  speechStyle: "Speech Style",
  catchphrases: "Catchphrases",
  appearance: "Appearance",
  scenario: "Scenario",
};

/**
 * A voice text as a chat shows it: the card placeholders {{char}} and {{user}} (any case) become
 * the persona's name and 'you'.
 */
export function fillPlaceholders(text: string, name: string, user = "you"): string {
  return text.replace(/\{\{\s*char\s*\}\}|<BOT>/gi, name).replace(/\{\{\s*user\s*\}\}|<USER>/gi, user);
}

export const VOICE_TEXT = {
  title: "Voice",
  empty: "No voice yet: give this persona a greeting, a way of speaking, a look and a scene.",
  add: "Add a Voice",
  edit: "Edit Voice",
  pageTitle: (name: string) => `${name}'s voice`,
  pageIntro: "How the persona opens a conversation and how it talks. Chat and character cards use all of it; every field is optional.",
  save: "Save Voice",
  suggest: "Suggest for Empty Fields",
  suggested:
    "Suggestions fill the empty fields, from the persona's facts and traits. Change anything; nothing is saved until 'Save Voice'.",
  saving: "Saving...",
  cancel: "Cancel",
} as const;
