// The page's JavaScript starts after its first paint (docs/decisions/013-scripts-after-first-paint.md).
//
// Remix's <Scripts> writes a <link rel="modulepreload"> for each of the page's ~20–35 modules and
// an inline module script that imports the matched routes and starts hydration. The browser
// fetches all of it at high priority together with the stylesheet, before anything is painted,
// although the server-rendered page needs none of it to show (and works without it).
// app/entry.server.tsx writes those links and that script inert (app/infra/deferred-scripts.server.ts);
// the script below arms them once the first frame is out: every module is then requested at
// once (the modulepreloads), not one import level at a time, and hydration starts.

/** What the server writes instead of rel="modulepreload". */
export const DEFERRED_PRELOAD_ATTRIBUTE = "data-modulepreload";
/** What the server writes instead of type="module" on Remix's inline boot script. */
export const DEFERRED_MODULE_TYPE = "text/x-module-after-paint";

// requestAnimationFrame runs before the next frame is painted, the timeout after it once it has
// been. A page whose largest paint is an image it asks for first (fetchpriority="high": the
// persona's reference image) waits for that image too, so the scripts' work does not hold back
// the frame that shows it. A hidden tab paints nothing (and runs no animation frames): it starts
// at once. The modules are requested first and the boot module started in the next task: two
// short tasks rather than one long one.
const AFTER_FIRST_PAINT = `(function(){var d=document;function boot(){d.querySelectorAll('script[type="${DEFERRED_MODULE_TYPE}"]').forEach(function(o){var s=d.createElement("script");s.type="module";s.nonce=o.nonce;s.textContent=o.textContent;d.head.appendChild(s)})}function go(){d.querySelectorAll("link[${DEFERRED_PRELOAD_ATTRIBUTE}]").forEach(function(l){var p=d.createElement("link");p.rel="modulepreload";p.href=l.href;d.head.appendChild(p)});setTimeout(boot)}function afterPaint(){requestAnimationFrame(function(){setTimeout(go)})}if(d.visibilityState==="hidden")return go();var images=[].filter.call(d.querySelectorAll('img[fetchpriority="high"]'),function(i){return!i.complete}),left=images.length;if(!left)return afterPaint();images.forEach(function(i){function done(){if(--left===0)afterPaint()}i.addEventListener("load",done,{once:true});i.addEventListener("error",done,{once:true})})})()`;

/** Goes after <Scripts />, so the elements it looks for are already parsed. */
export function ScriptsAfterFirstPaint({ nonce }: { nonce: string }) {
  return <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: AFTER_FIRST_PAINT }} />;
}
