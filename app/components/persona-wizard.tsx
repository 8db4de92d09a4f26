// The create-persona wizard (docs/product.md, Wizard): Basic Info, Personality, Backstory and
// Review. One form holds every field on every step: the current step's controls, the
// others as hidden inputs. Without JavaScript each button posts the whole form and the
// action answers with the next state, so nothing typed is lost going forward or back;
// with JavaScript Back, Continue, Auto-fill and Auto-select run here (the same functions
// the action runs), the backstory comes from the JSON API, and only Save Draft and Create
// Persona navigate. Field errors are conform's: the persona form's schema checks a field
// when the creator leaves it and again as they type, and every move's errors (the action's
// answer, or a move made here) reach the fields as conform's last result.
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form, useNavigation } from "@remix-run/react";
import { forwardRef, useEffect, useId, useRef, useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";

import {
  AGE_RANGES,
  INTERESTS,
  PERSONA_LIMITS,
  PERSONA_TYPE_LABELS,
  PERSONA_TYPES,
  TRAIT_CATEGORIES,
  GENDERS,
  type TraitCategory,
} from "~/domain/persona";
import {
  canGenerateBackstory,
  characterCount,
  continueLabel,
  descriptionCounter,
  draftSchema,
  firstStepWithError,
  GENDER_LABELS,
  INTEREST_LABELS,
  LAST_STEP,
  localWizardMove,
  MAX_INTERESTS_TOAST,
  MISSING_INFORMATION,
  PERSONA_FIELDS,
  PERSONA_FIELD_LABELS,
  personaSchema,
  reviewSummary,
  stepFields,
  STEPS,
  stepState,
  WIZARD_FIX_ERRORS,
  WIZARD_TEXT,
  WIZARD_TOASTS,
  type LocalWizardIntent,
  type PersonaField,
  type PersonaFieldErrors,
  type PersonaFormValues,
  type StepNumber,
  type WizardAnswer,
  type WizardState,
} from "~/domain/persona-form";
import { toggleInterest, toggleTrait, TRAIT_CAP_TEXT, TRAIT_CATEGORY_NAMES } from "~/domain/traits";

import { keepSubmitInPlace } from "./form-controls";
import { ActionToast, useClearToast, useHoldToastRoom, useToast } from "./toaster";
import { FieldErrors } from "./ui/field";
import { CheckIcon, SparklesIcon } from "./ui/icons";
import { buttonClass } from "./ui/button";

const controlClass =
  "block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-slate-900 shadow-sm placeholder:text-slate-500 focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600 aria-[invalid=true]:border-red-500";
const secondaryButton = buttonClass("secondary", "base", "inline-flex items-center justify-center gap-2 disabled:cursor-not-allowed");
const primaryButton = buttonClass("primary", "base", "inline-flex items-center justify-center gap-2 disabled:cursor-not-allowed");

/**
 * A browser length limit, only without JavaScript: it counts UTF-16 units (an emoji is two),
 * while the counter and the server count characters, which the script enforces itself.
 */
function useNoScriptLimit() {
  const hydrated = useHydrated();
  return (limit: number) => (hydrated ? undefined : limit);
}

/** The description as typed, cut at the limit (docs/product.md, Personas: enforced live while typing). */
function limitDescription(text: string): string {
  return characterCount(text) > PERSONA_LIMITS.descriptionMax ? [...text].slice(0, PERSONA_LIMITS.descriptionMax).join("") : text;
}

/** A move's errors as conform's last result: shown on every field (none clears them), checked again as the creator types. */
function moveResult(errors: PersonaFieldErrors | null): SubmissionResult<string[]> {
  return {
    error: { ...errors },
    state: { validated: Object.fromEntries(PERSONA_FIELDS.map((field) => [field, true])) },
  };
}

/** The pressed button's rules: Save Draft (and saving an edited draft) the draft's, anything else a complete persona's. */
function schemaFor(intent: unknown, edit?: { rules: "create" | "draft" }) {
  const draft = intent === "save-draft" || (intent === "save" && edit?.rules === "draft");
  return draft ? draftSchema : personaSchema;
}

/** The shell's sticky header: a heading above this line is hidden under it. */
const STICKY_HEADER_PX = 80;

export function PersonaWizard({
  personaId,
  initial,
  answer,
  onLimitReached,
  edit,
}: {
  /** The draft being continued (or persona being edited), or null for a new persona. */
  personaId: string | null;
  /** Editing a persona in place: 'Save Changes' with these rules instead of Save Draft / Create Persona. */
  edit?: { rules: "create" | "draft" };
  initial: WizardState;
  /** The action's latest answer (a failed save, or every move without JavaScript). */
  answer: WizardAnswer | undefined;
  onLimitReached: () => void;
}) {
  const hydrated = useHydrated();
  const toast = useToast();
  const holdToastRoom = useHoldToastRoom();
  const clearToast = useClearToast();
  const navigation = useNavigation();
  const start = answer ?? initial;
  const [step, setStep] = useState<StepNumber>(start.step);
  const [values, setValues] = useState<PersonaFormValues>(start.values);
  // The creator's own backstory a generation replaced, while 'Undo' can still bring it back.
  const [previousBackstory, setPreviousBackstory] = useState<string | null>(start.previousBackstory ?? null);
  const [lastResult, setLastResult] = useState<SubmissionResult<string[]> | undefined>(() =>
    start.errors ? moveResult(start.errors) : undefined,
  );
  const setErrors = (errors: PersonaFieldErrors | null) => setLastResult(moveResult(errors));
  // Bumped on every move, so focus goes where the creator needs it after the render.
  const [focusRequest, setFocusRequest] = useState<{ kind: "step" | "error"; n: number } | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const indicatorRef = useRef<HTMLElement>(null);
  const formId = useId();
  const [form, fields] = useForm({
    id: formId,
    lastResult,
    constraint: getZodConstraint(personaSchema),
    // A field left or typed in is checked as Continue checks it; a submit, by the pressed button's rules.
    onValidate: ({ formData }) => parseWithZod(formData, { schema: schemaFor(formData.get("intent"), edit) }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });

  // A new answer from the action replaces what is shown (first render already used it).
  const seen = useRef(answer);
  useEffect(() => {
    if (!answer || seen.current === answer) return;
    seen.current = answer;
    setStep(answer.step);
    setValues(answer.values);
    setPreviousBackstory(answer.previousBackstory ?? null);
    setErrors(answer.errors);
    if (answer.limitReached) onLimitReached();
    else if (answer.errors) setFocusRequest((r) => ({ kind: "error", n: (r?.n ?? 0) + 1 }));
  }, [answer, onLimitReached]);

  // Errors reach the fields once conform has taken the move's result, a render later: an error
  // request waits for them, and each request is served once.
  const errorsShown = PERSONA_FIELDS.map((field) => fields[field].errors?.join("\n") ?? "").join("\n\n");
  const focusServed = useRef(0);
  useEffect(() => {
    if (!focusRequest || focusServed.current === focusRequest.n) return;
    if (focusRequest.kind === "step") {
      // A new step opens at its top, the step indicator and the heading in view: the page may have
      // been scrolled down the last one, whose Continue is at its bottom.
      const heading = headingRef.current;
      const indicator = indicatorRef.current?.getBoundingClientRect().top ?? 0;
      const top = heading?.getBoundingClientRect().top ?? 0;
      if (heading && (indicator < STICKY_HEADER_PX || top > window.innerHeight / 2)) window.scrollTo({ top: 0 });
      heading?.focus({ preventScroll: true });
      focusServed.current = focusRequest.n;
      return;
    }
    const invalid = formRef.current?.querySelector<HTMLElement>("[aria-invalid='true']");
    if (invalid) {
      invalid.focus();
      focusServed.current = focusRequest.n;
    }
  }, [focusRequest, errorsShown]);

  const update = (patch: Partial<PersonaFormValues>) => {
    // Typing over a generated backstory makes it the creator's: Undo would throw that away.
    if (patch.backstory !== undefined) setPreviousBackstory(null);
    setValues({ ...values, ...patch });
  };

  const show = (next: WizardState) => {
    setValues(next.values);
    setErrors(next.errors);
    // A toast belongs to its step: moving on without one of its own leaves the last step's behind.
    if (next.toast) toast(next.toast);
    else if (next.step !== step) clearToast();
    if (next.step !== step) setStep(next.step);
    if (next.errors) setFocusRequest((r) => ({ kind: "error", n: (r?.n ?? 0) + 1 }));
    else if (next.step !== step) setFocusRequest((r) => ({ kind: "step", n: (r?.n ?? 0) + 1 }));
  };

  /** With JavaScript these moves never leave the page. */
  const local = (intent: LocalWizardIntent) => (event: React.MouseEvent) => {
    if (!hydrated) return;
    event.preventDefault();
    show(localWizardMove(intent, { step, values }));
  };

  /**
   * Save Draft and Create Persona are checked here first, with the rules the action parses
   * with; only a valid form is posted. A refusal goes to the earliest step with an error.
   */
  const guardSubmit = (mode: "draft" | "create") => (event: React.MouseEvent<HTMLButtonElement>) => {
    if (!hydrated || !formRef.current) return;
    const submission = parseWithZod(new FormData(formRef.current), { schema: schemaFor(event.currentTarget.value, edit) });
    if (submission.status === "success") return;
    event.preventDefault();
    const errors: PersonaFieldErrors = {};
    for (const field of PERSONA_FIELDS) {
      const messages = submission.error?.[field];
      if (messages?.length) errors[field] = messages;
    }
    const failed = mode === "draft" ? WIZARD_TOASTS.draftFailed : WIZARD_TOASTS.createFailed;
    show({ step: firstStepWithError(errors), values, errors, toast: { type: "error", ...failed } });
  };

  // The backstory comes from the JSON API, so a failure (even of the network) is a toast
  // and never takes the page, or the creator's own text, away.
  const [generating, setGenerating] = useState(false);
  const generateBackstory = async (event: React.MouseEvent) => {
    if (!hydrated) return;
    event.preventDefault();
    if (generating) return;
    if (!canGenerateBackstory(values)) {
      toast({ type: "error", ...MISSING_INFORMATION });
      return;
    }
    setGenerating(true);
    const release = holdToastRoom();
    try {
      const { name, type, gender, ageRange, interests, personality, description } = values;
      const response = await fetch("/api/generate-backstory", {
        method: "POST",
        credentials: "include",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ name, type, gender, ageRange: ageRange || null, interests, personality, description, personaId }),
      });
      const body = (await response.json().catch(() => null)) as { backstory?: unknown; code?: unknown; message?: unknown } | null;
      if (response.ok && typeof body?.backstory === "string") {
        const backstory = body.backstory;
        const own = values.backstory.trim() !== "" ? values.backstory : null;
        setValues((current) => ({ ...current, backstory }));
        setPreviousBackstory(own);
        toast({ type: "success", ...WIZARD_TOASTS.backstoryGenerated });
      } else if (body?.code === "rate_limited" && typeof body.message === "string") {
        // Over the hourly quota: the failure's title, and when to try again.
        toast({ type: "error", title: WIZARD_TOASTS.backstoryFailed.title, description: body.message });
      } else {
        toast({ type: "error", ...(body?.code === "missing_information" ? MISSING_INFORMATION : WIZARD_TOASTS.backstoryFailed) });
      }
    } catch {
      toast({ type: "error", ...WIZARD_TOASTS.backstoryFailed });
    } finally {
      release();
      setGenerating(false);
    }
  };

  const undoBackstory = (event: React.MouseEvent) => {
    if (!hydrated || previousBackstory === null) return;
    event.preventDefault();
    setValues((current) => ({ ...current, backstory: previousBackstory }));
    setPreviousBackstory(null);
    toast({ type: "success", ...WIZARD_TOASTS.backstoryRestored });
  };

  const submittingIntent = navigation.state !== "idle" ? navigation.formData?.get("intent") : undefined;
  const creating = submittingIntent === "create";
  const savingDraft = submittingIntent === "save-draft" || submittingIntent === "save";
  const busy = creating || savingDraft;
  const secondary = edit
    ? { intent: "save", label: savingDraft ? WIZARD_TEXT.saving : WIZARD_TEXT.saveChanges, guard: guardSubmit(edit.rules) }
    : { intent: "save-draft", label: savingDraft ? WIZARD_TEXT.saving : WIZARD_TEXT.saveDraft, guard: guardSubmit("draft") };

  const current = STEPS[step - 1]!;
  const visible = new Set<PersonaField>(stepFields(step));
  const errorFor = (field: PersonaField) => fields[field].errors;
  const hasErrors = PERSONA_FIELDS.some((field) => fields[field].errors?.length);

  return (
    <div className="space-y-6">
      <ActionToast toast={answer?.toast} />
      <StepIndicator step={step} ref={indicatorRef} />

      <Form
        ref={formRef}
        method="post"
        {...getFormProps(form)}
        className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-8"
      >
        {/* Enter in a text field means Continue, never Back or Auto-fill. */}
        <button
          type="submit"
          name="intent"
          value="continue"
          tabIndex={-1}
          aria-hidden="true"
          className="sr-only"
          onClick={local("continue")}
        >
          {WIZARD_TEXT.continue}
        </button>
        <input type="hidden" name="step" value={step} />
        {personaId ? <input type="hidden" name="personaId" value={personaId} /> : null}
        <HiddenValues values={values} visible={visible} />

        <h2 ref={headingRef} tabIndex={-1} className="scroll-mt-24 text-xl font-semibold text-slate-900 outline-none">
          <span className="sr-only">
            Step {step} of {LAST_STEP}:{" "}
          </span>
          {current.name}
        </h2>

        {hasErrors ? (
          <p role="alert" className="mt-4 rounded-lg border border-red-200 bg-red-50 p-3 text-sm font-medium text-red-900">
            {WIZARD_FIX_ERRORS}
          </p>
        ) : null}

        <div className="mt-6 space-y-6">
          {step === 1 ? (
            <BasicInfoStep values={values} errorFor={errorFor} update={update} onAutoFill={local("auto-fill")} toast={toast} />
          ) : null}
          {step === 2 ? (
            <PersonalityStep values={values} errors={errorFor("personality")} update={update} onAutoSelect={local("auto-select-traits")} />
          ) : null}
          {step === 3 ? (
            <BackstoryStep
              values={values}
              errors={errorFor("backstory")}
              update={update}
              generating={generating}
              onGenerate={generateBackstory}
              previousBackstory={previousBackstory}
              onUndo={undoBackstory}
            />
          ) : null}
          {step === 4 ? <ReviewStep values={values} /> : null}
        </div>

        <div className="mt-8 flex flex-col-reverse gap-3 border-t border-slate-200 pt-6 sm:flex-row sm:items-center sm:justify-between">
          <div>
            {step > 1 ? (
              <button
                type="submit"
                name="intent"
                value="back"
                formNoValidate
                onClick={local("back")}
                disabled={busy}
                className={secondaryButton}
              >
                <span aria-hidden="true">←</span> {WIZARD_TEXT.back}
              </button>
            ) : null}
          </div>
          <div className="flex flex-col-reverse gap-3 sm:flex-row">
            {edit && step === LAST_STEP ? null : (
              <button
                type="submit"
                name="intent"
                value={secondary.intent}
                onClick={secondary.guard}
                disabled={busy}
                className={secondaryButton}
              >
                {secondary.label}
              </button>
            )}
            {step === LAST_STEP && edit ? (
              <button type="submit" name="intent" value="save" onClick={secondary.guard} disabled={busy} className={primaryButton}>
                {savingDraft ? <Spinner /> : <CheckIcon />}
                {secondary.label}
              </button>
            ) : step === LAST_STEP ? (
              <button type="submit" name="intent" value="create" onClick={guardSubmit("create")} disabled={busy} className={primaryButton}>
                {creating ? <Spinner /> : <CheckIcon />}
                {continueLabel(step, creating)}
              </button>
            ) : (
              <button type="submit" name="intent" value="continue" onClick={local("continue")} disabled={busy} className={primaryButton}>
                {continueLabel(step)} <span aria-hidden="true">→</span>
              </button>
            )}
          </div>
        </div>
      </Form>
    </div>
  );
}

