// /persona/{id}/profile?section=…: one section of the Extended Persona Profile, the persona's
// fact sheet (docs/product.md, Extended Persona Profile and Fact sheet), as a form the server
// checks. The same address takes 'Regenerate' for a section (or ?section=all): a part the
// creator edited is replaced only after a confirmation — a dialog with JavaScript, this page's
// confirmation step without.
import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";

import { controlProps } from "~/components/form-controls";
import { PersonaErrorBoundary } from "~/components/persona-not-found";
import { Field, FormAlert, TextareaField } from "~/components/ui/field";
import {
  editedSections,
  formName,
  PROFILE_MESSAGES,
  PROFILE_TEXT,
  PROFILE_TOASTS,
  profileSection,
  sectionFormValues,
} from "~/domain/profile-edit";
import { formSectionValues, sectionSchema } from "~/domain/profile-form";
import { PRODUCT_NAME } from "~/domain/site";
import {
  httpError,
  readFormData,
  redirectWithToast,
  invalidSubmission,
  refusedSubmission,
  regenerateProfile,
  saveProfileSection,
  getPersona,
  personaExtended,
  orNotFound,
  requireUser,
  responseHeaders,
} from "~/services/index.server";
import { buttonClass } from "~/components/ui/button";

export const meta: MetaFunction<typeof loader> = ({ data: loaderData }) => [
  { title: `${loaderData ? PROFILE_TEXT.pageTitle(loaderData.name, loaderData.title) : "Profile"} · ${PRODUCT_NAME}` },
];

const ALL = "all";

function sectionParam(value: unknown) {
  if (value === ALL) return ALL;
  return profileSection(value ?? "background");
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { user, ctx } = await requireUser(request, context);
  const persona = await orNotFound(ctx, () => getPersona(user, params.id ?? ""));
  const url = new URL(request.url);
  const which = sectionParam(url.searchParams.get("section"));
  if (!which) throw httpError(404, PROFILE_MESSAGES.noSection);
  const confirming = url.searchParams.get("confirm") === "regenerate";
  if (which === ALL && !confirming) throw redirect(`/persona/${persona.id}#extended-profile`, { headers: responseHeaders(ctx) });
  const profile = personaExtended(persona);
  return data(
    {
      id: persona.id,
      name: persona.name,
      section: which === ALL ? ALL : which.key,
      title: which === ALL ? "Extended Persona Profile" : which.title,
      fields: which === ALL ? [] : which.fields.map((f) => ({ name: formName(f.key), label: f.label, list: f.list })),
      values: which === ALL ? {} : sectionFormValues(profile, which),
      edited: editedSections(persona.extended),
      confirming,
    },
    { headers: responseHeaders(ctx) },
  );
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { user, ctx } = await requireUser(request, context);
  const headers = responseHeaders(ctx);
  const id = params.id ?? "";
  const formData = await readFormData(request);
  const which = sectionParam(formData.get("section"));
  if (!which) return httpError(400, PROFILE_MESSAGES.noSection);
  const back = `/persona/${id}#extended-profile`;

  if (formData.get("intent") === "regenerate") {
    const done = await orNotFound(ctx, () => regenerateProfile(user, id, which, { confirmed: formData.get("confirm") === "yes" }));
    if (done.status === "confirm") {
      return redirect(`/persona/${id}/profile?section=${which === ALL ? ALL : which.key}&confirm=regenerate`, { headers });
    }
    const description = done.backstoryBehind ? PROFILE_TOASTS.backstoryBehind : PROFILE_TOASTS.regenerated.description;
    return redirectWithToast(back, { type: "success", title: PROFILE_TOASTS.regenerated.title, description }, { headers });
  }
  if (formData.get("intent") !== "save" || which === ALL) return httpError(400, "Unknown profile action.");

  const submission = parseWithZod(formData, { schema: sectionSchema(which) });
  if (submission.status !== "success") return invalidSubmission(submission, ctx, {}, { formErrors: [PROFILE_TOASTS.failed.description] });
  let changed: boolean;
  try {
    ({ changed } = await orNotFound(ctx, () => saveProfileSection(user, id, which, formSectionValues(which, submission.value))));
  } catch (error) {
    return refusedSubmission(error, submission, ctx, {});
  }
  const toast = changed ? { type: "success" as const, ...PROFILE_TOASTS.saved } : { type: "info" as const, ...PROFILE_TOASTS.unchanged };
  return redirectWithToast(back, toast, { headers });
}

