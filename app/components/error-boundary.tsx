// The shared error boundary: per-status text, never a stack trace.
import { isRouteErrorResponse, Link, useRouteError } from "@remix-run/react";

import { NOT_FOUND } from "~/domain/site";

import { AlertIcon } from "./ui/icons";
import { buttonClass } from "./ui/button";

const statusText: Record<number, { title: string; hint: string }> = {
  400: { title: "Bad request", hint: "The request could not be understood. Please check what you sent and try again." },
  403: { title: "Not allowed", hint: "You do not have access to this page." },
  404: NOT_FOUND,
  405: { title: "Method not allowed", hint: "This page does not accept that kind of request." },
  413: { title: "Request too large", hint: "What you sent is larger than this page accepts." },
};

export function GeneralErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const text = statusText[status] ?? {
    title: "Something went wrong",
    hint: "An unexpected error occurred on our side. Please try again in a moment.",
  };
  if (status >= 500 && typeof document !== "undefined") console.error(error);
  return <ErrorPage status={status} title={text.title} hint={text.hint} />;
}

export function ErrorPage({ status, title, hint }: { status: number; title: string; hint: string }) {
  return (
    <div className="flex min-h-[60vh] flex-col items-center justify-center px-6 py-16 text-center">
      <div className="w-full max-w-md rounded-2xl border border-slate-200 bg-white p-8 shadow-sm">
        <div className="mb-4 flex items-center justify-center gap-2 text-red-600">
          <AlertIcon className="text-2xl" />
          <span className="sr-only">Error {status}</span>
        </div>
        <h1 className="text-2xl font-bold text-slate-900">{title}</h1>
        <p className="mt-3 text-slate-600">{hint}</p>
        <Link to="/" className={buttonClass("primary", "base", "mt-6 inline-block")}>
          Back to home
        </Link>
      </div>
    </div>
  );
}
