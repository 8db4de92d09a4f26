import { type ActionFunctionArgs } from "@remix-run/node";

import { publicUser, updateProfile } from "~/services/accounts.server";
import { ApiError } from "~/services/api.server";
import { assertMethod, handleApi, jsonObject, methodNotAllowed } from "~/services/api.server";
import { requireApiUser, responseHeaders } from "~/services/session.server";

export async function action({ request, context }: ActionFunctionArgs) {
  assertMethod(request, ["PATCH"]);
  const { user, ctx } = await requireApiUser(request, context);
  return handleApi(ctx, async () => {
    const body = await jsonObject(request, { firstName: "string|null", lastName: "string", email: "string" });
    // The e-mail address is managed by the sign-in provider (docs/product.md, Settings): it may be sent back unchanged only.
    if (body.email !== undefined && (typeof body.email !== "string" || body.email.trim().toLowerCase() !== user.email.toLowerCase())) {
      throw new ApiError(400, "The e-mail address is managed by your sign-in provider and cannot be changed here.", {
        email: ["The e-mail address cannot be changed here"],
      });
    }
    const firstName = body.firstName === null ? "" : body.firstName;
    const updated = await updateProfile(user, { firstName, lastName: body.lastName });
    return Response.json(publicUser(updated), { headers: responseHeaders(ctx) });
  });
}

export const loader = methodNotAllowed(["PATCH"]);
