// /api/personas/{id}/survival/run (docs/api.md, Card check): POST (empty body) → 202 { runId }: the
// persona's tests run as each front end would see its card, off the request (poll
// /api/personas/{id}/survival or /api/personas/{id}/survival/runs/{runId}). A run of that version
// already under way is the answer instead. One point of the creator's test-run quota (429 with
// Retry-After past it); 409 without enabled probes or for a draft; another creator's persona 404.
import type { ActionFunctionArgs } from "@remix-run/node";

import { assertMethod, emptyBody, handleApi, methodNotAllowed } from "~/services/api.server";
import { startCardTargetRun } from "~/services/card-target-runs.server";
import { requireApiUser, responseHeaders } from "~/services/session.server";

export const loader = methodNotAllowed(["POST"]);

export async function action({ request, params, context }: ActionFunctionArgs) {
  assertMethod(request, ["POST"]);
  const { user, ctx } = await requireApiUser(request, context);
  return handleApi(ctx, async () => {
    await emptyBody(request);
    const { runId } = await startCardTargetRun(user, params.id ?? "");
    return Response.json({ runId }, { status: 202, headers: responseHeaders(ctx) });
  });
}
