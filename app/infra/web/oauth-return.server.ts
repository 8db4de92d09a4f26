// Where a third-party sign-in returns to: the page that sent the visitor to /login
// (?redirectTo=…), kept from /api/auth/{provider} to /auth/callback in a signed cookie that
// only the callback receives. Works the same for Supabase's providers and the embedded ones.
import { createCookie } from "@remix-run/node";

import { safeRedirect } from "~/domain/redirect";

import { cookieSecret, cookieSecure } from "./cookies.server";

let cookie: ReturnType<typeof createCookie> | undefined;
function returnCookie() {
  cookie ??= createCookie("pf_oauth_next", {
    httpOnly: true,
    sameSite: "lax",
    path: "/auth/callback",
    secure: cookieSecure(),
    secrets: [cookieSecret()],
    // As long as someone takes to sign in at a provider.
    maxAge: 10 * 60,
  });
  return cookie;
}

/** The Set-Cookie that remembers `to` (a same-site path; anything else means /dashboard). */
export function rememberReturnTo(to: FormDataEntryValue | string | null | undefined): Promise<string> {
  return returnCookie().serialize(safeRedirect(to));
}

/** Where to go after the callback, and the Set-Cookie that forgets it. */
export async function takeReturnTo(request: Request): Promise<{ to: string; clear: string }> {
  const value: unknown = await returnCookie().parse(request.headers.get("cookie"));
  const clear = await returnCookie().serialize("", { maxAge: 0, expires: new Date(0) });
  return { to: safeRedirect(typeof value === "string" ? value : null), clear };
}