const StepIndicator = forwardRef<HTMLElement, { step: StepNumber }>(function StepIndicator({ step }, ref) {
  return (
    <nav aria-label="Progress" ref={ref}>
      <ol className="grid grid-cols-4 gap-2">
        {STEPS.map((s) => {
          const state = stepState(s.number, step);
          return (
            <li
              key={s.number}
              aria-current={state === "active" ? "step" : undefined}
              data-state={state}
              className="flex flex-col items-center gap-1 text-center sm:flex-row sm:gap-3 sm:text-left"
            >
              <span
                className={`flex h-9 w-9 shrink-0 items-center justify-center rounded-full text-sm font-semibold ${
                  state === "completed"
                    ? "bg-brand-700 text-white"
                    : state === "active"
                      ? "border-2 border-brand-700 bg-brand-50 text-brand-800"
                      : "border-2 border-slate-300 bg-white text-slate-600"
                }`}
              >
                {state === "completed" ? <CheckIcon /> : s.number}
              </span>
              <span className={`text-xs font-medium sm:text-sm ${state === "pending" ? "text-slate-600" : "text-slate-900"}`}>
                {s.name}
                <span className="sr-only"> ({state})</span>
              </span>
            </li>
          );
        })}
      </ol>
    </nav>
  );
});

/** The fields of the other steps travel along as hidden inputs. */
function HiddenValues({ values, visible }: { values: PersonaFormValues; visible: Set<PersonaField> }) {
  return (
    <>
      {PERSONA_FIELDS.filter((field) => !visible.has(field)).map((field) => {
        const value = values[field];
        return Array.isArray(value) ? (
          value.map((item) => <input key={`${field}-${item}`} type="hidden" name={field} value={item} />)
        ) : (
          <input key={field} type="hidden" name={field} value={value} />
        );
      })}
    </>
  );
}

