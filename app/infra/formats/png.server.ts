// PNG files for character cards (see domain/character-card.ts): reading and writing tEXt
// chunks, the two card chunks SillyTavern and RisuAI use (`ccv3` for V3, `chara` for V2, each
// base64 of the card's UTF-8 JSON), and a generated portrait for personas without an image,
// so every persona can leave as a card PNG.
//
// An uploaded PNG is hostile input. The reader checks the signature, then walks the chunks
// with every length checked against what is left of the file and every CRC verified; it stops
// at IEND, refuses more than `maxChunks` chunks, more than `maxBytes` of file and more than
// `maxTextBytes` of text, and allocates nothing but the returned strings. Every way a file can
// be wrong ends in a PngError with a sentence for the user.
//
// The chunk layout is small enough to write plainly (the PNG format, ISO/IEC 15948); zlib
// gives the CRC and the deflate.
import { Buffer } from "node:buffer";
import { crc32, deflateSync } from "node:zlib";

import { JSON_LIMITS, JsonLimitError, parseJsonWithinLimits } from "~/domain/json-limits";
import { seededRandom } from "~/domain/random";

export const PNG_SIGNATURE = Uint8Array.from([137, 80, 78, 71, 13, 10, 26, 10]);

export const PNG_LIMITS = {
  /** Largest file read (an upload). */
  maxBytes: 8 * 1024 * 1024,
  /** Most chunks in one file; an 8 MB image in libpng's 8 KB IDAT chunks has about 1,000. */
  maxChunks: 4_096,
  /** Most tEXt bytes in one file. */
  maxTextBytes: 8 * 1024 * 1024,
} as const;

export type PngErrorCode =
  | "not_png"
  | "truncated"
  | "damaged"
  | "too_large"
  | "too_many_chunks"
  | "text_too_large"
  | "no_card"
  | "card_not_base64"
  | "card_not_utf8"
  | "card_not_json"
  | "card_json_limits";

export const PNG_MESSAGES: Record<PngErrorCode, string> = {
  not_png: "This file is not a PNG image.",
  truncated: "This PNG file is truncated.",
  damaged: "This PNG file is damaged.",
  too_large: "This PNG file is too large.",
  too_many_chunks: "This PNG file has too many parts to read.",
  text_too_large: "This PNG file carries too much text to read.",
  no_card: "This PNG image has no character card in it.",
  card_not_base64: "The card data in this PNG is not base64.",
  card_not_utf8: "The card data in this PNG is not UTF-8 text.",
  card_not_json: "The card data in this PNG is not JSON.",
  card_json_limits: `The card data in this PNG is nested too deeply or has too many items (at most ${JSON_LIMITS.maxDepth} levels and ${JSON_LIMITS.maxItems.toLocaleString("en-US")} items).`,
};

export class PngError extends Error {
  constructor(
    readonly code: PngErrorCode,
    message: string = PNG_MESSAGES[code],
  ) {
    super(message);
    this.name = "PngError";
  }
}

export interface PngReadOptions {
  maxBytes?: number;
  maxChunks?: number;
  maxTextBytes?: number;
}

export interface PngTextChunk {
  keyword: string;
  text: string;
}

interface Chunk {
  type: string;
  /** Offset of the chunk's length field. */
  start: number;
  dataStart: number;
  dataEnd: number;
  /** Offset just past the CRC. */
  end: number;
}

export function hasPngSignature(bytes: Uint8Array): boolean {
  return bytes.length >= PNG_SIGNATURE.length && PNG_SIGNATURE.every((byte, i) => bytes[i] === byte);
}

const isLetter = (byte: number) => (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122);

