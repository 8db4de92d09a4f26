// /persona/{id}/delete: the confirmation page (what the delete dialog is without JavaScript)
// and the deletion itself. The persona goes with its chat history; the creator goes back to
// where they were (never to the deleted persona's page) with the 'Persona deleted' toast.
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";

import { DELETE_TEXT } from "~/components/persona-card";
import { PersonaErrorBoundary } from "~/components/persona-not-found";
import { TrashIcon } from "~/components/ui/icons";
import { ARCHIVE_TOASTS } from "~/domain/persona-list";
import { safeRedirect } from "~/domain/redirect";
import { PRODUCT_NAME } from "~/domain/site";
import {
  readFormData,
  redirectWithToast,
  ServiceError,
  deletePersona,
  getPersona,
  orNotFound,
  requireUser,
  responseHeaders,
} from "~/services/index.server";

/** Back to the list or dashboard, never to the page of the persona being deleted. */
function returnPath(value: FormDataEntryValue | string | null, id: string): string {
  const to = safeRedirect(value, "/my-personas");
  return to.toLowerCase().startsWith(`/persona/${id.toLowerCase()}`) ? "/my-personas" : to;
}

export const meta: MetaFunction<typeof loader> = ({ data: loaderData }) => [
  { title: `${loaderData ? DELETE_TEXT.title(loaderData.persona.name) : "Persona Not Found"} · ${PRODUCT_NAME}` },
];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { user, ctx } = await requireUser(request, context);
  const id = params.id ?? "";
  const persona = await orNotFound(ctx, () => getPersona(user, id));
  const back = returnPath(new URL(request.url).searchParams.get("redirectTo"), id);
  return data({ persona: { id: persona.id, name: persona.name }, back }, { headers: responseHeaders(ctx) });
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { user, ctx } = await requireUser(request, context);
  const formData = await readFormData(request);
  const id = params.id ?? "";
  const back = returnPath(formData.get("redirectTo"), id);
  try {
    await deletePersona(user, id);
    return redirectWithToast(back, { type: "success", ...ARCHIVE_TOASTS.deleted }, { headers: responseHeaders(ctx) });
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    return redirectWithToast(back, { type: "error", ...ARCHIVE_TOASTS.deleteFailed }, { headers: responseHeaders(ctx) });
  }
}

export default function DeletePersona() {
  const { persona, back } = useLoaderData<typeof loader>();
  return (
    <section aria-labelledby="delete-title" className="mx-auto max-w-md rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <div className="flex items-start gap-3">
        <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-red-100 text-xl text-red-800">
          <TrashIcon />
        </span>
        <div>
          <h1 id="delete-title" className="text-lg font-semibold text-slate-900">
            {DELETE_TEXT.title(persona.name)}
          </h1>
          <p className="mt-2 text-slate-700">{DELETE_TEXT.text}</p>
        </div>
      </div>
      <Form method="post" className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <input type="hidden" name="redirectTo" value={back} />
        <Link to={back} className="rounded-lg border border-slate-300 px-4 py-2 text-center font-medium text-slate-800 hover:bg-slate-100">
          {DELETE_TEXT.cancel}
        </Link>
        <button type="submit" className="rounded-lg bg-red-700 px-4 py-2 font-semibold text-white hover:bg-red-800">
          {DELETE_TEXT.confirm}
        </button>
      </Form>
    </section>
  );
}

export const ErrorBoundary = PersonaErrorBoundary;
