// 'Auto-fill Empty Fields' on wizard step 1 (docs/product.md, Wizard): fills only the fields that are
// empty, from canned lists, and says how many it filled. Chosen interests and traits, the
// description and the backstory a creator wrote are never touched.
import type { PersonaFormValues } from "./persona-shapes";
import {
  AGE_RANGES,
  GENDERS,
  PERSONA_LIMITS,
  PERSONA_TYPE_LABELS,
  PERSONA_TYPES,
  type AgeRange,
  type Gender,
  type Interest,
  type PersonaType,
} from "./persona";
import { intBetween, pick, pickMany, type Random } from "./random";
import { isInterest } from "./traits";

export const AUTO_FILL_GENDERS = ["male", "female"] as const satisfies readonly Gender[];
export const AUTO_FILL_AGE_RANGES = ["18-24", "25-34", "35-44"] as const satisfies readonly AgeRange[];

export const NAMES_BY_TYPE: Record<PersonaType, readonly string[]> = {
  influencer: ["Mia Sterling", "Leo Vance", "Ava Monroe", "Kai Rivers", "Zara Bloom", "Jordan Hale", "Luna Park", "Ethan Cole"],
  vtuber: ["Hoshi Kira", "Nova Pixel", "Mochi Moon", "Ren Starlight", "Yuki Byte", "Aria Nebula", "Kenji Flux", "Sora Chime"],
  content: ["Sam Carter", "Riley Brooks", "Maya Chen", "Noah Fields", "Tessa Reyes", "Owen Price", "Priya Nair", "Caleb Stone"],
  personality: ["Echo Vale", "Orion Gray", "Iris Quinn", "Jasper Lux", "Nia Solace", "Felix Ward", "Skye Arden", "Milo Crest"],
  educator: ["Dr. Clara Hayes", "Prof. Adrian Moss", "Elena Ruiz", "Marcus Webb", "Hana Sato", "Julian Reed", "Grace Okafor", "Theo Lang"],
  artist: ["Sienna Hart", "Rafael Cruz", "Ivy Calder", "Dante Rowe", "Mei Lin", "Olive Serrano", "Finn Archer", "Juno Vale"],
  advisor: [
    "Victoria Lane",
    "Henry Walsh",
    "Amara Singh",
    "Daniel Pierce",
    "Sofia Bennett",
    "Gabriel Ortiz",
    "Naomi Clarke",
    "William Hart",
  ],
  entertainer: ["Max Sparks", "Ruby Lark", "Ziggy Blaze", "Penny Jest", "Rocco Bell", "Lola Flash", "Benny Quip", "Stella Rhymes"],
  companion: ["Ellie Warm", "Noah Gentry", "Lily Haven", "Sam Rivers", "Hazel Kind", "Ezra Dove", "Rose Ember", "Ollie Brooks"],
  specialist: [
    "Dr. Nathan Cole",
    "Irene Volkov",
    "Arjun Mehta",
    "Claire Dubois",
    "Omar Haddad",
    "Lena Fischer",
    "Victor Han",
    "Ingrid Berg",
  ],
};

/** The interests that suit each type; auto-fill picks 2 or 3 of them. */
export const INTERESTS_BY_TYPE: Record<PersonaType, readonly Interest[]> = {
  influencer: ["fashion", "fitness", "travel", "music", "cooking"],
  vtuber: ["gaming", "entertainment", "art", "music", "tech"],
  content: ["entertainment", "tech", "gaming", "travel", "cooking", "music"],
  personality: ["entertainment", "music", "fashion", "travel", "art"],
  educator: ["education", "science", "tech", "business"],
  artist: ["art", "music", "fashion", "entertainment", "travel"],
  advisor: ["business", "education", "tech", "fitness", "science"],
  entertainer: ["entertainment", "music", "gaming", "art", "travel"],
  companion: ["music", "cooking", "travel", "art", "fitness", "entertainment"],
  specialist: ["science", "tech", "business", "education", "fitness"],
};

// {interests} ("fashion and travel") and {label} ("AI Influencer") are filled in. No template
// names the persona: a description must stay true when the creator renames it afterwards.
export const DESCRIPTION_TEMPLATES: Record<PersonaType, readonly string[]> = {
  influencer: [
    "Shares daily inspiration about {interests} with a warm, aspirational voice that followers trust.",
    "A trend-setting {label} who turns {interests} into stories people want to live.",
  ],
  vtuber: [
    "A cheerful virtual streamer who brings {interests} to life with live chats and playful energy.",
    "Streams {interests} as an animated avatar with a big heart and a bigger community.",
  ],
  content: [
    "Creates honest, easy-to-follow videos about {interests} for curious audiences everywhere.",
    "A {label} who explores {interests} one upload at a time.",
  ],
  personality: [
    "A charismatic digital personality known for sharp takes on {interests}.",
    "Brings wit and warmth to every conversation about {interests}.",
  ],
  educator: [
    "Makes {interests} simple, clear and fun to learn, one lesson at a time.",
    "An {label} who breaks down {interests} into ideas anyone can follow.",
  ],
  artist: [
    "A digital artist who blends {interests} into bold, dreamlike visuals.",
    "Creates art inspired by {interests} and shares the process with fellow creators.",
  ],
  advisor: [
    "Offers calm, practical guidance on {interests} to help people make better decisions.",
    "A trusted {label} focused on {interests} and long-term growth.",
  ],
  entertainer: [
    "A high-energy entertainer who turns {interests} into laughs, games and surprises.",
    "Keeps audiences smiling with sketches and challenges about {interests}.",
  ],
  companion: [
    "A friendly companion who loves chatting about {interests} and always listens.",
    "Offers warm, supportive conversation and shared moments around {interests}.",
  ],
  specialist: [
    "A domain specialist with deep expertise in {interests} and a knack for clear answers.",
    "Brings expert insight on {interests}, backed by research and real-world experience.",
  ],
};

