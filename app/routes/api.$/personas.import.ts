// POST /api/personas/import: a Character Card V2 or V3 becomes a new persona (201 with it;
// a draft when our required fields cannot be derived). The card comes as the body itself
// (application/json, image/png, or a CharX as application/zip), or as the `file` field of a
// multipart form. At most 8 MB.
import type { ActionFunctionArgs } from "@remix-run/node";

import { httpError, readFormData, readLimitedBody } from "~/infra/web/http.server";
import { assertMethod, handleApi, methodNotAllowed } from "~/services/api.server";
import { importCardFile, MAX_CARD_BYTES, MAX_CARD_FORM_BYTES, uploadedCardBytes } from "~/services/persona-export.server";
import { requireApiUser, responseHeaders } from "~/services/session.server";

async function cardBytes(request: Request): Promise<Uint8Array> {
  const type = (request.headers.get("content-type") ?? "").toLowerCase();
  if (type.startsWith("multipart/form-data")) {
    const form = await readFormData(request, MAX_CARD_FORM_BYTES);
    return uploadedCardBytes(form.get("file"));
  }
  if (type.startsWith("application/json")) return readLimitedBody(request, MAX_CARD_BYTES, { json: true });
  if (type.startsWith("image/png") || type.startsWith("application/zip") || type.startsWith("application/x-zip-compressed"))
    return readLimitedBody(request, MAX_CARD_BYTES);
  return httpError(415, "Send the card as application/json, image/png, application/zip (a CharX), or a multipart form with a file field.");
}

export async function action({ request, context }: ActionFunctionArgs) {
  assertMethod(request, ["POST"]);
  const { user, ctx } = await requireApiUser(request, context);
  return handleApi(ctx, async () => {
    const persona = await importCardFile(user, await cardBytes(request));
    return Response.json(persona, { status: 201, headers: responseHeaders(ctx) });
  });
}

export const loader = methodNotAllowed(["POST"]);
