// POST /api/generate-backstory: { backstory } written from name, type, gender, age range, interests and traits.
import type { ActionFunctionArgs } from "@remix-run/node";

import { assertMethod, handleApi, jsonObject, methodNotAllowed } from "~/services/api.server";
import { BACKSTORY_BODY, generateBackstory, MAX_PERSONA_BODY_BYTES } from "~/services/personas.server";
import { requireApiUser, responseHeaders } from "~/services/session.server";

export async function action({ request, context }: ActionFunctionArgs) {
  assertMethod(request, ["POST"]);
  const { user, ctx } = await requireApiUser(request, context);
  return handleApi(ctx, async () => {
    const body = await jsonObject(request, BACKSTORY_BODY, MAX_PERSONA_BODY_BYTES);
    return Response.json(await generateBackstory(user, body), { headers: responseHeaders(ctx) });
  });
}

export const loader = methodNotAllowed(["POST"]);
