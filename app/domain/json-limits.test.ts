import { describe, expect, it } from "vitest";

import { JSON_LIMITS, jsonShapeScanner, JsonLimitError, parseJsonWithinLimits } from "./json-limits";

describe("JSON shape limits", () => {
  it("parse ordinary JSON, brackets and commas inside strings not counted", () => {
    const text = JSON.stringify({ a: [1, 2, { b: '[[[[,,,,]]]] " \\ {' }], c: "ユキ" });
    expect(parseJsonWithinLimits(text)).toEqual(JSON.parse(text));
    const nestedInString = JSON.stringify({ text: "[".repeat(10_000) });
    expect(parseJsonWithinLimits(nestedInString)).toEqual({ text: "[".repeat(10_000) });
  });

  it("refuse nesting deeper than the limit at the first bracket too many", () => {
    const ok = "[".repeat(JSON_LIMITS.maxDepth) + "]".repeat(JSON_LIMITS.maxDepth);
    expect(() => parseJsonWithinLimits(ok)).not.toThrow();
    expect(() => parseJsonWithinLimits("[".repeat(JSON_LIMITS.maxDepth + 1))).toThrow(
      "The JSON is nested too deeply (at most 32 levels).",
    );
  });

  it("refuse too many members or elements", () => {
    const many = `[${Array.from({ length: JSON_LIMITS.maxItems + 2 }, () => "0").join(",")}]`;
    expect(() => parseJsonWithinLimits(many)).toThrow(JsonLimitError);
  });

  it("scan chunk by chunk, escapes split across chunks included", () => {
    const scan = jsonShapeScanner({ maxDepth: 2, maxItems: 10 });
    const bytes = (text: string) => new TextEncoder().encode(text);
    scan(bytes('{"a":"x\\'));
    scan(bytes('"[[[[","b":['));
    expect(() => scan(bytes("["))).toThrow(JsonLimitError);
  });

  it("leave syntax to JSON.parse", () => {
    expect(() => parseJsonWithinLimits("{nope")).toThrow(SyntaxError);
  });
});
