// Accounts (docs/product.md, Registration and sign-in, Settings, Plans): rules and messages shared by the screens, the actions and
// the JSON API. Built on the dependency-free form rules (docs/decisions/002).
import { rule, type Rule, type Rules } from "./form-rules";

// Subscription statuses mirror the card payment provider's, plus our own 'free'; only 'active' is Premium.
export const SUBSCRIPTION_STATUSES = [
  "free",
  "active",
  "trialing",
  "past_due",
  "canceled",
  "incomplete",
  "incomplete_expired",
  "unpaid",
  "paused",
] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const NAME_MAX = 60;
export const PASSWORD_MIN = 8;
/** bcrypt reads at most 72 bytes; longer passwords would be silently cut. */
export const PASSWORD_MAX_BYTES = 72;

export function isPremium(status: string | null | undefined): boolean {
  return status === "active";
}

export const ACCOUNT_MESSAGES = {
  invalidEmail: "Invalid email address",
  passwordMin: "Password must be at least 8 characters",
  // The spec's words, and which special characters count (docs/product.md, Registration and sign-in).
  passwordRules: "Password must contain uppercase, lowercase, number, and special character. Special characters: @ $ ! % * ? &",
  passwordHint: "Must contain uppercase, lowercase, number, and special character. Special characters: @ $ ! % * ? &",
  passwordMax: "Password must be 72 characters or less",
  passwordRequired: "Password is required",
  firstNameMin: "First name must be at least 2 characters",
  lastNameMin: "Last name must be at least 2 characters",
  firstNameMax: `First name must be ${NAME_MAX} characters or less`,
  lastNameMax: `Last name must be ${NAME_MAX} characters or less`,
  nameCharacters: "Names cannot contain control characters",
  tokenRequired: "Reset token is required",
  currentPasswordRequired: "Current password is required",
  confirmEmailMismatch: "Type your e-mail address exactly to confirm",
} as const;

export const ACCOUNT_TOASTS = {
  registered: { title: "Registration Successful", description: "Please check your email to verify your account." },
  registrationFailed: { title: "Registration Failed", description: "Please check your information and try again." },
  signInFailed: { title: "Sign In Failed", description: "Please check your email and password." },
  verifyInvalid: "Invalid verification link. Please check your email for the correct link.",
  verifySuccess: "Email verified successfully!",
  verifyFailed: "Failed to verify email. The link may have expired.",
  verifyAlready: "This e-mail address is already verified. You can sign in.",
  profileUpdated: { title: "Profile Updated" },
  profileFailed: "Failed to update profile. Please try again.",
  notificationsUpdated: { title: "Notification Preferences Updated" },
  notificationsFailed: "Failed to update notification preferences. Please try again.",
} as const;

const controlCharacters = /[\p{Cc}\p{Cf}\u2028\u2029]/u;
const noControl: Rule = (v) => (controlCharacters.test(v) ? ACCOUNT_MESSAGES.nameCharacters : undefined);
const utf8Bytes = (v: string) => new TextEncoder().encode(v).length;

export const passwordRules: Rule[] = [
  rule.required(ACCOUNT_MESSAGES.passwordMin),
  (v) => ([...v].length < PASSWORD_MIN ? ACCOUNT_MESSAGES.passwordMin : undefined),
  (v) =>
    v.length >= PASSWORD_MIN && !(/[a-z]/.test(v) && /[A-Z]/.test(v) && /\d/.test(v) && /[@$!%*?&]/.test(v))
      ? ACCOUNT_MESSAGES.passwordRules
      : undefined,
  (v) => (utf8Bytes(v) > PASSWORD_MAX_BYTES ? ACCOUNT_MESSAGES.passwordMax : undefined),
];

const emailRules: Rule[] = [rule.required(ACCOUNT_MESSAGES.invalidEmail), rule.email(ACCOUNT_MESSAGES.invalidEmail)];

const nameRules = (min: string, max: string, required: boolean): Rule[] => [
  ...(required ? [rule.required(min)] : []),
  rule.minLength(2, min),
  rule.maxLength(NAME_MAX, max),
  noControl,
];

export type RegisterField = "firstName" | "lastName" | "email" | "password";
export const registerRules: Rules<RegisterField> = {
  firstName: nameRules(ACCOUNT_MESSAGES.firstNameMin, ACCOUNT_MESSAGES.firstNameMax, true),
  lastName: nameRules(ACCOUNT_MESSAGES.lastNameMin, ACCOUNT_MESSAGES.lastNameMax, true),
  email: emailRules,
  password: passwordRules,
};

export type LoginField = "email" | "password";
export const loginRules: Rules<LoginField> = {
  email: emailRules,
  password: [rule.required(ACCOUNT_MESSAGES.passwordRequired)],
};

export type EmailField = "email";
export const emailOnlyRules: Rules<EmailField> = { email: emailRules };

export type ResetField = "token" | "password";
export const resetPasswordRules: Rules<ResetField> = {
  token: [rule.required(ACCOUNT_MESSAGES.tokenRequired), rule.maxLength(200, ACCOUNT_MESSAGES.tokenRequired)],
  password: passwordRules,
};

export type ProfileField = "firstName" | "lastName";
export const profileRules: Rules<ProfileField> = {
  // docs/product.md, Settings: firstName optional and nullable, at least 2 characters when given.
  firstName: nameRules(ACCOUNT_MESSAGES.firstNameMin, ACCOUNT_MESSAGES.firstNameMax, false),
  lastName: nameRules(ACCOUNT_MESSAGES.lastNameMin, ACCOUNT_MESSAGES.lastNameMax, true),
};

export type ChangePasswordField = "currentPassword" | "newPassword";
export const changePasswordRules: Rules<ChangePasswordField> = {
  currentPassword: [rule.required(ACCOUNT_MESSAGES.currentPasswordRequired)],
  newPassword: passwordRules,
};

export const NOTIFICATION_PREFERENCES = [
  { key: "personaCreation", label: "Persona creation", description: "When a persona you are creating is ready." },
  { key: "narrativeGeneration", label: "Narrative generation", description: "When a backstory or narrative has been generated." },
  { key: "imageGeneration", label: "Image generation", description: "When a reference image is ready." },
  { key: "marketingEmails", label: "Product news", description: "Occasional e-mails about new features and offers." },
] as const;
export type NotificationKey = (typeof NOTIFICATION_PREFERENCES)[number]["key"];

/** docs/product.md, Navigation shell: 'firstName lastName', or 'User' without a first name. */
export function displayName(firstName: string | null | undefined, lastName: string | null | undefined): string {
  if (!firstName) return "User";
  return lastName ? `${firstName} ${lastName}` : firstName;
}

/** docs/product.md, Navigation shell: the uppercase first letter of the first name, or null for the generic icon. */
export function avatarInitial(firstName: string | null | undefined): string | null {
  const first = firstName?.trim()[0];
  return first ? first.toUpperCase() : null;
}
