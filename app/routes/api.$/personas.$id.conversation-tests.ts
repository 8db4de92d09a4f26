// /api/personas/{id}/conversation-tests (docs/api.md, Persona tests: long conversations): POST
// `{ turns?, seed? }` (or no body: 24 turns, a seed drawn) → 202 { runId }: an interrogator plays a
// long conversation with the persona's current version off the request (poll
// /api/personas/{id}/conversation-tests/{runId}). A run of that version already queued or under way
// is the answer instead. One point of the creator's test-run quota (429 with Retry-After past it);
// 409 for a draft; another creator's persona 404.
import type { ActionFunctionArgs } from "@remix-run/node";

import { assertMethod, handleApi, methodNotAllowed, optionalJsonObject } from "~/services/api.server";
import { CONVERSATION_TEST_BODY, startConversationTest } from "~/services/conversation-tests.server";
import { requireApiUser, responseHeaders } from "~/services/session.server";

export const loader = methodNotAllowed(["POST"]);

export async function action({ request, params, context }: ActionFunctionArgs) {
  assertMethod(request, ["POST"]);
  const { user, ctx } = await requireApiUser(request, context);
  return handleApi(ctx, async () => {
    const body = await optionalJsonObject(request, CONVERSATION_TEST_BODY, 1024);
    const { runId } = await startConversationTest(user, params.id ?? "", body);
    return Response.json({ runId }, { status: 202, headers: responseHeaders(ctx) });
  });
}