const describedBy = (...ids: (string | false | undefined)[]) => ids.filter(Boolean).join(" ") || undefined;

function BasicInfoStep({
  values,
  errorFor,
  update,
  onAutoFill,
  toast,
}: {
  values: PersonaFormValues;
  errorFor: (field: PersonaField) => string[] | undefined;
  update: (patch: Partial<PersonaFormValues>) => void;
  onAutoFill: (event: React.MouseEvent) => void;
  toast: ReturnType<typeof useToast>;
}) {
  const id = useId();
  const noScriptLimit = useNoScriptLimit();
  const err = (field: PersonaField) => (errorFor(field)?.length ? true : undefined);
  return (
    <>
      <div className="flex flex-col gap-3 rounded-xl bg-brand-50 p-4 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-brand-900">
          Not sure where to start? Fill the empty fields with suggestions and change anything you like.
        </p>
        <button type="submit" name="intent" value="auto-fill" formNoValidate onClick={onAutoFill} className={secondaryButton}>
          <SparklesIcon />
          {WIZARD_TEXT.autoFill}
        </button>
      </div>

      <div className="grid gap-6 sm:grid-cols-2">
        <div>
          <label htmlFor={`${id}-name`} className="mb-1 block text-sm font-medium text-slate-800">
            {PERSONA_FIELD_LABELS.name}
          </label>
          <input
            id={`${id}-name`}
            name="name"
            onBlur={keepSubmitInPlace}
            autoComplete="off"
            maxLength={noScriptLimit(PERSONA_LIMITS.nameMax)}
            value={values.name}
            onChange={(e) => update({ name: e.target.value })}
            placeholder="e.g. Nova Starlight"
            aria-invalid={err("name")}
            aria-describedby={describedBy(err("name") && `${id}-name-error`)}
            className={controlClass}
          />
          <FieldErrors id={`${id}-name-error`} errors={errorFor("name")} />
        </div>

        <div>
          <label htmlFor={`${id}-type`} className="mb-1 block text-sm font-medium text-slate-800">
            {PERSONA_FIELD_LABELS.type}
          </label>
          <select
            id={`${id}-type`}
            name="type"
            onBlur={keepSubmitInPlace}
            value={values.type}
            onChange={(e) => update({ type: e.target.value })}
            aria-invalid={err("type")}
            aria-describedby={describedBy(err("type") && `${id}-type-error`)}
            className={controlClass}
          >
            <option value="">Select a type</option>
            {PERSONA_TYPES.map((type) => (
              <option key={type} value={type}>
                {PERSONA_TYPE_LABELS[type]}
              </option>
            ))}
          </select>
          <FieldErrors id={`${id}-type-error`} errors={errorFor("type")} />
        </div>
      </div>

      <div className="grid gap-6 sm:grid-cols-2">
        <fieldset aria-describedby={describedBy(err("gender") && `${id}-gender-error`)}>
          <legend className="mb-2 text-sm font-medium text-slate-800">{PERSONA_FIELD_LABELS.gender}</legend>
          <div className="grid grid-cols-2 gap-2">
            {GENDERS.map((gender) => (
              <label
                key={gender}
                className="flex cursor-pointer items-center gap-2 rounded-lg border border-slate-300 px-3 py-2 text-sm text-slate-800 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
              >
                <input
                  type="radio"
                  name="gender"
                  value={gender}
                  checked={values.gender === gender}
                  onChange={() => update({ gender })}
                  aria-invalid={err("gender")}
                  className="h-4 w-4 accent-brand-700"
                />
                {GENDER_LABELS[gender]}
              </label>
            ))}
          </div>
          <FieldErrors id={`${id}-gender-error`} errors={errorFor("gender")} />
        </fieldset>

        <div>
          <label htmlFor={`${id}-age`} className="mb-1 block text-sm font-medium text-slate-800">
            {PERSONA_FIELD_LABELS.ageRange}
          </label>
          <select
            id={`${id}-age`}
            name="ageRange"
            onBlur={keepSubmitInPlace}
            value={values.ageRange}
            onChange={(e) => update({ ageRange: e.target.value })}
            aria-invalid={err("ageRange")}
            aria-describedby={describedBy(err("ageRange") && `${id}-age-error`)}
            className={controlClass}
          >
            <option value="">Select an age range</option>
            {AGE_RANGES.map((range) => (
              <option key={range} value={range}>
                {range}
              </option>
            ))}
          </select>
          <FieldErrors id={`${id}-age-error`} errors={errorFor("ageRange")} />
        </div>
      </div>

      <fieldset aria-describedby={describedBy(`${id}-interests-hint`, err("interests") && `${id}-interests-error`)}>
        <legend className="text-sm font-medium text-slate-800">{PERSONA_FIELD_LABELS.interests}</legend>
        <p id={`${id}-interests-hint`} className="mb-2 text-sm text-slate-600">
          Choose 1 to {PERSONA_LIMITS.interestsMax}.
        </p>
        <div className="grid grid-cols-2 gap-2 sm:grid-cols-3 md:grid-cols-4">
          {INTERESTS.map((interest) => (
            <label
              key={interest}
              className="flex cursor-pointer items-center gap-2 rounded-lg border border-slate-300 px-3 py-2 text-sm text-slate-800 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
            >
              <input
                type="checkbox"
                name="interests"
                value={interest}
                checked={values.interests.includes(interest)}
                aria-invalid={err("interests")}
                onChange={(event) => {
                  const result = toggleInterest(values.interests, interest);
                  if (result.refused) {
                    // The box stays unticked, and the form (and its checks) never sees the fourth.
                    event.preventDefault();
                    toast({ type: "error", ...MAX_INTERESTS_TOAST });
                  } else update({ interests: result.selected });
                }}
                className="h-4 w-4 accent-brand-700"
              />
              {INTEREST_LABELS[interest]}
            </label>
          ))}
        </div>
        <FieldErrors id={`${id}-interests-error`} errors={errorFor("interests")} />
      </fieldset>

      <div>
        <div className="mb-1 flex items-baseline justify-between gap-3">
          <label htmlFor={`${id}-description`} className="block text-sm font-medium text-slate-800">
            Short {PERSONA_FIELD_LABELS.description.toLowerCase()}
          </label>
          <span id={`${id}-description-counter`} className="text-sm tabular-nums text-slate-600" data-testid="description-counter">
            {descriptionCounter(values.description)}
          </span>
        </div>
        <textarea
          id={`${id}-description`}
          name="description"
          onBlur={keepSubmitInPlace}
          rows={3}
          maxLength={noScriptLimit(PERSONA_LIMITS.descriptionMax)}
          value={values.description}
          onChange={(e) => update({ description: limitDescription(e.target.value) })}
          placeholder="A sentence or two about who they are."
          aria-invalid={err("description")}
          aria-describedby={describedBy(`${id}-description-counter`, err("description") && `${id}-description-error`)}
          className={controlClass}
        />
        <FieldErrors id={`${id}-description-error`} errors={errorFor("description")} />
      </div>
    </>
  );
}

