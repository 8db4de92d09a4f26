// The page's JavaScript starts after its first paint (docs/decisions/013-scripts-after-first-paint.md).
//
// Remix's <Scripts> writes a <link rel="modulepreload"> for each of the page's ~20–35 modules and
// an inline module script that imports the matched routes and starts hydration. The browser
// fetches all of it at high priority together with the stylesheet, before anything is painted,
// although the server-rendered page needs none of it to show (and works without it).
// app/entry.server.tsx writes those links and that script inert, and fills this element with the
// few lines that arm them after the first paint (app/infra/deferred-scripts.server.ts): the
// browser bundle carries only this empty element.

/** Goes after <Scripts />, so the elements its code looks for are already parsed. */
export function ScriptsAfterFirstPaint({ nonce }: { nonce: string }) {
  // Hydration leaves the content of an element with dangerouslySetInnerHTML alone.
  return <script nonce={nonce} data-scripts-after-paint="" suppressHydrationWarning dangerouslySetInnerHTML={{ __html: "" }} />;
}
