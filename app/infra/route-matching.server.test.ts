import { createRequire } from "node:module";

import { describe, expect, it, vi } from "vitest";

import {
  branchStaticHandlers,
  directLoaderRequests,
  isItsOwnLoaderCopy,
  memoisedConvertRoutes,
  memoisedEntryRouteModules,
  memoisedMatchRoutes,
  memoisedResolveTo,
  memoisedServerRoutes,
} from "./route-matching.server";

type MatchRoutes = Parameters<typeof memoisedMatchRoutes>[0];
const spy = () => vi.fn<MatchRoutes>((routes, location, basename) => matchRoutes(routes, location, basename));
const { matchRoutes, createStaticHandler, UNSAFE_convertRoutesToDataRoutes, resolveTo } = createRequire(
  createRequire(import.meta.url).resolve("@remix-run/server-runtime"),
)("@remix-run/router");

// A tree shaped like the app's: a pathless layout, index routes, params, a splat, an optional
// segment, a case-sensitive route and nested children.
const tree = () => [
  {
    id: "root",
    path: "",
    children: [
      { id: "routes/_index", index: true },
      { id: "routes/login", path: "login" },
      { id: "routes/CaseSensitive", path: "Case", caseSensitive: true },
      {
        id: "routes/_app",
        children: [
          { id: "routes/_app.dashboard", path: "dashboard" },
          { id: "routes/_app.my-personas", path: "my-personas" },
          {
            id: "routes/_app.persona.$id",
            path: "persona/:id",
            children: [
              { id: "routes/_app.persona.$id._index", index: true },
              { id: "routes/_app.persona.$id.history", path: "history" },
              { id: "routes/_app.persona.$id.history.compare", path: "history/compare" },
            ],
          },
        ],
      },
      { id: "routes/api.personas.$id.versions.$n", path: "api/personas/:id/versions/:n" },
      { id: "routes/lang.($lang).about", path: ":lang?/about" },
      { id: "routes/files.$", path: "files/*" },
      { id: "routes/$", path: "*" },
    ],
  },
];

const paths = [
  "/", "/login", "/login/", "/LOGIN", "/Case", "/case", "/dashboard", "/my-personas", "/persona/5f0c",
  "/persona/5f0c/history", "/persona/5f0c/history/compare", "/persona/a%20b", "/persona/%E2%9C%93/history",
  "/api/personas/x/versions/3", "/en/about", "/about", "/files/a/b/c.txt", "/nowhere/at/all", "//double",
];

describe("memoised route matching", () => {
  it("answers exactly what React Router's matchRoutes answers, first time and remembered, for a tree of the same shape built anew", () => {
    const memoised = memoisedMatchRoutes(matchRoutes);
    for (let round = 0; round < 3; round++) {
      const routes = tree(); // a new tree of the same shape each round, as Remix builds per render
      for (const path of paths) {
        for (const basename of [undefined, "/", "/persona"]) {
          const expected = matchRoutes(routes, path, basename);
          const got = memoised(routes, path, basename);
          expect(got, `${path} (basename ${basename})`).toEqual(expected);
          // The same route objects as the tree given, and one params object shared by the matches.
          got?.forEach((m: { route: unknown; params: unknown }, i: number) => {
            expect(m.route).toBe(expected[i].route);
            expect(m.params).toBe(got[0].params);
          });
        }
        expect(memoised(routes, { pathname: path })).toEqual(matchRoutes(routes, { pathname: path }));
      }
    }
  });

  it("computes a path once per tree shape; another shape, a query string or an unnamed route goes to the original", () => {
    const original = spy();
    const memoised = memoisedMatchRoutes(original);
    memoised(tree(), "/persona/1/history");
    memoised(tree(), "/persona/1/history");
    expect(original).toHaveBeenCalledTimes(1);

    const other = tree();
    other[0].children.push({ id: "routes/extra", path: "persona/:id/history" });
    memoised(other, "/persona/1/history");
    expect(original).toHaveBeenCalledTimes(2);

    memoised(tree(), "/persona/1/history?x=1");
    memoised(tree(), "/persona/1/history?x=1");
    expect(original).toHaveBeenCalledTimes(4);

    const unnamed = [{ path: "a" }];
    memoised(unnamed, "/a");
    memoised(unnamed, "/a");
    expect(original).toHaveBeenCalledTimes(6);
  });

  it("a caller changing the params it got does not change the next answer", () => {
    const memoised = memoisedMatchRoutes(matchRoutes);
    const first = memoised(tree(), "/persona/abc/history")!;
    first[0].params.id = "changed";
    expect(memoised(tree(), "/persona/abc/history")![0].params).toEqual({ id: "abc" });
  });

  it("keeps at most the given number of paths", () => {
    const original = spy();
    const memoised = memoisedMatchRoutes(original, 2);
    const routes = tree();
    for (const path of ["/persona/1", "/persona/2", "/persona/3", "/persona/1"]) memoised(routes, path);
    expect(original).toHaveBeenCalledTimes(4);
    memoised(routes, "/persona/1");
    expect(original).toHaveBeenCalledTimes(4);
  });
});

