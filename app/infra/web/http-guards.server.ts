// Checks every request passes before the app sees it (app/server.mjs calls these through
// the server build), and the headers every answer carries.
import { hasCookiesBesidesDevice } from "./device-cookie.server";
import { getEnv } from "../setup/env.server";
import { parseBearer } from "./session-cookie.server";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export const CROSS_SITE_MESSAGE = "This request came from another site and was refused. Open PersonaForge itself and try again.";

/**
 * Refuses a state-changing request that a page on another site could have made with the
 * visitor's cookies (cross-site request forgery, including signing someone out or in):
 * it must come from our own host, by `Origin`, else by `Sec-Fetch-Site`; a request with
 * neither is refused only when it carries cookies (the sign-in device cookie aside: it
 * signs nobody in). Calls with a Bearer token are exempt: another site cannot attach one; the token is read by the same parser the session uses, so
 * a header that only looks like one is not exempt (and is refused by authorizationRefusal).
 * "Our host" is the one the app builds its URLs from (X-Forwarded-Host when TRUST_PROXY lets
 * the server keep it, else Host), so the two never disagree. Returns the refusal's message,
 * or null.
 */
export function crossSiteRefusal(method: string, requestHeaders: Headers | (() => Headers)): string | null {
  if (SAFE_METHODS.has(method.toUpperCase())) return null;
  // The server passes a function: a page view (GET) never builds the Headers object.
  const headers = typeof requestHeaders === "function" ? requestHeaders() : requestHeaders;
  if (parseBearer(headers.get("authorization"))) return null;
  const origin = headers.get("origin");
  if (origin !== null) {
    const host = headers.get("x-forwarded-host")?.split(",")[0]?.trim() || headers.get("host");
    return host && hostOf(origin) === host.toLowerCase() ? null : CROSS_SITE_MESSAGE;
  }
  const site = headers.get("sec-fetch-site");
  if (site !== null) return site === "same-origin" ? null : CROSS_SITE_MESSAGE;
  return hasCookiesBesidesDevice(headers.get("cookie")) ? CROSS_SITE_MESSAGE : null;
}

export const BAD_AUTHORIZATION_MESSAGE =
  "The Authorization header is not a valid sign-in token. Send Authorization: Bearer <token>, the token from POST /api/auth/login, or leave the header out.";

/**
 * Refuses (401) any request whose Authorization header is not a Bearer token the session can
 * read: such a request is never answered from the cookie instead. Returns the message, or null.
 */
export function authorizationRefusal(header: string | null | undefined): string | null {
  if (header === null || header === undefined) return null;
  return parseBearer(header) ? null : BAD_AUTHORIZATION_MESSAGE;
}

/**
 * Whether a page navigation was started by another site (a link, a form or a script on a page
 * elsewhere) rather than by this site or by the visitor typing the address or opening a
 * bookmark: `Sec-Fetch-Site` other than `same-origin` or `none`. A browser that does not send
 * that header is judged by its `Referer` (another origin's page means another site).
 */
export function navigationFromAnotherSite(request: Request): boolean {
  const site = request.headers.get("sec-fetch-site");
  if (site !== null) return site !== "same-origin" && site !== "none";
  const referer = request.headers.get("referer");
  if (!referer) return false;
  try {
    return new URL(referer).origin !== new URL(request.url).origin;
  } catch {
    return true;
  }
}

function hostOf(origin: string): string | null {
  try {
    return origin === "null" ? null : new URL(origin).host.toLowerCase();
  } catch {
    return null;
  }
}

/** Headers for every answer, static files included. */
export function commonSecurityHeaders(): Record<string, string> {
  const headers: Record<string, string> = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Frame-Options": "DENY",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
  };
  if (getEnv().APP_URL.startsWith("https://")) headers["Strict-Transport-Security"] = "max-age=31536000; includeSubDomains";
  return headers;
}

/**
 * The Content-Security-Policy of an HTML page: scripts only from our origin or inline with
 * this request's nonce (Remix's hydration data), never framed. Styles allow inline
 * attributes (React's style props); images may come from Supabase Storage in that mode.
 */
export function contentSecurityPolicy(nonce: string): string {
  const env = getEnv();
  const images = ["'self'", "data:", "blob:"];
  if (env.SUPABASE_URL) images.push(new URL(env.SUPABASE_URL).origin);
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self' 'unsafe-inline'",
    `img-src ${images.join(" ")}`,
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}
