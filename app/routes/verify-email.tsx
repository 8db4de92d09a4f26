// The link from the verification e-mail (docs/product.md, Public routes): success sends the visitor to
// /login after 3 seconds (with JavaScript; without it the page offers 'Go to Login', as a
// timed meta refresh would fail WCAG 2.2.1); failure offers 'Go to Login' and 'Register Again'.
import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useNavigate, useNavigation } from "@remix-run/react";
import { useEffect } from "react";
import { useHydrated } from "remix-utils/use-hydrated";

import { AuthCard } from "~/components/auth-layout";
import { AlertIcon, CheckIcon } from "~/components/ui/icons";
import { ACCOUNT_TOASTS } from "~/domain/account";
import { PRODUCT_NAME } from "~/domain/site";
import { ServiceError, requestContext, verifyEmail, responseHeaders } from "~/services/index.server";
import { buttonClass } from "~/components/ui/button";

export const VERIFY_REDIRECT_MS = 3000;

export const meta: MetaFunction = () => [{ title: `Verify your e-mail · ${PRODUCT_NAME}` }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const ctx = requestContext(request, context);
  try {
    const { message } = await verifyEmail(ctx, new URL(request.url).searchParams.get("token"));
    return data({ state: "success" as const, message }, { headers: responseHeaders(ctx) });
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    // A link opened a second time: the address is verified, nothing failed.
    if (error.code === "already_verified")
      return data({ state: "verified" as const, message: error.message }, { headers: responseHeaders(ctx) });
    return data({ state: "error" as const, message: error.message }, { status: 400, headers: responseHeaders(ctx) });
  }
}

export default function VerifyEmail() {
  const result = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const navigate = useNavigate();
  const hydrated = useHydrated();
  useEffect(() => {
    if (result.state !== "success") return;
    const timer = setTimeout(() => navigate("/login"), VERIFY_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [result.state, navigate]);

  if (navigation.state === "loading" && navigation.location.pathname === "/verify-email") {
    return (
      <AuthCard title="Verifying your e-mail">
        <p role="status" className="flex items-center gap-3 text-slate-700">
          <span className="h-5 w-5 animate-spin rounded-full border-2 border-brand-600 border-t-transparent" aria-hidden="true" />
          Checking your verification link...
        </p>
      </AuthCard>
    );
  }
  if (result.state === "success") {
    return (
      <AuthCard title="E-mail verified">
        <p role="status" className="flex items-center gap-2 font-medium text-emerald-800">
          <CheckIcon /> {result.message}
        </p>
        {/* Only with JavaScript is the creator taken on; the line keeps its room either way, so the
            page does not move when it hydrates. */}
        <p className={`mt-3 text-slate-700 ${hydrated ? "" : "invisible"}`} aria-hidden={hydrated ? undefined : true}>
          Taking you to sign in...
        </p>
        <Link to="/login" className={buttonClass("primary", "base", "mt-6 inline-block")}>
          Go to Login
        </Link>
      </AuthCard>
    );
  }
  if (result.state === "verified") {
    return (
      <AuthCard title="E-mail already verified">
        <p role="status" className="flex items-center gap-2 font-medium text-emerald-800">
          <CheckIcon /> {result.message}
        </p>
        <Link to="/login" className={buttonClass("primary", "base", "mt-6 inline-block")}>
          Go to Login
        </Link>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="We could not verify your e-mail">
      <p role="alert" className="flex items-start gap-2 text-red-800">
        <AlertIcon className="mt-1 shrink-0" /> {result.message || ACCOUNT_TOASTS.verifyFailed}
      </p>
      <div className="mt-6 flex flex-wrap gap-3">
        <Link to="/login" className={buttonClass("primary", "base")}>
          Go to Login
        </Link>
        <Link to="/register" className="rounded-lg border border-slate-300 px-4 py-2 font-semibold text-slate-800 hover:bg-slate-50">
          Register Again
        </Link>
      </div>
    </AuthCard>
  );
}
