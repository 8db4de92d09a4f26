// The Extended Persona Profile as the creator edits it (docs/product.md, Extended Persona Profile
// and Fact sheet): a section saved, or a section (or all) drawn anew. Each change is stored as the
// persona's fact sheet, which makes it a version in history, and later generation tells it.
import { eq } from "drizzle-orm";

import {
  editedSections,
  PROFILE_MESSAGES,
  PROFILE_SECTIONS,
  PROFILE_TOASTS,
  profileSection,
  regenerateSections,
  sameFacts,
  withSection,
  type ProfileSection,
  type ProfileSectionKey,
} from "~/domain/profile-edit";
import { sectionJsonSchema, type SectionValues } from "~/domain/profile-form";
import type { ExtendedProfile } from "~/domain/extended-profile";
import { fieldErrorsOf } from "~/domain/form-rules";
import { withUser } from "~/infra/db/db.server";
import { personas, type Persona } from "~/infra/db/schema.server";

import { type CurrentUser } from "./accounts.server";
import { isUuid, PERSONA_NOT_FOUND, personaExtended } from "./personas.server";
import { ServiceError } from "./service-error.server";

/** A profile section that cannot be read, saved or generated. */
export class ProfileError extends ServiceError {
  override name = "ProfileError";
}

type Tx = Parameters<Parameters<typeof withUser>[1]>[0];

async function lockedPersona(tx: Tx, id: string): Promise<Persona> {
  // No owner filter on purpose: the policies hide other users' personas.
  const [row] = await tx.select().from(personas).where(eq(personas.id, id)).for("update");
  if (!row) throw new ProfileError(404, PERSONA_NOT_FOUND);
  return row;
}

function stored(profile: ExtendedProfile, edited: readonly ProfileSectionKey[]) {
  return { ...profile, edited: [...new Set(edited)] } as unknown as Record<string, unknown>;
}

/** A section's save: the persona as it now stands, and whether anything it states changed. */
export interface SectionSave {
  persona: Persona;
  changed: boolean;
}

/**
 * Saves one section of the profile from checked values (profile-form.ts); a field not given stays.
 * A save that states what the section already stated writes nothing: no version, no test run.
 */
export async function saveProfileSection(
  user: CurrentUser,
  id: string,
  section: ProfileSection,
  values: SectionValues,
): Promise<SectionSave> {
  if (!isUuid(id)) throw new ProfileError(404, PERSONA_NOT_FOUND);
  return withUser(user.id, async (tx) => {
    const persona = await lockedPersona(tx, id);
    const before = personaExtended(persona);
    const profile = withSection(before, section, values);
    if (sameFacts(before, profile)) return { persona, changed: false };
    const [row] = await tx
      .update(personas)
      .set({ extended: stored(profile, [...editedSections(persona.extended), section.key]) })
      .where(eq(personas.id, id))
      .returning();
    return { persona: row!, changed: true };
  });
}

/**
 * A section sent as JSON (docs/api.md, PATCH /api/personas/{id}/profile/{section}): fields by their
 * key, lists as arrays of text, each field optional. Unknown fields and wrong types are 400s naming
 * the field with its message, and nothing is stored.
 */
export async function saveProfileSectionJson(user: CurrentUser, id: string, sectionKey: string, body: unknown): Promise<SectionSave> {
  if (!isUuid(id)) throw new ProfileError(404, PERSONA_NOT_FOUND);
  const section = profileSection(sectionKey);
  if (!section) throw new ProfileError(404, PROFILE_MESSAGES.noSection);
  if (body === null || typeof body !== "object" || Array.isArray(body)) throw new ProfileError(400, "The body must be a JSON object.");
  const unknown = Object.keys(body).filter((key) => !section.fields.some((f) => f.key === key));
  if (unknown.length) {
    throw new ProfileError(
      400,
      `Unknown field${unknown.length > 1 ? "s" : ""} for ${section.title}: ${unknown.slice(0, 5).join(", ")}`,
      Object.fromEntries(unknown.slice(0, 5).map((key) => [key, ["Unknown field"]])),
    );
  }
  const result = sectionJsonSchema(section).safeParse(body);
  if (!result.success) {
    throw new ProfileError(
      400,
      PROFILE_TOASTS.failed.description,
      fieldErrorsOf(result.error.issues, (field) => String(field ?? "profile")),
    );
  }
  const given = Object.keys(body);
  const values = Object.fromEntries(Object.entries(result.data).filter(([key]) => given.includes(key))) as SectionValues;
  return saveProfileSection(user, id, section, values);
}

export type Regeneration =
  | { status: "confirm" }
  | {
      status: "done";
      persona: Persona;
      /** The regenerated facts are ones the persona's backstory already tells. */
      backstoryBehind: boolean;
    };

/**
 * Draws a section (or the whole profile) anew. A part the creator edited is replaced only when
 * `confirmed`; otherwise nothing changes and the answer asks to confirm.
 */
export async function regenerateProfile(
  user: CurrentUser,
  id: string,
  which: ProfileSection | "all",
  { confirmed, draw = Math.floor(Math.random() * 2 ** 31) }: { confirmed: boolean; draw?: number },
): Promise<Regeneration> {
  if (!isUuid(id)) throw new ProfileError(404, PERSONA_NOT_FOUND);
  const sections = which === "all" ? PROFILE_SECTIONS : [which];
  return withUser(user.id, async (tx) => {
    const persona = await lockedPersona(tx, id);
    const edited = editedSections(persona.extended);
    if (!confirmed && sections.some((section) => edited.includes(section.key))) return { status: "confirm" as const };
    const before = personaExtended(persona);
    const profile = regenerateSections(before, persona, sections, draw);
    const [row] = await tx
      .update(personas)
      .set({
        extended: stored(
          profile,
          edited.filter((key) => !sections.some((section) => section.key === key)),
        ),
      })
      .where(eq(personas.id, id))
      .returning();
    const told = (p: ExtendedProfile) => [p.birthplace, p.currentResidence, p.occupation, p.education, p.socialCircle.family].join("\n");
    return { status: "done" as const, persona: row!, backstoryBehind: !!persona.backstory && told(before) !== told(profile) };
  });
}
