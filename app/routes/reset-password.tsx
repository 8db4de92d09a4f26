// Forgotten password: without a token, ask for a link (the answer is the same whether
// or not the address has an account); with the token from the e-mail, set a new one.
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useHydrated } from "remix-utils/use-hydrated";

import { AuthCard, PasswordField, SubmitButton } from "~/components/auth-layout";
import { Field, FormAlert } from "~/components/ui/field";
import { useLiteForm } from "~/components/use-lite-form";
import { ACCOUNT_MESSAGES, emailOnlyRules, resetPasswordRules } from "~/domain/account";
import { formDataValues } from "~/domain/form-rules";
import { PRODUCT_NAME } from "~/domain/site";
import {
  readFormData,
  redirectWithToast,
  requestContext,
  requestPasswordReset,
  resetPassword,
  formFailure,
  responseHeaders,
} from "~/services/index.server";

export const meta: MetaFunction = () => [{ title: `Reset your password · ${PRODUCT_NAME}` }];

export function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token");
  return { token: token && token.length <= 200 ? token : null };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const ctx = requestContext(request, context);
  const formData = await readFormData(request);
  const intent = formData.get("intent") === "reset" ? "reset" : "request";
  try {
    if (intent === "request") {
      const { message } = await requestPasswordReset(ctx, formDataValues(emailOnlyRules, formData));
      return data({ intent, sent: message, errors: null, message: null }, { headers: responseHeaders(ctx) });
    }
    const { message } = await resetPassword(ctx, formDataValues(resetPasswordRules, formData));
    return redirectWithToast("/login", { type: "success", title: "Password Changed", description: message });
  } catch (error) {
    return formFailure(error, ctx, { intent, sent: null });
  }
}

export default function ResetPassword() {
  const { token } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const busy = hydrated && navigation.state === "submitting";
  const requestForm = useLiteForm({ rules: emailOnlyRules, serverErrors: actionData?.intent === "request" ? actionData.errors : null });
  const resetForm = useLiteForm({ rules: resetPasswordRules, serverErrors: actionData?.intent === "reset" ? actionData.errors : null });

  if (token) {
    return (
      <AuthCard title="Choose a new password">
        {actionData?.message ? (
          <div className="mb-4">
            <FormAlert title="Password not changed" text={actionData.message} />
            <Link to="/reset-password" className="mt-2 inline-block text-sm font-medium text-brand-800 underline">
              Ask for a new link
            </Link>
          </div>
        ) : null}
        <Form method="post" noValidate onSubmit={resetForm.onSubmit} className="space-y-4">
          <input type="hidden" name="intent" value="reset" />
          <input type="hidden" name="token" value={token} />
          <PasswordField
            label="New password"
            inputProps={{ ...resetForm.field("password"), autoComplete: "new-password", required: true }}
            errors={resetForm.errors.password ?? resetForm.errors.token}
            hint={ACCOUNT_MESSAGES.passwordHint}
          />
          <SubmitButton busy={busy} busyText="Saving...">
            Set new password
          </SubmitButton>
        </Form>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Forgot your password?" subtitle="Enter your e-mail and we will send you a link to choose a new one.">
      {actionData?.sent ? (
        <p role="status" className="mb-4 rounded-lg border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-950">
          {actionData.sent}
        </p>
      ) : null}
      {actionData?.message && actionData.intent === "request" && !actionData.errors ? (
        <div className="mb-4">
          <FormAlert title="Please wait" text={actionData.message} />
        </div>
      ) : null}
      <Form method="post" noValidate onSubmit={requestForm.onSubmit} className="space-y-4">
        <input type="hidden" name="intent" value="request" />
        <Field
          label="E-mail"
          inputProps={{ ...requestForm.field("email"), type: "email", autoComplete: "email", required: true }}
          errors={requestForm.errors.email}
        />
        <SubmitButton busy={busy} busyText="Sending...">
          Send reset link
        </SubmitButton>
      </Form>
      <p className="mt-6 text-sm text-slate-700">
        Remembered it?{" "}
        <Link to="/login" className="font-medium text-brand-800 underline">
          Sign in
        </Link>
      </p>
    </AuthCard>
  );
}
