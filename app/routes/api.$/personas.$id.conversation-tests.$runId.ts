// /api/personas/{id}/conversation-tests/{runId} (docs/api.md, Persona tests: long conversations):
// GET one long-conversation test: { runId, version, model, status, turns, seed, checkpoints,
// firstFailure, transcript, error, createdAt, finishedAt }. Another creator's persona or run 404.
import type { LoaderFunctionArgs } from "@remix-run/node";

import { handleApi, methodNotAllowed } from "~/services/api.server";
import { getConversationTest } from "~/services/conversation-tests.server";
import { requireApiUser, responseHeaders } from "~/services/session.server";

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { user, ctx } = await requireApiUser(request, context);
  return handleApi(ctx, async () => {
    const { done: _done, ...run } = await getConversationTest(user, params.id ?? "", params.runId ?? "");
    return Response.json(run, { headers: responseHeaders(ctx, { "Cache-Control": "private, no-store" }) });
  });
}

export const action = methodNotAllowed(["GET"]);
