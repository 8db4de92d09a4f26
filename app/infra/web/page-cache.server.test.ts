import type { EntryContext } from "@remix-run/node";
import { describe, expect, it } from "vitest";

import { publicPageKey } from "./page-cache.server";

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
