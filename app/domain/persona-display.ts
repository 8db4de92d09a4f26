// How a persona reads on its page and cards (docs/product.md, Personas and Persona page).
import { INTERESTS, PERSONA_TYPE_LABELS, type Gender, type Interest, type PersonaType } from "./persona";

export const PERSONA_PAGE_TEXT = {
  notFoundTitle: "Persona Not Found",
  notFoundText: "The persona you're looking for doesn't exist or has been deleted.",
  back: "Back to My Personas",
  fullProfile: "Full Profile",
  basicInformation: "Basic Information",
  noImage: "No reference image yet",
  viewDetails: "View Details",
  continueCreating: "Continue Creating",
  edit: "Edit",
} as const;

/** docs/product.md, Personas: Active (green), In Progress (blue); on the detail page anything else shows as Archived (grey). */
export function statusBadge(status: string): { label: string; tone: "green" | "blue" | "grey" } {
  if (status === "active") return { label: "Active", tone: "green" };
  if (status === "in_progress") return { label: "In Progress", tone: "blue" };
  return { label: "Archived", tone: "grey" };
}

/** docs/product.md, Personas: the type's label, or 'Character' when it is missing. */
export function typeLabel(type: string | null | undefined): string {
  return type && type in PERSONA_TYPE_LABELS ? PERSONA_TYPE_LABELS[type as PersonaType] : "Character";
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

// Building an Intl formatter is costly; one serves every card. Formatting costs a few
// microseconds a time, and a page of cards asks for the same few phrases ('2 days ago'):
// each phrase is formatted once (units × amounts: a few hundred at most).
let formatter: Intl.RelativeTimeFormat | undefined;
const phrases = new Map<string, string>();
const PHRASES_KEPT = 1_000;

function phrase(amount: number, unit: Intl.RelativeTimeFormatUnit): string {
  const key = `${amount} ${unit}`;
  let found = phrases.get(key);
  if (found === undefined) {
    found = (formatter ??= new Intl.RelativeTimeFormat("en", { numeric: "auto" })).format(amount, unit);
    if (phrases.size >= PHRASES_KEPT) phrases.clear();
    phrases.set(key, found);
  }
  return found;
}

/** "3 days ago", "just now": the created date as relative time. */
export function relativeTime(date: Date | string, now: Date = new Date()): string {
  const seconds = Math.round((new Date(date).getTime() - now.getTime()) / 1000);
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return phrase(Math.round(seconds / size), unit);
  }
  return "just now";
}

export const GENDER_LABELS: Record<Gender, string> = {
  male: "Male",
  female: "Female",
  "non-binary": "Non-binary",
  other: "Other",
};

export const INTEREST_LABELS: Record<Interest, string> = Object.fromEntries(
  INTERESTS.map((interest) => [interest, interest[0]!.toUpperCase() + interest.slice(1)]),
) as Record<Interest, string>;

/** The Review step's and the persona page's texts for empty values (docs/product.md, Wizard). */
export const reviewFallbacks = {
  notSpecified: "Not specified",
  description: "No description provided",
  interests: "No interests selected",
  personality: "No personality traits selected",
  backstory: "No backstory provided",
} as const;
