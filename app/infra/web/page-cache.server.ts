// Rendered documents kept in memory, two ways (decision 031):
// - Public pages (landing, contact, legal) are the same for every anonymous visitor, so their
//   HTML is kept per path, as a CDN would, and their loaders' data is not even compared. Only a
//   GET with no cookie (the sign-in device cookie aside: it shows nothing), no Authorization and
//   no query string, answered 200 without Set-Cookie, by a route whose handle says
//   `publicPage: true`, is kept that way.
// - Any other page's HTML is kept by what it shows: its URL and the data its routes' loaders
//   returned for this request. The loaders always run (they check the session, read the data,
//   set the headers); only React's render is skipped when the same URL gave the same data
//   before. A page is a function of its URL and its data (what depends on the clock, like
//   'Created 3 days ago', is worked out by the loader), so the answer is the one a render would
//   give. Data with anything but plain objects, arrays, strings, numbers, booleans, null and
//   dates is not kept; neither is an action's answer or an error page. Another creator's data is
//   never the same data (it names its owner), so one creator's page is never another's.
import { createHash } from "node:crypto";

import type { EntryContext } from "@remix-run/node";

import { hasCookiesBesidesDevice } from "./device-cookie.server";

export interface PublicPageHandle {
  publicPage?: boolean;
}

interface CachedPage {
  body: string;
  contentType: string;
}

interface KeptPage extends CachedPage {
  keptAt: number;
}

const MAX_ENTRIES = 256;
/** At most about 4 MB of documents (UTF-16 in the heap: up to two bytes a character). */
const MAX_CHARACTERS = 2_000_000;
/** A kept page is dropped ten minutes after it was rendered (the footer's year is the only clock a page reads). */
const PAGE_KEPT_MS = 10 * 60 * 1000;
const DATA_KEY = "data:";
const cache = new Map<string, KeptPage>();
let characters = 0;

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

/** The key of a page kept by its URL and its data, or null when this answer is not kept. */
export function renderedPageKey(request: Request, context: EntryContext, status: number): string | null {
  if (request.method !== "GET" || status !== 200) return null;
  const { loaderData, actionData, errors } = context.staticHandlerContext;
  if (actionData || errors) return null;
  const shown = dataText(loaderData);
  if (shown === null) return null;
  return DATA_KEY + createHash("sha256").update(request.url).update("\0").update(shown).digest("base64");
}

const UNDEFINED = "\u0000undefined";
class NotPlainData extends Error {}

/** The loaders' data as text, every value told apart; null when it holds anything but plain data. */
export function dataText(data: unknown): string | null {
  try {
    return JSON.stringify(data, function (this: Record<string, unknown>, key: string, value: unknown) {
      const raw = this[key];
      if (raw === undefined) return UNDEFINED;
      if (typeof raw === "function" || typeof raw === "symbol") throw new NotPlainData();
      if (typeof raw === "object" && raw !== null && !Array.isArray(raw) && !(raw instanceof Date)) {
        const prototype = Object.getPrototypeOf(raw) as unknown;
        if (prototype !== Object.prototype && prototype !== null) throw new NotPlainData();
      }
      return value;
    });
  } catch {
    // A Map, a class instance, a BigInt, a promise: not kept, rendered every time.
    return null;
  }
}

export function cachedPage(key: string): CachedPage | undefined {
  const page = cache.get(key);
  if (!page) return undefined;
  if (Date.now() - page.keptAt > PAGE_KEPT_MS) {
    forget(key, page);
    return undefined;
  }
  // The most recently used stay longest.
  cache.delete(key);
  cache.set(key, page);
  return page;
}

export function storePage(key: string, page: CachedPage): void {
  const old = cache.get(key);
  if (old) forget(key, old);
  if (page.body.length > MAX_CHARACTERS / 4) return;
  while (cache.size > 0 && (cache.size >= MAX_ENTRIES || characters + page.body.length > MAX_CHARACTERS)) {
    const [oldestKey, oldest] = cache.entries().next().value!;
    forget(oldestKey, oldest);
  }
  cache.set(key, { ...page, keptAt: Date.now() });
  characters += page.body.length;
}

function forget(key: string, page: KeptPage): void {
  cache.delete(key);
  characters -= page.body.length;
}
