// /settings (docs/product.md, Settings): tabs Profile, Notifications and Account, as links
// (?tab=…) so they work without JavaScript. One action, dispatched on a hidden `intent`:
// each form posts, the action parses it with the form's schema (the one the page checks
// with as the creator types) and success redirects back with a flash toast. Failures come
// back as conform's reply: field errors with what was typed (never a password), plus a
// toast when JavaScript runs. Deleting the account asks
// for the current password; an account without one (signed up through a provider) is
// mailed a link back here instead, and the deletion goes through with its token.
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useMemo, useRef } from "react";

import { PasswordField } from "~/components/auth-layout";
import { Avatar } from "~/components/avatar";
import { controlProps } from "~/components/form-controls";
import { useToast } from "~/components/toaster";
import { Field, FormAlert } from "~/components/ui/field";
import { ACCOUNT_MESSAGES, ACCOUNT_TOASTS, NOTIFICATION_PREFERENCES, type NotificationKey } from "~/domain/account";
import { changePasswordSchema, deleteAccountSchema, notificationsSchema, profileSchema, SETTINGS_FAILURES } from "~/domain/account-forms";
import { PRODUCT_NAME } from "~/domain/site";
import {
  httpError,
  readFormData,
  redirectWithToast,
  toastCookie,
  changePassword,
  deleteAccount,
  deletionTokenValid,
  DELETION_LINK_INVALID,
  getNotificationPreferences,
  hasPassword,
  signInMethod,
  parseNotificationSettings,
  updateNotificationPreferences,
  updateProfile,
  invalidSubmission,
  refusedSubmission,
  redirectSignedIn,
  redirectSignedOut,
  requireUser,
  responseHeaders,
} from "~/services/index.server";
import { buttonClass } from "~/components/ui/button";

const TABS = [
  { id: "profile", label: "Profile" },
  { id: "notifications", label: "Notifications" },
  { id: "account", label: "Account" },
] as const;
type Tab = (typeof TABS)[number]["id"];

const INTENTS = ["profile", "notifications", "change-password", "delete-account"] as const;
type Intent = (typeof INTENTS)[number];

const TAB_OF_INTENT: Record<Intent, Tab> = {
  profile: "profile",
  notifications: "notifications",
  "change-password": "account",
  "delete-account": "account",
};

const SETTINGS_TOASTS = {
  passwordChanged: { title: "Password Changed", description: "Your other sessions have been signed out." },
  accountDeleted: { title: "Account Deleted", description: "Your account and everything in it have been removed." },
  deletionMailed: { title: "Check your e-mail" },
} as const;

function parseTab(value: string | null): Tab {
  return TABS.find((tab) => tab.id === value)?.id ?? "profile";
}

const tabUrl = (tab: Tab) => `/settings?tab=${tab}`;

// The e-mail and the picture are read-only (docs/product.md, Settings); why depends on how the creator signs in.
const SETTINGS_TEXT = {
  pictureViaProvider: "Managed by your sign-in provider; it cannot be changed here.",
  pictureViaEmail: "Your initial stands in for a picture; accounts that sign in with a provider show its picture.",
  emailViaProvider: "Managed by your sign-in provider; it cannot be changed here.",
  emailViaEmail: "The address you sign in with; it cannot be changed here.",
} as const;

// docs/product.md, Settings: what the switches send; 'Product news' only keeps the choice.
const NOTIFICATION_TEXT = {
  intro:
    "Choose which e-mails you receive. Reference images are mailed when they finish after you left their page; new personas and backstories come together in one e-mail, at most once an hour.",
  noMarketing: "We send no marketing e-mails yet; this keeps your choice for when we do.",
} as const;

