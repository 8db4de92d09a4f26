// GET /api/personas/{id}/versions/compare?from=&to=: two versions compared field by field
// (changed fields first; lists as added/removed/kept; description and backstory as word-level
// parts). Absent numbers default to the previous and the current version; a given one that is
// no version is 404.
import type { LoaderFunctionArgs } from "@remix-run/node";

import { parseVersionNumber } from "~/domain/persona-history";
import { handleApi, methodNotAllowed } from "~/services/api.server";
import { compare } from "~/services/persona-history.server";
import { requireApiUser, responseHeaders } from "~/services/session.server";

/** Absent (or empty): the default; present: a version number or nothing (null, a 404). */
function versionParam(query: URLSearchParams, key: string): number | null | undefined {
  const value = query.get(key);
  return value === null || value === "" ? undefined : parseVersionNumber(value);
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { user, ctx } = await requireApiUser(request, context);
  return handleApi(ctx, async () => {
    const query = new URL(request.url).searchParams;
    const result = await compare(user, params.id ?? "", versionParam(query, "from"), versionParam(query, "to"));
    return Response.json(
      {
        personaId: result.persona.id,
        from: result.from,
        to: result.to,
        latest: result.latest,
        changed: result.changed,
        message: result.changed ? undefined : "No differences",
        fields: result.fields,
      },
      { headers: responseHeaders(ctx, { "Cache-Control": "private, no-store" }) },
    );
  });
}

export const action = methodNotAllowed(["GET"]);
