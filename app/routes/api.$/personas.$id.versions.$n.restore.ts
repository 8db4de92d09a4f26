// POST /api/personas/{id}/versions/{n}/restore: the persona's fields become version n's, as a
// new version ('Restored from version n'). No body (or {}); `{ "withImage": true }` also brings back the
// version's reference image (otherwise the current one stays). 404 for a number that is no
// version; 409 'This is already the current version'; 400 with the rule's message when the
// version breaks a rule of the persona today (nothing changes).
import type { ActionFunctionArgs } from "@remix-run/node";

import { parseVersionNumber } from "~/domain/persona-history";
import { assertMethod, handleApi, jsonObject, methodNotAllowed } from "~/services/api.server";
import { restoreVersion } from "~/services/persona-history.server";
import { requireApiUser, responseHeaders } from "~/services/session.server";

export async function action({ request, params, context }: ActionFunctionArgs) {
  assertMethod(request, ["POST"]);
  const { user, ctx } = await requireApiUser(request, context);
  return handleApi(ctx, async () => {
    // No body is needed; one that says what it is must be a JSON object, whose only field may be `withImage`.
    const body = request.headers.get("content-type") ? await jsonObject(request, { withImage: "boolean" }) : {};
    const restored = await restoreVersion(user, params.id ?? "", parseVersionNumber(params.n), { withImage: body.withImage === true });
    return Response.json(
      { persona: restored.persona, version: restored.version, restoredFrom: restored.restoredFrom },
      { headers: responseHeaders(ctx) },
    );
  });
}

export const loader = methodNotAllowed(["POST"]);
