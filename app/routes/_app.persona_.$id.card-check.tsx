// /persona/{id}/card-check (docs/cards.md, Card check): what other chat front ends will keep,
// use, misread or drop of this persona's card, each finding with its severity, field, the front
// ends it affects and a plain explanation; a safe fix is one button (a plain form post, with
// JavaScript or without), written as a new version with a history note. Below, what the imported
// file had that the export writes right.
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect } from "react";

import { PersonaErrorBoundary } from "~/components/persona-not-found";
import { CARD_FATE_LABELS, type CardFate } from "~/domain/card-survival";
import { CARD_CHECK_TEXT, CARD_SEVERITY_LABELS, CARD_TARGET_LABELS, CARD_TARGET_RUN_TEXT, type CardTarget } from "~/domain/card-targets";
import { PRODUCT_NAME } from "~/domain/site";
import {
  ServiceError,
  cardCheckPage,
  fixCardFinding,
  startCardTargetRun,
  orNotFound,
  readFormData,
  redirectWithToast,
  requireUser,
  responseHeaders,
} from "~/services/index.server";
import { Button } from "~/components/ui/button";

export const meta: MetaFunction<typeof loader> = ({ data: loaderData }) => [
  { title: `${loaderData ? `${CARD_CHECK_TEXT.title}: ${loaderData.persona.name}` : "Persona Not Found"} · ${PRODUCT_NAME}` },
];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { user, ctx } = await requireUser(request, context);
  const id = params.id ?? "";
  const { persona, check } = await orNotFound(ctx, () => cardCheckPage(user, id));
  return data({ persona, ...check }, { headers: responseHeaders(ctx) });
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { user, ctx } = await requireUser(request, context);
  const form = await readFormData(request);
  const id = params.id ?? "";
  const back = `/persona/${id}/card-check`;
  const headers = responseHeaders(ctx);
  if (form.get("intent") === "run-targets") {
    try {
      await orNotFound(ctx, () => startCardTargetRun(user, id));
      return redirectWithToast(`${back}#behaviour-heading`, { type: "success", ...CARD_TARGET_RUN_TEXT.started }, { headers });
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      if (error.retryAfterSeconds) headers.set("Retry-After", String(error.retryAfterSeconds));
      return redirectWithToast(back, { type: "error", title: "Tests Not Started", description: error.message }, { headers });
    }
  }
  try {
    const { note } = await orNotFound(ctx, () =>
      fixCardFinding(user, id, { rule: form.get("rule"), field: form.get("field"), version: form.get("version") }),
    );
    return redirectWithToast(
      back,
      { type: "success", title: CARD_CHECK_TEXT.fixDone, description: `${note.replace(/^Card check: /, "")}.` },
      { headers },
    );
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    return redirectWithToast(back, { type: "error", title: CARD_CHECK_TEXT.fixFailed, description: error.message }, { headers });
  }
}

const SEVERITY_STYLES = {
  error: "border-red-300 bg-red-50 text-red-900",
  warning: "border-amber-300 bg-amber-50 text-amber-900",
  info: "border-slate-300 bg-slate-50 text-slate-800",
} as const;

interface Finding {
  rule: string;
  severity: keyof typeof SEVERITY_STYLES;
  field: string;
  targets: string[];
  message: string;
  fix?: string;
}

function targetNames(targets: readonly string[]): string {
  return targets.map((target) => CARD_TARGET_LABELS[target as CardTarget] ?? target).join(", ");
}

function FindingItem({ finding, personaId, version, busy }: { finding: Finding; personaId: string; version?: number; busy: boolean }) {
  return (
    <li className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm" data-testid="card-finding" data-rule={finding.rule}>
      <div className="flex flex-wrap items-center gap-2">
        <span className={`rounded-full border px-2 py-0.5 text-xs font-semibold ${SEVERITY_STYLES[finding.severity]}`}>
          {CARD_SEVERITY_LABELS[finding.severity]}
        </span>
        <code className="break-all rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-800">{finding.field}</code>
        <span className="text-sm text-slate-700">
          <span className="sr-only">Affects </span>
          {targetNames(finding.targets)}
        </span>
      </div>
      <p className="mt-2 text-slate-900" dir="auto">
        {finding.message}
      </p>
      {finding.fix && version !== undefined ? (
        <Form method="post" action={`/persona/${personaId}/card-check`} className="mt-3">
          <input type="hidden" name="rule" value={finding.rule} />
          <input type="hidden" name="field" value={finding.field} />
          <input type="hidden" name="version" value={version} />
          <button
            type="submit"
            disabled={busy}
            className="rounded-lg border border-brand-300 bg-white px-3 py-1.5 text-sm font-medium text-brand-800 hover:bg-brand-50 disabled:opacity-60"
          >
            {finding.fix}
            <span className="sr-only"> ({finding.field})</span>
          </button>
        </Form>
      ) : null}
    </li>
  );
}

