// Any /api/* path no call answers: a JSON 404 (not the HTML page), whatever the method.
import { httpError } from "~/infra/web/http.server";

function notFound({ request }: { request: Request }): never {
  return httpError(404, `There is no API call at ${new URL(request.url).pathname}.`);
}

export const loader = notFound;
export const action = notFound;
