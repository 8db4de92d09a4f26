// Every API call answers at the same paths as when it was a route module of its own: the call
// table finds, for any path, the call (and parameters) Remix's own matching finds among routes
// with the same patterns and the catch-all `api/*` (docs/decisions/033).
import { matchRoutes } from "@remix-run/react";
import { describe, expect, it, vi } from "vitest";

import { apiCallTable } from "~/infra/web/api-calls.server";

import { API_CALLS, loader } from "./route";

const patterns = Object.keys(API_CALLS);
const table = apiCallTable("/api", Object.fromEntries(patterns.map((p) => [p, p])));
const remixRoutes = [
  {
    id: "root",
    path: "",
    children: [{ id: "api/*", path: "api/*" }, ...patterns.map((p) => ({ id: p, path: `api/${p}` })), { id: "*", path: "*" }],
  },
];

function remixMatch(pathname: string) {
  const last = matchRoutes(remixRoutes, pathname)?.at(-1);
  if (!last || last.route.id === "api/*" || last.route.id === "*") return null;
  return { call: last.route.id, params: Object.fromEntries(Object.entries(last.params).filter(([k]) => k !== "*")) };
}

const values = ["x1", "0b1c7f5e-8a51-4d3e-9d52-1f6f3c2b9a10", "a%2Fb", "%E2%9C%93", "draft", "run", "compare", "login", "%E0%A4%A"];
const paths = new Set<string>();
for (const p of patterns) {
  for (const value of values) {
    const path = `/api/${p.replace(/:[a-zA-Z]+/g, value)}`;
    paths.add(path);
    paths.add(`${path}/`);
    paths.add(`${path}//`);
    paths.add(path.toUpperCase());
    paths.add(`${path}/extra`);
    paths.add(path.replace("/api/", "/api//"));
    paths.add(path.replace(/\/[^/]+$/, "/"));
  }
}
for (const odd of [
  "/api",
  "/api/",
  "/API/PERSONAS",
  "/api/personas/%2F",
  "/api/personas//lorebook",
  "/api/person%61s",
  "/api/%",
  "/api/auth/%ZZ",
])
  paths.add(odd);

describe("the API call table", () => {
  it(`finds what Remix's matching finds, on ${paths.size} paths`, () => {
    // Remix warns of each path that does not decode (%E0%A4%A); both then match it as it is.
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const differ = [...paths].filter((path) => JSON.stringify(table(path)) !== JSON.stringify(remixMatch(path)));
    expect(differ).toEqual([]);
    // Most of the paths are calls, with their parameters: the comparison is not of nulls.
    expect([...paths].filter((path) => table(path) !== null).length).toBeGreaterThan(paths.size / 2);
  });

  it("prefers a static segment over a parameter, as Remix ranks them", () => {
    expect(table("/api/personas/draft")?.call).toBe("personas/draft");
    expect(table("/api/personas/stats")?.call).toBe("personas/stats");
    expect(table("/api/auth/login")?.call).toBe("auth/login");
    expect(table("/api/auth/github")).toEqual({ call: "auth/:provider", params: { provider: "github" } });
    expect(table("/api/personas/p1/probes/runs")?.call).toBe("personas/:id/probes/runs");
    expect(table("/api/personas/p1/versions/compare")?.call).toBe("personas/:id/versions/compare");
    expect(table("/api/personas/p1/versions/3")).toEqual({ call: "personas/:id/versions/:n", params: { id: "p1", n: "3" } });
  });

  it("answers a path that is no call with a JSON 404 naming it, whatever the method", async () => {
    for (const method of ["GET", "POST", "DELETE"]) {
      const request = new Request("http://localhost/api/personas/p1/nothing", { method });
      const thrown = await Promise.resolve()
        .then(() => loader({ request, params: { "*": "personas/p1/nothing" }, context: {} }))
        .catch((e: unknown) => e);
      expect(thrown).toBeInstanceOf(Response);
      expect((thrown as Response).status).toBe(404);
      expect(await (thrown as Response).json()).toEqual({ message: "There is no API call at /api/personas/p1/nothing." });
    }
  });
});
