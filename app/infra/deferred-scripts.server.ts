// Writes Remix's <link rel="modulepreload"> tags and its inline boot script inert in a rendered
// document; app/components/scripts-after-paint.tsx arms them after the first paint
// (docs/decisions/013-scripts-after-first-paint.md).
//
// Only attributes change: the elements stay where React rendered them, so hydration finds the
// same tree (React does not compare attribute values when it hydrates a production build).
import { StringDecoder } from "node:string_decoder";
import { Transform } from "node:stream";

import { DEFERRED_MODULE_TYPE, DEFERRED_PRELOAD_ATTRIBUTE } from "~/components/scripts-after-paint";

// As React writes them: <link rel="modulepreload" href="…"/> and <script nonce="…" type="module" async="">.
// Text and loader data never contain these (React escapes quotes in text, Remix in its JSON).
const REWRITES: [string, string][] = [
  ['<link rel="modulepreload"', `<link ${DEFERRED_PRELOAD_ATTRIBUTE}=""`],
  [' type="module" async="">', ` type="${DEFERRED_MODULE_TYPE}" async="">`],
];

/** A whole document with its scripts deferred. */
export function deferScripts(html: string): string {
  return REWRITES.reduce((text, [from, to]) => text.replaceAll(from, to), html);
}

/**
 * The same for a streamed document: a transform between React's stream and the response. A tag
 * cut in two by a chunk boundary is held back (at most its first few characters) until the next
 * chunk completes it.
 */
export function deferScriptsStream(): Transform {
  const decoder = new StringDecoder("utf8");
  let held = "";
  return new Transform({
    transform(chunk: Buffer | string, _encoding, done) {
      const text = held + (typeof chunk === "string" ? chunk : decoder.write(chunk));
      const keep = partialMatchAtEnd(text);
      held = text.slice(text.length - keep);
      const ready = deferScripts(text.slice(0, text.length - keep));
      if (ready) this.push(ready);
      done();
    },
    flush(done) {
      const rest = deferScripts(held + decoder.end());
      if (rest) this.push(rest);
      done();
    },
  });
}

/** How many characters at the end of `text` could be the beginning of a rewritten tag. */
function partialMatchAtEnd(text: string): number {
  let longest = 0;
  for (const [from] of REWRITES) {
    for (let n = Math.min(from.length - 1, text.length); n > longest; n--) {
      if (from.startsWith(text.slice(text.length - n))) {
        longest = n;
        break;
      }
    }
  }
  return longest;
}
