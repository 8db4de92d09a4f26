// GET /api/personas/{id}/export?format=txt|json|md|yaml|card-json|card-png|charx|image[&target=…]: the Download
// menu's files, with file names per docs/product.md (Exports and character cards) in Content-Disposition. Links, so they work
// without JavaScript; the session cookie or a Bearer token says whose persona it is. `target` makes a
// card for one front end (docs/cards.md, Exports for a front end): sillytavern, risuai, chub,
// agnai, janitorai, or any (the default).
import type { LoaderFunctionArgs } from "@remix-run/node";

import { ApiError } from "~/services/api.server";
import { handleApi, methodNotAllowed } from "~/services/api.server";
import {
  downloadHeaders,
  EXPORT_FORMAT_LIST,
  EXPORT_TARGET_MESSAGES,
  exportFile,
  imageFileName,
  isAnyExportFormat,
  isExportTarget,
} from "~/services/persona-export.server";
import { referenceImageJpeg } from "~/services/images.server";
import { requireApiUser, responseHeaders } from "~/services/session.server";

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { user, ctx } = await requireApiUser(request, context);
  const url = new URL(request.url);
  const format = url.searchParams.get("format");
  const target = url.searchParams.get("target") ?? "any";
  const id = params.id ?? "";
  return handleApi(ctx, async () => {
    if (format === "image") {
      // The reference image as a JPEG file named {Name_With_Underscores}_image.jpg (docs/product.md, Exports and character cards).
      const { persona, bytes } = await referenceImageJpeg(user, id);
      const file = { filename: imageFileName(persona.name), contentType: "image/jpeg", body: bytes };
      return new Response(bytes as BodyInit, { headers: responseHeaders(ctx, downloadHeaders(file)) });
    }
    if (!isAnyExportFormat(format)) {
      throw new ApiError(400, `Unknown export format. Use one of: ${[...EXPORT_FORMAT_LIST, "image"].join(", ")}.`, {
        format: ["Invalid format"],
      });
    }
    if (!isExportTarget(target)) throw new ApiError(400, EXPORT_TARGET_MESSAGES.unknown, { target: ["Invalid target"] });
    const file = await exportFile(user, id, format, target);
    return new Response(file.body as BodyInit, { headers: responseHeaders(ctx, downloadHeaders(file)) });
  });
}

export const action = methodNotAllowed(["GET"]);
