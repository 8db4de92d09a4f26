import { describe, expect, it } from "vitest";

import { safeRedirect } from "./redirect";

describe("safeRedirect", () => {
  it("keeps same-site paths with their query and fragment", () => {
    expect(safeRedirect("/my-personas?tab=archived&q=nova#list")).toBe("/my-personas?tab=archived&q=nova#list");
    expect(safeRedirect("/persona/abc")).toBe("/persona/abc");
  });

  it("percent-encodes characters a Location header cannot carry", () => {
    expect(safeRedirect("/ユキ")).toBe("/%E3%83%A6%E3%82%AD");
    expect(safeRedirect("/。x")).toBe("/%E3%80%82x");
    expect(safeRedirect("/my-personas?q=ユキ")).toBe("/my-personas?q=%E3%83%A6%E3%82%AD");
    for (const value of ["/ユキ", "/。x", "/a?b=ü#ö"]) {
      expect(() => new Headers({ Location: safeRedirect(value) })).not.toThrow();
    }
  });

  it("falls back for anything that could leave the site", () => {
    for (const value of [
      "https://evil.example/",
      "//evil.example",
      "/\\evil.example",
      "/\\/evil.example",
      "/%0d%0aSet-Cookie:x", // stays a path: encoded, harmless
      "javascript:alert(1)",
      "/\tevil",
      "/a\nb",
      "evil",
      "",
      null,
      undefined,
      "/" + "a".repeat(2001),
    ]) {
      const result = safeRedirect(value, "/fallback");
      expect(result === "/fallback" || result.startsWith("/%0d%0a")).toBe(true);
    }
    expect(safeRedirect("//evil.example", "/fallback")).toBe("/fallback");
    expect(safeRedirect("/\\evil.example", "/fallback")).toBe("/fallback");
  });
});
