import { describe, expect, it } from "vitest";

import { CONTACT_MESSAGES, contactMailto, contactRules, defaultSubject, isMissingInformation } from "./contact";
import { validateValues } from "./form-rules";

describe("contact rules", () => {
  it("require name, e-mail and message; subject is optional", () => {
    const result = validateValues(contactRules, {});
    expect(result.ok).toBe(false);
    expect(result.errors).toEqual({
      name: [CONTACT_MESSAGES.required],
      email: [CONTACT_MESSAGES.required],
      message: [CONTACT_MESSAGES.required],
    });
    expect(isMissingInformation(result.errors)).toBe(true);
  });

  it("whitespace is not a value", () => {
    expect(validateValues(contactRules, { name: "   ", email: "a@b.co", message: "\n\t" }).errors).toEqual({
      name: [CONTACT_MESSAGES.required],
      message: [CONTACT_MESSAGES.required],
    });
  });

  it.each(["plainaddress", "a@b", "a@@b.co", "a b@c.co", "<script>@x.co", `${"a".repeat(250)}@b.co`])(
    "rejects the e-mail %s with 'Invalid email address'",
    (email) => {
      const result = validateValues(contactRules, { name: "Ada", email, message: "Hi" });
      expect(result.errors).toEqual({ email: ["Invalid email address"] });
      expect(isMissingInformation(result.errors)).toBe(false);
    },
  );

  it("caps lengths, counting characters not bytes", () => {
    const ok = validateValues(contactRules, { name: "é".repeat(100), email: "a@b.co", message: "👋".repeat(2000) });
    expect(ok.ok).toBe(true);
    const tooLong = validateValues(contactRules, { name: "x".repeat(101), email: "a@b.co", message: "y".repeat(2001) });
    expect(tooLong.errors).toEqual({
      name: ["Name must be 100 characters or less"],
      message: ["Message must be 2000 characters or less"],
    });
  });

  it("ignores values that are not strings (a file upload, a repeated field)", () => {
    const result = validateValues(contactRules, { name: { evil: true }, email: ["a@b.co"], message: 42 });
    expect(Object.keys(result.errors).sort()).toEqual(["email", "message", "name"]);
  });
});

describe("contactMailto", () => {
  it("fills in subject and body, defaulting the subject from the name", () => {
    const url = new URL(contactMailto({ name: "Ada", email: "ada@example.com", subject: "", message: "Hi & bye?" }, "hi@x.co"));
    expect(url.protocol).toBe("mailto:");
    expect(url.pathname).toBe("hi@x.co");
    expect(url.searchParams.get("subject")).toBe(defaultSubject("Ada"));
    expect(url.searchParams.get("body")).toBe("Hi & bye?\n\n--\nAda <ada@example.com>");
  });

  it("keeps a given subject and cannot be broken out of by the text", () => {
    const mailto = contactMailto({ name: "A", email: "a@b.co", subject: "x&cc=evil@x.co", message: "m" }, "hi@x.co");
    const url = new URL(mailto);
    expect(url.searchParams.get("subject")).toBe("x&cc=evil@x.co");
    expect(url.searchParams.get("cc")).toBeNull();
  });
});