function PersonalityStep({
  values,
  errors,
  update,
  onAutoSelect,
}: {
  values: PersonaFormValues;
  errors: string[] | undefined;
  update: (patch: Partial<PersonaFormValues>) => void;
  onAutoSelect: (event: React.MouseEvent) => void;
}) {
  const id = useId();
  const hydrated = useHydrated();
  const count = values.personality.length;
  const max = PERSONA_LIMITS.traitsMax;
  // At the cap the other chips are unavailable (with JavaScript); without it the server ignores
  // ticks beyond the cap and names them (the selection before this visit travels along).
  const full = count >= max;
  return (
    <>
      {values.personality.map((trait) => (
        <input key={trait} type="hidden" name="personalityBefore" value={trait} />
      ))}
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div id={`${id}-count`} aria-live="polite">
          <p className="text-sm text-slate-700">
            {count > max ? `Too many traits selected: ${count} of at most ${max}` : `Selected ${count}/${max} traits`}
          </p>
          {full ? <p className="text-sm font-medium text-brand-900">{TRAIT_CAP_TEXT.full}</p> : null}
        </div>
        <button type="submit" name="intent" value="auto-select-traits" formNoValidate onClick={onAutoSelect} className={secondaryButton}>
          <SparklesIcon />
          {WIZARD_TEXT.autoSelectTraits}
        </button>
      </div>
      <div className="grid gap-4 md:grid-cols-2">
        {TRAIT_CATEGORY_NAMES.map((category: TraitCategory) => (
          <fieldset key={category} className="rounded-xl border border-slate-200 p-4" aria-describedby={`${id}-count`}>
            <legend className="px-1 text-sm font-semibold text-slate-900">{category}</legend>
            <div className="mt-1 flex flex-wrap gap-2">
              {TRAIT_CATEGORIES[category].map((trait) => (
                <label
                  key={trait}
                  className="flex cursor-pointer items-center gap-2 rounded-lg border border-slate-300 px-2.5 py-1.5 text-sm text-slate-800 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50 has-[:disabled]:cursor-not-allowed has-[:disabled]:border-dashed has-[:disabled]:text-slate-500"
                >
                  <input
                    type="checkbox"
                    name="personality"
                    value={trait}
                    disabled={hydrated && full && !values.personality.includes(trait)}
                    checked={values.personality.includes(trait)}
                    onChange={() => update({ personality: toggleTrait(values.personality, trait) })}
                    className="h-4 w-4 accent-brand-700"
                  />
                  {trait}
                </label>
              ))}
            </div>
          </fieldset>
        ))}
      </div>
      <FieldErrors id={`${id}-error`} errors={errors} />
    </>
  );
}

