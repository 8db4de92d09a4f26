// /api/personas/{id}/probes/suggest (docs/api.md, Persona tests): POST (empty body) → { probes }
// written from the persona's facts, voice, traits and lorebook. Nothing is stored: post the ones to
// keep to /api/personas/{id}/probes. Another user's persona answers 404.
import type { ActionFunctionArgs } from "@remix-run/node";

import { assertMethod, emptyBody, handleApi, methodNotAllowed } from "~/services/api.server";
import { suggestPersonaProbes } from "~/services/probes.server";
import { requireApiUser, responseHeaders } from "~/services/session.server";

export const loader = methodNotAllowed(["POST"]);

export async function action({ request, params, context }: ActionFunctionArgs) {
  assertMethod(request, ["POST"]);
  const { user, ctx } = await requireApiUser(request, context);
  return handleApi(ctx, async () => {
    await emptyBody(request);
    const probes = await suggestPersonaProbes(user, params.id ?? "");
    return Response.json({ probes }, { headers: responseHeaders(ctx, { "Cache-Control": "private, no-store" }) });
  });
}