type AnyRoute = { id: string; children?: AnyRoute[]; [key: string]: unknown };

/** tree() with a loader and an action on every route: each answers its id, params and URL. */
function treeWithData(): AnyRoute[] {
  const add = (routes: AnyRoute[]): AnyRoute[] =>
    routes.map((route) => ({
      ...route,
      hasErrorBoundary: route.id === "root",
      loader: ({ params, request }: { params: object; request: Request }) => ({ route: route.id, params, url: request.url }),
      action: ({ params }: { params: object }) => ({ acted: route.id, params }),
      ...(route.children ? { children: add(route.children) } : {}),
    }));
  return add(tree() as AnyRoute[]);
}

/** What a user of the static handler sees: status, matched ids and params, data, errors. */
function seen(result: unknown): unknown {
  if (result instanceof Response) return { response: result.status, location: result.headers.get("location") };
  const context = result as { statusCode: number; matches: { route: { id: string }; params: object; pathname: string }[]; loaderData: object; actionData: object | null; errors: object | null };
  return {
    status: context.statusCode,
    matches: context.matches.map((m) => [m.route.id, m.params, m.pathname]),
    loaderData: context.loaderData,
    actionData: context.actionData,
    errors: context.errors && JSON.stringify(context.errors),
  };
}

describe("route objects built once", () => {
  it("convertRoutesToDataRoutes: the same data routes and manifest as React Router builds, and the same objects next time", () => {
    const memoised = memoisedConvertRoutes(UNSAFE_convertRoutesToDataRoutes);
    const routes = tree();
    const mapper = (route: { id: string }) => ({ hasErrorBoundary: route.id === "root" });
    const expectedManifest = {};
    const expected = UNSAFE_convertRoutesToDataRoutes(routes, mapper, undefined, expectedManifest);
    const firstManifest: Record<string, unknown> = {};
    const first = memoised(routes, mapper, undefined, firstManifest);
    expect(first).toEqual(expected);
    expect(Object.keys(firstManifest).sort()).toEqual(Object.keys(expectedManifest).sort());
    const secondManifest: Record<string, unknown> = {};
    expect(memoised(routes, mapper, undefined, secondManifest)).toBe(first);
    expect(secondManifest).toEqual(firstManifest);
    expect(secondManifest["routes/_app.dashboard"]).toBe(firstManifest["routes/_app.dashboard"]);
    // Another tree, another mapper or a manifest already in use is built anew.
    expect(memoised(tree(), mapper, undefined, {})).not.toBe(first);
    expect(memoised(routes, () => ({}), undefined, {})).not.toBe(first);
    expect(memoised(routes, mapper, undefined, { taken: {} })).not.toBe(first);
  });

  it("createServerRoutes and createEntryRouteModules: once per input, anything else to the original", () => {
    const original = vi.fn((..._args: unknown[]) => [{ id: "root" }]);
    const memoised = memoisedServerRoutes(original as never) as unknown as (...args: unknown[]) => unknown;
    const manifestRoutes = {};
    const modules = {};
    const future = {};
    const first = memoised(manifestRoutes, modules, future, false);
    expect(memoised(manifestRoutes, modules, future, false)).toBe(first);
    expect(original).toHaveBeenCalledTimes(1);
    memoised(manifestRoutes, {}, future, false);
    memoised(manifestRoutes, modules, future, true);
    memoised(manifestRoutes, modules, future, false, "root", {}, null);
    expect(original).toHaveBeenCalledTimes(4);

    const build = vi.fn((manifest: object) => ({ ...manifest }));
    const entryModules = memoisedEntryRouteModules(build);
    const manifest = { root: { module: {} } };
    expect(entryModules(manifest)).toBe(entryModules(manifest));
    expect(entryModules({ ...manifest })).not.toBe(entryModules(manifest));
    expect(build).toHaveBeenCalledTimes(2);
  });

  it("a static handler per matched branch answers every query and queryRoute exactly as the whole handler does", async () => {
    const routes = treeWithData();
    const whole = createStaticHandler(routes);
    const create = vi.fn(createStaticHandler);
    const branched = branchStaticHandlers(create as never, () => memoisedMatchRoutes(matchRoutes))(routes as never);
    const requests = (path: string) => [
      new Request(`http://localhost${path}`),
      new Request(`http://localhost${path}?index`),
      new Request(`http://localhost${path}`, { method: "POST", body: new URLSearchParams({ a: "1" }) }),
      new Request(`http://localhost${path}`, { method: "PATCH" }),
    ];
    for (let round = 0; round < 2; round++) {
      for (const path of paths) {
        const [a, b] = [requests(path), requests(path)];
        for (let i = 0; i < a.length; i++) {
          expect(seen(await branched.query(a[i]!)), `${a[i]!.method} ${a[i]!.url}`).toEqual(seen(await whole.query(b[i]!)));
        }
        for (const routeId of [undefined, "routes/_app.dashboard", "routes/files.$", "root"]) {
          const run = async (handler: typeof whole) => {
            try {
              return { data: await handler.queryRoute(new Request(`http://localhost${path}`), routeId ? { routeId } : undefined) };
            } catch (error) {
              return { thrown: error instanceof Response ? error.status : String((error as { status?: number }).status ?? error) };
            }
          };
          expect(await run(branched), `queryRoute ${path} ${routeId}`).toEqual(await run(whole));
        }
      }
    }
    // One handler per branch, built once: the whole tree's, and one for each branch that matched.
    const branches = new Set(paths.map((p) => JSON.stringify(matchRoutes(routes, p)?.map((m: { route: { id: string } }) => m.route.id) ?? null)));
    branches.delete("null");
    expect(create).toHaveBeenCalledTimes(1 + branches.size);
  });
});

