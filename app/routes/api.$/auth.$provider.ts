// Browser navigation to a third-party identity provider (OAuth with state and PKCE): Supabase
// Auth's providers in Supabase mode, the OAUTH_* providers on the embedded auth (ADR 011).
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";

import { getEnv } from "~/infra/setup/env.server";
import { readFormData } from "~/infra/web/http.server";
import { rememberReturnTo } from "~/infra/web/oauth-return.server";
import { requestContext, signInProviders, startProviderSignIn } from "~/services/accounts.server";
import { assertMethod } from "~/services/api.server";
import { responseHeaders } from "~/services/session.server";
import { redirectWithToast } from "~/infra/web/toast.server";

async function start(request: Request, provider: string | undefined, context: { clientAddress?: string }) {
  if (!provider || !signInProviders().some((p) => p.id === provider)) {
    throw Response.json({ message: "This sign-in provider is not available." }, { status: 404 });
  }
  const ctx = requestContext(request, context);
  // The login page's ?redirectTo= rides along as a field of the button's form (or the query).
  const isForm = /^application\/x-www-form-urlencoded\b|^multipart\/form-data\b/i.test(request.headers.get("content-type") ?? "");
  const redirectTo = isForm ? (await readFormData(request)).get("redirectTo") : new URL(request.url).searchParams.get("redirectTo");
  try {
    const { url } = await startProviderSignIn(ctx, provider, `${getEnv().APP_URL}/auth/callback`);
    // The PKCE verifier cookie travels with this redirect, and so does where to come back to.
    const headers = responseHeaders(ctx);
    headers.append("Set-Cookie", await rememberReturnTo(redirectTo));
    return redirect(url, { headers });
  } catch (error) {
    console.error(`sign-in with ${provider} could not start: ${error instanceof Error ? error.message : String(error)}`);
    return redirectWithToast("/login", {
      type: "error",
      title: "Sign In Failed",
      description: "The sign-in provider could not be reached. Please try again.",
    });
  }
}

export const loader = ({ request, params, context }: LoaderFunctionArgs) => start(request, params.provider, context);
export const action = ({ request, params, context }: ActionFunctionArgs) => {
  assertMethod(request, ["GET", "POST"]);
  return start(request, params.provider, context);
};
