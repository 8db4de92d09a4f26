// Persona history (docs/product.md, History): the kinds of change a version records, how a version's change
// reads in one line ('Traits: +Curious −Reserved'), and two versions compared field by field
// (changed fields first; lists as added/removed items; the backstory and description word by
// word). Pure and isomorphic: the pages, the API and the tests share it.
import { GENDER_LABELS, INTEREST_LABELS, typeLabel } from "./persona-display";
import { IMAGE_STYLES } from "./persona";
import { hasChanges, listDiff, wordDiff, type DiffPart } from "./word-diff";

/** What made a version (persona_versions.kind, decided by the database's trigger). */
export const VERSION_KINDS = ["created", "draft_saved", "draft_completed", "edited", "image", "restored", "imported"] as const;
export type VersionKind = (typeof VERSION_KINDS)[number];

export const HISTORY_PAGE_SIZE = 20;
export const HISTORY_PAGE_SIZE_MAX = 100;

/** The largest version number a URL may name; anything above is simply not a version (404). */
export const VERSION_NUMBER_MAX = 2_147_483_647;

export const HISTORY_TEXT = {
  title: "History",
  link: "History",
  compare: "Compare",
  compareTitle: "Compare versions",
  from: "From version",
  to: "To version",
  showDifferences: "Show differences",
  noDifferences: "No differences",
  unchanged: "Unchanged",
  restore: "Restore",
  restoreWithImage: (n: number) => `Also bring back version ${n}'s reference image`,
  restoreImageNote: "Off: the persona keeps its current reference image.",
  imageOf: (n: number) => `Reference image of version ${n}`,
  restoreTitle: (n: number) => `Restore version ${n}?`,
  restoreText: (n: number) =>
    `The persona's fields become those of version ${n}, saved as a new version. Every version stays in the history, so you can come back to the current one.`,
  restoreConfirm: "Restore this version",
  cancel: "Cancel",
  current: "Current",
  version: (n: number) => `Version ${n}`,
  added: "Added",
  removed: "Removed",
  kept: "Kept",
  empty: "(empty)",
} as const;

export const HISTORY_MESSAGES = {
  versionNotFound: "Version Not Found",
  alreadyCurrent: "This is already the current version",
  sameAsCurrent: "This version has the same fields as the current one, so restoring it would change nothing.",
} as const;

export const HISTORY_TOASTS = {
  restored: (from: number, as: number) => ({
    title: "Version Restored",
    description: `Restored from version ${from}; it is now version ${as}.`,
  }),
  restoreFailed: { title: "Restore Failed" },
} as const;

/** The version number in a URL: digits only, 1 or more, within range; anything else is no version. */
export function parseVersionNumber(value: string | null | undefined): number | null {
  if (!value || !/^[0-9]{1,10}$/.test(value)) return null;
  const n = Number(value);
  return n >= 1 && n <= VERSION_NUMBER_MAX ? n : null;
}

export function kindLabel(kind: string, restoredFrom?: number | null): string {
  switch (kind) {
    case "created":
      return "Created";
    case "draft_saved":
      return "Draft saved";
    case "draft_completed":
      return "Draft completed";
    case "edited":
      return "Edited";
    case "image":
      return "Reference image changed";
    case "restored":
      return restoredFrom ? `Restored from version ${restoredFrom}` : "Restored";
    case "imported":
      return "Imported from a character card";
    default:
      return "Changed";
  }
}

/** The fields a version holds that a creator sees and compares. */
export interface VersionFields {
  name: string;
  type: string | null;
  gender: string | null;
  ageRange: string | null;
  interests: string[];
  description: string | null;
  personality: string[];
  backstory: string | null;
  imageUrl: string | null;
  imageStyle: string;
  status: string;
  /** The voice as text (persona-voice.ts voiceText); null in versions written before history held it. */
  voice: string | null;
  /** The Extended Persona Profile as text (profile-edit.ts profileText); null in versions written before history held it. */
  profile: string | null;
}

