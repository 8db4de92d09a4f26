// Shapes of a persona that several domain modules share: the wizard's form values, the persona
// as exports and cards read it, and what an imported card carried. Types and one version
// number only, so the modules that use them never import each other for a type.
import type { AiGeneratedPart } from "./ai-disclosure";
import type { CardFinding } from "./card-check";
import type { PersonaVoice } from "./voice-text";

/** Any JSON value, as a card may carry it. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export interface CardAsset {
  type: string;
  uri: string;
  name: string;
  ext: string;
}

/** The version of the kept card data's own layout. */
export const CARD_META_VERSION = 1;

/** See CardMeta.fields. */
export interface CardTextFingerprints {
  /** The persona's description, backstory and the voice's appearance. */
  description: string;
  /** The persona's traits, and the voice's speech style and catchphrases. */
  personality: string;
  /** The persona's type and interests. */
  tags: string;
}

/** What an imported character card carried that the persona does not model. */
export interface CardMeta {
  version: typeof CARD_META_VERSION;
  /** The persona's fingerprint at import: while it still matches, the persona is unedited. */
  importedAs: string;
  /**
   * Fingerprints, at import, of the persona fields each card text is made from: while one still
   * matches, that text goes out as the card had it (a card's own texts, macros included, until the
   * creator edits that field). Absent on cards imported before: `importedAs` decides for all.
   */
  fields?: CardTextFingerprints;
  /**
   * Whether the card's greeting, alternate greetings, example dialogue and scenario went into the
   * persona's voice. Cards imported before voices did not: their own texts stand in for a voice field left empty.
   */
  voiced?: boolean;
  description?: string;
  personality?: string;
  scenario?: string;
  first_mes?: string;
  mes_example?: string;
  creator_notes?: string;
  system_prompt?: string;
  post_history_instructions?: string;
  alternate_greetings?: string[];
  group_only_greetings?: string[];
  tags?: string[];
  creator?: string;
  character_version?: string;
  character_book?: JsonValue;
  assets?: CardAsset[];
  nickname?: string;
  creator_notes_multilingual?: Record<string, string>;
  source?: string[];
  creation_date?: number | string;
  modification_date?: number | string;
  /** Fields of the card's data that no spec names, as the card had them. */
  unknownFields?: Record<string, JsonValue>;
  /** Every extension except ours, as the card had it. */
  extensions?: Record<string, JsonValue>;
  /** The parts the card said were AI-generated, and by what (docs/product.md, AI disclosure). */
  aiGenerated?: AiGeneratedPart[];
  /** The images a CharX card carried besides its icon: the stored file of each, by its asset URI. */
  assetFiles?: Record<string, string>;
  /** What the card check found in the imported file that the export writes right (its container, its types). */
  checkedAtImport?: CardFinding[];
}

/** A persona as the exports read it: the stored row, plus what an imported card carried. */
export interface ExportPersona {
  id: string;
  name: string;
  type: string | null;
  gender: string | null;
  ageRange: string | null;
  interests: string[];
  personality: string[];
  description: string | null;
  backstory: string | null;
  imageStyle: string;
  status: string;
  createdAt: Date | string;
  updatedAt: Date | string;
  imageUrl: string | null;
  /** What an imported character card carried that the persona does not model; null otherwise. */
  cardMeta: CardMeta | null;
  /** The persona's voice (docs/product.md, Voice); absent: none. */
  voice?: PersonaVoice;
  /** The persona's lorebook as stored (docs/product.md, Lore; lorebook.ts reads it); absent: none. */
  lore?: unknown;
  /** The persona's tests (docs/product.md, Persona tests), without their ids; absent: none. */
  probes?: import("./probes").ProbeInput[];
  /**
   * The parts the product generated for this persona, and by what (docs/product.md, AI
   * disclosure); with what an imported card said (cardMeta.aiGenerated) it is what exports disclose.
   */
  aiGenerated?: AiGeneratedPart[];
}

/** The wizard's fields as the form holds them. */
export interface PersonaFormValues {
  name: string;
  type: string;
  gender: string;
  ageRange: string;
  interests: string[];
  description: string;
  personality: string[];
  backstory: string;
}
