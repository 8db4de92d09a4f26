// POST /api/personas/{id}/card-check/fix { rule, field, version? } (docs/api.md, Card check): the
// one-click fix of a finding, written as a new version with a history note → 200 { version, note }.
// 400 when the rule has no fix or the body is wrong; 409 when the persona changed since `version`
// or the finding is no longer there (nothing changes); 404 for another creator's persona.
import type { ActionFunctionArgs } from "@remix-run/node";

import { assertMethod, handleApi, jsonObject, methodNotAllowed } from "~/services/api.server";
import { fixCardFinding } from "~/services/card-check.server";
import { requireApiUser, responseHeaders } from "~/services/session.server";

export async function action({ request, params, context }: ActionFunctionArgs) {
  assertMethod(request, ["POST"]);
  const { user, ctx } = await requireApiUser(request, context);
  return handleApi(ctx, async () => {
    const body = await jsonObject(request, { rule: "string", field: "string", version: "number|null" });
    const { version, note } = await fixCardFinding(user, params.id ?? "", body);
    return Response.json({ version, note }, { headers: responseHeaders(ctx, { "Cache-Control": "private, no-store" }) });
  });
}

export const loader = methodNotAllowed(["POST"]);
