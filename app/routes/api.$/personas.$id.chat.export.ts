// GET /api/personas/{id}/chat/export?format=jsonl|md|txt: the conversation as a file
// (SillyTavern's JSONL, Markdown or plain text; jsonl when not said).
import type { LoaderFunctionArgs } from "@remix-run/node";

import { CHAT_FORMATS, isChatFormat } from "~/domain/chat-transfer";
import { ApiError, handleApi, methodNotAllowed } from "~/services/api.server";
import { chatFileResponse } from "~/services/chat-files.server";
import { chatExport } from "~/services/chat.server";
import { requireApiUser } from "~/services/session.server";

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { user, ctx } = await requireApiUser(request, context);
  return handleApi(ctx, async () => {
    const format = new URL(request.url).searchParams.get("format") ?? "jsonl";
    if (!isChatFormat(format)) {
      throw new ApiError(400, `Unknown chat format. Use one of: ${CHAT_FORMATS.join(", ")}.`, { format: ["Invalid format"] });
    }
    return chatFileResponse(ctx, await chatExport(user, params.id ?? "", format));
  });
}

export const action = methodNotAllowed(["GET", "HEAD"]);
