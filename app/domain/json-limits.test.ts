import { describe, expect, it } from "vitest";

import { JSON_LIMITS, jsonbTextBytes, jsonShapeScanner, JsonLimitError, parseJsonWithinLimits } from "./json-limits";

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
    expect(() => parseJsonWithinLimits("[".repeat(JSON_LIMITS.maxDepth + 1))).toThrow("The JSON is nested too deeply (at most 32 levels).");
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

describe("the size of a value as jsonb text", () => {
  it("counts the spaces PostgreSQL prints after ':' and ',', and UTF-8 bytes", () => {
    expect(jsonbTextBytes({ a: [1, 2], b: "x" })).toBe('{"a": [1, 2], "b": "x"}'.length);
    expect(jsonbTextBytes({})).toBe(2);
    expect(jsonbTextBytes([])).toBe(2);
    expect(jsonbTextBytes("é")).toBe(4);
    expect(jsonbTextBytes("ユキ")).toBe(8);
    expect(jsonbTextBytes("🌃")).toBe(6);
    expect(jsonbTextBytes('a"\\n\u0001')).toBe(JSON.stringify('a"\\n\u0001').length);
  });

  it("writes numbers out in full, as numeric does", () => {
    expect(jsonbTextBytes(1e21)).toBe(22);
    expect(jsonbTextBytes(-1.5e-7)).toBe("-0.00000015".length);
    expect(jsonbTextBytes(1.25e22)).toBe(23);
    expect(jsonbTextBytes(12.5)).toBe(4);
  });

  it("leaves out what JSON.stringify leaves out", () => {
    expect(jsonbTextBytes({ a: 1, skip: undefined })).toBe('{"a": 1}'.length);
    expect(jsonbTextBytes([undefined])).toBe("[null]".length);
  });
});
