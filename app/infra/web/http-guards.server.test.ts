import { afterEach, describe, expect, it, vi } from "vitest";

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

async function guards(env: Record<string, string> = {}) {
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  return import("./http-guards.server");
}

const headers = (values: Record<string, string>) => new Headers({ host: "app.example:3000", ...values });

describe("crossSiteRefusal", () => {
  it("lets reads through, and state changes from our own host", async () => {
    const { crossSiteRefusal } = await guards();
    expect(crossSiteRefusal("GET", headers({ origin: "http://evil.example", cookie: "a=b" }))).toBeNull();
    expect(crossSiteRefusal("POST", headers({ origin: "http://app.example:3000", cookie: "a=b" }))).toBeNull();
    expect(crossSiteRefusal("POST", headers({ origin: "https://app.example:3000", cookie: "a=b" }))).toBeNull();
    expect(crossSiteRefusal("PATCH", headers({ "sec-fetch-site": "same-origin", cookie: "a=b" }))).toBeNull();
    // Behind a proxy, the forwarded host is ours (as Remix compares it).
    expect(
      crossSiteRefusal(
        "POST",
        headers({ origin: "https://personaforge.example", "x-forwarded-host": "personaforge.example", cookie: "a=b" }),
      ),
    ).toBeNull();
  });

  it("refuses another site by Origin, by Sec-Fetch-Site, or a cookie with neither", async () => {
    const { crossSiteRefusal, CROSS_SITE_MESSAGE } = await guards();
    for (const values of <Record<string, string>[]>[
      { origin: "http://evil.example", cookie: "a=b" },
      { origin: "http://evil.example" },
      { origin: "null", cookie: "a=b" },
      { origin: "http://app.example:3000.evil.example", cookie: "a=b" },
      { "sec-fetch-site": "cross-site", cookie: "a=b" },
      { "sec-fetch-site": "same-site", cookie: "a=b" },
      { cookie: "pf_session=x" },
    ]) {
      expect(crossSiteRefusal("POST", headers(values)), JSON.stringify(values)).toBe(CROSS_SITE_MESSAGE);
      // The server's form: the headers are built only for a state-changing method.
      expect(
        crossSiteRefusal("POST", () => headers(values)),
        JSON.stringify(values),
      ).toBe(CROSS_SITE_MESSAGE);
    }
    const built = vi.fn(() => headers({ origin: "http://evil.example", cookie: "a=b" }));
    expect(crossSiteRefusal("GET", built)).toBeNull();
    expect(built).not.toHaveBeenCalled();
  });

  it("exempts Bearer-token calls and clients without cookies", async () => {
    const { crossSiteRefusal } = await guards();
    expect(crossSiteRefusal("POST", headers({ origin: "http://evil.example", authorization: "Bearer abc", cookie: "a=b" }))).toBeNull();
    expect(crossSiteRefusal("DELETE", headers({}))).toBeNull();
  });

  it("exempts only a header the session reads as a token; any other is refused before the app", async () => {
    const { authorizationRefusal, crossSiteRefusal, CROSS_SITE_MESSAGE, BAD_AUTHORIZATION_MESSAGE } = await guards();
    for (const authorization of ["Bearer a b", "Bearer  ", "Bearer\tabc", "Bearer a\u00e9", "Basic dXNlcjpwYXNz", "Bearer", "abc", ""]) {
      expect(
        crossSiteRefusal("POST", headers({ origin: "http://evil.example", authorization, cookie: "pf_session=x" })),
        authorization,
      ).toBe(CROSS_SITE_MESSAGE);
      expect(authorizationRefusal(authorization), authorization).toBe(BAD_AUTHORIZATION_MESSAGE);
    }
    for (const authorization of ["Bearer abc", "bearer eyJh.eyJz.c2ln", "Bearer abc+/=="])
      expect(authorizationRefusal(authorization), authorization).toBeNull();
    expect(authorizationRefusal(undefined)).toBeNull();
    expect(authorizationRefusal(null)).toBeNull();
  });
});

describe("navigationFromAnotherSite", () => {
  const request = (values: Record<string, string>) => new Request("http://app.example:3000/?token=t", { headers: values });

  it("is false for this site's pages and for what the visitor typed or bookmarked", async () => {
    const { navigationFromAnotherSite } = await guards();
    expect(navigationFromAnotherSite(request({ "sec-fetch-site": "same-origin" }))).toBe(false);
    expect(navigationFromAnotherSite(request({ "sec-fetch-site": "none" }))).toBe(false);
    expect(navigationFromAnotherSite(request({}))).toBe(false);
    expect(navigationFromAnotherSite(request({ referer: "http://app.example:3000/login" }))).toBe(false);
  });

  it("is true for another site's link, form or script, and for a sibling subdomain", async () => {
    const { navigationFromAnotherSite } = await guards();
    expect(navigationFromAnotherSite(request({ "sec-fetch-site": "cross-site" }))).toBe(true);
    expect(navigationFromAnotherSite(request({ "sec-fetch-site": "same-site" }))).toBe(true);
    expect(navigationFromAnotherSite(request({ "sec-fetch-site": "cross-site", referer: "http://app.example:3000/" }))).toBe(true);
    // A browser without Sec-Fetch-Site: its Referer names the other site.
    expect(navigationFromAnotherSite(request({ referer: "http://evil.example/prize" }))).toBe(true);
  });
});

describe("security headers", () => {
  it("add HSTS only when the app is served over https", async () => {
    expect((await guards({ APP_URL: "http://localhost:3000" })).commonSecurityHeaders()).not.toHaveProperty("Strict-Transport-Security");
    vi.resetModules();
    const secure = (await guards({ APP_URL: "https://personaforge.example" })).commonSecurityHeaders();
    expect(secure["Strict-Transport-Security"]).toBe("max-age=31536000; includeSubDomains");
    expect(secure["X-Content-Type-Options"]).toBe("nosniff");
  });

  it("let scripts run only from our origin or with the nonce, and never framed", async () => {
    const policy = (await guards()).contentSecurityPolicy("abc123");
    expect(policy).toContain("script-src 'self' 'nonce-abc123'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toMatch(/script-src[^;]*unsafe/);
  });
});
