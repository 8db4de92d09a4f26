// /persona/{id} (docs/product.md, Persona page): header with the status badge, Continue Creating or Edit, the Download
// menu, Archive/Restore and Delete; then two tabs, in the address so Back/Forward and a reload
// keep them: Full Profile (the default: the no-image box, Basic Information, interests, traits,
// description, backstory and the Extended Persona Profile) and Chat (?tab=chat). Unknown ids and
// other users' personas both get 'Persona Not Found' (404).
//
// The action is the Chat tab without JavaScript: a message or a regenerate is a form post that
// answers with the whole conversation, landing on the newest message (#newest). It is also the
// image box without JavaScript: saving the image style and starting reference image generation
// (then the page refreshes itself while it runs; ?image=started turns into the complete or
// failed toast once it is over).
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigate, useNavigation } from "@remix-run/react";
import { useHydrated } from "remix-utils/use-hydrated";

import { ChatPanel } from "~/components/chat-panel";
import { DownloadMenu } from "~/components/download-menu";
import { ActionToast } from "~/components/toaster";
import { DeletePersonaButton, StatusBadge, StatusButton } from "~/components/persona-card";
import { PersonaErrorBoundary } from "~/components/persona-not-found";
import { ReferenceImageBox, ReferenceImagesBlock } from "~/components/reference-images";
import { HistoryIcon, PencilIcon, UserIcon } from "~/components/ui/icons";
import { failedToast, IMAGE_SIZES, IMAGE_TOASTS } from "~/domain/images";
import { fillPlaceholders, VOICE_FIELDS, VOICE_LABELS, VOICE_TEXT, type PersonaVoice } from "~/domain/voice-text";
import { EXTENDED_PROFILE_NOTE, EXTENDED_PROFILE_TITLE, extendedProfileValue } from "~/domain/extended-profile";
import { editedSections, PROFILE_SECTIONS, PROFILE_TEXT } from "~/domain/profile-edit";
import { RegenerateProfileButton } from "~/components/regenerate-profile-button";
import { CARD_CHECK_TEXT } from "~/domain/card-targets";
import { HISTORY_TEXT } from "~/domain/persona-history";
import { LORE_KIND_LABELS, LORE_TEXT } from "~/domain/lore-text";
import { modelLabel, PROBE_TEXT } from "~/domain/probe-text";
import { GENDER_LABELS, PERSONA_PAGE_TEXT, relativeTime, reviewFallbacks, statusBadge, typeLabel } from "~/domain/persona-display";
import {
  downloadItems,
  personaExtended,
  httpError,
  readFormData,
  describeError,
  redirectWithToast,
  ServiceError,
  type CurrentUser,
  imageSources,
  setImageStyle,
  startImageGeneration,
  loreSummary,
  type LoreSummary,
  testsSummary,
  type TestsSummary,
  chatChecksOf,
  type ChatChecks,
  personaPageState,
  personaVoice,
  chooseAlternative,
  listMessages,
  newFormKey,
  parseChatPost,
  regenerateReply,
  sendMessage,
  orNotFound,
  requireUser,
  responseHeaders,
} from "~/services/index.server";
import { PRODUCT_NAME } from "~/domain/site";
import { REPLY_CHECK_LABELS, REPLY_CHECK_TEXT } from "~/domain/reply-check-text";
import { CHAT_TEXT, CHAT_TOASTS, chatHref, NEWEST_ANCHOR, personaTab, type PersonaTab } from "~/domain/chat";
import { buttonClass } from "~/components/ui/button";

