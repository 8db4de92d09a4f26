import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { useHydrated } from "remix-utils/use-hydrated";

import { AuthCard, OAuthButtons, PasswordField, SubmitButton } from "~/components/auth-layout";
import { Field, FormAlert } from "~/components/ui/field";
import { useLiteForm } from "~/components/use-lite-form";
import { ACCOUNT_TOASTS, loginRules } from "~/domain/account";
import { formDataValues } from "~/domain/form-rules";
import { safeRedirect } from "~/domain/redirect";
import { PRODUCT_NAME } from "~/domain/site";
import {
  readFormData,
  requestContext,
  resendVerification,
  signIn,
  signInProviders,
  formFailure,
  optionalUser,
  redirectSignedIn,
  responseHeaders,
} from "~/services/index.server";

export const meta: MetaFunction = () => [{ title: `Sign In · ${PRODUCT_NAME}` }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user, ctx } = await optionalUser(request, context);
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get("redirectTo"));
  if (user) throw redirect(redirectTo, { headers: responseHeaders(ctx) });
  return data({ providers: signInProviders() }, { headers: responseHeaders(ctx) });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const ctx = requestContext(request, context);
  const formData = await readFormData(request);
  const email = String(formData.get("email") ?? "").slice(0, 300);
  if (formData.get("intent") === "resend") {
    try {
      const { message } = await resendVerification(ctx, { email });
      return data({ resent: message, errors: null, message: null, code: null, email }, { headers: responseHeaders(ctx) });
    } catch (error) {
      return formFailure(error, ctx, { resent: null, email });
    }
  }
  try {
    const session = await signIn(ctx, formDataValues(loginRules, formData));
    return redirectSignedIn(ctx, session, safeRedirect(formData.get("redirectTo")));
  } catch (error) {
    return formFailure(error, ctx, { resent: null, email });
  }
}

export default function Login() {
  const { providers } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [searchParams] = useSearchParams();
  const navigation = useNavigation();
  const hydrated = useHydrated();
  // A failure is said once, beside the form: field errors, or the alert above it (no toast too).
  const form = useLiteForm({ rules: loginRules, serverErrors: actionData?.errors });
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") !== "resend";
  const failed = actionData?.message && !actionData.errors;
  const unverified = actionData?.code === "email_not_verified";

  return (
    <AuthCard
      title="Welcome back"
      subtitle={
        <>
          New to {PRODUCT_NAME}?{" "}
          <Link to="/register" className="font-medium text-brand-800 underline">
            Create an account
          </Link>
        </>
      }
    >
      {actionData?.resent ? (
        <p role="status" className="mb-4 rounded-lg border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-950">
          {actionData.resent}
        </p>
      ) : null}
      {failed ? (
        <div className="mb-4">
          <FormAlert
            title={actionData.code === "rate_limited" || unverified ? "Cannot sign in yet" : ACCOUNT_TOASTS.signInFailed.title}
            text={actionData.code === "invalid_credentials" ? ACCOUNT_TOASTS.signInFailed.description : actionData.message!}
          />
          {unverified ? (
            <Form method="post" className="mt-3">
              <input type="hidden" name="intent" value="resend" />
              <input type="hidden" name="email" value={actionData.email} />
              <button type="submit" className="text-sm font-medium text-brand-800 underline">
                Send a new verification e-mail
              </button>
            </Form>
          ) : null}
        </div>
      ) : null}
      <Form method="post" noValidate onSubmit={form.onSubmit} className="space-y-4">
        <input type="hidden" name="redirectTo" value={searchParams.get("redirectTo") ?? ""} />
        <Field
          label="E-mail"
          inputProps={{ ...form.field("email"), type: "email", autoComplete: "email", defaultValue: actionData?.email, required: true }}
          errors={form.errors.email}
        />
        <PasswordField
          label="Password"
          inputProps={{ ...form.field("password"), autoComplete: "current-password", required: true }}
          errors={form.errors.password}
        />
        <div className="flex justify-end">
          <Link to="/reset-password" className="text-sm font-medium text-brand-800 underline">
            Forgot password
          </Link>
        </div>
        <SubmitButton busy={busy && hydrated} busyText="Signing in...">
          Sign In
        </SubmitButton>
      </Form>
      <OAuthButtons providers={providers} redirectTo={searchParams.get("redirectTo")} />
    </AuthCard>
  );
}
