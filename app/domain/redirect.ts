const BASE = "http://personaforge.invalid";

/**
 * Only same-site paths: one leading '/', never '//' or '/\' (which browsers treat as
 * another host), no control characters or backslashes. The answer is the path as a URL
 * serialises it (non-ASCII percent-encoded), so it is always a valid Location header.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/dashboard"): string {
  if (typeof to !== "string" || to.length > 2000) return fallback;
  if (!to.startsWith("/") || to.startsWith("//") || /[\u0000-\u001f\u007f\\]/.test(to)) return fallback;
  let url: URL;
  try {
    url = new URL(to, BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== BASE) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}
