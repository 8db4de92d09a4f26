// The persona creation form (docs/product.md, Personas and Wizard): one set of
// schemas and texts for the wizard, its server actions and the JSON API. Values arrive
// from form data (strings, repeated keys for lists; conform turns "" into undefined) or
// from JSON (arrays, null); anything of the wrong type gets the field's own message.
import * as z from "zod";

import {
  AGE_RANGES,
  GENDERS,
  nameLongEnough,
  PERSONA_LIMITS,
  PERSONA_TYPE_LABELS,
  PERSONA_TYPES,
  type Gender,
  type Interest,
  type PersonaType,
} from "./persona";
import { autoFill, autoFillToast } from "./autofill";
import { fieldErrorsOf } from "./form-rules";
import { GENDER_LABELS, INTEREST_LABELS, reviewFallbacks } from "./persona-display";
import type { Random } from "./random";
import { autoSelectTraits, isInterest, isTrait, type Trait } from "./traits";
import type { PersonaFormValues } from "./persona-shapes";

export type { PersonaFormValues } from "./persona-shapes";

export const PERSONA_MESSAGES = {
  nameMin: "Name must be at least 2 characters",
  nameMax: `Name must be ${PERSONA_LIMITS.nameMax} characters or less`,
  nameCharacters: "Name cannot contain control characters",
  nameMarkup: "Name cannot contain < or >",
  type: "Invalid persona type",
  gender: "Invalid gender",
  ageRange: "Invalid age range",
  interestsMin: "At least one interest is required",
  interestsMax: "Maximum 3 interests allowed",
  interestInvalid: "Invalid interest",
  interestsDuplicate: "Each interest can only be selected once",
  descriptionMax: "Description must be 150 characters or less",
  traitsMax: `Maximum ${PERSONA_LIMITS.traitsMax} personality traits allowed`,
  traitInvalid: "Invalid personality trait",
  traitsDuplicate: "Each personality trait can only be selected once",
  backstoryMax: "Backstory must be 20,000 characters or less",
  descriptionCharacters: "Description cannot contain control characters",
  backstoryCharacters: "Backstory cannot contain control characters",
} as const;

/** Characters as people (and Postgres' char_length) count them: code points, not UTF-16 units. */
export function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/** The live counter under the description, 'n/150'. */
export function descriptionCounter(description: string): string {
  return `${characterCount(description)}/${PERSONA_LIMITS.descriptionMax}`;
}

// Line breaks and bidirectional overrides have no place in a name shown in titles, lists and
// file names; zero-width joiners stay allowed because emoji sequences use them.
const CONTROL_CHARACTERS = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]/u;

const name = z
  .string({ error: PERSONA_MESSAGES.nameMin })
  .trim()
  .refine(nameLongEnough, PERSONA_MESSAGES.nameMin)
  .refine((v) => characterCount(v) <= PERSONA_LIMITS.nameMax, PERSONA_MESSAGES.nameMax)
  .refine((v) => !CONTROL_CHARACTERS.test(v), PERSONA_MESSAGES.nameCharacters)
  // A name travels into titles, file names and character cards: markup has no place in it.
  .refine((v) => !/[<>]/.test(v), PERSONA_MESSAGES.nameMarkup);

// Control characters other than tab and line breaks have no place in a text (and PostgreSQL
// refuses NUL outright).
const TEXT_CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/**
 * Optional free text: missing, null and "" all mean "none" and come out as "". Line breaks
 * count once however they were sent (a form post sends CRLF).
 */
const optionalText = (max: number, message: string, controlMessage: string) =>
  z
    .string({ error: message })
    .transform((v) => v.replace(/\r\n?/g, "\n").trim())
    .refine((v) => characterCount(v) <= max, message)
    .refine((v) => !TEXT_CONTROL.test(v), controlMessage)
    .nullish()
    .transform((v) => v ?? "");

const emptyToUndefined = (value: unknown) => (value === "" || value === null ? undefined : value);

const requiredChoice = <T extends readonly [string, ...string[]]>(values: T, message: string) => z.enum(values, { error: message });

/** In a draft a choice may be missing (undefined, null or ""), but a value given must be valid. */
const optionalChoice = <T extends readonly [string, ...string[]]>(values: T, message: string) =>
  z.preprocess(emptyToUndefined, z.enum(values, { error: message }).optional());

