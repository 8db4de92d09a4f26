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

// Remix also builds the route objects of a document anew for every render, from things that
// never change while the server runs (the build's route manifest and modules): the server
// runtime's route-module map (createEntryRouteModules), RemixServer's routes
// (createServerRoutes) and the static router's data routes (convertRoutesToDataRoutes, called
// by createStaticRouter). Each is reached through its module's exports object at call time, so
// each is replaced by one that builds once per input and hands the same objects back; nothing
// in a server render changes them. Built anew per render, they also made every matchRoutes
// call above describe the whole tree again, since a new tree is not in its WeakMap.

type AnyFunction = (...args: never[]) => unknown;

/** createEntryRouteModules(manifest), once per manifest object (exported for tests). */
export function memoisedEntryRouteModules<F extends (manifest: object) => object>(original: F): F {
  const kept = new WeakMap<object, object>();
  const memoised = function createEntryRouteModules(this: unknown, manifest: object) {
    if (arguments.length !== 1 || typeof manifest !== "object" || manifest === null) return original.apply(this, arguments as never);
    let modules = kept.get(manifest);
    if (!modules) kept.set(manifest, (modules = original(manifest)));
    return modules;
  };
  Object.defineProperty(memoised, MEMOISED, { value: true });
  return memoised as unknown as F;
}

/** createServerRoutes(manifestRoutes, routeModules, future, isSpaMode), once per such four (exported for tests). */
export function memoisedServerRoutes<F extends (manifestRoutes: object, routeModules: object, future: unknown, isSpaMode: unknown) => unknown>(original: F): F {
  const kept = new WeakMap<object, { routeModules: object; future: unknown; isSpaMode: unknown; routes: unknown }[]>();
  const memoised = function createServerRoutes(this: unknown, manifestRoutes: object, routeModules: object, future: unknown, isSpaMode: unknown) {
    // Its own recursion passes seven arguments (and calls itself directly, not through here).
    if (arguments.length !== 4 || typeof manifestRoutes !== "object" || manifestRoutes === null) return original.apply(this, arguments as never);
    let list = kept.get(manifestRoutes);
    if (!list) kept.set(manifestRoutes, (list = []));
    const hit = list.find((k) => k.routeModules === routeModules && k.future === future && k.isSpaMode === isSpaMode);
    if (hit) return hit.routes;
    const routes = original(manifestRoutes, routeModules, future, isSpaMode);
    if (list.length < 4) list.push({ routeModules, future, isSpaMode, routes });
    return routes;
  };
  Object.defineProperty(memoised, MEMOISED, { value: true });
  return memoised as unknown as F;
}

type ConvertRoutes = (routes: Route[], mapRouteProperties: unknown, parentPath?: string[], manifest?: Record<string, unknown>) => Route[];

/**
 * convertRoutesToDataRoutes(routes, mapRouteProperties, undefined, manifest), once per routes
 * array and mapRouteProperties: the caller's (empty) manifest is filled with the same
 * id → data route entries the first call made (exported for tests).
 */
export function memoisedConvertRoutes(original: ConvertRoutes): ConvertRoutes {
  const kept = new WeakMap<Route[], Map<unknown, { dataRoutes: Route[]; manifest: Record<string, unknown> }>>();
  const memoised = function convertRoutesToDataRoutes(this: unknown, routes, mapRouteProperties, parentPath, manifest) {
    if (
      arguments.length !== 4 ||
      !Array.isArray(routes) ||
      parentPath !== undefined ||
      typeof manifest !== "object" ||
      manifest === null ||
      Object.keys(manifest).length > 0
    ) {
      return original.apply(this, arguments as never);
    }
    let byMapper = kept.get(routes);
    if (!byMapper) kept.set(routes, (byMapper = new Map()));
    let hit = byMapper.get(mapRouteProperties);
    if (!hit) {
      const built: Record<string, unknown> = {};
      hit = { dataRoutes: original(routes, mapRouteProperties, undefined, built), manifest: built };
      if (byMapper.size < 4) byMapper.set(mapRouteProperties, hit);
    }
    Object.assign(manifest, hit.manifest);
    return hit.dataRoutes;
  } as ConvertRoutes;
  Object.defineProperty(memoised, MEMOISED, { value: true });
  return memoised;
}

interface StaticHandler {
  dataRoutes: Route[];
  query(request: Request, options?: object): Promise<unknown>;
  queryRoute(request: Request, options?: { routeId?: string }): Promise<unknown>;
}

type CreateStaticHandler = (routes: Route[], options?: { basename?: string }) => StaticHandler;

