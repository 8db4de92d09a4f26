// Free and Premium plan cards (docs/product.md, Plans), shared by the landing page and /subscription (which
// puts its own actions, such as the upgrade form, in place of the sign-up links).

import { Link } from "@remix-run/react";

import { PLAN_INCLUDES, PLANS } from "~/domain/site";

import { CheckIcon } from "./ui/icons";
import { buttonClass } from "./ui/button";

export function PricingCards({
  ctaTo = "/register",
  actions,
  headingLevel: H = "h3",
}: {
  ctaTo?: string;
  /** What each card ends with instead of the sign-up link. */
  actions?: { free: React.ReactNode; premium: React.ReactNode };
  headingLevel?: "h2" | "h3";
}) {
  return (
    <div className="grid gap-6 md:grid-cols-2">
      <article className="flex flex-col rounded-2xl border-2 border-slate-200 bg-white p-6 shadow-sm sm:p-8" aria-labelledby="plan-free">
        <H id="plan-free" className="text-lg font-semibold text-slate-900">
          {PLANS.free.name}
        </H>
        <p className="mt-4">
          <span className="text-4xl font-bold text-slate-900">${PLANS.free.priceUsd}</span>
          <span className="text-slate-600">/month</span>
        </p>
        <p className="mt-2 text-slate-600">Everything you need to get started</p>
        <PlanFeatures extra={[`Up to ${PLANS.free.personaLimit} personas`]} />
        {/* Both cards keep their button at the bottom, so the two line up. */}
        <div className="mt-auto flex flex-col pt-8">
          {actions ? (
            actions.free
          ) : (
            <Link
              to={ctaTo}
              className="rounded-lg border border-brand-700 px-4 py-2 text-center font-semibold text-brand-800 hover:bg-brand-50"
            >
              Start for free
            </Link>
          )}
        </div>
      </article>
      <article
        className="relative flex flex-col rounded-2xl border-2 border-brand-600 bg-white p-6 shadow-md sm:p-8"
        aria-labelledby="plan-premium"
      >
        <span className="absolute -top-3 left-8 rounded-full bg-brand-700 px-3 py-1 text-xs font-semibold text-white">Most popular</span>
        <H id="plan-premium" className="text-lg font-semibold text-slate-900">
          {PLANS.premium.name}
        </H>
        <p className="mt-4">
          <span className="text-4xl font-bold text-slate-900">${PLANS.premium.priceUsd}</span>
          <span className="text-slate-600">/month</span>
        </p>
        <p className="mt-2 text-slate-600">Unlimited personas plus additional features</p>
        <PlanFeatures extra={["Unlimited personas", "No commitment, cancel anytime"]} />
        <p className="mt-4 text-sm text-slate-600">{PLANS.premium.note}</p>
        <div className="mt-auto flex flex-col pt-8">
          {actions ? (
            actions.premium
          ) : (
            <Link to={ctaTo} className={buttonClass("primary", "base", "border border-brand-700")}>
              Get Premium
            </Link>
          )}
        </div>
      </article>
    </div>
  );
}

function PlanFeatures({ extra }: { extra: string[] }) {
  return (
    <ul className="mt-6 space-y-3 text-slate-700">
      {[...extra, ...PLAN_INCLUDES].map((item) => (
        <li key={item} className="flex items-start gap-2">
          <CheckIcon className="mt-1 shrink-0 text-emerald-600" />
          <span>{item}</span>
        </li>
      ))}
    </ul>
  );
}