/** Form data gives one string or none for a single checked box; JSON gives an array or null. */
function toList(value: unknown): unknown {
  if (value === undefined || value === null || value === "") return [];
  if (typeof value === "string") return [value];
  // An empty entry is what a hidden "nothing checked" input sends.
  if (Array.isArray(value)) return value.filter((item) => item !== "");
  return value;
}

interface ListRules<T extends string> {
  is: (value: unknown) => value is T;
  min: number;
  max: number;
  messages: { invalid: string; duplicate: string; min?: string; max: string };
}

/** A list of known names. Every message lands on the field itself, never on an item index. */
const choiceList = <T extends string>({ is, min, max, messages }: ListRules<T>) =>
  z
    .preprocess(
      toList,
      z.array(z.unknown(), { error: messages.invalid }).superRefine((list, ctx) => {
        const fail = (message: string) => ctx.addIssue({ code: "custom", message, input: list });
        if (!list.every(is)) fail(messages.invalid);
        else if (new Set(list).size !== list.length) fail(messages.duplicate);
        if (list.length < min && messages.min) fail(messages.min);
        if (list.length > max) fail(messages.max);
      }),
    )
    .transform((list) => list as T[]);

const interestRules = {
  is: isInterest,
  max: PERSONA_LIMITS.interestsMax,
  messages: {
    invalid: PERSONA_MESSAGES.interestInvalid,
    duplicate: PERSONA_MESSAGES.interestsDuplicate,
    max: PERSONA_MESSAGES.interestsMax,
  },
};

const personality = choiceList<Trait>({
  is: isTrait,
  min: 0,
  max: PERSONA_LIMITS.traitsMax,
  messages: {
    invalid: PERSONA_MESSAGES.traitInvalid,
    duplicate: PERSONA_MESSAGES.traitsDuplicate,
    max: PERSONA_MESSAGES.traitsMax,
  },
});

const description = optionalText(PERSONA_LIMITS.descriptionMax, PERSONA_MESSAGES.descriptionMax, PERSONA_MESSAGES.descriptionCharacters);
const backstory = optionalText(PERSONA_LIMITS.backstoryMax, PERSONA_MESSAGES.backstoryMax, PERSONA_MESSAGES.backstoryCharacters);

/**
 * A complete persona, for 'Create Persona'. A description is required but limited only in
 * its length; "" is accepted and stored as the empty description ('No description provided').
 */
export const personaSchema = z.object({
  name,
  type: requiredChoice(PERSONA_TYPES, PERSONA_MESSAGES.type),
  gender: requiredChoice(GENDERS, PERSONA_MESSAGES.gender),
  ageRange: requiredChoice(AGE_RANGES, PERSONA_MESSAGES.ageRange),
  interests: choiceList<Interest>({
    ...interestRules,
    min: PERSONA_LIMITS.interestsMin,
    messages: { ...interestRules.messages, min: PERSONA_MESSAGES.interestsMin },
  }),
  description,
  personality,
  backstory,
});

/** 'Save Draft': only a valid name is required; anything else given must still be valid. */
export const draftSchema = z.object({
  name,
  type: optionalChoice(PERSONA_TYPES, PERSONA_MESSAGES.type),
  gender: optionalChoice(GENDERS, PERSONA_MESSAGES.gender),
  ageRange: optionalChoice(AGE_RANGES, PERSONA_MESSAGES.ageRange),
  interests: choiceList<Interest>({ ...interestRules, min: 0 }),
  description,
  personality,
  backstory,
});

export type PersonaInput = z.infer<typeof personaSchema>;
export type DraftInput = z.infer<typeof draftSchema>;

export const PERSONA_FIELDS = ["name", "type", "gender", "ageRange", "interests", "description", "personality", "backstory"] as const;
export type PersonaField = (typeof PERSONA_FIELDS)[number];
export type PersonaFieldErrors = Partial<Record<PersonaField, string[]>>;

/** The form's raw values: `getAll` for the lists, absent keys left undefined. */
export function personaFormValues(formData: FormData): Record<PersonaField, unknown> {
  const one = (key: string) => formData.get(key) ?? undefined;
  return {
    name: one("name"),
    type: one("type"),
    gender: one("gender"),
    ageRange: one("ageRange"),
    interests: formData.getAll("interests"),
    description: one("description"),
    personality: formData.getAll("personality"),
    backstory: one("backstory"),
  };
}

