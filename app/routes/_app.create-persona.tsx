// /create-persona (docs/product.md, Wizard): the four-step wizard. `?id=` reopens one of the
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
import { PersonaWizard } from "~/components/persona-wizard";
import { EMPTY_PERSONA_FORM, localWizardMove, toFormValues, WIZARD_TOASTS, type WizardState } from "~/domain/persona-form";
import { PRODUCT_NAME } from "~/domain/site";
import {
  httpError,
  redirectWithToast,
  invalidSave,
  parseWizardSave,
  readWizardPost,
  saveFailure,
  wizardAnswer,
  wizardMove,
  type WizardAnswer,
  completeDraft,
  createPersona,
  getPersona,
  saveDraft,
  updateDraft,
  usage,
  orNotFound,
  requireUser,
  responseHeaders,
} from "~/services/index.server";

const TITLES = { create: "Create New Persona", continue: "Continue Creating" } as const;

export const meta: MetaFunction<typeof loader> = ({ data: loaderData }) => [
  { title: `${loaderData?.personaId ? TITLES.continue : TITLES.create} · ${PRODUCT_NAME}` },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user, ctx } = await requireUser(request, context);
  const id = new URL(request.url).searchParams.get("id");
  const headers = responseHeaders(ctx);
  if (id !== null) {
    const persona = await orNotFound(ctx, () => getPersona(user, id));
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
  const post = await readWizardPost(request);
  const moved = await wizardMove(user, ctx, post);
  if (moved) return moved;
  const { intent, raw, state, personaId } = post;
  const creating = intent === "create";
  // Creation is possible only from the Review step; anywhere else the button is Continue.
  if (creating && state.step !== 4) {
    const next = localWizardMove("continue", state);
    return wizardAnswer(ctx, next, next.errors ? 400 : 200);
  }
  if (intent !== "create" && intent !== "save-draft") return httpError(400, "Unknown wizard action.");
  const failed = creating ? WIZARD_TOASTS.createFailed : WIZARD_TOASTS.draftFailed;
  const submission = parseWizardSave(post, creating ? "create" : "draft");
  if (submission.status !== "success") return invalidSave(ctx, post, submission, failed);
  try {
    const persona = creating
      ? await (personaId ? completeDraft(user, personaId, raw) : createPersona(user, raw))
      : await (personaId ? updateDraft(user, personaId, raw) : saveDraft(user, raw));
    const toast = creating ? WIZARD_TOASTS.created : WIZARD_TOASTS.draftSaved;
    return redirectWithToast(`/persona/${persona.id}`, { type: "success", ...toast }, { headers: responseHeaders(ctx) });
  } catch (error) {
    // The plan's limit, or a rule only the database can check.
    return saveFailure(ctx, post, error, failed);
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
      <PersonaWizard
        key={personaId ?? "new"}
        personaId={personaId}
        initial={wizard}
        answer={answer}
        onLimitReached={gate.openLimitDialog}
      />
    </div>
  );
}

export const ErrorBoundary = PersonaErrorBoundary;
