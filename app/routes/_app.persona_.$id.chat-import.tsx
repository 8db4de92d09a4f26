// /persona/{id}/chat-import: the Chat tab's 'Import chat' form posts here (a multipart form with
// the file), with and without JavaScript: back to the Chat tab with 'Chat Imported' and how many
// messages came in, or 'Chat Not Imported' with the reason (docs/product.md, Chat: export and
// import). A GET lands on the Chat tab.
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";

import { PersonaErrorBoundary } from "~/components/persona-not-found";
import { CHAT_IMPORT_MESSAGES, CHAT_IMPORT_TEXT } from "~/domain/chat-transfer";
import { chatImportBytes, importChat, redirectWithToast, requireUser, responseHeaders, ServiceError } from "~/services/index.server";

const chatTab = (id: string) => `/persona/${id}?tab=chat`;

export async function loader({ params }: LoaderFunctionArgs) {
  return redirect(chatTab(params.id ?? ""));
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { user, ctx } = await requireUser(request, context);
  const id = params.id ?? "";
  const headers = responseHeaders(ctx);
  try {
    const count = await importChat(user, id, await chatImportBytes(request));
    return redirectWithToast(chatTab(id), { type: "success", ...CHAT_IMPORT_TEXT.imported(count) }, { headers });
  } catch (error) {
    const refused = await refusal(error);
    if (!refused) throw error;
    if (refused.status === 404) throw data(null, { status: 404, headers });
    return redirectWithToast(
      chatTab(id),
      { type: "error", title: CHAT_IMPORT_TEXT.failed.title, description: refused.message },
      { headers },
    );
  }
}

/** A refusal the creator can act on: the service's, or the request's own (a file past the limit). */
async function refusal(error: unknown): Promise<{ status: number; message: string } | null> {
  if (error instanceof ServiceError) return { status: error.status, message: error.message };
  if (error instanceof Response && error.status >= 400 && error.status < 500) {
    if (error.status === 413) return { status: 413, message: CHAT_IMPORT_MESSAGES.tooLarge };
    const body = (await error.json().catch(() => null)) as { message?: unknown } | null;
    return { status: error.status, message: typeof body?.message === "string" ? body.message : CHAT_IMPORT_MESSAGES.empty };
  }
  return null;
}

export const ErrorBoundary = PersonaErrorBoundary;
