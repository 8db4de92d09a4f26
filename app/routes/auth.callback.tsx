// Where the identity provider sends the browser back (OAuth with PKCE, Supabase mode).
import type { LoaderFunctionArgs } from "@remix-run/node";

import { auth } from "~/infra/auth.server";
import { redirectWithToast } from "~/infra/toast.server";
import { requestContext } from "~/services/accounts.server";
import { redirectSignedIn } from "~/services/session.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const code = new URL(request.url).searchParams.get("code");
  const ctx = requestContext(request, context);
  if (code && code.length <= 500) {
    try {
      const session = await auth().oauthCallback(ctx, code);
      return redirectSignedIn(ctx, session, "/dashboard");
    } catch {
      // fall through to the failure toast
    }
  }
  return redirectWithToast("/login", {
    type: "error",
    title: "Sign In Failed",
    description: "Signing in with the provider did not complete. Please try again.",
  });
}
