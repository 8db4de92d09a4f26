// 'Persona Not Found' (docs/product.md, Persona page): unknown ids and other users' personas look the same.
import { isRouteErrorResponse, Link, useRouteError } from "@remix-run/react";

import { PERSONA_PAGE_TEXT } from "~/domain/persona-display";

import { GeneralErrorBoundary } from "./error-boundary";
import { buttonClass } from "./ui/button";

export function PersonaNotFound() {
  return (
    <div className="mx-auto max-w-xl rounded-2xl border border-slate-200 bg-white p-8 text-center shadow-sm">
      <h1 className="text-2xl font-bold text-slate-900">{PERSONA_PAGE_TEXT.notFoundTitle}</h1>
      <p className="mt-3 text-slate-700">{PERSONA_PAGE_TEXT.notFoundText}</p>
      <Link to="/my-personas" className={buttonClass("primary", "base", "mt-6 inline-block")}>
        {PERSONA_PAGE_TEXT.back}
      </Link>
    </div>
  );
}

/** The error boundary of a persona's routes: a 404 is 'Persona Not Found', anything else the general one. */
export function PersonaErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <PersonaNotFound />;
  return <GeneralErrorBoundary />;
}