/**
 * Cut to the description limit: 147 characters plus an ellipsis when longer (docs/product.md, Wizard).
 * The ellipsis is three ASCII dots, not the single character '…', so the result is exactly
 * 150 characters, as "147 plus an ellipsis" adds up to.
 */
export function truncateDescription(text: string, max: number = PERSONA_LIMITS.descriptionMax): string {
  const characters = [...text];
  return characters.length > max ? `${characters.slice(0, max - 3).join("")}...` : text;
}

function joinWords(words: readonly string[]): string {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

/**
 * A description for a persona from its type's templates, about the interests selected now
 * (the type's usual ones when none are). It never names the persona.
 */
export function describePersona(values: { type: PersonaType; interests: readonly Interest[] }, random: Random = Math.random): string {
  const text = pick(DESCRIPTION_TEMPLATES[values.type], random)
    .replaceAll("{label}", PERSONA_TYPE_LABELS[values.type])
    .replaceAll("{interests}", joinWords(values.interests.length ? values.interests : INTERESTS_BY_TYPE[values.type].slice(0, 2)));
  return truncateDescription(text);
}

export interface AutoFillResult {
  values: PersonaFormValues;
  /** How many fields were filled, for the toast. */
  filled: number;
}

export type AutoFillInput = Partial<Omit<PersonaFormValues, "interests" | "personality">> & {
  interests?: readonly string[];
  personality?: readonly string[];
};

const isBlank = (value: unknown) => typeof value !== "string" || value.trim() === "";
// A choice that is none of the options shows as unselected, so it counts as empty too.
const isChoice = <T extends string>(options: readonly T[], value: unknown): value is T =>
  typeof value === "string" && (options as readonly string[]).includes(value);

/** Fills only the empty fields of step 1: name, type, gender, age range, interests, description. */
export function autoFill(values: AutoFillInput, random: Random = Math.random): AutoFillResult {
  let filled = 0;
  const fill = <T>(value: T) => {
    filled++;
    return value;
  };

  const type = isChoice(PERSONA_TYPES, values.type) ? values.type : fill(pick(PERSONA_TYPES, random));
  const name = isBlank(values.name) ? fill(pick(NAMES_BY_TYPE[type], random)) : (values.name as string);
  const gender = isChoice(GENDERS, values.gender) ? values.gender : fill(pick(AUTO_FILL_GENDERS, random));
  const ageRange = isChoice(AGE_RANGES, values.ageRange) ? values.ageRange : fill(pick(AUTO_FILL_AGE_RANGES, random));
  const chosen = (values.interests ?? []).filter(isInterest);
  const interests = chosen.length
    ? [...(values.interests ?? [])]
    : fill(pickMany(INTERESTS_BY_TYPE[type], intBetween(2, 3, random), random));
  const description = isBlank(values.description)
    ? fill(describePersona({ type, interests: interests.filter(isInterest) }, random))
    : (values.description as string);

  return {
    values: {
      name,
      type,
      gender,
      ageRange,
      interests,
      description,
      personality: [...(values.personality ?? [])],
      backstory: values.backstory ?? "",
    },
    filled,
  };
}

export const AUTO_FILL_COMPLETE_TITLE = "Auto-Fill Complete";

/** 'Auto-Fill Complete' / 'Filled N fields with AI-suggested content!' ('1 field' when it is one). */
export function autoFillToast(filled: number): { title: string; description: string } {
  return {
    title: AUTO_FILL_COMPLETE_TITLE,
    description: `Filled ${filled} ${filled === 1 ? "field" : "fields"} with AI-suggested content!`,
  };
}

const ALL_SUGGESTED_NAMES = Object.values(NAMES_BY_TYPE).flat();
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
// Every auto-fill description as a pattern, its {interests} captured ("gaming and music").
const TEMPLATE_PATTERNS = PERSONA_TYPES.flatMap((type) =>
  DESCRIPTION_TEMPLATES[type].map(
    (template) =>
      new RegExp(
        `^${escapeRegExp(template.replaceAll("{label}", PERSONA_TYPE_LABELS[type]))
          .replace("\\{interests\\}", "(.+?)")
          .replace(/\\\.$/, "")}(?:\\.|\\.\\.\\.)?$`,
      ),
  ),
);

/**
 * Whether a description no longer fits its persona, so a backstory must not quote it: it names
 * a suggested persona name that is not this persona's (an auto-fill line from before a rename),
 * or it is an auto-fill line about interests that are no longer the selected ones.
 */
export function isStaleDescription(description: string, persona: { name: string; interests?: readonly string[] }): boolean {
  const text = description.trim();
  const own = persona.name.trim().toLowerCase();
  const lower = text.toLowerCase();
  if (ALL_SUGGESTED_NAMES.some((name) => name.toLowerCase() !== own && lower.includes(name.toLowerCase()))) return true;
  for (const pattern of TEMPLATE_PATTERNS) {
    const match = pattern.exec(text);
    if (!match) continue;
    const named = match[1]!.split(/, | and /).map((word) => word.trim());
    if (named.some((word) => word.endsWith("..."))) return false; // cut short: what is left cannot be compared
    const selected = new Set(persona.interests ?? []);
    return named.length !== selected.size || named.some((word) => !selected.has(word));
  }
  return false;
}
