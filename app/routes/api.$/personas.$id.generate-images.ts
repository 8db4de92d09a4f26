// POST /api/personas/{id}/generate-images (no body): starts generating the primary and the
// secondary reference image in the persona's image style and answers 202 at once; the result
// is seen by polling GET /api/personas/{id} (imageUrl, imageGeneration). 409 while a
// generation runs or for a draft; 404 for another user's or an unknown persona.
import type { ActionFunctionArgs } from "@remix-run/node";

import { IMAGE_TOASTS } from "~/domain/images";
import { assertMethod, emptyBody, handleApi, methodNotAllowed } from "~/services/api.server";
import { startImageGeneration } from "~/services/images.server";
import { requireApiUser, responseHeaders } from "~/services/session.server";

export async function action({ request, params, context }: ActionFunctionArgs) {
  assertMethod(request, ["POST"]);
  const { user, ctx } = await requireApiUser(request, context);
  return handleApi(ctx, async () => {
    await emptyBody(request);
    const imageGeneration = await startImageGeneration(user, params.id ?? "");
    return Response.json(
      { message: IMAGE_TOASTS.started.description, imageGeneration },
      { status: 202, headers: responseHeaders(ctx, { "Cache-Control": "private, no-store", Location: `/api/personas/${params.id}` }) },
    );
  });
}

export const loader = methodNotAllowed(["POST"]);
