// Persona enumerations and limits (docs/product.md, Personas and Limits and constants). Pure: used by the
// database schema's check constraints, the forms, the actions and the API alike.

export const PERSONA_TYPES = [
  "influencer",
  "vtuber",
  "content",
  "personality",
  "educator",
  "artist",
  "advisor",
  "entertainer",
  "companion",
  "specialist",
] as const;
export type PersonaType = (typeof PERSONA_TYPES)[number];

export const PERSONA_TYPE_LABELS: Record<PersonaType, string> = {
  influencer: "AI Influencer",
  vtuber: "AIVTuber",
  content: "Content Creator",
  personality: "Digital Personality",
  educator: "AI Educator",
  artist: "Digital Artist",
  advisor: "Virtual Advisor",
  entertainer: "AI Entertainer",
  companion: "AI Companion",
  specialist: "Domain Specialist",
};

/** The type as it reads in a sentence ('works as a VTuber'), without the article. */
export const PERSONA_TYPE_PROSE: Record<PersonaType, string> = {
  influencer: "virtual influencer",
  vtuber: "VTuber",
  content: "content creator",
  personality: "digital personality",
  educator: "online educator",
  artist: "digital artist",
  advisor: "virtual advisor",
  entertainer: "entertainer",
  companion: "companion",
  specialist: "domain specialist",
};

export const GENDERS = ["male", "female", "non-binary", "other"] as const;
export type Gender = (typeof GENDERS)[number];

export const AGE_RANGES = ["18-24", "25-34", "35-44", "45-54", "55+"] as const;
export type AgeRange = (typeof AGE_RANGES)[number];

export const INTERESTS = [
  "gaming",
  "tech",
  "fashion",
  "music",
  "art",
  "fitness",
  "science",
  "cooking",
  "travel",
  "education",
  "business",
  "entertainment",
] as const;
export type Interest = (typeof INTERESTS)[number];

export const IMAGE_STYLES = ["photorealistic", "anime", "digital_art", "cinematic", "minimalist"] as const;
export type ImageStyle = (typeof IMAGE_STYLES)[number];

export const PERSONA_STATUSES = ["active", "in_progress", "archived"] as const;
export type PersonaStatus = (typeof PERSONA_STATUSES)[number];

export const TRAIT_CATEGORIES = {
  Extroversion: ["Outgoing", "Reserved", "Social", "Quiet", "Assertive", "Reflective"],
  Emotional: ["Stable", "Reactive", "Calm", "Passionate", "Sensitive", "Resilient"],
  Openness: ["Creative", "Conventional", "Curious", "Cautious", "Imaginative", "Practical"],
  Agreeableness: ["Compassionate", "Competitive", "Empathetic", "Direct", "Trusting", "Skeptical"],
  Conscientiousness: ["Organized", "Flexible", "Disciplined", "Spontaneous", "Focused", "Adaptable"],
  "Content Style": ["Entertaining", "Educational", "Authentic", "Aspirational", "Humorous", "Inspirational"],
} as const;
export type TraitCategory = keyof typeof TRAIT_CATEGORIES;
export const TRAITS = Object.values(TRAIT_CATEGORIES).flat() as string[];

/** What counts as 'Generated Content' on the dashboard: every AI generation a creator asked for. */
export const GENERATION_KINDS = ["backstory", "chat", "image"] as const;
export type GenerationKind = (typeof GENERATION_KINDS)[number];

export const CHAT_ROLES = ["user", "assistant"] as const;
export type ChatRole = (typeof CHAT_ROLES)[number];

/**
 * A name of one character is enough in the scripts that write a name in one (Chinese, Japanese
 * kana and kanji, Korean: 爱, 光, ひ); the two-character minimum is for other scripts, Latin first
 * (docs/product.md, Personas). The same ranges are in the personas_name_length CHECK (migration
 * 20261202180000_one_character_names).
 */
const ONE_CHARACTER_NAME =
  /^[\u1100-\u11ff\u3040-\u30ff\u3130-\u318f\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\u{20000}-\u{3134f}]$/u;

/** The same ranges as a PostgreSQL pattern (its advanced regular expressions read \\u and \\U escapes). */
export const ONE_CHARACTER_NAME_SQL =
  "^[\\u1100-\\u11ff\\u3040-\\u30ff\\u3130-\\u318f\\u3400-\\u4dbf\\u4e00-\\u9fff\\uac00-\\ud7af\\uf900-\\ufaff\\U00020000-\\U0003134f]$";

/** Whether a trimmed name is long enough: 2 characters (code points), or 1 of a script above. */
export function nameLongEnough(name: string): boolean {
  const count = [...name].length;
  return count >= PERSONA_LIMITS.nameMin || (count === 1 && ONE_CHARACTER_NAME.test(name));
}

export const PERSONA_LIMITS = {
  nameMin: 2,
  nameMax: 80,
  descriptionMax: 150,
  interestsMin: 1,
  interestsMax: 3,
  traitsMax: 7,
  backstoryMax: 20_000,
  narrativeMax: 50_000,
  chatMessageMax: 4_000,
} as const;

export const FREE_PLAN_PERSONA_LIMIT = 10;
export const PREMIUM_PRICE_USD = 9.99;
