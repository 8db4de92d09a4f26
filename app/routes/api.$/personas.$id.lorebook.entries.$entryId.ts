// /api/personas/{id}/lorebook/entries/{entryId} (docs/api.md, Lore): PATCH changes the fields given
// (the whole entry is checked again), DELETE removes the entry. An unknown entry is 404 'Lore
// entry not found'; another user's persona answers 404 like an unknown one.
import type { ActionFunctionArgs } from "@remix-run/node";

import { loreEntryJson } from "~/domain/lorebook";
import { assertMethod, handleApi, jsonObject, methodNotAllowed } from "~/services/api.server";
import { deleteLoreEntry, LORE_ENTRY_BODY, MAX_LORE_BODY_BYTES, updateLoreEntry } from "~/services/lore.server";
import { requireApiUser, responseHeaders } from "~/services/session.server";

export const loader = methodNotAllowed(["PATCH", "DELETE"]);

export async function action({ request, params, context }: ActionFunctionArgs) {
  assertMethod(request, ["PATCH", "DELETE"]);
  const { user, ctx } = await requireApiUser(request, context);
  const id = params.id ?? "";
  const entryId = params.entryId ?? "";
  return handleApi(ctx, async () => {
    if (request.method.toUpperCase() === "DELETE") {
      await deleteLoreEntry(user, id, entryId);
      return Response.json({ message: "The entry has been deleted." }, { headers: responseHeaders(ctx) });
    }
    const entry = await updateLoreEntry(user, id, entryId, await jsonObject(request, LORE_ENTRY_BODY, MAX_LORE_BODY_BYTES));
    return Response.json(loreEntryJson(entry), { headers: responseHeaders(ctx) });
  });
}
