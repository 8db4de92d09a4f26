import { describe, expect, it } from "vitest";

import type { MailMessage } from "~/infra/mail/mail.server";

import {
  accountDeletedMail,
  accountExistsMail,
  escapeHtml,
  passwordChangedMail,
  passwordResetMail,
  resetLink,
  verificationLink,
  verificationMail,
} from "./account-mail.server";

const TO = "ada@example.com";
const LINK = "http://localhost:3000/verify-email?token=a%2Bb%26c";
const LOGIN = "http://localhost:3000/login";
const RESET = "http://localhost:3000/reset-password?token=x%2Fy";
const EVIL = `<script>alert("x")</script> & 'co'`;

// Every builder, called with a given first name.
const builders: Record<string, (firstName?: string | null) => MailMessage> = {
  verificationMail: (firstName) => verificationMail({ to: TO, firstName, link: LINK }),
  passwordResetMail: (firstName) => passwordResetMail({ to: TO, firstName, link: RESET }),
  accountExistsMail: (firstName) => accountExistsMail({ to: TO, firstName, loginLink: LOGIN, resetLink: RESET }),
  passwordChangedMail: (firstName) => passwordChangedMail({ to: TO, firstName, resetLink: RESET }),
  accountDeletedMail: (firstName) => accountDeletedMail({ to: TO, firstName }),
};

/** The links an e-mail must carry, as they appear in the text and (escaped) in the HTML. */
const links: Record<string, string[]> = {
  verificationMail: [LINK],
  passwordResetMail: [RESET],
  accountExistsMail: [LOGIN, RESET],
  passwordChangedMail: [RESET],
  accountDeletedMail: [],
};

describe.each(Object.keys(builders))("%s", (name) => {
  const build = builders[name];

  it("is addressed, branded and has both a text and an HTML body", () => {
    const mail = build("Ada");
    expect(mail.to).toBe(TO);
    expect(mail.subject.length).toBeGreaterThan(10);
    expect(mail.subject.length).toBeLessThan(60);
    expect(mail.subject).not.toMatch(/[\r\n<>]/);
    expect(mail.text).toContain("PersonaForge");
    expect(mail.html).toContain("PersonaForge");
    expect(mail.html).toMatch(/^<!doctype html>/);
    expect(mail.html).toContain("</html>");
    expect(mail.text).not.toMatch(/<[a-z]/i);
  });

  it("greets by first name, or with 'Hi there,' without one", () => {
    expect(build("Ada").text.startsWith("Hi Ada,\n")).toBe(true);
    expect(build("Ada").html).toContain(">Hi Ada,</p>");
    for (const missing of [undefined, null, "", "   "]) {
      const mail = build(missing);
      expect(mail.text.startsWith("Hi there,\n")).toBe(true);
      expect(mail.html).toContain(">Hi there,</p>");
    }
  });

  it("escapes the name in the HTML", () => {
    const mail = build(EVIL);
    expect(mail.html).not.toContain("<script>");
    expect(mail.html).toContain("Hi &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;co&#39;,");
    // The text body is plain text: the name appears as written.
    expect(mail.text).toContain(`Hi ${EVIL},`);
  });

  it("carries its links in the text and the HTML (as a button and as a copyable URL)", () => {
    const mail = build("Ada");
    for (const link of links[name]) {
      expect(mail.text).toContain(`\n${link}\n`);
      const escaped = escapeHtml(link);
      expect(mail.html).toContain(`href="${escaped}"`);
      expect(mail.html).toContain(`>${escaped}</a>`);
    }
    if (links[name].length === 0) expect(mail.html).not.toContain("href=");
  });

  it("uses no external images or stylesheets", () => {
    const html = build("Ada").html;
    expect(html).not.toMatch(/<img|<link|<script|url\(/i);
  });
});

describe("the account e-mails", () => {
  it("say what they are about", () => {
    const verify = verificationMail({ to: TO, link: LINK });
    expect(verify.subject).toBe("Confirm your e-mail address");
    expect(verify.text).toContain("24 hours");
    expect(verify.html).toContain("24 hours");

    const reset = passwordResetMail({ to: TO, link: RESET });
    expect(reset.subject).toBe("Reset your PersonaForge password");
    expect(reset.text).toContain("1 hour");
    expect(reset.text).toContain("If you did not ask for this, ignore this e-mail; your password stays the same.");

    const exists = accountExistsMail({ to: TO, loginLink: LOGIN, resetLink: RESET });
    expect(exists.subject).toBe("You already have a PersonaForge account");
    expect(exists.text).toMatch(/already has an account/);
    expect(exists.text).toMatch(/If it wasn't you, there is nothing to do/);

    const changed = passwordChangedMail({ to: TO, resetLink: RESET });
    expect(changed.subject).toBe("Your PersonaForge password was changed");
    expect(changed.text).toMatch(/all other sessions were signed out/);
    expect(changed.text).toMatch(/If it wasn't you, reset your password now/);

    const deleted = accountDeletedMail({ to: TO });
    expect(deleted.subject).toBe("Your PersonaForge account has been deleted");
    expect(deleted.text).toMatch(/has been deleted/);
  });

  it("escape links in the HTML, so a link cannot break out of its attribute", () => {
    const evilLink = `http://localhost:3000/verify-email?token=a&b="><script>x</script>`;
    const mail = verificationMail({ to: TO, link: evilLink });
    expect(mail.html).not.toContain("<script>");
    expect(mail.html).toContain(`href="http://localhost:3000/verify-email?token=a&amp;b=&quot;&gt;&lt;script&gt;`);
  });
});

describe("link helpers", () => {
  it("build the verification and reset URLs", () => {
    expect(verificationLink("http://localhost:3000", "abc")).toBe("http://localhost:3000/verify-email?token=abc");
    expect(resetLink("https://personaforge.app", "abc")).toBe("https://personaforge.app/reset-password?token=abc");
  });

  it("encode the token", () => {
    const token = "a+b/c=d&e f?#";
    expect(verificationLink("http://x", token)).toBe("http://x/verify-email?token=a%2Bb%2Fc%3Dd%26e%20f%3F%23");
    expect(resetLink("http://x", token)).toBe("http://x/reset-password?token=a%2Bb%2Fc%3Dd%26e%20f%3F%23");
    expect(new URL(resetLink("http://x", token)).searchParams.get("token")).toBe(token);
  });
});

describe("escapeHtml", () => {
  it("escapes the five special characters", () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe("&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;");
    expect(escapeHtml("plain")).toBe("plain");
  });
});
