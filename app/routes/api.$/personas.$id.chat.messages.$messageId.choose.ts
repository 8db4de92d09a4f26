// POST /api/personas/{id}/chat/messages/{messageId}/choose: { "index": n } shows the last reply's
// alternative n (from 0), the one the conversation continues from. 200 with the message.
import type { ActionFunctionArgs } from "@remix-run/node";

import { assertMethod, handleApi, jsonObject, methodNotAllowed } from "~/services/api.server";
import { chooseAlternative } from "~/services/chat.server";
import { requireApiUser, responseHeaders } from "~/services/session.server";

export async function action({ request, params, context }: ActionFunctionArgs) {
  assertMethod(request, ["POST"]);
  const { user, ctx } = await requireApiUser(request, context);
  return handleApi(ctx, async () => {
    const { index } = await jsonObject(request, { index: "number" });
    const message = await chooseAlternative(user, params.id ?? "", params.messageId ?? "", index);
    return Response.json({ message }, { headers: responseHeaders(ctx, { "Cache-Control": "private, no-store" }) });
  });
}

export const loader = methodNotAllowed(["POST"]);
