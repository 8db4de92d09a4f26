// The wizard's server side, shared by /create-persona and /persona/{id}/edit: reading the
// posted form, and the moves that do not store anything (Back, Continue, Auto-fill,
// Auto-select, Generate Backstory). Without JavaScript every one of them is a form post;
// with JavaScript only the backstory comes from the server (through the JSON API). Saving
// parses the post with the persona form's schema (conform's parseWithZod), as the page does.
import type { Submission } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "@remix-run/node";

import {
  draftSchema,
  firstStepWithError,
  STORING_INTENTS,
  localWizardMove,
  MISSING_INFORMATION,
  parseStep,
  parseWizardIntent,
  PERSONA_FIELDS,
  personaFormValues,
  personaSchema,
  toFormValues,
  WIZARD_TOASTS,
  type PersonaField,
  type PersonaFieldErrors,
  type WizardAnswer,
  type WizardIntent,
  type WizardState,
} from "~/domain/persona-form";

import { PERSONA_LIMITS } from "~/domain/persona";
import { capTraits, TRAIT_CAP_TEXT } from "~/domain/traits";
import { httpError, readFormData } from "~/infra/web/http.server";

export type { WizardAnswer };

import { type CurrentUser, type RequestContext } from "./accounts.server";
import { generateBackstory, MAX_PERSONA_BODY_BYTES } from "./personas.server";
import { responseHeaders } from "./session.server";
import { ServiceError } from "./service-error.server";

export interface WizardPost {
  intent: WizardIntent;
  raw: Record<PersonaField, unknown>;
  state: WizardState;
  personaId: string | null;
  formData: FormData;
}

/** The posted wizard form: which button, which step, every field, and the draft it continues. */
export async function readWizardPost(request: Request): Promise<WizardPost> {
  const formData = await readFormData(request, MAX_PERSONA_BODY_BYTES);
  const intent = parseWizardIntent(formData.get("intent"));
  if (!intent) return httpError(400, "Unknown wizard action.");
  const raw = personaFormValues(formData);
  const values = toFormValues(raw);
  let toast: WizardState["toast"] = null;
  // Without JavaScript a creator can tick an eighth trait: moving through the wizard ignores
  // the extra ticks and says so; saving is refused by the rules like any other bad value.
  if (!STORING_INTENTS.includes(intent)) {
    const before = formData.getAll("personalityBefore").filter((v): v is string => typeof v === "string");
    const { kept, ignored } = capTraits(values.personality, before);
    if (ignored.length) {
      values.personality = kept;
      toast = { type: "error", title: TRAIT_CAP_TEXT.title, description: TRAIT_CAP_TEXT.ignored(ignored) };
    }
  }
  return {
    intent,
    raw,
    state: { step: parseStep(formData.get("step")), values, errors: null, toast },
    personaId: String(formData.get("personaId") ?? "") || null,
    formData,
  };
}

export function wizardAnswer(ctx: RequestContext, answer: WizardAnswer, status = 200, extraHeaders?: HeadersInit) {
  return data(answer, { status, headers: responseHeaders(ctx, extraHeaders) });
}

/**
 * Back, Continue, Auto-fill, Auto-select and Generate Backstory: the next state of the
 * form, or null for the intents that store (the caller's business).
 */
export async function wizardMove(user: CurrentUser, ctx: RequestContext, post: WizardPost) {
  const { intent, state, raw, personaId } = post;
  switch (intent) {
    case "back":
    case "continue":
    case "auto-fill":
    case "auto-select-traits": {
      // Ticks beyond the trait cap were ignored: stay on the step and say so.
      if (state.toast && intent !== "auto-select-traits") return wizardAnswer(ctx, state);
      const next = localWizardMove(intent, state);
      return wizardAnswer(ctx, next, next.errors ? 400 : 200);
    }
    case "generate-backstory": {
      try {
        const { backstory } = await generateBackstory(user, raw, personaId);
        // Generation never destroys the creator's text: what it replaces can be brought back.
        const own = state.values.backstory.trim() !== "" ? state.values.backstory : null;
        return wizardAnswer(ctx, {
          ...state,
          previousBackstory: own,
          values: { ...state.values, backstory },
          toast: { type: "success", ...WIZARD_TOASTS.backstoryGenerated },
        });
      } catch (error) {
        if (!(error instanceof ServiceError)) throw error;
        const toast =
          error.code === "missing_information"
            ? MISSING_INFORMATION
            : error.code === "rate_limited"
              ? { title: WIZARD_TOASTS.backstoryFailed.title, description: error.message }
              : WIZARD_TOASTS.backstoryFailed;
        const retryAfter = error.retryAfterSeconds ? { "Retry-After": String(error.retryAfterSeconds) } : undefined;
        return wizardAnswer(ctx, { ...state, toast: { type: "error", ...toast } }, error.status, retryAfter);
      }
    }
    case "undo-backstory": {
      const previous = post.formData.get("previousBackstory");
      if (typeof previous !== "string" || previous.length > PERSONA_LIMITS.backstoryMax * 2)
        return httpError(400, "There is no earlier backstory to bring back.");
      return wizardAnswer(ctx, {
        ...state,
        values: { ...state.values, backstory: previous },
        previousBackstory: null,
        toast: { type: "success", ...WIZARD_TOASTS.backstoryRestored },
      });
    }
    default:
      return null;
  }
}

/** A save's post, parsed with the rules it is stored under: a complete persona, or a draft. */
export function parseWizardSave(post: WizardPost, rules: "create" | "draft") {
  return parseWithZod(post.formData, { schema: rules === "draft" ? draftSchema : personaSchema });
}

/** A save the schema refused: 400 with its field errors on the earliest step showing one, and the failure toast. */
export function invalidSave(
  ctx: RequestContext,
  post: WizardPost,
  submission: Submission<unknown>,
  failed: { title: string; description: string },
) {
  const errors: PersonaFieldErrors = {};
  for (const [name, messages] of Object.entries(submission.reply().error ?? {})) {
    // Every persona rule names its field; anything else lands on the name, as validatePersona does.
    const field = (PERSONA_FIELDS as readonly string[]).includes(name) ? (name as PersonaField) : "name";
    if (messages?.length) errors[field] = [...(errors[field] ?? []), ...messages];
  }
  return wizardAnswer(
    ctx,
    {
      ...post.state,
      step: firstStepWithError(errors),
      errors,
      toast: { type: "error", title: failed.title, description: failed.description },
    },
    400,
  );
}

/** A refused save: the field errors on the earliest step showing one, and the failure toast. */
export function saveFailure(ctx: RequestContext, post: WizardPost, error: unknown, failed: { title: string; description: string }) {
  if (!(error instanceof ServiceError)) throw error;
  if (error.code === "persona_limit_reached") return wizardAnswer(ctx, { ...post.state, limitReached: true }, 403);
  const errors = error.errors ?? null;
  return wizardAnswer(
    ctx,
    {
      ...post.state,
      step: errors ? firstStepWithError(errors) : post.state.step,
      errors,
      toast: { type: "error", title: failed.title, description: errors ? failed.description : error.message },
    },
    error.status,
  );
}
