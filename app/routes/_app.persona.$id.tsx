// /persona/{id}, Full Profile (SPEC §2): header with the status badge, Continue Creating or
// Edit, the Download menu, Archive/Restore and Delete; the no-image box, Basic Information,
// interests, traits, description, backstory and the Extended Persona Profile. Unknown ids
// and other users' personas both get 'Persona Not Found' (404).
import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";

import { DownloadMenu } from "~/components/download-menu";
import { DeletePersonaButton, StatusBadge, StatusButton } from "~/components/persona-card";
import { PersonaErrorBoundary } from "~/components/persona-not-found";
import { ImageIcon, PencilIcon, RestoreIcon, UserIcon } from "~/components/ui/icons";
import { EXTENDED_PROFILE_NOTE, EXTENDED_PROFILE_SECTIONS, EXTENDED_PROFILE_TITLE, extendedProfileValue } from "~/domain/extended-profile";
import { HISTORY_TEXT } from "~/domain/persona-history";
import { GENDER_LABELS, PERSONA_PAGE_TEXT, relativeTime, reviewFallbacks, statusBadge, typeLabel } from "~/domain/persona-display";
import { downloadItems, personaExtended } from "~/services/persona-export.server";
import { PRODUCT_NAME } from "~/domain/site";
import { getPersona } from "~/services/personas.server";
import { orNotFound, requireUser, responseHeaders } from "~/services/session.server";

export const meta: MetaFunction<typeof loader> = ({ data: loaderData }) => [
  { title: `${loaderData?.persona.name ?? PERSONA_PAGE_TEXT.notFoundTitle} · ${PRODUCT_NAME}` },
];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { user, ctx } = await requireUser(request, context);
  const { cardMeta: _cardMeta, extended: stored, ...persona } = await orNotFound(ctx, () => getPersona(user, params.id ?? ""));
  const extended = personaExtended({ ...persona, extended: stored });
  return data({ persona, extended, downloads: downloadItems(persona), now: new Date().toISOString() }, { headers: responseHeaders(ctx) });
}

function Card({ title, children, id }: { title: string; children: React.ReactNode; id: string }) {
  return (
    <section aria-labelledby={id} className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
      <h2 id={id} className="text-lg font-semibold text-slate-900">
        {title}
      </h2>
      <div className="mt-3">{children}</div>
    </section>
  );
}

function Chips({ items, empty }: { items: string[]; empty: string }) {
  if (items.length === 0) return <p className="text-slate-600">{empty}</p>;
  return (
    <ul className="flex flex-wrap gap-2">
      {items.map((item) => (
        <li key={item} className="rounded-full bg-brand-50 px-3 py-1 text-sm font-medium capitalize text-brand-900">
          {item}
        </li>
      ))}
    </ul>
  );
}

