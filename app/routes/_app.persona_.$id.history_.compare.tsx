// /persona/{id}/history/compare?from=3&to=7 (docs/product.md, History): two versions field by field, changed
// fields first; lists as added and removed items; the description and backstory word by word,
// insertions and deletions marked by more than colour. Without from/to: the previous and the
// current version. A GET form picks the versions, so it works without JavaScript.
import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";

import { HistoryErrorBoundary, RestoreVersionButton, VersionInput, VersionTime, WordDiff } from "~/components/persona-history";
import { HISTORY_TEXT, parseVersionNumber, type FieldComparison } from "~/domain/persona-history";
import { condense, type DisplayPart } from "~/domain/word-diff";
import { relativeTime } from "~/domain/persona-display";
import { PRODUCT_NAME } from "~/domain/site";
import { compare, orHistoryNotFound, runSummariesByVersion, requireUser, responseHeaders } from "~/services/index.server";
import { Button } from "~/components/ui/button";

export const meta: MetaFunction<typeof loader> = ({ data: loaderData }) => [
  {
    title: `${loaderData ? `${HISTORY_TEXT.compareTitle} ${loaderData.from} and ${loaderData.to}: ${loaderData.persona.name}` : "Not Found"} · ${PRODUCT_NAME}`,
  },
];

/** Absent or empty: the default; anything else must be a version number (else 404). */
function versionParam(query: URLSearchParams, key: string): number | null | undefined {
  const value = query.get(key);
  return value === null || value === "" ? undefined : parseVersionNumber(value.trim());
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { user, ctx } = await requireUser(request, context);
  const headers = responseHeaders(ctx);
  const id = params.id ?? "";
  const query = new URL(request.url).searchParams;
  const result = await orHistoryNotFound(headers, id, () => compare(user, id, versionParam(query, "from"), versionParam(query, "to")));
  // The test results of both versions (docs/product.md, Persona tests).
  const tests = await runSummariesByVersion(user, id, [result.fromVersion.version, result.toVersion.version]);
  // 'an hour ago' is worked out here, so the page's data says everything the page shows.
  const now = new Date();
  const side = (v: typeof result.fromVersion) => ({
    version: v.version,
    label: v.label,
    createdAt: v.createdAt,
    createdAgo: relativeTime(v.createdAt, now),
    tests: tests[v.version] ?? null,
  });
  return data(
    {
      persona: result.persona,
      from: result.from,
      to: result.to,
      latest: result.latest,
      changed: result.changed,
      fields: shownFields(result.fields),
      sides: [side(result.fromVersion), side(result.toVersion)],
    },
    { headers },
  );
}

