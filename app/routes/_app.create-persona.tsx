// /create-persona (SPEC §2, §4, §5, §8): the four-step wizard. `?id=` reopens one of the
// creator's drafts ('Continue Creating'); finishing or saving it updates that record.
// The create gate stands in front: with the Free plan's 10 personas used up the page is
// the limit notice, and a creation refused by the database opens the limit dialog.
// One action, dispatched on the pressed button's `intent`: the moves that need no server
// (Back, Continue, Auto-fill, Auto-select) only run here without JavaScript.
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useHydrated } from "remix-utils/use-hydrated";

import { LimitNotice, useCreateGate } from "~/components/create-gate";
import { PersonaErrorBoundary } from "~/components/persona-not-found";
import { PersonaWizard, type WizardAnswer } from "~/components/persona-wizard";
import {
  EMPTY_PERSONA_FORM,
  firstStepWithError,
  localWizardMove,
  MISSING_INFORMATION,
  parseStep,
  parseWizardIntent,
  personaFormValues,
  toFormValues,
  WIZARD_TOASTS,
  type WizardState,
} from "~/domain/persona-form";
import { PRODUCT_NAME } from "~/domain/site";
import { httpError, readFormData } from "~/infra/http.server";
import { redirectWithToast } from "~/infra/toast.server";
import { AccountError } from "~/services/accounts.server";
import {
  completeDraft,
  createPersona,
  generateBackstory,
  getPersona,
  MAX_PERSONA_BODY_BYTES,
  saveDraft,
  updateDraft,
  usage,
} from "~/services/personas.server";
import { requireUser, responseHeaders } from "~/services/session.server";

const TITLES = { create: "Create New Persona", continue: "Continue Creating" } as const;

export const meta: MetaFunction<typeof loader> = ({ data: loaderData }) => [
  { title: `${loaderData?.personaId ? TITLES.continue : TITLES.create} · ${PRODUCT_NAME}` },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user, ctx } = await requireUser(request, context);
  const id = new URL(request.url).searchParams.get("id");
  const headers = responseHeaders(ctx);
  if (id !== null) {
    let persona;
    try {
      persona = await getPersona(user, id);
    } catch (error) {
      if (error instanceof AccountError && error.status === 404) throw data(null, { status: 404, headers });
      throw error;
    }
    // Only a draft is continued; a created persona is shown.
    if (persona.status !== "in_progress") throw redirect(`/persona/${persona.id}`, { headers });
    const wizard: WizardState = { step: 1, values: toFormValues(persona), errors: null, toast: null };
    return data({ personaId: persona.id as string | null, limitReached: false, wizard }, { headers });
  }
  const { canCreateMore } = await usage(user);
  const wizard: WizardState = { step: 1, values: EMPTY_PERSONA_FORM, errors: null, toast: null };
  return data({ personaId: null as string | null, limitReached: !canCreateMore, wizard }, { headers });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { user, ctx } = await requireUser(request, context);
  const formData = await readFormData(request, MAX_PERSONA_BODY_BYTES);
  const intent = parseWizardIntent(formData.get("intent"));
  if (!intent) return httpError(400, "Unknown wizard action.");
  const raw = personaFormValues(formData);
  const step = parseStep(formData.get("step"));
  const personaId = String(formData.get("personaId") ?? "") || null;
  const state: WizardState = { step, values: toFormValues(raw), errors: null, toast: null };
  const answer = (next: WizardAnswer, status = 200) => data(next, { status, headers: responseHeaders(ctx) });

  switch (intent) {
    case "back":
    case "continue":
    case "auto-fill":
    case "auto-select-traits": {
      const next = localWizardMove(intent, state);
      return answer(next, next.errors ? 400 : 200);
    }
    case "generate-backstory": {
      try {
        const { backstory } = await generateBackstory(user, raw);
        return answer({ ...state, values: { ...state.values, backstory }, toast: { type: "success", ...WIZARD_TOASTS.backstoryGenerated } });
      } catch (error) {
        if (!(error instanceof AccountError)) throw error;
        const toast = error.code === "missing_information" ? MISSING_INFORMATION : WIZARD_TOASTS.backstoryFailed;
        return answer({ ...state, toast: { type: "error", ...toast } }, error.status);
      }
    }
    case "save-draft":
    case "create": {
      const creating = intent === "create";
      // Creation is possible only from the Review step; anywhere else the button is Continue.
      if (creating && step !== 4) {
        const next = localWizardMove("continue", state);
        return answer(next, next.errors ? 400 : 200);
      }
      try {
        const persona = creating
          ? await (personaId ? completeDraft(user, personaId, raw) : createPersona(user, raw))
          : await (personaId ? updateDraft(user, personaId, raw) : saveDraft(user, raw));
        const toast = creating ? WIZARD_TOASTS.created : WIZARD_TOASTS.draftSaved;
        return redirectWithToast(`/persona/${persona.id}`, { type: "success", ...toast }, { headers: responseHeaders(ctx) });
      } catch (error) {
        if (!(error instanceof AccountError)) throw error;
        if (error.code === "persona_limit_reached") return answer({ ...state, limitReached: true }, 403);
        const failed = creating ? WIZARD_TOASTS.createFailed : WIZARD_TOASTS.draftFailed;
        const errors = error.errors ?? null;
        return answer(
          {
            ...state,
            step: errors ? firstStepWithError(errors) : step,
            errors,
            toast: { type: "error", title: failed.title, description: errors ? failed.description : error.message },
          },
          error.status,
        );
      }
    }
  }
}

export default function CreatePersona() {
  const { personaId, limitReached, wizard } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>() as WizardAnswer | undefined;
  const gate = useCreateGate();

  // The limit as a page: on arrival with the Free plan's personas used up, and without
  // JavaScript when a creation was refused (with JavaScript that opens the dialog, over
  // the wizard and what was typed).
  const hydrated = useHydrated();
  if ((limitReached && !personaId && !answer) || (answer?.limitReached && !hydrated)) {
    return (
      <div className="mx-auto max-w-4xl py-6">
        <LimitNotice />
      </div>
    );
  }

  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <div>
        <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">{personaId ? TITLES.continue : TITLES.create}</h1>
        <p className="mt-1 text-slate-700">
          {personaId
            ? `Pick up where you left off with ${wizard.values.name || "your draft"}.`
            : "Give your character a name, a personality and a story."}
        </p>
      </div>
      <PersonaWizard key={personaId ?? "new"} personaId={personaId} initial={wizard} answer={answer} onLimitReached={gate.openLimitDialog} />
    </div>
  );
}

export const ErrorBoundary = PersonaErrorBoundary;
