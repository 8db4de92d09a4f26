// POST /api/personas/{id}/chat/regenerate: the last reply written again (the old one is
// replaced), answered like POST /api/personas/{id}/chat (JSON, or server-sent events). No body,
// or an empty JSON object.
import type { ActionFunctionArgs } from "@remix-run/node";

import { assertMethod, handleApi, jsonObject, methodNotAllowed } from "~/services/api.server";
import { replyResponse } from "~/services/chat-response.server";
import { prepareReply } from "~/services/chat.server";
import { requireApiUser, responseHeaders } from "~/services/session.server";

export async function action({ request, params, context }: ActionFunctionArgs) {
  assertMethod(request, ["POST"]);
  const { user, ctx } = await requireApiUser(request, context);
  return handleApi(ctx, async () => {
    if (request.headers.get("content-type") || Number(request.headers.get("content-length") ?? "0") > 0) {
      await jsonObject(request, {});
    }
    const prepared = await prepareReply(user, params.id ?? "", { regenerate: true });
    if (prepared.duplicate) throw new Error("A regenerate has no form key.");
    return replyResponse(request, prepared, responseHeaders(ctx, { "Cache-Control": "private, no-store" }));
  });
}

export const loader = methodNotAllowed(["POST"]);
