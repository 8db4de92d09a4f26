// Writes Remix's <link rel="modulepreload"> tags and its inline boot script inert in a rendered
// document, and puts the code that arms them after the first paint into the empty script element
// app/components/scripts-after-paint.tsx renders (docs/decisions/013-scripts-after-first-paint.md).
//
// The elements stay where React rendered them, so hydration finds the same tree: React does not
// compare attribute values when it hydrates a production build, nor the content of an element
// rendered with dangerouslySetInnerHTML.
/** What the server writes instead of rel="modulepreload". */
const DEFERRED_PRELOAD_ATTRIBUTE = "data-modulepreload";
/** What the server writes instead of type="module" on Remix's inline boot script. */
const DEFERRED_MODULE_TYPE = "text/x-module-after-paint";

// "After the first paint" is when the browser reports its first contentful paint (a paint timing
// entry, stamped when the frame reached the screen; a loaded machine can show a frame a second
// after painting it), then one more frame. A page that asks for an image first
// (fetchpriority="high": the persona's reference image, its largest paint) waits for that image
// to load too, so module compilation does not hold back the frame that shows it. A hidden tab
// paints nothing: it starts at once; a browser that never reports paints, after a frame or at
// the latest 3 s. The modules are requested first and the boot module started in the next task:
// two short tasks rather than one long one.
const AFTER_FIRST_PAINT = `(function () {
  var d = document, started = false, waiting = 1;
  function boot() {
    d.querySelectorAll('script[type="${DEFERRED_MODULE_TYPE}"]').forEach(function (o) {
      var s = d.createElement("script"); s.type = "module"; s.nonce = o.nonce; s.textContent = o.textContent; d.head.appendChild(s);
    });
  }
  function go() {
    if (started) return;
    started = true;
    d.querySelectorAll("link[${DEFERRED_PRELOAD_ATTRIBUTE}]").forEach(function (l) {
      var p = d.createElement("link"); p.rel = "modulepreload"; p.href = l.href; d.head.appendChild(p);
    });
    setTimeout(boot);
  }
  function ready() {
    if (--waiting === 0) requestAnimationFrame(function () { setTimeout(go); });
  }
  if (d.visibilityState === "hidden") return go();
  setTimeout(go, 3000);
  [].forEach.call(d.querySelectorAll('img[fetchpriority="high"]'), function (i) {
    if (i.complete) return;
    waiting++;
    i.addEventListener("load", ready, { once: true });
    i.addEventListener("error", ready, { once: true });
  });
  var P = window.PerformanceObserver;
  if (!P || !P.supportedEntryTypes || P.supportedEntryTypes.indexOf("paint") < 0) return ready();
  var o = new P(function (list) {
    if (list.getEntriesByName("first-contentful-paint").length) { o.disconnect(); ready(); }
  });
  o.observe({ type: "paint", buffered: true });
})()`;

// As React writes them: <link rel="modulepreload" href="…"/>, <script nonce="…" type="module"
// async=""> and <script nonce="…" data-scripts-after-paint=""></script>. Text and loader data
// never contain these (React escapes quotes in text, Remix in its JSON).
const REWRITES: [string, string][] = [
  ['<link rel="modulepreload"', `<link ${DEFERRED_PRELOAD_ATTRIBUTE}=""`],
  [' type="module" async="">', ` type="${DEFERRED_MODULE_TYPE}" async="">`],
  [' data-scripts-after-paint=""></script>', ` data-scripts-after-paint="">${AFTER_FIRST_PAINT}</script>`],
];

const REWRITE_BYTES = REWRITES.map(([from, to]) => [Buffer.from(from, "latin1"), Buffer.from(to, "utf8")] as const);

/**
 * A whole document, as the bytes React wrote, with its scripts deferred. Works on the bytes
 * (every pattern is ASCII, and UTF-8 never uses an ASCII byte inside another character), so
 * the document is neither decoded nor encoded again: one search per pattern, one copy.
 */
export function deferScriptsInBytes(html: Buffer): Buffer {
  const edits: { at: number; length: number; to: Buffer }[] = [];
  for (const [from, to] of REWRITE_BYTES) {
    for (let at = html.indexOf(from); at !== -1; at = html.indexOf(from, at + from.length)) {
      edits.push({ at, length: from.length, to });
    }
  }
  if (edits.length === 0) return html;
  edits.sort((a, b) => a.at - b.at);
  const parts: Buffer[] = [];
  let from = 0;
  for (const edit of edits) {
    parts.push(html.subarray(from, edit.at), edit.to);
    from = edit.at + edit.length;
  }
  parts.push(html.subarray(from));
  return Buffer.concat(parts);
}

/** A whole document with its scripts deferred. */
export function deferScripts(html: string): string {
  return deferScriptsInBytes(Buffer.from(html, "utf8")).toString("utf8");
}