// Labels and fallbacks live with the display rules (no zod there, so pages that only show a
// persona do not ship the validator); re-exported for the form's users.
export { GENDER_LABELS, INTEREST_LABELS, reviewFallbacks };

export type PersonaValidation<T> = { success: true; data: T } | { success: false; errors: PersonaFieldErrors };

/** Validates raw values (form data via personaFormValues, or JSON) into field errors. */
export function validatePersona(input: unknown, mode: "create"): PersonaValidation<PersonaInput>;
export function validatePersona(input: unknown, mode: "draft"): PersonaValidation<DraftInput>;
export function validatePersona(input: unknown, mode: "create" | "draft") {
  // A body that is no object (null, a string, an array) is validated as an empty form.
  const body = typeof input === "object" && input !== null && !Array.isArray(input) ? input : {};
  const result = (mode === "draft" ? draftSchema : personaSchema).safeParse(body);
  if (result.success) return { success: true, data: result.data };
  const errors: PersonaFieldErrors = fieldErrorsOf(result.error.issues, (field) =>
    (PERSONA_FIELDS as readonly unknown[]).includes(field) ? (field as PersonaField) : "name",
  );
  return { success: false, errors };
}

// ---------------------------------------------------------------------------------------
// The wizard's values as the screens hold them: every field present, "" when empty.

export const EMPTY_PERSONA_FORM: PersonaFormValues = {
  name: "",
  type: "",
  gender: "",
  ageRange: "",
  interests: [],
  description: "",
  personality: [],
  backstory: "",
};

export const PERSONA_FIELD_LABELS: Record<PersonaField, string> = {
  name: "Name",
  type: "Type",
  gender: "Gender",
  ageRange: "Age Range",
  interests: "Interests",
  description: "Description",
  personality: "Personality Traits",
  backstory: "Backstory",
};

// ---------------------------------------------------------------------------------------
// Wizard steps (docs/product.md, Wizard).

export const STEPS = [
  { number: 1, name: "Basic Info" },
  { number: 2, name: "Personality" },
  { number: 3, name: "Backstory" },
  { number: 4, name: "Review" },
] as const;
export type StepNumber = (typeof STEPS)[number]["number"];
export const FIRST_STEP: StepNumber = 1;
export const LAST_STEP: StepNumber = 4;

export type StepState = "completed" | "active" | "pending";

/** Completed when the current step is past it, active when equal, pending otherwise. */
export function stepState(step: number, current: number): StepState {
  if (current > step) return "completed";
  return current === step ? "active" : "pending";
}

/** A step number from a form field or query parameter; anything else is step 1. */
export function parseStep(value: unknown): StepNumber {
  const n = typeof value === "number" ? value : typeof value === "string" && /^\d$/.test(value.trim()) ? Number(value) : NaN;
  return n >= FIRST_STEP && n <= LAST_STEP ? (n as StepNumber) : FIRST_STEP;
}

/** Back goes down to a minimum of step 1. */
export function previousStep(current: number): StepNumber {
  return parseStep(Math.max(FIRST_STEP, parseStep(current) - 1));
}

/** Continue (once the form is valid) goes up to the Review step. */
export function nextStep(current: number): StepNumber {
  return parseStep(Math.min(LAST_STEP, parseStep(current) + 1));
}

export const WIZARD_TEXT = {
  saveDraft: "Save Draft",
  continue: "Continue",
  back: "Back",
  create: "Create Persona",
  creating: "Creating...",
  autoFill: "Auto-fill Empty Fields",
  autoSelectTraits: "Auto-select Traits",
  generateBackstory: "Generate Backstory",
  generating: "Generating...",
  undoBackstory: "Undo",
  replacedNote: "A new backstory replaced your text.",
  saveChanges: "Save Changes",
  saving: "Saving...",
} as const;

/** Step 4's Continue is 'Create Persona' ('Creating...' while busy). */
export function continueLabel(step: number, busy = false): string {
  if (parseStep(step) !== LAST_STEP) return WIZARD_TEXT.continue;
  return busy ? WIZARD_TEXT.creating : WIZARD_TEXT.create;
}

// ---------------------------------------------------------------------------------------
// Toasts (docs/product.md, Wizard). Failures without a title of their own use 'Error', as the
// other failure toasts do.

export const MAX_INTERESTS_TOAST = {
  title: "Maximum Interests",
  description: "You can select up to 3 interests only.",
} as const;