export const meta: MetaFunction<typeof loader> = ({ data: loaderData }) => {
  const primary = loaderData?.tab === "profile" ? loaderData.images.primary : null;
  return [
    { title: `${loaderData?.persona.name ?? PERSONA_PAGE_TEXT.notFoundTitle} · ${PRODUCT_NAME}` },
    // The reference image is the page's largest paint: fetched with the document, not after the styles.
    ...(primary
      ? [
          {
            tagName: "link",
            rel: "preload",
            as: "image",
            href: primary.src,
            imageSrcSet: primary.srcSet,
            imageSizes: IMAGE_SIZES,
            fetchpriority: "high",
          },
        ]
      : []),
  ];
};

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { user, ctx } = await requireUser(request, context);
  const read = await orNotFound(ctx, () => personaPageState(user, params.id ?? ""));
  const { extended: stored, lore: storedLore, ...persona } = read.persona;
  const { imageGeneration } = read;
  const extended = personaExtended({ ...persona, extended: stored });
  const voice = personaVoice(persona);
  const profileEdited = editedSections(stored);
  const url = new URL(request.url);
  const tab = personaTab(url.searchParams);
  // The self-refreshing page (no JavaScript) after generation: the outcome as a toast, once.
  if (url.searchParams.get("image") === "started" && imageGeneration.status !== "generating") {
    const toast =
      imageGeneration.status === "failed"
        ? { type: "error" as const, ...failedToast(imageGeneration.error) }
        : { type: "success" as const, ...IMAGE_TOASTS.complete };
    throw await redirectWithToast(`/persona/${persona.id}`, toast, { headers: responseHeaders(ctx) });
  }
  const [images, tests, chatChecks] = await Promise.all([
    imageSources(persona),
    testsSummary(user, persona.id),
    chatChecksOf(user, persona),
  ]);
  // What depends on the clock is worked out here, so the page's data says everything the page shows.
  const now = Date.now();
  return data(
    {
      persona,
      images,
      tests,
      chatChecks,
      imageGeneration,
      extended,
      profileEdited,
      voice,
      lore: loreSummary({ lore: storedLore }),
      greeting: voice.greeting ? fillPlaceholders(voice.greeting, persona.name) : null,
      downloads: downloadItems(persona),
      createdAgo: relativeTime(persona.createdAt, new Date(now)),
      imageElapsed:
        imageGeneration.status === "generating" && imageGeneration.startedAt ? now - new Date(imageGeneration.startedAt).getTime() : 0,
      tab,
      chat: tab === "chat" ? await chatOf(user, persona.id) : null,
    },
    { headers: responseHeaders(ctx) },
  );
}

async function chatOf(user: Parameters<typeof listMessages>[0], personaId: string) {
  // Each rendering of the send form carries a fresh key: a double submit of it stores one message.
  const formKey = newFormKey();
  try {
    return { messages: await listMessages(user, personaId), formKey, historyFailed: false };
  } catch (error) {
    if (error instanceof ServiceError) throw error;
    console.error(`[chat] history failed to load: ${describeError(error)}`);
    return { messages: [], formKey, historyFailed: true };
  }
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { user, ctx } = await requireUser(request, context);
  const formData = await readFormData(request);
  const intent = formData.get("intent");
  const id = params.id ?? "";
  const headers = responseHeaders(ctx);
  if (intent === "image-style" || intent === "generate-images") return imageAction(user, id, intent, formData, headers);
  if (intent !== "send" && intent !== "regenerate" && intent !== "choose") return httpError(400, "Unknown chat action.");
  const message = formData.get("message");
  // The message form's schema first (what the panel checks with JavaScript): a refused message stays in the input.
  const submission = intent === "send" ? parseChatPost(formData) : null;
  if (submission && submission.status !== "success") {
    const result = submission.reply();
    const chatFailed = {
      message: typeof message === "string" ? message : "",
      error: result.error?.message?.[0] ?? "",
      toast: null,
      result,
    };
    return data({ chatFailed }, { status: 400, headers });
  }
  // No abort on the request's signal here: a browser that cancels the first post of a double
  // submit would otherwise leave that message unanswered; the second post waits for its reply.
  try {
    if (intent === "send") {
      const key = formData.get("key");
      await sendMessage(user, id, message, { clientKey: typeof key === "string" ? key : null });
    } else if (intent === "choose") {
      const messageId = formData.get("messageId");
      await chooseAlternative(user, id, typeof messageId === "string" ? messageId : "", formData.get("index"));
    } else {
      await regenerateReply(user, id);
    }
    return redirect(chatHref(id), { headers });
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    if (error.status === 404) throw data(null, { status: 404, headers });
    if (error.retryAfterSeconds) headers.set("Retry-After", String(error.retryAfterSeconds));
    // What was typed stays in the input; the reason shows beside it, or as the toast.
    const text = error.status === 502 ? CHAT_TOASTS.sendFailed.description : error.message;
    const inInput = intent === "send" && error.status === 400;
    return data(
      {
        chatFailed: {
          message: intent === "send" && typeof message === "string" ? message : "",
          error: inInput ? error.message : "",
          result: submission?.reply({ fieldErrors: inInput ? { message: [error.message] } : {} }) ?? null,
          toast: inInput ? null : { type: "error" as const, title: CHAT_TOASTS.sendFailed.title, description: text },
        },
      },
      { status: error.status, headers },
    );
  }
}

