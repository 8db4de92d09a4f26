// One toast at a time (docs/product.md, Toasts). Server toasts arrive through the root loader (flash
// cookie); client code adds its own with useToast(). The layouts show it with <Toasts />.
// A toast never moves the page by itself (docs/decisions/029-toasts-without-layout-shift.md): it takes
// room only at a screen's first render or right after the creator's input, and gives it back the same way.
// Without JavaScript the toast is plain HTML that stays until dismissed with a checkbox or the page is
// left; with JavaScript it fades after 5 s (its room kept until the creator's next click or key),
// and gets a close button, swipe-right to dismiss and the F8 hotkey.
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";

import { TOAST_DURATION_MS, TOAST_HOTKEY, TOAST_SWIPE_THRESHOLD_PX, toToast, type Toast, type ToastInput } from "~/domain/toast";

import { AlertIcon, CheckIcon, XIcon } from "./ui/icons";
import { useBrowserLayoutEffect } from "./ui/use-browser-layout-effect";

interface ToastState {
  toast: Toast | null;
  show: (toast: ToastInput) => void;
  /** Clears the toast with this id; a late timer of a toast already replaced clears nothing. */
  dismiss: (id: string) => void;
  /** Clears whatever toast is shown: the screen that raised it is gone. */
  clear: () => void;
}

const ToastContext = createContext<ToastState>({ toast: null, show: () => {}, dismiss: () => {}, clear: () => {} });

export function useToast() {
  return useContext(ToastContext).show;
}

/** Clears the toast shown, when a screen gives way to another without a navigation (a wizard's step). */
export function useClearToast() {
  return useContext(ToastContext).clear;
}

/**
 * Holds the one toast (docs/product.md, Toasts). It is shown by <Toasts />, which each layout places inside
 * its sticky header, below the header's own row: a toast then takes room of its own instead of
 * lying over 'Sign In', the avatar, the menu button or a form's buttons.
 */
export function ToastProvider({
  serverToast,
  screen = "",
  children,
}: {
  serverToast: Toast | null;
  /** The screen shown (its path and query): a toast leaves with its screen. */
  screen?: string;
  children: React.ReactNode;
}) {
  const [toast, setToast] = useState<Toast | null>(serverToast);
  const arrived = useRef(serverToast);
  arrived.current = serverToast;
  useEffect(() => {
    if (serverToast) setToast(serverToast);
  }, [serverToast]);
  // A toast belongs to the screen that raised it: a navigation leaves it behind, unless it came
  // with the navigation (a redirect's flash toast).
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    setToast((current) => (current && current.id === arrived.current?.id ? current : null));
  }, [screen]);
  const show = useCallback((input: ToastInput) => setToast(toToast(input)), []);
  const dismiss = useCallback((id: string) => setToast((current) => (current?.id === id ? null : current)), []);
  const clear = useCallback(() => setToast(null), []);
  const value = useMemo(() => ({ toast, show, dismiss, clear }), [toast, show, dismiss, clear]);
  return <ToastContext.Provider value={value}>{children}</ToastContext.Provider>;
}

/** Where the toast shows: in the layout's header, in the flow of the page (it pushes the page down, never lies over it). */
export function Toasts() {
  const { toast, dismiss } = useContext(ToastContext);
  return <ToastRegion toast={toast} onDismiss={dismiss} />;
}

const toastRow = "pointer-events-none flex justify-center px-4 sm:justify-end sm:px-6 lg:px-8";

/**
 * A toast that comes with an action's answer rather than a redirect. With JavaScript it goes to
 * the toaster; without, the answer is the whole page, so it is rendered right here, in the flow
 * of the page where the route places it.
 */
export function ActionToast({ toast }: { toast: ToastInput | null | undefined }) {
  const hydrated = useHydrated();
  const show = useToast();
  useEffect(() => {
    if (hydrated && toast) show(toast);
  }, [hydrated, toast, show]);
  if (hydrated || !toast) return null;
  return (
    <div role="status" className="flex justify-center sm:justify-end">
      <ol className="w-full max-w-sm">
        <ToastItem toast={toToast({ id: "action", ...toast })} onDismiss={() => {}} />
      </ol>
    </div>
  );
}

function ToastRegion({ toast, onDismiss }: { toast: Toast | null; onDismiss: (id: string) => void }) {
  const regionRef = useRef<HTMLElement>(null);
  const listRef = useRef<HTMLOListElement>(null);
  // The band keeps the tallest height it has had since the creator's last click or key: a toast
  // replaced by a shorter one, or removed, without an input of theirs (an image job's end heard by
  // polling) moves nothing; the next click or key gives the room back. Set before paint, so no
  // frame shows the shorter band.
  const kept = useRef(0);
  useBrowserLayoutEffect(() => {
    const list = listRef.current;
    if (!list) return;
    list.style.minHeight = "";
    kept.current = Math.max(kept.current, list.offsetHeight);
    list.style.minHeight = kept.current ? `${kept.current}px` : "";
  }, [toast]);
  useEffect(() => {
    const giveBack = () => {
      kept.current = 0;
      if (listRef.current) listRef.current.style.minHeight = "";
    };
    window.addEventListener("click", giveBack, { capture: true });
    window.addEventListener("keydown", giveBack, { capture: true });
    return () => {
      window.removeEventListener("click", giveBack, { capture: true });
      window.removeEventListener("keydown", giveBack, { capture: true });
    };
  }, []);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === TOAST_HOTKEY) {
        event.preventDefault();
        regionRef.current?.focus();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  return (
    <section ref={regionRef} aria-label={`Notifications (${TOAST_HOTKEY})`} tabIndex={-1} className={`${toastRow} outline-none`}>
      <ol ref={listRef} aria-live="polite" aria-atomic="true" className="w-full max-w-sm">
        {toast ? <ToastItem key={toast.id} toast={toast} onDismiss={onDismiss} /> : null}
      </ol>
    </section>
  );
}

