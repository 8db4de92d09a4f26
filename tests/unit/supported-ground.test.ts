// The app uses its dependencies only through their supported, documented APIs: no code reads,
// rewrites or evaluates a dependency's files, replaces a dependency's exports, or imports a
// dependency's private modules. An upgrade of React, Remix or any other package then changes
// nothing but what its release notes say. This test reads the app's source as text and fails
// when such code comes back.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir), { recursive: true, withFileTypes: false })
    .map((name) => path.join(dir, String(name)))
    .filter((file) => /\.(ts|tsx|mjs|js)$/.test(file) && !/\.test\.(ts|tsx|mjs)$/.test(file));
}

const files = [...sources("app"), "remix.config.js"].map((file) => ({ file, text: readFileSync(path.join(root, file), "utf8") }));

/** Deep paths a package documents for its users (each with where it says so). */
const DOCUMENTED_DEEP_IMPORTS = new Set([
  // rate-limiter-flexible's wiki, "Custom store": a store extends this class from its file.
  "rate-limiter-flexible/lib/RateLimiterStoreAbstract",
]);

/** Every module specifier a file imports or requires. */
function specifiers(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/\b(?:from|import|require)\s*\(?\s*["']([^"']+)["']/g)) found.push(match[1]);
  for (const match of text.matchAll(/createRequire\([^)]*\)\(\s*["']([^"']+)["']/g)) found.push(match[1]);
  return found;
}

function isPackage(specifier: string): boolean {
  return !specifier.startsWith(".") && !specifier.startsWith("~/") && !specifier.startsWith("/") && !specifier.startsWith("node:");
}

/** The part of a package specifier after the package's name ("" for the package itself). */
function subpath(specifier: string): string {
  const parts = specifier.split("/");
  return parts.slice(specifier.startsWith("@") ? 2 : 1).join("/");
}

describe("the app stays on its dependencies' supported ground", () => {
  it("reads the app's source", () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.some(({ file }) => file.endsWith("entry.server.tsx"))).toBe(true);
  });

  it("imports no dependency's private modules (dist/, lib/, cjs/, esm/, src/ or files within them)", () => {
    const offending: string[] = [];
    for (const { file, text } of files) {
      for (const specifier of specifiers(text)) {
        if (!isPackage(specifier) || DOCUMENTED_DEEP_IMPORTS.has(specifier)) continue;
        const rest = subpath(specifier);
        if (/^(dist|lib|cjs|esm|src|build|internal)(\/|$)/.test(rest) || /\.(c|m)?js$/.test(rest)) offending.push(`${file}: ${specifier}`);
      }
    }
    expect(offending).toEqual([]);
  });

  it("evaluates no code of its own or a dependency's at run time, and finds no dependency's files", () => {
    const offending: string[] = [];
    for (const { file, text } of files) {
      for (const [pattern, what] of [
        [/["']node:vm["']|["']vm["']/, "the vm module"],
        [/\bnew Function\s*\(/, "new Function"],
        [/\beval\s*\(/, "eval"],
        [/require\.resolve\s*\(|import\.meta\.resolve\s*\(/, "resolving a dependency's file"],
        [/node_modules/, "a path into node_modules"],
        [/require\.cache|Module\._load|Module\.prototype/, "Node's module loader"],
      ] as const) {
        if (pattern.test(text)) offending.push(`${file}: ${what}`);
      }
    }
    expect(offending).toEqual([]);
  });

  it("runs no code held in a string and reads no database protocol by hand: one driver for every database", () => {
    const offending: string[] = [];
    for (const { file, text } of files) {
      for (const [pattern, what] of [
        [/\beval\s*:\s*true\b/, "a worker whose code is a string"],
        [/execProtocolRaw|parseDescribeStatementResults|\bprotocol\.parse/, "PGlite's wire protocol read or written by hand"],
        [/["']drizzle-orm\/(pglite|node-postgres|neon[^"']*)["']/, "a second database driver"],
      ] as const) {
        if (pattern.test(text)) offending.push(`${file}: ${what}`);
      }
    }
    expect(offending).toEqual([]);
    // PGlite itself is opened in one place, where it is served as a PostgreSQL server (docs/decisions/032-one-database-path.md).
    const openers = files.filter(({ text }) => /\bnew PGlite\s*\(|PGlite\.create\s*\(/.test(text)).map(({ file }) => file);
    expect(openers).toEqual([path.join("app", "infra", "db", "pglite-server.mjs")]);
  });

  it("loads a module by path only where the package documents that path", () => {
    const offending = files
      .filter(({ text }) => /createRequire\s*\(/.test(text))
      .flatMap(({ file, text }) => {
        const loaded = [...text.matchAll(/createRequire\([^)]*\)\(\s*["']([^"']+)["']/g)].map((m) => m[1]);
        const uses = (text.match(/createRequire\s*\(/g) ?? []).length;
        return loaded.length === uses && loaded.every((s) => DOCUMENTED_DEEP_IMPORTS.has(s)) ? [] : [file];
      });
    expect(offending).toEqual([]);
  });

  it("replaces no export of a dependency", () => {
    const offending: string[] = [];
    for (const { file, text } of files) {
      // Assigning into an imported module's namespace or a package's prototype.
      if (/Object\.(defineProperty|assign)\(\s*(React|ReactDOM|remix\w*|router\w*)\b/i.test(text)) offending.push(file);
    }
    expect(offending).toEqual([]);
  });
});
