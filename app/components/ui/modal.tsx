// A modal dialog on the native <dialog> element (opened with showModal()): focus stays
// inside, Escape closes it, focus returns to what opened it, and a click on the backdrop
// (which lands on the dialog element itself) closes it too.
import { Form } from "@remix-run/react";
import { useId } from "react";

export function Modal({
  dialogRef,
  titleId,
  textId,
  children,
  ...rest
}: {
  dialogRef: React.RefObject<HTMLDialogElement>;
  titleId: string;
  textId: string;
  children: React.ReactNode;
  "data-testid"?: string;
}) {
  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={titleId}
      aria-describedby={textId}
      onClick={(event) => {
        if (event.target === event.currentTarget) dialogRef.current?.close();
      }}
      className="w-[calc(100%-2rem)] max-w-md rounded-2xl bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-900/50"
      {...rest}
    >
      {children}
    </dialog>
  );
}

/**
 * A confirmation in a Modal: a form posting to `action` with a title, a sentence, Cancel and
 * the confirming button ('danger' for what cannot be undone). The same action has a
 * confirmation page of its own for visitors without JavaScript.
 */
export function ConfirmDialog({
  dialogRef,
  action,
  title,
  text,
  cancelLabel,
  confirmLabel,
  tone,
  busy = false,
  preventScrollReset,
  children,
  extra,
  ...rest
}: {
  dialogRef: React.RefObject<HTMLDialogElement>;
  action: string;
  title: React.ReactNode;
  text: React.ReactNode;
  cancelLabel: string;
  confirmLabel: string;
  tone: "danger" | "primary";
  busy?: boolean;
  preventScrollReset?: boolean;
  /** Hidden inputs the post carries. */
  children?: React.ReactNode;
  /** Controls shown under the sentence (e.g. a choice the post carries). */
  extra?: React.ReactNode;
  "data-testid"?: string;
}) {
  const titleId = useId();
  const textId = useId();
  const confirmClass = tone === "danger" ? "bg-red-700 hover:bg-red-800" : "bg-brand-700 hover:bg-brand-800";
  return (
    <Modal dialogRef={dialogRef} titleId={titleId} textId={textId} {...rest}>
      <Form
        method="post"
        action={action}
        className="p-6"
        preventScrollReset={preventScrollReset}
        onSubmit={() => dialogRef.current?.close()}
      >
        {children}
        <h2 id={titleId} className="text-lg font-semibold text-slate-900">
          {title}
        </h2>
        <p id={textId} className="mt-2 text-slate-700">
          {text}
        </p>
        {extra}
        <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <button
            type="button"
            onClick={() => dialogRef.current?.close()}
            className="rounded-lg border border-slate-300 px-4 py-2 font-medium text-slate-800 hover:bg-slate-100"
          >
            {cancelLabel}
          </button>
          <button type="submit" disabled={busy} className={`rounded-lg px-4 py-2 font-semibold text-white ${confirmClass}`}>
            {confirmLabel}
          </button>
        </div>
      </Form>
    </Modal>
  );
}
