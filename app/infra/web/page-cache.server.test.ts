import type { EntryContext } from "@remix-run/node";
import { describe, expect, it } from "vitest";

import { cachedPage, publicPageKey, renderedPageKey, storePage } from "./page-cache.server";

const context = (handle?: object) =>
  ({
    staticHandlerContext: { matches: [{ route: { id: "root" } }, { route: { id: "routes/leaf" } }] },
    routeModules: { root: {}, "routes/leaf": { handle } },
  }) as unknown as EntryContext;

const get = (url: string, headers: Record<string, string> = {}) => new Request(url, { headers });

describe("publicPageKey", () => {
  const pub = context({ publicPage: true });
  it("caches an anonymous GET of a public page by path", () => {
    expect(publicPageKey(get("http://x/contact"), pub, 200, new Headers())).toBe("/contact");
  });
  it("never caches what could be personal or varies", () => {
    expect(publicPageKey(get("http://x/", { cookie: "pf_toast=abc" }), pub, 200, new Headers())).toBeNull();
    expect(publicPageKey(get("http://x/", { authorization: "Bearer t" }), pub, 200, new Headers())).toBeNull();
    expect(publicPageKey(get("http://x/?token=abc"), pub, 200, new Headers())).toBeNull();
    expect(publicPageKey(get("http://x/"), pub, 200, new Headers({ "set-cookie": "a=1" }))).toBeNull();
    expect(publicPageKey(get("http://x/"), pub, 404, new Headers())).toBeNull();
    expect(publicPageKey(new Request("http://x/", { method: "POST" }), pub, 200, new Headers())).toBeNull();
  });
  it("only for routes that opt in", () => {
    expect(publicPageKey(get("http://x/dashboard"), context(), 200, new Headers())).toBeNull();
    expect(publicPageKey(get("http://x/dashboard"), context({ publicPage: false }), 200, new Headers())).toBeNull();
  });
});

describe("renderedPageKey", () => {
  const shows = (loaderData: unknown, extra: object = {}) =>
    ({ staticHandlerContext: { loaderData, actionData: null, errors: null, ...extra } }) as unknown as EntryContext;
  const dashboard = { root: { toast: null }, "routes/_app": { user: { id: "u1" } }, "routes/_app.dashboard": { recent: [] } };

  it("is the same for the same URL and the same data, and differs when either differs", () => {
    const key = renderedPageKey(get("http://x/dashboard"), shows(dashboard), 200);
    expect(key).toMatch(/^data:/);
    expect(renderedPageKey(get("http://x/dashboard"), shows(structuredClone(dashboard)), 200)).toBe(key);
    expect(renderedPageKey(get("http://x/dashboard?page=2"), shows(dashboard), 200)).not.toBe(key);
    const otherUser = { ...dashboard, "routes/_app": { user: { id: "u2" } } };
    expect(renderedPageKey(get("http://x/dashboard"), shows(otherUser), 200)).not.toBe(key);
    const withToast = { ...dashboard, root: { toast: { type: "success", title: "Saved" } } };
    expect(renderedPageKey(get("http://x/dashboard"), shows(withToast), 200)).not.toBe(key);
  });

  it("tells apart values that JSON would confuse", () => {
    const key = (data: unknown) => renderedPageKey(get("http://x/p"), shows({ leaf: data }), 200);
    expect(key({ a: undefined })).not.toBe(key({}));
    expect(key([undefined])).not.toBe(key([null]));
    expect(key({ at: new Date("2026-11-27T00:00:00Z") })).not.toBe(key({ at: new Date("2026-11-27T00:00:01Z") }));
  });

  it("keeps nothing it cannot compare: other objects, an action's answer, an error, another method or status", () => {
    expect(renderedPageKey(get("http://x/p"), shows({ leaf: { m: new Map([["a", 1]]) } }), 200)).toBeNull();
    expect(renderedPageKey(get("http://x/p"), shows({ leaf: { n: 1n } }), 200)).toBeNull();
    expect(renderedPageKey(get("http://x/p"), shows({ leaf: { f: () => 1 } }), 200)).toBeNull();
    expect(renderedPageKey(get("http://x/p"), shows(dashboard, { actionData: { "routes/p": { ok: true } } }), 200)).toBeNull();
    expect(renderedPageKey(get("http://x/p"), shows(dashboard, { errors: { "routes/p": new Error("x") } }), 200)).toBeNull();
    expect(renderedPageKey(get("http://x/p"), shows(dashboard), 404)).toBeNull();
    expect(renderedPageKey(new Request("http://x/p", { method: "POST" }), shows(dashboard), 200)).toBeNull();
  });
});

describe("kept pages", () => {
  it("keeps the most recently used within the size limit", () => {
    storePage("data:a", { body: "a".repeat(10), contentType: "text/html" });
    expect(cachedPage("data:a")?.body).toBe("a".repeat(10));
    // A page larger than a quarter of the room is never kept.
    storePage("data:huge", { body: "h".repeat(500_001), contentType: "text/html" });
    expect(cachedPage("data:huge")).toBeUndefined();
    expect(cachedPage("data:a")).toBeDefined();
  });
});
