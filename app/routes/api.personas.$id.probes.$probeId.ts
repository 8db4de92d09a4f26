// /api/personas/{id}/probes/{probeId} (docs/api.md, Persona tests): PATCH changes the fields given
// (the whole probe is checked again, its fact pinned again), DELETE removes the probe. An unknown
// probe is 404 'Probe not found'; another user's persona answers 404 like an unknown one.
import type { ActionFunctionArgs } from "@remix-run/node";

import { assertMethod, handleApi, jsonObject, methodNotAllowed } from "~/services/api.server";
import { deleteProbe, MAX_PROBE_BODY_BYTES, PROBE_BODY, updateProbe } from "~/services/probes.server";
import { requireApiUser, responseHeaders } from "~/services/session.server";

export const loader = methodNotAllowed(["PATCH", "DELETE"]);

export async function action({ request, params, context }: ActionFunctionArgs) {
  assertMethod(request, ["PATCH", "DELETE"]);
  const { user, ctx } = await requireApiUser(request, context);
  const id = params.id ?? "";
  const probeId = params.probeId ?? "";
  return handleApi(ctx, async () => {
    if (request.method.toUpperCase() === "DELETE") {
      await deleteProbe(user, id, probeId);
      return Response.json({ message: "The probe has been deleted." }, { headers: responseHeaders(ctx) });
    }
    const probe = await updateProbe(user, id, probeId, await jsonObject(request, PROBE_BODY, MAX_PROBE_BODY_BYTES));
    return Response.json(probe, { headers: responseHeaders(ctx) });
  });
}
