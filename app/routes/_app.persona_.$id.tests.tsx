// /persona/{id}/tests: the persona's tests (docs/product.md, Persona tests) — the latest run and the
// one under way, 'Run tests', 'Suggest probes' (proposals the creator keeps or drops), the probes
// with their last verdicts, and a probe's form (add, or ?edit={probeId}). Every control is a plain
// form (the server checks, redirects with a toast); with JavaScript Remix submits them without a
// reload, conform checks each field as it is left, and the page polls while a run is under way
// (without JavaScript it refreshes itself).
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect } from "react";

import { controlProps, keepSubmitInPlace } from "~/components/form-controls";
import { PersonaErrorBoundary } from "~/components/persona-not-found";
import { CheckboxField, Field, FieldErrors, FormAlert, TextareaField } from "~/components/ui/field";
import {
  CHECK_LABELS,
  modelLabel,
  PROBE_FACT_LABELS,
  PROBE_FACTS,
  PROBE_LIMITS,
  PROBE_TEXT,
  PROBE_TOASTS,
  probeSchema,
  runSummary,
  type Probe,
  type ProbeInput,
  type ProbeResult,
} from "~/domain/probes";
import { PRODUCT_NAME } from "~/domain/site";
import {
  readFormData,
  redirectWithToast,
  ServiceError,
  invalidSubmission,
  refusedSubmission,
  getLorebook,
  addProbe,
  addProbes,
  conversationTestSummary,
  deleteProbe,
  setProbeEnabled,
  startRun,
  suggestPersonaProbes,
  testsState,
  updateProbe,
  type RunView,
  orNotFound,
  requireUser,
  responseHeaders,
} from "~/services/index.server";
import { buttonClass } from "~/components/ui/button";

export const meta: MetaFunction<typeof loader> = ({ data: loaderData }) => [
  { title: `${PROBE_TEXT.pageTitle(loaderData?.name ?? "Persona")} · ${PRODUCT_NAME}` },
];

/** Kept suggestions travel in the form as JSON: up to 15 probes. */
const MAX_KEEP_BYTES = 512 * 1024;
/** How often the page looks again while a run is under way. */
const POLL_MS = 1_500;

const formSchema = probeSchema({ form: true });

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { user, ctx } = await requireUser(request, context);
  const id = params.id ?? "";
  const { persona, book } = await orNotFound(ctx, () => getLorebook(user, id));
  const [state, conversation] = await Promise.all([
    orNotFound(ctx, () => testsState(user, id)),
    orNotFound(ctx, () => conversationTestSummary(user, id)),
  ]);
  const editId = new URL(request.url).searchParams.get("edit");
  return data(
    {
      id: persona.id,
      name: persona.name,
      draft: persona.status === "in_progress",
      probes: state.probes,
      latest: state.latest,
      pending: state.pending,
      editing: editId ? (state.probes.find((probe) => probe.id === editId) ?? null) : null,
      conversation,
      facts: [
        ...PROBE_FACTS.map((fact) => ({ value: `fact:${fact}`, label: PROBE_FACT_LABELS[fact] })),
        ...book.entries.map((entry) => ({ value: `lore:${entry.id}`, label: `Lore: ${entry.name}` })),
      ],
    },
    { headers: responseHeaders(ctx) },
  );
}