describe("links resolved once per path", () => {
  it("answers what React Router's resolveTo answers, from any route and location, as a new object each time", () => {
    const original = vi.fn(resolveTo);
    const memoised = memoisedResolveTo(original as never);
    const tos = [
      "/", "/dashboard", "/dashboard/", "/persona/5f0c?tab=chat", "/persona/5f0c/history?from=1&to=2#v3", "/my-personas?q=a%20b",
      "/persona/%E2%9C%93", "//evil.example/x", "/a/../b", "history", "../edit", "?page=2", "#top", "", ".",
    ];
    const contexts: [string[], string, boolean][] = [
      [["/"], "/", false],
      [["/", "/persona/5f0c"], "/persona/5f0c/", false],
      [["/", "/persona/5f0c", "/persona/5f0c/history"], "/persona/5f0c/history", true],
    ];
    for (let round = 0; round < 2; round++) {
      for (const to of [...tos, { pathname: "/dashboard", search: "?x=1" }]) {
        for (const [routes, location, relative] of contexts) {
          const got = memoised(to, routes, location, relative);
          expect(got, `${JSON.stringify(to)} from ${location}`).toEqual(resolveTo(to, routes, location, relative));
          got.pathname = "changed"; // a caller changing its answer changes nobody else's
        }
      }
    }
    // Absolute paths without // or .. were worked out once each; the rest every time.
    const once = tos.filter((t) => t.startsWith("/") && !t.includes("//") && !t.includes("..")).length;
    const always = (tos.length - once + 1) * contexts.length * 2;
    expect(original).toHaveBeenCalledTimes(once + always);
  });
});

