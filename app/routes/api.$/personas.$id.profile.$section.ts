// /api/personas/{id}/profile/{section} (docs/api.md, Personas): PATCH saves one section of the
// Extended Persona Profile, the persona's fact sheet, with the fields given (lists as arrays of
// text); the answer says whether anything changed. Another user's persona answers 404 like an
// unknown one.
import type { ActionFunctionArgs } from "@remix-run/node";

import { readJson } from "~/infra/web/http.server";
import { assertMethod, handleApi, methodNotAllowed } from "~/services/api.server";
import { saveProfileSectionJson } from "~/services/persona-profile.server";
import { personaExtended } from "~/services/personas.server";
import { requireApiUser, responseHeaders } from "~/services/session.server";

export const loader = methodNotAllowed(["PATCH"]);

export async function action({ request, params, context }: ActionFunctionArgs) {
  assertMethod(request, ["PATCH"]);
  const { user, ctx } = await requireApiUser(request, context);
  return handleApi(ctx, async () => {
    const body = await readJson(request);
    const { persona, changed } = await saveProfileSectionJson(user, params.id ?? "", params.section ?? "", body);
    return Response.json({ changed, extended: personaExtended(persona) }, { headers: responseHeaders(ctx) });
  });
}
