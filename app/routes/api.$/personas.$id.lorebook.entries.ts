// /api/personas/{id}/lorebook/entries (docs/api.md, Lore): POST a new entry → 201 with the entry
// (checked as the page checks it; the 200-entry limit). Another user's persona answers 404.
import type { ActionFunctionArgs } from "@remix-run/node";

import { loreEntryJson } from "~/domain/lorebook";
import { assertMethod, handleApi, jsonObject, methodNotAllowed } from "~/services/api.server";
import { addLoreEntry, LORE_ENTRY_BODY, MAX_LORE_BODY_BYTES } from "~/services/lore.server";
import { requireApiUser, responseHeaders } from "~/services/session.server";

export const loader = methodNotAllowed(["POST"]);

export async function action({ request, params, context }: ActionFunctionArgs) {
  assertMethod(request, ["POST"]);
  const { user, ctx } = await requireApiUser(request, context);
  return handleApi(ctx, async () => {
    const entry = await addLoreEntry(user, params.id ?? "", await jsonObject(request, LORE_ENTRY_BODY, MAX_LORE_BODY_BYTES));
    return Response.json(loreEntryJson(entry), { status: 201, headers: responseHeaders(ctx) });
  });
}
