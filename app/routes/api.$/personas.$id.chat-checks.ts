// GET /api/personas/{id}/chat-checks: what the reply checks found in the creator's conversation
// with the persona (docs/product.md, Chat: checks on your chats): per version, the replies checked
// and flagged; the flagged replies, newest first, with the checks that flagged them.
import type { LoaderFunctionArgs } from "@remix-run/node";

import { handleApi, methodNotAllowed } from "~/services/api.server";
import { chatChecks } from "~/services/chat-checks.server";
import { requireApiUser, responseHeaders } from "~/services/session.server";

export async function loader({ params, request, context }: LoaderFunctionArgs) {
  const { user, ctx } = await requireApiUser(request, context);
  return handleApi(ctx, async () =>
    Response.json(await chatChecks(user, params.id ?? ""), { headers: responseHeaders(ctx, { "Cache-Control": "private, no-store" }) }),
  );
}

export const action = methodNotAllowed(["GET", "HEAD"]);