/** Every chunk from the signature to IEND, each checked. */
function walkChunks(bytes: Uint8Array, options: PngReadOptions = {}): Chunk[] {
  const maxBytes = options.maxBytes ?? PNG_LIMITS.maxBytes;
  const maxChunks = options.maxChunks ?? PNG_LIMITS.maxChunks;
  if (bytes.length > maxBytes) throw new PngError("too_large");
  if (!hasPngSignature(bytes)) throw new PngError("not_png");

  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const chunks: Chunk[] = [];
  let offset = PNG_SIGNATURE.length;
  // Each pass moves on by at least 12 bytes, and there are at most maxChunks passes.
  for (;;) {
    if (chunks.length >= maxChunks) throw new PngError("too_many_chunks");
    if (bytes.length - offset < 12) throw new PngError("truncated");
    const length = view.getUint32(offset);
    if (length > 0x7fffffff) throw new PngError("damaged");
    const dataStart = offset + 8;
    if (length > bytes.length - dataStart - 4) throw new PngError("truncated");
    const dataEnd = dataStart + length;
    const typeBytes = bytes.subarray(offset + 4, dataStart);
    if (!typeBytes.every(isLetter)) throw new PngError("damaged");
    const type = String.fromCharCode(...typeBytes);
    if (chunks.length === 0 && (type !== "IHDR" || length !== 13)) throw new PngError("damaged");
    if (crc32(bytes.subarray(offset + 4, dataEnd)) !== view.getUint32(dataEnd)) throw new PngError("damaged");
    chunks.push({ type, start: offset, dataStart, dataEnd, end: dataEnd + 4 });
    offset = dataEnd + 4;
    if (type === "IEND") return chunks;
  }
}

/** The tEXt chunks of a PNG, keyword and text read as Latin-1 (as the PNG format defines tEXt). */
export function readPngTextChunks(bytes: Uint8Array, options: PngReadOptions = {}): PngTextChunk[] {
  const maxTextBytes = options.maxTextBytes ?? PNG_LIMITS.maxTextBytes;
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const texts: PngTextChunk[] = [];
  let textBytes = 0;
  for (const chunk of walkChunks(bytes, options)) {
    if (chunk.type !== "tEXt") continue;
    textBytes += chunk.dataEnd - chunk.dataStart;
    if (textBytes > maxTextBytes) throw new PngError("text_too_large");
    const separator = buffer.indexOf(0, chunk.dataStart);
    // A keyword is 1 to 79 bytes; a chunk without one is skipped like any unknown chunk.
    if (separator < 0 || separator >= chunk.dataEnd || separator === chunk.dataStart || separator - chunk.dataStart > 79) {
      continue;
    }
    texts.push({
      keyword: buffer.toString("latin1", chunk.dataStart, separator),
      text: buffer.toString("latin1", separator + 1, chunk.dataEnd),
    });
  }
  return texts;
}

function encodeChunk(type: string, data: Uint8Array): Buffer {
  const chunk = Buffer.alloc(12 + data.length);
  chunk.writeUInt32BE(data.length, 0);
  chunk.write(type, 4, "latin1");
  chunk.set(data, 8);
  chunk.writeUInt32BE(crc32(chunk.subarray(4, 8 + data.length)), 8 + data.length);
  return chunk;
}

/** PNG spec: 1–79 printable Latin-1 characters, no leading, trailing or double spaces. */
function checkKeyword(keyword: string) {
  if (!/^[\x21-\x7e\xa1-\xff](?:[\x21-\x7e\xa1-\xff]| (?! )){0,78}$/.test(keyword) || keyword.endsWith(" ")) {
    throw new RangeError(`Invalid PNG tEXt keyword: ${JSON.stringify(keyword)}`);
  }
}

/**
 * A new PNG with these tEXt chunks just before IEND; existing tEXt chunks with the same
 * keywords (ignoring case, as card readers do) are removed, everything else kept in order.
 * The text must be Latin-1 without NUL (base64 is).
 */
