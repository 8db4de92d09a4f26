// A character card file as it came (docs/cards.md): a PNG with a `ccv3`/`chara` chunk, a CharX zip,
// or JSON, read as hostile input. Pure work on bytes, no database: the import reads a large file on
// a thread of its own (app/infra/compute/card-read.server.ts). A file refused for what it is
// throws CardFileError with the answer's status and a message a creator can act on.
import { CARD_IMPORT_MESSAGES } from "~/domain/card-file";
import { checkCard, type CardContainer, type CardFinding } from "~/domain/card-check";
import { CARD_LIMITS, parseCard } from "~/domain/character-card";
import { CHARX_LIMITS, CHARX_MESSAGES, charxAssetPath, imageKind } from "~/domain/charx";
import { JsonLimitError, parseJsonWithinLimits } from "~/domain/json-limits";

import { hasPngSignature, PngError, readCardFromPng, readPngTextChunks, withoutCardChunks } from "./png.server";
import { hasZipSignature, readZip, ZipError } from "./zip.server";

/** A card file refused: the status to answer with (400, 413), its message and a code for the API. */
export class CardFileError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = "CardFileError";
  }
}

export const MAX_CARD_BYTES = 8 * 1024 * 1024;

export const IMPORT_MESSAGES = {
  empty: CARD_IMPORT_MESSAGES.empty,
  tooLarge: `This file is too large. A character card can be at most ${MAX_CARD_BYTES / 1024 / 1024} MB.`,
  notJson: "This file is neither a PNG character card nor valid JSON.",
  notUtf8: "This JSON file is not valid UTF-8 text.",
} as const;

/** JSON text of a card file, or a 400 that says what is wrong with it. */
function jsonCard(bytes: Uint8Array, where = "This JSON file"): unknown {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new CardFileError(400, where === "This JSON file" ? IMPORT_MESSAGES.notUtf8 : `${where} is not valid UTF-8 text.`);
  }
  try {
    return parseJsonWithinLimits(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    if (error instanceof JsonLimitError) throw new CardFileError(400, error.message, "json_limits");
    throw new CardFileError(400, where === "This JSON file" ? IMPORT_MESSAGES.notJson : `${where} is not valid JSON.`);
  }
}

/** What a card file holds: the card, its picture, what its container said, and a CharX's other images. */
export interface CardFile {
  card: unknown;
  picture?: Uint8Array;
  container: CardContainer;
  assets?: { uri: string; bytes: Uint8Array }[];
}

/**
 * A CharX (docs/cards.md, CharX): its card.json, the icon named in its assets as the picture,
 * and its other image assets. Read as hostile input (infra/formats/zip.server.ts): a file that is
 * no zip, unsafe paths, too many entries, an entry or a whole over the limits (a zip bomb) are a
 * 400 that says so, and nothing is stored.
 */
function readCharx(bytes: Uint8Array): CardFile {
  const read = (want: (name: string) => boolean) => {
    try {
      return readZip(bytes, CHARX_LIMITS, want);
    } catch (error) {
      if (error instanceof ZipError) throw new CardFileError(400, CHARX_MESSAGES.unreadable(error.message), `charx_${error.code}`);
      throw error;
    }
  };
  const [cardEntry] = read((name) => name === "card.json");
  if (!cardEntry) throw new CardFileError(400, CHARX_MESSAGES.noCard, "charx_no_card");
  const card = jsonCard(cardEntry.bytes, "This CharX file's card.json");
  const data = card && typeof card === "object" && "data" in card ? (card as { data: unknown }).data : null;
  const listed =
    data && typeof data === "object" && Array.isArray((data as { assets?: unknown }).assets) ? (data as { assets: unknown[] }).assets : [];
  const assets = listed.filter(
    (asset): asset is { type?: unknown; name?: unknown; uri: string } =>
      !!asset && typeof asset === "object" && typeof (asset as { uri?: unknown }).uri === "string",
  );
  const uriOf = new Map<string, string>();
  for (const asset of assets.slice(0, CARD_LIMITS.listMax)) {
    const at = charxAssetPath(asset.uri);
    if (at) uriOf.set(at, asset.uri);
  }
  const files = uriOf.size ? read((name) => uriOf.has(name)) : [];
  const icon = assets.find((asset) => asset.type === "icon" && asset.name === "main") ?? assets.find((asset) => asset.type === "icon");
  const iconPath = icon ? charxAssetPath(icon.uri) : null;
  const picture = files.find((file) => file.name === iconPath)?.bytes;
  const others = files
    .filter((file) => file.name !== iconPath && imageKind(file.bytes) !== null)
    .map((file) => ({ uri: uriOf.get(file.name)!, bytes: file.bytes }));
  return { card, picture, container: { kind: "charx" }, assets: others };
}

/** The card inside a file: a PNG with a `ccv3`/`chara` chunk, a CharX zip, or JSON. Anything else is a 400. */
export function readCardFile(bytes: Uint8Array): CardFile {
  if (bytes.byteLength === 0) throw new CardFileError(400, IMPORT_MESSAGES.empty);
  if (bytes.byteLength > MAX_CARD_BYTES) throw new CardFileError(413, IMPORT_MESSAGES.tooLarge);
  if (hasPngSignature(bytes)) {
    try {
      return {
        card: readCardFromPng(bytes, { maxBytes: MAX_CARD_BYTES }),
        picture: withoutCardChunks(bytes),
        container: { kind: "png", chunks: readPngTextChunks(bytes, { maxBytes: MAX_CARD_BYTES }).map((chunk) => chunk.keyword) },
      };
    } catch (error) {
      if (error instanceof PngError) throw new CardFileError(400, error.message, `png_${error.code}`);
      throw error;
    }
  }
  if (hasZipSignature(bytes)) return readCharx(bytes);
  return { card: jsonCard(bytes), container: { kind: "json" } };
}

type ParsedCard = Extract<ReturnType<typeof parseCard>, { ok: true }>["card"];

/** A card file read, its card parsed into a persona's fields, and the card check of the file as it came. */
export interface ReadCard {
  file: CardFile;
  parsed: ParsedCard;
  findings: CardFinding[];
}

/** Parses a read file's card and checks it (docs/cards.md, Card check); a card that is no card is a CardFileError. */
export function checkReadCard(file: CardFile): ReadCard {
  const parsed = parseCard(file.card);
  if (!parsed.ok) {
    throw parsed.tooLarge
      ? new CardFileError(413, parsed.message, "card_too_large")
      : new CardFileError(400, parsed.message, "invalid_card");
  }
  return { file, parsed: parsed.card, findings: checkCard({ card: file.card, container: file.container }) };
}

/** A card file's bytes read, parsed and checked: what an import does before it stores anything. */
export function readAndCheckCard(bytes: Uint8Array): ReadCard {
  return checkReadCard(readCardFile(bytes));
}
