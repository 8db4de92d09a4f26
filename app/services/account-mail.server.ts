// The account e-mails, as pure builders: each returns a MailMessage with a plain-text and an
// HTML body. Everything a user or a URL can influence is escaped in the HTML.
import { CONTACT_EMAIL, PRODUCT_NAME } from "~/domain/site";
import type { MailMessage } from "~/infra/mail/mail.server";

const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

export function verificationLink(appUrl: string, token: string): string {
  return `${appUrl}/verify-email?token=${encodeURIComponent(token)}`;
}

export function resetLink(appUrl: string, token: string): string {
  return `${appUrl}/reset-password?token=${encodeURIComponent(token)}`;
}

// ---------------------------------------------------------------- layout

interface Button {
  label: string;
  url: string;
}

interface Content {
  to: string;
  subject: string;
  firstName?: string | null;
  /** Paragraphs before the button. */
  intro: string[];
  button?: Button;
  /** A second, smaller link below the first one. */
  secondary?: Button;
  /** Paragraphs after the button. */
  outro?: string[];
}

function greeting(firstName?: string | null): string {
  // A name is one line of plain text; collapse anything that would break the layout.
  const name = firstName?.replace(/\s+/g, " ").trim();
  return name ? `Hi ${name},` : "Hi there,";
}

const SIGN_OFF = `The ${PRODUCT_NAME} team`;

function renderText(c: Content): string {
  const blocks: string[] = [greeting(c.firstName), ...c.intro];
  if (c.button) blocks.push(`${c.button.label}:\n${c.button.url}`);
  if (c.secondary) blocks.push(`${c.secondary.label}:\n${c.secondary.url}`);
  blocks.push(...(c.outro ?? []), `— ${SIGN_OFF}`);
  return `${blocks.join("\n\n")}\n`;
}

const FONT = "font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";
const P = `margin:0 0 16px;font-size:16px;line-height:24px;color:#1f2937;${FONT}`;
const SMALL = `margin:0 0 8px;font-size:13px;line-height:20px;color:#6b7280;${FONT}`;

function paragraph(text: string): string {
  return `<p style="${P}">${escapeHtml(text)}</p>`;
}

function buttonHtml(b: Button): string {
  const url = escapeHtml(b.url);
  return [
    `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:8px 0 16px"><tr>`,
    `<td style="border-radius:6px;background:#4f46e5">`,
    `<a href="${url}" target="_blank" rel="noopener" style="display:inline-block;padding:12px 24px;border-radius:6px;background:#4f46e5;color:#ffffff;font-size:16px;font-weight:600;text-decoration:none;${FONT}">${escapeHtml(b.label)}</a>`,
    `</td></tr></table>`,
    `<p style="${SMALL}">If the button does not work, copy this address into your browser:</p>`,
    `<p style="${SMALL}word-break:break-all"><a href="${url}" style="color:#4f46e5">${url}</a></p>`,
  ].join("\n");
}

function secondaryHtml(b: Button): string {
  const url = escapeHtml(b.url);
  return [
    `<p style="${P}margin-top:16px">${escapeHtml(b.label)}:</p>`,
    `<p style="${SMALL}word-break:break-all"><a href="${url}" style="color:#4f46e5">${url}</a></p>`,
  ].join("\n");
}

function renderHtml(c: Content): string {
  const body = [
    paragraph(greeting(c.firstName)),
    ...c.intro.map(paragraph),
    ...(c.button ? [buttonHtml(c.button)] : []),
    ...(c.secondary ? [secondaryHtml(c.secondary)] : []),
    ...(c.outro ?? []).map(paragraph),
    `<p style="${P}margin-top:24px">— ${escapeHtml(SIGN_OFF)}</p>`,
  ].join("\n");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(c.subject)}</title>
