// Toasts travel in their own signed flash cookie: set before a redirect, read and
// cleared by the root loader, so they show on the page the redirect lands on, with
// or without JavaScript.
import { createCookieSessionStorage, redirect } from "@remix-run/node";
import * as z from "zod";

import { toToast, type Toast, type ToastInput } from "~/domain/toast";

import { cookieSecret, cookieSecure } from "./cookies.server";

const FLASH_KEY = "toast";

// The cookie is signed, but what it carries is still checked before it is rendered.
const toastSchema = z.object({
  id: z.string().max(64),
  type: z.enum(["success", "error", "info"]),
  title: z.string().max(200),
  description: z.string().max(1000).optional(),
});

type ToastStorage = ReturnType<typeof createCookieSessionStorage<Record<string, never>, { toast: unknown }>>;
let storage: ToastStorage | undefined;
function toastStorage() {
  storage ??= createCookieSessionStorage<Record<string, never>, { toast: unknown }>({
    cookie: {
      name: "pf_toast",
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      secure: cookieSecure(),
      secrets: [cookieSecret()],
    },
  });
  return storage;
}

export async function toastCookie(toast: ToastInput): Promise<string> {
  const session = await toastStorage().getSession();
  session.flash(FLASH_KEY, toToast(toast));
  return toastStorage().commitSession(session);
}

export async function redirectWithToast(url: string, toast: ToastInput, init: ResponseInit = {}) {
  const headers = new Headers(init.headers);
  headers.append("Set-Cookie", await toastCookie(toast));
  return redirect(url, { ...init, headers });
}

/** Reads and clears the pending toast. */
export async function getToast(request: Request): Promise<{ toast: Toast | null; headers: Headers | null }> {
  const session = await toastStorage().getSession(request.headers.get("Cookie"));
  const raw = session.get(FLASH_KEY);
  if (raw === undefined) return { toast: null, headers: null };
  const parsed = toastSchema.safeParse(raw);
  return {
    toast: parsed.success ? parsed.data : null,
    headers: new Headers({ "Set-Cookie": await toastStorage().destroySession(session) }),
  };
}
