// A persona as a card (docs/product.md, Dashboard and Library): placeholder icon without an image,
// 'Character' when the type is missing, the status badge, 'View Details' or 'Continue
// Creating', and the actions the list allows (archive, restore, delete). The status badge is
// shared with the persona page.
import { Form, Link, useNavigation } from "@remix-run/react";
import { useId, useRef } from "react";
import { useHydrated } from "remix-utils/use-hydrated";

import { LIST_TEXT } from "~/domain/persona-list";
import { statusBadge, typeLabel } from "~/domain/persona-display";
import { REPLY_CHECK_TEXT } from "~/domain/reply-check-text";

import { ArchiveIcon, RestoreIcon, TrashIcon, UserIcon } from "./ui/icons";
import { ConfirmDialog } from "./ui/modal";
import { Button, buttonClass } from "./ui/button";

export interface CardPersona {
  id: string;
  name: string;
  type: string | null;
  description: string | null;
  status: string;
  imageUrl: string | null;
  createdAt: string | Date;
  /** 'Created 3 days ago', worked out when the page's data was read. */
  createdAgo: string;
  /** The latest finished test run, when the persona has run one. */
  tests?: { passed: number; failed: number; total: number; status: string } | null;
  /** The current version's replies in chat, when the checks flag more of them than the badge allows. */
  chatFlags?: { checked: number; flagged: number } | null;
}

/** 'Slips in chat': the checks flagged many of this version's replies in the creator's chats. */
function ChatFlagsBadge({ flags }: { flags: NonNullable<CardPersona["chatFlags"]> }) {
  const percent = Math.round((flags.flagged / flags.checked) * 100);
  return (
    <span
      className="mr-1 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900"
      data-testid="chat-flags-badge"
      title={REPLY_CHECK_TEXT.badgeTitle(percent)}
    >
      {REPLY_CHECK_TEXT.badge}
      <span className="sr-only">: {REPLY_CHECK_TEXT.badgeTitle(percent)}</span>
    </span>
  );
}

/** A small badge with the latest test run: green when every probe passed, red otherwise. */
function TestsBadge({ tests }: { tests: NonNullable<CardPersona["tests"]> }) {
  const failing = tests.failed > 0 || tests.status === "failed";
  return (
    <span
      className={`mr-1 rounded-full px-2 py-0.5 text-xs font-semibold ${failing ? "bg-red-100 text-red-900" : "bg-emerald-100 text-emerald-900"}`}
      data-testid="tests-badge"
      data-status={failing ? "failed" : "passed"}
      title={failing ? "The latest test run found problems" : "Every probe passed in the latest test run"}
    >
      <span className="sr-only">Tests: </span>
      {tests.passed}/{tests.total}
      <span className="sr-only">{failing ? " passed, some failed" : " passed"}</span>
    </span>
  );
}

const toneClass = {
  green: "bg-emerald-100 text-emerald-900",
  blue: "bg-blue-100 text-blue-900",
  grey: "bg-slate-200 text-slate-800",
} as const;