function BackstoryStep({
  values,
  errors,
  update,
  generating,
  onGenerate,
  previousBackstory,
  onUndo,
}: {
  values: PersonaFormValues;
  errors: string[] | undefined;
  update: (patch: Partial<PersonaFormValues>) => void;
  generating: boolean;
  onGenerate: (event: React.MouseEvent) => void;
  previousBackstory: string | null;
  onUndo: (event: React.MouseEvent) => void;
}) {
  const id = useId();
  const noScriptLimit = useNoScriptLimit();
  return (
    <>
      <div className="flex flex-col gap-3 rounded-xl bg-brand-50 p-4 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-brand-900">Write your own, or let AI write one from the name, type, gender and traits.</p>
        <button
          type="submit"
          name="intent"
          value="generate-backstory"
          formNoValidate
          onClick={(event) => void onGenerate(event)}
          // Disabled for the creator (clicks are ignored while it runs) but not for the browser,
          // so keyboard focus stays on the button instead of falling to the page.
          aria-disabled={generating || undefined}
          className={`${secondaryButton} aria-disabled:cursor-wait aria-disabled:opacity-70`}
        >
          {generating ? <Spinner /> : <SparklesIcon />}
          {generating ? WIZARD_TEXT.generating : WIZARD_TEXT.generateBackstory}
        </button>
      </div>
      {previousBackstory !== null ? (
        <div
          role="status"
          className="flex flex-wrap items-center gap-3 rounded-xl border border-slate-200 bg-slate-50 p-3 text-sm text-slate-800"
        >
          <input type="hidden" name="previousBackstory" value={previousBackstory} />
          <span>{WIZARD_TEXT.replacedNote}</span>
          <button type="submit" name="intent" value="undo-backstory" formNoValidate onClick={onUndo} className={secondaryButton}>
            {WIZARD_TEXT.undoBackstory}
          </button>
        </div>
      ) : null}
      <div>
        <label htmlFor={`${id}-backstory`} className="mb-1 block text-sm font-medium text-slate-800">
          {PERSONA_FIELD_LABELS.backstory} <span className="font-normal text-slate-600">(optional)</span>
        </label>
        <textarea
          id={`${id}-backstory`}
          name="backstory"
          onBlur={keepSubmitInPlace}
          rows={14}
          maxLength={noScriptLimit(PERSONA_LIMITS.backstoryMax)}
          value={values.backstory}
          readOnly={generating}
          aria-busy={generating || undefined}
          onChange={(e) => update({ backstory: e.target.value })}
          placeholder="Where do they come from? What shaped them?"
          aria-invalid={errors?.length ? true : undefined}
          aria-describedby={describedBy(!!errors?.length && `${id}-error`)}
          className={controlClass}
        />
        <FieldErrors id={`${id}-error`} errors={errors} />
      </div>
    </>
  );
}

