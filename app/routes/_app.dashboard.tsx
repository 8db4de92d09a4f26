// /dashboard (docs/product.md, Dashboard): the welcome banner with Create New Persona (through the create
// gate), three stat cards (Active Personas against 20, Generated Content against 40, Account
// Status with the trial badge), Recent Personas, and the Premium upsell for everyone not on
// Premium. The skeleton shown while it loads lives in the app layout.
import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useLocation, useRouteLoaderData } from "@remix-run/react";
import { useId } from "react";

import { CreatePersonaButton } from "~/components/create-gate";
import { PersonaCard } from "~/components/persona-card";
import { SparklesIcon, UserIcon } from "~/components/ui/icons";
import { isPremium } from "~/domain/account";
import { barPercent, DASHBOARD_BARS } from "~/domain/persona-list";
import { PRODUCT_NAME } from "~/domain/site";
import { cardPersona, dashboard, requireUser, responseHeaders } from "~/services/index.server";

import type { loader as appLoader } from "./_app";
import { buttonClass } from "~/components/ui/button";

export const meta: MetaFunction = () => [{ title: `Dashboard · ${PRODUCT_NAME}` }];

export const DASHBOARD_TEXT = {
  tagline: "Ready to Create Some Magic?",
  description: "Design unique AI characters with personalities, stories, and dynamic conversations.",
  activePersonas: "Active Personas",
  generatedContent: "Generated Content",
  generatedContentHelp: "Everything AI has written or drawn for you: backstories, chat replies and reference images.",
  accountStatus: "Account Status",
  recentTitle: "Recent Personas",
  recentSubtitle: "Your latest AI character creations",
  viewAll: "View All",
  upsellTitle: "Upgrade to Premium",
  upsellText:
    "Unlimited personas, narratives, reference images in all 5 styles and conversations, plus exports to JSON, YAML and Markdown.",
} as const;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user, ctx } = await requireUser(request, context);
  const { stats, recent } = await dashboard(user);
  const now = new Date();
  return data(
    {
      stats,
      recent: recent.map((persona) => cardPersona(persona, now)),
    },
    { headers: responseHeaders(ctx) },
  );
}

export default function Dashboard() {
  const { stats, recent } = useLoaderData<typeof loader>();
  const user = useRouteLoaderData<typeof appLoader>("routes/_app")?.user;
  const location = useLocation();
  const firstName = user?.firstName?.trim();
  const premium = isPremium(stats.subscriptionStatus);

  return (
    <div className="mx-auto max-w-6xl space-y-8">
      <section
        aria-labelledby="welcome-heading"
        className="overflow-hidden rounded-2xl bg-gradient-to-br from-brand-700 to-brand-900 p-6 text-white shadow-sm sm:p-8"
      >
        <h1 id="welcome-heading" className="text-2xl font-bold sm:text-3xl">
          {welcome(firstName, stats.ownedPersonas > 0 || stats.generatedContent > 0)}
        </h1>
        <p className="mt-2 text-lg font-medium text-brand-100">{DASHBOARD_TEXT.tagline}</p>
        <p className="mt-1 max-w-2xl text-brand-100">{DASHBOARD_TEXT.description}</p>
        <CreateButton className="mt-6 bg-white text-brand-800 hover:bg-brand-50" />
      </section>

      <section aria-label="Your numbers" className="grid gap-6 md:grid-cols-3">
        <StatCard
          title={DASHBOARD_TEXT.activePersonas}
          value={stats.activePersonas}
          relativeTo={DASHBOARD_BARS.activePersonas}
          note={ownedNote(stats.activePersonas, stats.ownedPersonas)}
        />
        <StatCard
          title={DASHBOARD_TEXT.generatedContent}
          value={stats.generatedContent}
          relativeTo={DASHBOARD_BARS.generatedContent}
          help={DASHBOARD_TEXT.generatedContentHelp}
        />
        <div className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm" data-testid="stat-account-status">
          <div className={statTitleRow}>
            <h2 className="text-sm font-medium text-slate-600">{DASHBOARD_TEXT.accountStatus}</h2>
          </div>
          <p className="mt-2 text-2xl font-bold text-slate-900">{premium ? "Premium" : "Free Plan"}</p>
          {stats.trialDaysLeft > 0 ? (
            <p className="mt-2 inline-block rounded-full bg-amber-100 px-3 py-1 text-sm font-semibold text-amber-900">
              {stats.trialDaysLeft} days left in your trial
            </p>
          ) : (
            <p className="mt-2 text-sm text-slate-600">
              {stats.personaLimit === null
                ? "Unlimited personas"
                : `${stats.ownedPersonas} of ${stats.personaLimit} personas used (drafts and archived count)`}
            </p>
          )}
        </div>
      </section>

      <section aria-labelledby="recent-heading">
        <div className="mb-4 flex items-end justify-between gap-3">
          <div>
            <h2 id="recent-heading" className="text-xl font-semibold text-slate-900">
              {DASHBOARD_TEXT.recentTitle}
            </h2>
            <p className="text-slate-600">{DASHBOARD_TEXT.recentSubtitle}</p>
          </div>
          <Link to="/my-personas" className="text-sm font-semibold text-brand-800 underline">
            {DASHBOARD_TEXT.viewAll}
          </Link>
        </div>
        {recent.length === 0 ? (
          <div className="rounded-2xl border border-dashed border-slate-300 bg-white p-8 text-center">
            <span className="mx-auto flex h-12 w-12 items-center justify-center rounded-full bg-brand-50 text-2xl text-brand-700">
              <UserIcon />
            </span>
            <h3 className="mt-4 text-lg font-semibold text-slate-900">Your personas will appear here</h3>
            <p className="mx-auto mt-1 max-w-md text-slate-600">
              Give your first character a name, a personality and a story. It takes a few minutes.
            </p>
            <CreateButton className="mt-5 bg-brand-700 text-white hover:bg-brand-800" />
          </div>
        ) : (
          <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {recent.map((persona) => (
              <li key={persona.id} className="min-w-0">
                <PersonaCard persona={persona} actions={{ delete: true }} returnTo={location.pathname} />
              </li>
            ))}
          </ul>
        )}
      </section>

      {premium ? null : (
        <section
          aria-labelledby="upsell-heading"
          className="flex flex-col gap-4 rounded-2xl border border-brand-200 bg-brand-50 p-6 sm:flex-row sm:items-center sm:justify-between"
          data-testid="upsell"
        >
          <div>
            <h2 id="upsell-heading" className="text-lg font-semibold text-brand-900">
              {DASHBOARD_TEXT.upsellTitle}
            </h2>
            <p className="mt-1 max-w-2xl text-brand-900">{DASHBOARD_TEXT.upsellText}</p>
          </div>
          <Link to="/subscription" className={buttonClass("primary", "lg", "shrink-0")}>
            {DASHBOARD_TEXT.upsellTitle}
          </Link>
        </section>
      )}
    </div>
  );
}