export function StatusBadge({ status }: { status: string }) {
  const badge = statusBadge(status);
  return <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${toneClass[badge.tone]}`}>{badge.label}</span>;
}

/** Where a card's main link goes: the page, or the wizard for a draft. */
export function personaHref(persona: Pick<CardPersona, "id" | "status">): { to: string; label: string } {
  return persona.status === "in_progress"
    ? { to: `/create-persona?id=${persona.id}`, label: LIST_TEXT.continueCreating }
    : { to: `/persona/${persona.id}`, label: LIST_TEXT.viewDetails };
}

export function PersonaCard({
  persona,
  actions,
  returnTo,
}: {
  persona: CardPersona;
  /** Which actions the card offers (docs/product.md, Library: archive only when not archived; the dashboard offers delete only). */
  actions: { archive?: boolean; restore?: boolean; delete?: boolean };
  /** Where the actions come back to. */
  returnTo: string;
}) {
  const main = personaHref(persona);
  const titleId = useId();
  return (
    <article
      aria-labelledby={titleId}
      className="flex h-full flex-col rounded-2xl border border-slate-200 bg-white p-4 shadow-sm"
      data-testid="persona-card"
    >
      {/* A small picture beside the name: the card is about the persona, not the placeholder. */}
      <div className="flex items-start gap-3">
        <div className="flex h-14 w-14 shrink-0 items-center justify-center overflow-hidden rounded-xl bg-gradient-to-br from-brand-50 to-slate-100 text-2xl text-brand-700">
          {persona.imageUrl ? <img src={persona.imageUrl} alt="" className="h-full w-full object-cover" loading="lazy" /> : <UserIcon />}
        </div>
        <div className="min-w-0 flex-1">
          <h3 id={titleId} className="truncate text-lg font-semibold text-slate-900" dir="auto">
            {persona.name}
          </h3>
          <div className="mt-0.5 flex items-center justify-between gap-2">
            <p className="min-w-0 truncate text-sm text-slate-600">{typeLabel(persona.type)}</p>
            <span className="shrink-0">
              {persona.chatFlags ? <ChatFlagsBadge flags={persona.chatFlags} /> : null}
              {persona.tests ? <TestsBadge tests={persona.tests} /> : null}
              <StatusBadge status={persona.status} />
            </span>
          </div>
        </div>
      </div>
      <p className="mt-3 line-clamp-2 min-h-[2.5rem] text-sm text-slate-700" dir="auto">
        {persona.description || "No description provided"}
      </p>
      <div className="mt-auto flex items-center justify-between gap-2 pt-3">
        <p className="min-w-0 truncate text-xs text-slate-600">
          Created{" "}
          <time dateTime={new Date(persona.createdAt).toISOString()} suppressHydrationWarning>
            {persona.createdAgo}
          </time>
        </p>
        <div className="flex shrink-0 items-center gap-2">
          {actions.archive && persona.status !== "archived" ? (
            <StatusButton persona={persona} change="archive" returnTo={returnTo} />
          ) : null}
          {actions.restore && persona.status === "archived" ? (
            <StatusButton persona={persona} change="restore" returnTo={returnTo} />
          ) : null}
          {actions.delete ? <DeletePersonaButton persona={persona} returnTo={returnTo} variant="icon" /> : null}
        </div>
      </div>
      <Link to={main.to} className={buttonClass("primary", "sm", "mt-3 block whitespace-nowrap")} aria-describedby={titleId}>
        {main.label}
      </Link>
    </article>
  );
}

const iconButton =
  "inline-flex h-10 w-10 items-center justify-center rounded-lg border border-slate-300 text-lg text-slate-700 hover:bg-slate-100 disabled:opacity-60";

/** Archive or restore: a form post, so it works without JavaScript; the list refreshes after it. */
export function StatusButton({
  persona,
  change,
  returnTo,
  variant = "icon",
}: {
  persona: Pick<CardPersona, "id" | "name">;
  change: "archive" | "restore";
  returnTo: string;
  /** "compact": the icon with its label, the label only for screen readers at medium widths. */
  variant?: "icon" | "text" | "compact";
}) {
  const navigation = useNavigation();
  const action = `/persona/${persona.id}/status`;
  const busy = navigation.state !== "idle" && navigation.formAction === action;
  const label = change === "archive" ? LIST_TEXT.archive : LIST_TEXT.restore;
  const Icon = change === "archive" ? ArchiveIcon : RestoreIcon;
  return (
    <Form method="post" action={action} preventScrollReset>
      <input type="hidden" name="intent" value={change} />
      <input type="hidden" name="redirectTo" value={returnTo} />
      {variant === "icon" ? (
        <button type="submit" disabled={busy} className={iconButton} title={`${label} ${persona.name}`}>
          <Icon />
          <span className="sr-only">
            {label} {persona.name}
          </span>
        </button>
      ) : (
        <Button
          type="submit"
          disabled={busy}
          title={variant === "compact" ? label : undefined}
          variant="secondary"
          size="sm"
          className="inline-flex h-10 items-center gap-2"
        >
          <Icon />
          {variant === "compact" ? <span className="md:sr-only lg:not-sr-only">{label}</span> : label}
        </Button>
      )}
    </Form>
  );
}

export const DELETE_TEXT = {
  title: (name: string) => `Delete ${name}?`,
  text: "This removes the persona with its chat history and images. It cannot be undone.",
  confirm: "Delete",
  cancel: "Cancel",
} as const;

/**
 * Delete asks first: with JavaScript in a dialog, without it on a confirmation page
 * (/persona/{id}/delete). Either way the confirmation is a form post.
 */
export function DeletePersonaButton({
  persona,
  returnTo,
  variant,
}: {
  persona: Pick<CardPersona, "id" | "name">;
  returnTo: string;
  /** "compact": the icon with its label, the label only for screen readers at medium widths. */
  variant: "icon" | "text" | "compact";
}) {
  const hydrated = useHydrated();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const confirmUrl = `/persona/${persona.id}/delete?redirectTo=${encodeURIComponent(returnTo)}`;
  const navigation = useNavigation();
  const deleting = navigation.state !== "idle" && navigation.formAction?.startsWith(`/persona/${persona.id}/delete`);
  const content =
    variant === "icon" ? (
      <>
        <TrashIcon />
        <span className="sr-only">
          {LIST_TEXT.delete} {persona.name}
        </span>
      </>
    ) : (
      <>
        <TrashIcon />
        {variant === "compact" ? <span className="md:sr-only lg:not-sr-only">{LIST_TEXT.delete}</span> : LIST_TEXT.delete}
      </>
    );
  const className =
    variant === "icon"
      ? `${iconButton} hover:border-red-300 hover:bg-red-50 hover:text-red-800`
      : "inline-flex h-10 items-center gap-2 rounded-lg border border-red-300 bg-white px-3 py-2 text-sm font-medium text-red-800 hover:bg-red-50";

  if (!hydrated) {
    return (
      <Link to={confirmUrl} className={className} title={variant === "text" ? undefined : `${LIST_TEXT.delete} ${persona.name}`}>
        {content}
      </Link>
    );
  }
  return (
    <>
      <button
        type="button"
        className={className}
        title={variant === "text" ? undefined : `${LIST_TEXT.delete} ${persona.name}`}
        onClick={() => dialogRef.current?.showModal()}
      >
        {content}
      </button>
      <ConfirmDialog
        dialogRef={dialogRef}
        action={`/persona/${persona.id}/delete`}
        title={DELETE_TEXT.title(persona.name)}
        text={DELETE_TEXT.text}
        cancelLabel={DELETE_TEXT.cancel}
        confirmLabel={DELETE_TEXT.confirm}
        tone="danger"
        busy={deleting}
      >
        <input type="hidden" name="redirectTo" value={returnTo} />
      </ConfirmDialog>
    </>
  );
}