function countLine(findings: readonly Finding[]): string {
  const counts = { error: 0, warning: 0, info: 0 };
  for (const finding of findings) counts[finding.severity]++;
  const parts = [
    counts.error && `${counts.error} ${counts.error === 1 ? "error" : "errors"}`,
    counts.warning && `${counts.warning} ${counts.warning === 1 ? "warning" : "warnings"}`,
    counts.info && `${counts.info} ${counts.info === 1 ? "note" : "notes"}`,
  ].filter(Boolean);
  return `${parts.join(", ")}.`;
}

/** How often the page looks again while a run is under way. */
const POLL_MS = 1_500;

const BEHAVIOUR_TEXT = {
  title: "Your tests in each app",
  intro:
    "Runs the persona's enabled tests against the persona as each app's prompt would carry it: only the card texts that app reads, and its lorebook rules. An approximation of each app, described in the card guide.",
  none: (version: number) => `No run of version ${version} yet.`,
} as const;

/** 'Your tests pass 12/12 here, 11/12 in SillyTavern, …'. */
function behaviourSentence(here: { passed: number; failed: number } | null, targets: readonly Survival[]): string {
  const parts = targets
    .filter((target) => target.tests && target.tests.status === "completed")
    .map((target) => {
      const tests = target.tests!;
      return `${tests.passed}/${tests.passed + tests.failed} in ${CARD_TARGET_LABELS[target.target as CardTarget] ?? target.target}`;
    });
  const start = here ? `Your tests pass ${here.passed}/${here.passed + here.failed} here` : "Your tests pass";
  return `${start}${parts.length ? `, ${parts.join(", ")}` : ""}.`;
}

const FATE_STYLES: Record<CardFate, string> = {
  used: "text-emerald-800",
  kept: "text-slate-700",
  changed: "text-amber-800",
  dropped: "text-red-800",
};

interface Survival {
  target: string;
  fields: { field: string; fate: CardFate; note: string }[];
  unsourced: string[];
  tests: { version: number; passed: number; failed: number; status: string } | null;
  losses: string[];
}

/** 'Tests 11/12 pass' for a front end, or where its run is. */
function testsLine(tests: Survival["tests"]): string | null {
  if (!tests) return null;
  if (tests.status === "queued" || tests.status === "running") return "tests running…";
  if (tests.status === "failed") return "tests not run";
  return `tests ${tests.passed}/${tests.passed + tests.failed} pass`;
}