/** The matched routes alone, each holding only the next one: a tree with this one branch. */
function branchOnly(chain: Route[]): Route[] {
  let child: Route | undefined;
  for (let i = chain.length - 1; i >= 0; i--) {
    const { children: _children, ...route } = chain[i]!;
    child = child ? { ...route, children: [child] } : route;
  }
  return child ? [child] : [];
}

/**
 * The static handler matches every document and data request against the whole route tree
 * again (its own matchRoutes, which nothing outside it can reach): about 7 % of a signed-in
 * page's main thread. This createStaticHandler keeps the whole handler and, per matched branch
 * (found by the remembered matchRoutes over the same routes), a handler over that branch
 * alone, built once; a request goes to its branch's handler, whose match is the same routes
 * by the same ids and params. No match, a route id outside the branch, or a branch whose own
 * match would differ goes to the whole handler (exported for tests).
 */
export function branchStaticHandlers(original: CreateStaticHandler, matchRoutes: () => MatchRoutes, limit = 256): CreateStaticHandler {
  const wrapped = function createStaticHandler(this: unknown, routes: Route[], options?: { basename?: string }) {
    const whole = original(routes, options);
    if (arguments.length > 2 || !Array.isArray(routes)) return whole;
    const basename = options?.basename || "/";
    const branches = new Map<string, { handler: StaticHandler; ids: Set<string> } | null>();
    const handlerFor = (request: Request, routeId?: string): StaticHandler => {
      let pathname: string;
      try {
        pathname = new URL(request.url).pathname;
      } catch {
        return whole;
      }
      const matches = matchRoutes()(routes, pathname, basename);
      if (!matches || matches.length === 0) return whole;
      const key = matches.map((m) => m.route.id ?? "").join("\u0000");
      let branch = branches.get(key);
      if (branch === undefined) {
        const pruned = branchOnly(matches.map((m) => m.route));
        // The branch alone must match this path as the whole tree did (same ids, same params).
        const handler = original(pruned, options);
        const own = matchRoutes()(pruned, pathname, basename);
        const same =
          own !== null &&
          own.length === matches.length &&
          own.every((m, i) => m.route.id === matches[i]!.route.id && JSON.stringify(m.params) === JSON.stringify(matches[i]!.params));
        branch = same ? { handler, ids: new Set(matches.map((m) => m.route.id!)) } : null;
        if (branches.size < limit) branches.set(key, branch);
      }
      if (!branch || (routeId !== undefined && !branch.ids.has(routeId))) return whole;
      return branch.handler;
    };
    return {
      ...whole,
      query: (request: Request, queryOptions?: object) => handlerFor(request).query(request, queryOptions),
      queryRoute: (request: Request, queryOptions?: { routeId?: string }) => handlerFor(request, queryOptions?.routeId).queryRoute(request, queryOptions),
    };
  };
  Object.defineProperty(wrapped, MEMOISED, { value: true });
  return wrapped as CreateStaticHandler;
}

type ResolveTo = (to: unknown, routePathnames: string[], locationPathname: string, isPathRelative?: boolean) => { pathname: string; search: string; hash: string };

/**
 * resolveTo, which every <Link> and <NavLink> calls (twice) to turn its `to` into a path:
 * for an absolute path ("/persona/…?tab=chat") the answer depends on that text alone, so it is
 * remembered (at most `limit` of them) and handed out as a new object each time. Relative
 * paths, objects and anything unusual ("//", "..") go to the original (exported for tests).
 */
export function memoisedResolveTo(original: ResolveTo, limit = 5_000): ResolveTo {
  const kept = new Map<string, { pathname: string; search: string; hash: string }>();
  const memoised = function resolveTo(this: unknown, to: unknown, routePathnames: string[], locationPathname: string, isPathRelative?: boolean) {
    if (typeof to !== "string" || to.charCodeAt(0) !== 47 /* / */ || to.includes("//") || to.includes("..")) {
      return original.apply(this, arguments as never);
    }
    let path = kept.get(to);
    if (!path) {
      path = original(to, routePathnames, locationPathname, isPathRelative);
      if (kept.size >= limit) kept.delete(kept.keys().next().value as string);
      kept.set(to, { pathname: path.pathname, search: path.search, hash: path.hash });
      return path;
    }
    return { pathname: path.pathname, search: path.search, hash: path.hash };
  } as ResolveTo;
  Object.defineProperty(memoised, MEMOISED, { value: true });
  return memoised;
}

