// /api/personas/{id}/lorebook (docs/api.md, Lore): GET the persona's lorebook — its entries in
// insertion order, the scan depth and the budget chat uses. Another user's persona answers 404
// like an unknown one.
import type { LoaderFunctionArgs } from "@remix-run/node";

import { LORE_LIMITS, loreEntryJson, orderedEntries } from "~/domain/lorebook";
import { handleApi, methodNotAllowed } from "~/services/api.server";
import { getLorebook } from "~/services/lore.server";
import { requireApiUser, responseHeaders } from "~/services/session.server";

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { user, ctx } = await requireApiUser(request, context);
  return handleApi(ctx, async () => {
    const { book } = await getLorebook(user, params.id ?? "");
    return Response.json(
      { entries: orderedEntries(book.entries).map(loreEntryJson), scanDepth: LORE_LIMITS.scanDepth, budget: LORE_LIMITS.budget },
      { headers: responseHeaders(ctx, { "Cache-Control": "private, no-store" }) },
    );
  });
}

export const action = methodNotAllowed(["GET"]);
