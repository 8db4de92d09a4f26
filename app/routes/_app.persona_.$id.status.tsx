// POST /persona/{id}/status: Archive and Restore from the cards and the persona page, as
// plain form posts (no JavaScript needed). Back to where the creator was, with a toast.
import type { ActionFunctionArgs } from "@remix-run/node";

import { ARCHIVE_TOASTS } from "~/domain/persona-list";
import { safeRedirect } from "~/domain/redirect";
import {
  httpError,
  readFormData,
  redirectWithToast,
  ServiceError,
  archivePersona,
  restorePersona,
  requireUser,
  responseHeaders,
} from "~/services/index.server";

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { user, ctx } = await requireUser(request, context);
  const formData = await readFormData(request);
  const intent = formData.get("intent");
  if (intent !== "archive" && intent !== "restore") return httpError(400, "Unknown status change.");
  const back = safeRedirect(formData.get("redirectTo"), "/my-personas");
  const headers = responseHeaders(ctx);
  try {
    if (intent === "archive") await archivePersona(user, params.id ?? "");
    else await restorePersona(user, params.id ?? "");
    const toast = intent === "archive" ? ARCHIVE_TOASTS.archived : ARCHIVE_TOASTS.restored;
    return redirectWithToast(back, { type: "success", ...toast }, { headers });
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    const failed = intent === "archive" ? ARCHIVE_TOASTS.archiveFailed : ARCHIVE_TOASTS.restoreFailed;
    // Not found, or already in that state: say so where the creator was.
    return redirectWithToast(
      back,
      { type: "error", title: failed.title, description: error.status === 404 ? error.message : failed.description },
      { headers },
    );
  }
}

export function loader() {
  throw new Response("Not Found", { status: 404 });
}
