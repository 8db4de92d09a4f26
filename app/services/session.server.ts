// Who is asking, for routes: pages redirect strangers to /login?redirectTo=…, the JSON
// API answers 401. Also turns account failures into 4xx answers and carries the
// adapter's cookies (Supabase) and our session cookie onto every response.
import { data, redirect } from "@remix-run/node";

import type { SignedIn } from "~/infra/auth/types";
import { commitSessionCookie, destroySessionCookie } from "~/infra/web/session-cookie.server";

import { currentUser, requestContext, type CurrentUser, type RequestContext } from "./accounts.server";
import { ServiceError } from "./service-error.server";

export interface Signed {
  user: CurrentUser;
  ctx: RequestContext;
}

/** Response headers for this request: whatever the auth adapter set (Supabase cookies) plus extra. */
export function responseHeaders(ctx: RequestContext, extra?: HeadersInit): Headers {
  const headers = new Headers(extra);
  for (const [name, value] of ctx.responseHeaders) {
    if (name.toLowerCase() === "set-cookie") continue;
    headers.set(name, value);
  }
  for (const cookie of ctx.responseHeaders.getSetCookie()) headers.append("Set-Cookie", cookie);
  return headers;
}

type Lookup = Promise<{ user: CurrentUser | null; ctx: RequestContext }>;

// Look the user up once per request. Remix hands each loader its own copy of the Request, so
// the loaders of one page view (the layout's and the page's) share the server's per-request
// load context instead; only reads share it: after an action the loaders look again, so they
// see what the action changed (a new name, a sign-out). The credentials are part of the key.
const lookups = new WeakMap<object, { credentials: string; lookup: Lookup }>();

function shareKey(request: Request, context?: object): object {
  return context && (request.method === "GET" || request.method === "HEAD") ? context : request;
}

export function optionalUser(request: Request, context?: { clientAddress?: string }): Lookup {
  const key = shareKey(request, context);
  const credentials = `${request.headers.get("cookie") ?? ""}\n${request.headers.get("authorization") ?? ""}`;
  const shared = lookups.get(key);
  if (shared?.credentials === credentials) return shared.lookup;
  const lookup = (async () => {
    const ctx = requestContext(request, context);
    const { user, hadToken } = await currentUser(ctx);
    if (!user && hadToken) ctx.responseHeaders.append("Set-Cookie", await destroySessionCookie());
    return { user, ctx };
  })();
  lookups.set(key, { credentials, lookup });
  return lookup;
}

/** For pages: the signed-in user, or a redirect to /login that comes back here afterwards. */
export async function requireUser(request: Request, context?: { clientAddress?: string }): Promise<Signed> {
  const { user, ctx } = await optionalUser(request, context);
  if (!user) {
    const url = new URL(request.url);
    const back = `${url.pathname}${url.search}`;
    const to = back === "/" ? "/login" : `/login?redirectTo=${encodeURIComponent(back)}`;
    throw redirect(to, { headers: responseHeaders(ctx) });
  }
  return { user, ctx };
}

/** For the JSON API: the user behind the Bearer token or cookie, or a 401. */
export async function requireApiUser(request: Request, context?: { clientAddress?: string }): Promise<Signed> {
  const { user, ctx } = await optionalUser(request, context);
  if (!user) {
    throw Response.json(
      { message: "Authentication required. Sign in and send the token as Authorization: Bearer <token>." },
      { status: 401, headers: responseHeaders(ctx, { "WWW-Authenticate": 'Bearer realm="personaforge"' }) },
    );
  }
  return { user, ctx };
}

/** Redirect after signing in: stores the token in the session cookie (plus the adapter's cookies). */
export async function redirectSignedIn(ctx: RequestContext, session: Pick<SignedIn, "accessToken">, to: string, extra?: HeadersInit) {
  const headers = responseHeaders(ctx, extra);
  headers.append("Set-Cookie", await commitSessionCookie(session.accessToken));
  return redirect(to, { headers });
}

export async function redirectSignedOut(ctx: RequestContext, to: string, extra?: HeadersInit) {
  const headers = responseHeaders(ctx, extra);
  headers.append("Set-Cookie", await destroySessionCookie());
  return redirect(to, { headers });
}

function failureHeaders(error: ServiceError, ctx?: RequestContext): Headers {
  const headers = ctx ? responseHeaders(ctx) : new Headers();
  if (error.retryAfterSeconds) headers.set("Retry-After", String(error.retryAfterSeconds));
  return headers;
}

/**
 * A form action's answer to an account failure: the failure's status (and Retry-After),
 * its message, field errors and code, plus what the page needs to re-render the form.
 */
export function formFailure<T extends object>(error: unknown, ctx: RequestContext, payload: T) {
  if (!(error instanceof ServiceError)) throw error;
  return data(
    { ...payload, errors: error.errors ?? null, message: error.message, code: error.code ?? null },
    { status: error.status, headers: failureHeaders(error, ctx) },
  );
}

/**
 * For pages: runs a lookup whose 'not found' (a ServiceError 404, another user's id alike)
 * becomes the route's 404, shown by its error boundary. Other failures go on.
 */
export async function orNotFound<T>(ctx: RequestContext, lookup: () => Promise<T>): Promise<T> {
  try {
    return await lookup();
  } catch (error) {
    if (error instanceof ServiceError && error.status === 404) throw data(null, { status: 404, headers: responseHeaders(ctx) });
    throw error;
  }
}

/** The JSON error body of the API: `{ message, errors? }` with the failure's status. */
export function apiError(error: unknown, ctx?: RequestContext) {
  if (error instanceof ServiceError) {
    const headers = failureHeaders(error, ctx);
    return Response.json(
      { message: error.message, ...(error.errors ? { errors: error.errors } : {}), ...(error.code ? { code: error.code } : {}) },
      { status: error.status, headers },
    );
  }
  throw error;
}
