import type { LoaderFunctionArgs } from "@remix-run/node";

import { requestContext, verifyEmail } from "~/services/accounts.server";
import { handleApi, methodNotAllowed } from "~/services/api.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const ctx = requestContext(request, context);
  return handleApi(ctx, async () => Response.json(await verifyEmail(ctx, new URL(request.url).searchParams.get("token"))));
}

export const action = methodNotAllowed(["GET"]);
