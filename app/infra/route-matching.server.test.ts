import { createRequire } from "node:module";

import { describe, expect, it, vi } from "vitest";

import { memoisedMatchRoutes } from "./route-matching.server";

type MatchRoutes = Parameters<typeof memoisedMatchRoutes>[0];
const spy = () => vi.fn<MatchRoutes>((routes, location, basename) => matchRoutes(routes, location, basename));
const { matchRoutes } = createRequire(createRequire(import.meta.url).resolve("@remix-run/server-runtime"))("@remix-run/router");

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
