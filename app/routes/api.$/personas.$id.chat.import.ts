// POST /api/personas/{id}/chat/import: a SillyTavern chat file (JSONL, as the body or as the
// `file` field of a multipart form, at most 5 MB) becomes the persona's conversation, which must
// be empty. 201 { imported, messages }.
import type { ActionFunctionArgs } from "@remix-run/node";

import { assertMethod, handleApi, methodNotAllowed } from "~/services/api.server";
import { chatImportBytes } from "~/services/chat-files.server";
import { importChat, listMessages } from "~/services/chat.server";
import { requireApiUser, responseHeaders } from "~/services/session.server";

export async function action({ request, params, context }: ActionFunctionArgs) {
  assertMethod(request, ["POST"]);
  const { user, ctx } = await requireApiUser(request, context);
  return handleApi(ctx, async () => {
    const id = params.id ?? "";
    const imported = await importChat(user, id, await chatImportBytes(request));
    return Response.json({ imported, messages: await listMessages(user, id) }, { status: 201, headers: responseHeaders(ctx) });
  });
}

export const loader = methodNotAllowed(["POST"]);