const back = (id: string, probeId?: string) => `/persona/${id}/tests${probeId ? `#probe-${probeId}` : ""}`;

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { user, ctx } = await requireUser(request, context);
  const id = params.id ?? "";
  const formData = await readFormData(request, MAX_KEEP_BYTES);
  const intent = String(formData.get("intent") ?? "");
  const probeId = String(formData.get("probeId") ?? "");
  const headers = responseHeaders(ctx);
  const done = (to: string, toast: { title: string; description: string }) =>
    redirectWithToast(to, { type: "success", ...toast }, { headers });
  const failed = (error: unknown) => {
    if (!(error instanceof ServiceError)) throw error;
    if (error.retryAfterSeconds) headers.set("Retry-After", String(error.retryAfterSeconds));
    return data({ message: error.message }, { status: error.status, headers });
  };

  if (intent === "add" || intent === "save") {
    const submission = parseWithZod(formData, { schema: formSchema });
    const payload = { form: intent, probeId };
    if (submission.status !== "success")
      return invalidSubmission(submission, ctx, payload, { formErrors: [PROBE_TOASTS.failed.description] });
    try {
      const probe = await orNotFound(ctx, () =>
        intent === "add"
          ? addProbe(user, id, submission.value, { form: true })
          : updateProbe(user, id, probeId, submission.value, { form: true }),
      );
      return done(back(id, probe.id), intent === "add" ? PROBE_TOASTS.added : PROBE_TOASTS.saved);
    } catch (error) {
      return refusedSubmission(error, submission, ctx, payload);
    }
  }

  try {
    switch (intent) {
      case "delete":
        await orNotFound(ctx, () => deleteProbe(user, id, probeId));
        return done(back(id), PROBE_TOASTS.deleted);
      case "enable":
      case "disable": {
        const probe = await orNotFound(ctx, () => setProbeEnabled(user, id, probeId, intent === "enable"));
        return redirect(back(id, probe.id), { headers });
      }
      case "suggest": {
        const suggested = await orNotFound(ctx, () => suggestPersonaProbes(user, id));
        return data({ suggested }, { headers });
      }
      case "keep": {
        const kept = formData.getAll("keep").flatMap((value) => {
          try {
            return [JSON.parse(String(value)) as unknown];
          } catch {
            return [];
          }
        });
        if (!kept.length) return redirectWithToast(back(id), { type: "info", ...PROBE_TOASTS.none }, { headers });
        const added = await orNotFound(ctx, () => addProbes(user, id, kept));
        return done(back(id), PROBE_TOASTS.kept(added.length));
      }
      case "run":
        await orNotFound(ctx, () => startRun(user, id));
        return redirectWithToast(`/persona/${id}/tests`, { type: "success", ...PROBE_TOASTS.started }, { headers });
      default:
        return data({ message: "Choose what to do with the tests." }, { status: 400, headers });
    }
  } catch (error) {
    return failed(error);
  }
}

const rowButton = buttonClass("secondary", "xs");
const primaryClass = buttonClass("primary", "base");

export default function TestsPage() {
  const { id, name, probes, latest, pending, editing, draft, conversation } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const suggested = answer && "suggested" in answer ? answer.suggested : null;
  const message = answer && "message" in answer && !("result" in answer) ? answer.message : null;
  const result = answer && "result" in answer ? answer : null;
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!pending) return;
    const timer = setTimeout(() => {
      if (revalidator.state === "idle") revalidator.revalidate();
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [pending, revalidator]);
  const lastResults = new Map((pending?.results.length ? pending.results : (latest?.results ?? [])).map((r) => [r.probeId, r]));
  return (
    <div className="mx-auto max-w-4xl space-y-6">
      {/* Without JavaScript only (as the image box's): a browser schedules a refresh when it parses
          the tag, and taking the tag out after hydration would not cancel it. To the address without
          a #fragment: a refresh to an address with one only scrolls, it does not load the page again. */}
      {pending ? (
        <noscript>
          <meta httpEquiv="refresh" content={`2;url=/persona/${id}/tests`} />
        </noscript>
      ) : null}
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl" dir="auto">
            {PROBE_TEXT.pageTitle(name)}
          </h1>
          <p className="mt-1 text-slate-700">{PROBE_TEXT.intro}</p>
          <p className="mt-1 text-sm text-slate-600">{PROBE_TEXT.limits}</p>
        </div>
        <Link to={`/persona/${id}#tests`} className={buttonClass("secondary", "md", "shrink-0 self-start")}>
          Back to persona
        </Link>
      </div>

      {message ? <FormAlert title="Tests Not Changed" text={message} /> : null}

      <section id="run" aria-labelledby="run-heading" className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
          <div className="min-w-0">
            <h2 id="run-heading" className="text-lg font-semibold text-slate-900">
              Latest run
            </h2>
            <RunStatus latest={latest} pending={pending} />
          </div>
          <Form method="post" className="shrink-0">
            <button type="submit" name="intent" value="run" disabled={draft || probes.length === 0 || !!pending} className={primaryClass}>
              {PROBE_TEXT.run}
            </button>
          </Form>
        </div>
        {draft ? <p className="mt-2 text-sm text-slate-600">Finish the persona before testing it: a draft cannot chat yet.</p> : null}
      </section>

      <section
        aria-labelledby="conversation-heading"
        className="flex flex-col gap-3 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:flex-row sm:items-start sm:justify-between sm:p-6"
      >
        <div className="min-w-0">
          <h2 id="conversation-heading" className="text-lg font-semibold text-slate-900">
            {conversation.title}
          </h2>
          <p className="mt-1 text-sm text-slate-700">{conversation.intro}</p>
          <p className="mt-1 text-sm font-medium text-slate-900" data-testid="conversation-summary">
            {conversation.summary}
          </p>
        </div>
        <Link to={`/persona/${id}/tests/conversation`} className={buttonClass("secondary", "md", "shrink-0 self-start")}>
          {conversation.open}
        </Link>
      </section>

      <section aria-labelledby="suggest-heading" className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
        <h2 id="suggest-heading" className="text-lg font-semibold text-slate-900">
          {PROBE_TEXT.suggest}
        </h2>
        <p className="mt-1 text-sm text-slate-700">
          Writes 8 to 15 probes from the persona&apos;s facts, voice, traits and lorebook. Nothing is added until you keep it.
        </p>
        <Form method="post" className="mt-3">
          <button type="submit" name="intent" value="suggest" className={primaryClass}>
            {PROBE_TEXT.suggest}
          </button>
        </Form>
        {suggested ? <Suggestions suggested={suggested} /> : null}
      </section>

      <section aria-labelledby="probes-heading" className="space-y-4">
        <h2 id="probes-heading" className="text-xl font-semibold text-slate-900">
          Probes <span className="text-base font-normal text-slate-600">({probes.length})</span>
        </h2>
        {probes.length === 0 ? (
          <p className="rounded-2xl border border-dashed border-slate-300 bg-white p-5 text-slate-600">{PROBE_TEXT.empty}</p>
        ) : (
          <ol className="space-y-3" aria-label="Probes">
            {probes.map((probe) => (
              <ProbeItem key={probe.id} probe={probe} result={lastResults.get(probe.id) ?? null} />
            ))}
          </ol>
        )}
      </section>

      <ProbeForm
        key={editing ? `edit-${editing.id}` : "add"}
        editing={editing}
        result={result && result.form === (editing ? "save" : "add") ? (result.result as SubmissionResult<string[]>) : undefined}
        openByDefault={probes.length === 0 || !!editing || !!(result && result.form === "add")}
      />
    </div>
  );
}