/** The image box's forms without JavaScript: Save (the style) and Generate Reference Image. */
async function imageAction(user: CurrentUser, id: string, intent: "image-style" | "generate-images", formData: FormData, headers: Headers) {
  try {
    if (intent === "image-style") {
      await setImageStyle(user, id, formData.get("imageStyle"));
      return redirectWithToast(`/persona/${id}`, { type: "success", ...IMAGE_TOASTS.styleSaved }, { headers });
    }
    await startImageGeneration(user, id);
    return redirectWithToast(`/persona/${id}?image=started`, { type: "success", ...IMAGE_TOASTS.started }, { headers });
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    if (error.status === 404) throw data(null, { status: 404, headers });
    if (error.retryAfterSeconds) headers.set("Retry-After", String(error.retryAfterSeconds));
    const toast =
      intent === "image-style"
        ? {
            type: "error" as const,
            title: IMAGE_TOASTS.styleFailed.title,
            description: error.status === 400 ? error.message : IMAGE_TOASTS.styleFailed.description,
          }
        : { type: "error" as const, title: IMAGE_TOASTS.failed.title, description: error.message };
    return data({ imageFailed: { field: error.errors?.imageStyle ? "imageStyle" : null, toast } }, { status: error.status, headers });
  }
}

const TABS: { key: PersonaTab; label: string }[] = [
  { key: "profile", label: CHAT_TEXT.tabProfile },
  { key: "chat", label: CHAT_TEXT.tabChat },
];

function tabHref(personaId: string, tab: PersonaTab) {
  return tab === "chat" ? `/persona/${personaId}?tab=chat` : `/persona/${personaId}`;
}

/**
 * Full Profile and Chat: links that work without JavaScript (the current one marked with
 * aria-current), and an accessible tab list with it (arrow keys, Home and End move between tabs).
 */