</head>
<body style="margin:0;padding:0;background:#f3f4f6">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:#f3f4f6"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:560px;background:#ffffff;border-radius:8px;border:1px solid #e5e7eb">
<tr><td style="padding:24px 32px 0;font-size:20px;font-weight:700;color:#4f46e5;${FONT}">${escapeHtml(PRODUCT_NAME)}</td></tr>
<tr><td style="padding:16px 32px 24px">
${body}
</td></tr>
</table>
<p style="${SMALL}margin-top:16px">You received this e-mail because of your ${escapeHtml(PRODUCT_NAME)} account.</p>
</td></tr></table>
</body>
</html>
`;
}

function build(c: Content): MailMessage {
  return { to: c.to, subject: c.subject, text: renderText(c), html: renderHtml(c) };
}

/** The same layout for the other mails the product sends (notifications.server.ts). */
export type MailContent = Content;
export const composeMail: (c: MailContent) => MailMessage = build;

// ---------------------------------------------------------------- the e-mails

export function verificationMail(p: { to: string; firstName?: string | null; link: string }): MailMessage {
  return build({
    to: p.to,
    subject: "Confirm your e-mail address",
    firstName: p.firstName,
    intro: [`Welcome to ${PRODUCT_NAME}! Please confirm that this is your e-mail address so we can keep your account safe.`],
    button: { label: "Confirm my e-mail address", url: p.link },
    outro: ["This link is valid for 24 hours.", `If you did not create a ${PRODUCT_NAME} account, you can ignore this e-mail.`],
  });
}

export function passwordResetMail(p: { to: string; firstName?: string | null; link: string }): MailMessage {
  return build({
    to: p.to,
    subject: `Reset your ${PRODUCT_NAME} password`,
    firstName: p.firstName,
    intro: [`We received a request to reset the password of your ${PRODUCT_NAME} account. Choose a new one here:`],
    button: { label: "Choose a new password", url: p.link },
    outro: ["This link is valid for 1 hour.", "If you did not ask for this, ignore this e-mail; your password stays the same."],
  });
}

export function accountExistsMail(p: { to: string; firstName?: string | null; loginLink: string; resetLink: string }): MailMessage {
  return build({
    to: p.to,
    subject: `You already have a ${PRODUCT_NAME} account`,
    firstName: p.firstName,
    intro: [
      `Someone (maybe you) tried to sign up for ${PRODUCT_NAME} with this e-mail address, but it already has an account.`,
      "If that was you, just sign in:",
    ],
    button: { label: "Sign in", url: p.loginLink },
    secondary: { label: "Forgot your password? Reset it here", url: p.resetLink },
    outro: ["If it wasn't you, there is nothing to do: your account is unchanged and no new account was created."],
  });
}

export function passwordChangedMail(p: { to: string; firstName?: string | null; resetLink: string }): MailMessage {
  return build({
    to: p.to,
    subject: `Your ${PRODUCT_NAME} password was changed`,
    firstName: p.firstName,
    intro: [
      `The password of your ${PRODUCT_NAME} account was just changed. For your safety, all other sessions were signed out.`,
      "If this was you, there is nothing else to do.",
      "If it wasn't you, reset your password now:",
    ],
    button: { label: "Reset my password", url: p.resetLink },
  });
}

export function accountDeletionMail(p: { to: string; firstName?: string | null; link: string }): MailMessage {
  return build({
    to: p.to,
    subject: `Confirm the deletion of your ${PRODUCT_NAME} account`,
    firstName: p.firstName,
    intro: [
      `Someone signed in to your ${PRODUCT_NAME} account asked to delete it, with everything in it. If that was you, confirm it here:`,
    ],
    button: { label: "Confirm the deletion", url: p.link },
    outro: ["This link is valid for 1 hour.", "If you did not ask for this, ignore this e-mail; your account stays as it is."],
  });
}

export function accountDeletedMail(p: { to: string; firstName?: string | null }): MailMessage {
  return build({
    to: p.to,
    subject: `Your ${PRODUCT_NAME} account has been deleted`,
    firstName: p.firstName,
    intro: [
      `Your ${PRODUCT_NAME} account has been deleted as you asked. This cannot be undone.`,
      "Thank you for creating with us. You are welcome back any time: just sign up again.",
    ],
    outro: [`If you did not ask for this, please contact us at ${CONTACT_EMAIL}.`],
  });
}
