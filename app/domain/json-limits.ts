// Limits on the shape of JSON we accept (API bodies, imported cards), checked by a linear
// scan before or while the text arrives, so a hostile body (megabytes of nested brackets,
// millions of tiny members) is refused before JSON.parse builds anything from it.
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
