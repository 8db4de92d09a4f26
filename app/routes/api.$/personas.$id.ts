// /api/personas/{id}: GET one of the user's personas (with `imageGeneration`, where reference
// image generation stands), PATCH edits it in place (the wizard's
// fields, validated like creation), DELETE removes it with its chat history. Anyone else's
// id answers 404 like an unknown one.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";

import { assertMethod, handleApi, jsonObject } from "~/services/api.server";
import { deletePersona, updatePersona } from "~/services/persona-library.server";
import { MAX_PERSONA_BODY_BYTES, PERSONA_BODY, personaVoice, personaWithImageState } from "~/services/personas.server";
import { requireApiUser, responseHeaders } from "~/services/session.server";

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { user, ctx } = await requireApiUser(request, context);
  return handleApi(ctx, async () => {
    // With where reference image generation stands: what the page polls while it runs.
    const { persona, imageGeneration } = await personaWithImageState(user, params.id ?? "");
    // The lorebook has calls of its own (/api/personas/{id}/lorebook).
    const { lore: _lore, ...fields } = persona;
    return Response.json(
      { ...fields, voice: personaVoice(persona), imageGeneration },
      { headers: responseHeaders(ctx, { "Cache-Control": "private, no-store" }) },
    );
  });
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  assertMethod(request, ["GET", "PATCH", "DELETE"]);
  const { user, ctx } = await requireApiUser(request, context);
  const id = params.id ?? "";
  return handleApi(ctx, async () => {
    if (request.method.toUpperCase() === "DELETE") {
      await deletePersona(user, id);
      return Response.json({ message: "The persona has been successfully deleted." }, { headers: responseHeaders(ctx) });
    }
    const { lore: _lore, ...persona } = await updatePersona(user, id, await jsonObject(request, PERSONA_BODY, MAX_PERSONA_BODY_BYTES));
    return Response.json({ ...persona, voice: personaVoice(persona) }, { headers: responseHeaders(ctx) });
  });
}
