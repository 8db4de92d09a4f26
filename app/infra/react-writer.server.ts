// React 18's renderer for Node (react-dom/server.node, production build) with one change: how it
// hands text to the stream (docs/decisions/019-a-string-writer-for-react.md).
//
// React writes a page as thousands of small pieces: each tag name, attribute, quote and text.
// Its Node build copies every piece into a 2 KB Uint8Array as it comes, through a new subarray
// view and a TextEncoder.encodeInto call per piece, and writes the array when it is full. That
// copying was the largest single cost of a signed-in page on the main thread (about a sixth of
// the history page's). Here the pieces are joined as strings, which V8 does without copying, and
// the joined text goes to the stream every 8 KB and when React finishes a flush: the same bytes
// in fewer, larger writes. React's own lines around it are untouched, backpressure included:
// `q` still says whether the last write found room, and React waits for 'drain' when it did not.
// It also leaves out what React's writer got wrong: when a character of three or four UTF-8
// bytes did not fit at the end of its array, React wrote the array whole, unfilled bytes and
// all, so the page carried NUL characters (facebook/react#31134, still in 18.3.1).
//
// The change is a replacement of exact text in the installed file, checked when the server
// starts: if React's file is not the one this was written for, React's own renderer is used
// and the server says so once. app/infra/react-writer.server.test.ts renders the same trees
// with both and compares the bytes.
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import vm from "node:vm";

import * as reactServer from "react-dom/server";

/** React's writer as react-dom 18.3's production Node build has it (minified names). */
const REACT_WRITER =
  'function r(a,b){if("string"===typeof b){if(0!==b.length)if(2048<3*b.length)0<l&&(t(a,k.subarray(0,l)),k=new Uint8Array(2048),l=0),t(a,u.encode(b));else{var c=k;0<l&&(c=k.subarray(l));c=u.encodeInto(b,c);var d=c.read;l+=c.written;d<b.length&&(t(a,k),k=new Uint8Array(2048),l=u.encodeInto(b.slice(d),k).written);2048===l&&(t(a,k),k=new Uint8Array(2048),l=0)}}else 0!==b.byteLength&&(2048<b.byteLength?(0<l&&(t(a,k.subarray(0,l)),k=new Uint8Array(2048),l=0),t(a,b)):(c=k.length-l,c<b.byteLength&&(0===c?t(a,\nk):(k.set(b.subarray(0,c),l),l+=c,t(a,k),b=b.subarray(c)),k=new Uint8Array(2048),l=0),k.set(b,l),l+=b.byteLength,2048===l&&(t(a,k),k=new Uint8Array(2048),l=0)))}function t(a,b){a=a.write(b);q=q&&a}function w(a,b){r(a,b);return q}function ca(a){k&&0<l&&a.write(k.subarray(0,l));k=null;l=0;q=!0}var u=new aa.TextEncoder;function x(a){return u.encode(a)}';

/**
 * The same functions writing strings: `k` is the text not written yet (null outside a flush,
 * as React's array was), `q` whether the stream had room at the last write. Pieces React
 * prepares once (`x`) stay strings, so every piece takes the one path.
 */
const STRING_WRITER =
  'function r(a,b){k+=b;8192<k.length&&(q=a.write(k)&&q,k="")}function t(a,b){a=a.write(b);q=q&&a}function w(a,b){r(a,b);return q}function ca(a){k&&a.write(k);k=null;l=0;q=!0}var u=new aa.TextEncoder;function x(a){return a}';

/** Where React starts a flush: a new array, nothing in it, room assumed. It appears twice. */
const REACT_BEGIN_WRITING = "k=new Uint8Array(2048);l=0;q=!0";
const STRING_BEGIN_WRITING = 'k="";l=0;q=!0';

/** React's source with the string writer, or null when the source is not the one expected. */
export function withStringWriter(source: string): string | null {
  if (occurrences(source, REACT_WRITER) !== 1 || occurrences(source, REACT_BEGIN_WRITING) !== 2) return null;
  return source.replace(REACT_WRITER, STRING_WRITER).replaceAll(REACT_BEGIN_WRITING, STRING_BEGIN_WRITING);
}

function occurrences(text: string, part: string): number {
  let count = 0;
  for (let at = text.indexOf(part); at !== -1; at = text.indexOf(part, at + part.length)) count++;
  return count;
}

type RenderToPipeableStream = typeof reactServer.renderToPipeableStream;

/** React's production renderer for Node, as installed. */
export function reactRendererFile(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve("react-dom/package.json")), "cjs", "react-dom-server.node.production.min.js");
}

/** Runs a CommonJS file's (changed) source as that file, with its own require. */
export function evaluateAs(file: string, source: string): Record<string, unknown> {
  const run = vm.compileFunction(source, ["exports", "require", "module", "__filename", "__dirname"], { filename: file });
  const module = { exports: {} as Record<string, unknown> };
  run(module.exports, createRequire(file), module, file, path.dirname(file));
  return module.exports;
}

/**
 * React's renderToPipeableStream with the string writer, for the production build; React's own
 * under `remix dev` (its development build) and whenever the installed file is not the
 * expected one.
 */
export function loadRenderToPipeableStream(production = process.env.NODE_ENV === "production"): {
  renderToPipeableStream: RenderToPipeableStream;
  stringWriter: boolean;
} {
  const own = { renderToPipeableStream: reactServer.renderToPipeableStream, stringWriter: false };
  if (!production) return own;
  const file = reactRendererFile();
  const source = withStringWriter(fs.readFileSync(file, "utf8"));
  if (!source) {
    console.warn(`[server] ${file} is not the React build app/infra/react-writer.server.ts knows; pages render with React's own writer`);
    return own;
  }
  const exports = evaluateAs(file, source);
  if (typeof exports.renderToPipeableStream !== "function" || exports.version !== reactServer.version) return own;
  return { renderToPipeableStream: exports.renderToPipeableStream as RenderToPipeableStream, stringWriter: true };
}
