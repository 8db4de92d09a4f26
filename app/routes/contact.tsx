import { data, type ActionFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData } from "@remix-run/react";
import { useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";

import { PublicLayout } from "~/components/public-layout";
import { useToast } from "~/components/toaster";
import { Field, FormAlert, TextareaField } from "~/components/ui/field";
import { MailIcon } from "~/components/ui/icons";
import { useLiteForm } from "~/components/use-lite-form";
import { CONTACT_MESSAGES, contactMailto, contactRules, isMissingInformation } from "~/domain/contact";
import { formDataValues, validateValues } from "~/domain/form-rules";
import { CONTACT_EMAIL, PRODUCT_NAME } from "~/domain/site";
import { readFormData, type PublicPageHandle } from "~/services/index.server";
import { Button } from "~/components/ui/button";

export const handle: PublicPageHandle = { publicPage: true };

export const meta: MetaFunction = () => [
  { title: `Contact · ${PRODUCT_NAME}` },
  { name: "description", content: `Questions, feedback or business enquiries: write to the ${PRODUCT_NAME} team.` },
];

export async function action({ request }: ActionFunctionArgs) {
  const formData = await readFormData(request, 32 * 1024);
  const result = validateValues(contactRules, formDataValues(contactRules, formData));
  if (!result.ok) {
    return data({ values: result.values, errors: result.errors, mailto: null }, { status: 400 });
  }
  // Nothing is sent from the server: the visitor's own mail client sends the message.
  return data({ values: result.values, errors: null, mailto: contactMailto(result.values) });
}

export default function Contact() {
  const actionData = useActionData<typeof action>();
  const hydrated = useHydrated();
  const toast = useToast();
  const [clientMailto, setClientMailto] = useState<string | null>(null);
  const mailto = clientMailto ?? actionData?.mailto ?? null;
  const values = actionData?.values;

  const form = useLiteForm({
    rules: contactRules,
    serverErrors: actionData?.errors,
    onInvalid: (errors) => {
      if (isMissingInformation(errors)) {
        toast({ type: "error", title: CONTACT_MESSAGES.missingTitle, description: CONTACT_MESSAGES.missingText });
      }
    },
    onValid: (event, message) => {
      event.preventDefault();
      const url = contactMailto(message);
      setClientMailto(url);
      toast({ type: "success", title: CONTACT_MESSAGES.openedTitle, description: CONTACT_MESSAGES.openedText });
      window.location.href = url;
    },
  });
  const showMissingAlert = !hydrated && actionData?.errors && isMissingInformation(actionData.errors);

  return (
    <PublicLayout>
      {/* Without JavaScript the server's answer opens the mail client itself. */}
      {!hydrated && actionData?.mailto ? <meta httpEquiv="refresh" content={`0;url=${actionData.mailto}`} /> : null}
      <div className="mx-auto max-w-2xl px-4 py-12 sm:px-6 md:py-16">
        <h1 className="text-3xl font-bold text-slate-900">Contact us</h1>
        <p className="mt-3 text-slate-700">
          Questions about {PRODUCT_NAME}, feedback on the beta or a business enquiry? Fill in the form and your own mail app opens with the
          message ready to send to{" "}
          <a className="font-medium text-brand-800 underline" href={`mailto:${CONTACT_EMAIL}`}>
            {CONTACT_EMAIL}
          </a>
          .
        </p>

        {mailto ? (
          <div role="status" className="mt-8 rounded-xl border border-emerald-200 bg-emerald-50 p-5 text-emerald-950">
            <p className="flex items-center gap-2 font-semibold">
              <MailIcon /> {CONTACT_MESSAGES.openedTitle}
            </p>
            <p className="mt-1 text-sm">{CONTACT_MESSAGES.openedText}</p>
            <a href={mailto} className="mt-3 inline-block text-sm font-medium text-emerald-900 underline">
              Nothing opened? Open your mail app again
            </a>
          </div>
        ) : null}

        <Form
          method="post"
          noValidate
          onSubmit={form.onSubmit}
          className="mt-8 space-y-5 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
        >
          {showMissingAlert ? <FormAlert title={CONTACT_MESSAGES.missingTitle} text={CONTACT_MESSAGES.missingText} /> : null}
          <div className="grid gap-5 sm:grid-cols-2">
            <Field
              label="Name"
              inputProps={{ ...form.field("name"), type: "text", autoComplete: "name", defaultValue: values?.name, required: true }}
              errors={form.errors.name}
            />
            <Field
              label="E-mail"
              inputProps={{ ...form.field("email"), type: "email", autoComplete: "email", defaultValue: values?.email, required: true }}
              errors={form.errors.email}
            />
          </div>
          <Field
            label="Subject"
            optional
            inputProps={{ ...form.field("subject"), type: "text", defaultValue: values?.subject }}
            errors={form.errors.subject}
          />
          <TextareaField
            label="Message"
            textareaProps={{ ...form.field("message"), rows: 6, defaultValue: values?.message, required: true }}
            errors={form.errors.message}
          />
          <Button type="submit" size="lg" className="w-full sm:w-auto">
            Send message
          </Button>
        </Form>
        <p className="mt-6 text-sm text-slate-700">
          Already have an account?{" "}
          <Link to="/api/login" className="font-medium text-brand-800 underline">
            Sign in
          </Link>{" "}
          to reach your personas.
        </p>
      </div>
    </PublicLayout>
  );
}
