// POST /api/personas/{id}/finish-import: { type, gender, ageRange, interests } for a draft imported
// from a character card (docs/product.md, Exports and character cards): checked like 'Create
// Persona', and the draft becomes active with its card's texts, voice and profile untouched.
// 200 with the persona; 400 with field errors; 404 for an unknown or another creator's persona;
// 409 `not_a_draft` when it is no imported draft.
import type { ActionFunctionArgs } from "@remix-run/node";

import { assertMethod, handleApi, jsonObject, methodNotAllowed } from "~/services/api.server";
import { finishImport } from "~/services/persona-export.server";
import { requireApiUser, responseHeaders } from "~/services/session.server";

export async function action({ request, params, context }: ActionFunctionArgs) {
  assertMethod(request, ["POST"]);
  const { user, ctx } = await requireApiUser(request, context);
  return handleApi(ctx, async () => {
    const body = await jsonObject(request, { type: "string", gender: "string", ageRange: "string", interests: "string[]" });
    return Response.json(await finishImport(user, params.id ?? "", body), { headers: responseHeaders(ctx) });
  });
}

export const loader = methodNotAllowed(["POST"]);
