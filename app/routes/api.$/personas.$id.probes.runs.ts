// /api/personas/{id}/probes/runs (docs/api.md, Persona tests): GET the persona's latest 20 runs,
// newest first, each with its results. Another user's persona answers 404.
import type { LoaderFunctionArgs } from "@remix-run/node";

import { handleApi, methodNotAllowed } from "~/services/api.server";
import { listRuns } from "~/services/probes.server";
import { requireApiUser, responseHeaders } from "~/services/session.server";

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { user, ctx } = await requireApiUser(request, context);
  return handleApi(ctx, async () => {
    const runs = await listRuns(user, params.id ?? "");
    return Response.json({ runs }, { headers: responseHeaders(ctx, { "Cache-Control": "private, no-store" }) });
  });
}

export const action = methodNotAllowed(["GET"]);
