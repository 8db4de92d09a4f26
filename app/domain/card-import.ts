// 'Import a Character Card' on the library page (docs/product.md, Exports and character cards):
// the form's schema, for conform. The page checks that a file was chosen before posting; the
// action parses the post with it; what the file holds is the import service's to judge.
import * as z from "zod";

export const CARD_IMPORT_MESSAGES = {
  empty: "Choose a character card file (.png or .json) to import.",
} as const;

/** A chosen file (a file input left empty posts a nameless, empty one). */
const chosenFile = (value: unknown): value is File => typeof File !== "undefined" && value instanceof File && value.size > 0;

export const cardImportSchema = z.object({
  file: z.custom<File>(chosenFile, { error: CARD_IMPORT_MESSAGES.empty }),
});