function ReviewStep({ values }: { values: PersonaFormValues }) {
  const summary = reviewSummary(values);
  const rows: PersonaField[] = ["name", "type", "gender", "ageRange"];
  return (
    <div className="space-y-6" data-testid="review">
      <dl className="grid gap-4 sm:grid-cols-2">
        {rows.map((field) => (
          <div key={field} className="rounded-xl bg-slate-50 p-4">
            <dt className="text-sm font-medium text-slate-600">{summary[field].label}</dt>
            <dd className={summary[field].empty ? "text-slate-600 italic" : "font-medium text-slate-900"}>{summary[field].text}</dd>
          </div>
        ))}
      </dl>
      {(["interests", "personality"] as const).map((field) => (
        <section key={field} aria-label={summary[field].label}>
          <h3 className="text-sm font-medium text-slate-600">{summary[field].label}</h3>
          {summary[field].empty ? (
            <p className="mt-1 italic text-slate-600">{summary[field].text}</p>
          ) : (
            <ul className="mt-2 flex flex-wrap gap-2">
              {summary[field].items.map((item) => (
                <li key={item} className="rounded-full bg-brand-50 px-3 py-1 text-sm font-medium text-brand-900">
                  {item}
                </li>
              ))}
            </ul>
          )}
        </section>
      ))}
      {(["description", "backstory"] as const).map((field) => (
        <section key={field} aria-label={summary[field].label}>
          <h3 className="text-sm font-medium text-slate-600">{summary[field].label}</h3>
          <p className={`mt-1 whitespace-pre-line ${summary[field].empty ? "italic text-slate-600" : "text-slate-900"}`}>
            {summary[field].text}
          </p>
        </section>
      ))}
    </div>
  );
}

function Spinner() {
  return (
    <svg viewBox="0 0 24 24" width="1em" height="1em" aria-hidden="true" className="animate-spin motion-reduce:animate-none">
      <circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" strokeOpacity="0.3" strokeWidth="3" />
      <path d="M21 12a9 9 0 0 0-9-9" fill="none" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
    </svg>
  );
}
