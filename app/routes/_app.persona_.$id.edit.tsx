// /persona/{id}/edit: the wizard opened on a persona's values. Saving updates the record in
// place (same id, created date and chat), validated like creation; the status stays. A draft
// is continued in /create-persona instead, where finishing it creates it.
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";

import { useCreateGate } from "~/components/create-gate";
import { PersonaErrorBoundary } from "~/components/persona-not-found";
import { PersonaWizard } from "~/components/persona-wizard";
import { toFormValues, WIZARD_TOASTS, type WizardAnswer, type WizardState } from "~/domain/persona-form";
import { VOICE_TEXT } from "~/domain/persona-voice";
import { PRODUCT_NAME } from "~/domain/site";
import {
  httpError,
  redirectWithToast,
  editedAsDraft,
  updatePersona,
  invalidSave,
  parseWizardSave,
  readWizardPost,
  saveFailure,
  wizardMove,
  getPersona,
  orNotFound,
  requireUser,
  responseHeaders,
} from "~/services/index.server";
import { buttonClass } from "~/components/ui/button";

export const meta: MetaFunction<typeof loader> = ({ data: loaderData }) => [
  { title: `Edit ${loaderData?.name ?? "persona"} · ${PRODUCT_NAME}` },
];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { user, ctx } = await requireUser(request, context);
  const headers = responseHeaders(ctx);
  const persona = await orNotFound(ctx, () => getPersona(user, params.id ?? ""));
  if (persona.status === "in_progress") throw redirect(`/create-persona?id=${persona.id}`, { headers });
  const wizard: WizardState = { step: 1, values: toFormValues(persona), errors: null, toast: null };
  return data(
    { id: persona.id, name: persona.name, rules: editedAsDraft(persona) ? ("draft" as const) : ("create" as const), wizard },
    { headers },
  );
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { user, ctx } = await requireUser(request, context);
  const post = await readWizardPost(request);
  const moved = await wizardMove(user, ctx, post);
  if (moved) return moved;
  if (post.intent !== "save") return httpError(400, "Unknown wizard action.");
  const current = await orNotFound(ctx, () => getPersona(user, params.id ?? ""));
  // A draft (or an archived draft) is saved under the draft rules, anything else as a complete persona.
  const submission = parseWizardSave(post, editedAsDraft(current) ? "draft" : "create");
  if (submission.status !== "success") return invalidSave(ctx, post, submission, WIZARD_TOASTS.editFailed);
  try {
    const persona = await orNotFound(ctx, () => updatePersona(user, current.id, post.raw));
    return redirectWithToast(`/persona/${persona.id}`, { type: "success", ...WIZARD_TOASTS.edited }, { headers: responseHeaders(ctx) });
  } catch (error) {
    return saveFailure(ctx, post, error, WIZARD_TOASTS.editFailed);
  }
}

const EDIT_TEXT = {
  cancel: "Cancel",
  voice:
    "Greeting, example dialogue, speech style, catchphrases, appearance and scenario are edited on their own page; unsaved changes above stay here only until you leave.",
} as const;

export default function EditPersona() {
  const { id, name, rules, wizard } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>() as WizardAnswer | undefined;
  const gate = useCreateGate();
  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Edit {name}</h1>
          <p className="mt-1 text-slate-700">Change anything; the persona keeps its page, its created date and its conversations.</p>
        </div>
        {/* The way out: nothing is saved until 'Save Changes'. */}
        <Link to={`/persona/${id}`} className={buttonClass("secondary", "md", "shrink-0 self-start")}>
          {EDIT_TEXT.cancel}
        </Link>
      </div>
      <PersonaWizard key={id} personaId={id} initial={wizard} answer={answer} onLimitReached={gate.openLimitDialog} edit={{ rules }} />
      <section aria-labelledby="edit-voice" className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
        <h2 id="edit-voice" className="text-lg font-semibold text-slate-900">
          {VOICE_TEXT.title}
        </h2>
        <p className="mt-1 text-slate-700">{EDIT_TEXT.voice}</p>
        <Link to={`/persona/${id}/voice`} className={buttonClass("secondary", "md", "mt-3 inline-block")}>
          {VOICE_TEXT.edit}
        </Link>
      </section>
    </div>
  );
}

export const ErrorBoundary = PersonaErrorBoundary;
