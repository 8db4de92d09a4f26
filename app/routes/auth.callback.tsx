// Where the identity provider sends the browser back (OAuth with state and PKCE): Supabase
// mode and the embedded auth's providers alike (ADR 011).
import type { LoaderFunctionArgs } from "@remix-run/node";

import { auth } from "~/infra/auth.server";
import { AuthError } from "~/infra/auth/types";
import { takeReturnTo } from "~/infra/oauth-return.server";
import { redirectWithToast } from "~/infra/toast.server";
import { requestContext } from "~/services/accounts.server";
import { redirectSignedIn, responseHeaders } from "~/services/session.server";

const DID_NOT_COMPLETE = "Signing in with the provider did not complete. Please try again.";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const code = params.get("code");
  const ctx = requestContext(request, context);
  const returnTo = await takeReturnTo(request);
  ctx.responseHeaders.append("Set-Cookie", returnTo.clear);
  let description = DID_NOT_COMPLETE;
  if (params.get("error") === "access_denied") {
    description = "Signing in was cancelled at the provider.";
  } else if (code && code.length <= 500) {
    try {
      const session = await auth().oauthCallback(ctx, code);
      return redirectSignedIn(ctx, session, returnTo.to);
    } catch (error) {
      // The embedded auth's refusals are written for the person signing in; Supabase's are not.
      if (error instanceof AuthError && auth().kind === "local" && error.code !== "provider_error") {
        description = error.message;
      } else {
        console.error(`third-party sign-in failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
  return redirectWithToast(
    "/login",
    { type: "error", title: "Sign In Failed", description },
    { headers: responseHeaders(ctx) },
  );
}
