// The settings forms (docs/product.md, Settings) as zod schemas, for conform: the page
// validates with them as the creator types, and the action parses the post with them. Each
// field runs the account rules of ./account.ts, the rules the sign-in pages run without a
// schema library (docs/decisions/002) and the account service runs for the JSON API, so
// every door gives the same messages.
import * as z from "zod";

import { ACCOUNT_MESSAGES, changePasswordRules, NOTIFICATION_PREFERENCES, profileRules, type NotificationKey } from "./account";
import { rule, validateField, type Rule } from "./form-rules";

/** A text field checked by account rules: a missing value counts as empty; what passes is trimmed. */
function ruled(rules: Rule[]) {
  return z
    .string()
    .optional()
    .transform((value) => value ?? "")
    .superRefine((value, ctx) => {
      for (const message of validateField(rules, value)) ctx.addIssue({ code: "custom", message });
    })
    .transform((value) => value.trim());
}

/** Profile: first name optional (at least 2 characters when given), last name required. */
export const profileSchema = z.object({
  firstName: ruled(profileRules.firstName),
  lastName: ruled(profileRules.lastName),
});

export const changePasswordSchema = z.object({
  currentPassword: ruled(changePasswordRules.currentPassword),
  newPassword: ruled(changePasswordRules.newPassword),
});

/** What a refused profile or password change says above the form. */
export const SETTINGS_FAILURES = {
  profile: "Failed to update profile. Please try again.",
  passwords: "Please check the passwords.",
} as const;

/** The switches: a ticked box sends "on", an unticked one nothing. */
export const notificationsSchema = z.object(
  Object.fromEntries(
    NOTIFICATION_PREFERENCES.map(({ key }) => [
      key,
      z
        .boolean()
        .optional()
        .transform((on) => on ?? false),
    ]),
  ) as Record<NotificationKey, z.ZodPipe<z.ZodOptional<z.ZodBoolean>, z.ZodTransform<boolean, boolean | undefined>>>,
);

/**
 * Deleting the account: the creator's own e-mail typed exactly (case aside), and the current
 * password when the account has one (an account without one confirms from a mailed link).
 */
export function deleteAccountSchema(email: string, hasPassword: boolean) {
  return z.object({
    confirmEmail: z
      .string()
      .optional()
      .refine((value = "") => value.trim().toLowerCase() === email.toLowerCase(), ACCOUNT_MESSAGES.confirmEmailMismatch),
    password: hasPassword ? ruled([rule.required(ACCOUNT_MESSAGES.currentPasswordRequired)]) : z.string().optional(),
    token: z.string().optional(),
  });
}
