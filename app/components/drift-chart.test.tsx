// A long-conversation test's chart as the server renders it (docs/product.md, Persona tests: long
// conversations): an SVG with one line per scored category across the checkpoints, labelled for
// screen readers, and a table of the same figures; a second version's run laid over it.
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";

import { DriftChart, DriftTable, type ChartRun } from "./drift-chart";

const run: ChartRun = {
  version: 3,
  checkpoints: [
    { turn: 1, byCategory: { identity: { passed: 2, failed: 0 }, inCharacter: { passed: 5, failed: 0 } } },
    { turn: 8, byCategory: { identity: { passed: 1, failed: 1 }, inCharacter: { passed: 8, failed: 0 } } },
    { turn: 16, byCategory: { identity: { passed: 0, failed: 2 }, inCharacter: { passed: 6, failed: 2 } } },
  ],
};
const older: ChartRun = {
  version: 2,
  checkpoints: [
    { turn: 1, byCategory: { identity: { passed: 2, failed: 0 }, secrets: { passed: 1, failed: 0 } } },
    { turn: 8, byCategory: { identity: { passed: 2, failed: 0 }, secrets: { passed: 0, failed: 1 } } },
  ],
};

const points = (html: string, category: string, version: number) =>
  new RegExp(`<g data-category="${category}" data-version="${version}"[^>]*><polyline points="([^"]+)"`).exec(html)?.[1]?.split(" ") ?? [];

describe("the drift chart", () => {
  it("draws one line per scored category, a point per checkpoint, higher for a higher pass rate", () => {
    const html = renderToString(<DriftChart id="c" run={run} />);
    expect(html).toContain('role="img"');
    expect(html).toContain('aria-labelledby="c-title c-desc"');
    expect(html).toContain("Pass rate per checkpoint, version 3");
    const identity = points(html, "identity", 3).map((point) => point.split(",").map(Number));
    expect(identity).toHaveLength(3);
    // 100% → 50% → 0%: each point lower on the page (a larger y).
    expect(identity[0]![1]).toBeLessThan(identity[1]![1]!);
    expect(identity[1]![1]).toBeLessThan(identity[2]![1]!);
    // Turns left to right.
    expect(identity[0]![0]).toBeLessThan(identity[2]![0]!);
    expect(points(html, "inCharacter", 3)).toHaveLength(3);
    expect(points(html, "secrets", 3)).toEqual([]);
    for (const label of ["0%", "50%", "100%", ">1<", ">8<", ">16<", "Turn of the conversation", "Identity and facts", "Stays in character"])
      expect(html).toContain(label);
  });

  it("lays another version's run over it, paler, with its categories", () => {
    const html = renderToString(<DriftChart id="c" run={run} over={older} />);
    expect(html).toContain("Pass rate per checkpoint, version 3, with version 2 laid over it");
    expect(points(html, "identity", 2)).toHaveLength(2);
    expect(points(html, "secrets", 2)).toHaveLength(2);
    expect(html).toMatch(/data-category="identity" data-version="2" opacity="0.45"/);
    expect(html).toContain("Paler lines: version 2");
  });

  it("has its figures in a table: a row per checkpoint, a column per category", () => {
    const html = renderToString(<DriftTable run={run} />);
    expect(html).toContain("<caption");
    expect(html).toMatch(/<th scope="col"[^>]*>Identity and facts<\/th>/);
    expect(html).toMatch(/<th scope="row"[^>]*>16<\/th>/);
    expect(html).toContain("100% (2 of 2)");
    expect(html).toContain("50% (1 of 2)");
    expect(html).toContain("75% (6 of 8)");
    expect(html).not.toContain("Secrets kept");
  });
});
