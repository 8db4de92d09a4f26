// GET /api/personas/{id}: one of the user's personas; anyone else's id answers 404 like an unknown one.
import type { LoaderFunctionArgs } from "@remix-run/node";

import { handleApi } from "~/services/api.server";
import { getPersona } from "~/services/personas.server";
import { requireApiUser, responseHeaders } from "~/services/session.server";

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { user, ctx } = await requireApiUser(request, context);
  return handleApi(ctx, async () =>
    Response.json(await getPersona(user, params.id ?? ""), { headers: responseHeaders(ctx, { "Cache-Control": "private, no-store" }) }),
  );
}
