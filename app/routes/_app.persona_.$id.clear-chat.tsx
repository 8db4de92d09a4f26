// /persona/{id}/clear-chat: the confirmation page (what the Clear dialog is without JavaScript)
// and the clearing itself, for both. Back to the Chat tab, reset to the greeting, with the
// 'Chat Cleared' toast (or the failure toast, docs/product.md, Chat).
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";

import { PersonaErrorBoundary } from "~/components/persona-not-found";
import { TrashIcon } from "~/components/ui/icons";
import { CHAT_TEXT, CHAT_TOASTS } from "~/domain/chat";
import { PRODUCT_NAME } from "~/domain/site";
import { redirectWithToast, ServiceError, clearChat, getPersona, orNotFound, requireUser, responseHeaders } from "~/services/index.server";

export const meta: MetaFunction = () => [{ title: `${CHAT_TEXT.clearTitle} · ${PRODUCT_NAME}` }];

const chatTab = (id: string) => `/persona/${id}?tab=chat`;

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { user, ctx } = await requireUser(request, context);
  const persona = await orNotFound(ctx, () => getPersona(user, params.id ?? ""));
  return data({ persona: { id: persona.id, name: persona.name } }, { headers: responseHeaders(ctx) });
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { user, ctx } = await requireUser(request, context);
  const id = params.id ?? "";
  const headers = responseHeaders(ctx);
  try {
    await clearChat(user, id);
    return redirectWithToast(chatTab(id), { type: "success", ...CHAT_TOASTS.cleared }, { headers });
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    if (error.status === 404) throw data(null, { status: 404, headers });
    return redirectWithToast(chatTab(id), { type: "error", ...CHAT_TOASTS.clearFailed }, { headers });
  }
}

export default function ClearChat() {
  const { persona } = useLoaderData<typeof loader>();
  return (
    <section aria-labelledby="clear-title" className="mx-auto max-w-md rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <div className="flex items-start gap-3">
        <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-red-100 text-xl text-red-800">
          <TrashIcon />
        </span>
        <div>
          <h1 id="clear-title" className="text-lg font-semibold text-slate-900">
            {CHAT_TEXT.clearTitle}
          </h1>
          <p className="mt-2 text-slate-700">{CHAT_TEXT.clearText(persona.name)}</p>
        </div>
      </div>
      <Form method="post" className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Link
          to={chatTab(persona.id)}
          className="rounded-lg border border-slate-300 px-4 py-2 text-center font-medium text-slate-800 hover:bg-slate-100"
        >
          {CHAT_TEXT.cancel}
        </Link>
        <button type="submit" className="rounded-lg bg-red-700 px-4 py-2 font-semibold text-white hover:bg-red-800">
          {CHAT_TEXT.clearConfirm}
        </button>
      </Form>
    </section>
  );
}

export const ErrorBoundary = PersonaErrorBoundary;
