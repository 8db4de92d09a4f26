import { DrizzleQueryError } from "drizzle-orm/errors";
import { describe, expect, it } from "vitest";

import { describeError, redactedUrl } from "./log.server";

describe("redactedUrl", () => {
  it("hides the values of tokens, codes, states and secret-looking parameters", () => {
    expect(redactedUrl("/?token=eyJhbGciOi.abc.def")).toBe("/?token=[redacted]");
    expect(redactedUrl("/reset-password?token=abc123&x=1")).toBe("/reset-password?token=[redacted]&x=1");
    expect(redactedUrl("/api/auth/verify-email?token=t0k")).toBe("/api/auth/verify-email?token=[redacted]");
    expect(redactedUrl("/auth/callback?code=c0de&state=st4te&iss=https%3A%2F%2Fidp")).toBe(
      "/auth/callback?code=[redacted]&state=[redacted]&iss=https%3A%2F%2Fidp",
    );
    for (const name of [
      "access_token",
      "refresh_token",
      "api_key",
      "apiKey",
      "client_secret",
      "password",
      "signature",
      "session",
      "otp",
      "id_token",
      "ACCESS%5FTOKEN",
    ]) {
      expect(redactedUrl(`/x?${name}=s3cr3t&q=nova`)).toBe(`/x?${name}=[redacted]&q=nova`);
    }
  });

  it("keeps everything else as it was sent", () => {
    expect(redactedUrl("/my-personas?tab=archived&q=nova&page=2")).toBe("/my-personas?tab=archived&q=nova&page=2");
    expect(redactedUrl("/persona/abc")).toBe("/persona/abc");
    expect(redactedUrl("/?index")).toBe("/?index");
    expect(redactedUrl("/x?%zz=1&token")).toBe("/x?%zz=1&token");
  });

  it("keeps a log line short", () => {
    expect(redactedUrl(`/x?q=${"a".repeat(10_000)}`).length).toBeLessThan(600);
  });
});

describe("describeError", () => {
  it("names a failed statement and the database's reason, never its values", () => {
    const cause = Object.assign(new Error('new row for relation "personas" violates check constraint "personas_card_meta_valid"'), {
      code: "23514",
    });
    const secret = "$2a$10$abcdefghijklmnopqrstuv";
    const error = new DrizzleQueryError(
      "insert into personas (name, card_meta) values ($1, $2)",
      ["Nova", secret + "x".repeat(7_000_000)],
      cause,
    );
    const line = describeError(error);
    expect(line).toContain("violates check constraint");
    expect(line).toContain("23514");
    expect(line).toContain("insert into personas");
    expect(line).not.toContain(secret);
    expect(line).not.toContain("Nova");
    expect(line.length).toBeLessThan(2_000);
  });

  it("is one line with where the error came from", () => {
    const line = describeError(new TypeError("bad\nthing"));
    expect(line).toMatch(/^TypeError: bad thing ← at /);
    expect(line).not.toContain("\n");
    expect(describeError("plain")).toBe("plain");
  });
});
