// GET /images/{personaId}/{file}: a persona's reference image or one of its resized copies,
// for its owner only (the session cookie, or a Bearer token). Anyone else, a signed-out
// visitor, an unknown persona or file and any path of another shape answer 404 alike. In
// Supabase mode the bytes come from the private bucket; the page itself uses signed URLs.
import type { LoaderFunctionArgs } from "@remix-run/node";

import { ServiceError, methodNotAllowed, readImage, optionalUser, responseHeaders } from "~/services/index.server";

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { user, ctx } = await optionalUser(request, context);
  try {
    const image = await readImage(user, params.personaId ?? "", params.file ?? "");
    const headers = responseHeaders(ctx, {
      "Content-Type": image.contentType,
      ETag: image.etag,
      // File names carry their content's hash: a name never changes its bytes.
      "Cache-Control": "private, max-age=31536000, immutable",
      "Content-Security-Policy": "default-src 'none'; sandbox",
    });
    const match = request.headers.get("If-None-Match");
    if (match && match.split(",").some((tag) => tag.trim().replace(/^W\//, "") === image.etag)) {
      return new Response(null, { status: 304, headers });
    }
    headers.set("Content-Length", String(image.bytes.byteLength));
    return new Response(image.bytes as BodyInit, { headers });
  } catch (error) {
    if (error instanceof ServiceError && error.status === 404) {
      return new Response("Not Found", {
        status: 404,
        headers: responseHeaders(ctx, { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store" }),
      });
    }
    throw error;
  }
}

export const action = methodNotAllowed(["GET"]);
