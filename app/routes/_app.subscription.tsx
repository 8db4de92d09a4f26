// /subscription (docs/product.md, Subscription): the Current Plan card, the Free and Premium
// cards and the FAQ. Upgrade and Manage are form posts to this route's action, which answers
// with a redirect to Stripe Checkout or the Customer Portal (or back here with the failure toast).
// With JavaScript the same buttons call the JSON API and navigate to the URL it returns.
// Stripe sends the browser back to /subscription?checkout=…: the loader turns that into a toast
// and a clean address, and changes nothing: only verified webhooks change a plan.
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useEffect, useState } from "react";

import { PricingCards } from "~/components/pricing-cards";
import { useHoldToastRoom, useToast } from "~/components/toaster";
import { AlertIcon, CheckIcon } from "~/components/ui/icons";
import { FREE_PLAN_PERSONA_LIMIT } from "~/domain/persona";
import { PRODUCT_NAME } from "~/domain/site";
import {
  BILLING_MESSAGES,
  currentPlanLines,
  RETURN_PARAM,
  returnToast,
  SUBSCRIPTION_FAQ,
  SUBSCRIPTION_PATH,
  SUBSCRIPTION_TOASTS,
} from "~/domain/subscription";
import {
  httpError,
  readFormData,
  redirectWithToast,
  ServiceError,
  billingConfigured,
  creatorPlan,
  openPortal,
  startCheckout,
  requireUser,
  responseHeaders,
} from "~/services/index.server";

export const meta: MetaFunction = () => [{ title: `Subscription · ${PRODUCT_NAME}` }];

const INTENTS = {
  upgrade: { api: "/api/create-checkout-session", failure: SUBSCRIPTION_TOASTS.checkoutFailed },
  manage: { api: "/api/create-customer-portal-session", failure: SUBSCRIPTION_TOASTS.portalFailed },
} as const;
type Intent = keyof typeof INTENTS;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user, ctx } = await requireUser(request, context);
  const url = new URL(request.url);
  if (url.searchParams.has(RETURN_PARAM)) {
    const toast = returnToast(url.searchParams.get(RETURN_PARAM));
    if (!toast) throw redirect(SUBSCRIPTION_PATH, { headers: responseHeaders(ctx) });
    throw await redirectWithToast(SUBSCRIPTION_PATH, toast, { headers: responseHeaders(ctx) });
  }
  const plan = await creatorPlan(user);
  return data({ plan, configured: billingConfigured() }, { headers: responseHeaders(ctx) });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { user, ctx } = await requireUser(request, context);
  const formData = await readFormData(request);
  const intent = Object.keys(INTENTS).find((name) => name === formData.get("intent")) as Intent | undefined;
  if (!intent) return httpError(400, "Unknown subscription action.");
  try {
    const { url } = intent === "upgrade" ? await startCheckout(user) : await openPortal(user);
    // Stripe's own pages: an external redirect (303, so the browser follows it with a GET).
    return redirect(url, { status: 303, headers: responseHeaders(ctx) });
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    const description = error.status === 502 ? INTENTS[intent].failure.description : error.message;
    return redirectWithToast(SUBSCRIPTION_PATH, { type: "error", title: "Error", description }, { headers: responseHeaders(ctx) });
  }
}

