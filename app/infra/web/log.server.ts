// What the server writes to its log about a request or an error, without the secrets either
// may carry: sign-in, reset and verification links hold bearer tokens in their query, and a
// failed database statement carries every value it was given (a password hash, a whole card).

/** Query parameters whose values are never logged: tokens, codes, states and anything named like a secret. */
const SECRET_PARAMETER = /token|code|state|secret|passw|pwd|key|sig|auth|session|otp|nonce|jwt|credential|ticket|hash/i;

/** The longest error message or query text a log line keeps. */
const MAX_TEXT = 500;

/**
 * A request's path and query for the log: values of secret-looking parameters become
 * `[redacted]`, the rest is kept as sent. Never throws.
 */
export function redactedUrl(url: string): string {
  const mark = url.indexOf("?");
  if (mark < 0) return clip(url);
  const fragment = url.indexOf("#", mark);
  const query = url.slice(mark + 1, fragment < 0 ? undefined : fragment);
  const parts = query.split("&").map((part) => {
    const equals = part.indexOf("=");
    const rawName = equals < 0 ? part : part.slice(0, equals);
    let name = rawName;
    try {
      name = decodeURIComponent(rawName.replace(/\+/g, " "));
    } catch {
      // a malformed name is judged as written
    }
    return equals >= 0 && SECRET_PARAMETER.test(name) ? `${rawName}=[redacted]` : part;
  });
  return clip(`${url.slice(0, mark)}?${parts.join("&")}`);
}

/**
 * An error on one line for the log: its name and message and where it came from, never the
 * values of a failed database statement (only the statement, and the database's own reason).
 */
export function describeError(error: unknown, frames = 5): string {
  if (!(error instanceof Error)) return clip(String(error));
  const where = (error.stack ?? "")
    .split("\n")
    .filter((line) => line.trimStart().startsWith("at "))
    .slice(0, frames)
    .map((frame) => frame.trim());
  return [`${error.name}: ${messageOf(error)}`, ...where].join(" ← ");
}

function messageOf(error: Error): string {
  const query = (error as { query?: unknown }).query;
  if (typeof query === "string" && "params" in error) {
    // A failed statement (drizzle's DrizzleQueryError): its message lists every parameter.
    const cause = error.cause instanceof Error ? error.cause : null;
    const causeCode = (cause as { code?: unknown } | null)?.code;
    const code = typeof causeCode === "string" ? ` [${causeCode}]` : "";
    return `${cause ? `${clip(cause.message)}${code}` : "the statement failed"} in: ${clip(query)}`;
  }
  return clip(error.message);
}

function clip(text: string): string {
  const line = text.replace(/\s+/g, " ");
  return line.length > MAX_TEXT ? `${line.slice(0, MAX_TEXT)}… (${line.length} characters)` : line;
}
