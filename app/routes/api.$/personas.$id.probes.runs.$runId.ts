// /api/personas/{id}/probes/runs/{runId} (docs/api.md, Persona tests): GET one run — its version,
// model, status, counts and every probe's replies and failed checks. What the page polls while a
// run is under way. An unknown run is 404 'Test run not found'; another user's persona answers 404.
import type { LoaderFunctionArgs } from "@remix-run/node";

import { handleApi, methodNotAllowed } from "~/services/api.server";
import { getRun } from "~/services/probes.server";
import { requireApiUser, responseHeaders } from "~/services/session.server";

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { user, ctx } = await requireApiUser(request, context);
  return handleApi(ctx, async () => {
    const run = await getRun(user, params.id ?? "", params.runId ?? "");
    return Response.json(run, { headers: responseHeaders(ctx, { "Cache-Control": "private, no-store" }) });
  });
}

export const action = methodNotAllowed(["GET"]);