export const meta: MetaFunction = () => [{ title: `Settings · ${PRODUCT_NAME}` }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user, ctx } = await requireUser(request, context);
  const url = new URL(request.url);
  const tab = parseTab(url.searchParams.get("tab"));
  const [notifications, authMethod, passwordSet] = await Promise.all([
    tab === "notifications" ? getNotificationPreferences(user) : null,
    tab === "profile" ? signInMethod(user) : "email",
    tab === "account" ? hasPassword(ctx, user) : true,
  ]);
  // The link mailed to an account without a password comes back here with its token.
  const linkToken = tab === "account" ? url.searchParams.get("deleteToken") : null;
  const linkValid = linkToken !== null && deletionTokenValid(user, linkToken);
  return data(
    {
      tab,
      user: {
        email: user.email,
        firstName: user.firstName,
        lastName: user.lastName,
        profileImageUrl: user.profileImageUrl,
        /** E-mail and password, or a sign-in provider (whose account holds the picture and address). */
        viaProvider: authMethod !== "email",
      },
      notifications,
      deletion: {
        hasPassword: passwordSet,
        token: linkValid ? linkToken : null,
        linkInvalid: linkToken !== null && !linkValid,
      },
    },
    { headers: responseHeaders(ctx) },
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { user, ctx } = await requireUser(request, context);
  const formData = await readFormData(request);
  const intent = INTENTS.find((name) => name === formData.get("intent"));
  if (!intent) return httpError(400, "Unknown settings action.");

  switch (intent) {
    case "profile": {
      const submission = parseWithZod(formData, { schema: profileSchema });
      if (submission.status !== "success") {
        return invalidSubmission(submission, ctx, { intent }, { formErrors: [SETTINGS_FAILURES.profile] });
      }
      try {
        await updateProfile(user, submission.value);
      } catch (error) {
        return refusedSubmission(error, submission, ctx, { intent });
      }
      return redirectWithToast(tabUrl("profile"), { type: "success", ...ACCOUNT_TOASTS.profileUpdated }, { headers: responseHeaders(ctx) });
    }
    case "notifications": {
      const submission = parseWithZod(formData, { schema: notificationsSchema });
      if (submission.status !== "success") {
        return invalidSubmission(submission, ctx, { intent }, { formErrors: [ACCOUNT_TOASTS.notificationsFailed] });
      }
      try {
        await updateNotificationPreferences(user, parseNotificationSettings(submission.value, "json"));
      } catch (error) {
        return refusedSubmission(error, submission, ctx, { intent });
      }
      return redirectWithToast(
        tabUrl("notifications"),
        { type: "success", ...ACCOUNT_TOASTS.notificationsUpdated },
        { headers: responseHeaders(ctx) },
      );
    }
    case "change-password": {
      const hideFields = ["currentPassword", "newPassword"];
      const submission = parseWithZod(formData, { schema: changePasswordSchema });
      if (submission.status !== "success") {
        return invalidSubmission(submission, ctx, { intent }, { hideFields, formErrors: [SETTINGS_FAILURES.passwords] });
      }
      try {
        const session = await changePassword(ctx, user, submission.value);
        // The change signs out every other session; this one carries on with the new token.
        return redirectSignedIn(ctx, session, tabUrl("account"), {
          "Set-Cookie": await toastCookie({ type: "success", ...SETTINGS_TOASTS.passwordChanged }),
        });
      } catch (error) {
        return refusedSubmission(error, submission, ctx, { intent }, { hideFields });
      }
    }
    case "delete-account": {
      const hideFields = ["password"];
      const schema = deleteAccountSchema(user.email, await hasPassword(ctx, user));
      const submission = parseWithZod(formData, { schema });
      if (submission.status !== "success") return invalidSubmission(submission, ctx, { intent }, { hideFields });
      try {
        // The password as typed: the service checks it (counted like a sign-in).
        const password = String(formData.get("password") ?? "").slice(0, 1000);
        const { confirmEmail, token } = submission.value;
        const result = await deleteAccount(ctx, user, { confirmEmail, password, token: token?.slice(0, 200) ?? "" });
        if (result.status === "mailed") {
          return redirectWithToast(
            tabUrl("account"),
            { type: "info", ...SETTINGS_TOASTS.deletionMailed, description: result.message },
            { headers: responseHeaders(ctx) },
          );
        }
        return redirectSignedOut(ctx, "/", { "Set-Cookie": await toastCookie({ type: "success", ...SETTINGS_TOASTS.accountDeleted }) });
      } catch (error) {
        // A wrong password is said beside the field; a broken link above the form.
        return refusedSubmission(error, submission, ctx, { intent }, { hideFields, alert: false });
      }
    }
  }
}

type ActionResult = { intent: Intent; result: SubmissionResult<string[]>; message: string | null; code: string | null };

