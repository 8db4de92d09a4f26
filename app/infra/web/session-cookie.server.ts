// How a request says who it is: `Authorization: Bearer <token>` (API clients keep the
// token from POST /api/auth/login as authToken) or the httpOnly pf_session cookie that
// holds the same token for HTML pages. In Supabase mode Supabase's own cookies carry
// the session as well; the adapter reads those.
import { createCookie } from "@remix-run/node";

import { ACCESS_TOKEN_TTL_S } from "../auth/types";
import { cookieSecret, cookieSecure } from "./cookies.server";

let cookie: ReturnType<typeof createCookie> | undefined;
function sessionCookie() {
  cookie ??= createCookie("pf_session", {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: cookieSecure(),
    secrets: [cookieSecret()],
    maxAge: ACCESS_TOKEN_TTL_S,
  });
  return cookie;
}

/**
 * The token of an `Authorization: Bearer <token>` header, or undefined when the header is
 * absent or is not exactly that. The one reading of the header: the cross-site check exempts
 * a request only when this finds a token, and a request whose header it cannot read is refused
 * before the app (never answered as the cookie's owner).
 */
export function parseBearer(header: string | null | undefined): string | undefined {
  const match = header ? /^Bearer ([A-Za-z0-9\-._~+/]{1,4096}=*)$/i.exec(header.trim()) : null;
  return match?.[1];
}

export function bearerToken(request: Request): string | undefined {
  return parseBearer(request.headers.get("authorization"));
}

export async function sessionToken(request: Request): Promise<string | undefined> {
  const value = await sessionCookie().parse(request.headers.get("cookie"));
  return typeof value === "string" && value.length <= 4096 ? value : undefined;
}

/** The token a request carries: the Authorization header first, then the session cookie. */
export async function requestToken(request: Request): Promise<string | undefined> {
  if (request.headers.has("authorization")) return bearerToken(request);
  return sessionToken(request);
}

export function commitSessionCookie(token: string): Promise<string> {
  return sessionCookie().serialize(token);
}

export function destroySessionCookie(): Promise<string> {
  return sessionCookie().serialize("", { maxAge: 0, expires: new Date(0) });
}
