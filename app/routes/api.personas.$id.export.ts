// GET /api/personas/{id}/export?format=txt|json|md|yaml|card-json|card-png|image: the Download
// menu's files, with file names per SPEC §9 in Content-Disposition. Links, so they work
// without JavaScript; the session cookie or a Bearer token says whose persona it is.
import type { LoaderFunctionArgs } from "@remix-run/node";

import { NO_IMAGE_TOAST } from "~/domain/export-formats";
import { AccountError } from "~/services/accounts.server";
import { handleApi } from "~/services/api.server";
import { downloadHeaders, EXPORT_FORMAT_LIST, exportFile, isAnyExportFormat } from "~/services/persona-export.server";
import { getPersona } from "~/services/personas.server";
import { requireApiUser, responseHeaders } from "~/services/session.server";

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { user, ctx } = await requireApiUser(request, context);
  const format = new URL(request.url).searchParams.get("format");
  const id = params.id ?? "";
  return handleApi(ctx, async () => {
    if (format === "image") {
      const persona = await getPersona(user, id);
      if (!persona.imageUrl) throw new AccountError(404, NO_IMAGE_TOAST.description, undefined, "no_image");
      // The reference image is downloaded from where it is stored (SPEC §7).
      return new Response(null, { status: 302, headers: responseHeaders(ctx, { Location: persona.imageUrl, "Cache-Control": "private, no-store" }) });
    }
    if (!isAnyExportFormat(format)) {
      throw new AccountError(400, `Unknown export format. Use one of: ${[...EXPORT_FORMAT_LIST, "image"].join(", ")}.`, {
        format: ["Invalid format"],
      });
    }
    const file = await exportFile(user, id, format);
    return new Response(file.body as BodyInit, { headers: responseHeaders(ctx, downloadHeaders(file)) });
  });
}