/**
 * The run under way, or the latest one: always two lines of one line's height each (the full failing
 * list is on the probes below), so a polled run that ends moves nothing on the page.
 */
function RunStatus({ latest, pending }: { latest: RunView | null; pending: RunView | null }) {
  const line = "truncate";
  if (pending) {
    return (
      <div className="mt-1 space-y-1 text-sm" aria-live="polite">
        <p role="status" className={`${line} font-medium text-brand-900`} data-testid="run-pending">
          {pending.status === "queued" ? PROBE_TEXT.queued : PROBE_TEXT.running(pending.results.length, pending.total)}
        </p>
        <p className={`${line} text-slate-600`}>
          Version {pending.version} · {pending.trigger === "version" ? "after the change" : "run on request"}
        </p>
      </div>
    );
  }
  if (!latest) {
    return (
      <div className="mt-1 space-y-1 text-sm" aria-live="polite">
        <p className={`${line} text-slate-600`}>{PROBE_TEXT.noRun}</p>
        <p className={`${line} text-slate-600`}>Each probe goes to the persona in a fresh conversation.</p>
      </div>
    );
  }
  const failing = latest.failed > 0 || latest.status === "failed";
  const summary = runSummary(latest);
  const when = new Date(latest.finishedAt ?? latest.createdAt);
  return (
    <div className="mt-1 space-y-1 text-sm" aria-live="polite">
      <p
        data-testid="run-summary"
        data-status={failing ? "failed" : "passed"}
        className={`${line} font-semibold ${failing ? "text-red-800" : "text-emerald-800"}`}
        title={summary}
        dir="auto"
      >
        {summary}
      </p>
      <p className={`${line} ${latest.error ? "text-red-800" : "text-slate-600"}`} title={latest.error ?? undefined}>
        {latest.error ? `${latest.error} · ` : ""}
        {modelLabel(latest.model)} · {latest.trigger === "version" ? "after the change" : "run on request"} ·{" "}
        <time dateTime={when.toISOString()}>{when.toUTCString()}</time>
      </p>
    </div>
  );
}

