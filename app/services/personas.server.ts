// Personas: creation, drafts, reading one, plan usage and backstory generation. The
// wizard's actions and the JSON API call these same functions; every query runs through
// the RLS door as the user, and the Free plan's limit is enforced by the database itself
// (migration persona_limit), so no race can create an 11th persona.
import { createHash } from "node:crypto";

import { and, count, eq, sql } from "drizzle-orm";

import { isStaleDescription } from "~/domain/autofill";
import { isPremium } from "~/domain/account";
import { FREE_PLAN_PERSONA_LIMIT, type GenerationKind } from "~/domain/persona";
import {
  canGenerateBackstory,
  MISSING_INFORMATION,
  PERSONA_MESSAGES,
  validatePersona,
  WIZARD_TOASTS,
  type DraftInput,
  type PersonaInput,
} from "~/domain/persona-form";
import { exportedLorebook } from "~/domain/card-lorebook";
import { CARD_MESSAGES, parseCardMeta, parseExtendedProfile, withCardGuidance } from "~/domain/character-card";
import { extendedProfile, type ExtendedProfile } from "~/domain/extended-profile";
import { fieldErrorsOf } from "~/domain/form-rules";
import { parseVoice, voiceSchema, VOICE_TOASTS, type PersonaVoice } from "~/domain/persona-voice";
import type { ImageGenerationState } from "~/domain/images";
import { LIMIT_DIALOG } from "~/domain/plan-limit";
import { AiError, generatorsInUse, textGenerator } from "~/infra/ai/ai.server";
import type { BackstoryFacts } from "~/infra/ai/types";
import { generations, imageJobs, personas, profiles, type ImageJob, type Persona } from "~/infra/db/schema.server";
import { withUser } from "~/infra/db/db.server";
import { KEPT_READS, keptOrRead } from "~/infra/db/kept-reads.server";

import { type CurrentUser } from "./accounts.server";
import type { JsonShape } from "./api.server";
import { withGenerationQuota } from "./generation-quotas.server";
import { jobState } from "./image-job-state.server";
import { noteImageJobWatched, queueNotification } from "./notifications.server";
import { ServiceError } from "./service-error.server";

/** A persona that cannot be created, read, saved or generated. */
export class PersonaError extends ServiceError {
  override name = "PersonaError";
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(id: string): boolean {
  return UUID.test(id);
}

export const PERSONA_NOT_FOUND = "Persona Not Found";

/**
 * How large a persona body may be. Far above any valid persona (a 20,000-character backstory
 * is at most 80 KB of UTF-8, three times that form-encoded), so that an oversized field still
 * gets its own message ('Backstory must be 20,000 characters or less') rather than a bare 413.
 */
export const MAX_PERSONA_BODY_BYTES = 2 * 1024 * 1024;

/** The fields a persona body may carry (the creation form; docs/product.md, Personas), with their JSON types. */
export const PERSONA_BODY = {
  name: { type: "string", message: PERSONA_MESSAGES.nameMin },
  type: { type: "string|null", message: PERSONA_MESSAGES.type },
  gender: { type: "string|null", message: PERSONA_MESSAGES.gender },
  ageRange: { type: "string|null", message: PERSONA_MESSAGES.ageRange },
  interests: { type: "string[]|null", message: PERSONA_MESSAGES.interestInvalid },
  description: "string|null",
  personality: { type: "string[]|null", message: PERSONA_MESSAGES.traitInvalid },
  backstory: "string|null",
  voice: "object|null",
} as const satisfies JsonShape;

/**
 * What backstory generation reads: the persona's fields without the backstory, and the persona
 * being edited or continued, whose fact sheet the story then tells.
 */
export const BACKSTORY_BODY = {
  ...(({ backstory: _, voice: _v, ...fields }) => fields)(PERSONA_BODY),
  personaId: "string|null",
} as const satisfies JsonShape;

function isLimitError(error: unknown): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if (String((e as { message?: unknown }).message ?? "").includes(LIMIT_DIALOG.title)) return true;
  }
  return false;
}

function limitReached(): PersonaError {
  return new PersonaError(403, LIMIT_DIALOG.text, undefined, "persona_limit_reached");
}