/**
 * 'Welcome back, Ada!' for a creator who has made something; a new one, with no persona and
 * nothing generated yet, reads 'Welcome, Ada!'. Without a first name, 'there' in a line that
 * reads right.
 */
export function welcome(firstName: string | null | undefined, returning: boolean): string {
  if (returning) return firstName ? `Welcome back, ${firstName}!` : "Hello there, welcome back!";
  return firstName ? `Welcome, ${firstName}!` : "Hello there, welcome!";
}

/** Says why Active Personas is smaller than the plan's count: drafts and archived ones are not active. */
function ownedNote(active: number, owned: number): string | undefined {
  const others = owned - active;
  if (others <= 0) return undefined;
  return `+ ${others} ${others === 1 ? "draft or archived persona" : "drafts and archived personas"}`;
}

// Every stat card's title row has the height of the help button, so the numbers line up.
const statTitleRow = "flex h-6 items-center gap-2";

function StatCard({
  title,
  value,
  relativeTo,
  help,
  note,
}: {
  title: string;
  value: number;
  relativeTo: number;
  help?: string;
  note?: string;
}) {
  const id = useId();
  const percent = barPercent(value, relativeTo);
  return (
    <div
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
      data-testid={`stat-${title.toLowerCase().replace(/\s+/g, "-")}`}
    >
      <div className={statTitleRow}>
        <h2 id={`${id}-title`} className="text-sm font-medium text-slate-600">
          {title}
        </h2>
        {help ? <InfoTip id={`${id}-help`} text={help} label={`About ${title}`} /> : null}
      </div>
      <p className="mt-2 text-2xl font-bold text-slate-900">{value}</p>
      <div
        role="progressbar"
        aria-labelledby={`${id}-title`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${value} of ${relativeTo}`}
        className="mt-3 h-2 overflow-hidden rounded-full bg-slate-100"
      >
        <div className="h-full rounded-full bg-brand-600" style={{ width: `${percent}%` }} />
      </div>
      {note ? <p className="mt-2 text-sm text-slate-600">{note}</p> : null}
    </div>
  );
}

/** A tooltip that needs no JavaScript: shown on hover (after 700 ms, docs/product.md, Toasts) and on focus. */
function InfoTip({ id, text, label }: { id: string; text: string; label: string }) {
  return (
    <span className="group relative inline-flex">
      <button
        type="button"
        aria-describedby={id}
        className="flex h-6 w-6 items-center justify-center rounded-full border border-slate-300 text-xs font-bold text-slate-700 hover:bg-slate-100"
      >
        ?<span className="sr-only">{label}</span>
      </button>
      <span
        role="tooltip"
        id={id}
        className="pointer-events-none invisible absolute left-1/2 top-full z-10 mt-2 w-64 -translate-x-1/2 rounded-lg bg-slate-900 px-3 py-2 text-xs text-white opacity-0 shadow-lg transition-opacity delay-0 group-focus-within:visible group-focus-within:opacity-100 group-hover:visible group-hover:opacity-100 group-hover:delay-700"
      >
        {text}
      </span>
    </span>
  );
}

// An action behind a button, not a link (docs/product.md, Navigation shell), with the create gate in front of it.
function CreateButton({ className }: { className: string }) {
  return (
    <CreatePersonaButton className={`inline-flex items-center gap-2 rounded-lg px-5 py-2.5 font-semibold shadow-sm ${className}`}>
      <SparklesIcon />
      Create New Persona
    </CreatePersonaButton>
  );
}
