// Editing the Extended Persona Profile, the persona's fact sheet (docs/product.md, Extended
// Persona Profile and Fact sheet): one section at a time, each field checked with its own
// message; 'Regenerate' draws a section (or the whole profile) anew and asks first when the
// creator has edited it. Pure: the form, the action and the service share it.
import {
  EXTENDED_PROFILE_SECTIONS,
  extendedProfile,
  extendedProfileValue,
  type ExtendedProfile,
  type ExtendedProfileField,
  type ExtendedProfileInput,
} from "./extended-profile";

export const PROFILE_SECTION_KEYS = ["background", "personal", "social", "goals", "additional"] as const;
export type ProfileSectionKey = (typeof PROFILE_SECTION_KEYS)[number];

const SECTION_TITLES: Record<ProfileSectionKey, string> = {
  background: "Background",
  personal: "Personal",
  social: "Social Circle",
  goals: "Goals & Philosophy",
  additional: "Additional Info",
};

export interface ProfileSection {
  key: ProfileSectionKey;
  title: string;
  fields: readonly { key: ExtendedProfileField; label: string; list: boolean }[];
}

const LIST_FIELDS = new Set<ExtendedProfileField>(["languages", "hobbies", "favoritePlaces", "influences", "secretSkills"]);

export const PROFILE_SECTIONS: readonly ProfileSection[] = PROFILE_SECTION_KEYS.map((key) => {
  const section = EXTENDED_PROFILE_SECTIONS.find((s) => s.title === SECTION_TITLES[key])!;
  return { key, title: section.title, fields: section.fields.map((f) => ({ ...f, list: LIST_FIELDS.has(f.key) })) };
});

export function profileSection(key: unknown): ProfileSection | null {
  return PROFILE_SECTIONS.find((section) => section.key === key) ?? null;
}

/** The section a field belongs to. */
export function sectionOfField(field: ExtendedProfileField): ProfileSectionKey {
  return PROFILE_SECTIONS.find((section) => section.fields.some((f) => f.key === field))!.key;
}

export const PROFILE_LIMITS = { textMax: 300, listItemsMax: 8, listItemMax: 100 } as const;

export const PROFILE_MESSAGES = {
  textMax: (label: string) => `${label} must be ${PROFILE_LIMITS.textMax} characters or less`,
  listItemsMax: (label: string) => `${label}: at most ${PROFILE_LIMITS.listItemsMax} items`,
  listItemMax: (label: string) => `${label}: each item must be ${PROFILE_LIMITS.listItemMax} characters or less`,
  characters: "Text cannot contain control characters",
  type: "Must be text",
  list: (label: string) => `${label} must be a list of text`,
  noSection: "There is no such section of the profile.",
} as const;

export const PROFILE_TEXT = {
  edit: "Edit",
  regenerate: "Regenerate",
  regenerateAll: "Regenerate Profile",
  pageTitle: (name: string, section: string) => `${name}: ${section}`,
  pageIntro: "These are the persona's facts: its backstory, chat and exports state them. Leave a field empty if it should not be stated.",
  save: "Save Section",
  saving: "Saving...",
  cancel: "Cancel",
  confirmTitle: (section: string) => `Regenerate ${section}?`,
  confirmAllTitle: "Regenerate the whole profile?",
  confirmText:
    "You edited this yourself. Regenerating replaces your text with newly generated details; the current profile stays in the history.",
  confirm: "Regenerate",
  keep: "Keep My Text",
} as const;

export const PROFILE_TOASTS = {
  saved: { title: "Profile Updated", description: "The persona's texts now state these facts." },
  unchanged: { title: "Nothing to Save", description: "This section already says that, so no new version was made." },
  failed: { title: "Profile Not Saved", description: "Please fix the highlighted fields and try again." },
  regenerated: { title: "Profile Regenerated", description: "New details were drawn." },
  backstoryBehind: "The backstory still tells the earlier facts: generate it again in Edit to match.",
} as const;

/** A field's form name: conform reads dots as nesting, so 'socialCircle.family' is sent as 'socialCircle_family'. */
export const formName = (field: ExtendedProfileField) => field.replace(".", "_");

/** A section's values as its form shows them. */
export function sectionFormValues(profile: ExtendedProfile, section: ProfileSection): Record<string, string> {
  return Object.fromEntries(
    section.fields.map((f) => {
      const value = extendedProfileValue(profile, f.key);
      return [formName(f.key), Array.isArray(value) ? value.join("\n") : value];
    }),
  );
}

function setField(profile: ExtendedProfile, field: ExtendedProfileField, value: string | string[]): ExtendedProfile {
  switch (field) {
    case "socialCircle.family":
    case "socialCircle.friends":
    case "socialCircle.colleagues":
      return { ...profile, socialCircle: { ...profile.socialCircle, [field.split(".")[1]!]: value as string } };
    case "goals.short":
    case "goals.long":
      return { ...profile, goals: { ...profile.goals, [field.split(".")[1]!]: value as string } };
    default:
      return { ...profile, [field]: value };
  }
}

/** The profile with the given fields of one section replaced by checked values; fields not given stay. */
export function withSection(
  profile: ExtendedProfile,
  section: ProfileSection,
  values: Partial<Record<ExtendedProfileField, string | string[]>>,
): ExtendedProfile {
  return section.fields.reduce((next, f) => (values[f.key] === undefined ? next : setField(next, f.key, values[f.key]!)), profile);
}

/** Whether two profiles state the same facts, field by field. */
export function sameFacts(a: ExtendedProfile, b: ExtendedProfile): boolean {
  return PROFILE_SECTIONS.every((section) =>
    section.fields.every((f) => JSON.stringify(extendedProfileValue(a, f.key)) === JSON.stringify(extendedProfileValue(b, f.key))),
  );
}

/**
 * The profile with a section (or all of them) drawn anew: another draw of the same generator,
 * from the persona's basic information. The birth year stays.
 */
export function regenerateSections(
  profile: ExtendedProfile,
  input: ExtendedProfileInput,
  sections: readonly ProfileSection[],
  draw: number,
): ExtendedProfile {
  const fresh = extendedProfile({ ...input, id: `${input.id ?? input.name}\u0000draw ${draw}` });
  return sections.reduce(
    (next, section) => section.fields.reduce((acc, f) => setField(acc, f.key, extendedProfileValue(fresh, f.key)), next),
    profile,
  );
}

/** The sections the creator edited, as the stored sheet records them (an `edited` list next to the fields). */
export function editedSections(stored: unknown): ProfileSectionKey[] {
  const edited = stored && typeof stored === "object" ? (stored as { edited?: unknown }).edited : undefined;
  return Array.isArray(edited) ? PROFILE_SECTION_KEYS.filter((key) => edited.includes(key)) : [];
}

/** The profile as lines of text ('Birthplace: …'), section by section: what history compares. */
export function profileText(profile: ExtendedProfile): string {
  return PROFILE_SECTIONS.flatMap((section) =>
    section.fields.map((f) => {
      const value = extendedProfileValue(profile, f.key);
      return `${f.label}: ${Array.isArray(value) ? value.join(", ") : value}`;
    }),
  ).join("\n");
}
