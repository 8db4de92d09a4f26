// /persona/{id}/history/{n}/restore (docs/product.md, History): the confirmation page (what the Restore dialog
// is without JavaScript) and the restore itself. The persona's fields become version n's as a
// new version; back to the history with a toast. A refusal (already the current version, a
// rule the version breaks) comes back as an error toast; nothing changes.
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";

import { exactTime, HistoryErrorBoundary, RestoreImageChoice } from "~/components/persona-history";
import { RestoreIcon } from "~/components/ui/icons";
import { HISTORY_MESSAGES, HISTORY_TEXT, HISTORY_TOASTS, parseVersionNumber } from "~/domain/persona-history";
import { PRODUCT_NAME } from "~/domain/site";
import {
  readFormData,
  redirectWithToast,
  ServiceError,
  currentVersion,
  getVersion,
  orHistoryNotFound,
  restoreVersion,
  requireUser,
  responseHeaders,
} from "~/services/index.server";
import { Button } from "~/components/ui/button";

export const meta: MetaFunction<typeof loader> = ({ data: loaderData }) => [
  { title: `${loaderData ? HISTORY_TEXT.restoreTitle(loaderData.version.version) : "Not Found"} · ${PRODUCT_NAME}` },
];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { user, ctx } = await requireUser(request, context);
  const headers = responseHeaders(ctx);
  const id = params.id ?? "";
  const version = await orHistoryNotFound(headers, id, () => getVersion(user, id, parseVersionNumber(params.n)));
  const latest = await currentVersion(user, id);
  return data(
    {
      personaId: id,
      version: { version: version.version, name: version.name, label: version.label, createdAt: version.createdAt },
      isCurrent: latest?.version === version.version,
    },
    { headers },
  );
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { user, ctx } = await requireUser(request, context);
  const headers = responseHeaders(ctx);
  const id = params.id ?? "";
  const back = `/persona/${id}/history`;
  try {
    const formData = await readFormData(request);
    const withImage = formData.get("withImage") === "on";
    const restored = await orHistoryNotFound(headers, id, () => restoreVersion(user, id, parseVersionNumber(params.n), { withImage }));
    return redirectWithToast(back, { type: "success", ...HISTORY_TOASTS.restored(restored.restoredFrom, restored.version) }, { headers });
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    return redirectWithToast(back, { type: "error", title: HISTORY_TOASTS.restoreFailed.title, description: error.message }, { headers });
  }
}

export default function RestoreVersion() {
  const { personaId, version, isCurrent } = useLoaderData<typeof loader>();
  const back = `/persona/${personaId}/history`;
  return (
    <section aria-labelledby="restore-title" className="mx-auto max-w-md rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <div className="flex items-start gap-3">
        <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-brand-50 text-xl text-brand-900">
          <RestoreIcon />
        </span>
        <div>
          <h1 id="restore-title" className="text-lg font-semibold text-slate-900">
            {HISTORY_TEXT.restoreTitle(version.version)}
          </h1>
          <p className="mt-1 text-sm text-slate-700">
            {version.name} · {version.label} · {exactTime(version.createdAt)}
          </p>
          <p className="mt-2 text-slate-700">{isCurrent ? HISTORY_MESSAGES.alreadyCurrent : HISTORY_TEXT.restoreText(version.version)}</p>
        </div>
      </div>
      {isCurrent ? (
        <div className="mt-6 flex justify-end">
          <Link
            to={back}
            className="rounded-lg border border-slate-300 px-4 py-2 text-center font-medium text-slate-800 hover:bg-slate-100"
          >
            Back to the history
          </Link>
        </div>
      ) : (
        <Form method="post" className="mt-6">
          <RestoreImageChoice version={version.version} />
          <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <Link
              to={back}
              className="rounded-lg border border-slate-300 px-4 py-2 text-center font-medium text-slate-800 hover:bg-slate-100"
            >
              {HISTORY_TEXT.cancel}
            </Link>
            <Button type="submit" size="base">
              {HISTORY_TEXT.restoreConfirm}
            </Button>
          </div>
        </Form>
      )}
    </section>
  );
}

export const ErrorBoundary = HistoryErrorBoundary;
