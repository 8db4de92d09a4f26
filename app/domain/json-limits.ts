// Limits on the shape of JSON we accept (API bodies, imported cards), checked by a linear
// scan before or while the text arrives, so a hostile body (megabytes of nested brackets,
// millions of tiny members) is refused before JSON.parse builds anything from it. Also the
// size a value takes as jsonb text, which the database's size checks measure.
export const JSON_LIMITS = { maxDepth: 32, maxItems: 100_000 } as const;

export class JsonLimitError extends Error {
  override name = "JsonLimitError";
}

const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * A scanner fed the body chunk by chunk, as UTF-8 bytes (every structural character is
 * ASCII, and no byte of a multi-byte character can look like one) or as text. Throws JsonLimitError as soon
 * as the nesting is deeper than maxDepth or the members and elements outnumber maxItems.
 * It does not validate the JSON; JSON.parse does that afterwards.
 */
export function jsonShapeScanner(limits: { maxDepth: number; maxItems: number } = JSON_LIMITS) {
  let depth = 0;
  let items = 0;
  let inString = false;
  let escaped = false;
  return (chunk: Uint8Array | string): void => {
    const text = typeof chunk === "string";
    for (let i = 0; i < chunk.length; i++) {
      const byte = text ? chunk.charCodeAt(i) : chunk[i];
      if (inString) {
        if (escaped) escaped = false;
        else if (byte === BACKSLASH) escaped = true;
        else if (byte === QUOTE) inString = false;
        continue;
      }
      if (byte === QUOTE) inString = true;
      else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
        if (++depth > limits.maxDepth) {
          throw new JsonLimitError(`The JSON is nested too deeply (at most ${limits.maxDepth} levels).`);
        }
      } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) depth = Math.max(0, depth - 1);
      else if (byte === COMMA && ++items > limits.maxItems) {
        throw new JsonLimitError(`The JSON has too many items (at most ${limits.maxItems.toLocaleString("en-US")}).`);
      }
    }
  };
}

/** JSON.parse behind the shape limits: JsonLimitError for a hostile shape, SyntaxError for bad JSON. */
export function parseJsonWithinLimits(text: string, limits = JSON_LIMITS): unknown {
  jsonShapeScanner(limits)(text);
  return JSON.parse(text) as unknown;
}

/**
 * The size in bytes of a JSON value as PostgreSQL prints it back from a jsonb column
 * (`value::text`, what a CHECK on octet_length measures), for the value as JSON.stringify
 * sends it: UTF-8, a space after every ':' and ',', and numbers written out in full (1e+21
 * is 22 digits, 5e-324 has 324 decimals). Strings are escaped alike (\n, \", \u001f).
 */
export function jsonbTextBytes(value: unknown): number {
  if (value !== null && typeof value === "object" && typeof (value as { toJSON?: unknown }).toJSON === "function") {
    value = (value as { toJSON: () => unknown }).toJSON();
  }
  switch (typeof value) {
    case "string":
      return utf8Bytes(JSON.stringify(value));
    case "number":
      return Number.isFinite(value) ? numericTextLength(value) : 4;
    case "boolean":
      return value ? 4 : 5;
    case "object": {
      if (value === null) return 4;
      if (Array.isArray(value)) {
        let bytes = 2 + Math.max(0, value.length - 1) * 2;
        for (const item of value)
          bytes += item === undefined || typeof item === "function" || typeof item === "symbol" ? 4 : jsonbTextBytes(item);
        return bytes;
      }
      let bytes = 2;
      let members = 0;
      for (const [key, item] of Object.entries(value)) {
        if (item === undefined || typeof item === "function" || typeof item === "symbol") continue;
        bytes += utf8Bytes(JSON.stringify(key)) + 2 + jsonbTextBytes(item);
        members++;
      }
      return bytes + Math.max(0, members - 1) * 2;
    }
    default:
      // undefined, functions and symbols: JSON.stringify leaves them out.
      return 0;
  }
}

const NON_ASCII = /[^\u0000-\u007f]/;

/** UTF-8 bytes of a well-formed string (JSON.stringify escapes lone surrogates). */
function utf8Bytes(text: string): number {
  // Most card text is ASCII: one native scan answers it without a loop in JavaScript.
  if (!NON_ASCII.test(text)) return text.length;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** Characters of a JavaScript number as PostgreSQL's numeric prints it (no exponent). */
function numericTextLength(n: number): number {
  const text = JSON.stringify(n);
  const match = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!match) return text.length;
  const sign = match[1]!.length;
  const digits = match[2]! + (match[3] ?? "");
  const point = match[2]!.length + Number(match[4]);
  if (point >= digits.length) return sign + point;
  if (point > 0) return sign + digits.length + 1;
  return sign + 2 - point + digits.length;
}
