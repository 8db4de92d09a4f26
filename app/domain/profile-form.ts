// The Extended Persona Profile's fields as zod schemas (docs/product.md, Extended Persona Profile),
// for conform, the profile service and the JSON API: each field checked with its own message. A
// form sends a list one item per line; the API sends it as a JSON array of text. Apart from
// ./profile-edit.ts so pages that only show the profile ship no zod.
import * as z from "zod";

import type { ExtendedProfileField } from "./extended-profile";
import { formName, PROFILE_LIMITS, PROFILE_MESSAGES, type ProfileSection } from "./profile-edit";

// Tabs and line breaks are text; other control characters and bidirectional overrides are not.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\u2028\u2029\u202A-\u202E\u2066-\u2069]/u;
const length = (text: string) => [...text].length;
const clean = (text: string) => text.replace(/\s+/g, " ").trim();

/** Where the values come from: a form (lists one item per line) or a JSON body (lists as arrays). */
export type ProfileSource = "form" | "json";

/** A section's checked values, by field. */
export type SectionValues = Partial<Record<ExtendedProfileField, string | string[]>>;

const text = z.union([z.string({ error: PROFILE_MESSAGES.type }), z.null()], { error: PROFILE_MESSAGES.type }).optional();

function listItems(label: string, source: ProfileSource) {
  if (source === "form") return text.transform((value) => (value ?? "").split(/\r?\n/));
  const message = PROFILE_MESSAGES.list(label);
  // The item count is checked before the items are, so 1,000 items answer with the count's message.
  return z
    .union([z.array(z.unknown(), { error: message }), z.null()], { error: message })
    .optional()
    .superRefine((items, ctx) => {
      if (items && items.length > PROFILE_LIMITS.listItemsMax)
        ctx.addIssue({ code: "custom", message: PROFILE_MESSAGES.listItemsMax(label) });
      else if (items?.some((item) => typeof item !== "string")) ctx.addIssue({ code: "custom", message });
    })
    .transform((items) => (items ?? []) as string[]);
}

function fieldSchema(label: string, list: boolean, source: ProfileSource) {
  if (!list) {
    return text
      .transform((value) => clean(value ?? ""))
      .superRefine((value, ctx) => {
        if (length(value) > PROFILE_LIMITS.textMax) ctx.addIssue({ code: "custom", message: PROFILE_MESSAGES.textMax(label) });
        else if (CONTROL.test(value)) ctx.addIssue({ code: "custom", message: PROFILE_MESSAGES.characters });
      });
  }
  return listItems(label, source)
    .transform((items) => items.map(clean).filter((item) => item !== ""))
    .superRefine((items, ctx) => {
      if (items.length > PROFILE_LIMITS.listItemsMax) ctx.addIssue({ code: "custom", message: PROFILE_MESSAGES.listItemsMax(label) });
      else if (items.some((item) => length(item) > PROFILE_LIMITS.listItemMax)) {
        ctx.addIssue({ code: "custom", message: PROFILE_MESSAGES.listItemMax(label) });
      } else if (items.some((item) => CONTROL.test(item))) ctx.addIssue({ code: "custom", message: PROFILE_MESSAGES.characters });
    });
}

/** The form of one section: a field per fact (named by formName), lists one item per line. */
export function sectionSchema(section: ProfileSection) {
  return z.object(Object.fromEntries(section.fields.map((f) => [formName(f.key), fieldSchema(f.label, f.list, "form")])));
}

/** A section as the JSON API sends it: fields by their key ('socialCircle.family'), lists as arrays; each may be left out. */
export function sectionJsonSchema(section: ProfileSection) {
  return z.object(Object.fromEntries(section.fields.map((f) => [f.key, fieldSchema(f.label, f.list, "json")])));
}

/** A form's checked values by field: every field of the section, an empty one as '' or []. */
export function formSectionValues(section: ProfileSection, value: Record<string, unknown>): SectionValues {
  return Object.fromEntries(section.fields.map((f) => [f.key, value[formName(f.key)] as string | string[]]));
}