function PersonaTabs({ personaId, tab }: { personaId: string; tab: PersonaTab }) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const base = "inline-flex items-center border-b-2 px-4 py-2 text-sm font-semibold";
  const look = (selected: boolean) =>
    selected
      ? `${base} border-brand-700 text-brand-800`
      : `${base} border-transparent text-slate-700 hover:border-slate-300 hover:text-slate-900`;
  if (!hydrated) {
    return (
      <nav aria-label="Persona sections" className="border-b border-slate-200">
        <ul className="flex gap-2">
          {TABS.map((t) => (
            <li key={t.key}>
              {/* Without JavaScript the Chat link lands on the panel (#newest), so its input and newest message are in view. */}
              <Link
                to={t.key === "chat" ? `${tabHref(personaId, t.key)}#${NEWEST_ANCHOR}` : tabHref(personaId, t.key)}
                aria-current={t.key === tab ? "page" : undefined}
                className={look(t.key === tab)}
              >
                {t.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    );
  }
  const go = (index: number) => {
    const next = TABS[(index + TABS.length) % TABS.length]!;
    navigate(tabHref(personaId, next.key), { preventScrollReset: true });
    document.getElementById(`tab-${next.key}`)?.focus();
  };
  return (
    <div role="tablist" aria-label="Persona sections" className="flex gap-2 border-b border-slate-200">
      {TABS.map((t, i) => (
        <Link
          key={t.key}
          id={`tab-${t.key}`}
          role="tab"
          to={tabHref(personaId, t.key)}
          preventScrollReset
          aria-selected={t.key === tab}
          aria-controls={t.key === tab ? `panel-${t.key}` : undefined}
          tabIndex={t.key === tab ? 0 : -1}
          className={look(t.key === tab)}
          onKeyDown={(event) => {
            const moves: Record<string, number> = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: TABS.length - 1 };
            if (event.key in moves) {
              event.preventDefault();
              go(moves[event.key]!);
            }
          }}
        >
          {t.label}
        </Link>
      ))}
    </div>
  );
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

/** The persona's voice (docs/product.md, Voice): the fields that are set, and the way to change them. */
function VoiceCard({ personaId, voice }: { personaId: string; voice: PersonaVoice }) {
  const set = VOICE_FIELDS.filter((field) => {
    const value = voice[field];
    return Array.isArray(value) ? value.length > 0 : value !== null;
  });
  return (
    <Card title={VOICE_TEXT.title} id="voice">
      {set.length === 0 ? (
        <p className="text-slate-600">{VOICE_TEXT.empty}</p>
      ) : (
        <dl className="grid gap-4 text-sm md:grid-cols-2">
          {set.map((field) => {
            const value = voice[field];
            return (
              <div key={field} className={field === "exampleDialogue" || field === "greeting" ? "md:col-span-2" : undefined}>
                <dt className="font-medium text-slate-600">
                  {field === "authorsNote" ? VOICE_TEXT.noteAtDepth(voice.authorsNoteDepth) : VOICE_LABELS[field]}
                </dt>
                {Array.isArray(value) ? (
                  <dd className="text-slate-900">
                    <ul className="list-disc space-y-1 pl-5">
                      {value.map((item, i) => (
                        <li key={i} dir="auto">
                          {item}
                        </li>
                      ))}
                    </ul>
                  </dd>
                ) : (
                  <dd className="whitespace-pre-line text-slate-900" dir="auto">
                    {value}
                  </dd>
                )}
              </div>
            );
          })}
        </dl>
      )}
      <Link to={`/persona/${personaId}/voice`} className={buttonClass("secondary", "md", "mt-4 inline-block")}>
        {set.length === 0 ? VOICE_TEXT.add : VOICE_TEXT.edit}
      </Link>
    </Card>
  );
}

/** The persona's tests on its page: how many probes, the latest run (a failing one stands out), and the way to them. */
function TestsCard({ personaId, tests }: { personaId: string; tests: TestsSummary }) {
  return (
    <Card title={PROBE_TEXT.section} id="tests">
      {tests.probes === 0 ? (
        <p className="text-slate-600">{PROBE_TEXT.empty}</p>
      ) : (
        <p className="text-sm text-slate-700">
          {tests.probes === 1 ? "1 probe" : `${tests.probes} probes`}, run after every change to the persona.
        </p>
      )}
      {tests.latest ? (
        <p
          className={`mt-2 font-semibold ${tests.latest.failed ? "text-red-800" : "text-emerald-800"}`}
          data-testid="tests-latest"
          data-status={tests.latest.failed ? "failed" : "passed"}
          dir="auto"
        >
          {tests.latest.failed ? "Failing: " : "Passing: "}
          {tests.latest.text}
          <span className="ml-2 text-sm font-normal text-slate-600">({modelLabel(tests.latest.model)})</span>
        </p>
      ) : null}
      {tests.pending ? (
        <p className="mt-2 text-sm text-brand-900" role="status">
          A test run is under way.
        </p>
      ) : null}
      <div className="mt-4 flex flex-wrap gap-3">
        <Link to={`/persona/${personaId}/tests`} className={buttonClass("secondary", "md", "inline-block")}>
          {tests.probes === 0 ? PROBE_TEXT.suggest : PROBE_TEXT.open}
        </Link>
        {tests.probes > 0 ? (
          <Form method="post" action={`/persona/${personaId}/tests`}>
            <button
              type="submit"
              name="intent"
              value="run"
              disabled={tests.pending}
              className="rounded-lg border border-brand-300 bg-white px-4 py-2 text-sm font-medium text-brand-800 hover:bg-brand-50 disabled:opacity-60"
            >
              {PROBE_TEXT.run}
            </button>
          </Form>
        ) : null}
      </div>
    </Card>
  );
}

/**
 * Checks on your chats (docs/product.md, Chat: checks on your chats): per version, the replies
 * checked and flagged, and the newest flagged replies with what flagged them.
 */
function ChatChecksCard({ personaId, checks }: { personaId: string; checks: ChatChecks }) {
  const shown = checks.flagged.slice(0, 5);
  return (
    <Card title={REPLY_CHECK_TEXT.title} id="chat-checks">
      <p className="text-sm text-slate-700">{REPLY_CHECK_TEXT.intro}</p>
      {checks.versions.length === 0 ? (
        <p className="mt-3 text-slate-600">{REPLY_CHECK_TEXT.empty}</p>
      ) : (
        <table className="mt-3 w-full max-w-md text-left text-sm" data-testid="chat-checks-versions">
          <thead className="text-slate-600">
            <tr>
              <th scope="col" className="py-1 pr-3 font-medium">
                {REPLY_CHECK_TEXT.version}
              </th>
              <th scope="col" className="py-1 pr-3 text-right font-medium">
                {REPLY_CHECK_TEXT.checked}
              </th>
              <th scope="col" className="py-1 text-right font-medium">
                {REPLY_CHECK_TEXT.flagged}
              </th>
            </tr>
          </thead>
          <tbody className="text-slate-900">
            {checks.versions.map((row) => (
              <tr key={row.version} className="border-t border-slate-200">
                <th scope="row" className="py-1 pr-3 font-normal">
                  v{row.version}
                  {row.version === checks.currentVersion ? <span className="text-slate-600"> ({REPLY_CHECK_TEXT.current})</span> : null}
                </th>
                <td className="py-1 pr-3 text-right tabular-nums">{row.checked}</td>
                <td className={`py-1 text-right tabular-nums ${row.flagged ? "font-semibold text-red-800" : ""}`}>{row.flagged}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {shown.length ? (
        <>
          <h3 className="mt-4 font-semibold text-slate-900">{REPLY_CHECK_TEXT.flaggedTitle}</h3>
          <ul className="mt-2 space-y-3" data-testid="chat-checks-flagged">
            {shown.map((reply) => (
              <li key={reply.messageId} className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm">
                <p className="text-slate-900 [overflow-wrap:anywhere]" dir="auto">
                  <span className="font-medium">v{reply.version}: </span>
                  {reply.content.length > 240 ? `${reply.content.slice(0, 239)}…` : reply.content}
                </p>
                <ul className="mt-1 list-disc pl-5 text-red-900">
                  {reply.checks.map((flag, i) => (
                    <li key={i}>
                      <span className="font-semibold">{REPLY_CHECK_LABELS[flag.check]}:</span> {flag.detail}
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <Link to={`/persona/${personaId}?tab=chat`} className={buttonClass("secondary", "md", "mt-4 inline-block")}>
        {REPLY_CHECK_TEXT.openChat}
      </Link>
    </Card>
  );
}

/** The lore entries on the persona page: their titles, and the way to the lorebook. */
function LoreCard({ personaId, lore }: { personaId: string; lore: LoreSummary }) {
  return (
    <Card title={LORE_TEXT.title} id="lore">
      {lore.total === 0 ? (
        <p className="text-slate-600">{LORE_TEXT.empty}</p>
      ) : (
        <>
          <p className="text-sm text-slate-700">
            {lore.total === 1 ? "1 entry" : `${lore.total} entries`}
            {lore.enabled < lore.total ? `, ${lore.total - lore.enabled} disabled` : ""}. Chat uses an entry when one of its keys comes up.
          </p>
          <ul className="mt-3 flex flex-wrap gap-2" aria-label="Lore entries">
            {lore.entries.map((entry) => (
              <li
                key={entry.id}
                className={`rounded-full border px-3 py-1 text-sm ${entry.enabled ? "border-brand-200 bg-brand-50 text-brand-900" : "border-slate-300 bg-slate-50 text-slate-600 line-through"}`}
              >
                {entry.name}
                {entry.kind ? <span className="sr-only"> ({LORE_KIND_LABELS[entry.kind]})</span> : null}
              </li>
            ))}
            {lore.total > lore.entries.length ? (
              <li className="px-1 py-1 text-sm text-slate-600">and {lore.total - lore.entries.length} more</li>
            ) : null}
          </ul>
        </>
      )}
      <div className="mt-4 flex flex-wrap gap-3">
        <Link to={`/persona/${personaId}/lore`} className={buttonClass("secondary", "md", "inline-block")}>
          {lore.total === 0 ? LORE_TEXT.add : LORE_TEXT.open}
        </Link>
        <Form method="post" action={`/persona/${personaId}/lore`}>
          <button
            type="submit"
            name="intent"
            value="compile"
            className="rounded-lg border border-brand-300 bg-white px-4 py-2 text-sm font-medium text-brand-800 hover:bg-brand-50"
          >
            {LORE_TEXT.build}
          </button>
        </Form>
      </div>
    </Card>
  );
}

/** Where a draft is finished: the short step of an imported card, or the wizard. */
function continueHref(persona: { id: string; fromCard: boolean }) {
  return persona.fromCard ? `/persona/${persona.id}/finish-import` : `/create-persona?id=${persona.id}`;
}

const profileActionClass = "rounded-md px-1.5 py-0.5 text-sm font-medium text-brand-800 underline hover:bg-brand-50";
const NOT_STATED = "Not stated";

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
  const {
    persona,
    images,
    imageGeneration,
    extended,
    profileEdited,
    voice,
    lore,
    tests,
    chatChecks,
    greeting,
    downloads,
    createdAgo,
    imageElapsed,
    tab: loadedTab,
    chat,
  } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const chatFailed = actionData && "chatFailed" in actionData ? actionData.chatFailed : null;
  const imageFailed = actionData && "imageFailed" in actionData ? actionData.imageFailed : null;
  const hydrated = useHydrated();
  const location = useLocation();
  const navigation = useNavigation();
  // A tab being opened shows at once (the chat with 'Loading conversation history...').
  const opening =
    navigation.state === "loading" && navigation.location.pathname === location.pathname ? personaTab(navigation.location.search) : null;
  const tab = opening ?? loadedTab;
  const badge = statusBadge(persona.status);
  const facts: [string, string][] = [
    ["Created", createdAgo],
    ["Type", typeLabel(persona.type)],
    [
      "Gender",
      persona.gender ? (GENDER_LABELS[persona.gender as keyof typeof GENDER_LABELS] ?? persona.gender) : reviewFallbacks.notSpecified,
    ],
    ["Age range", persona.ageRange ?? reviewFallbacks.notSpecified],
    ["Status", badge.label],
  ];

  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <div>
        <Link to="/my-personas" className="text-sm font-medium text-brand-800 underline">
          <span aria-hidden="true">←</span> {PERSONA_PAGE_TEXT.back}
        </Link>
        {/* The name, its badge and its type stay together; the actions follow, each with its
            label (at medium widths, where they share the row with the name, the secondary ones
            show only their icons, their names in the tooltip and for screen readers). */}
        <div className="mt-3 flex flex-col gap-3 md:flex-row md:items-start md:justify-between">
          <div className="min-w-0">
            <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
              <h1 className="min-w-0 text-2xl font-bold text-slate-900 sm:text-3xl" dir="auto">
                {persona.name}
              </h1>
              <StatusBadge status={persona.status} />
            </div>
            <p className="mt-1 text-slate-700" data-testid="persona-type">
              {typeLabel(persona.type)}
            </p>
          </div>
          <div className="flex shrink-0 flex-wrap items-center gap-2" data-testid="persona-actions">
            <div className="flex items-center gap-2">
              {persona.status === "in_progress" ? (
                <Link to={continueHref(persona)} className={buttonClass("primary", "sm", "whitespace-nowrap")}>
                  {PERSONA_PAGE_TEXT.continueCreating}
                </Link>
              ) : (
                <Link to={`/persona/${persona.id}/edit`} className={buttonClass("primary", "sm", "inline-flex h-10 items-center gap-2")}>
                  <PencilIcon />
                  {PERSONA_PAGE_TEXT.edit}
                </Link>
              )}
              <DownloadMenu
                items={downloads}
                more={{ label: CARD_CHECK_TEXT.survivalLink, href: `/persona/${persona.id}/card-check#survival-heading` }}
              />
            </div>
            <div className="flex items-center gap-2">
              <Link
                to={`/persona/${persona.id}/history`}
                title={HISTORY_TEXT.link}
                className={buttonClass("secondary", "sm", "inline-flex h-10 items-center gap-2")}
              >
                <HistoryIcon />
                <span className="md:sr-only lg:not-sr-only">{HISTORY_TEXT.link}</span>
              </Link>
              <StatusButton
                persona={persona}
                change={persona.status === "archived" ? "restore" : "archive"}
                returnTo={`/persona/${persona.id}`}
                variant="compact"
              />
              <DeletePersonaButton persona={persona} returnTo="/my-personas" variant="compact" />
            </div>
          </div>
        </div>
      </div>

      <PersonaTabs personaId={persona.id} tab={tab} />
      {tab === "chat" ? (
        // Room below the panel on small screens, so the menu button never covers Send.
        <div
          id="panel-chat"
          role={hydrated ? "tabpanel" : undefined}
          aria-labelledby={hydrated ? "tab-chat" : undefined}
          className="pb-20 lg:pb-0"
        >
          <ChatPanel
            persona={{ ...persona, greeting, continueHref: continueHref(persona) }}
            chat={opening === "chat" && loadedTab !== "chat" ? null : chat}
            failed={chatFailed}
          />
          <ActionToast toast={chatFailed?.toast} />
        </div>
      ) : (
        <div
          id="panel-profile"
          role={hydrated ? "tabpanel" : undefined}
          aria-labelledby={hydrated ? "tab-profile" : undefined}
          className="space-y-6"
        >
          <h2 className="sr-only">{PERSONA_PAGE_TEXT.fullProfile}</h2>
          <div className="grid gap-6 lg:grid-cols-3">
            <div className="min-w-0 space-y-6">
              <ReferenceImageBox persona={persona} images={images} state={imageGeneration} elapsed={imageElapsed} failure={imageFailed} />
              {imageFailed ? <ActionToast toast={imageFailed.toast} /> : null}
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

            <div className="min-w-0 space-y-6 lg:col-span-2">
              <Card title="Interests" id="interests">
                <Chips items={persona.interests} empty={reviewFallbacks.interests} />
              </Card>
              <Card title="Personality Traits" id="traits">
                <Chips items={persona.personality} empty={reviewFallbacks.personality} />
              </Card>
              <Card title="Description" id="description">
                <p className="text-slate-800" dir={persona.description ? "auto" : undefined}>
                  {persona.description || reviewFallbacks.description}
                </p>
              </Card>
              <ReferenceImagesBlock persona={persona} images={images} />
              <Card title="Backstory" id="backstory">
                {persona.backstory ? (
                  <div className="space-y-3 text-slate-800">
                    {persona.backstory.split(/\n{2,}/).map((paragraph, i) => (
                      <p key={i} dir="auto">
                        {paragraph}
                      </p>
                    ))}
                  </div>
                ) : (
                  <p className="text-slate-600">{reviewFallbacks.backstory}</p>
                )}
              </Card>
            </div>
          </div>

          <VoiceCard personaId={persona.id} voice={voice} />

          <LoreCard personaId={persona.id} lore={lore} />

          <TestsCard personaId={persona.id} tests={tests} />

          <ChatChecksCard personaId={persona.id} checks={chatChecks} />

          <Card title={CARD_CHECK_TEXT.title} id="card-check">
            <p className="text-sm text-slate-700">{CARD_CHECK_TEXT.cardLine}</p>
            <Link to={`/persona/${persona.id}/card-check`} className={buttonClass("secondary", "md", "mt-4 inline-block")}>
              {CARD_CHECK_TEXT.open}
            </Link>
          </Card>

          <Card title={EXTENDED_PROFILE_TITLE} id="extended-profile">
            <div className="grid gap-6 md:grid-cols-2">
              {PROFILE_SECTIONS.map((section) => (
                <section key={section.key} aria-label={section.title}>
                  <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                    <h3 className="font-semibold text-slate-900">{section.title}</h3>
                    <Link
                      to={`/persona/${persona.id}/profile?section=${section.key}`}
                      aria-label={`${PROFILE_TEXT.edit} ${section.title}`}
                      className={profileActionClass}
                    >
                      {PROFILE_TEXT.edit}
                    </Link>
                    <RegenerateProfileButton
                      personaId={persona.id}
                      section={section.key}
                      title={section.title}
                      edited={profileEdited.includes(section.key)}
                      label={PROFILE_TEXT.regenerate}
                      className={profileActionClass}
                    />
                  </div>
                  <dl className="mt-2 space-y-2 text-sm">
                    {section.fields.map((field) => {
                      const value = extendedProfileValue(extended, field.key);
                      const shown = Array.isArray(value) ? value.join(", ") : value;
                      return (
                        <div key={field.key}>
                          <dt className="font-medium text-slate-600">{field.label}</dt>
                          <dd className={shown ? "text-slate-900" : "text-slate-600"}>{shown || NOT_STATED}</dd>
                        </div>
                      );
                    })}
                  </dl>
                </section>
              ))}
            </div>
            <div className="mt-6">
              <RegenerateProfileButton
                personaId={persona.id}
                section="all"
                title={EXTENDED_PROFILE_TITLE}
                edited={profileEdited.length > 0}
                label={PROFILE_TEXT.regenerateAll}
                className={buttonClass("secondary", "md")}
              />
            </div>
            <p className="mt-6 flex items-center gap-2 text-sm text-slate-600">
              <UserIcon /> {EXTENDED_PROFILE_NOTE}
            </p>
          </Card>
        </div>
      )}
    </div>
  );
}

export const ErrorBoundary = PersonaErrorBoundary;
