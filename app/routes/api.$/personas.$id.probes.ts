// /api/personas/{id}/probes (docs/api.md, Persona tests): GET the persona's probes in order; POST a
// new probe → 201 with the probe (checked as the page checks it; at most 30; a fact it states is
// pinned to what the persona says now). Another user's persona answers 404. A suggestion posted
// back as it came carries `factExpected`: accepted and ignored (the server pins the fact itself).
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";

import { assertMethod, handleApi, jsonObject, type JsonShape } from "~/services/api.server";
import { addProbe, listProbes, MAX_PROBE_BODY_BYTES, PROBE_BODY } from "~/services/probes.server";
import { requireApiUser, responseHeaders } from "~/services/session.server";

/** A probe's fields, and `factExpected` as a suggestion or a probe read back carries it (ignored). */
const PROBE_BODY_READ_BACK = { ...PROBE_BODY, factExpected: "object|null" } as const satisfies JsonShape;

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { user, ctx } = await requireApiUser(request, context);
  return handleApi(ctx, async () => {
    const probes = await listProbes(user, params.id ?? "");
    return Response.json({ probes }, { headers: responseHeaders(ctx, { "Cache-Control": "private, no-store" }) });
  });
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  assertMethod(request, ["GET", "POST"]);
  const { user, ctx } = await requireApiUser(request, context);
  return handleApi(ctx, async () => {
    const { factExpected: _pinned, ...body } = await jsonObject(request, PROBE_BODY_READ_BACK, MAX_PROBE_BODY_BYTES);
    const probe = await addProbe(user, params.id ?? "", body);
    return Response.json(probe, { status: 201, headers: responseHeaders(ctx) });
  });
}
