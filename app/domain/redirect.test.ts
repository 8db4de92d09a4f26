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

  // Every form below would leave the site once normalised or decoded, by a browser, a proxy or
  // the URL parser: each must fall back, whatever the route that reads it.
  const HOSTILE = [
    "//evil.example",
    "///evil.example",
    "////evil.example",
    "/\\evil.example",
    "/\\/evil.example",
    "//\\evil.example",
    "/.//evil.example",
    "/././/evil.example",
    "/.//evil.example/fake-login",
    "/a/..//evil.example",
    "/a/b/../..//evil.example",
    "/../..//evil.example",
    "/..//evil.example",
    "/%2e//evil.example",
    "/%2E//evil.example",
    "/%2e%2e//evil.example",
    "/a/%2e%2e//evil.example",
    "/.%2e//evil.example",
    "/%2e/%2e//evil.example",
    "/%2f/evil.example",
    "/%2F%2Fevil.example",
    "/%5cevil.example",
    "/%5C%5Cevil.example",
    "/%2f%5cevil.example",
    "/%252f%252fevil.example",
    "/%25252f%25252fevil.example",
    "/%255cevil.example",
    "/%2e%2e%2f%2fevil.example",
    "/%252e%252e%252f%252fevil.example",
    "/.%2f/evil.example",
    "https://evil.example/",
    "http:evil.example",
    "https:/evil.example",
    "javascript:alert(1)",
    "data:text/html,x",
    "evil.example",
    " /dashboard",
    "/\tevil",
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r\n//evil.example",
    "/%0a/evil",
    "/%0d%0aSet-Cookie:x",
    "/%00",
    "/%7f",
    "/%",
    "/%zz",
    "/%E0%A4%A",
    "",
    "/" + "a".repeat(2001),
  ];

  it.each(HOSTILE)("falls back for %j", (value) => {
    expect(safeRedirect(value, "/fallback")).toBe("/fallback");
  });

  it("keeps same-site paths after their dot segments are resolved", () => {
    expect(safeRedirect("/a/../my-personas")).toBe("/my-personas");
    expect(safeRedirect("/./persona/abc")).toBe("/persona/abc");
    expect(safeRedirect("/%2e/dashboard")).toBe("/dashboard");
    expect(safeRedirect("/my-personas?q=%2F%2Fevil.example")).toBe("/my-personas?q=%2F%2Fevil.example");
    expect(safeRedirect("/%E3%83%A6%E3%82%AD")).toBe("/%E3%83%A6%E3%82%AD");
  });
});
