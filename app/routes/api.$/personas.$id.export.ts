// GET /api/personas/{id}/export?format=txt|json|md|yaml|card-json|card-png|image: the Download
// menu's files, with file names per docs/product.md (Exports and character cards) in Content-Disposition. Links, so they work
// without JavaScript; the session cookie or a Bearer token says whose persona it is.
import type { LoaderFunctionArgs } from "@remix-run/node";

import { AccountError } from "~/services/accounts.server";
import { handleApi, methodNotAllowed } from "~/services/api.server";
import { downloadHeaders, EXPORT_FORMAT_LIST, exportFile, imageFileName, isAnyExportFormat } from "~/services/persona-export.server";
import { referenceImageJpeg } from "~/services/images.server";
import { requireApiUser, responseHeaders } from "~/services/session.server";

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { user, ctx } = await requireApiUser(request, context);
  const format = new URL(request.url).searchParams.get("format");
  const id = params.id ?? "";
  return handleApi(ctx, async () => {
    if (format === "image") {
      // The reference image as a JPEG file named {Name_With_Underscores}_image.jpg (docs/product.md, Exports and character cards).
      const { persona, bytes } = await referenceImageJpeg(user, id);
      const file = { filename: imageFileName(persona.name), contentType: "image/jpeg", body: bytes };
      return new Response(bytes as BodyInit, { headers: responseHeaders(ctx, downloadHeaders(file)) });
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

export const action = methodNotAllowed(["GET"]);