const mainClass = buttonClass("primary", "base");
const quietClass = buttonClass("secondary", "base");

export default function ProfileSectionPage() {
  const loaderData = useLoaderData<typeof loader>();
  const { id, name, title, confirming } = loaderData;
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">{PROFILE_TEXT.pageTitle(name, title)}</h1>
          <p className="mt-1 text-slate-700">{PROFILE_TEXT.pageIntro}</p>
        </div>
        <Link to={`/persona/${id}#extended-profile`} className={`shrink-0 self-start text-sm ${quietClass}`}>
          {PROFILE_TEXT.cancel}
        </Link>
      </div>
      {confirming ? <RegenerateConfirmation /> : <SectionForm />}
    </div>
  );
}

/** Without JavaScript: the step that asks before a creator's own text is replaced. */
function RegenerateConfirmation() {
  const { id, section, title } = useLoaderData<typeof loader>();
  return (
    <section aria-labelledby="confirm-title" className="rounded-2xl border border-amber-200 bg-amber-50 p-5 sm:p-6">
      <h2 id="confirm-title" className="text-lg font-semibold text-slate-900">
        {section === ALL ? PROFILE_TEXT.confirmAllTitle : PROFILE_TEXT.confirmTitle(title)}
      </h2>
      <p className="mt-2 text-slate-800">{PROFILE_TEXT.confirmText}</p>
      <Form method="post" className="mt-4 flex flex-wrap gap-3">
        <input type="hidden" name="intent" value="regenerate" />
        <input type="hidden" name="section" value={section} />
        <input type="hidden" name="confirm" value="yes" />
        <button type="submit" className={mainClass}>
          {PROFILE_TEXT.confirm}
        </button>
        <Link to={`/persona/${id}#extended-profile`} className={quietClass}>
          {PROFILE_TEXT.keep}
        </Link>
      </Form>
    </section>
  );
}

function SectionForm() {
  const { section, fields, values } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const schema = sectionSchema(profileSection(section)!);
  const [form, formFields] = useForm({
    id: `profile-${section}`,
    lastResult: answer && "result" in answer ? answer.result : undefined,
    defaultValue: values,
    constraint: getZodConstraint(schema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-5 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
      <input type="hidden" name="intent" value="save" />
      <input type="hidden" name="section" value={section} />
      {form.errors?.length ? <FormAlert title={PROFILE_TOASTS.failed.title} text={form.errors[0]!} /> : null}
      {fields.map((field) => {
        const control = formFields[field.name]!;
        return field.list ? (
          <div key={field.name}>
            <TextareaField label={field.label} optional textareaProps={{ ...controlProps(control), rows: 4 }} errors={control.errors} />
            <p className="mt-1 text-sm text-slate-600">One per line.</p>
          </div>
        ) : field.name === "dailyRoutine" || field.name === "challengesOvercome" ? (
          <TextareaField
            key={field.name}
            label={field.label}
            optional
            textareaProps={{ ...controlProps(control), rows: 3 }}
            errors={control.errors}
          />
        ) : (
          <Field
            key={field.name}
            label={field.label}
            optional
            inputProps={{ ...controlProps(control), type: "text" }}
            errors={control.errors}
          />
        );
      })}
      <button type="submit" disabled={busy} className={mainClass}>
        {busy ? PROFILE_TEXT.saving : PROFILE_TEXT.save}
      </button>
    </Form>
  );
}

export const ErrorBoundary = PersonaErrorBoundary;