// Remix hands each loader a copy of the request without its `index` and `_routes` search
// parameters: two new Requests per loader (each copies the headers and follows the signal),
// about 30 µs, three loaders to a signed-in page. A GET or HEAD request with neither
// parameter, whose query is already written the way URLSearchParams writes it, is that copy
// already (same URL, method, headers and signal; no body): it is handed to the loader as it
// is, and what the loader returns is treated exactly as Remix treats it. Anything else, and
// every call without single fetch, goes to Remix's own.

interface LoaderCall {
  request: Request;
  params: unknown;
  loadContext: unknown;
  loader: (args: { request: Request; context: unknown; params: unknown }) => unknown;
  routeId: string;
  singleFetch: boolean;
}

type CallRouteLoader = (call: LoaderCall) => Promise<unknown>;

interface Responses {
  isDeferredData: (value: unknown) => value is { init?: ResponseInit };
  isRedirectStatusCode: (status: number) => boolean;
  redirect: (url: string, init?: ResponseInit) => Response;
}

/** The copy Remix would make of this request is the same request (see above). */
export function isItsOwnLoaderCopy(request: Request): boolean {
  if (request.method !== "GET" && request.method !== "HEAD") return false;
  if (!request.url.includes("?")) return true;
  const url = new URL(request.url);
  if (url.searchParams.has("index") || url.searchParams.has("_routes")) return false;
  const query = url.searchParams.toString();
  return query !== "" && url.search === `?${query}`;
}

/** Wraps the server runtime's callRouteLoader (exported for tests; the server uses memoiseRouteMatching). */
export function directLoaderRequests(original: CallRouteLoader, responses: Responses): CallRouteLoader {
  const direct: CallRouteLoader = async (call) => {
    if (!call.singleFetch || !isItsOwnLoaderCopy(call.request)) return original(call);
    // What Remix's callRouteLoader does with a single-fetch loader's answer.
    const result = await call.loader({ request: call.request, context: call.loadContext, params: call.params });
    if (result === undefined) {
      throw new Error(
        `You defined a loader for route "${call.routeId}" but didn't return anything from your \`loader\` function. Please return a value or \`null\`.`,
      );
    }
    if (responses.isDeferredData(result) && result.init && responses.isRedirectStatusCode(result.init.status || 200)) {
      return responses.redirect(new Headers(result.init.headers).get("Location")!, result.init);
    }
    return result;
  };
  Object.defineProperty(direct, MEMOISED, { value: true });
  return direct;
}

function replace<T extends Record<K, AnyFunction>, K extends keyof T & string>(module: T, name: K, wrap: (original: T[K]) => T[K]): void {
  const current = module[name] as T[K] & { [MEMOISED]?: boolean };
  if (typeof current !== "function") throw new Error(`route memoisation: ${name} is not a function in this version of Remix`);
  if (current[MEMOISED]) return;
  module[name] = wrap(current);
}

/**
 * Replaces, once, matchRoutes, convertRoutesToDataRoutes, resolveTo and createStaticHandler on
 * the @remix-run/router that Remix's server runtime and React Router use,
 * createEntryRouteModules and callRouteLoader in the server runtime and createServerRoutes in
 * @remix-run/react (the copies the build loads). Removing this call removes every one of them.
 */
export function memoiseRouteMatching(): void {
  const require = createRequire(import.meta.url);
  const fromRuntime = createRequire(require.resolve("@remix-run/server-runtime"));
  const router = fromRuntime("@remix-run/router") as {
    matchRoutes: MatchRoutes;
    UNSAFE_convertRoutesToDataRoutes: ConvertRoutes;
    createStaticHandler: CreateStaticHandler;
    resolveTo: ResolveTo;
  };
  replace(router, "matchRoutes", (original) => memoisedMatchRoutes(original));
  replace(router, "UNSAFE_convertRoutesToDataRoutes", (original) => memoisedConvertRoutes(original));
  replace(router, "resolveTo", (original) => memoisedResolveTo(original));
  replace(router, "createStaticHandler", (original) => branchStaticHandlers(original, () => router.matchRoutes));
  const data = fromRuntime("./data.js") as { callRouteLoader: CallRouteLoader };
  replace(data, "callRouteLoader", (original) => directLoaderRequests(original, fromRuntime("./responses.js") as Responses));
  const entry = fromRuntime("./entry.js") as { createEntryRouteModules: (manifest: object) => object };
  replace(entry, "createEntryRouteModules", (original) => memoisedEntryRouteModules(original));
  const remixReact = createRequire(require.resolve("@remix-run/react"));
  const routes = remixReact("./routes.js") as { createServerRoutes: (a: object, b: object, c: unknown, d: unknown) => unknown };
  replace(routes, "createServerRoutes", (original) => memoisedServerRoutes(original));
}
