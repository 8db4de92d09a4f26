// /api/personas/{id}/probes/{probeId} (docs/api.md, Persona tests): PATCH changes the fields given
// (the whole probe is checked again, its fact pinned again), DELETE removes the probe. An unknown
// probe is 404 'Probe not found'; another user's persona answers 404 like an unknown one. A probe
// sent back as it was read carries `factExpected`: accepted and ignored (the fact is pinned again).
import type { ActionFunctionArgs } from "@remix-run/node";

import { assertMethod, handleApi, jsonObject, methodNotAllowed, type JsonShape } from "~/services/api.server";
import { deleteProbe, MAX_PROBE_BODY_BYTES, PROBE_BODY, updateProbe } from "~/services/probes.server";
import { requireApiUser, responseHeaders } from "~/services/session.server";

export const loader = methodNotAllowed(["PATCH", "DELETE"]);

/** A probe's fields, and `factExpected` as a probe read back carries it (ignored). */
const PROBE_BODY_READ_BACK = { ...PROBE_BODY, factExpected: "object|null" } as const satisfies JsonShape;

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
    const { factExpected: _pinned, ...body } = await jsonObject(request, PROBE_BODY_READ_BACK, MAX_PROBE_BODY_BYTES);
    const probe = await updateProbe(user, id, probeId, body);
    return Response.json(probe, { headers: responseHeaders(ctx) });
  });
}
