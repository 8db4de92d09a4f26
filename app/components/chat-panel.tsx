// The persona page's Chat tab (docs/product.md, Chat: the panel, its states, rules and toasts).
// Without JavaScript every action is a form post: sending and regenerating post to the persona
// page's action, which answers with the whole conversation at #newest; Clear goes through a
// confirmation page. With JavaScript the same forms are enhanced: the reply streams into its
// bubble from the JSON API (server-sent events), the input is disabled while a reply is pending,
// Enter sends (Shift+Enter makes a new line), Clear asks in a dialog, and a failure puts the
// text back into the input with the 'Failed to get a response' toast. The message form is
// conform's: the message rule checks it on send (and again as the creator corrects it), and
// the action's refusal without JavaScript arrives as its last result.
import { getFormProps, parse, useForm, type SubmissionResult } from "@conform-to/react";
import { Form, Link, useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect, useId, useRef, useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";

import {
  CHAT_TEXT,
  CHAT_TOASTS,
  chatAvailability,
  checkChatMessage,
  messageCount,
  NEWEST_ANCHOR,
  type ChatMessageView,
} from "~/domain/chat";
import { CHAT_FORMAT_LABELS, CHAT_FORMATS, CHAT_IMPORT_TEXT } from "~/domain/chat-transfer";
import { PERSONA_LIMITS } from "~/domain/persona";

import { ActionToast, useToast } from "./toaster";
import { ChatIcon, TrashIcon } from "./ui/icons";
import { ConfirmDialog } from "./ui/modal";
import { useBrowserLayoutEffect } from "./ui/use-browser-layout-effect";
import { Button, buttonClass } from "./ui/button";

// Fixed so the page does not jump as messages arrive; its own scroll keeps the newest in view.
const PANEL_HEIGHT = "h-[600px] xl:h-[700px]";

export interface ChatPanelProps {
  /** greeting: the persona's own first message (docs/product.md, Voice), placeholders filled; else the default one. */
  persona: { id: string; name: string; status: string; greeting?: string | null; continueHref?: string };
  /** null while the conversation loads (client navigation to the tab). */
  chat: { messages: ChatMessageView[]; formKey: string; historyFailed: boolean } | null;
  /** A refused send without JavaScript: the message and why. */
  failed?: { message: string; error: string; result?: SubmissionResult<string[]> | null } | null;
}

/**
 * The message form's submission, by the rule the message schema holds (checkChatMessage, which
 * chat-form.ts's schema runs for the action without JavaScript): conform's own parse, so the
 * page ships no schema library for one field.
 */
export function parseMessage(formData: FormData) {
  return parse(formData, {
    resolve: (payload) => {
      const checked = checkChatMessage(payload.message ?? "");
      return checked.ok ? { value: { message: checked.message } } : { error: { message: [checked.error] } };
    },
  });
}

function localTime(iso: string, zone?: string): string {
  return new Date(iso).toLocaleTimeString("en-US", { hour: "numeric", minute: "2-digit", ...(zone ? { timeZone: zone } : {}) });
}

function useLocalTime(iso: string): string {
  const [text, setText] = useState(() => localTime(iso, "UTC"));
  useEffect(() => setText(localTime(iso)), [iso]);
  return text;
}

function Bubble({
  message,
  name,
  streaming,
  timeless,
}: {
  message: ChatMessageView;
  name: string;
  streaming?: boolean;
  timeless?: boolean;
}) {
  const mine = message.role === "user";
  const time = useLocalTime(message.timestamp);
  return (
    <li
      className={`flex ${mine ? "justify-end" : "justify-start"}`}
      data-testid={timeless ? "chat-greeting" : streaming ? "chat-streaming" : "chat-message"}
      data-role={message.role}
    >
      <div
        className={`max-w-[85%] rounded-2xl px-4 py-2 shadow-sm sm:max-w-[75%] ${
          mine ? "rounded-br-sm bg-brand-700 text-white" : "rounded-bl-sm bg-slate-100 text-slate-900"
        }`}
        data-streaming={streaming ? "true" : undefined}
      >
        <span className="sr-only">{mine ? CHAT_TEXT.you : name}: </span>
        <span className="whitespace-pre-wrap break-words" data-testid="chat-message-text">
          {message.content}
        </span>
        {!mine && message.lore?.length ? (
          <details className="mt-1 text-xs text-slate-700" data-testid="lore-used">
            <summary className="cursor-pointer rounded underline-offset-2 hover:underline">
              {CHAT_TEXT.loreUsed} ({message.lore.length})
            </summary>
            <ul className="mt-1 list-disc pl-4">
              {message.lore.map((entry) => (
                <li key={entry.id}>{entry.name}</li>
              ))}
            </ul>
          </details>
        ) : null}
        {streaming || timeless ? null : (
          <span className={`mt-1 block text-xs ${mine ? "text-brand-50" : "text-slate-600"}`}>
            <time dateTime={message.timestamp} suppressHydrationWarning>
              {time}
            </time>
            {!mine && message.version ? (
              <span data-testid="chat-message-version">
                {" · "}
                <abbr title={CHAT_TEXT.writtenWith(message.version)} className="no-underline">
                  v{message.version}
                </abbr>
                <span className="sr-only"> ({CHAT_TEXT.writtenWith(message.version)})</span>
              </span>
            ) : null}
          </span>
        )}
      </div>
    </li>
  );
}

/**
 * ‹ 2 / 3 ›: flips between the last reply's alternatives (docs/product.md, Chat: alternatives).
 * Each arrow is a form (intent=choose) that works without JavaScript; with it, the flip is
 * immediate and the server confirms it. At either end the arrow stays focusable but does nothing
 * (aria-disabled), so the keyboard focus is never lost; without JavaScript it is disabled.
 */
function Alternatives({
  message,
  action,
  hydrated,
  saving,
  onChoose,
}: {
  message: ChatMessageView;
  action: string;
  hydrated: boolean;
  /** A choice is on its way to the server. */
  saving: boolean;
  onChoose: (index: number) => void;
}) {
  const total = message.alternatives?.length ?? 1;
  const chosen = message.chosen ?? total - 1;
  const arrow = (index: number, label: string, glyph: string) => {
    const out = index < 0 || index >= total;
    return (
      <form
        method="post"
        action={action}
        onSubmit={
          hydrated
            ? (event) => {
                event.preventDefault();
                if (!out) onChoose(index);
              }
            : undefined
        }
      >
        <input type="hidden" name="intent" value="choose" />
        <input type="hidden" name="messageId" value={message.id} />
        <input type="hidden" name="index" value={index} />
        <Button
          type="submit"
          variant="secondary"
          size="xs"
          className="min-h-9 min-w-9 aria-disabled:cursor-not-allowed aria-disabled:opacity-60"
          aria-label={label}
          disabled={!hydrated && out}
          aria-disabled={hydrated && out ? true : undefined}
        >
          <span aria-hidden="true">{glyph}</span>
        </Button>
      </form>
    );
  };
  return (
    <div
      className="flex items-center gap-1"
      role="group"
      aria-label={CHAT_TEXT.alternatives}
      data-testid="chat-alternatives"
      data-saving={saving ? "true" : undefined}
    >
      {arrow(chosen - 1, CHAT_TEXT.previousAlternative, "‹")}
      <span
        className="min-w-[3.5rem] text-center text-sm tabular-nums text-slate-700"
        aria-live="polite"
        data-testid="chat-alternative-position"
      >
        <span aria-hidden="true">
          {chosen + 1} / {total}
        </span>
        <span className="sr-only">{CHAT_TEXT.alternativePosition(chosen + 1, total)}</span>
      </span>
      {arrow(chosen + 1, CHAT_TEXT.nextAlternative, "›")}
    </div>
  );
}

function TypingIndicator({ name }: { name: string }) {
  return (
    <li className="flex justify-start" data-testid="typing-indicator">
      <div className="flex items-center gap-1 rounded-2xl rounded-bl-sm bg-slate-100 px-4 py-3">
        <span className="sr-only">{CHAT_TEXT.typing(name)}</span>
        {[0, 150, 300].map((delay) => (
          <span
            key={delay}
            aria-hidden="true"
            className="h-2 w-2 animate-bounce rounded-full bg-slate-500"
            style={{ animationDelay: `${delay}ms` }}
          />
        ))}
      </div>
    </li>
  );
}

/** Reads a stream of server-sent events, calling back for each `event:`/`data:` block. */
async function readEvents(body: ReadableStream<Uint8Array>, onEvent: (event: string, data: unknown) => void) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let cut = buffer.indexOf("\n\n");
    while (cut >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      let event = "message";
      const data: string[] = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("event:")) event = line.slice(6).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
      }
      if (data.length > 0) onEvent(event, JSON.parse(data.join("\n")));
      cut = buffer.indexOf("\n\n");
    }
  }
}