export const MISSING_INFORMATION = {
  title: "Missing Information",
  description: "Please provide name, type, gender, and at least one personality trait.",
} as const;

export const WIZARD_TOASTS = {
  draftSaved: { title: "Draft Saved", description: "Your persona draft has been saved successfully." },
  draftFailed: { title: "Error", description: "Failed to save draft. Please try again." },
  created: { title: "Success", description: "Your AI character persona has been created successfully!" },
  edited: { title: "Persona Updated", description: "Your changes have been saved." },
  editFailed: { title: "Error", description: "Failed to save your changes. Please try again." },
  createFailed: { title: "Error", description: "Failed to create persona. Please try again." },
  backstoryGenerated: {
    title: "Backstory Generation Complete",
    description: "AI has created a backstory based on your character's traits.",
  },
  backstoryRestored: { title: "Backstory Restored", description: "Your earlier text is back." },
  backstoryFailed: {
    title: "Generation Failed",
    description: "Failed to generate backstory. Please try again or write your own.",
  },
  autoFillFailed: {
    title: "Auto-Fill Error",
    description: "There was a problem generating content. Please try again.",
  },
  maxInterests: MAX_INTERESTS_TOAST,
  missingInformation: MISSING_INFORMATION,
} as const;

/** Backstory generation needs a name, a type, a gender and at least one trait (docs/product.md, Wizard). */
export function canGenerateBackstory(values: { name?: unknown; type?: unknown; gender?: unknown; personality?: unknown }): boolean {
  return (
    typeof values.name === "string" &&
    values.name.trim() !== "" &&
    (PERSONA_TYPES as readonly unknown[]).includes(values.type) &&
    (GENDERS as readonly unknown[]).includes(values.gender) &&
    Array.isArray(values.personality) &&
    values.personality.some(isTrait)
  );
}

// ---------------------------------------------------------------------------------------
// The Review step (docs/product.md, Wizard): a read-only summary with its fallbacks.

export interface ReviewEntry {
  label: string;
  /** The value as shown, or the fallback text when empty. */
  text: string;
  /** The shown values of a list (labels), empty when the fallback applies. */
  items: string[];
  empty: boolean;
}

export type ReviewSummary = Record<PersonaField, ReviewEntry>;

const trimmed = (value: unknown) => (typeof value === "string" ? value.trim() : "");
const listOf = (value: unknown) => (Array.isArray(value) ? value.filter((v): v is string => typeof v === "string" && v !== "") : []);

function entry(field: PersonaField, shown: string, fallback: string): ReviewEntry {
  return shown
    ? { label: PERSONA_FIELD_LABELS[field], text: shown, items: [], empty: false }
    : { label: PERSONA_FIELD_LABELS[field], text: fallback, items: [], empty: true };
}

function listEntry(field: PersonaField, items: string[], fallback: string): ReviewEntry {
  return items.length
    ? { label: PERSONA_FIELD_LABELS[field], text: items.join(", "), items, empty: false }
    : { label: PERSONA_FIELD_LABELS[field], text: fallback, items: [], empty: true };
}

function labelled<K extends string>(labels: Record<K, string>, value: unknown): string {
  const raw = trimmed(value);
  return Object.hasOwn(labels, raw) ? labels[raw as K] : raw;
}

export function reviewSummary(values: Partial<Record<PersonaField, unknown>>): ReviewSummary {
  return {
    name: entry("name", trimmed(values.name), reviewFallbacks.notSpecified),
    type: entry("type", labelled<PersonaType>(PERSONA_TYPE_LABELS, values.type), reviewFallbacks.notSpecified),
    gender: entry("gender", labelled<Gender>(GENDER_LABELS, values.gender), reviewFallbacks.notSpecified),
    ageRange: entry("ageRange", trimmed(values.ageRange), reviewFallbacks.notSpecified),
    interests: listEntry(
      "interests",
      listOf(values.interests).map((i) => labelled<Interest>(INTEREST_LABELS, i)),
      reviewFallbacks.interests,
    ),
    description: entry("description", trimmed(values.description), reviewFallbacks.description),
    personality: listEntry("personality", listOf(values.personality), reviewFallbacks.personality),
    backstory: entry("backstory", trimmed(values.backstory), reviewFallbacks.backstory),
  };
}

