// GET /api/personas/{id}/survival (docs/api.md, Card check): for each front end (sillytavern,
// risuai, chub, janitorai, backyard, agnai), the fate of each field the persona's card uses —
// { targets: [{ target, fields: [{ field, fate, note }], unsourced, tests }] } — from the table in
// docs/cards.md. Another creator's persona answers 404 like an unknown one.
import type { LoaderFunctionArgs } from "@remix-run/node";

import { handleApi, methodNotAllowed } from "~/services/api.server";
import { cardSurvival } from "~/services/card-check.server";
import { requireApiUser, responseHeaders } from "~/services/session.server";

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { user, ctx } = await requireApiUser(request, context);
  return handleApi(ctx, async () =>
    Response.json(await cardSurvival(user, params.id ?? ""), { headers: responseHeaders(ctx, { "Cache-Control": "private, no-store" }) }),
  );
}

export const action = methodNotAllowed(["GET"]);
