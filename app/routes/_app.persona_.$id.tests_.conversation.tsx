// /persona/{id}/tests/conversation: the persona's long-conversation tests (docs/product.md, Persona
// tests: long conversations) — the form that starts one (turns, seed), the run under way, and the
// latest run: its chart and table, where each category first slipped, the checkpoint questions and
// the transcript; ?compare={runId} lays another version's run over the chart. Plain forms without
// JavaScript (the server checks, redirects with a toast; the page refreshes itself while a run is
// under way); with JavaScript conform checks the fields as they are left and the page polls.
import { type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useRevalidator } from "@remix-run/react";
import { useEffect } from "react";

import { ConversationTestSection } from "~/components/conversation-test";
import { PersonaErrorBoundary } from "~/components/persona-not-found";
import { buttonClass } from "~/components/ui/button";
import { conversationTestSchema } from "~/domain/conversation-test-form";
import { CONVERSATION_TEST_TEXT, FIX_TEXT } from "~/domain/conversation-test-text";
import { PRODUCT_NAME } from "~/domain/site";
import { FormAlert } from "~/components/ui/field";
import {
  conversationTestsPage,
  discardFix,
  keepFix,
  ServiceError,
  tryFix,
  invalidSubmission,
  orNotFound,
  readFormData,
  redirectWithToast,
  refusedSubmission,
  requireUser,
  responseHeaders,
  startConversationTest,
} from "~/services/index.server";

export const meta: MetaFunction<typeof loader> = ({ data: loaderData }) => [
  { title: `${CONVERSATION_TEST_TEXT.pageTitle(loaderData?.name ?? "Persona")} · ${PRODUCT_NAME}` },
];

/** How often the page looks again while a run is under way. */
const POLL_MS = 1_500;

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { user, ctx } = await requireUser(request, context);
  const id = params.id ?? "";
  const compare = new URL(request.url).searchParams.get("compare");
  const { persona, ...state } = await orNotFound(ctx, () => conversationTestsPage(user, id, compare));
  return data({ id: persona.id, name: persona.name, draft: persona.draft, ...state }, { headers: responseHeaders(ctx) });
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { user, ctx } = await requireUser(request, context);
  const id = params.id ?? "";
  const formData = await readFormData(request, 4 * 1024);
  const headers = responseHeaders(ctx);
  const intent = String(formData.get("intent") ?? "conversation");
  const back = `/persona/${id}/tests/conversation`;
  if (intent === "try" || intent === "keep" || intent === "discard") {
    try {
      if (intent === "try") {
        await orNotFound(ctx, () => tryFix(user, id, String(formData.get("baseRunId") ?? ""), String(formData.get("category") ?? "")));
        return redirectWithToast(`${back}#fixes`, { type: "success", ...FIX_TEXT.toasts.started }, { headers });
      }
      if (intent === "keep") {
        await orNotFound(ctx, () => keepFix(user, id, String(formData.get("runId") ?? "")));
        return redirectWithToast(`${back}#fixes`, { type: "success", ...FIX_TEXT.toasts.kept }, { headers });
      }
      await orNotFound(ctx, () => discardFix(user, id, String(formData.get("runId") ?? "")));
      return redirectWithToast(back, { type: "success", ...FIX_TEXT.toasts.discarded }, { headers });
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      return data({ message: error.message }, { status: error.status, headers });
    }
  }
  const submission = parseWithZod(formData, { schema: conversationTestSchema });
  if (submission.status !== "success") return invalidSubmission(submission, ctx, {});
  try {
    await orNotFound(ctx, () => startConversationTest(user, id, submission.value));
    return redirectWithToast(`/persona/${id}/tests/conversation`, { type: "success", ...CONVERSATION_TEST_TEXT.startedToast }, { headers });
  } catch (error) {
    return refusedSubmission(error, submission, ctx, {});
  }
}

export default function ConversationTestsPage() {
  const { id, name, draft, pending, latest, others, over, fixes, trying } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const revalidator = useRevalidator();
  const waiting = !!pending || (trying !== null && (trying.status === "queued" || trying.status === "running"));
  useEffect(() => {
    if (!waiting) return;
    const timer = setTimeout(() => {
      if (revalidator.state === "idle") revalidator.revalidate();
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [waiting, revalidator]);
  return (
    <div className="mx-auto max-w-5xl space-y-6">
      {/* Without JavaScript only: a browser schedules the refresh when it parses the tag (see the tests page). */}
      {waiting ? (
        <noscript>
          <meta httpEquiv="refresh" content={`2;url=/persona/${id}/tests/conversation`} />
        </noscript>
      ) : null}
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <h1 className="min-w-0 text-2xl font-bold text-slate-900 sm:text-3xl" dir="auto">
          {CONVERSATION_TEST_TEXT.pageTitle(name)}
        </h1>
        <Link to={`/persona/${id}/tests`} className={buttonClass("secondary", "md", "shrink-0 self-start")}>
          Back to tests
        </Link>
      </div>
      {answer && "message" in answer && !("result" in answer) ? <FormAlert title="Fix Not Changed" text={String(answer.message)} /> : null}
      <ConversationTestSection
        personaId={id}
        draft={draft}
        pending={pending}
        latest={latest}
        others={others}
        over={over}
        fixes={fixes}
        trying={trying}
        result={answer && "result" in answer ? (answer.result as SubmissionResult<string[]>) : undefined}
      />
    </div>
  );
}

export const ErrorBoundary = PersonaErrorBoundary;
