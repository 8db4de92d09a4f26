import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useHydrated } from "remix-utils/use-hydrated";

import { AuthCard, OAuthButtons, PasswordField, SubmitButton } from "~/components/auth-layout";
import { useToast } from "~/components/toaster";
import { Field, FormAlert } from "~/components/ui/field";
import { useLiteForm } from "~/components/use-lite-form";
import { ACCOUNT_MESSAGES, ACCOUNT_TOASTS, registerRules } from "~/domain/account";
import { formDataValues } from "~/domain/form-rules";
import { PRODUCT_NAME } from "~/domain/site";
import {
  readFormData,
  redirectWithToast,
  register,
  requestContext,
  signInProviders,
  formFailure,
  optionalUser,
  responseHeaders,
} from "~/services/index.server";

export const meta: MetaFunction = () => [{ title: `Create your account · ${PRODUCT_NAME}` }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user, ctx } = await optionalUser(request, context);
  if (user) throw redirect("/dashboard", { headers: responseHeaders(ctx) });
  return data({ providers: signInProviders() }, { headers: responseHeaders(ctx) });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const ctx = requestContext(request, context);
  const formData = await readFormData(request);
  const raw = formDataValues(registerRules, formData);
  try {
    const { message } = await register(ctx, raw);
    return redirectWithToast("/login", { type: "success", title: ACCOUNT_TOASTS.registered.title, description: message });
  } catch (error) {
    const values = {
      firstName: typeof raw.firstName === "string" ? raw.firstName.slice(0, 200) : "",
      lastName: typeof raw.lastName === "string" ? raw.lastName.slice(0, 200) : "",
      email: typeof raw.email === "string" ? raw.email.slice(0, 300) : "",
    };
    return formFailure(error, ctx, { values });
  }
}

export default function Register() {
  const { providers } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const toast = useToast();
  const form = useLiteForm({
    rules: registerRules,
    serverErrors: actionData?.errors,
    onInvalid: () => toast({ type: "error", ...ACCOUNT_TOASTS.registrationFailed }),
  });
  const values = actionData?.values;

  return (
    <AuthCard
      title="Create your account"
      subtitle={
        <>
          Already have an account?{" "}
          <Link to="/login" className="font-medium text-brand-800 underline">
            Sign in
          </Link>
        </>
      }
    >
      {actionData?.message ? (
        <div className="mb-4">
          <FormAlert title={ACCOUNT_TOASTS.registrationFailed.title} text={actionData.message} />
        </div>
      ) : null}
      <Form method="post" noValidate onSubmit={form.onSubmit} className="space-y-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label="First name"
            inputProps={{
              ...form.field("firstName"),
              type: "text",
              autoComplete: "given-name",
              defaultValue: values?.firstName,
              required: true,
            }}
            errors={form.errors.firstName}
          />
          <Field
            label="Last name"
            inputProps={{
              ...form.field("lastName"),
              type: "text",
              autoComplete: "family-name",
              defaultValue: values?.lastName,
              required: true,
            }}
            errors={form.errors.lastName}
          />
        </div>
        <Field
          label="E-mail"
          inputProps={{ ...form.field("email"), type: "email", autoComplete: "email", defaultValue: values?.email, required: true }}
          errors={form.errors.email}
        />
        <PasswordField
          label="Password"
          inputProps={{ ...form.field("password"), autoComplete: "new-password", required: true }}
          errors={form.errors.password}
          hint={ACCOUNT_MESSAGES.passwordHint}
        />
        <SubmitButton busy={hydrated && navigation.state === "submitting"} busyText="Creating account...">
          Create account
        </SubmitButton>
      </Form>
      <OAuthButtons providers={providers} />
    </AuthCard>
  );
}
