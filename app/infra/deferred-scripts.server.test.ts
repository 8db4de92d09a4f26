import { describe, expect, it } from "vitest";

import { deferScripts, deferScriptsInBytes } from "./deferred-scripts.server";

// The tail of a document as Remix's <Scripts> writes it, with the app's own tags around it.
const DOCUMENT = [
  '<html><head><link rel="stylesheet" href="/build/_assets/tailwind.css"/>',
  '<link rel="preload" as="image" href="/images/a/primary-768.webp" fetchpriority="high"/></head><body>',
  "<p>A backstory that quotes &lt;link rel=&quot;modulepreload&quot;&gt; stays text. Zoë ✓</p>",
  '<script nonce="n0nce==">window.__remixContext = {"state":"type=\\"module\\" async=\\"\\">"};</script>',
  '<link rel="modulepreload" href="/build/entry.client-A.js"/><link rel="modulepreload" href="/build/_shared/chunk-B.js"/>',
  '<script nonce="n0nce==" type="module" async="">import * as route0 from "/build/root-C.js";</script>',
  '<script nonce="n0nce==" data-scripts-after-paint=""></script>',
  "</body></html>",
].join("");

describe("deferScripts", () => {
  it("makes the modulepreloads and the boot module inert, fills in the code that arms them, and nothing else", () => {
    const out = deferScripts(DOCUMENT);
    expect(out).not.toContain('rel="modulepreload"');
    expect(out).toContain('<link data-modulepreload="" href="/build/entry.client-A.js"/>');
    expect(out).toContain('<link data-modulepreload="" href="/build/_shared/chunk-B.js"/>');
    expect(out).toContain('<script nonce="n0nce==" type="text/x-module-after-paint" async="">import * as route0');
    expect(out).toMatch(/<script nonce="n0nce==" data-scripts-after-paint="">\(function \(\) \{[\s\S]+first-contentful-paint[\s\S]+\}\)\(\)<\/script><\/body>/);
    expect(() => new Function(out.match(/data-scripts-after-paint="">([\s\S]*?)<\/script>/)![1]!)).not.toThrow();
    expect(out).toContain('<link rel="stylesheet" href="/build/_assets/tailwind.css"/>');
    expect(out).toContain('fetchpriority="high"/>');
    expect(out).toContain("&lt;link rel=&quot;modulepreload&quot;&gt; stays text");
    expect(out).toContain('{"state":"type=\\"module\\" async=\\"\\">"}');
  });

  it("rewrites every occurrence in the rendered bytes, and leaves a document without scripts as it is", () => {
    const twice = Buffer.from(DOCUMENT + DOCUMENT, "utf8");
    expect(deferScriptsInBytes(twice).toString("utf8")).toBe(deferScripts(DOCUMENT) + deferScripts(DOCUMENT));
    const plain = Buffer.from("<html><body><p>Zoë ✓ 🦊</p></body></html>", "utf8");
    expect(deferScriptsInBytes(plain)).toBe(plain);
  });
});
