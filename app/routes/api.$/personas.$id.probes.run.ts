// /api/personas/{id}/probes/run (docs/api.md, Persona tests): POST (empty body) → 202 { runId }: a
// run of the persona's current version, off the request (poll /api/personas/{id}/probes/runs/{runId}).
// A run of that version already under way is the answer instead. One point of the creator's
// test-run quota (429 with Retry-After past it); 409 without probes or for a draft.
import type { ActionFunctionArgs } from "@remix-run/node";

import { assertMethod, emptyBody, handleApi, methodNotAllowed } from "~/services/api.server";
import { startRun } from "~/services/probes.server";
import { requireApiUser, responseHeaders } from "~/services/session.server";

export const loader = methodNotAllowed(["POST"]);

export async function action({ request, params, context }: ActionFunctionArgs) {
  assertMethod(request, ["POST"]);
  const { user, ctx } = await requireApiUser(request, context);
  return handleApi(ctx, async () => {
    await emptyBody(request);
    const { runId } = await startRun(user, params.id ?? "");
    return Response.json({ runId }, { status: 202, headers: responseHeaders(ctx) });
  });
}
