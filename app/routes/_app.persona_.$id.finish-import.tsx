// /persona/{id}/finish-import: the one short step after importing a character card that does not
// say everything a persona needs (docs/product.md, Exports and character cards): type, gender,
// age range and interests, prefilled with guesses from the card. 'Start Chatting' makes the
// draft active and opens its chat. A plain form the server checks, with JavaScript or without.
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";

import { PersonaErrorBoundary } from "~/components/persona-not-found";
import { FieldErrors, FormAlert } from "~/components/ui/field";
import { finishImportSchema, FINISH_IMPORT_TEXT, FINISH_IMPORT_TOASTS } from "~/domain/card-import";
import { AGE_RANGES, GENDERS, INTERESTS, PERSONA_TYPE_LABELS, PERSONA_TYPES } from "~/domain/persona";
import { GENDER_LABELS, INTEREST_LABELS, PERSONA_FIELD_LABELS } from "~/domain/persona-form";
import { PRODUCT_NAME } from "~/domain/site";
import {
  readFormData,
  redirectWithToast,
  ServiceError,
  canFinishImport,
  finishImport,
  finishImportGuess,
  getPersona,
  orNotFound,
  requireUser,
  responseHeaders,
} from "~/services/index.server";
import { Button, buttonClass } from "~/components/ui/button";

export const meta: MetaFunction<typeof loader> = ({ data: loaderData }) => [
  { title: `${FINISH_IMPORT_TEXT.pageTitle(loaderData?.name ?? "Persona")} · ${PRODUCT_NAME}` },
];

type Field = "type" | "gender" | "ageRange" | "interests";
interface Values {
  type: string;
  gender: string;
  ageRange: string;
  interests: string[];
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { user, ctx } = await requireUser(request, context);
  const persona = await orNotFound(ctx, () => getPersona(user, params.id ?? ""));
  // Nothing to finish: the persona's page.
  if (!canFinishImport(persona)) throw redirect(`/persona/${persona.id}`, { headers: responseHeaders(ctx) });
  const guess = finishImportGuess(persona);
  const values: Values = { type: guess.type, gender: guess.gender ?? "", ageRange: guess.ageRange, interests: guess.interests };
  return data({ id: persona.id, name: persona.name, values }, { headers: responseHeaders(ctx) });
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { user, ctx } = await requireUser(request, context);
  const form = await readFormData(request);
  const values: Values = {
    type: String(form.get("type") ?? ""),
    gender: String(form.get("gender") ?? ""),
    ageRange: String(form.get("ageRange") ?? ""),
    interests: form.getAll("interests").map(String),
  };
  const refused = (status: number, message: string, errors: Partial<Record<Field, string[]>> = {}) =>
    data({ values, errors, message }, { status, headers: responseHeaders(ctx) });
  const parsed = finishImportSchema.safeParse(values);
  if (!parsed.success) {
    const errors: Partial<Record<Field, string[]>> = {};
    for (const issue of parsed.error.issues) {
      const list = (errors[issue.path[0] as Field] ??= []);
      if (!list.includes(issue.message)) list.push(issue.message);
    }
    return refused(400, FINISH_IMPORT_TOASTS.failed.description, errors);
  }
  try {
    const persona = await orNotFound(ctx, () => finishImport(user, params.id ?? "", parsed.data));
    return redirectWithToast(
      `/persona/${persona.id}?tab=chat`,
      { type: "success", ...FINISH_IMPORT_TOASTS.done },
      { headers: responseHeaders(ctx) },
    );
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    if (error.status === 409) throw redirect(`/persona/${params.id ?? ""}`, { headers: responseHeaders(ctx) });
    return refused(error.status, error.message);
  }
}

const selectClass =
  "block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-slate-900 shadow-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600 aria-[invalid=true]:border-red-500";

function Choice({
  name,
  label,
  options,
  value,
  errors,
}: {
  name: Exclude<Field, "interests">;
  label: string;
  options: readonly { value: string; label: string }[];
  value: string;
  errors?: string[];
}) {
  const id = `finish-${name}`;
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-800">
        {label}
      </label>
      <select
        id={id}
        name={name}
        defaultValue={value}
        required
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={errors?.length ? `${id}-error` : undefined}
        className={selectClass}
      >
        {value === "" ? <option value="">Choose…</option> : null}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <FieldErrors id={`${id}-error`} errors={errors} />
    </div>
  );
}

export default function FinishImportPage() {
  const { id, name, values: loaded } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const values = answer?.values ?? loaded;
  const errors: Partial<Record<Field, string[]>> = answer?.errors ?? {};
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <div>
        <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl" dir="auto">
          {FINISH_IMPORT_TEXT.pageTitle(name)}
        </h1>
        <p className="mt-1 text-slate-700">{FINISH_IMPORT_TEXT.intro}</p>
      </div>
      <Form method="post" className="space-y-5 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
        {answer?.message ? <FormAlert title={FINISH_IMPORT_TOASTS.failed.title} text={answer.message} /> : null}
        <div className="grid gap-4 sm:grid-cols-3">
          <Choice
            name="type"
            label={PERSONA_FIELD_LABELS.type}
            value={values.type}
            errors={errors.type}
            options={PERSONA_TYPES.map((type) => ({ value: type, label: PERSONA_TYPE_LABELS[type] }))}
          />
          <Choice
            name="gender"
            label={PERSONA_FIELD_LABELS.gender}
            value={values.gender}
            errors={errors.gender}
            options={GENDERS.map((gender) => ({ value: gender, label: GENDER_LABELS[gender] }))}
          />
          <Choice
            name="ageRange"
            label={PERSONA_FIELD_LABELS.ageRange}
            value={values.ageRange}
            errors={errors.ageRange}
            options={AGE_RANGES.map((range) => ({ value: range, label: range }))}
          />
        </div>
        <fieldset aria-describedby={errors.interests?.length ? "finish-interests-error" : "finish-interests-hint"}>
          <legend className="mb-1 block text-sm font-medium text-slate-800">{PERSONA_FIELD_LABELS.interests}</legend>
          <p id="finish-interests-hint" className="mb-2 text-sm text-slate-600">
            {FINISH_IMPORT_TEXT.interestsHint}
          </p>
          <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
            {INTERESTS.map((interest) => (
              <label key={interest} className="flex items-center gap-2 text-sm text-slate-800">
                <input
                  type="checkbox"
                  name="interests"
                  value={interest}
                  defaultChecked={values.interests.includes(interest)}
                  className="h-4 w-4 rounded border-slate-400 text-brand-700 focus:ring-brand-600"
                />
                {INTEREST_LABELS[interest]}
              </label>
            ))}
          </div>
          <FieldErrors id="finish-interests-error" errors={errors.interests} />
        </fieldset>
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" disabled={busy} size="base">
            {busy ? FINISH_IMPORT_TEXT.submitting : FINISH_IMPORT_TEXT.submit}
          </Button>
          <Link to={`/persona/${id}`} className={buttonClass("secondary", "md")}>
            {FINISH_IMPORT_TEXT.later}
          </Link>
        </div>
      </Form>
    </div>
  );
}

export const ErrorBoundary = PersonaErrorBoundary;
