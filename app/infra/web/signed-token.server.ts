// Small signed values the app hands out and checks later without keeping them: an HMAC
// (SHA-256, keyed with the cookie secret) over what the token is for, whom it is for and
// its own payload. A token made for one purpose or one account is worth nothing for another.
import { createHmac, timingSafeEqual } from "node:crypto";

import { cookieSecret } from "./cookies.server";

function mac(purpose: string, subject: string, payload: string): Buffer {
  return createHmac("sha256", cookieSecret()).update(`${purpose}\n${subject}\n${payload}`).digest();
}

/** `payload.signature`; the payload must not contain a dot. */
export function signToken(purpose: string, subject: string, payload: string): string {
  return `${payload}.${mac(purpose, subject, payload).toString("base64url")}`;
}

/** The payload of a token signed for this purpose and subject, or undefined. */
export function verifiedPayload(purpose: string, subject: string, token: unknown): string | undefined {
  if (typeof token !== "string" || token.length > 200) return undefined;
  const dot = token.lastIndexOf(".");
  if (dot <= 0) return undefined;
  const payload = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1), "base64url");
  const expected = mac(purpose, subject, payload);
  return given.length === expected.length && timingSafeEqual(given, expected) ? payload : undefined;
}