export function withTextChunks(
  png: Uint8Array,
  chunks: readonly PngTextChunk[],
  options: PngReadOptions = {},
  alsoRemove: readonly string[] = [],
): Buffer {
  for (const { keyword, text } of chunks) {
    checkKeyword(keyword);
    if (/[^\x01-\xff]/.test(text)) throw new RangeError(`PNG tEXt "${keyword}" must be Latin-1 text without NUL`);
  }
  const replaced = new Set([...chunks.map((chunk) => chunk.keyword), ...alsoRemove].map((keyword) => keyword.toLowerCase()));
  const source = Buffer.from(png.buffer, png.byteOffset, png.byteLength);
  const parts: Uint8Array[] = [PNG_SIGNATURE];
  // Our own images may be larger than an upload.
  const all = walkChunks(png, { maxBytes: 256 * 1024 * 1024, maxChunks: 1_000_000, ...options });
  for (const chunk of all) {
    if (chunk.type === "IEND") break;
    if (chunk.type === "tEXt") {
      const separator = source.indexOf(0, chunk.dataStart);
      const keyword = source.toString("latin1", chunk.dataStart, separator < 0 ? chunk.dataEnd : Math.min(separator, chunk.dataEnd));
      if (replaced.has(keyword.toLowerCase())) continue;
    }
    parts.push(source.subarray(chunk.start, chunk.end));
  }
  for (const { keyword, text } of chunks) {
    parts.push(encodeChunk("tEXt", Buffer.concat([Buffer.from(keyword, "latin1"), Buffer.from([0]), Buffer.from(text, "latin1")])));
  }
  parts.push(encodeChunk("IEND", new Uint8Array(0)));
  return Buffer.concat(parts);
}

export const CARD_CHUNKS = { v3: "ccv3", v2: "chara" } as const;

/** The PNG without any text chunk (tEXt, zTXt, iTXt): what a card's picture carries besides the card goes. */
export function withoutTextChunks(png: Uint8Array): Buffer {
  const source = Buffer.from(png.buffer, png.byteOffset, png.byteLength);
  const parts: Uint8Array[] = [PNG_SIGNATURE];
  for (const chunk of walkChunks(png, { maxBytes: 256 * 1024 * 1024, maxChunks: 1_000_000 })) {
    if (chunk.type === "tEXt" || chunk.type === "zTXt" || chunk.type === "iTXt") continue;
    parts.push(source.subarray(chunk.start, chunk.end));
    if (chunk.type === "IEND") break;
  }
  return Buffer.concat(parts);
}

/**
 * A card PNG: the image with `chara` (V2 JSON) then `ccv3` (V3 JSON), each UTF-8 then base64, and
 * no other text chunk, so `chara` is the first: Agnai reads the first text chunk whatever its name
 * (docs/cards.md, What survives where).
 */
export function cardPng(basePng: Uint8Array, v3Json: string, v2Json: string): Buffer {
  const encode = (json: string) => Buffer.from(json, "utf8").toString("base64");
  return withTextChunks(withoutTextChunks(basePng), [
    { keyword: CARD_CHUNKS.v2, text: encode(v2Json) },
    { keyword: CARD_CHUNKS.v3, text: encode(v3Json) },
  ]);
}

