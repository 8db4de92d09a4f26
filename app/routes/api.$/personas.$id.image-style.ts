// PATCH /api/personas/{id}/image-style: { "imageStyle": "anime" } saves the style the next
// reference images are drawn in (docs/product.md, Reference images: saved immediately). An unknown style is a 400
// 'Invalid image style'; another user's or an unknown persona a 404. Answers with the persona.
import type { ActionFunctionArgs } from "@remix-run/node";

import { IMAGE_MESSAGES } from "~/domain/images";
import { assertMethod, handleApi, jsonObject, methodNotAllowed } from "~/services/api.server";
import { setImageStyle } from "~/services/images.server";
import { requireApiUser, responseHeaders } from "~/services/session.server";

export async function action({ request, params, context }: ActionFunctionArgs) {
  assertMethod(request, ["PATCH"]);
  const { user, ctx } = await requireApiUser(request, context);
  return handleApi(ctx, async () => {
    const { imageStyle } = await jsonObject(request, { imageStyle: { type: "string", message: IMAGE_MESSAGES.invalidStyle } });
    return Response.json(await setImageStyle(user, params.id ?? "", imageStyle), { headers: responseHeaders(ctx) });
  });
}

export const loader = methodNotAllowed(["PATCH"]);