export default function PersonaPage() {
  const { persona, extended, downloads, now } = useLoaderData<typeof loader>();
  const badge = statusBadge(persona.status);
  const facts: [string, string][] = [
    ["Created", relativeTime(persona.createdAt, new Date(now))],
    ["Type", typeLabel(persona.type)],
    ["Gender", persona.gender ? (GENDER_LABELS[persona.gender as keyof typeof GENDER_LABELS] ?? persona.gender) : reviewFallbacks.notSpecified],
    ["Age range", persona.ageRange ?? reviewFallbacks.notSpecified],
    ["Status", badge.label],
  ];

  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <div>
        <Link to="/my-personas" className="text-sm font-medium text-brand-800 underline">
          ← {PERSONA_PAGE_TEXT.back}
        </Link>
        <div className="mt-3 flex flex-wrap items-center gap-3">
          <h1 className="text-3xl font-bold text-slate-900">{persona.name}</h1>
          <StatusBadge status={persona.status} />
          <div className="flex flex-wrap items-center gap-2 sm:ml-auto">
            {persona.status === "in_progress" ? (
              <Link
                to={`/create-persona?id=${persona.id}`}
                className="rounded-lg bg-brand-700 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-brand-800"
              >
                {PERSONA_PAGE_TEXT.continueCreating}
              </Link>
            ) : (
              <Link
                to={`/persona/${persona.id}/edit`}
                className="inline-flex items-center gap-2 rounded-lg bg-brand-700 px-3 py-2 text-sm font-semibold text-white shadow-sm hover:bg-brand-800"
              >
                <PencilIcon />
                {PERSONA_PAGE_TEXT.edit}
              </Link>
            )}
            <DownloadMenu items={downloads} />
            <Link
              to={`/persona/${persona.id}/history`}
              className="inline-flex items-center gap-2 rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50"
            >
              <RestoreIcon />
              {HISTORY_TEXT.link}
            </Link>
            <StatusButton
              persona={persona}
              change={persona.status === "archived" ? "restore" : "archive"}
              returnTo={`/persona/${persona.id}`}
              variant="text"
            />
            <DeletePersonaButton persona={persona} returnTo="/my-personas" variant="text" />
          </div>
        </div>
        <p className="mt-1 text-slate-700">{typeLabel(persona.type)}</p>
      </div>

      <h2 className="sr-only">{PERSONA_PAGE_TEXT.fullProfile}</h2>
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="space-y-6">
          <div className="flex aspect-square flex-col items-center justify-center gap-2 rounded-2xl border-2 border-dashed border-slate-300 bg-slate-50 text-slate-600">
            {persona.imageUrl ? (
              <img src={persona.imageUrl} alt={`Reference image of ${persona.name}`} className="h-full w-full rounded-2xl object-cover" />
            ) : (
              <>
                <ImageIcon className="text-5xl" />
                <p>{PERSONA_PAGE_TEXT.noImage}</p>
              </>
            )}
          </div>
          <Card title={PERSONA_PAGE_TEXT.basicInformation} id="basic-information">
            <dl className="grid grid-cols-[auto,1fr] gap-x-4 gap-y-2 text-sm">
              {facts.map(([label, value]) => (
                <div key={label} className="contents">
                  <dt className="font-medium text-slate-600">{label}</dt>
                  <dd className="text-slate-900">
                    {label === "Created" ? (
                      <time dateTime={new Date(persona.createdAt).toISOString()} suppressHydrationWarning>
                        {value}
                      </time>
                    ) : (
                      value
                    )}
                  </dd>
                </div>
              ))}
            </dl>
          </Card>
        </div>

        <div className="space-y-6 lg:col-span-2">
          <Card title="Interests" id="interests">
            <Chips items={persona.interests} empty={reviewFallbacks.interests} />
          </Card>
          <Card title="Personality Traits" id="traits">
            <Chips items={persona.personality} empty={reviewFallbacks.personality} />
          </Card>
          <Card title="Description" id="description">
            <p className="text-slate-800">{persona.description || reviewFallbacks.description}</p>
          </Card>
          <Card title="Backstory" id="backstory">
            {persona.backstory ? (
              <div className="space-y-3 text-slate-800">
                {persona.backstory.split(/\n{2,}/).map((paragraph, i) => (
                  <p key={i}>{paragraph}</p>
                ))}
              </div>
            ) : (
              <p className="text-slate-600">{reviewFallbacks.backstory}</p>
            )}
          </Card>
        </div>
      </div>

      <Card title={EXTENDED_PROFILE_TITLE} id="extended-profile">
        <div className="grid gap-6 md:grid-cols-2">
          {EXTENDED_PROFILE_SECTIONS.map((section) => (
            <section key={section.title} aria-label={section.title}>
              <h3 className="font-semibold text-slate-900">{section.title}</h3>
              <dl className="mt-2 space-y-2 text-sm">
                {section.fields.map((field) => {
                  const value = extendedProfileValue(extended, field.key);
                  return (
                    <div key={field.key}>
                      <dt className="font-medium text-slate-600">{field.label}</dt>
                      <dd className="text-slate-900">{Array.isArray(value) ? value.join(", ") : value}</dd>
                    </div>
                  );
                })}
              </dl>
            </section>
          ))}
        </div>
        <p className="mt-6 flex items-center gap-2 text-sm text-slate-600">
          <UserIcon /> {EXTENDED_PROFILE_NOTE}
        </p>
      </Card>
    </div>
  );
}

export const ErrorBoundary = PersonaErrorBoundary;