function expectations(probe: Pick<Probe, keyof ProbeInput>): string[] {
  const out: string[] = [];
  if (probe.mustMention.length) out.push(`Mentions one of: ${probe.mustMention.join(", ")}`);
  if (probe.mustNotMention.length) out.push(`Never mentions: ${probe.mustNotMention.join(", ")}`);
  if (probe.mustMatch) out.push(`Matches ${probe.mustMatch}`);
  if (probe.mustNotMatch) out.push(`Never matches ${probe.mustNotMatch}`);
  if (probe.maxLength) out.push(`At most ${probe.maxLength} characters`);
  if (probe.inCharacter) out.push("Stays in character");
  if (probe.statesFact) out.push(`States the fact: ${probe.factExpected?.label ?? probe.statesFact}`);
  if (probe.rubric) out.push(`Rubric (model only): ${probe.rubric}`);
  return out;
}

function ProbeItem({ probe, result }: { probe: Probe; result: ProbeResult | null }) {
  const { id } = useLoaderData<typeof loader>();
  const verdict = result ? (result.failures.some((f) => f.check === "broken") ? "broken" : result.passed ? "passed" : "failed") : null;
  return (
    <li
      id={`probe-${probe.id}`}
      data-testid="probe"
      data-verdict={verdict ?? undefined}
      className={`rounded-2xl border bg-white p-4 shadow-sm ${probe.enabled ? "border-slate-200" : "border-dashed border-slate-300 bg-slate-50"}`}
    >
      <div className="flex flex-wrap items-baseline gap-2">
        <h3 className="text-base font-semibold text-slate-900" dir="auto">
          {probe.name}
        </h3>
        {verdict ? (
          <span
            className={`rounded-full px-2 py-0.5 text-xs font-medium ${
              verdict === "passed" ? "bg-emerald-100 text-emerald-900" : "bg-red-100 text-red-900"
            }`}
          >
            {verdict === "passed" ? PROBE_TEXT.passed : verdict === "broken" ? PROBE_TEXT.broken : PROBE_TEXT.failed}
          </span>
        ) : null}
        {probe.enabled ? null : <span className="rounded-full bg-slate-200 px-2 py-0.5 text-xs text-slate-800">Disabled</span>}
      </div>
      <p className="mt-1 text-sm text-slate-800" dir="auto">
        <span className="font-medium">Sends:</span> {probe.turns.map((turn) => `“${turn}”`).join(" → ")}
      </p>
      <ul className="mt-1 list-disc pl-5 text-sm text-slate-700">
        {expectations(probe).map((line) => (
          <li key={line} dir="auto">
            {line}
          </li>
        ))}
      </ul>
      {result ? (
        <details className="mt-2 text-sm" open={!result.passed}>
          <summary className="cursor-pointer font-medium text-slate-800">Replies and verdicts</summary>
          <ol className="mt-1 space-y-1 pl-1">
            {result.replies.map((reply, i) => (
              <li key={i} className="rounded-lg bg-slate-50 p-2 text-slate-900" dir="auto">
                <span className="sr-only">Reply {i + 1}: </span>
                {reply}
              </li>
            ))}
          </ol>
          {result.failures.length ? (
            <ul className="mt-2 space-y-1 text-red-900" data-testid="probe-failures">
              {result.failures.map((failure, i) => (
                <li key={i}>
                  <span className="font-semibold">{CHECK_LABELS[failure.check]}</span> — expected {failure.expected}; got {failure.got}
                </li>
              ))}
            </ul>
          ) : null}
          {result.rubric ? (
            <p className="mt-2 text-slate-800">
              <span className="font-semibold">Model&apos;s verdict on the rubric:</span>{" "}
              {result.rubric.passed ? "meets it" : "does not meet it"} — {result.rubric.reason}
            </p>
          ) : null}
        </details>
      ) : null}
      <div className="mt-3 flex flex-wrap gap-2">
        <Link to={`?edit=${probe.id}#probe-form`} className={rowButton} aria-label={`${PROBE_TEXT.edit} ${probe.name}`}>
          {PROBE_TEXT.edit}
        </Link>
        <Form method="post" action={`/persona/${id}/tests`} className="contents">
          <input type="hidden" name="probeId" value={probe.id} />
          <button
            type="submit"
            name="intent"
            value={probe.enabled ? "disable" : "enable"}
            className={rowButton}
            aria-label={`${probe.enabled ? PROBE_TEXT.disable : PROBE_TEXT.enable} ${probe.name}`}
          >
            {probe.enabled ? PROBE_TEXT.disable : PROBE_TEXT.enable}
          </button>
          <button
            type="submit"
            name="intent"
            value="delete"
            className="rounded-md border border-red-300 bg-white px-2.5 py-1 text-sm font-medium text-red-800 hover:bg-red-50"
            aria-label={`${PROBE_TEXT.delete} ${probe.name}`}
          >
            {PROBE_TEXT.delete}
          </button>
        </Form>
      </div>
    </li>
  );
}

