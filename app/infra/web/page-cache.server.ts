// Public pages (landing, contact, legal) are the same for every anonymous visitor, so
// their rendered HTML is kept in memory per path, as a CDN would. Only a GET with no
// cookie (the sign-in device cookie aside: it shows nothing), no Authorization and no
// query string, answered 200 without Set-Cookie, by a route whose handle says
// `publicPage: true`, is cached; anything that could be personal (a toast, a session)
// carries a cookie and is rendered fresh.
import type { EntryContext } from "@remix-run/node";

import { hasCookiesBesidesDevice } from "./device-cookie.server";

export interface PublicPageHandle {
  publicPage?: boolean;
}

interface CachedPage {
  body: string;
  contentType: string;
}

const MAX_ENTRIES = 64;
const cache = new Map<string, CachedPage>();

export function publicPageKey(request: Request, context: EntryContext, status: number, headers: Headers): string | null {
  if (request.method !== "GET" || status !== 200) return null;
  if (hasCookiesBesidesDevice(request.headers.get("cookie")) || request.headers.has("authorization") || headers.has("set-cookie"))
    return null;
  const url = new URL(request.url);
  if (url.search !== "") return null;
  const matches = context.staticHandlerContext.matches;
  const leaf = matches[matches.length - 1];
  const handle = leaf ? (context.routeModules[leaf.route.id]?.handle as PublicPageHandle | undefined) : undefined;
  return handle?.publicPage ? url.pathname : null;
}

export function cachedPage(key: string): CachedPage | undefined {
  return cache.get(key);
}

export function storePage(key: string, page: CachedPage): void {
  if (!cache.has(key) && cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  cache.set(key, page);
}