describe("loaders handed the request as it is when Remix's copy would be the same", () => {
  const runtime = createRequire(createRequire(import.meta.url).resolve("@remix-run/server-runtime"));
  const { callRouteLoader } = runtime("./data.js");
  const responses = runtime("./responses.js");
  const call = (request: Request, loader: (args: { request: Request }) => unknown, singleFetch = true) => ({
    request,
    params: { id: "1" },
    loadContext: { clientAddress: "127.0.0.1" },
    loader,
    routeId: "routes/x",
    singleFetch,
  });

  it("passes a plain GET or HEAD on as it is; anything Remix's copy would change goes to Remix's own", () => {
    for (const url of ["http://h/persona/1", "http://h/persona/1?page=2", "http://h/my-personas?tab=archived&q=caf%C3%A9", "http://h/x?a=1&a=2", "http://h/x?q=it's", "http://h/x?q=a+b&q="]) {
      expect(isItsOwnLoaderCopy(new Request(url)), url).toBe(true);
      expect(isItsOwnLoaderCopy(new Request(url, { method: "HEAD" })), url).toBe(true);
    }
    for (const url of ["http://h/x?", "http://h/x?index", "http://h/x?_routes=routes/a", "http://h/x?q=a%20b", "http://h/x?q=%2A", "http://h/x?q"]) {
      expect(isItsOwnLoaderCopy(new Request(url)), url).toBe(false);
    }
    expect(isItsOwnLoaderCopy(new Request("http://h/x", { method: "POST", body: "a=1" }))).toBe(false);
  });

  it("gives the loader the very request, with the URL, headers and signal Remix's copy would carry, and answers what Remix answers", async () => {
    const direct = directLoaderRequests(callRouteLoader, responses);
    const request = new Request("http://h/persona/1?page=2", { headers: { cookie: "a=b" } });
    const seen: Request[] = [];
    const loader = ({ request: given }: { request: Request }) => {
      seen.push(given);
      return { page: new URL(given.url).searchParams.get("page"), cookie: given.headers.get("cookie") };
    };
    const mine = await direct(call(request, loader));
    const remix = await callRouteLoader(call(request, loader));
    expect(mine).toEqual(remix);
    expect(seen[0]).toBe(request);
    expect(seen[1]).not.toBe(request);
    expect(seen[1]!.url).toBe(seen[0]!.url);
    expect(seen[1]!.method).toBe(seen[0]!.method);
    expect([...seen[1]!.headers]).toEqual([...seen[0]!.headers]);

    const thrown = (fn: () => Promise<unknown>) => fn().then(() => null, (error: Error) => error.message);
    const none = () => undefined;
    expect(await thrown(() => direct(call(request, none)))).toBe(await thrown(() => callRouteLoader(call(request, none))));
    const response = new Response(null, { status: 204 });
    expect(await direct(call(request, () => response))).toBe(response);
  });

  it("leaves every other call to Remix's own", async () => {
    const original = vi.fn(async () => "remix");
    const direct = directLoaderRequests(original, responses);
    for (const request of [new Request("http://h/x?index"), new Request("http://h/x?_routes=a"), new Request("http://h/x?q=a%20b")]) {
      expect(await direct(call(request, () => "mine"))).toBe("remix");
    }
    expect(await direct(call(new Request("http://h/x"), () => "mine", false))).toBe("remix");
    expect(original).toHaveBeenCalledTimes(4);
  });
});
