// 'Import a Character Card' on the library page (docs/product.md, Exports and character cards):
// the form's one rule, that a file was chosen, and its message. Apart from ./card-import.ts (the
// form's schema, for the action) so that the library page ships no schema library.

export const CARD_IMPORT_MESSAGES = {
  empty: "Choose a character card file (.png or .json) to import.",
} as const;

/** A chosen file (a file input left empty posts a nameless, empty one). */
export function isChosenFile(value: unknown): value is File {
  return typeof File !== "undefined" && value instanceof File && value.size > 0;
}
