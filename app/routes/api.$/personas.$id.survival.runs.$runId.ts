// GET /api/personas/{id}/survival/runs/{runId} (docs/api.md, Card check): one run of the persona's
// tests in each front end — its version, model, status, the counts here and per front end, what
// each front end's prompt lacks and each probe's verdict. An unknown run is 404 'Run not found';
// another creator's persona answers 404 like an unknown one.
import type { LoaderFunctionArgs } from "@remix-run/node";

import { handleApi, methodNotAllowed } from "~/services/api.server";
import { getCardTargetRun } from "~/services/card-target-runs.server";
import { requireApiUser, responseHeaders } from "~/services/session.server";

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { user, ctx } = await requireApiUser(request, context);
  return handleApi(ctx, async () => {
    const run = await getCardTargetRun(user, params.id ?? "", params.runId ?? "");
    return Response.json(run, { headers: responseHeaders(ctx, { "Cache-Control": "private, no-store" }) });
  });
}

export const action = methodNotAllowed(["GET"]);
