// Pieces of the persona history pages (docs/product.md, History): a version's time (relative, the exact time
// on hover and focus), the Restore action (a dialog with JavaScript, the confirmation page
// /persona/{id}/history/{n}/restore without), and a word-level diff whose insertions and
// deletions are marked by more than colour (underline/strike-through, and words a screen
// reader says: 'added', 'removed').
import { isRouteErrorResponse, Link, useNavigation, useRouteError } from "@remix-run/react";
import { useId, useRef } from "react";
import { useHydrated } from "remix-utils/use-hydrated";

import { HISTORY_MESSAGES, HISTORY_TEXT } from "~/domain/persona-history";
import type { DisplayPart } from "~/domain/word-diff";

import { PersonaNotFound } from "./persona-not-found";
import { GeneralErrorBoundary } from "./error-boundary";
import { RestoreIcon } from "./ui/icons";
import { ConfirmDialog } from "./ui/modal";
import { buttonClass } from "./ui/button";

/** '2026-11-23 01:45 UTC': the same on the server and in the browser (no time-zone guesswork). */
export function exactTime(date: Date | string): string {
  return `${new Date(date).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** A version's time: 'an hour ago' (worked out with the page's data), the exact time in a tooltip. */
export function VersionTime({ at, ago }: { at: string | Date; ago: string }) {
  const tipId = useId();
  const iso = new Date(at).toISOString();
  return (
    <span className="group relative inline-block">
      <time
        dateTime={iso}
        tabIndex={0}
        aria-describedby={tipId}
        className="rounded underline decoration-dotted underline-offset-2 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
        suppressHydrationWarning
      >
        {ago}
      </time>
      <span
        id={tipId}
        role="tooltip"
        className="pointer-events-none absolute left-0 top-full z-10 mt-1 hidden whitespace-nowrap rounded bg-slate-900 px-2 py-1 text-xs text-white shadow group-focus-within:block group-hover:block"
      >
        {exactTime(at)}
      </span>
    </span>
  );
}

export const restoreHref = (personaId: string, n: number) => `/persona/${personaId}/history/${n}/restore`;

const restoreClass = buttonClass("secondary", "xs", "inline-flex items-center gap-1");

/** Restore asks first: a dialog with JavaScript, the confirmation page without. Either way a form post. */
export function RestoreVersionButton({ personaId, version }: { personaId: string; version: number }) {
  const hydrated = useHydrated();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const navigation = useNavigation();
  const action = restoreHref(personaId, version);
  const busy = navigation.state !== "idle" && navigation.formAction === action;
  const content = (
    <>
      <RestoreIcon />
      {HISTORY_TEXT.restore}
      <span className="sr-only"> {HISTORY_TEXT.version(version).toLowerCase()}</span>
    </>
  );
  if (!hydrated) {
    return (
      <Link to={action} className={restoreClass}>
        {content}
      </Link>
    );
  }
  return (
    <>
      <button type="button" className={restoreClass} onClick={() => dialogRef.current?.showModal()}>
        {content}
      </button>
      <ConfirmDialog
        dialogRef={dialogRef}
        action={action}
        title={HISTORY_TEXT.restoreTitle(version)}
        text={HISTORY_TEXT.restoreText(version)}
        cancelLabel={HISTORY_TEXT.cancel}
        confirmLabel={HISTORY_TEXT.restoreConfirm}
        tone="primary"
        busy={busy}
        data-testid="restore-dialog"
        extra={<RestoreImageChoice version={version} />}
      />
    </>
  );
}

/** Whether a restore also brings back the version's reference image: off unless the creator ticks it. */
export function RestoreImageChoice({ version }: { version: number }) {
  const id = useId();
  return (
    <div className="mt-4 flex items-start gap-2">
      <input
        id={id}
        type="checkbox"
        name="withImage"
        value="on"
        aria-describedby={`${id}-note`}
        className="h-6 w-6 shrink-0 rounded border-slate-400"
      />
      <div>
        <label htmlFor={id} className="text-sm font-medium text-slate-800">
          {HISTORY_TEXT.restoreWithImage(version)}
        </label>
        <p id={`${id}-note`} className="text-sm text-slate-600">
          {HISTORY_TEXT.restoreImageNote}
        </p>
      </div>
    </div>
  );
}

/** Inserted words underlined on green, deleted ones struck through on red, each announced. */
export function WordDiff({ parts }: { parts: DisplayPart[] }) {
  if (parts.length === 0) return <p className="text-slate-600">{HISTORY_TEXT.empty}</p>;
  return (
    <p className="whitespace-pre-wrap leading-relaxed text-slate-800">
      {parts.map((part, i) =>
        part.op === "skip" ? (
          <span key={i} className="mx-1 inline-block rounded bg-slate-100 px-2 text-sm italic text-slate-700">
            … {part.words.toLocaleString("en-US")} unchanged {part.words === 1 ? "word" : "words"} …
          </span>
        ) : part.op === "same" ? (
          <span key={i}>{part.text}</span>
        ) : part.op === "added" ? (
          <ins key={i} className="rounded-sm bg-green-100 text-green-900 underline decoration-2 underline-offset-2">
            <span className="sr-only">[{HISTORY_TEXT.added}: </span>
            {part.text}
            <span className="sr-only">]</span>
          </ins>
        ) : (
          <del key={i} className="rounded-sm bg-red-100 text-red-900 line-through decoration-2">
            <span className="sr-only">[{HISTORY_TEXT.removed}: </span>
            {part.text}
            <span className="sr-only">]</span>
          </del>
        ),
      )}
    </p>
  );
}

export function VersionNotFound({ personaId }: { personaId?: string }) {
  return (
    <div className="mx-auto max-w-xl rounded-2xl border border-slate-200 bg-white p-8 text-center shadow-sm">
      <h1 className="text-2xl font-bold text-slate-900">{HISTORY_MESSAGES.versionNotFound}</h1>
      <p className="mt-3 text-slate-700">This persona has no such version.</p>
      {personaId ? (
        <Link to={`/persona/${personaId}/history`} className={buttonClass("primary", "base", "mt-6 inline-block")}>
          Back to the history
        </Link>
      ) : null}
    </div>
  );
}

/** History routes: 'Version Not Found' for a version number that is none, else 'Persona Not Found'. */
export function HistoryErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) {
    const body = error.data as { message?: string; personaId?: string } | null;
    if (body?.message === HISTORY_MESSAGES.versionNotFound) return <VersionNotFound personaId={body.personaId} />;
    return <PersonaNotFound />;
  }
  return <GeneralErrorBoundary />;
}

/** A version number field of the compare form (a GET form: it works without JavaScript). */
export function VersionInput({ name, label, latest, value }: { name: string; label: string; latest: number; value: number }) {
  const id = `version-${name}`;
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <input
        id={id}
        name={name}
        type="number"
        inputMode="numeric"
        min={1}
        max={latest}
        required
        defaultValue={value}
        className="mt-1 w-28 rounded-lg border border-slate-300 px-3 py-2 text-slate-900"
      />
    </div>
  );
}
