// CharX (docs/cards.md, CharX): the Character Card V3 zip — `card.json` at its root and the card's
// assets as files, named in `data.assets` by `embeded://path` URIs (the V3 spec's spelling;
// `embedded://` is read too). Pure: what the archive may hold, and where an asset lives in it.
export const CHARX_LIMITS = {
  /** Entries in the archive. */
  maxEntries: 500,
  /** Bytes of one entry once unpacked. */
  maxEntryBytes: 8 * 1024 * 1024,
  /** Bytes of the whole archive once unpacked. */
  maxTotalBytes: 24 * 1024 * 1024,
} as const;

export const CHARX_MESSAGES = {
  unreadable: (why: string) => `This CharX file could not be read: ${why}`,
  noCard: "This CharX file has no card.json.",
} as const;

/** The V3 spec's icon path for the main picture, and its URI. */
export const CHARX_ICON_PATH = "assets/icon/images/main.png";
export const CHARX_ICON_URI = `embeded://${CHARX_ICON_PATH}`;

/** The archive path of an embedded asset's URI; null for any other URI (http, ccdefault:, data:…). */
export function charxAssetPath(uri: string): string | null {
  const match = /^embedd?ed:\/\/(.+)$/.exec(uri);
  if (!match) return null;
  const path = match[1]!;
  return path.split("/").some((part) => part === ".." || part === "." || part === "") || path.includes("\\") ? null : path;
}

/** The image type of bytes by their signature, or null. */
export function imageKind(bytes: Uint8Array): "png" | "jpg" | "webp" | null {
  if (bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return "png";
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpg";
  if (bytes[0] === 0x52 && bytes[1] === 0x49 && bytes[2] === 0x46 && bytes[3] === 0x46 && bytes[8] === 0x57 && bytes[9] === 0x45)
    return "webp";
  return null;
}