/** A finished reply as the stream's `done` event says it. */
interface Reply {
  messageId: string;
  response: string;
  version?: number;
  alternatives?: string[];
  chosen?: number;
}

/** A failure whose message is meant for the creator (the API's words, or the documented toast's). */
class ChatFailure extends Error {}

async function failureText(response: Response): Promise<string> {
  // The API's own words for a limit or a state (429, 409); the documented toast for anything else.
  if (response.status === 409 || response.status === 429) {
    const body = (await response.json().catch(() => null)) as { message?: unknown } | null;
    if (typeof body?.message === "string") return body.message;
  }
  return CHAT_TOASTS.sendFailed.description;
}

export function ChatPanel({ persona, chat, failed }: ChatPanelProps) {
  const hydrated = useHydrated();
  const toast = useToast();
  const revalidator = useRevalidator();
  const availability = chatAvailability(persona.status);
  const open = availability === "open";
  const stored = chat?.messages;

  const [messages, setMessages] = useState<ChatMessageView[]>(stored ?? []);
  const [pending, setPending] = useState(false);
  const [streamed, setStreamed] = useState<string | null>(null);
  const [input, setInput] = useState(failed?.message ?? "");
  const scrollRef = useRef<HTMLDivElement>(null);
  const sectionRef = useRef<HTMLElement>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const refocus = useRef(false);
  const ids = { title: useId(), hint: useId(), error: useId() };
  const [form, fields] = useForm({
    id: `${ids.title}-message`,
    lastResult: failed?.result ?? undefined,
    onValidate: ({ formData }) => parseMessage(formData),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onSubmit: (event, { submission }) => {
      event.preventDefault();
      if (pending || submission?.status !== "success") return;
      setInput("");
      void streamReply(`/api/personas/${persona.id}/chat`, { message: submission.value.message }, false);
    },
  });
  const error = fields.message.errors?.[0] ?? null;

  // The loader's conversation is the truth whenever no reply is on its way.
  // Only a new conversation from the loader replaces the shown one: the end of a reply (pending
  // turning false) must not bring back the loader's older copy.
  useEffect(() => {
    if (stored && !pending) setMessages(stored);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [stored]);

  useEffect(() => {
    setInput(failed?.message ?? "");
  }, [failed]);

  useBrowserLayoutEffect(() => {
    // The reversed box's end is its start: 0 shows the newest message.
    const box = scrollRef.current;
    if (box) box.scrollTop = 0;
  }, [messages, streamed, pending, chat]);

  // When the conversation opens, the whole panel (the newest message and the input) comes into view.
  const shownOnce = useRef(false);
  useEffect(() => {
    if (!chat || shownOnce.current) return;
    shownOnce.current = true;
    sectionRef.current?.scrollIntoView({ block: "nearest" });
  }, [chat]);

  useEffect(() => {
    if (!pending && refocus.current) {
      refocus.current = false;
      inputRef.current?.focus();
    }
  }, [pending]);

  async function streamReply(url: string, body: { message: string } | null, replaceLast: boolean) {
    const before = messages;
    const optimistic: ChatMessageView | null = body
      ? // eslint-disable-next-line no-restricted-syntax -- sending a message (an event), not a render
        { id: `pending-${Date.now()}`, role: "user", content: body.message, timestamp: new Date().toISOString() }
      : null;
    let next = replaceLast && messages.at(-1)?.role === "assistant" ? messages.slice(0, -1) : messages;
    if (optimistic) next = [...next, optimistic];
    setMessages(next);
    setPending(true);
    setStreamed("");
    refocus.current = true;
    try {
      const response = await fetch(url, {
        method: "POST",
        credentials: "same-origin",
        headers: { Accept: "text/event-stream", ...(body ? { "Content-Type": "application/json" } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      if (!response.ok || !response.body) throw new ChatFailure(await failureText(response));
      let reply: Reply | null = null;
      let problem: string | null = null;
      await readEvents(response.body, (event, data) => {
        const value = data as {
          text?: string;
          messageId?: string;
          response?: string;
          message?: string;
          version?: unknown;
          alternatives?: unknown;
          chosen?: unknown;
        };
        if (event === "token" && typeof value.text === "string") setStreamed((text) => (text ?? "") + value.text);
        else if (event === "done" && value.messageId && typeof value.response === "string") {
          reply = {
            messageId: value.messageId,
            response: value.response,
            ...(typeof value.version === "number" ? { version: value.version } : {}),
            ...(Array.isArray(value.alternatives) && typeof value.chosen === "number"
              ? { alternatives: value.alternatives.map(String), chosen: value.chosen }
              : {}),
          };
        } else if (event === "error") problem = typeof value.message === "string" ? value.message : null;
      });
      const done = reply as Reply | null;
      if (!done) throw new ChatFailure(problem ?? CHAT_TOASTS.sendFailed.description);
      setMessages((list) => [
        ...list,
        {
          id: done.messageId,
          role: "assistant",
          content: done.response,
          // eslint-disable-next-line no-restricted-syntax -- a streamed reply's end (an event), not a render
          timestamp: new Date().toISOString(),
          ...(done.version ? { version: done.version } : {}),
          ...(done.alternatives ? { alternatives: done.alternatives, chosen: done.chosen } : {}),
        },
      ]);
      setStreamed(null);
      setPending(false);
      // Real ids and times for the user's message.
      revalidator.revalidate();
    } catch (failure) {
      setMessages(before);
      setStreamed(null);
      setPending(false);
      if (optimistic) setInput(optimistic.content);
      // A dropped connection or an unreadable answer reads as the documented toast.
      const description = failure instanceof ChatFailure ? failure.message : CHAT_TOASTS.sendFailed.description;
      toast({ type: "error", title: CHAT_TOASTS.sendFailed.title, description });
    }
  }

  function onRegenerate(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    void streamReply(`/api/personas/${persona.id}/chat/regenerate`, null, true);
  }

  // Choices are sent one after another, so the server ends on the last one shown; only the
  // answer to the newest choice updates the bubble.
  const chooseChain = useRef<Promise<void>>(Promise.resolve());
  const chooseSeq = useRef(0);
  const [choosing, setChoosing] = useState(0);

  /** Shows another alternative of the last reply at once; the server's answer then confirms it. */
  function choose(message: ChatMessageView, index: number) {
    if (pending || !message.alternatives || index < 0 || index >= message.alternatives.length) return;
    const before = messages;
    const picked = { ...message, content: message.alternatives[index]!, chosen: index };
    setMessages((list) => list.map((m) => (m.id === message.id ? picked : m)));
    const seq = ++chooseSeq.current;
    setChoosing((n) => n + 1);
    chooseChain.current = chooseChain.current
      .then(async () => {
        const response = await fetch(`/api/personas/${persona.id}/chat/messages/${message.id}/choose`, {
          method: "POST",
          credentials: "same-origin",
          headers: { "Content-Type": "application/json", Accept: "application/json" },
          body: JSON.stringify({ index }),
        });
        const body = (await response.json().catch(() => null)) as { message?: unknown } | null;
        if (!response.ok) throw new ChatFailure(typeof body?.message === "string" ? body.message : CHAT_TOASTS.sendFailed.description);
        const confirmed = body?.message as ChatMessageView | undefined;
        if (seq === chooseSeq.current && confirmed && typeof confirmed === "object")
          setMessages((list) => list.map((m) => (m.id === message.id ? confirmed : m)));
      })
      .catch((failure: unknown) => {
        if (seq === chooseSeq.current) setMessages(before);
        const description = failure instanceof ChatFailure ? failure.message : CHAT_TOASTS.sendFailed.description;
        toast({ type: "error", title: CHAT_TOASTS.sendFailed.title, description });
      })
      .finally(() => setChoosing((n) => n - 1));
  }

  const shown = hydrated ? messages : (stored ?? []);
  const last = shown.at(-1);
  const action = `/persona/${persona.id}?tab=chat`;
  const inputDisabled = !chat || pending || !open;

  return (
    <section
      ref={sectionRef}
      // The address a send without JavaScript lands on (#newest): the whole panel, below the sticky header.
      id={NEWEST_ANCHOR}
      aria-labelledby={ids.title}
      className={`flex ${PANEL_HEIGHT} scroll-mt-20 flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm`}
      data-testid="chat-panel"
    >
      {/* The title wraps between words ('anywhere', the page's rule for long words, would let it
          break inside one to make room): the buttons go to a line of their own when it needs the room. */}
      <header className="flex flex-wrap items-center justify-between gap-x-3 gap-y-2 border-b border-slate-200 px-4 py-3">
        <h2 id={ids.title} className="flex min-w-0 items-center gap-2 text-lg font-semibold text-slate-900 [overflow-wrap:break-word]">
          <ChatIcon className="shrink-0 text-brand-700" />
          <span className="min-w-0">{CHAT_TEXT.conversationLabel(persona.name)}</span>
        </h2>
        {open && chat ? (
          <div className="flex shrink-0 items-center gap-2">
            <ClearChatButton persona={persona} disabled={pending} />
          </div>
        ) : null}
      </header>

      <div
        ref={scrollRef}
        // Reversed, so that it opens scrolled to the newest message even without JavaScript.
        className="flex flex-1 flex-col-reverse overflow-y-auto px-4 py-4"
        role="log"
        aria-label={CHAT_TEXT.conversationLabel(persona.name)}
        aria-busy={pending || !chat}
        tabIndex={0}
      >
        <div className={chat ? undefined : "h-full"}>
          {!chat ? (
            <p className="flex h-full items-center justify-center text-slate-600" role="status">
              {CHAT_TEXT.loading}
            </p>
          ) : (
            <>
              {/* Once per conversation, above its first message: the replies are AI-generated (docs/product.md, AI disclosure). */}
              <p className="mb-4 text-center text-xs text-slate-600" data-testid="chat-ai-notice">
                {CHAT_TEXT.aiNotice(persona.name)}
              </p>
              <ol className="space-y-4">
                {shown.length === 0 && !pending ? (
                  <Bubble
                    message={{
                      id: "greeting",
                      role: "assistant",
                      content: persona.greeting || CHAT_TEXT.greeting(persona.name),
                      timestamp: new Date(0).toISOString(),
                    }}
                    name={persona.name}
                    timeless
                  />
                ) : null}
                {shown.map((message) => (
                  <Bubble key={message.id} message={message} name={persona.name} />
                ))}
                {pending && streamed ? (
                  <Bubble
                    // eslint-disable-next-line no-restricted-syntax -- a reply streaming in the browser: never on the server
                    message={{ id: "streaming", role: "assistant", content: streamed, timestamp: new Date().toISOString() }}
                    name={persona.name}
                    streaming
                  />
                ) : null}
                {pending && !streamed ? <TypingIndicator name={persona.name} /> : null}
              </ol>
            </>
          )}
          {open && chat && last && !pending ? (
            <div className="mt-3 flex flex-wrap items-center gap-x-3 gap-y-2">
              {last.role === "assistant" && last.alternatives && last.alternatives.length > 1 ? (
                <Alternatives
                  message={last}
                  action={action}
                  hydrated={hydrated}
                  saving={choosing > 0}
                  onChoose={(index) => choose(last, index)}
                />
              ) : null}
              <form method="post" action={action} onSubmit={hydrated ? onRegenerate : undefined}>
                <input type="hidden" name="intent" value="regenerate" />
                <Button type="submit" variant="secondary" size="xs">
                  {last.role === "assistant" ? CHAT_TEXT.regenerate : CHAT_TEXT.replyToLast}
                </Button>
              </form>
            </div>
          ) : null}
        </div>
      </div>

      {availability === "draft" ? (
        <p className="border-t border-slate-200 px-4 py-3 text-slate-700">
          {CHAT_TEXT.draftNote}.{" "}
          <Link to={persona.continueHref ?? `/create-persona?id=${persona.id}`} className="font-semibold text-brand-800 underline">
            {CHAT_TEXT.continueCreating}
          </Link>
        </p>
      ) : null}
      {availability === "archived" ? <p className="border-t border-slate-200 px-4 py-3 text-slate-700">{CHAT_TEXT.archivedNote}</p> : null}

      {open ? (
        <form ref={formRef} method="post" action={action} {...getFormProps(form)} className="border-t border-slate-200 px-4 py-3">
          <input type="hidden" name="intent" value="send" />
          <input type="hidden" name="key" value={chat?.formKey ?? ""} />
          <div className="flex items-end gap-2">
            <label htmlFor={`${ids.title}-input`} className="sr-only">
              {CHAT_TEXT.inputLabel}
            </label>
            <textarea
              ref={inputRef}
              id={`${ids.title}-input`}
              name={fields.message.name}
              rows={2}
              placeholder={CHAT_TEXT.placeholder}
              // Browser limits only without JavaScript; with it the same rules are checked on send.
              required={!hydrated}
              maxLength={hydrated ? undefined : PERSONA_LIMITS.chatMessageMax}
              value={input}
              onChange={(e) => setInput(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
                  e.preventDefault();
                  // Nothing is sent for an empty message, and nothing is said either.
                  if (input.trim() !== "") formRef.current?.requestSubmit();
                }
              }}
              disabled={inputDisabled}
              aria-describedby={[hydrated ? ids.hint : null, error ? ids.error : null].filter(Boolean).join(" ") || undefined}
              aria-invalid={error ? true : undefined}
              className="min-h-[2.75rem] flex-1 resize-none rounded-lg border border-slate-300 px-3 py-2 text-slate-900 placeholder:text-slate-500 focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600 disabled:bg-slate-100"
            />
            <Button type="submit" disabled={inputDisabled || (hydrated && input.trim() === "")} size="lg">
              {CHAT_TEXT.send}
            </Button>
          </div>
          {/* Enter sends only with JavaScript; without it, Enter makes a new line and Send sends, so
              the hint is not shown. Its line is kept either way: the form does not grow when the
              page hydrates (no layout shift). */}
          <p
            id={ids.hint}
            className={`mt-1 text-xs text-slate-600 ${hydrated ? "" : "invisible"}`}
            aria-hidden={hydrated ? undefined : true}
          >
            {CHAT_TEXT.hint}
          </p>
          {error ? (
            <p id={ids.error} role="alert" className="mt-1 text-sm font-medium text-red-700">
              {error}
            </p>
          ) : null}
        </form>
      ) : null}

      <footer className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 border-t border-slate-200 bg-slate-50 px-4 py-2 text-sm text-slate-700">
        <span data-testid="chat-count">{messageCount(shown.length)}</span>
        {chat && shown.length ? (
          <span className="flex flex-wrap items-center gap-x-1" data-testid="chat-downloads">
            <span>{CHAT_TEXT.downloadShort}:</span>
            {CHAT_FORMATS.map((format, i) => (
              <span key={format}>
                <a
                  href={`/persona/${persona.id}/chat.${format}`}
                  download
                  className="rounded px-1 font-medium text-brand-800 underline hover:bg-brand-50"
                  aria-label={CHAT_TEXT.downloadAs(persona.name, CHAT_FORMAT_LABELS[format])}
                >
                  {CHAT_FORMAT_LABELS[format]}
                </a>
                {i < CHAT_FORMATS.length - 1 ? <span aria-hidden="true">·</span> : null}
              </span>
            ))}
          </span>
        ) : null}
        {open && chat && !chat.historyFailed && shown.length === 0 && !pending ? <ChatImportForm personaId={persona.id} /> : null}
      </footer>
      {chat?.historyFailed ? <ActionToast toast={{ type: "error", ...CHAT_TOASTS.historyFailed }} /> : null}
    </section>
  );
}

/** Clear asks first: with JavaScript in a dialog, without it on a confirmation page. */
function ClearChatButton({ persona, disabled }: { persona: { id: string; name: string }; disabled: boolean }) {
  const hydrated = useHydrated();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const navigation = useNavigation();
  const action = `/persona/${persona.id}/clear-chat`;
  const clearing = navigation.state !== "idle" && navigation.formAction === action;
  const className = buttonClass("secondary", "xs", "inline-flex items-center gap-2");
  if (!hydrated) {
    return (
      <Link to={action} className={className}>
        <TrashIcon />
        {CHAT_TEXT.clear}
      </Link>
    );
  }
  return (
    <>
      <button type="button" className={className} disabled={disabled || clearing} onClick={() => dialogRef.current?.showModal()}>
        <TrashIcon />
        {CHAT_TEXT.clear}
      </button>
      <ConfirmDialog
        dialogRef={dialogRef}
        action={action}
        title={CHAT_TEXT.clearTitle}
        text={CHAT_TEXT.clearText(persona.name)}
        cancelLabel={CHAT_TEXT.cancel}
        confirmLabel={CHAT_TEXT.clearConfirm}
        tone="danger"
        preventScrollReset
        data-testid="clear-chat-dialog"
      />
    </>
  );
}

/**
 * Import a SillyTavern chat into an empty conversation: a multipart form, posted as it is without
 * JavaScript and through Remix's Form with it; the answer comes back as a toast.
 */
function ChatImportForm({ personaId }: { personaId: string }) {
  const navigation = useNavigation();
  const action = `/persona/${personaId}/chat-import`;
  const busy = navigation.state !== "idle" && navigation.formAction === action;
  const inputId = useId();
  return (
    <Form
      method="post"
      action={action}
      encType="multipart/form-data"
      className="flex w-full flex-wrap items-end gap-2"
      data-testid="chat-import"
    >
      <div className="min-w-0 flex-1">
        <label htmlFor={inputId} className="block font-medium text-slate-800">
          {CHAT_IMPORT_TEXT.label}
        </label>
        <input
          id={inputId}
          name="file"
          type="file"
          required
          accept=".jsonl,application/jsonl,application/x-ndjson,text/plain"
          className="mt-1 block w-full text-sm text-slate-800 file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-2.5 file:py-1 file:text-sm file:font-medium"
        />
      </div>
      <Button type="submit" variant="secondary" size="sm" disabled={busy}>
        {CHAT_IMPORT_TEXT.button}
      </Button>
    </Form>
  );
}
