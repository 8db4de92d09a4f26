// The contact form (docs/product.md, Public routes): name, e-mail and message required, subject optional
// (defaults to one built from the name). Submitting opens the visitor's own mail client.
import { rule, type Rules } from "./form-rules";
import { CONTACT_EMAIL } from "./site";

export const CONTACT_MESSAGES = {
  missingTitle: "Missing information",
  missingText: "Please fill in all required fields.",
  required: "This field is required",
  invalidEmail: "Invalid email address",
  openedTitle: "Email client opened",
  openedText: "Your message is ready in your mail app. Press send there to reach us.",
} as const;

export const CONTACT_LIMITS = { name: 100, subject: 200, message: 2000 } as const;

export type ContactField = "name" | "email" | "subject" | "message";

export const contactRules: Rules<ContactField> = {
  name: [
    rule.required(CONTACT_MESSAGES.required),
    rule.maxLength(CONTACT_LIMITS.name, `Name must be ${CONTACT_LIMITS.name} characters or less`),
  ],
  email: [rule.required(CONTACT_MESSAGES.required), rule.email(CONTACT_MESSAGES.invalidEmail)],
  subject: [rule.maxLength(CONTACT_LIMITS.subject, `Subject must be ${CONTACT_LIMITS.subject} characters or less`)],
  message: [
    rule.required(CONTACT_MESSAGES.required),
    // Mail clients cut very long mailto: links; 2000 characters open reliably.
    rule.maxLength(CONTACT_LIMITS.message, `Message must be ${CONTACT_LIMITS.message} characters or less`),
  ],
};

/** True when only "required" errors stand in the way: the 'Missing information' case. */
export function isMissingInformation(errors: Partial<Record<ContactField, string[]>>): boolean {
  return Object.values(errors).some((list) => list?.includes(CONTACT_MESSAGES.required));
}

export type ContactMessage = Record<ContactField, string>;

export function defaultSubject(name: string): string {
  return `Message from ${name}`;
}

/** The mailto: link that opens the visitor's mail client with the message filled in. */
export function contactMailto(message: ContactMessage, to: string = CONTACT_EMAIL): string {
  const subject = message.subject.trim() || defaultSubject(message.name.trim());
  const body = `${message.message.trim()}\n\n--\n${message.name.trim()} <${message.email.trim()}>`;
  return `mailto:${to}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`;
}
