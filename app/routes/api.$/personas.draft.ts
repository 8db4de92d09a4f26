// POST /api/personas/draft: save the wizard's values as a draft (in_progress); only a valid name is required.
import type { ActionFunctionArgs } from "@remix-run/node";

import { assertMethod, handleApi, jsonObject, methodNotAllowed } from "~/services/api.server";
import { MAX_PERSONA_BODY_BYTES, PERSONA_BODY, saveDraft } from "~/services/personas.server";
import { requireApiUser, responseHeaders } from "~/services/session.server";

export async function action({ request, context }: ActionFunctionArgs) {
  assertMethod(request, ["POST"]);
  const { user, ctx } = await requireApiUser(request, context);
  return handleApi(ctx, async () => {
    const persona = await saveDraft(user, await jsonObject(request, PERSONA_BODY, MAX_PERSONA_BODY_BYTES));
    return Response.json(persona, { status: 201, headers: responseHeaders(ctx) });
  });
}

export const loader = methodNotAllowed(["POST"]);
