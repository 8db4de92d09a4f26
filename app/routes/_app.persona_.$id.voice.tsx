// /persona/{id}/voice: the persona's voice (docs/product.md, Voice) — greeting, alternate
// greetings, example dialogue, speech style with catchphrases, appearance and scenario, and the
// guidance for chat models (system prompt, post-history instructions, author's note). A plain
// form that the server checks (errors come back on their fields without JavaScript); with
// JavaScript conform checks each field as it is left. Saving returns to the persona page.
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Fragment } from "react";

import { controlProps } from "~/components/form-controls";
import { PersonaErrorBoundary } from "~/components/persona-not-found";
import { Field, FormAlert, TextareaField } from "~/components/ui/field";
import {
  VOICE_FIELDS,
  VOICE_GUIDANCE_FIELDS,
  VOICE_HINTS,
  VOICE_LABELS,
  VOICE_LIMITS,
  VOICE_TEXT,
  VOICE_TOASTS,
  voiceSchema,
  type VoiceField,
} from "~/domain/persona-voice";
import { PRODUCT_NAME } from "~/domain/site";
import {
  readFormData,
  redirectWithToast,
  invalidSubmission,
  refusedSubmission,
  getPersona,
  personaExtended,
  personaVoice,
  updateVoice,
  orNotFound,
  requireUser,
  responseHeaders,
} from "~/services/index.server";
import { fillEmptyVoice, suggestVoice } from "~/domain/voice-suggest";
import { Button, buttonClass } from "~/components/ui/button";

export const meta: MetaFunction<typeof loader> = ({ data: loaderData }) => [
  { title: `${VOICE_TEXT.pageTitle(loaderData?.name ?? "Persona")} · ${PRODUCT_NAME}` },
];

type FormValues = Record<VoiceField | "authorsNoteDepth", string>;

/** The voice as the form shows it: lists one item per line. */
function formValues(voice: ReturnType<typeof personaVoice>): FormValues {
  return {
    greeting: voice.greeting ?? "",
    alternateGreetings: voice.alternateGreetings.join("\n"),
    exampleDialogue: voice.exampleDialogue ?? "",
    speechStyle: voice.speechStyle ?? "",
    catchphrases: voice.catchphrases.join("\n"),
    appearance: voice.appearance ?? "",
    scenario: voice.scenario ?? "",
    systemPrompt: voice.systemPrompt ?? "",
    postHistoryInstructions: voice.postHistoryInstructions ?? "",
    authorsNote: voice.authorsNote ?? "",
    authorsNoteDepth: String(voice.authorsNoteDepth),
  };
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { user, ctx } = await requireUser(request, context);
  const persona = await orNotFound(ctx, () => getPersona(user, params.id ?? ""));
  return data({ id: persona.id, name: persona.name, values: formValues(personaVoice(persona)) }, { headers: responseHeaders(ctx) });
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { user, ctx } = await requireUser(request, context);
  const formData = await readFormData(request);
  const submission = parseWithZod(formData, { schema: voiceSchema });
  if (submission.status !== "success") return invalidSubmission(submission, ctx, {}, { formErrors: [VOICE_TOASTS.failed.description] });
  if (formData.get("intent") === "suggest") {
    // Drafts for the empty fields, from the persona's facts and traits; nothing is stored.
    const persona = await orNotFound(ctx, () => getPersona(user, params.id ?? ""));
    const draw = Math.floor(Math.random() * 2 ** 31);
    const filled = fillEmptyVoice(submission.value, suggestVoice(persona, personaExtended(persona), draw));
    return data({ suggested: formValues(filled), draw }, { headers: responseHeaders(ctx) });
  }
  try {
    const persona = await orNotFound(ctx, () => updateVoice(user, params.id ?? "", submission.value));
    return redirectWithToast(`/persona/${persona.id}#voice`, { type: "success", ...VOICE_TOASTS.saved }, { headers: responseHeaders(ctx) });
  } catch (error) {
    return refusedSubmission(error, submission, ctx, {});
  }
}

const ROWS: Record<VoiceField, number> = {
  greeting: 4,
  alternateGreetings: 4,
  exampleDialogue: 8,
  speechStyle: 3,
  catchphrases: 3,
  appearance: 4,
  scenario: 3,
  systemPrompt: 5,
  postHistoryInstructions: 3,
  authorsNote: 3,
};

