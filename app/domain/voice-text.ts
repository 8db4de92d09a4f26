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
  /**
   * Guidance for chat models (docs/product.md, Voice: guidance). The instructions a model
   * follows in place of the default ones (`system_prompt`; '{{original}}' brings the default back).
   */
  systemPrompt: string | null;
  /** Sent after the conversation, right before each reply (`post_history_instructions`). */
  postHistoryInstructions: string | null;
  /** A note put into the conversation authorsNoteDepth messages from its end (`extensions.depth_prompt`). */
  authorsNote: string | null;
  /** How many messages from the end the author's note goes (0: after the last one). */
  authorsNoteDepth: number;
}

export const VOICE_FIELDS = [
  "greeting",
  "alternateGreetings",
  "exampleDialogue",
  "speechStyle",
  "catchphrases",
  "appearance",
  "scenario",
  "systemPrompt",
  "postHistoryInstructions",
  "authorsNote",
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
  systemPrompt: "System Prompt",
  postHistoryInstructions: "Post-History Instructions",
  authorsNote: "Author's Note",
};

/** The voice fields that guide a chat model rather than describe the persona. */
export const VOICE_GUIDANCE_FIELDS = ["systemPrompt", "postHistoryInstructions", "authorsNote"] as const satisfies readonly VoiceField[];

/** Where the author's note goes when no depth is given: four messages from the end, as SillyTavern's default. */
export const AUTHORS_NOTE_DEFAULT_DEPTH = 4;

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
  guidanceTitle: "Guidance for chat models",
  guidanceIntro:
    "Instructions a chat model follows on top of the persona's profile and voice. Character cards carry them, and chat uses them where SillyTavern puts them. The built-in generator follows the plain cues in the post-history instructions and the author's note (short, calm, no exclamation marks, lower case).",
  depthLabel: "Author's Note Depth",
  noteAtDepth: (depth: number) => `Author's Note (depth ${depth})`,
  depthHint: "How many messages from the end of the conversation the note goes: 0 puts it after the last message.",
} as const;
