// The JSON API's calls found by path: one Remix resource route (`routes/api.$/route.ts`)
// answers every /api/* request and hands it to the call module whose pattern the rest of the
// path fits. Remix matches a request against all of the app's route modules each time it is
// asked (it flattens and ranks the whole route tree per request), so 45 calls as route modules
// of their own made every page pay for them (docs/decisions/033). Matching follows Remix's own
// rules, so every call answers at the same paths as when it was a route module of its own:
// - the path is decoded segment by segment, an encoded slash (%2F) staying inside its segment
//   and turning into '/' in the parameter's value; a path that does not decode is taken as it is;
// - static segments compare without regard to case, a `:param` takes one non-empty segment,
//   and trailing slashes are ignored;
// - where two patterns fit, the one Remix ranks higher wins: more segments, and a static
//   segment over a parameter (Remix's route score), then the order of the table.
// `api-calls.server.test.ts` checks all of this against Remix's `matchRoutes`.

export type ApiCallMatch<T> = { call: T; params: Record<string, string> };

type Pattern<T> = { segments: { static?: RegExp; param?: string }[]; score: number; order: number; call: T };

// Remix's route ranking (a route's score): each segment counts 1, plus 10 for a static one and 3
// for a parameter.
const STATIC_SEGMENT = 10;
const DYNAMIC_SEGMENT = 3;

function compile<T>(pattern: string, call: T, order: number): Pattern<T> {
  const segments = pattern.split("/").map((segment) => {
    if (!segment) throw new Error(`API call pattern '${pattern}' has an empty segment`);
    // A static segment is compared as Remix compares it: a case-insensitive regular expression.
    return segment.startsWith(":")
      ? { param: segment.slice(1) }
      : { static: new RegExp(`^${segment.replace(/[\\.*+^${}|()[\]?]/g, "\\$&")}$`, "i") };
  });
  const score = segments.reduce((sum, s) => sum + 1 + (s.param ? DYNAMIC_SEGMENT : STATIC_SEGMENT), 0);
  return { segments, score, order, call };
}

/** Decodes each segment as Remix does: an encoded '/' stays '%2F' so that segments keep their bounds. */
function decodeSegments(path: string): string[] {
  const raw = path.split("/");
  try {
    return raw.map((segment) => decodeURIComponent(segment).replace(/\//g, "%2F"));
  } catch {
    return raw;
  }
}

/**
 * The table of calls: `calls` maps a pattern relative to /api/ (`personas/:id/lorebook`) to its
 * module. Returns the function that finds the call for a request's path (`/api/...`), or null.
 */
export function apiCallTable<T>(prefix: string, calls: Readonly<Record<string, T>>): (pathname: string) => ApiCallMatch<T> | null {
  const patterns = Object.entries(calls)
    .map(([pattern, call], order) => compile(pattern, call, order))
    .sort((a, b) => b.score - a.score || a.order - b.order);
  const prefixSegments = prefix.split("/").filter(Boolean).length;

  return (pathname) => {
    const segments = decodeSegments(pathname).slice(1 + prefixSegments);
    while (segments.length > 0 && segments[segments.length - 1] === "") segments.pop();
    for (const pattern of patterns) {
      if (pattern.segments.length !== segments.length) continue;
      const params: Record<string, string> = {};
      let fits = true;
      for (let i = 0; i < segments.length && fits; i++) {
        const want = pattern.segments[i];
        const segment = segments[i];
        if (want.param) {
          if (segment) params[want.param] = segment.replace(/%2F/g, "/");
          else fits = false;
        } else {
          fits = want.static?.test(segment) ?? false;
        }
      }
      if (fits) return { call: pattern.call, params };
    }
    return null;
  };
}
