// The device cookie, after OWASP's "device cookie" pattern for sign-in limits: a browser
// that signed in to an account keeps a token for it (a random device id signed with the
// account's lowercased e-mail address). Its later password checks for that account count
// against the device alone (rate-limit.server.ts), so guessing from everywhere else, which
// locks the account's budget for unknown clients, does not lock the owner out of their own
// browsers. httpOnly, one cookie for up to five accounts, kept for 180 days and renewed at
// every sign-in.
import { randomBytes } from "node:crypto";

import { createCookie } from "@remix-run/node";

import { cookieSecure } from "./cookies.server";
import { signToken, verifiedPayload } from "./signed-token.server";

const DEVICE_COOKIE = "pf_device";
const PURPOSE = "sign-in device";
const MAX_ACCOUNTS = 5;
const DEVICE_COOKIE_TTL_S = 180 * 24 * 60 * 60;

let cookie: ReturnType<typeof createCookie> | undefined;
function deviceCookie() {
  // Each entry carries its own signature; the cookie itself needs none.
  cookie ??= createCookie(DEVICE_COOKIE, {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: cookieSecure(),
    maxAge: DEVICE_COOKIE_TTL_S,
  });
  return cookie;
}

const accountKey = (email: string) => email.trim().toLowerCase();

/**
 * Whether a Cookie header carries a cookie other than the device cookie. The device cookie
 * signs nobody in and shows nothing: a request carrying only it is anonymous (no session to
 * look up, no request forgery to fear, the same public page as for anyone).
 */
export function hasCookiesBesidesDevice(header: string | null | undefined): boolean {
  if (!header) return false;
  return header.split(";").some((part) => {
    const name = part.split("=", 1)[0]!.trim();
    return name !== "" && name !== DEVICE_COOKIE;
  });
}

async function entries(request: Request): Promise<string[]> {
  const value: unknown = await deviceCookie()
    .parse(request.headers.get("cookie"))
    .catch(() => null);
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string").slice(0, MAX_ACCOUNTS) : [];
}

/** The device id this request's browser holds for the account, when its device cookie is valid for it. */
export async function knownDevice(request: Request, email: string): Promise<string | undefined> {
  for (const entry of await entries(request)) {
    const device = verifiedPayload(PURPOSE, accountKey(email), entry);
    if (device) return device;
  }
  return undefined;
}

/** The Set-Cookie header after a successful sign-in: a fresh device id for the account, first; the other accounts' entries kept. */
export async function rememberDevice(request: Request, email: string): Promise<string> {
  const account = accountKey(email);
  const others = (await entries(request)).filter((entry) => !verifiedPayload(PURPOSE, account, entry));
  const fresh = signToken(PURPOSE, account, randomBytes(16).toString("base64url"));
  return deviceCookie().serialize([fresh, ...others].slice(0, MAX_ACCOUNTS));
}
