// A conversation as a file, over the web (docs/product.md, Chat: export and import): the
// download's response, the pages' loaders (/persona/{id}/chat.txt, .jsonl, .md), and the bytes
// of an import, from a form's `file` field or as the request's body.
import type { LoaderFunctionArgs } from "@remix-run/node";

import { CHAT_IMPORT_LIMITS, CHAT_IMPORT_MESSAGES, type ChatFormat } from "~/domain/chat-transfer";
import { readFormData, readLimitedBody } from "~/infra/web/http.server";

import type { RequestContext } from "./accounts.server";
import { chatExport, ChatError } from "./chat.server";
import { downloadHeaders } from "./persona-export.server";
import { orNotFound, requireUser, responseHeaders } from "./session.server";

type ChatFileAnswer = Awaited<ReturnType<typeof chatExport>>;

export function chatFileResponse(ctx: RequestContext, file: ChatFileAnswer): Response {
  const headers = responseHeaders(ctx, downloadHeaders({ filename: file.filename, contentType: file.contentType, body: file.text }));
  return new Response(file.text, { headers });
}

/** A page that downloads the conversation in one format; another creator's persona is a 404. */
export function chatFileLoader(format: ChatFormat) {
  return async ({ request, params, context }: LoaderFunctionArgs) => {
    const { user, ctx } = await requireUser(request, context);
    const file = await orNotFound(ctx, () => chatExport(user, params.id ?? "", format));
    return chatFileResponse(ctx, file);
  };
}

/** The chat file of an import: a multipart form's `file`, or the body itself (JSONL as text). */
export async function chatImportBytes(request: Request): Promise<Uint8Array> {
  const type = (request.headers.get("content-type") ?? "").toLowerCase();
  if (type.startsWith("multipart/form-data")) {
    const form = await readFormData(request, CHAT_IMPORT_LIMITS.bytes + 64 * 1024);
    const file = form.get("file");
    if (!(file instanceof File) || file.size === 0)
      throw new ChatError(400, CHAT_IMPORT_MESSAGES.empty, { file: [CHAT_IMPORT_MESSAGES.empty] });
    return new Uint8Array(await file.arrayBuffer());
  }
  return readLimitedBody(request, CHAT_IMPORT_LIMITS.bytes);
}
