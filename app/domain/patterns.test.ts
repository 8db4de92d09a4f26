// Patterns from creators and cards on the linear-time engine (docs/decisions/038): the shapes that
// make a backtracking engine run for seconds (tests/unit/fixtures/runaway-patterns.json) each match
// a 4,000-character text in at most 10 ms here, and what the engine cannot express is refused.
import { readFileSync } from "node:fs";

import { describe, expect, it } from "vitest";

import { compilePattern, patternFinds, PATTERN_MAX, usablePattern } from "./patterns";

const fixture = JSON.parse(readFileSync(new URL("../../tests/unit/fixtures/runaway-patterns.json", import.meta.url), "utf8")) as {
  patterns: string[];
  inputs: { text: string; times: number }[];
};
const inputs = fixture.inputs.map(({ text, times }) => text.repeat(times).slice(0, 4_000));

describe("patterns on the linear-time engine", () => {
  it("every runaway shape matches a 4,000-character text in at most 10 ms", () => {
    for (const pattern of fixture.patterns) {
      const compiled = compilePattern(pattern);
      expect(compiled, pattern).not.toBeNull();
      for (const text of inputs) compiled!.test(text); // first use of each code path
      for (const text of inputs) {
        // The best of five, so another process on the machine does not decide it.
        const times = Array.from({ length: 5 }, () => {
          const started = performance.now();
          compiled!.test(text);
          return performance.now() - started;
        });
        expect(Math.min(...times), `${pattern} over ${text.slice(0, 12)}…`).toBeLessThanOrEqual(10);
      }
    }
  });

  it("matches as a creator means: slashes and flags, case, anywhere in the text", () => {
    expect(patternFinds("/ki(ra|ri)/", false, "Hi KIRI!")).toBe(true);
    expect(patternFinds("/ki(ra|ri)/", true, "Hi KIRI!")).toBe(false);
    expect(patternFinds("/ki(ra|ri)/i", true, "Hi KIRI!")).toBe(true);
    expect(patternFinds("^Mina|Min-?a$", false, "call Min-a")).toBe(true);
    expect(patternFinds("\\bcat\\b", false, "concatenate")).toBe(false);
    expect(patternFinds("\\p{L}+村", false, "露米埃尔村是什么样的地方")).toBe(true);
  });

  it("refuses what it cannot express or read: look-arounds, back-references, broken and over-long patterns", () => {
    for (const bad of ["(?=a)", "(?!a)b", "(?<=a)b", "(?<!a)b", "(a)\\1", "(?<n>a)\\k<n>", "[", "(", "/x/g", "x".repeat(PATTERN_MAX + 1)]) {
      expect(usablePattern(bad), bad).toBe(false);
      expect(patternFinds(bad, false, bad)).toBe(false);
    }
    expect(usablePattern("x".repeat(PATTERN_MAX))).toBe(true);
  });
});
