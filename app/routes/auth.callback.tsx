// Where the identity provider sends the browser back (OAuth with state and PKCE): Supabase
// mode and the embedded auth's providers alike (ADR 011).
import type { LoaderFunctionArgs } from "@remix-run/node";

import {
  takeReturnTo,
  redirectWithToast,
  ServiceError,
  finishProviderSignIn,
  PROVIDER_SIGN_IN_FAILED,
  requestContext,
  redirectSignedIn,
  responseHeaders,
} from "~/services/index.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const code = params.get("code");
  const ctx = requestContext(request, context);
  const returnTo = await takeReturnTo(request);
  ctx.responseHeaders.append("Set-Cookie", returnTo.clear);
  let description = PROVIDER_SIGN_IN_FAILED;
  if (params.get("error") === "access_denied") {
    description = "Signing in was cancelled at the provider.";
  } else if (code && code.length <= 500) {
    try {
      const session = await finishProviderSignIn(ctx, code);
      return redirectSignedIn(ctx, session, returnTo.to);
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      description = error.message;
    }
  }
  return redirectWithToast("/login", { type: "error", title: "Sign In Failed", description }, { headers: responseHeaders(ctx) });
}
