// The create gate (docs/product.md, Plan limit): every 'Create New Persona' entry point asks the usage call
// first; when the Free plan's 10 personas are used up it opens the 'Free Plan Limit Reached'
// dialog instead of going to the wizard. Without JavaScript the buttons are plain GET forms
// and the wizard's loader answers with the same texts and buttons as a page (LimitNotice).
// The dialog is a native <dialog> (ui/modal): focus kept inside, Escape closes, focus returns.
import { Link, useNavigate } from "@remix-run/react";
import { createContext, useCallback, useContext, useId, useMemo, useRef, useState } from "react";

import { CREATE_PERSONA_PATH, DASHBOARD_PATH } from "~/domain/navigation";
import { LIMIT_DIALOG } from "~/domain/plan-limit";

import { AlertIcon } from "./ui/icons";
import { Modal } from "./ui/modal";
import { buttonClass } from "./ui/button";

interface CreateGate {
  /** Opens the limit dialog. */
  openLimitDialog: () => void;
  /** The gate itself: asks the usage call, then opens the dialog or goes to the wizard. */
  startCreating: () => Promise<void>;
}

const CreateGateContext = createContext<CreateGate | null>(null);

export function useCreateGate(): CreateGate {
  const gate = useContext(CreateGateContext);
  if (!gate) throw new Error("useCreateGate needs a CreateGateProvider");
  return gate;
}

/** Whether the usage call allows another persona; when it cannot say, the server decides later. */
async function canCreateMore(): Promise<boolean> {
  try {
    const response = await fetch("/api/user/usage", { credentials: "include", headers: { Accept: "application/json" } });
    if (!response.ok) return true;
    const usage = (await response.json()) as { canCreateMore?: unknown };
    return usage.canCreateMore !== false;
  } catch {
    return true;
  }
}

export function CreateGateProvider({ children, beforeOpen }: { children: React.ReactNode; beforeOpen?: () => void }) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const navigate = useNavigate();

  const openLimitDialog = useCallback(() => {
    beforeOpen?.();
    const dialog = dialogRef.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, [beforeOpen]);

  const startCreating = useCallback(async () => {
    if (await canCreateMore()) navigate(CREATE_PERSONA_PATH);
    else openLimitDialog();
  }, [navigate, openLimitDialog]);

  const gate = useMemo(() => ({ openLimitDialog, startCreating }), [openLimitDialog, startCreating]);
  return (
    <CreateGateContext.Provider value={gate}>
      {children}
      <LimitDialog dialogRef={dialogRef} />
    </CreateGateContext.Provider>
  );
}

function LimitDialog({ dialogRef }: { dialogRef: React.RefObject<HTMLDialogElement> }) {
  const titleId = useId();
  const textId = useId();
  const close = () => dialogRef.current?.close();
  return (
    <Modal dialogRef={dialogRef} titleId={titleId} textId={textId} data-testid="limit-dialog">
      <div className="p-6">
        <LimitContent titleId={titleId} textId={textId} heading="h2">
          <button
            type="button"
            onClick={close}
            className="rounded-lg border border-slate-300 px-4 py-2 font-medium text-slate-800 hover:bg-slate-100"
          >
            {LIMIT_DIALOG.cancel}
          </button>
          <Link to={LIMIT_DIALOG.upgradeTo} onClick={close} className={buttonClass("primary", "base")}>
            {LIMIT_DIALOG.upgrade}
          </Link>
        </LimitContent>
      </div>
    </Modal>
  );
}

function LimitContent({
  titleId,
  textId,
  heading: Heading,
  children,
}: {
  titleId: string;
  textId: string;
  heading: "h1" | "h2";
  children: React.ReactNode;
}) {
  return (
    <>
      <div className="flex items-start gap-3">
        <span className="mt-0.5 flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-amber-100 text-xl text-amber-800">
          <AlertIcon />
        </span>
        <div>
          <Heading id={titleId} className="text-lg font-semibold text-slate-900">
            {LIMIT_DIALOG.title}
          </Heading>
          <p id={textId} className="mt-2 text-slate-700">
            {LIMIT_DIALOG.text}
          </p>
        </div>
      </div>
      <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">{children}</div>
    </>
  );
}

/** The limit as a page, for browsers without JavaScript: the dialog's texts and buttons. */
export function LimitNotice({ cancelTo = DASHBOARD_PATH }: { cancelTo?: string }) {
  const titleId = useId();
  const textId = useId();
  return (
    <section
      aria-labelledby={titleId}
      data-testid="limit-page"
      className="mx-auto max-w-md rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
    >
      <LimitContent titleId={titleId} textId={textId} heading="h1">
        <Link
          to={cancelTo}
          className="rounded-lg border border-slate-300 px-4 py-2 text-center font-medium text-slate-800 hover:bg-slate-100"
        >
          {LIMIT_DIALOG.cancel}
        </Link>
        <Link to={LIMIT_DIALOG.upgradeTo} className={buttonClass("primary", "base")}>
          {LIMIT_DIALOG.upgrade}
        </Link>
      </LimitContent>
    </section>
  );
}

/**
 * 'Create New Persona': a GET form to the wizard (so it works without JavaScript, where the
 * wizard's loader applies the gate); with JavaScript the gate runs first.
 */
export function CreatePersonaButton({
  className,
  children,
  ...buttonProps
}: { className: string; children: React.ReactNode } & Omit<React.ButtonHTMLAttributes<HTMLButtonElement>, "type" | "className">) {
  const gate = useCreateGate();
  const [checking, setChecking] = useState(false);
  return (
    <form
      method="get"
      action={CREATE_PERSONA_PATH}
      onSubmit={(event) => {
        event.preventDefault();
        if (checking) return;
        setChecking(true);
        void gate.startCreating().finally(() => setChecking(false));
      }}
    >
      <button type="submit" aria-busy={checking || undefined} className={className} {...buttonProps}>
        {children}
      </button>
    </form>
  );
}
