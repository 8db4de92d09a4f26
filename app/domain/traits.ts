// Choosing personality traits and interests in the wizard (docs/product.md, Wizard): at most 7 traits
// (a click beyond 7 is ignored, a click on a selected trait deselects it), at most 3
// interests (a fourth is refused with the 'Maximum Interests' toast), and auto-select.
import { INTERESTS, PERSONA_LIMITS, TRAIT_CATEGORIES, TRAITS, type Interest, type TraitCategory } from "./persona";
import { intBetween, pick, pickMany, type Random } from "./random";

export type Trait = (typeof TRAIT_CATEGORIES)[TraitCategory][number];

export const TRAIT_CATEGORY_NAMES = Object.keys(TRAIT_CATEGORIES) as TraitCategory[];

const CATEGORY_OF = new Map<string, TraitCategory>(
  TRAIT_CATEGORY_NAMES.flatMap((category) => TRAIT_CATEGORIES[category].map((trait) => [trait, category] as const)),
);

export function isTrait(value: unknown): value is Trait {
  return typeof value === "string" && CATEGORY_OF.has(value);
}

export function isInterest(value: unknown): value is Interest {
  return typeof value === "string" && (INTERESTS as readonly string[]).includes(value);
}

/** The category a trait belongs to, or undefined for a name that is in none. */
export function traitCategory(trait: string): TraitCategory | undefined {
  return CATEGORY_OF.get(trait);
}

/**
 * The selection after clicking a trait: a selected trait is deselected; an unselected one is
 * added unless 7 are already selected (the click is ignored); an unknown name changes nothing.
 * Always returns a new array, without names that are no trait.
 */
export function toggleTrait(selected: readonly string[], trait: string): Trait[] {
  const current = selected.filter(isTrait);
  if (current.includes(trait as Trait)) return current.filter((t) => t !== trait);
  if (!isTrait(trait) || current.length >= PERSONA_LIMITS.traitsMax) return current;
  return [...current, trait];
}

export const TRAIT_CAP_TEXT = {
  /** Beside the count once 7 are selected: the other chips are unavailable until one is removed. */
  full: `That's the maximum: deselect a trait to choose another.`,
  title: "Maximum Traits",
  /** A form sent without JavaScript with more ticked than allowed: the extra ticks are ignored. */
  ignored: (traits: readonly string[]) =>
    `You can select up to ${PERSONA_LIMITS.traitsMax} traits only, so ${traits.join(", ")} ${traits.length === 1 ? "was" : "were"} not added.`,
} as const;

/**
 * The traits of a form posted without JavaScript, where a creator can tick more than 7: those
 * selected before stay, the new ticks are added in order until 7, the rest are ignored (as a
 * click beyond 7 is, docs/product.md, Wizard) and named, so the cap is never silent.
 */
export function capTraits(posted: readonly string[], before: readonly string[]): { kept: Trait[]; ignored: Trait[] } {
  const ticked = [...new Set(posted.filter(isTrait))];
  if (ticked.length <= PERSONA_LIMITS.traitsMax) return { kept: ticked, ignored: [] };
  const earlier = new Set(before);
  const kept = ticked.filter((t) => earlier.has(t)).slice(0, PERSONA_LIMITS.traitsMax);
  const ignored: Trait[] = [];
  for (const trait of ticked) {
    if (kept.includes(trait)) continue;
    if (kept.length < PERSONA_LIMITS.traitsMax) kept.push(trait);
    else ignored.push(trait);
  }
  return { kept: ticked.filter((t) => kept.includes(t)), ignored };
}

/**
 * Auto-select: one random trait from each of the six categories, then 1 or 2 more distinct
 * ones, so 7 or 8 before the cap (docs/product.md, Wizard); the result is then capped at `max` (7). The six
 * category picks come first, in category order, so the cap only ever drops a top-up trait.
 */
export function autoSelectTraits(random: Random = Math.random, max: number = PERSONA_LIMITS.traitsMax): Trait[] {
  const perCategory = TRAIT_CATEGORY_NAMES.map((category) => pick(TRAIT_CATEGORIES[category], random));
  const rest = (TRAITS as Trait[]).filter((trait) => !perCategory.includes(trait));
  const extra = pickMany(rest, intBetween(1, 2, random), random);
  return [...perCategory, ...extra].slice(0, Math.max(0, max));
}

export interface InterestToggle {
  selected: Interest[];
  /** True when a fourth interest was refused: show MAX_INTERESTS_TOAST. */
  refused: boolean;
}

/** The selection after clicking an interest: deselect, add, or refuse a fourth (unknown names are dropped). */
export function toggleInterest(selected: readonly string[], interest: string): InterestToggle {
  const current = selected.filter(isInterest);
  if (current.includes(interest as Interest)) {
    return { selected: current.filter((i) => i !== interest), refused: false };
  }
  if (!isInterest(interest)) return { selected: current, refused: false };
  if (current.length >= PERSONA_LIMITS.interestsMax) return { selected: current, refused: true };
  return { selected: [...current, interest], refused: false };
}
