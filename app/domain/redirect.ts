const BASE = "http://personaforge.invalid";

/** Characters that never belong in a path we send a visitor to: controls and backslashes. */
const FORBIDDEN = /[\u0000-\u001f\u007f\\]/;

/** How many rounds of percent-decoding are checked (a proxy or browser may decode once more). */
const DECODE_ROUNDS = 4;

/**
 * Only same-site paths. The value is checked *after* it is normalised (dot segments such as
 * `/.//host` or `/a/..//host` collapse into `//host`) and decoded (`%2e`, `%2f`, `%5c`, also
 * encoded twice): whatever would then name another host (`//…`, `/\…`, a scheme) or carry a
 * control character falls back. The answer is the normalised path as a URL serialises it
 * (non-ASCII percent-encoded), so it is always a valid Location header and a safe `href`.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/dashboard"): string {
  if (typeof to !== "string" || to.length > 2000) return fallback;
  if (!to.startsWith("/") || FORBIDDEN.test(to)) return fallback;
  const url = sameSite(to);
  if (!url) return fallback;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // The normalised path must itself be a same-site path that reads back to the same address.
  if (!isSitePath(path) || sameSite(path)?.href !== url.href) return fallback;
  // Decoded, round after round, the path must still stay on the site.
  let current = url.pathname;
  for (let round = 0; round < DECODE_ROUNDS; round++) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(current);
    } catch {
      return fallback;
    }
    if (decoded === current) break;
    if (FORBIDDEN.test(decoded) || !isSitePath(decoded)) return fallback;
    const again = sameSite(decoded);
    if (!again || !isSitePath(again.pathname)) return fallback;
    current = decoded;
  }
  return path;
}

/** One leading slash and not two: `//x` and `/\x` name another host in a browser. */
function isSitePath(path: string): boolean {
  return path.startsWith("/") && path[1] !== "/" && path[1] !== "\\";
}

function sameSite(path: string): URL | null {
  try {
    const url = new URL(path, BASE);
    return url.origin === BASE ? url : null;
  } catch {
    return null;
  }
}
