// /pricing: the plans live on the landing page (docs/product.md, Public routes); a signed-in
// creator, whom the landing page sends on to the dashboard, goes to the plans on /subscription.
// 302, not 301: a browser would keep a permanent answer and skip the check once signed in.
import { redirect, type LoaderFunctionArgs } from "@remix-run/node";

import { optionalUser, responseHeaders } from "~/services/index.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user, ctx } = await optionalUser(request, context);
  if (user) return redirect("/subscription#plans", { headers: responseHeaders(ctx) });
  return redirect("/#pricing", { headers: responseHeaders(ctx) });
}
