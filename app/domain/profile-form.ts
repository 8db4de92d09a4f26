// The form of one section of the Extended Persona Profile (docs/product.md, Extended Persona Profile)
// as a zod schema, for conform and the profile service: each field checked with its own message,
// lists one item per line. Apart from ./profile-edit.ts so pages that only show the profile ship
// no zod.
import * as z from "zod";

import { formName, PROFILE_LIMITS, PROFILE_MESSAGES, type ProfileSection } from "./profile-edit";

// Tabs and line breaks are text; other control characters and bidirectional overrides are not.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\u2028\u2029\u202A-\u202E\u2066-\u2069]/u;
const length = (text: string) => [...text].length;
const clean = (text: string) => text.replace(/\s+/g, " ").trim();

function fieldSchema(label: string, list: boolean) {
  const raw = z.union([z.string({ error: PROFILE_MESSAGES.type }), z.null()], { error: PROFILE_MESSAGES.type }).optional();
  if (!list) {
    return raw
      .transform((value) => clean(value ?? ""))
      .superRefine((value, ctx) => {
        if (length(value) > PROFILE_LIMITS.textMax) ctx.addIssue({ code: "custom", message: PROFILE_MESSAGES.textMax(label) });
        else if (CONTROL.test(value)) ctx.addIssue({ code: "custom", message: PROFILE_MESSAGES.characters });
      });
  }
  return raw
    .transform((value) =>
      (value ?? "")
        .split(/\r?\n/)
        .map(clean)
        .filter((item) => item !== ""),
    )
    .superRefine((items, ctx) => {
      if (items.length > PROFILE_LIMITS.listItemsMax) ctx.addIssue({ code: "custom", message: PROFILE_MESSAGES.listItemsMax(label) });
      if (items.some((item) => length(item) > PROFILE_LIMITS.listItemMax)) {
        ctx.addIssue({ code: "custom", message: PROFILE_MESSAGES.listItemMax(label) });
      } else if (items.some((item) => CONTROL.test(item))) ctx.addIssue({ code: "custom", message: PROFILE_MESSAGES.characters });
    });
}

/** The form of one section: a field per fact, lists one item per line. */
export function sectionSchema(section: ProfileSection) {
  return z.object(Object.fromEntries(section.fields.map((f) => [formName(f.key), fieldSchema(f.label, f.list)])));
}
