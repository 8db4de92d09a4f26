// /dashboard (SPEC §1, §2): the welcome banner with the Create New Persona button. Stats,
// recent personas and the upsell join it with the persona features.
import type { MetaFunction } from "@remix-run/node";
import { useRouteLoaderData } from "@remix-run/react";

import { CreatePersonaButton } from "~/components/create-gate";
import { SparklesIcon, UserIcon } from "~/components/ui/icons";
import { PRODUCT_NAME } from "~/domain/site";

import type { loader as appLoader } from "./_app";

export const meta: MetaFunction = () => [{ title: `Dashboard · ${PRODUCT_NAME}` }];

const DASHBOARD_TEXT = {
  tagline: "Ready to Create Some Magic?",
  description: "Design unique AI characters with personalities, stories, and dynamic conversations.",
} as const;

export default function Dashboard() {
  const user = useRouteLoaderData<typeof appLoader>("routes/_app")?.user;
  const firstName = user?.firstName?.trim() || "there";

  return (
    <div className="mx-auto max-w-6xl space-y-8">
      <section
        aria-labelledby="welcome-heading"
        className="overflow-hidden rounded-2xl bg-gradient-to-br from-brand-700 to-brand-900 p-6 text-white shadow-sm sm:p-8"
      >
        <h1 id="welcome-heading" className="text-2xl font-bold sm:text-3xl">
          Welcome back, {firstName}!
        </h1>
        <p className="mt-2 text-lg font-medium text-brand-100">{DASHBOARD_TEXT.tagline}</p>
        <p className="mt-1 max-w-2xl text-brand-100">{DASHBOARD_TEXT.description}</p>
        <CreateButton className="mt-6 bg-white text-brand-800 hover:bg-brand-50" />
      </section>

      <section
        aria-labelledby="personas-heading"
        className="rounded-2xl border border-dashed border-slate-300 bg-white p-8 text-center"
      >
        <span className="mx-auto flex h-12 w-12 items-center justify-center rounded-full bg-brand-50 text-2xl text-brand-700">
          <UserIcon />
        </span>
        <h2 id="personas-heading" className="mt-4 text-lg font-semibold text-slate-900">
          Your personas will appear here
        </h2>
        <p className="mx-auto mt-1 max-w-md text-slate-600">
          Give your first character a name, a personality and a story. It takes a few minutes.
        </p>
        <CreateButton className="mt-5 bg-brand-700 text-white hover:bg-brand-800" />
      </section>
    </div>
  );
}

// An action behind a button, not a link (SPEC §2), with the create gate in front of it.
function CreateButton({ className }: { className: string }) {
  return (
    <CreatePersonaButton className={`inline-flex items-center gap-2 rounded-lg px-5 py-2.5 font-semibold shadow-sm ${className}`}>
      <SparklesIcon />
      Create New Persona
    </CreatePersonaButton>
  );
}