export default function Settings() {
  const { tab, user, notifications, deletion } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as ActionResult | undefined;
  const toast = useToast();

  // docs/product.md, Settings: with JavaScript a failed save also raises a toast (one at a time, by the toaster).
  useEffect(() => {
    if (!actionData?.message) return;
    const description =
      actionData.intent === "notifications" ? ACCOUNT_TOASTS.notificationsFailed : actionData.message || ACCOUNT_TOASTS.profileFailed;
    toast({ type: "error", title: "Error", description });
  }, [actionData, toast]);

  // A failure belongs to the form that caused it, whatever the address says.
  const failure = (intent: Intent) => (actionData?.intent === intent ? actionData : undefined);
  const shownTab = actionData ? TAB_OF_INTENT[actionData.intent] : tab;

  return (
    <div className="mx-auto max-w-3xl">
      <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Settings</h1>
      <p className="mt-1 text-slate-600">Manage your profile, notifications and account.</p>

      <nav aria-label="Settings sections" className="mt-6 border-b border-slate-200">
        <ul className="-mb-px flex gap-1 overflow-x-auto">
          {TABS.map(({ id, label }) => {
            const current = id === shownTab;
            return (
              <li key={id}>
                <Link
                  to={tabUrl(id)}
                  preventScrollReset
                  aria-current={current ? "page" : undefined}
                  className={`inline-block border-b-2 px-4 py-2.5 text-sm font-medium ${
                    current
                      ? "border-brand-700 text-brand-800"
                      : "border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900"
                  }`}
                >
                  {label}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>

      <div className="mt-6">
        {shownTab === "profile" ? <ProfileTab user={user} failure={failure("profile")} /> : null}
        {shownTab === "notifications" ? <NotificationsTab current={notifications} failure={failure("notifications")} /> : null}
        {shownTab === "account" ? (
          <AccountTab
            email={user.email}
            deletion={deletion}
            passwordFailure={failure("change-password")}
            deleteFailure={failure("delete-account")}
          />
        ) : null}
      </div>
    </div>
  );
}

const cardClass = "rounded-2xl border border-slate-200 bg-white p-6 shadow-sm";
const primaryButton = buttonClass("primary", "lg");

function useBusy(intent: Intent) {
  const navigation = useNavigation();
  return navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
}

function ProfileTab({
  user,
  failure,
}: {
  user: { email: string; firstName: string | null; lastName: string | null; profileImageUrl: string | null; viaProvider: boolean };
  failure?: ActionResult;
}) {
  const [form, fields] = useForm({
    id: "profile",
    lastResult: failure?.result,
    defaultValue: { firstName: user.firstName ?? "", lastName: user.lastName ?? "" },
    constraint: getZodConstraint(profileSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: profileSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const busy = useBusy("profile");
  return (
    <section aria-labelledby="profile-heading" className={cardClass}>
      <h2 id="profile-heading" className="text-lg font-semibold text-slate-900">
        Profile
      </h2>
      <p className="mt-1 text-sm text-slate-600">How your name appears in {PRODUCT_NAME}.</p>

      <div className="mt-6 flex items-center gap-4">
        <Avatar user={user} size="lg" />
        <div>
          <p className="text-sm font-medium text-slate-800">Profile picture</p>
          <p className="text-sm text-slate-600">{user.viaProvider ? SETTINGS_TEXT.pictureViaProvider : SETTINGS_TEXT.pictureViaEmail}</p>
        </div>
      </div>

      <Form method="post" action={tabUrl("profile")} {...getFormProps(form)} className="mt-6 space-y-5">
        <input type="hidden" name="intent" value="profile" />
        {form.errors?.length ? <FormAlert title="Profile not saved" text={form.errors[0]!} /> : null}
        <div className="grid gap-5 sm:grid-cols-2">
          <Field
            label="First name"
            optional
            inputProps={{ ...controlProps(fields.firstName), type: "text", autoComplete: "given-name" }}
            errors={fields.firstName.errors}
          />
          <Field
            label="Last name"
            inputProps={{ ...controlProps(fields.lastName), type: "text", autoComplete: "family-name", required: true }}
            errors={fields.lastName.errors}
          />
        </div>
        <div>
          <label htmlFor="field-email" className="mb-1 block text-sm font-medium text-slate-800">
            E-mail
          </label>
          <input
            id="field-email"
            type="email"
            value={user.email}
            readOnly
            aria-describedby="field-email-hint"
            className="block w-full cursor-default rounded-lg border border-slate-200 bg-slate-100 px-3 py-2 text-slate-700"
          />
          <p id="field-email-hint" className="mt-1 text-sm text-slate-600">
            {user.viaProvider ? SETTINGS_TEXT.emailViaProvider : SETTINGS_TEXT.emailViaEmail}
          </p>
        </div>
        <button type="submit" disabled={busy} className={primaryButton}>
          {busy ? "Saving..." : "Save Changes"}
        </button>
      </Form>
    </section>
  );
}

function NotificationsTab({ current, failure }: { current: Record<NotificationKey, boolean> | null; failure?: ActionResult }) {
  const [form, fields] = useForm({
    id: "notifications",
    lastResult: failure?.result,
    constraint: getZodConstraint(notificationsSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: notificationsSchema }),
  });
  const busy = useBusy("notifications");
  // After a refused save, the switches as they were sent.
  const checked = (key: NotificationKey) => (failure ? fields[key].initialValue === "on" : (current?.[key] ?? false));
  return (
    <section id="notifications" aria-labelledby="notifications-heading" className={cardClass}>
      <h2 id="notifications-heading" className="text-lg font-semibold text-slate-900">
        Notifications
      </h2>
      <p className="mt-1 text-sm text-slate-600">{NOTIFICATION_TEXT.intro}</p>
      <Form method="post" action={tabUrl("notifications")} {...getFormProps(form)} className="mt-4">
        <input type="hidden" name="intent" value="notifications" />
        {form.errors?.length ? <FormAlert title="Preferences not saved" text={ACCOUNT_TOASTS.notificationsFailed} /> : null}
        <ul className="divide-y divide-slate-200">
          {NOTIFICATION_PREFERENCES.map(({ key, label, description }) => {
            const id = `notification-${key}`;
            return (
              <li key={key} className="flex items-center justify-between gap-6 py-4">
                <div>
                  <label htmlFor={id} className="font-medium text-slate-900">
                    {label}
                  </label>
                  <p id={`${id}-description`} className="text-sm text-slate-600">
                    {description}
                    {key === "marketingEmails" ? <> {NOTIFICATION_TEXT.noMarketing}</> : null}
                  </p>
                </div>
                <span className="relative inline-flex shrink-0">
                  <input
                    type="checkbox"
                    role="switch"
                    id={id}
                    name={key}
                    defaultChecked={checked(key)}
                    aria-describedby={`${id}-description`}
                    className="peer absolute inset-0 z-10 h-full w-full cursor-pointer opacity-0"
                  />
                  <span
                    aria-hidden="true"
                    className="h-6 w-11 rounded-full bg-slate-400 transition-colors after:absolute after:left-0.5 after:top-0.5 after:h-5 after:w-5 after:rounded-full after:bg-white after:shadow after:transition-transform peer-checked:bg-brand-700 peer-checked:after:translate-x-5 peer-focus-visible:outline peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-600"
                  />
                </span>
              </li>
            );
          })}
        </ul>
        <button type="submit" disabled={busy} className={`${primaryButton} mt-4`}>
          {busy ? "Saving..." : "Save Preferences"}
        </button>
      </Form>
    </section>
  );
}

function AccountTab({
  email,
  deletion,
  passwordFailure,
  deleteFailure,
}: {
  email: string;
  deletion: { hasPassword: boolean; token: string | null; linkInvalid: boolean };
  passwordFailure?: ActionResult;
  deleteFailure?: ActionResult;
}) {
  const [passwordForm, passwordFields] = useForm({
    id: "change-password",
    lastResult: passwordFailure?.result,
    constraint: getZodConstraint(changePasswordSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: changePasswordSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const changing = useBusy("change-password");
  // After a successful change (JavaScript on, same page) the typed passwords must not linger.
  const passwordFormRef = useRef<HTMLFormElement>(null);
  const wasChanging = useRef(false);
  useEffect(() => {
    if (changing) {
      wasChanging.current = true;
    } else if (wasChanging.current) {
      wasChanging.current = false;
      if (!passwordFailure) passwordFormRef.current?.reset();
    }
  }, [changing, passwordFailure]);

  const deleteSchema = useMemo(() => deleteAccountSchema(email, deletion.hasPassword), [email, deletion.hasPassword]);
  const [deleteForm, deleteFields] = useForm({
    id: "delete-account",
    lastResult: deleteFailure?.result,
    constraint: getZodConstraint(deleteSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: deleteSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const deleting = useBusy("delete-account");
  // Without a password: the token of the mailed link (from the address, or sent back after a failure).
  const sentToken = deleteFields.token.initialValue;
  const deletionToken = (typeof sentToken === "string" && sentToken) || deletion.token;

  return (
    <div className="space-y-6">
      <section aria-labelledby="password-heading" className={cardClass}>
        <h2 id="password-heading" className="text-lg font-semibold text-slate-900">
          Change password
        </h2>
        <p className="mt-1 text-sm text-slate-600">Changing it signs you out everywhere else.</p>
        <Form ref={passwordFormRef} method="post" action={tabUrl("account")} {...getFormProps(passwordForm)} className="mt-5 space-y-5">
          <input type="hidden" name="intent" value="change-password" />
          {/* Lets password managers file the new password under the right account. */}
          <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
          {passwordForm.errors?.length ? <FormAlert title="Password not changed" text={passwordForm.errors[0]!} /> : null}
          <PasswordField
            label="Current password"
            inputProps={{ ...controlProps(passwordFields.currentPassword), autoComplete: "current-password", required: true }}
            errors={passwordFields.currentPassword.errors}
          />
          <PasswordField
            label="New password"
            hint={ACCOUNT_MESSAGES.passwordHint}
            inputProps={{ ...controlProps(passwordFields.newPassword), autoComplete: "new-password", required: true }}
            errors={passwordFields.newPassword.errors}
          />
          <button type="submit" disabled={changing} className={primaryButton}>
            {changing ? "Changing..." : "Change Password"}
          </button>
        </Form>
      </section>

      <section aria-labelledby="delete-heading" className="rounded-2xl border border-red-200 bg-white p-6 shadow-sm">
        <h2 id="delete-heading" className="text-lg font-semibold text-red-800">
          Delete account
        </h2>
        <p className="mt-1 text-sm text-slate-700">
          This permanently removes your account and everything in it: your personas with their backstories, images and chats, your settings
          and your sign-in. It cannot be undone.
        </p>
        <Form method="post" action={tabUrl("account")} {...getFormProps(deleteForm)} className="mt-5 space-y-5">
          <input type="hidden" name="intent" value="delete-account" />
          {deleteForm.errors?.length ? <FormAlert title="Account not deleted" text={deleteForm.errors[0]!} /> : null}
          {!deletion.hasPassword && deletion.linkInvalid && !deleteFailure ? (
            <FormAlert title="Account not deleted" text={DELETION_LINK_INVALID} />
          ) : null}
          <Field
            label="Type your e-mail address to confirm"
            hint={`Enter ${email} exactly.`}
            inputProps={{
              ...controlProps(deleteFields.confirmEmail),
              type: "email",
              autoComplete: "off",
              spellCheck: false,
              required: true,
            }}
            errors={deleteFields.confirmEmail.errors}
          />
          {deletion.hasPassword ? (
            <PasswordField
              label="Current password"
              inputProps={{ ...controlProps(deleteFields.password), autoComplete: "current-password", required: true }}
              errors={deleteFields.password.errors}
            />
          ) : deletionToken ? (
            <>
              <input type="hidden" name="token" value={deletionToken} />
              <p className="text-sm text-slate-700">Your e-mail confirmed it: this deletes the account now.</p>
            </>
          ) : (
            <p className="text-sm text-slate-700">
              Your account has no password, so we will e-mail you a link to confirm. It is valid for 1 hour.
            </p>
          )}
          <button
            type="submit"
            disabled={deleting}
            className="rounded-lg bg-red-700 px-4 py-2.5 font-semibold text-white shadow-sm hover:bg-red-800 disabled:opacity-70"
          >
            {deleting ? "Deleting..." : deletion.hasPassword || deletionToken ? "Delete Account" : "Send Confirmation Link"}
          </button>
        </Form>
      </section>
    </div>
  );
}
