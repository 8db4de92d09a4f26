// The string writer writes the bytes React's own writer writes, less the NUL bytes React's
// leaves where a character does not fit at the end of its 2 KB array (React 18.3's
// facebook/react#31134): the same production renderer run with both, on pages that cross its
// 2 KB array and 8 KB string sizes, text of one, two, three and four UTF-8 bytes a character,
// Suspense boundaries completed later, and a stream that is full after every write (React
// waits for 'drain').
import fs from "node:fs";
import { Writable } from "node:stream";

import { createElement as h, Suspense, type ReactNode } from "react";
import { describe, expect, it } from "vitest";

import { evaluateAs, loadRenderToPipeableStream, reactRendererFile, withStringWriter } from "./react-writer.server";

type Render = (typeof import("react-dom/server"))["renderToPipeableStream"];

const file = reactRendererFile();
const reactSource = fs.readFileSync(file, "utf8");
const reacts = evaluateAs(file, reactSource).renderToPipeableStream as Render;
const strings = evaluateAs(file, withStringWriter(reactSource) ?? "").renderToPipeableStream as Render;

interface Page {
  tree: ReactNode;
  /** Lets the suspended parts render, one by one. */
  releases: (() => void)[];
}

/**
 * Renders a page with `render` into a stream whose writes finish later (`slowStream`) or at
 * once, piped when the shell is ready (`streaming`) or when everything is. The suspended parts
 * are let go one at a time, 30 ms apart, so both writers see the same order of events.
 */
function bytesOf(render: Render, { tree, releases }: Page, options: { streaming?: boolean; slowStream?: boolean } = {}): Promise<{ bytes: Buffer; writes: number }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const sink = new Writable({
      emitClose: false,
      highWaterMark: options.slowStream ? 16 : undefined,
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk);
        if (options.slowStream) setImmediate(done);
        else done();
      },
    });
    sink.on("finish", () => resolve({ bytes: Buffer.concat(chunks), writes: chunks.length }));
    const letGo = async () => {
      for (const release of releases) {
        await new Promise((next) => setTimeout(next, 30));
        release();
      }
    };
    const { pipe } = render(tree, {
      onShellReady() {
        if (!options.streaming) return;
        pipe(sink);
        void letGo();
      },
      onAllReady() {
        if (!options.streaming) pipe(sink);
      },
      onShellError: reject,
    });
    if (!options.streaming) void letGo();
  });
}

/** A component that suspends until released, then shows `children`. */
function suspended(label: string) {
  let done = false;
  let release = () => {};
  const ready = new Promise<void>((resolve) => {
    release = () => {
      done = true;
      resolve();
    };
  });
  function Later({ children }: { children: ReactNode }) {
    if (!done) throw ready;
    return h("section", { "data-late": label }, children);
  }
  return { Later, release };
}

const NUL = 0;

/** What React meant to write: its bytes without the NULs (no page here has one of its own). */
function meant(bytes: Buffer): Buffer {
  return Buffer.from(bytes.filter((byte) => byte !== NUL));
}

const mixedText = "Zoë's café — 東京の夜 🌃 & <tags> \"quoted\" ";

function page(): Page {
  const outer = suspended("outer");
  const inner = suspended("inner");
  const tree = h(
    "html",
    { lang: "en" },
    h("head", null, h("title", null, mixedText), h("script", { dangerouslySetInnerHTML: { __html: "window.x = 1 < 2;" } })),
    h(
      "body",
      { className: "h-full", style: { color: "red", marginTop: 4 } },
      Array.from({ length: 400 }, (_, i) => h("li", { key: i, id: `item-${i}`, "aria-label": `${i} ${mixedText}`, hidden: i % 7 === 0 }, mixedText.repeat(i % 5), i)),
      h("p", null, "x".repeat(30_000)),
      h("p", null, mixedText.repeat(900)),
      h(Suspense, { fallback: h("p", null, "Loading…") }, h(outer.Later, null, mixedText.repeat(50), h(Suspense, { fallback: "inner" }, h(inner.Later, null, "🌃".repeat(3000))))),
      h("textarea", { defaultValue: mixedText.repeat(3) }),
      h("select", { defaultValue: "b" }, h("option", { value: "a" }, "A"), h("option", { value: "b" }, "B")),
    ),
  );
  return { tree, releases: [outer.release, inner.release] };
}

describe("React's renderer with the string writer", () => {
  it("applies to the installed React, and to nothing else", () => {
    expect(withStringWriter(reactSource)).not.toBeNull();
    expect(withStringWriter(reactSource.replace("k=new Uint8Array(2048);l=0;q=!0", ""))).toBeNull();
    expect(withStringWriter("'use strict';")).toBeNull();
    expect(loadRenderToPipeableStream(true).stringWriter).toBe(true);
    expect(loadRenderToPipeableStream(false).stringWriter).toBe(false);
  });

  it("writes React's bytes for a whole page, in fewer writes", async () => {
    const own = await bytesOf(reacts, page());
    const joined = await bytesOf(strings, page());
    expect(own.bytes.length).toBeGreaterThan(100_000);
    expect(own.bytes.includes(NUL)).toBe(true);
    expect(joined.bytes.includes(NUL)).toBe(false);
    expect(joined.bytes.equals(meant(own.bytes))).toBe(true);
    expect(joined.bytes.toString()).toContain("Zoë&#x27;s café — 東京の夜 🌃 &amp; &lt;tags&gt;");
    expect(joined.writes).toBeLessThan(own.writes / 2);
  });

  it("writes React's bytes when streamed, boundaries completing later", async () => {
    const own = await bytesOf(reacts, page(), { streaming: true });
    const joined = await bytesOf(strings, page(), { streaming: true });
    expect(own.bytes.toString()).toContain("Loading…");
    expect(own.bytes.toString()).toContain('<section data-late="inner">');
    expect(joined.bytes.includes(NUL)).toBe(false);
    expect(joined.bytes.equals(meant(own.bytes))).toBe(true);
  });

  it("writes React's bytes into a stream that is full after every write", async () => {
    const own = await bytesOf(reacts, page(), { streaming: true, slowStream: true });
    const joined = await bytesOf(strings, page(), { streaming: true, slowStream: true });
    expect(joined.bytes.equals(meant(own.bytes))).toBe(true);
  });

  it("renders an empty tree and a lone text", async () => {
    for (const tree of [null, "", "🌃", h("br")]) {
      const own = await bytesOf(reacts, { tree, releases: [] });
      const joined = await bytesOf(strings, { tree, releases: [] });
      expect(joined.bytes.equals(meant(own.bytes))).toBe(true);
    }
  });
});
