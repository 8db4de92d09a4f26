// Patterns that come from outside: lorebook keys with 'Keys are patterns' (written here or
// brought by a card) and a probe's must-match and must-not-match (docs/product.md, Lore in chat and
// Persona tests). They run on RE2's linear-time engine (re2js), never on JavaScript's backtracking
// one: the time a match takes grows with the text, never with the pattern's shape, so no pattern
// can hold the server (docs/decisions/038-creator-patterns-on-a-linear-time-engine.md). What RE2
// cannot express (look-arounds, back-references) is refused.
//
// Server-side: re2js is 46 KB of script, so no page's form imports this module; the services check
// a pattern when it comes in, and the matchers run it.
import { RE2JS } from "re2js";

/** A pattern's longest source, in characters. */
export const PATTERN_MAX = 200;

/** '/body/flags' (flags among i, m, s, u) or a bare body. */
function patternSource(pattern: string): { body: string; flags: string } | null {
  const slashed = /^\/(.+)\/([a-z]*)$/s.exec(pattern);
  if (slashed) return /^[imsu]*$/.test(slashed[2]!) ? { body: slashed[1]!, flags: slashed[2]! } : null;
  return pattern === "" ? null : { body: pattern, flags: "" };
}

// Compiled patterns are kept: a lorebook's keys are matched against every message of a chat.
const KEPT_MAX = 500;
const kept = new Map<string, RE2JS | null>();

/** The pattern compiled for RE2, or null when it is longer than PATTERN_MAX, not valid, or needs what RE2 does not have. */
export function compilePattern(pattern: string, caseSensitive = false): RE2JS | null {
  const key = `${caseSensitive ? "C" : "i"}${pattern}`;
  const known = kept.get(key);
  if (known !== undefined) return known;
  let compiled: RE2JS | null = null;
  const source = patternSource(pattern);
  // A named back-reference would be read as the letter k: refused like a numbered one.
  if (source && [...source.body].length <= PATTERN_MAX && !source.body.includes("\\k<")) {
    let flags = 0;
    if (!caseSensitive || source.flags.includes("i")) flags |= RE2JS.CASE_INSENSITIVE;
    if (source.flags.includes("s")) flags |= RE2JS.DOTALL;
    if (source.flags.includes("m")) flags |= RE2JS.MULTILINE;
    try {
      compiled = RE2JS.compile(RE2JS.translateRegExp(source.body), flags);
    } catch {
      compiled = null;
    }
  }
  if (kept.size >= KEPT_MAX) kept.delete(kept.keys().next().value!);
  kept.set(key, compiled);
  return compiled;
}

/** Whether a pattern can be matched here: valid, at most PATTERN_MAX characters, and expressible in RE2. */
export function usablePattern(pattern: string, caseSensitive = false): boolean {
  return compilePattern(pattern, caseSensitive) !== null;
}

/** Whether the pattern occurs anywhere in the text; an unusable pattern finds nothing. */
export function patternFinds(pattern: string, caseSensitive: boolean, text: string): boolean {
  return compilePattern(pattern, caseSensitive)?.test(text) ?? false;
}
