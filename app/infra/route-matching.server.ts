// Remix matches a document's URL against the app's routes four times per request (the server
// runtime, the static handler, React Router's render and the lazy-discovery manifest), and
// React Router's matchRoutes flattens and ranks the whole route tree and compiles a regular
// expression per route on every call: about 0.3 ms a call with our routes, a sixth of a
// signed-in page's main-thread time (measured: docs/decisions/014-less-work-per-signed-in-request.md).
//
// Three of those four calls reach matchRoutes through @remix-run/router's exports object at
// call time, so the function there is replaced by one that remembers, per route-tree shape and
// URL path, which routes matched and with which params, and builds the same answer again from
// the route objects it is given. A tree it cannot describe (a route without an id, an id used
// twice), a path with a query or hash, and any other call shape go to the original unchanged.
import { createRequire } from "node:module";

interface Route {
  id?: string;
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
  children?: Route[];
}

interface Match {
  params: Record<string, string | undefined>;
  pathname: string;
  pathnameBase: string;
  route: Route;
}

type MatchRoutes = (routes: Route[], location: string | { pathname?: string }, basename?: string) => Match[] | null;

interface Shape {
  id: number;
  byId: Map<string, Route>;
}

interface Remembered {
  params: Record<string, string | undefined>;
  matches: { id: string; pathname: string; pathnameBase: string }[];
}

const MEMOISED = Symbol.for("personaforge.memoisedMatchRoutes");

/** How many (shape, basename, path) answers are kept; the oldest go first. */
export const REMEMBERED_PATHS = 2_000;

/** Wraps a matchRoutes function (exported for tests; the server uses memoiseRouteMatching). */
export function memoisedMatchRoutes(original: MatchRoutes, limit = REMEMBERED_PATHS): MatchRoutes {
  const shapes = new WeakMap<Route[], Shape | null>();
  const shapeIds = new Map<string, number>();
  const answers = new Map<string, Remembered | null>();

  function shapeOf(routes: Route[]): Shape | null {
    const known = shapes.get(routes);
    if (known !== undefined) return known;
    const byId = new Map<string, Route>();
    const parts: string[] = [];
    let describable = true;
    const walk = (list: Route[], depth: number) => {
      for (const route of list) {
        if (typeof route.id !== "string" || byId.has(route.id)) {
          describable = false;
          return;
        }
        byId.set(route.id, route);
        parts.push(`${depth}\u0001${route.id}\u0001${route.path ?? "\u0002"}\u0001${route.index ? 1 : 0}${route.caseSensitive ? 1 : 0}`);
        if (route.children?.length) walk(route.children, depth + 1);
        if (!describable) return;
      }
    };
    walk(routes, 0);
    let shape: Shape | null = null;
    if (describable) {
      const signature = parts.join("\u0000");
      let id = shapeIds.get(signature);
      if (id === undefined) shapeIds.set(signature, (id = shapeIds.size));
      shape = { id, byId };
    }
    shapes.set(routes, shape);
    return shape;
  }

  const memoised: MatchRoutes = function matchRoutes(this: unknown, routes, location, basename) {
    if (arguments.length > 3 || !Array.isArray(routes)) return original.apply(this, arguments as never);
    const pathname = typeof location === "string" ? location : location?.pathname || "/";
    if (typeof pathname !== "string" || pathname.includes("?") || pathname.includes("#")) return original(routes, location, basename);
    const shape = shapeOf(routes);
    if (!shape) return original(routes, location, basename);
    const key = `${shape.id}\u0000${basename ?? "/"}\u0000${pathname}`;
    const remembered = answers.get(key);
    if (remembered === null) return null;
    if (remembered) {
      const params = { ...remembered.params };
      return remembered.matches.map((m) => ({ params, pathname: m.pathname, pathnameBase: m.pathnameBase, route: shape.byId.get(m.id)! }));
    }
    const matches = original(routes, location, basename);
    // Kept only when every matched route is one of this tree's own objects, found by its id.
    if (matches === null || matches.every((m) => typeof m.route.id === "string" && shape.byId.get(m.route.id) === m.route)) {
      answers.set(
        key,
        matches && {
          params: { ...(matches[matches.length - 1]?.params ?? {}) },
          matches: matches.map((m) => ({ id: m.route.id!, pathname: m.pathname, pathnameBase: m.pathnameBase })),
        },
      );
      if (answers.size > limit) answers.delete(answers.keys().next().value as string);
    }
    return matches;
  };
  Object.defineProperty(memoised, MEMOISED, { value: true });
  return memoised;
}

/** Replaces matchRoutes on the @remix-run/router that Remix's server runtime uses (once). */
export function memoiseRouteMatching(): void {
  const fromRuntime = createRequire(createRequire(import.meta.url).resolve("@remix-run/server-runtime"));
  const router = fromRuntime("@remix-run/router") as { matchRoutes: MatchRoutes & { [MEMOISED]?: boolean } };
  if (router.matchRoutes[MEMOISED]) return;
  router.matchRoutes = memoisedMatchRoutes(router.matchRoutes);
}
