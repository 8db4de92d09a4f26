// Lore's words and kinds (docs/product.md, Lore), apart from its rules (lorebook.ts), so that a
// page that only names lore does not load the schema library.

export const LORE_KINDS = ["person", "place", "group", "event", "secret", "thing"] as const;
export type LoreKind = (typeof LORE_KINDS)[number];
export const LORE_KIND_LABELS: Record<LoreKind, string> = {
  person: "Person",
  place: "Place",
  group: "Group",
  event: "Event",
  secret: "Secret",
  thing: "Thing",
};

export const LORE_TEXT = {
  title: "Lore",
  empty: "No lore yet: entries for the people, places, groups, events and secrets this persona knows.",
  intro:
    "Entries enter a conversation only when one of their keys comes up in the last 4 messages, up to 3,000 characters at a time, so a long backstory does not crowd every reply.",
  pageTitle: (name: string) => `${name}'s lore`,
  open: "Open Lore",
  add: "Add Entry",
  edit: "Edit",
  save: "Save Entry",
  delete: "Delete",
  enable: "Enable",
  disable: "Disable",
  moveUp: "Move up",
  moveDown: "Move down",
  search: "Search lore",
  clearSearch: "Clear search",
  build: "Build lorebook from backstory",
  keep: "Keep selected",
  used: "Lore used",
  limits: "Up to 200 entries, each up to 2,000 characters, with up to 20 keys of up to 100 characters.",
} as const;