function ProbeForm({
  editing,
  result,
  openByDefault,
}: {
  editing: Probe | null;
  result: SubmissionResult<string[]> | undefined;
  openByDefault: boolean;
}) {
  const { id, facts } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const initial: Record<string, string> = editing
    ? {
        name: editing.name,
        turns: editing.turns.join("\n"),
        mustMention: editing.mustMention.join("\n"),
        mustNotMention: editing.mustNotMention.join("\n"),
        mustMatch: editing.mustMatch ?? "",
        mustNotMatch: editing.mustNotMatch ?? "",
        maxLength: editing.maxLength ? String(editing.maxLength) : "",
        statesFact: editing.statesFact ?? "",
        rubric: editing.rubric ?? "",
        inCharacter: editing.inCharacter ? "on" : "",
        enabled: editing.enabled ? "on" : "",
      }
    : { enabled: "on", inCharacter: "on" };
  const [form, fields] = useForm({
    id: editing ? `probe-edit-${editing.id}` : "probe-add",
    lastResult: result,
    defaultValue: initial,
    constraint: getZodConstraint(formSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: formSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const title = editing ? `Edit “${editing.name}”` : PROBE_TEXT.add;
  const body = (
    <Form
      method="post"
      action={`/persona/${id}/tests${editing ? `?edit=${editing.id}` : ""}`}
      {...getFormProps(form)}
      className="mt-4 space-y-4"
    >
      {form.errors?.length ? <FormAlert title={PROBE_TOASTS.failed.title} text={form.errors[0]!} /> : null}
      {editing ? <input type="hidden" name="probeId" value={editing.id} /> : null}
      <Field label="Name" inputProps={{ ...controlProps(fields.name), maxLength: PROBE_LIMITS.nameMax }} errors={fields.name.errors} />
      <div>
        <TextareaField label="Messages to send" textareaProps={{ ...controlProps(fields.turns), rows: 2 }} errors={fields.turns.errors} />
        <p className="mt-1 text-xs text-slate-600">
          One message per line; up to 5 make a scripted exchange (the checks read the last reply).
        </p>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <TextareaField
            label="Must mention"
            optional
            textareaProps={{ ...controlProps(fields.mustMention), rows: 2 }}
            errors={fields.mustMention.errors}
          />
          <p className="mt-1 text-xs text-slate-600">Any one of these phrases, one per line (case and accents do not matter).</p>
        </div>
        <div>
          <TextareaField
            label="Must not mention"
            optional
            textareaProps={{ ...controlProps(fields.mustNotMention), rows: 2 }}
            errors={fields.mustNotMention.errors}
          />
          <p className="mt-1 text-xs text-slate-600">None of these phrases in any reply, one per line.</p>
        </div>
        <Field
          label="Must match"
          optional
          hint="A pattern (regular expression) the last reply matches."
          inputProps={{ ...controlProps(fields.mustMatch), maxLength: PROBE_LIMITS.patternMax }}
          errors={fields.mustMatch.errors}
        />
        <Field
          label="Must not match"
          optional
          hint="A pattern no reply matches."
          inputProps={{ ...controlProps(fields.mustNotMatch), maxLength: PROBE_LIMITS.patternMax }}
          errors={fields.mustNotMatch.errors}
        />
        <Field
          label="Maximum length"
          optional
          hint="Characters in the last reply, 1 to 8,000."
          inputProps={{
            ...controlProps(fields.maxLength),
            type: "number",
            min: 1,
            max: PROBE_LIMITS.maxLengthMax,
            step: 1,
            inputMode: "numeric",
          }}
          errors={fields.maxLength.errors}
        />
        <div>
          <label htmlFor={fields.statesFact.id} className="mb-1 block text-sm font-medium text-slate-800">
            States the fact <span className="font-normal text-slate-600">(optional)</span>
          </label>
          <select
            id={fields.statesFact.id}
            name={fields.statesFact.name}
            key={fields.statesFact.key}
            defaultValue={typeof fields.statesFact.initialValue === "string" ? fields.statesFact.initialValue : ""}
            onBlur={keepSubmitInPlace}
            aria-describedby={`${fields.statesFact.id}-hint`}
            className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-slate-900"
          >
            <option value="">—</option>
            {facts.map((fact) => (
              <option key={fact.value} value={fact.value}>
                {fact.label}
              </option>
            ))}
          </select>
          <p id={`${fields.statesFact.id}-hint`} className="mt-1 text-xs text-slate-600">
            The last reply states its value as the persona has it when you save.
          </p>
          <FieldErrors id={`${fields.statesFact.id}-error`} errors={fields.statesFact.errors} />
        </div>
      </div>
      <div>
        <TextareaField
          label="Rubric"
          optional
          textareaProps={{ ...controlProps(fields.rubric), rows: 2, maxLength: PROBE_LIMITS.rubricMax }}
          errors={fields.rubric.errors}
        />
        <p className="mt-1 text-xs text-slate-600">{PROBE_TEXT.rubricHint}</p>
      </div>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-800">Options</legend>
        {(
          [
            { name: "inCharacter", label: "Stays in character", hint: "No reply says things like 'as an AI' or 'language model'." },
            { name: "enabled", label: "Enabled", hint: "Off: kept, but not run." },
          ] as const
        ).map((flag) => (
          <CheckboxField key={flag.name} field={fields[flag.name]} label={flag.label} hint={flag.hint} />
        ))}
      </fieldset>
      <div className="flex flex-wrap gap-3">
        <button type="submit" name="intent" value={editing ? "save" : "add"} disabled={busy} className={primaryClass}>
          {editing ? PROBE_TEXT.save : PROBE_TEXT.add}
        </button>
        {editing ? (
          <Link to={`/persona/${id}/tests#probe-${editing.id}`} className="self-center text-sm font-medium text-brand-800 underline">
            Cancel
          </Link>
        ) : null}
      </div>
    </Form>
  );
  return (
    <section
      id="probe-form"
      aria-labelledby="probe-form-heading"
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6"
    >
      {editing ? (
        <>
          <h2 id="probe-form-heading" className="text-lg font-semibold text-slate-900" dir="auto">
            {title}
          </h2>
          {body}
        </>
      ) : (
        <details open={openByDefault}>
          <summary id="probe-form-heading" className="cursor-pointer text-lg font-semibold text-slate-900">
            {title}
          </summary>
          {body}
        </details>
      )}
    </section>
  );
}

function Suggestions({ suggested }: { suggested: ProbeInput[] }) {
  const { id } = useLoaderData<typeof loader>();
  return (
    <Form method="post" action={`/persona/${id}/tests`} aria-labelledby="suggestions-heading" className="mt-5 space-y-3">
      <h3 id="suggestions-heading" className="font-semibold text-slate-900">
        Suggested probes ({suggested.length})
      </h3>
      <p role="status" className="text-sm text-slate-700">
        Keep the ones you want: clear a box to drop a probe. You can edit every probe once it is kept.
      </p>
      <ul className="space-y-2">
        {suggested.map((probe, index) => (
          <li key={index} className="flex items-start gap-3 rounded-lg border border-slate-200 p-3" data-testid="probe-suggestion">
            <input
              type="checkbox"
              id={`suggestion-${index}`}
              name="keep"
              value={JSON.stringify(probe)}
              defaultChecked
              className="mt-1 h-4 w-4 rounded border-slate-400"
            />
            <label htmlFor={`suggestion-${index}`} className="min-w-0 text-sm">
              <span className="font-semibold text-slate-900" dir="auto">
                {probe.name}
              </span>
              <span className="block text-slate-800" dir="auto">
                Sends: {probe.turns.map((turn) => `“${turn}”`).join(" → ")}
              </span>
              <span className="block text-slate-700" dir="auto">
                {expectations(probe).join(" · ")}
              </span>
            </label>
          </li>
        ))}
      </ul>
      <button type="submit" name="intent" value="keep" className={primaryClass}>
        {PROBE_TEXT.keep}
      </button>
    </Form>
  );
}

export const ErrorBoundary = PersonaErrorBoundary;