/** The CHECK constraint on personas a write broke (PGlite says `constraint`, postgres.js `constraint_name`), or null. */
function brokenPersonaCheck(error: unknown): string | null {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    const { code, constraint, constraint_name } = e as { code?: unknown; constraint?: unknown; constraint_name?: unknown };
    const name = constraint ?? constraint_name;
    if (code === "23514" && typeof name === "string" && name.startsWith("personas_")) return name;
  }
  return null;
}

/**
 * A write the database refused for a value its checks do not allow: a readable 4xx, never a
 * 500. The services validate first, so this is a safety net (an imported card's data that
 * is larger than the column takes is a 413).
 */
function refusedByCheck(constraint: string): PersonaError {
  if (constraint === "personas_card_meta_valid") return new PersonaError(413, CARD_MESSAGES.tooLarge, undefined, "card_too_large");
  if (constraint === "personas_extended_valid") return new PersonaError(413, CARD_MESSAGES.profileTooLarge, undefined, "card_too_large");
  return new PersonaError(400, "This persona could not be saved: one of its values is not allowed.", undefined, "invalid_persona");
}

/**
 * What the wizard offers on the Free plan. The count of personas owned is kept until the
 * creator's personas change (KEPT_READS.ownedCounts); the limit itself is the database's
 * (persona_limit).
 */
export async function usage(user: CurrentUser): Promise<{ subscriptionStatus: string; canCreateMore: boolean }> {
  if (isPremium(user.subscriptionStatus)) return { subscriptionStatus: user.subscriptionStatus, canCreateMore: true };
  const owned = await keptOrRead(KEPT_READS.ownedCounts, [user.id], async () => {
    const [row] = await withUser(user.id, (tx) =>
      // RLS limits the count to the user's own personas.
      tx.select({ owned: count() }).from(personas),
    );
    return row?.owned ?? 0;
  });
  return { subscriptionStatus: user.subscriptionStatus, canCreateMore: owned < FREE_PLAN_PERSONA_LIMIT };
}

/**
 * Inserts one of the user's personas (the database records it as version 1). `imported` tells
 * the history trigger the persona came from a character card.
 */
export async function insertPersona(user: CurrentUser, values: typeof personas.$inferInsert, origin?: "imported"): Promise<Persona> {
  try {
    const [row] = await withUser(
      user.id,
      async (tx) => {
        if (origin) await tx.execute(sql`select set_config('personaforge.version_kind', ${origin}, true)`);
        return tx.insert(personas).values(values).returning();
      },
      { email: user.email },
    );
    return row;
  } catch (error) {
    if (isLimitError(error)) throw limitReached();
    const check = brokenPersonaCheck(error);
    if (check) throw refusedByCheck(check);
    throw error;
  }
}

/**
 * The fact sheet a new persona starts with (docs/product.md, Fact sheet): the Extended Persona
 * Profile its basic info gives, drawn from its name, as the wizard's backstory drew it. Stored, so
 * that later edits of the basic info never change what its texts already state.
 */
export function startingSheet(input: Pick<DraftInput, "name" | "type" | "ageRange" | "interests" | "personality">) {
  return extendedProfile({
    id: null,
    name: input.name,
    type: input.type,
    ageRange: input.ageRange,
    interests: input.interests,
    personality: input.personality,
  }) as unknown as Record<string, unknown>;
}

function createValues(input: PersonaInput) {
  return {
    name: input.name,
    type: input.type,
    gender: input.gender,
    ageRange: input.ageRange,
    interests: input.interests,
    description: input.description,
    personality: input.personality ?? [],
    backstory: input.backstory || null,
    extended: startingSheet(input),
    status: "active" as const,
  };
}

function draftValues(input: DraftInput) {
  return {
    name: input.name,
    type: input.type ?? null,
    gender: input.gender ?? null,
    ageRange: input.ageRange ?? null,
    interests: input.interests ?? [],
    description: input.description || null,
    personality: input.personality ?? [],
    backstory: input.backstory || null,
    extended: startingSheet(input),
    status: "in_progress" as const,
  };
}

function validCreate(raw: unknown): PersonaInput {
  const result = validatePersona(raw, "create");
  if (!result.success) throw new PersonaError(400, WIZARD_TOASTS.createFailed.description, result.errors);
  return result.data;
}

function validDraft(raw: unknown): DraftInput {
  const result = validatePersona(raw, "draft");
  if (!result.success) throw new PersonaError(400, WIZARD_TOASTS.draftFailed.description, result.errors);
  return result.data;
}

