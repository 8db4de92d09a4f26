// GET /api/personas/{id}/versions/{n}: one version of the persona in full (its fields as they
// were after that change, the backstory included). A number that is no version (0, negative,
// not a number, too large, not yet reached) and another user's persona are 404.
import type { LoaderFunctionArgs } from "@remix-run/node";

import { parseVersionNumber } from "~/domain/persona-history";
import { handleApi, methodNotAllowed } from "~/services/api.server";
import { getVersion } from "~/services/persona-history.server";
import { requireApiUser, responseHeaders } from "~/services/session.server";

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { user, ctx } = await requireApiUser(request, context);
  return handleApi(ctx, async () =>
    Response.json(await getVersion(user, params.id ?? "", parseVersionNumber(params.n)), {
      headers: responseHeaders(ctx, { "Cache-Control": "private, no-store" }),
    }),
  );
}

export const action = methodNotAllowed(["GET"]);