function SurvivalTable({ target }: { target: Survival }) {
  const label = CARD_TARGET_LABELS[target.target as CardTarget] ?? target.target;
  const dropped = target.fields.filter((field) => field.fate === "dropped").length;
  const changed = target.fields.filter((field) => field.fate === "changed").length;
  const summary =
    [dropped && `${dropped} dropped`, changed && `${changed} changed`].filter(Boolean).join(", ") || "nothing dropped or changed";
  return (
    <details className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm" data-testid={`survival-${target.target}`}>
      <summary className="cursor-pointer font-semibold text-slate-900">
        {label}:{" "}
        <span className="font-normal text-slate-700">
          {summary}
          {testsLine(target.tests) ? <span data-testid={`tests-${target.target}`}>; {testsLine(target.tests)}</span> : null}
        </span>
      </summary>
      {target.losses.length > 0 ? (
        <p className="mt-2 text-sm text-slate-800">
          Not in what {label} gives the model: {target.losses.join("; ")}.
        </p>
      ) : null}
      <table className="mt-3 w-full text-left text-sm">
        <caption className="sr-only">What {label} does with this card's fields</caption>
        <thead>
          <tr className="border-b border-slate-200">
            <th scope="col" className="py-1 pr-3 font-semibold">
              Field
            </th>
            <th scope="col" className="py-1 pr-3 font-semibold">
              In {label}
            </th>
            <th scope="col" className="py-1 font-semibold">
              Note
            </th>
          </tr>
        </thead>
        <tbody>
          {target.fields.map((field) => (
            <tr key={field.field} className="border-b border-slate-100 align-top">
              <th scope="row" className="py-1 pr-3 font-normal">
                <code className="break-all text-xs">{field.field}</code>
              </th>
              <td className={`py-1 pr-3 font-medium ${FATE_STYLES[field.fate]}`}>{CARD_FATE_LABELS[field.fate]}</td>
              <td className="py-1 text-slate-700">{field.note}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {target.unsourced.length > 0 ? (
        <p className="mt-2 text-sm text-slate-700">
          Not publicly documented for {label}: {target.unsourced.join(", ")}.
        </p>
      ) : null}
    </details>
  );
}

export default function CardCheck() {
  const { persona, version, findings, imported, survival, here, run } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const pending = run?.status === "queued" || run?.status === "running";
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!pending) return;
    const timer = setTimeout(() => {
      if (revalidator.state === "idle") revalidator.revalidate();
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [pending, revalidator]);
  return (
    <div className="mx-auto max-w-4xl space-y-6">
      {/* Without JavaScript only: the page refreshes itself while the run is under way (to the address
          without a #fragment, which a refresh would only scroll to). */}
      {pending ? (
        <noscript>
          <meta httpEquiv="refresh" content={`2;url=/persona/${persona.id}/card-check`} />
        </noscript>
      ) : null}
      <div>
        <Link to={`/persona/${persona.id}`} className="text-sm font-medium text-brand-800 underline">
          <span aria-hidden="true">←</span> Back to {persona.name}
        </Link>
        <h1 className="mt-3 text-3xl font-bold text-slate-900">
          {CARD_CHECK_TEXT.title}: {persona.name}
        </h1>
        <p className="mt-1 text-slate-700">{CARD_CHECK_TEXT.intro}</p>
      </div>

      <section aria-labelledby="findings-heading">
        <h2 id="findings-heading" className="text-xl font-semibold text-slate-900">
          Findings
        </h2>
        {findings.length === 0 ? (
          <p className="mt-2 text-slate-800" data-testid="card-check-clean">
            {CARD_CHECK_TEXT.none}
          </p>
        ) : (
          <>
            <p className="mt-1 text-slate-700" data-testid="card-check-counts">
              {countLine(findings as Finding[])}
            </p>
            <ul className="mt-3 space-y-3" aria-label="Findings">
              {(findings as Finding[]).map((finding, index) => (
                <FindingItem
                  key={`${finding.rule}-${finding.field}-${index}`}
                  finding={finding}
                  personaId={persona.id}
                  version={version}
                  busy={busy}
                />
              ))}
            </ul>
          </>
        )}
      </section>

      <section aria-labelledby="survival-heading">
        <h2 id="survival-heading" className="text-xl font-semibold text-slate-900">
          {CARD_CHECK_TEXT.survivalTitle}
        </h2>
        <p className="mt-1 text-slate-700">{CARD_CHECK_TEXT.survivalIntro}</p>
        <div className="mt-3 space-y-2">
          {survival.map((target) => (
            <SurvivalTable key={target.target} target={target} />
          ))}
        </div>
      </section>

      <section aria-labelledby="behaviour-heading">
        <h2 id="behaviour-heading" className="text-xl font-semibold text-slate-900">
          {BEHAVIOUR_TEXT.title}
        </h2>
        <p className="mt-1 text-slate-700">{BEHAVIOUR_TEXT.intro}</p>
        <div role="status" className="mt-3" data-testid="behaviour-status">
          {run === null ? (
            <p className="text-slate-800">{BEHAVIOUR_TEXT.none(version)}</p>
          ) : pending ? (
            <p className="text-slate-800">{CARD_TARGET_RUN_TEXT.running}</p>
          ) : run.status === "failed" ? (
            <p className="text-red-800">{run.error ?? "The run could not finish."}</p>
          ) : (
            <p className="text-slate-900" data-testid="behaviour-summary">
              {behaviourSentence(here, survival)}
            </p>
          )}
        </div>
        {run && !pending ? (
          <p className="mt-1 text-sm text-slate-600">
            Version {run.version}, {run.model === "embedded" || !run.model ? "embedded responder" : `model ${run.model}`}.
          </p>
        ) : null}
        <Form method="post" action={`/persona/${persona.id}/card-check`} className="mt-3">
          <input type="hidden" name="intent" value="run-targets" />
          <Button type="submit" disabled={busy || pending} size="base">
            {CARD_TARGET_RUN_TEXT.start}
          </Button>
        </Form>
      </section>

      {imported.length > 0 ? (
        <section aria-labelledby="imported-heading">
          <h2 id="imported-heading" className="text-xl font-semibold text-slate-900">
            {CARD_CHECK_TEXT.importedTitle}
          </h2>
          <p className="mt-1 text-slate-700">{CARD_CHECK_TEXT.importedIntro}</p>
          <ul className="mt-3 space-y-3" aria-label="Findings in the imported file">
            {(imported as Finding[]).map((finding, index) => (
              <FindingItem key={`${finding.rule}-${finding.field}-${index}`} finding={finding} personaId={persona.id} busy={busy} />
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}

export const ErrorBoundary = PersonaErrorBoundary;