/**
 * The voice a JSON body carries (docs/product.md, Voice), checked like the voice page: absent
 * leaves it as it is, null clears it. A refused field is a 400 naming it ('voice.greeting'),
 * before anything is written.
 */
export function voiceFromBody(raw: unknown): { voice?: Record<string, unknown> } {
  const given = raw && typeof raw === "object" ? (raw as { voice?: unknown }).voice : undefined;
  if (given === undefined) return {};
  if (given === null) return { voice: {} };
  const result = voiceSchema.safeParse(given);
  if (!result.success) {
    const errors = fieldErrorsOf(result.error.issues, (field) => `voice.${String(field ?? "")}`);
    throw new PersonaError(400, Object.values(errors)[0]![0]!, errors);
  }
  return { voice: result.data as unknown as Record<string, unknown> };
}

/** 'Create Persona': every field valid; stored as active. */
export async function createPersona(user: CurrentUser, raw: unknown): Promise<Persona> {
  const persona = await insertPersona(user, { userId: user.id, ...createValues(validCreate(raw)), ...voiceFromBody(raw) });
  // docs/product.md, Settings: 'Persona creation' sends it in the digest.
  await queueNotification(user, persona.id, "persona_created");
  return persona;
}

/** 'Save Draft': only a valid name is required; stored as in_progress. */
export async function saveDraft(user: CurrentUser, raw: unknown): Promise<Persona> {
  return insertPersona(user, { userId: user.id, ...draftValues(validDraft(raw)), ...voiceFromBody(raw) });
}

export const NOT_A_DRAFT = "This persona has already been created, so it can no longer be changed as a draft.";

/**
 * Writes the wizard's values over one of the user's drafts (status in_progress). Nothing
 * else is touched: id, created date, image and chat stay. Another user's id, an unknown one
 * and a persona that is no draft any more are refused without a write.
 */
async function updateDraftRecord(user: CurrentUser, id: string, values: ReturnType<typeof draftValues> | ReturnType<typeof createValues>) {
  if (!UUID.test(id)) throw new PersonaError(404, PERSONA_NOT_FOUND);
  const [row] = await withUser(
    user.id,
    (tx) =>
      tx
        .update(personas)
        // A draft imported from a character card keeps the card's profile (docs/product.md, Fact sheet).
        .set({
          ...values,
          extended: sql`case when ${personas.cardMeta} is null then ${JSON.stringify(values.extended)}::jsonb else ${personas.extended} end`,
        })
        .where(and(eq(personas.id, id), eq(personas.status, "in_progress")))
        .returning(),
    { email: user.email },
  );
  if (row) return row;
  // Nothing updated: say whether the persona is missing (or someone else's) or no draft.
  await getPersona(user, id);
  throw new PersonaError(409, NOT_A_DRAFT, undefined, "not_a_draft");
}

/** 'Save Draft' on a draft reopened with 'Continue Creating': the same record, still in_progress. */
export async function updateDraft(user: CurrentUser, id: string, raw: unknown): Promise<Persona> {
  return updateDraftRecord(user, id, draftValues(validDraft(raw)));
}

/** 'Create Persona' on a reopened draft: everything validated, and that same record becomes active. */
export async function completeDraft(user: CurrentUser, id: string, raw: unknown): Promise<Persona> {
  const persona = await updateDraftRecord(user, id, createValues(validCreate(raw)));
  await queueNotification(user, persona.id, "persona_created");
  return persona;
}

/** One of the user's personas; another user's id or an unknown one is the same 404. */
export async function getPersona(user: CurrentUser, id: string): Promise<Persona> {
  if (!UUID.test(id)) throw new PersonaError(404, PERSONA_NOT_FOUND);
  const [row] = await withUser(user.id, (tx) =>
    // No owner filter on purpose: the policies hide other users' personas.
    tx.select().from(personas).where(eq(personas.id, id)),
  );
  if (!row) throw new PersonaError(404, PERSONA_NOT_FOUND);
  return row;
}

/**
 * The persona (404 as getPersona: unknown, malformed or another user's id) and its image job
 * as stored, read in one statement.
 */
