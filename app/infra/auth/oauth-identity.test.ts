import { describe, expect, it } from "vitest";

import { IdentityRefused, identityFromGitHub, identityFromOidcClaims, splitFullName } from "./oauth-identity";

const google = (claims: Record<string, unknown>) =>
  identityFromOidcClaims("google", "Google", { sub: "1", email: "a@example.com", email_verified: true, ...claims });

describe("identityFromOidcClaims (Google, any OIDC issuer)", () => {
  it("takes given and family names, the picture and the verified flag", () => {
    expect(google({ given_name: "Grace", family_name: "Hopper", name: "Ignored Name", picture: "https://x.example/p.png" })).toEqual({
      provider: "google",
      subject: "1",
      email: "a@example.com",
      emailVerified: true,
      firstName: "Grace",
      lastName: "Hopper",
      avatarUrl: "https://x.example/p.png",
    });
  });

  it("splits `name` when there are no given/family names", () => {
    expect(google({ name: "Ada King Lovelace" })).toMatchObject({ firstName: "Ada", lastName: "King Lovelace" });
    expect(google({ name: "Cher" })).toMatchObject({ firstName: "Cher", lastName: null });
    expect(google({})).toMatchObject({ firstName: null, lastName: null, avatarUrl: null });
  });

  it("lower-cases the e-mail; `email_verified` must be true (or the string 'true')", () => {
    expect(google({ email: "Grace@Example.COM" }).email).toBe("grace@example.com");
    expect(google({ email_verified: "true" }).emailVerified).toBe(true);
    expect(google({ email_verified: false }).emailVerified).toBe(false);
    expect(google({ email_verified: undefined }).emailVerified).toBe(false);
  });

  it("leaves out a one-letter name instead of refusing", () => {
    expect(google({ given_name: "X", family_name: "Ray" })).toMatchObject({ firstName: null, lastName: "Ray" });
  });

  it.each([["javascript:alert(1)"], ["data:image/png;base64,AAAA"], ["/relative.png"], [`https://x.example/${"a".repeat(2100)}`]])(
    "refuses the picture %s",
    (picture) => {
      expect(() => google({ picture })).toThrow(/profile picture address that is not an http\(s\) web address/);
    },
  );

  it("refuses a name of 10,000 characters, or over 60 in one part, or with control characters", () => {
    expect(() => google({ name: "N".repeat(10_000) })).toThrow(IdentityRefused);
    expect(() => google({ given_name: "G".repeat(61) })).toThrow(/longer than 60 characters/);
    expect(() => google({ family_name: "Bad\u0007Name" })).toThrow(/control characters/);
  });

  it("needs an e-mail and a subject", () => {
    expect(() => google({ email: undefined })).toThrow(/did not share an e-mail address/);
    expect(() => google({ email: "not-an-address" })).toThrow(/not valid/);
    expect(() => google({ sub: undefined })).toThrow(/did not identify/);
  });
});

describe("identityFromGitHub", () => {
  const user = { id: 583231, login: "octocat", name: "The Octocat", avatar_url: "https://avatars.example/u/583231" };

  it("uses the primary address of /user/emails with its verified flag", () => {
    const emails = [
      { email: "other@example.com", primary: false, verified: true },
      { email: "Octo@Example.com", primary: true, verified: false },
    ];
    expect(identityFromGitHub(user, emails)).toEqual({
      provider: "github",
      subject: "583231",
      email: "octo@example.com",
      emailVerified: false,
      firstName: "The",
      lastName: "Octocat",
      avatarUrl: "https://avatars.example/u/583231",
    });
  });

  it("falls back to the login as first name", () => {
    expect(identityFromGitHub({ ...user, name: null }, [{ email: "o@example.com", primary: true, verified: true }])).toMatchObject({
      firstName: "octocat",
      lastName: null,
      emailVerified: true,
    });
  });

  it("refuses without any e-mail", () => {
    expect(() => identityFromGitHub(user, [])).toThrow(/did not share an e-mail address/);
  });
});

describe("splitFullName", () => {
  it("splits at the first run of spaces", () => {
    expect(splitFullName("  Jean   Luc  Picard ")).toEqual({ first: "Jean", last: "Luc Picard" });
    expect(splitFullName(null)).toEqual({ first: null, last: null });
  });
});
