// /persona/{id}/history (docs/product.md, History): every version of the persona, newest first, 20 a page,
// each with its number, time (relative; the exact time on hover and focus), kind of change
// and a one-line summary; Compare (a GET form, and a link per version) and Restore.
import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";

import { HistoryErrorBoundary, RestoreVersionButton, VersionInput, VersionTime } from "~/components/persona-history";
import { HISTORY_TEXT } from "~/domain/persona-history";
import { parsePositiveInt } from "~/domain/persona-list";
import { relativeTime } from "~/domain/persona-display";
import { PRODUCT_NAME } from "~/domain/site";
import {
  fixNotesByVersion,
  listVersions,
  orHistoryNotFound,
  runSummariesByVersion,
  requireUser,
  responseHeaders,
} from "~/services/index.server";
import { Button, buttonClass } from "~/components/ui/button";

export const meta: MetaFunction<typeof loader> = ({ data: loaderData }) => [
  { title: `${loaderData ? `${HISTORY_TEXT.title}: ${loaderData.persona.name}` : "Persona Not Found"} · ${PRODUCT_NAME}` },
];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { user, ctx } = await requireUser(request, context);
  const headers = responseHeaders(ctx);
  const id = params.id ?? "";
  const page = parsePositiveInt(new URL(request.url).searchParams.get("page"), 1);
  const history = await orHistoryNotFound(headers, id, () => listVersions(user, id, { page }));
  // Each version's latest test run (docs/product.md, Persona tests), next to the version that caused it.
  const versions = history.items.map((item) => item.version);
  const [tests, fixNotes] = await Promise.all([runSummariesByVersion(user, id, versions), fixNotesByVersion(user, id, versions)]);
  // 'an hour ago' is worked out here, so the page's data says everything the page shows.
  const now = new Date();
  const items = history.items.map((item) => ({ ...item, createdAgo: relativeTime(item.createdAt, now) }));
  return data({ ...history, items, tests, fixNotes }, { headers });
}

const button = buttonClass("secondary", "xs");

export default function PersonaHistory() {
  const { persona, items, latest, page, pageCount, tests, fixNotes } = useLoaderData<typeof loader>();
  const base = `/persona/${persona.id}/history`;
  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <div>
        <Link to={`/persona/${persona.id}`} className="text-sm font-medium text-brand-800 underline">
          <span aria-hidden="true">←</span> Back to {persona.name}
        </Link>
        <h1 className="mt-3 text-3xl font-bold text-slate-900">
          {HISTORY_TEXT.title}: {persona.name}
        </h1>
        <p className="mt-1 text-slate-700">
          Every change is kept as a version. Compare any two, or bring one back: restoring makes a new version and the history stays.
        </p>
      </div>

      <section aria-labelledby="compare-heading" className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
        <h2 id="compare-heading" className="font-semibold text-slate-900">
          {HISTORY_TEXT.compareTitle}
        </h2>
        <Form method="get" action={`${base}/compare`} className="mt-3 flex flex-wrap items-end gap-3">
          <VersionInput name="from" label={HISTORY_TEXT.from} latest={latest} value={Math.max(1, latest - 1)} />
          <VersionInput name="to" label={HISTORY_TEXT.to} latest={latest} value={latest} />
          <Button type="submit" size="md">
            {HISTORY_TEXT.showDifferences}
          </Button>
        </Form>
      </section>

      <section aria-labelledby="versions-heading">
        <h2 id="versions-heading" className="sr-only">
          Versions
        </h2>
        <ol className="space-y-3" data-testid="versions">
          {items.map((item) => (
            <li
              key={item.version}
              className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm"
              data-testid={`version-${item.version}`}
            >
              <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                <h3 className="font-semibold text-slate-900">{HISTORY_TEXT.version(item.version)}</h3>
                {item.version === latest ? (
                  <span className="rounded-full bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-900">{HISTORY_TEXT.current}</span>
                ) : null}
                <span className="text-sm text-slate-700">{item.label}</span>
                <span className="text-sm text-slate-700">
                  <VersionTime at={item.createdAt} ago={item.createdAgo} />
                </span>
              </div>
              <p className="mt-1 text-slate-800">{item.summary}</p>
              {tests[item.version] ? (
                <p
                  className={`mt-1 text-sm font-medium ${tests[item.version]!.failed ? "text-red-800" : "text-emerald-800"}`}
                  data-testid="version-tests"
                  data-status={tests[item.version]!.failed ? "failed" : "passed"}
                  dir="auto"
                >
                  <span className="sr-only">Tests: </span>
                  {tests[item.version]!.text}
                </p>
              ) : null}
              {fixNotes[item.version]?.map((note, i) => (
                <p key={i} className="mt-1 text-sm text-slate-700" data-testid="version-fix-note" dir="auto">
                  {note}
                </p>
              ))}
              <div className="mt-3 flex flex-wrap gap-2">
                {item.version > 1 ? (
                  <Link to={`${base}/compare?from=${item.version - 1}&to=${item.version}`} className={button}>
                    {HISTORY_TEXT.compare}
                    <span className="sr-only">
                      {" "}
                      version {item.version} with version {item.version - 1}
                    </span>
                  </Link>
                ) : null}
                {item.version !== latest ? <RestoreVersionButton personaId={persona.id} version={item.version} /> : null}
              </div>
            </li>
          ))}
        </ol>
      </section>

      {pageCount > 1 ? (
        <nav aria-label="Pages" className="flex items-center justify-between gap-3">
          {page > 1 ? (
            <Link to={`${base}?page=${page - 1}`} className={button} rel="prev">
              <span aria-hidden="true">←</span> Newer
            </Link>
          ) : (
            <span />
          )}
          <p className="text-sm text-slate-700">
            Page {page} of {pageCount}
          </p>
          {page < pageCount ? (
            <Link to={`${base}?page=${page + 1}`} className={button} rel="next">
              Older <span aria-hidden="true">→</span>
            </Link>
          ) : (
            <span />
          )}
        </nav>
      ) : null}
    </div>
  );
}

export const ErrorBoundary = HistoryErrorBoundary;