async function personaAndJob(user: CurrentUser, id: string): Promise<{ persona: Persona; job: ImageJob | null }> {
  if (!isUuid(id)) throw new PersonaError(404, PERSONA_NOT_FOUND);
  const [row] = await withUser(user.id, (tx) =>
    // No owner filter on purpose: the policies hide other users' personas and jobs.
    tx
      .select({ persona: personas, job: imageJobs })
      .from(personas)
      .leftJoin(imageJobs, eq(imageJobs.personaId, personas.id))
      .where(eq(personas.id, id)),
  );
  if (!row) throw new PersonaError(404, PERSONA_NOT_FOUND);
  return row;
}

/**
 * The persona and where its image generation stands: what GET /api/personas/{id} answers
 * (polled while images are generated).
 */
export async function personaWithImageState(
  user: CurrentUser,
  id: string,
): Promise<{ persona: Persona; imageGeneration: ImageGenerationState }> {
  const { persona, job } = await personaAndJob(user, id);
  const imageGeneration = jobState(job ?? undefined);
  // The page polls this while images are generated: the creator is watching (notifications.server.ts).
  if (imageGeneration.status === "generating") noteImageJobWatched(persona.id);
  return { persona, imageGeneration };
}

/**
 * A persona as its page shows it: everything but what an imported card carried (up to megabytes),
 * and whether it came from a card (a draft of one is finished in its own short step).
 */
export type PagePersona = Omit<Persona, "cardMeta"> & { fromCard: boolean };

/**
 * The persona page's persona (without the card's data) and where its image generation stands;
 * 404 as getPersona. Kept until the creator's personas or image jobs change
 * (KEPT_READS.personaPages); the job is kept as stored, and whether it still runs is worked out
 * on every request.
 */
export async function personaPageState(
  user: CurrentUser,
  id: string,
): Promise<{ persona: PagePersona; imageGeneration: ImageGenerationState }> {
  const { persona, job } = await keptOrRead(KEPT_READS.personaPages, [user.id, id], async () => {
    const {
      persona: { cardMeta, ...shown },
      job,
    } = await personaAndJob(user, id);
    // A persona imported before lorebooks were read shows its card's book as its lore.
    const lore = cardMeta
      ? (exportedLorebook(shown.lore, parseCardMeta(cardMeta)?.character_book) as unknown as Record<string, unknown>)
      : shown.lore;
    return { persona: { ...shown, lore, fromCard: cardMeta !== null }, job };
  });
  const imageGeneration = jobState(job ?? undefined);
  // Without JavaScript the page reloads itself while images are generated: the creator is watching.
  if (imageGeneration.status === "generating") noteImageJobWatched(persona.id);
  return { persona, imageGeneration };
}

/**
 * A backstory written from the persona's fields (name, type, gender and a trait required).
 * Counts against the creator's hourly quota (429 beyond it); a request refused for missing
 * fields does not.
 */
export async function generateBackstory(user: CurrentUser, raw: unknown, personaId?: string | null): Promise<{ backstory: string }> {
  const id = personaId ?? (raw && typeof raw === "object" ? (raw as { personaId?: unknown }).personaId : null);
  // The persona being edited or continued: its story tells its own fact sheet (404 if it is not the creator's).
  const existing = typeof id === "string" && id !== "" ? await getPersona(user, id) : null;
  const values = await withGenerationQuota("backstories", user, async () => {
    const result = validatePersona(raw, "draft");
    const valid = result.success ? result.data : undefined;
    if (!valid || !canGenerateBackstory(valid) || !valid.type || !valid.gender) {
      throw new PersonaError(400, MISSING_INFORMATION.description, result.success ? undefined : result.errors, "missing_information");
    }
    return { ...valid, type: valid.type, gender: valid.gender };
  });
  try {
    const backstory = await textGenerator().generateBackstory({
      name: values.name,
      type: values.type,
      gender: values.gender,
      ageRange: values.ageRange ?? null,
      interests: values.interests ?? [],
      personality: values.personality ?? [],
      // A description written for another name or other interests is left out, not quoted.
      description: values.description && !isStaleDescription(values.description, values) ? values.description : null,
      facts: factsOf(existing ? personaExtended(existing) : (startingSheet(values) as unknown as ExtendedProfile)),
    });
    await recordGeneration(user, "backstory", { text: backstory, model: generatorsInUse().backstory.model });
    // docs/product.md, Settings: a backstory for a saved persona goes in the digest ('Narrative generation').
    if (existing) await queueNotification(user, existing.id, "backstory_generated");
    return { backstory };
  } catch (error) {
    if (error instanceof AiError) {
      console.error(`[ai] backstory for ${user.id} failed: ${error.code}: ${error.message}`);
      throw new PersonaError(502, WIZARD_TOASTS.backstoryFailed.description, undefined, `ai_${error.code}`);
    }
    throw error;
  }
}