/** The picture of a card PNG without its card chunks (an imported card's picture, kept as the reference image). */
export function withoutCardChunks(png: Uint8Array): Buffer {
  return withTextChunks(png, [], {}, [CARD_CHUNKS.v3, CARD_CHUNKS.v2]);
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function decodeCardText(text: string): unknown {
  const compact = text.replace(/\s+/g, "");
  if (compact === "" || !BASE64.test(compact) || compact.length % 4 === 1) throw new PngError("card_not_base64");
  let json: string;
  try {
    json = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(Buffer.from(compact, "base64"));
  } catch {
    throw new PngError("card_not_utf8");
  }
  try {
    return parseJsonWithinLimits(json);
  } catch (error) {
    throw new PngError(error instanceof JsonLimitError ? "card_json_limits" : "card_not_json");
  }
}

/**
 * The card JSON in a PNG, parsed (check it with parseCard): `ccv3` when present and readable,
 * else `chara`, as the V3 spec asks. Keywords are matched ignoring case.
 */
export function readCardFromPng(bytes: Uint8Array, options: PngReadOptions = {}): unknown {
  const chunks = readPngTextChunks(bytes, options);
  const find = (keyword: string) => chunks.find((chunk) => chunk.keyword.toLowerCase() === keyword);
  const v3 = find(CARD_CHUNKS.v3);
  const v2 = find(CARD_CHUNKS.v2);
  if (!v3 && !v2) throw new PngError("no_card");
  if (v3) {
    try {
      return decodeCardText(v3.text);
    } catch (error) {
      if (!v2) throw error;
    }
  }
  return decodeCardText(v2!.text);
}

// ---------------------------------------------------------------------------------------
// A generated portrait: a soft two-colour gradient from the seed and a light head-and-shoulders
// silhouette, the same for the same seed (a persona's id).

type Rgb = [number, number, number];

function hsl(h: number, s: number, l: number): Rgb {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [f(0), f(8), f(4)];
}

/** An 8-bit RGB PNG, `size` × `size`, for a persona without an image. */
export function portraitPng(seed: string, size = 512): Buffer {
  if (!Number.isInteger(size) || size < 16 || size > 2048) throw new RangeError("portraitPng size must be 16–2048");
  const random = seededRandom(`portrait\u0000${seed}`);
  const hue = random() * 360;
  const top = hsl(hue, 0.5, 0.74);
  const bottom = hsl((hue + 25 + random() * 45) % 360, 0.45, 0.44);
  const figure = hsl(hue, 0.35, 0.96);
  const figureAlpha = 0.92;

  // The figure, in units of the image size: a head and the shoulders below it, cut by the edge.
  const head = { x: 0.5, y: 0.4, r: 0.16 };
  const body = { x: 0.5, y: 1.0, rx: 0.35, ry: 0.37 };
  const bodyScale = Math.min(body.rx, body.ry) * size;

  // A soft light behind the head; exp(-(du² + dv²)) splits into a column and a row factor.
  const glowColumn = new Float64Array(size);
  for (let x = 0; x < size; x++) glowColumn[x] = Math.exp(-(((x + 0.5) / size - head.x) ** 2) / 0.06);

  const stride = 1 + size * 3;
  const raw = Buffer.alloc(stride * size);
  const row = new Uint8Array(size * 3);
  for (let y = 0; y < size; y++) {
    const v = (y + 0.5) / size;
    const glowRow = 0.18 * Math.exp(-((v - head.y) ** 2) / 0.06);
    const hy = v - head.y;
    const by = (v - body.y) / body.ry;
    for (let x = 0; x < size; x++) {
      const u = (x + 0.5) / size;
      // Diagonal gradient, lit behind the head.
      const t = Math.min(1, Math.max(0, v * 0.8 + u * 0.2));
      const glow = glowRow * glowColumn[x]!;
      // Signed distances in pixels give anti-aliased edges (the pixel's coverage).
      const hx = u - head.x;
      const headDistance = (Math.sqrt(hx * hx + hy * hy) - head.r) * size;
      const bx = (u - body.x) / body.rx;
      const bodyDistance = (Math.sqrt(bx * bx + by * by) - 1) * bodyScale;
      const coverage = Math.min(1, Math.max(0, 0.5 - Math.min(headDistance, bodyDistance))) * figureAlpha;
      for (let c = 0; c < 3; c++) {
        const background = top[c]! + (bottom[c]! - top[c]!) * t;
        const lit = background + (255 - background) * glow;
        row[x * 3 + c] = Math.round(lit + (figure[c]! - lit) * coverage);
      }
    }
    // Filter type 1 (Sub): each byte minus the one a pixel to the left; gradients then deflate well.
    const line = y * stride;
    raw[line] = 1;
    for (let i = 0; i < row.length; i++) raw[line + 1 + i] = (row[i]! - (i >= 3 ? row[i - 3]! : 0)) & 0xff;
  }

  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  // compression, filter method and interlace stay 0
  return Buffer.concat([
    PNG_SIGNATURE,
    encodeChunk("IHDR", header),
    encodeChunk("IDAT", deflateSync(raw, { level: 6 })),
    encodeChunk("IEND", new Uint8Array(0)),
  ]);
}