function ToastItem({ toast, onDismiss: dismissById }: { toast: Toast; onDismiss: (id: string) => void }) {
  const onDismiss = useCallback(() => dismissById(toast.id), [dismissById, toast.id]);
  const hydrated = useHydrated();
  const [offset, setOffset] = useState(0);
  const start = useRef<number | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const paused = useRef(false);

  const gone = useRef(false);
  // Its time is up: the toast fades out (opacity only), keeping its room so nothing moves.
  const [faded, setFaded] = useState(false);

  const arm = useCallback(() => {
    clearTimeout(timer.current);
    if (gone.current) return;
    timer.current = setTimeout(() => {
      if (!paused.current) setFaded(true);
    }, TOAST_DURATION_MS);
  }, []);

  // A faded toast gives its room back at the creator's next click or key press: the page moves
  // right after an input of theirs (a move CLS leaves out) and never under a click in progress —
  // a click's target is chosen before its listeners run, where a pointerdown would move the page
  // between the press and the release. A new screen takes it away too (ToastProvider).
  useEffect(() => {
    if (!faded) return;
    const giveBack = () => onDismiss();
    window.addEventListener("click", giveBack, { capture: true });
    window.addEventListener("keydown", giveBack, { capture: true });
    return () => {
      window.removeEventListener("click", giveBack, { capture: true });
      window.removeEventListener("keydown", giveBack, { capture: true });
    };
  }, [faded, onDismiss]);

  useEffect(() => {
    if (!hydrated) return;
    gone.current = false;
    arm();
    return () => {
      // A blur or pointer-leave that arrives as the toast leaves must not start a new timer.
      gone.current = true;
      clearTimeout(timer.current);
    };
  }, [hydrated, arm]);

  const pause = () => {
    paused.current = true;
    clearTimeout(timer.current);
  };
  const resume = () => {
    paused.current = false;
    arm();
  };

  const tone =
    toast.type === "error"
      ? "border-red-200 bg-white text-red-900"
      : toast.type === "success"
        ? "border-emerald-200 bg-white text-emerald-900"
        : "border-slate-200 bg-white text-slate-900";
  const checkboxId = `toast-dismiss-${toast.id}`;

  return (
    <li
      className={`group pointer-events-auto relative transition-[opacity,visibility] duration-200 motion-reduce:transition-none ${
        faded ? "invisible opacity-0" : ""
      }`}
      data-testid="toast"
      data-type={toast.type}
      data-state={faded ? "faded" : "shown"}
      style={offset ? { transform: `translateX(${offset}px)`, opacity: Math.max(0, 1 - offset / 200) } : undefined}
      onPointerEnter={pause}
      onPointerLeave={resume}
      onFocus={pause}
      onBlur={resume}
      onPointerDown={(e) => {
        start.current = e.clientX;
      }}
      onPointerMove={(e) => {
        if (start.current !== null) setOffset(Math.max(0, e.clientX - start.current));
      }}
      onPointerUp={() => {
        if (offset > TOAST_SWIPE_THRESHOLD_PX) onDismiss();
        start.current = null;
        setOffset(0);
      }}
      onPointerCancel={() => {
        start.current = null;
        setOffset(0);
      }}
    >
      {hydrated ? null : <input type="checkbox" id={checkboxId} className="peer sr-only" aria-label="Dismiss notification" />}
      {/* The room below the card is the card's: dismissed without a script, nothing of it stays. */}
      <div className="pb-3 peer-checked:hidden">
        <div className={`flex items-start gap-3 rounded-xl border p-4 shadow-lg ${tone}`}>
          <span className="mt-0.5 text-lg" aria-hidden="true">
            {toast.type === "error" ? <AlertIcon className="text-red-600" /> : <CheckIcon className="text-emerald-600" />}
          </span>
          <div className="min-w-0 flex-1">
            <p className="font-semibold">{toast.title}</p>
            {toast.description ? <p className="mt-1 text-sm text-slate-700">{toast.description}</p> : null}
          </div>
          {hydrated ? (
            <button
              type="button"
              onClick={onDismiss}
              className="rounded-md p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-900"
              aria-label="Dismiss notification"
            >
              <XIcon />
            </button>
          ) : (
            <label htmlFor={checkboxId} className="cursor-pointer rounded-md p-1 text-slate-500 hover:bg-slate-100">
              <XIcon />
              <span className="sr-only">Dismiss notification</span>
            </label>
          )}
        </div>
      </div>
    </li>
  );
}