// ---------------------------------------------------------------------------------------
// The wizard's moves that need no server: Back, Continue, Auto-fill and Auto-select. The
// browser runs them with JavaScript; without it the same functions run in the action.

/** The step on which each field is edited. */
export const FIELD_STEP: Record<PersonaField, StepNumber> = {
  name: 1,
  type: 1,
  gender: 1,
  ageRange: 1,
  interests: 1,
  description: 1,
  personality: 2,
  backstory: 3,
};

/** The fields of one step, in the order they appear. */
export function stepFields(step: StepNumber): PersonaField[] {
  return PERSONA_FIELDS.filter((field) => FIELD_STEP[field] === step);
}

/** The earliest step that shows one of these errors (step 1 when there are none). */
export function firstStepWithError(errors: PersonaFieldErrors | null | undefined): StepNumber {
  const steps = PERSONA_FIELDS.filter((field) => errors?.[field]?.length).map((field) => FIELD_STEP[field]);
  return steps.length ? parseStep(Math.min(...steps)) : FIRST_STEP;
}

const text = (value: unknown) => (typeof value === "string" ? value : "");
const strings = (value: unknown) => (Array.isArray(value) ? value.filter((v): v is string => typeof v === "string" && v !== "") : []);

/** Raw values (form data or a stored persona) as the wizard holds them: every field present, "" when empty. */
export function toFormValues(raw: Partial<Record<PersonaField, unknown>>): PersonaFormValues {
  return {
    name: text(raw.name),
    type: text(raw.type),
    gender: text(raw.gender),
    ageRange: text(raw.ageRange),
    interests: strings(raw.interests),
    description: text(raw.description),
    personality: strings(raw.personality),
    backstory: text(raw.backstory),
  };
}

export const WIZARD_INTENTS = [
  "back",
  "continue",
  "auto-fill",
  "auto-select-traits",
  "generate-backstory",
  "undo-backstory",
  "save-draft",
  "create",
  "save",
] as const;
export type WizardIntent = (typeof WIZARD_INTENTS)[number];
export type LocalWizardIntent = "back" | "continue" | "auto-fill" | "auto-select-traits";
/** The intents that store the persona; the others only move through the form. */
export const STORING_INTENTS: readonly WizardIntent[] = ["save-draft", "create", "save"];

export function parseWizardIntent(value: unknown): WizardIntent | undefined {
  return WIZARD_INTENTS.find((intent) => intent === value);
}

export interface WizardToast {
  type: "success" | "error" | "info";
  title: string;
  description?: string;
}

export interface WizardState {
  step: StepNumber;
  values: PersonaFormValues;
  errors: PersonaFieldErrors | null;
  toast: WizardToast | null;
  /** The creator's own backstory that the last generation replaced: 'Undo' brings it back (docs/product.md, Wizard). */
  previousBackstory?: string | null;
}

/** What the wizard's action answers when it does not redirect. */
export interface WizardAnswer extends WizardState {
  limitReached?: boolean;
}

export const WIZARD_FIX_ERRORS = "Please correct the highlighted fields to continue.";

/** Continue's check of the whole form: where to go and what to show. */
export function continueFrom(step: StepNumber, values: PersonaFormValues): WizardState {
  const result = validatePersona(values, "create");
  if (result.success) return { step: nextStep(step), values, errors: null, toast: null };
  const refusedInterest = result.errors.interests?.includes(PERSONA_MESSAGES.interestsMax);
  return {
    step: firstStepWithError(result.errors),
    values,
    errors: result.errors,
    toast: refusedInterest ? { type: "error", ...MAX_INTERESTS_TOAST } : null,
  };
}

/** Back, Continue, Auto-fill Empty Fields and Auto-select Traits, the same in the browser and the action. */
export function localWizardMove(
  intent: LocalWizardIntent,
  state: { step: StepNumber; values: PersonaFormValues },
  random: Random = Math.random,
): WizardState {
  const { step, values } = state;
  switch (intent) {
    case "back":
      return { step: previousStep(step), values, errors: null, toast: null };
    case "continue":
      return continueFrom(step, values);
    case "auto-fill": {
      const filled = autoFill(values, random);
      return { step, values: filled.values, errors: null, toast: { type: "success", ...autoFillToast(filled.filled) } };
    }
    case "auto-select-traits":
      return { step, values: { ...values, personality: autoSelectTraits(random) }, errors: null, toast: null };
  }
}