/** The lorebook as text (lorebook.ts lorebookText), entry by entry; null in versions written before history held it. */
export type VersionLore = { lore: string | null };

/** What the list needs of a version to summarise it: no long texts, only whether they changed. */
export type VersionSummaryFields = Omit<VersionFields, "backstory"> & {
  backstoryChanged: boolean;
  backstoryEmpty: boolean;
  /** A digest of the lorebook (null: not held) and its number of entries: whether it changed, without reading it. */
  loreDigest?: string | null;
  loreCount?: number | null;
};

function interestLabel(item: string) {
  return INTEREST_LABELS[item as keyof typeof INTEREST_LABELS] ?? item;
}

function genderLabel(gender: string | null) {
  return gender ? (GENDER_LABELS[gender as keyof typeof GENDER_LABELS] ?? gender) : HISTORY_TEXT.empty;
}

function styleLabel(style: string) {
  return (IMAGE_STYLES as readonly string[]).includes(style) ? style.replace("_", " ") : style;
}

function statusLabel(status: string) {
  return status === "in_progress" ? "Draft" : status === "active" ? "Active" : "Archived";
}

/**
 * One line saying what a version changed compared with the one before it:
 * 'Name: Nova → Nova Quill; Traits: +Curious −Reserved; Backstory rewritten'.
 */
export function changeSummary(previous: VersionSummaryFields | null, current: VersionSummaryFields): string {
  if (!previous) return `First version: ${current.name}`;
  const parts: string[] = [];
  if (previous.name !== current.name) parts.push(`Name: ${previous.name} → ${current.name}`);
  if (previous.type !== current.type) parts.push(`Type: ${typeLabel(previous.type)} → ${typeLabel(current.type)}`);
  if (previous.gender !== current.gender) parts.push(`Gender: ${genderLabel(previous.gender)} → ${genderLabel(current.gender)}`);
  if (previous.ageRange !== current.ageRange) {
    parts.push(`Age range: ${previous.ageRange ?? HISTORY_TEXT.empty} → ${current.ageRange ?? HISTORY_TEXT.empty}`);
  }
  const signed = (label: string, before: string[], after: string[], show: (item: string) => string = (i) => i) => {
    const { added, removed } = listDiff(before, after);
    if (added.length || removed.length) {
      parts.push(`${label}: ${[...added.map((i) => `+${show(i)}`), ...removed.map((i) => `−${show(i)}`)].join(" ")}`);
    }
  };
  signed("Interests", previous.interests, current.interests, interestLabel);
  signed("Traits", previous.personality, current.personality);
  if ((previous.description ?? "") !== (current.description ?? "")) {
    parts.push(current.description ? (previous.description ? "Description changed" : "Description added") : "Description removed");
  }
  if (current.backstoryChanged) parts.push(current.backstoryEmpty ? "Backstory removed" : "Backstory rewritten");
  if (previous.voice !== null && current.voice !== null && previous.voice !== current.voice) {
    parts.push(current.voice ? (previous.voice ? "Voice changed" : "Voice added") : "Voice removed");
  }
  if (previous.profile !== null && current.profile !== null && previous.profile !== current.profile) parts.push("Profile changed");
  if (previous.loreDigest && current.loreDigest && previous.loreDigest !== current.loreDigest) {
    const [was, now] = [previous.loreCount ?? 0, current.loreCount ?? 0];
    parts.push(
      now === was
        ? "Lore changed"
        : now > was
          ? `Lore: +${now - was} ${now - was === 1 ? "entry" : "entries"}`
          : `Lore: −${was - now} ${was - now === 1 ? "entry" : "entries"}`,
    );
  }
  if (previous.imageUrl !== current.imageUrl) parts.push(current.imageUrl ? "Reference image changed" : "Reference image removed");
  if (previous.imageStyle !== current.imageStyle)
    parts.push(`Image style: ${styleLabel(previous.imageStyle)} → ${styleLabel(current.imageStyle)}`);
  const wasDraft = previous.status === "in_progress";
  const isDraft = current.status === "in_progress";
  if (wasDraft !== isDraft) parts.push(isDraft ? "Back to draft" : "Completed");
  return parts.length ? parts.join("; ") : "No visible changes";
}

