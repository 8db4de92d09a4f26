// /api/personas/{id}/lorebook/compile (docs/api.md, Lore): POST (empty body) → proposals for the
// persona's lorebook from its backstory and facts, the coverage report and the entries that no
// longer match the backstory. Nothing is stored until proposals are posted as entries. Another
// user's persona answers 404 like an unknown one.
import type { ActionFunctionArgs } from "@remix-run/node";

import { assertMethod, emptyBody, handleApi, methodNotAllowed } from "~/services/api.server";
import { compilePersonaLore } from "~/services/lore.server";
import { requireApiUser, responseHeaders } from "~/services/session.server";

export const loader = methodNotAllowed(["POST"]);

export async function action({ request, params, context }: ActionFunctionArgs) {
  assertMethod(request, ["POST"]);
  const { user, ctx } = await requireApiUser(request, context);
  return handleApi(ctx, async () => {
    await emptyBody(request);
    const { proposals, coverage, stale } = await compilePersonaLore(user, params.id ?? "");
    return Response.json(
      { proposals, coverage: coverage.map(({ name, kind, entryId }) => ({ name, kind, entryId })), stale },
      { headers: responseHeaders(ctx, { "Cache-Control": "private, no-store" }) },
    );
  });
}
