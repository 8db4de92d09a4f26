// /api/personas/{id}/probes (docs/api.md, Persona tests): GET the persona's probes in order; POST a
// new probe → 201 with the probe (checked as the page checks it; at most 30; a fact it states is
// pinned to what the persona says now). Another user's persona answers 404.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";

import { assertMethod, handleApi, jsonObject } from "~/services/api.server";
import { addProbe, listProbes, MAX_PROBE_BODY_BYTES, PROBE_BODY } from "~/services/probes.server";
import { requireApiUser, responseHeaders } from "~/services/session.server";

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
    const probe = await addProbe(user, params.id ?? "", await jsonObject(request, PROBE_BODY, MAX_PROBE_BODY_BYTES));
    return Response.json(probe, { status: 201, headers: responseHeaders(ctx) });
  });
}
