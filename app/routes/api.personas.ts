// POST /api/personas: create a persona from the wizard's values (201 with the persona).
import type { ActionFunctionArgs } from "@remix-run/node";

import { assertMethod, handleApi, jsonObject, methodNotAllowedLoader } from "~/services/api.server";
import { createPersona, MAX_PERSONA_BODY_BYTES, PERSONA_BODY_FIELDS } from "~/services/personas.server";
import { requireApiUser, responseHeaders } from "~/services/session.server";

export async function action({ request, context }: ActionFunctionArgs) {
  assertMethod(request, ["POST"]);
  const { user, ctx } = await requireApiUser(request, context);
  return handleApi(ctx, async () => {
    const persona = await createPersona(user, await jsonObject(request, PERSONA_BODY_FIELDS, MAX_PERSONA_BODY_BYTES));
    return Response.json(persona, { status: 201, headers: responseHeaders(ctx) });
  });
}

export const loader = methodNotAllowedLoader(["POST"]);