const MAX_LENGTH: Partial<Record<VoiceField, number>> = {
  greeting: VOICE_LIMITS.greetingMax,
  exampleDialogue: VOICE_LIMITS.exampleDialogueMax,
  speechStyle: VOICE_LIMITS.speechStyleMax,
  appearance: VOICE_LIMITS.appearanceMax,
  scenario: VOICE_LIMITS.scenarioMax,
  systemPrompt: VOICE_LIMITS.systemPromptMax,
  postHistoryInstructions: VOICE_LIMITS.postHistoryInstructionsMax,
  authorsNote: VOICE_LIMITS.authorsNoteMax,
};

export default function VoicePage() {
  const { values } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const suggested = answer && "suggested" in answer ? answer : null;
  // A suggestion is a new starting point for the form: it opens again with those values.
  return (
    <VoiceForm
      key={suggested ? `suggested-${suggested.draw}` : "stored"}
      initial={suggested ? suggested.suggested : values}
      result={answer && "result" in answer ? answer.result : undefined}
      suggestedNow={!!suggested}
    />
  );
}

function VoiceForm({
  initial,
  result,
  suggestedNow,
}: {
  initial: FormValues;
  result: SubmissionResult<string[]> | undefined;
  suggestedNow: boolean;
}) {
  const { id, name } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const [form, fields] = useForm({
    id: "voice",
    lastResult: result,
    defaultValue: initial,
    constraint: getZodConstraint(voiceSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: voiceSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">{VOICE_TEXT.pageTitle(name)}</h1>
          <p className="mt-1 text-slate-700">{VOICE_TEXT.pageIntro}</p>
        </div>
        <Link to={`/persona/${id}`} className={buttonClass("secondary", "md", "shrink-0 self-start")}>
          {VOICE_TEXT.cancel}
        </Link>
      </div>
      <Form method="post" {...getFormProps(form)} className="space-y-5 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
        {form.errors?.length ? <FormAlert title={VOICE_TOASTS.failed.title} text={form.errors[0]!} /> : null}
        {suggestedNow ? (
          <p role="status" className="rounded-lg border border-brand-200 bg-brand-50 p-3 text-sm text-brand-900">
            {VOICE_TEXT.suggested}
          </p>
        ) : null}
        {VOICE_FIELDS.map((field) => (
          <Fragment key={field}>
            {field === VOICE_GUIDANCE_FIELDS[0] ? (
              <div className="border-t border-slate-200 pt-5">
                <h2 className="text-lg font-semibold text-slate-900">{VOICE_TEXT.guidanceTitle}</h2>
                <p className="mt-1 text-sm text-slate-700">{VOICE_TEXT.guidanceIntro}</p>
              </div>
            ) : null}
            <div>
              <TextareaField
                label={VOICE_LABELS[field]}
                optional
                textareaProps={{
                  ...controlProps(fields[field]),
                  rows: ROWS[field],
                  maxLength: MAX_LENGTH[field],
                  "aria-describedby": `${fields[field].id}-hint`,
                }}
                errors={fields[field].errors}
              />
              <p id={`${fields[field].id}-hint`} className="mt-1 text-sm text-slate-600">
                {VOICE_HINTS[field]}
              </p>
            </div>
            {field === "authorsNote" ? (
              <div className="max-w-xs">
                <Field
                  label={VOICE_TEXT.depthLabel}
                  hint={VOICE_TEXT.depthHint}
                  inputProps={{
                    ...controlProps(fields.authorsNoteDepth),
                    type: "number",
                    inputMode: "numeric",
                    min: 0,
                    max: VOICE_LIMITS.authorsNoteDepthMax,
                    step: 1,
                  }}
                  errors={fields.authorsNoteDepth.errors}
                />
              </div>
            ) : null}
          </Fragment>
        ))}
        <div className="flex flex-wrap gap-3">
          <Button type="submit" name="intent" value="suggest" disabled={busy} variant="secondary" size="base">
            {VOICE_TEXT.suggest}
          </Button>
          <Button type="submit" name="intent" value="save" disabled={busy} size="base">
            {busy ? VOICE_TEXT.saving : VOICE_TEXT.save}
          </Button>
        </div>
      </Form>
    </div>
  );
}

export const ErrorBoundary = PersonaErrorBoundary;