export default function Subscription() {
  const { plan, configured } = useLoaderData<typeof loader>();
  const lines = currentPlanLines(plan);
  const canUpgrade = configured && !plan.premium;
  const canManage = configured && plan.hasCustomer;

  return (
    <div className="mx-auto max-w-5xl space-y-10">
      <header>
        <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Subscription</h1>
        <p className="mt-1 text-slate-600">Your plan, what each plan includes, and answers to common questions.</p>
      </header>

      <section
        aria-labelledby="current-plan-heading"
        className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
        data-testid="current-plan"
      >
        <h2 id="current-plan-heading" className="text-sm font-medium text-slate-600">
          Current Plan
        </h2>
        <div className="mt-2 flex flex-wrap items-center gap-3">
          <p className="text-2xl font-bold text-slate-900" data-testid="current-plan-name">
            {lines.name}
          </p>
          {lines.badge ? (
            <span
              className={`rounded-full px-3 py-1 text-sm font-semibold ${plan.trialDaysLeft > 0 ? "bg-amber-100 text-amber-900" : "bg-slate-100 text-slate-800"}`}
            >
              {lines.badge}
            </span>
          ) : null}
        </div>
        {lines.date ? <p className="mt-2 text-slate-700">{lines.date}</p> : null}
        <p className="mt-2 text-slate-700">
          {plan.premium
            ? "Unlimited personas."
            : `Up to ${FREE_PLAN_PERSONA_LIMIT} personas. Every persona you already have stays usable on any plan.`}
        </p>
        <div className="mt-5 flex flex-wrap gap-3">
          {canUpgrade ? <BillingButton intent="upgrade" label="Upgrade to Premium" busyLabel="Opening checkout..." primary /> : null}
          {canManage ? <BillingButton intent="manage" label="Manage subscription" busyLabel="Opening..." primary={plan.premium} /> : null}
        </div>
        {plan.premium && !plan.hasCustomer ? <p className="mt-3 text-sm text-slate-600">{BILLING_MESSAGES.premiumByHand}</p> : null}
      </section>

      {configured ? null : (
        <section
          aria-labelledby="not-configured-heading"
          className="flex gap-3 rounded-2xl border border-amber-300 bg-amber-50 p-5 text-amber-950"
          data-testid="billing-not-configured"
        >
          <AlertIcon className="mt-1 shrink-0" />
          <div>
            <h2 id="not-configured-heading" className="font-semibold">
              {BILLING_MESSAGES.notConfiguredTitle}
            </h2>
            <p className="mt-1 text-sm">{BILLING_MESSAGES.notConfiguredHelp}</p>
          </div>
        </section>
      )}

      <section id="plans" aria-labelledby="plans-heading">
        <h2 id="plans-heading" className="mb-4 text-xl font-semibold text-slate-900">
          Plans
        </h2>
        <PricingCards
          headingLevel="h3"
          actions={{
            free: plan.premium ? (
              <p className="text-sm text-slate-600">Where you return if you cancel; your personas stay.</p>
            ) : (
              <CurrentPlanMark />
            ),
            premium: plan.premium ? (
              <CurrentPlanMark />
            ) : canUpgrade ? (
              <BillingButton intent="upgrade" label="Upgrade to Premium" busyLabel="Opening checkout..." primary wide />
            ) : (
              <p className="text-sm text-slate-600">{BILLING_MESSAGES.notConfiguredTitle}.</p>
            ),
          }}
        />
      </section>

      <section aria-labelledby="faq-heading">
        <h2 id="faq-heading" className="mb-4 text-xl font-semibold text-slate-900">
          Frequently asked questions
        </h2>
        <div className="divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white">
          {SUBSCRIPTION_FAQ.map(({ q, a }) => (
            <details key={q} className="group p-5">
              <summary className="cursor-pointer list-none font-semibold text-slate-900 marker:hidden">
                <span className="flex items-center justify-between gap-3">
                  {q}
                  <span aria-hidden="true" className="text-slate-500 group-open:rotate-45">
                    +
                  </span>
                </span>
              </summary>
              <p className="mt-3 text-slate-700">{a}</p>
            </details>
          ))}
        </div>
      </section>
    </div>
  );
}

function CurrentPlanMark() {
  return (
    <p className="flex items-center justify-center gap-2 rounded-lg bg-slate-100 px-4 py-2 font-semibold text-slate-800">
      <CheckIcon /> Your current plan
    </p>
  );
}

/**
 * Upgrade or Manage: a form post to this route (works without JavaScript); with JavaScript the
 * JSON API answers `{ url }` and the browser goes there, or the failure toast shows.
 */
function BillingButton({
  intent,
  label,
  busyLabel,
  primary,
  wide,
}: {
  intent: Intent;
  label: string;
  busyLabel: string;
  primary?: boolean;
  wide?: boolean;
}) {
  const toast = useToast();
  const holdToastRoom = useHoldToastRoom();
  const [busy, setBusy] = useState(false);
  // Back from Stripe's page restores this one from the back/forward cache, busy as it was left.
  useEffect(() => {
    const restored = (event: PageTransitionEvent) => {
      if (event.persisted) setBusy(false);
    };
    window.addEventListener("pageshow", restored);
    return () => window.removeEventListener("pageshow", restored);
  }, []);
  return (
    <form
      method="post"
      action={SUBSCRIPTION_PATH}
      onSubmit={(event) => {
        event.preventDefault();
        if (busy) return;
        setBusy(true);
        void (async () => {
          const { api, failure } = INTENTS[intent];
          const release = holdToastRoom();
          try {
            const response = await fetch(api, {
              method: "POST",
              credentials: "include",
              headers: { Accept: "application/json" },
              signal: AbortSignal.timeout(10_000),
            });
            const body = (await response.json().catch(() => ({}))) as { url?: unknown; message?: unknown };
            if (response.ok && typeof body.url === "string") {
              window.location.assign(body.url);
              return;
            }
            const description = response.status === 502 || typeof body.message !== "string" ? failure.description : body.message;
            toast({ type: "error", title: "Error", description });
          } catch {
            toast({ type: "error", ...failure });
          }
          // Not on the way to Stripe's page: the room stays until this page is left.
          release();
          setBusy(false);
        })();
      }}
    >
      <input type="hidden" name="intent" value={intent} />
      <button
        type="submit"
        aria-busy={busy || undefined}
        className={`${wide ? "w-full" : ""} rounded-lg px-5 py-2.5 text-center font-semibold ${
          primary ? "bg-brand-700 text-white hover:bg-brand-800" : "border border-brand-700 text-brand-800 hover:bg-brand-50"
        }`}
      >
        {busy ? busyLabel : label}
      </button>
    </form>
  );
}