export type FieldKey =
  | "name"
  | "type"
  | "gender"
  | "ageRange"
  | "interests"
  | "personality"
  | "description"
  | "backstory"
  | "voice"
  | "profile"
  | "lore"
  | "imageUrl"
  | "imageStyle"
  | "status";

export type FieldComparison =
  | { field: FieldKey; label: string; changed: boolean; kind: "value"; from: string; to: string }
  | { field: FieldKey; label: string; changed: boolean; kind: "list"; added: string[]; removed: string[]; kept: string[] }
  | { field: FieldKey; label: string; changed: boolean; kind: "text"; parts: DiffPart[] };

export interface VersionComparison {
  from: number;
  to: number;
  /** Changed fields first (in the persona page's order), then the unchanged ones. */
  fields: FieldComparison[];
  changed: boolean;
}

/** Two versions compared field by field; a version with itself has no differences. */
export function compareVersions(
  from: VersionFields & Partial<VersionLore> & { version: number },
  to: VersionFields & Partial<VersionLore> & { version: number },
): VersionComparison {
  const value = (field: FieldKey, label: string, a: string, b: string): FieldComparison => ({
    field,
    label,
    changed: a !== b,
    kind: "value",
    from: a,
    to: b,
  });
  const items = (field: FieldKey, label: string, a: string[], b: string[], show: (item: string) => string = (i) => i): FieldComparison => {
    const diff = listDiff(a, b);
    return {
      field,
      label,
      changed: diff.added.length > 0 || diff.removed.length > 0,
      kind: "list",
      added: diff.added.map(show),
      removed: diff.removed.map(show),
      kept: diff.kept.map(show),
    };
  };
  const text = (field: FieldKey, label: string, a: string | null, b: string | null): FieldComparison => {
    const parts = wordDiff(a ?? "", b ?? "");
    return { field, label, changed: hasChanges(parts), kind: "text", parts };
  };
  const fields: FieldComparison[] = [
    value("name", "Name", from.name, to.name),
    value("type", "Type", from.type ? typeLabel(from.type) : HISTORY_TEXT.empty, to.type ? typeLabel(to.type) : HISTORY_TEXT.empty),
    value("gender", "Gender", genderLabel(from.gender), genderLabel(to.gender)),
    value("ageRange", "Age range", from.ageRange ?? HISTORY_TEXT.empty, to.ageRange ?? HISTORY_TEXT.empty),
    items("interests", "Interests", from.interests, to.interests, interestLabel),
    items("personality", "Personality traits", from.personality, to.personality),
    text("description", "Description", from.description, to.description),
    text("backstory", "Backstory", from.backstory, to.backstory),
    // Versions from before history held them are compared as the same (nothing is known).
    ...(from.voice !== null && to.voice !== null ? [text("voice", "Voice", from.voice, to.voice)] : []),
    ...(from.profile !== null && to.profile !== null ? [text("profile", "Extended Persona Profile", from.profile, to.profile)] : []),
    ...(typeof from.lore === "string" && typeof to.lore === "string" && (from.lore || to.lore)
      ? [text("lore", "Lore", from.lore, to.lore)]
      : []),
    value("imageUrl", "Reference image", from.imageUrl ?? HISTORY_TEXT.empty, to.imageUrl ?? HISTORY_TEXT.empty),
    value("imageStyle", "Image style", styleLabel(from.imageStyle), styleLabel(to.imageStyle)),
    value("status", "Status", statusLabel(from.status), statusLabel(to.status)),
  ];
  const ordered = [...fields.filter((f) => f.changed), ...fields.filter((f) => !f.changed)];
  return { from: from.version, to: to.version, fields: ordered, changed: ordered.some((f) => f.changed) };
}
