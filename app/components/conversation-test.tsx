// The tests page's long-conversation section (docs/product.md, Persona tests: long conversations):
// the form that starts a test (turns, seed), the run under way, and the latest run — its chart and
// table, where each category first slipped, the questions asked at each checkpoint and the
// transcript. A GET form lays another version's run over the chart (?compare={runId}). Plain forms
// without JavaScript; with it conform checks the fields as they are left.
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form, useNavigation } from "@remix-run/react";

import { controlProps } from "~/components/form-controls";
import { buttonClass } from "~/components/ui/button";
import { Field, FormAlert } from "~/components/ui/field";
import { conversationTestSchema } from "~/domain/conversation-test-form";
import {
  CONVERSATION_CATEGORIES,
  CONVERSATION_CATEGORY_HINTS,
  CONVERSATION_CATEGORY_LABELS,
  CONVERSATION_TEST_LIMITS,
  CONVERSATION_TEST_TEXT,
  FIX_TEXT,
  scoredCategories,
  type ConversationFix,
  type ConversationTestView,
} from "~/domain/conversation-test-text";
import { modelLabel } from "~/domain/probe-text";

import { DriftChart, DriftTable } from "./drift-chart";

type RunState = ConversationTestView & { done: number };

export function ConversationTestSection({
  personaId,
  draft,
  pending,
  latest,
  others,
  over,
  fixes,
  trying,
  result,
}: {
  personaId: string;
  draft: boolean;
  pending: RunState | null;
  latest: RunState | null;
  /** Other runs to lay over the latest (the latest of each other version). */
  others: readonly RunState[];
  over: RunState | null;
  /** Fixes to try for the latest run's categories that slipped, and the one being tried. */
  fixes: readonly ConversationFix[];
  trying: RunState | null;
  result: SubmissionResult<string[]> | undefined;
}) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const [form, fields] = useForm({
    id: "conversation-test",
    lastResult: result,
    defaultValue: { turns: String(CONVERSATION_TEST_LIMITS.turnsDefault), seed: "" },
    constraint: getZodConstraint(conversationTestSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: conversationTestSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <section
      id="conversation"
      aria-labelledby="conversation-heading"
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6"
    >
      <h2 id="conversation-heading" className="text-lg font-semibold text-slate-900">
        {CONVERSATION_TEST_TEXT.title}
      </h2>
      <p className="mt-1 text-sm text-slate-700">{CONVERSATION_TEST_TEXT.intro}</p>
      <Form method="post" action={`/persona/${personaId}/tests/conversation`} {...getFormProps(form)} className="mt-3 space-y-3">
        {form.errors?.length ? <FormAlert title="Test Not Started" text={form.errors[0]!} /> : null}
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label={CONVERSATION_TEST_TEXT.turns}
            hint={CONVERSATION_TEST_TEXT.turnsHint}
            inputProps={{
              ...controlProps(fields.turns),
              type: "number",
              min: CONVERSATION_TEST_LIMITS.turnsMin,
              max: CONVERSATION_TEST_LIMITS.turnsMax,
              step: 1,
              inputMode: "numeric",
            }}
            errors={fields.turns.errors}
          />
          <Field
            label={CONVERSATION_TEST_TEXT.seed}
            optional
            hint={CONVERSATION_TEST_TEXT.seedHint}
            inputProps={{
              ...controlProps(fields.seed),
              type: "number",
              min: 0,
              max: CONVERSATION_TEST_LIMITS.seedMax,
              step: 1,
              inputMode: "numeric",
            }}
            errors={fields.seed.errors}
          />
        </div>
        <button
          type="submit"
          name="intent"
          value="conversation"
          disabled={draft || !!pending || busy}
          className={buttonClass("primary", "base")}
        >
          {CONVERSATION_TEST_TEXT.run}
        </button>
      </Form>

      <div className="mt-4" aria-live="polite">
        {pending ? (
          <p role="status" className="text-sm font-medium text-brand-900" data-testid="conversation-pending">
            {pending.status === "queued" ? CONVERSATION_TEST_TEXT.queued : CONVERSATION_TEST_TEXT.running(pending.done, pending.turns)} ·
            Version {pending.version}
          </p>
        ) : latest ? null : (
          <p className="text-sm text-slate-600">{CONVERSATION_TEST_TEXT.none}</p>
        )}
      </div>
      {latest ? <LatestRun personaId={personaId} run={latest} others={others} over={over} /> : null}
      {latest && (fixes.length || trying) ? <Fixes personaId={personaId} base={latest} fixes={fixes} trying={trying} /> : null}
      {latest?.notes.length ? (
        <div className="mt-4 text-sm">
          <h3 className="font-semibold text-slate-900">{FIX_TEXT.notes}</h3>
          <ul className="mt-1 list-disc pl-5 text-slate-700" data-testid="fix-notes">
            {latest.notes.map((note) => (
              <li key={note.at}>
                {FIX_TEXT.noteLine(note)} · <time dateTime={note.at}>{new Date(note.at).toUTCString()}</time>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}

function LatestRun({
  personaId,
  run,
  others,
  over,
}: {
  personaId: string;
  run: RunState;
  others: readonly RunState[];
  over: RunState | null;
}) {
  const scored = scoredCategories(run);
  const when = new Date(run.finishedAt ?? run.createdAt);
  return (
    <div className="mt-2 space-y-4" data-testid="conversation-run" data-status={run.status} data-version={run.version}>
      <div className="text-sm">
        <p className="font-semibold text-slate-900">
          Version {run.version} · {modelLabel(run.model)} · {CONVERSATION_TEST_TEXT.seedLine(run.seed, run.turns)}
        </p>
        <p className={run.error ? "text-red-800" : "text-slate-600"}>
          {run.error ? `${run.error} · ` : ""}
          <time dateTime={when.toISOString()}>{when.toUTCString()}</time>
        </p>
      </div>

      {run.checkpoints.length ? (
        <div className="grid gap-4 lg:grid-cols-[3fr_2fr]">
          <DriftChart id={`drift-${run.runId}`} run={run} over={over} />
          <div className="space-y-3">
            <DriftTable run={run} />
            {over ? <DriftTable run={over} caption={`Version ${over.version}: pass rate per checkpoint and category`} /> : null}
          </div>
        </div>
      ) : (
        <p className="text-sm text-slate-600">No checkpoint was reached.</p>
      )}

      {others.length ? (
        <Form method="get" action={`/persona/${personaId}/tests/conversation`} className="flex flex-wrap items-end gap-2">
          <div>
            <label htmlFor="compare" className="mb-1 block text-sm font-medium text-slate-800">
              {CONVERSATION_TEST_TEXT.compareLabel}
            </label>
            <select
              id="compare"
              name="compare"
              defaultValue={over?.runId ?? ""}
              className="block rounded-lg border border-slate-300 bg-white px-3 py-2 text-slate-900"
            >
              <option value="">{CONVERSATION_TEST_TEXT.compareNone}</option>
              {others.map((other) => (
                <option key={other.runId} value={other.runId}>
                  Version {other.version} ({CONVERSATION_TEST_TEXT.seedLine(other.seed, other.turns)})
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className={buttonClass("secondary", "md")}>
            {CONVERSATION_TEST_TEXT.compareShow}
          </button>
        </Form>
      ) : null}

      <div>
        <h3 className="font-semibold text-slate-900">{CONVERSATION_TEST_TEXT.firstFailures}</h3>
        <ul className="mt-1 space-y-1 text-sm" data-testid="first-failures">
          {CONVERSATION_CATEGORIES.map((category) => {
            const turn = run.firstFailure[category];
            const text = !scored.includes(category)
              ? CONVERSATION_TEST_TEXT.notScored
              : turn === null
                ? CONVERSATION_TEST_TEXT.heldThroughout
                : `first failed at turn ${turn}`;
            return (
              <li key={category} data-category={category} data-turn={turn ?? undefined}>
                <span className="font-medium text-slate-900">{CONVERSATION_CATEGORY_LABELS[category]}:</span>{" "}
                <span className={turn === null ? "text-slate-700" : "font-semibold text-red-800"}>{text}</span>
                <span className="block text-xs text-slate-600">{CONVERSATION_CATEGORY_HINTS[category]}</span>
              </li>
            );
          })}
        </ul>
      </div>

      <details className="text-sm">
        <summary className="cursor-pointer font-medium text-slate-800">{CONVERSATION_TEST_TEXT.checkpoints}</summary>
        <ol className="mt-2 space-y-3">
          {run.checkpoints.map((checkpoint) => (
            <li key={checkpoint.turn}>
              <h4 className="font-semibold text-slate-900">
                Turn {checkpoint.turn}: {checkpoint.passed} passed, {checkpoint.failed} failed
              </h4>
              <ul className="mt-1 space-y-1">
                {checkpoint.probes.map((probe, i) => (
                  <li key={i} className={`rounded-lg p-2 ${probe.passed ? "bg-slate-50" : "bg-red-50"}`}>
                    <span className="font-medium">{CONVERSATION_CATEGORY_LABELS[probe.category]}</span> —{" "}
                    <span dir="auto">“{probe.question}”</span> {probe.passed ? "passed" : "failed"}
                    {probe.reason ? <span className="block text-red-900">{probe.reason}</span> : null}
                    <span className="block text-slate-700" dir="auto">
                      {probe.replies[0]}
                    </span>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ol>
      </details>

      <details className="text-sm">
        <summary className="cursor-pointer font-medium text-slate-800">
          {CONVERSATION_TEST_TEXT.transcript} ({run.transcript.filter((turn) => turn.role === "user").length} turns)
        </summary>
        <ol className="mt-2 space-y-1" data-testid="conversation-transcript">
          {run.transcript.map((turn, i) => (
            <li key={i} className={turn.role === "user" ? "text-slate-700" : "rounded-lg bg-slate-50 p-2 text-slate-900"} dir="auto">
              <span className="font-semibold">{turn.role === "user" ? "Interrogator" : "Persona"}:</span> {turn.content}
            </li>
          ))}
        </ol>
      </details>
    </div>
  );
}

function Fixes({
  personaId,
  base,
  fixes,
  trying,
}: {
  personaId: string;
  base: RunState;
  fixes: readonly ConversationFix[];
  trying: RunState | null;
}) {
  const busy = trying !== null && (trying.status === "queued" || trying.status === "running");
  const action = `/persona/${personaId}/tests/conversation`;
  return (
    <div className="mt-6 space-y-4" id="fixes">
      {fixes.length ? (
        <div>
          <h3 className="font-semibold text-slate-900">{FIX_TEXT.title}</h3>
          <p className="mt-1 text-sm text-slate-700">{FIX_TEXT.intro}</p>
          <ul className="mt-2 space-y-3" data-testid="fixes">
            {fixes.map((fix) => (
              <li key={fix.category} className="rounded-lg border border-slate-200 p-3 text-sm" data-category={fix.category}>
                <p className="font-medium text-slate-900">
                  {CONVERSATION_CATEGORY_LABELS[fix.category]} · {FIX_TEXT.where(fix.place, fix.depth)}
                </p>
                <pre className="mt-1 whitespace-pre-wrap break-words rounded bg-slate-50 p-2 font-sans text-slate-800" dir="auto">
                  {fix.text}
                </pre>
                <Form method="post" action={action} className="mt-2">
                  <input type="hidden" name="baseRunId" value={base.runId} />
                  <input type="hidden" name="category" value={fix.category} />
                  <button
                    type="submit"
                    name="intent"
                    value="try"
                    disabled={busy}
                    className={buttonClass("secondary", "md")}
                    aria-label={`${FIX_TEXT.tryIt}: ${CONVERSATION_CATEGORY_LABELS[fix.category]}`}
                  >
                    {FIX_TEXT.tryIt}
                  </button>
                </Form>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {trying?.fix ? (
        <div className="rounded-lg border border-brand-200 p-3" data-testid="fix-trying" data-status={trying.status}>
          <h3 className="font-semibold text-slate-900">{FIX_TEXT.trying}</h3>
          <p className="text-sm text-slate-800">{FIX_TEXT.tryingLine(trying.fix.category, trying.fix.place)}</p>
          {busy ? (
            <p role="status" className="mt-1 text-sm font-medium text-brand-900">
              {trying.status === "queued" ? CONVERSATION_TEST_TEXT.queued : CONVERSATION_TEST_TEXT.running(trying.done, trying.turns)}
            </p>
          ) : (
            <>
              {trying.error ? <p className="mt-1 text-sm text-red-800">{trying.error}</p> : null}
              {trying.checkpoints.length ? (
                <div className="mt-2 grid gap-4 lg:grid-cols-[3fr_2fr]">
                  <DriftChart id={`drift-try-${trying.runId}`} run={trying} over={base} />
                  <div>
                    <table className="min-w-full text-left text-sm" data-testid="fix-before-after">
                      <caption className="mb-1 text-left font-medium text-slate-800">{FIX_TEXT.beforeAfter}</caption>
                      <thead>
                        <tr className="border-b border-slate-200">
                          <th scope="col" className="py-1 pr-3">
                            Category
                          </th>
                          <th scope="col" className="py-1 pr-3">
                            Before
                          </th>
                          <th scope="col" className="py-1 pr-3">
                            With the fix
                          </th>
                        </tr>
                      </thead>
                      <tbody>
                        {scoredCategories(base, trying).map((category) => {
                          const said = (turn: number | null) =>
                            turn === null ? CONVERSATION_TEST_TEXT.heldThroughout : `slipped at turn ${turn}`;
                          return (
                            <tr key={category} className="border-b border-slate-100" data-category={category}>
                              <th scope="row" className="py-1 pr-3 font-medium">
                                {CONVERSATION_CATEGORY_LABELS[category]}
                              </th>
                              <td className="py-1 pr-3">{said(base.firstFailure[category])}</td>
                              <td className="py-1 pr-3">{said(trying.firstFailure[category])}</td>
                            </tr>
                          );
                        })}
                      </tbody>
                    </table>
                  </div>
                </div>
              ) : null}
              {trying.fix.keptAs !== undefined ? (
                <p className="mt-2 text-sm font-medium text-emerald-800" data-testid="fix-kept">
                  {FIX_TEXT.keptLine(trying.fix.keptAs)}
                </p>
              ) : (
                <Form method="post" action={action} className="mt-3 flex flex-wrap gap-2">
                  <input type="hidden" name="runId" value={trying.runId} />
                  {trying.status === "completed" ? (
                    <button type="submit" name="intent" value="keep" className={buttonClass("primary", "base")}>
                      {FIX_TEXT.keep}
                    </button>
                  ) : null}
                  <button type="submit" name="intent" value="discard" className={buttonClass("secondary", "md")}>
                    {FIX_TEXT.discard}
                  </button>
                </Form>
              )}
            </>
          )}
        </div>
      ) : null}
    </div>
  );
}
