// One toast at a time (docs/product.md, Toasts). Server toasts arrive through the root loader (flash
// cookie); client code adds its own with useToast(). The layouts show it with <Toasts />.
// A toast never moves the page by itself (docs/decisions/029-toasts-without-layout-shift.md): it takes
// room only at a screen's first render or right after the creator's input, and gives it back the same way.
// Without JavaScript the toast is plain HTML that stays until dismissed with a checkbox or the page is
// left; with JavaScript it fades after 5 s (its room kept until the creator's next click or key),
// and gets a close button, swipe-right to dismiss and the F8 hotkey.
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState } from "react";
import { useLocation, useNavigation } from "@remix-run/react";
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
  /** Work started by the creator's input whose answer may bring a toast: its room is taken now. */
  holdRoom: () => () => void;
  held: boolean;
}

const ToastContext = createContext<ToastState>({
  toast: null,
  show: () => {},
  dismiss: () => {},
  clear: () => {},
  holdRoom: () => () => {},
  held: false,
});

export function useToast() {
  return useContext(ToastContext).show;
}

/** Clears the toast shown, when a screen gives way to another without a navigation (a wizard's step). */
export function useClearToast() {
  return useContext(ToastContext).clear;
}

/**
 * For a request a script sends on the creator's click whose answer shows a toast: call it as the
 * work starts and call what it returns when the work is done. The toast's room is taken at the
 * click, so the toast that comes later, however late, moves nothing
 * (docs/decisions/037-toasts-in-the-page-with-their-room-taken-at-the-input.md). Forms posted
 * through Remix hold it by themselves.
 */
export function useHoldToastRoom() {
  return useContext(ToastContext).holdRoom;
}

/**
 * Holds the one toast (docs/product.md, Toasts), shown by <Toasts />, which each layout places at
 * the top of the page's own content, below the sticky header: in the flow, so it never lies over
 * the page, and out of the header, so it never grows a band that the page scrolls under.
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
  // A toast belongs to the screen it was raised on: a navigation leaves it behind, unless it came
  // with the navigation (a redirect's flash toast). Worked out while rendering, so the new screen's
  // first frame never shows the old screen's toast.
  const [shown, setShown] = useState<{ toast: Toast | null; screen: string }>({ toast: serverToast, screen });
  const [lastServerToast, setLastServerToast] = useState(serverToast);
  if (serverToast !== lastServerToast) {
    setLastServerToast(serverToast);
    if (serverToast) setShown({ toast: serverToast, screen });
  }
  const screenRef = useRef(screen);
  screenRef.current = screen;
  const toast = shown.screen === screen ? shown.toast : null;
  const [holds, setHolds] = useState(0);
  const show = useCallback((input: ToastInput) => setShown({ toast: toToast(input), screen: screenRef.current }), []);
  const dismiss = useCallback(
    (id: string) => setShown((current) => (current.toast?.id === id ? { ...current, toast: null } : current)),
    [],
  );
  const clear = useCallback(() => setShown((current) => ({ ...current, toast: null })), []);
  const holdRoom = useCallback(() => {
    setHolds((n) => n + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      setHolds((n) => n - 1);
    };
  }, []);
  const value = useMemo(() => ({ toast, show, dismiss, clear, holdRoom, held: holds > 0 }), [toast, show, dismiss, clear, holdRoom, holds]);
  return <ToastContext.Provider value={value}>{children}</ToastContext.Provider>;
}

/**
 * Where the toast shows: at the top of the page's content, in its flow. Each layout puts it inside
 * the part of the page that a new screen replaces, so a toast that comes with a new screen moves
 * nothing that was there; on the same screen its room is taken at the creator's input (a form
 * posted, or work held with useHoldToastRoom), so however late the answer comes, nothing moves.
 */
export function Toasts() {
  const navigation = useNavigation();
  const location = useLocation();
  // A form posted, until its answer (and the loads that follow it) are in.
  const posting = navigation.state !== "idle" && !!navigation.formMethod && navigation.formMethod.toUpperCase() !== "GET";
  // On the way to another screen, the toast leaves at the click: its room is given back right
  // after the input, not when the next screen arrives, however late that is.
  const leaving =
    !posting &&
    navigation.state === "loading" &&
    `${navigation.location.pathname}${navigation.location.search}` !== `${location.pathname}${location.search}`;
  return <ToastBand posting={posting} leaving={leaving} />;
}

/** The region itself, given where the navigation stands (what <Toasts /> reads from the router). */
export function ToastBand({ posting = false, leaving = false }: { posting?: boolean; leaving?: boolean }) {
  const { toast, dismiss, held } = useContext(ToastContext);
  return <ToastRegion toast={leaving ? null : toast} pending={held || posting} onDismiss={dismiss} />;
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

function ToastRegion({ toast, pending, onDismiss }: { toast: Toast | null; pending: boolean; onDismiss: (id: string) => void }) {
  const regionRef = useRef<HTMLElement>(null);
  const listRef = useRef<HTMLOListElement>(null);
  // The band keeps the tallest height it has had since the creator's last click or key: a toast
  // replaced by a shorter one, or removed, without an input of theirs (an image job's end heard by
  // polling), or an answer that brought no toast, moves nothing; the next click or key gives the
  // room back. Set before paint, so no frame shows the shorter band.
  const kept = useRef(0);
  useBrowserLayoutEffect(() => {
    const list = listRef.current;
    if (!list) return;
    list.style.minHeight = "";
    kept.current = Math.max(kept.current, list.offsetHeight);
    list.style.minHeight = kept.current ? `${kept.current}px` : "";
  }, [toast, pending]);
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
      <ol ref={listRef} aria-live="polite" aria-atomic="true" className="w-full sm:max-w-md">
        {toast ? <ToastItem key={toast.id} toast={toast} onDismiss={onDismiss} /> : pending ? <PendingItem /> : null}
      </ol>
    </section>
  );
}

/**
 * The room a toast will take, held from the creator's input until the answer: the size of a toast
 * with a two-line description, so the toast that follows fits into it. Seen, not announced: the
 * control that was used says it is busy.
 */
function PendingItem() {
  return (
    <li aria-hidden="true" data-testid="toast-pending" className="pt-4">
      <div className="flex min-h-[6.375rem] items-center gap-3 rounded-xl border border-dashed border-slate-200 bg-white/60 p-4 text-sm text-slate-600">
        <span className="h-4 w-4 shrink-0 rounded-full border-2 border-slate-300 border-t-brand-600 motion-safe:animate-spin" />
        Working…
      </div>
    </li>
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
      {/* The room above the card is the card's: dismissed without a script, nothing of it stays. */}
      <div className="pt-4 peer-checked:hidden">
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
