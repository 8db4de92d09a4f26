// /api/personas/{id}/chat (docs/product.md, Chat): GET the conversation oldest first, POST { message } for
// the persona's reply (JSON, or server-sent events with Accept: text/event-stream), DELETE
// clears it. Another user's persona answers 404 like an unknown one.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";

import { CHAT_MESSAGES, CHAT_TOASTS } from "~/domain/chat";
import { assertMethod, handleApi, jsonObject } from "~/services/api.server";
import { replyResponse } from "~/services/chat-response.server";
import { clearChat, listMessages, prepareReply } from "~/services/chat.server";
import { requireApiUser, responseHeaders } from "~/services/session.server";

const ALLOWED = ["GET", "POST", "DELETE"];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { user, ctx } = await requireApiUser(request, context);
  return handleApi(ctx, async () =>
    Response.json(await listMessages(user, params.id ?? ""), { headers: responseHeaders(ctx, { "Cache-Control": "private, no-store" }) }),
  );
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  assertMethod(request, ALLOWED);
  const { user, ctx } = await requireApiUser(request, context);
  const id = params.id ?? "";
  return handleApi(ctx, async () => {
    if (request.method.toUpperCase() === "DELETE") {
      await clearChat(user, id);
      return Response.json({ message: CHAT_TOASTS.cleared.description }, { headers: responseHeaders(ctx) });
    }
    const { message } = await jsonObject(request, { message: { type: "string|null", message: CHAT_MESSAGES.notText } });
    const prepared = await prepareReply(user, id, { message });
    if (prepared.duplicate) throw new Error("An API send has no form key.");
    return replyResponse(request, prepared, responseHeaders(ctx, { "Cache-Control": "private, no-store" }));
  });
}