/**
 * One more AI generation for the dashboard's 'Generated Content'. A generated text is kept as its
 * digest and the model that wrote it (null: the built-in generator), so an export can say a
 * backstory kept as written was generated (docs/product.md, AI disclosure).
 */
export async function recordGeneration(
  user: CurrentUser,
  kind: GenerationKind,
  output?: { text: string; model: string | null },
): Promise<void> {
  const written = output ? { outputDigest: generatedTextDigest(output.text), model: output.model || null } : {};
  await withUser(user.id, (tx) => tx.insert(generations).values({ userId: user.id, kind, ...written }));
}

/** The digest a generated text is known by: md5 of the text with line breaks as \n, trimmed (a form sends \r\n). */
export function generatedTextDigest(text: string): Uint8Array {
  return createHash("md5").update(text.replace(/\r\n?/g, "\n").trim()).digest();
}

/** How many personas the user has ever created (profiles.personas_created, kept by the database). */
export async function personasCreated(user: CurrentUser): Promise<number> {
  const [row] = await withUser(user.id, (tx) =>
    tx.select({ created: profiles.personasCreated }).from(profiles).where(eq(profiles.id, user.id)),
  );
  return row?.created ?? 0;
}

/** The fact sheet's facts a backstory tells (docs/product.md, Fact sheet). */
function factsOf(profile: ExtendedProfile): BackstoryFacts {
  return {
    birthplace: profile.birthplace,
    currentResidence: profile.currentResidence,
    occupation: profile.occupation,
    education: profile.education,
    family: profile.socialCircle.family,
    birthYear: profile.birthYear,
  };
}

/**
 * The persona's fact sheet, the Extended Persona Profile (docs/product.md, Fact sheet): the one
 * stored with it (from its creation, an import or the creator's edits), or for a persona stored
 * before sheets were, the one its basic info gives.
 */
export function personaExtended(
  persona: Pick<Persona, "id" | "name" | "type" | "ageRange" | "interests" | "personality"> & { extended?: unknown },
): ExtendedProfile {
  return (
    parseExtendedProfile(persona.extended) ??
    extendedProfile({
      id: persona.id,
      name: persona.name,
      type: persona.type,
      ageRange: persona.ageRange,
      interests: persona.interests,
      personality: persona.personality,
    })
  );
}

/**
 * The persona's voice (docs/product.md, Voice); a persona without one has every field empty. A
 * persona imported from a card before the voice held guidance reads it from the card's data.
 */
export function personaVoice(persona: { voice?: unknown; cardMeta?: unknown }): PersonaVoice {
  const voice = parseVoice(persona.voice);
  // The card's data (up to 2 MB) is read only for a voice stored before it held guidance.
  const beforeGuidance = !!persona.voice && typeof persona.voice === "object" && !Object.hasOwn(persona.voice, "systemPrompt");
  return persona.cardMeta && beforeGuidance ? withCardGuidance(voice, persona.voice, parseCardMeta(persona.cardMeta)) : voice;
}

/**
 * Saves the persona's voice (docs/product.md, Voice): every field validated, nothing stored when
 * one is refused. The change is a version in history. Another creator's persona, an unknown or a
 * malformed id is 'Persona Not Found'.
 */
export async function updateVoice(user: CurrentUser, id: string, raw: unknown): Promise<Persona> {
  if (!UUID.test(id)) throw new PersonaError(404, PERSONA_NOT_FOUND);
  const result = voiceSchema.safeParse(raw && typeof raw === "object" ? raw : {});
  if (!result.success) {
    const errors = fieldErrorsOf(result.error.issues, (field) => String(field ?? "voice"));
    throw new PersonaError(400, VOICE_TOASTS.failed.description, errors);
  }
  const [row] = await withUser(user.id, (tx) =>
    tx
      .update(personas)
      .set({ voice: result.data as unknown as Record<string, unknown> })
      .where(eq(personas.id, id))
      .returning(),
  );
  if (!row) throw new PersonaError(404, PERSONA_NOT_FOUND);
  return row;
}