export default function CompareVersions() {
  const { persona, from, to, latest, changed, fields, sides } = useLoaderData<typeof loader>();
  const changedFields = fields.filter((f) => f.changed);
  const unchanged = fields.filter((f) => !f.changed);
  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <div>
        <Link to={`/persona/${persona.id}/history`} className="text-sm font-medium text-brand-800 underline">
          <span aria-hidden="true">←</span> {HISTORY_TEXT.title}: {persona.name}
        </Link>
        <h1 className="mt-3 text-3xl font-bold text-slate-900">
          {HISTORY_TEXT.compareTitle} {from} and {to}
        </h1>
        <p className="mt-1 text-slate-700">{persona.name}</p>
      </div>

      <Form method="get" className="flex flex-wrap items-end gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
        <VersionInput name="from" label={HISTORY_TEXT.from} latest={latest} value={from} />
        <VersionInput name="to" label={HISTORY_TEXT.to} latest={latest} value={to} />
        <Button type="submit" size="md">
          {HISTORY_TEXT.showDifferences}
        </Button>
      </Form>

      <dl className="grid gap-3 sm:grid-cols-2">
        {sides.map((side, i) => (
          <div key={i} className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
            <dt className="text-sm font-medium text-slate-600">{i === 0 ? HISTORY_TEXT.from : HISTORY_TEXT.to}</dt>
            <dd className="mt-1">
              <span className="font-semibold text-slate-900">{HISTORY_TEXT.version(side.version)}</span>
              {side.version === latest ? <span className="ml-2 text-sm text-slate-700">({HISTORY_TEXT.current})</span> : null}
              <span className="block text-sm text-slate-700">
                {side.label} · <VersionTime at={side.createdAt} ago={side.createdAgo} />
              </span>
              {side.tests ? (
                <span
                  className={`mt-1 block text-sm font-medium ${side.tests.failed ? "text-red-800" : "text-emerald-800"}`}
                  data-testid="compare-tests"
                  dir="auto"
                >
                  Tests: {side.tests.text}
                </span>
              ) : null}
              {side.version !== latest ? (
                <span className="mt-2 block">
                  <RestoreVersionButton personaId={persona.id} version={side.version} />
                </span>
              ) : null}
            </dd>
          </div>
        ))}
      </dl>

      {changed ? (
        <section aria-labelledby="changed-heading" className="space-y-4">
          <h2 id="changed-heading" className="text-xl font-semibold text-slate-900">
            Changed ({changedFields.length})
          </h2>
          {changedFields.map((field) => (
            <FieldCard key={field.field} field={field} />
          ))}
        </section>
      ) : (
        <p
          className="rounded-2xl border border-slate-200 bg-white p-6 text-center text-lg font-semibold text-slate-900 shadow-sm"
          role="status"
        >
          {HISTORY_TEXT.noDifferences}
        </p>
      )}

      <section aria-labelledby="unchanged-heading" className="space-y-4">
        <h2 id="unchanged-heading" className="text-xl font-semibold text-slate-900">
          {HISTORY_TEXT.unchanged} ({unchanged.length})
        </h2>
        <ul className="grid gap-2 rounded-2xl border border-slate-200 bg-white p-4 text-sm shadow-sm sm:grid-cols-2">
          {unchanged.map((field) => (
            <li key={field.field}>
              <span className="font-medium text-slate-700">{field.label}:</span>{" "}
              {field.field === "imageUrl" && field.kind === "value" ? (
                <Thumbnail src={field.to} label={field.label} />
              ) : (
                <span className="text-slate-900">{unchangedValue(field)}</span>
              )}
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

// The page shows a changed text around its changes and an unchanged one as a preview; the
// whole texts stay out of the HTML (the API answers with every part). A comparison's fields
// are worked out once and kept while the comparison is (persona-history.server.ts), and so
// are these.
const shown = new WeakMap<FieldComparison[], ShownField[]>();

function shownFields(fields: FieldComparison[]): ShownField[] {
  let found = shown.get(fields);
  if (!found) {
    found = fields.map((field): ShownField => {
      if (field.kind !== "text") return field;
      if (field.changed) return { ...field, parts: condense(field.parts) };
      return { ...field, parts: [{ op: "same" as const, text: preview(field.parts.map((p) => p.text).join("")) }] };
    });
    shown.set(fields, found);
  }
  return found;
}

function preview(text: string): string {
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
}

type ShownField =
  Exclude<FieldComparison, { kind: "text" }> | (Omit<Extract<FieldComparison, { kind: "text" }>, "parts"> & { parts: DisplayPart[] });

function unchangedValue(field: ShownField): string {
  if (field.kind === "value") return field.to;
  if (field.kind === "list") return field.kept.join(", ") || HISTORY_TEXT.empty;
  const text = field.parts.map((p) => ("text" in p ? p.text : "")).join("");
  return text || HISTORY_TEXT.empty;
}

/** A reference image as it reads in a comparison: a thumbnail, or 'Empty'. */
function Thumbnail({ src, label }: { src: string; label: string }) {
  if (!src.startsWith("/images/")) return <span className="text-slate-600">{src}</span>;
  return (
    <img
      src={src}
      alt={label}
      width={96}
      height={96}
      loading="lazy"
      className="h-24 w-24 rounded-lg border border-slate-200 object-cover"
    />
  );
}

function ImageChange({ from, to }: { from: string; to: string }) {
  return (
    <div className="flex items-center gap-3">
      <figure>
        <Thumbnail src={from} label={HISTORY_TEXT.removed} />
        <figcaption className="mt-1 text-xs text-slate-600">{HISTORY_TEXT.removed}</figcaption>
      </figure>
      <span aria-hidden="true">→</span>
      <figure>
        <Thumbnail src={to} label={HISTORY_TEXT.added} />
        <figcaption className="mt-1 text-xs text-slate-600">{HISTORY_TEXT.added}</figcaption>
      </figure>
    </div>
  );
}

function FieldCard({ field }: { field: ShownField }) {
  const headingId = `field-${field.field}`;
  return (
    <article
      aria-labelledby={headingId}
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
      data-testid={`changed-${field.field}`}
    >
      <h3 id={headingId} className="font-semibold text-slate-900">
        {field.label}
      </h3>
      <div className="mt-2">
        {field.field === "imageUrl" && field.kind === "value" ? (
          <ImageChange from={field.from} to={field.to} />
        ) : field.kind === "value" ? (
          <p className="text-slate-800">
            <del className="rounded-sm bg-red-100 text-red-900 line-through decoration-2">
              <span className="sr-only">[{HISTORY_TEXT.removed}: </span>
              {field.from}
              <span className="sr-only">]</span>
            </del>{" "}
            <span aria-hidden="true">→</span>{" "}
            <ins className="rounded-sm bg-green-100 text-green-900 underline decoration-2 underline-offset-2">
              <span className="sr-only">[{HISTORY_TEXT.added}: </span>
              {field.to}
              <span className="sr-only">]</span>
            </ins>
          </p>
        ) : field.kind === "list" ? (
          <dl className="grid gap-1 text-sm sm:grid-cols-[auto,1fr] sm:gap-x-4">
            {field.added.length ? (
              <>
                <dt className="font-medium text-slate-700">{HISTORY_TEXT.added}</dt>
                <dd>
                  {field.added.map((item) => (
                    <ins
                      key={item}
                      className="mr-2 inline-block rounded-full bg-green-100 px-2 py-0.5 text-green-900 underline decoration-2"
                    >
                      +{item}
                    </ins>
                  ))}
                </dd>
              </>
            ) : null}
            {field.removed.length ? (
              <>
                <dt className="font-medium text-slate-700">{HISTORY_TEXT.removed}</dt>
                <dd>
                  {field.removed.map((item) => (
                    <del
                      key={item}
                      className="mr-2 inline-block rounded-full bg-red-100 px-2 py-0.5 text-red-900 line-through decoration-2"
                    >
                      −{item}
                    </del>
                  ))}
                </dd>
              </>
            ) : null}
            {field.kept.length ? (
              <>
                <dt className="font-medium text-slate-700">{HISTORY_TEXT.kept}</dt>
                <dd className="text-slate-900">{field.kept.join(", ")}</dd>
              </>
            ) : null}
          </dl>
        ) : (
          <WordDiff parts={field.parts} />
        )}
      </div>
    </article>
  );
}

export const ErrorBoundary = HistoryErrorBoundary;
