// The persona page's Download menu (docs/product.md, Exports and character cards). A <details> disclosure of plain
// download links, so it works without JavaScript. With JavaScript it behaves as a menu:
// arrow keys, Home/End, typeahead (reset after 1 second), Escape and outside clicks close
// it, and the file is fetched first, so the creator hears 'Export Successful' only when
// there is a file, and the server's reason ('Export Failed', 'No Image Available') when not.
import { useEffect, useRef } from "react";
import { useHydrated } from "remix-utils/use-hydrated";

import { EXPORT_FAILED_TOAST, NO_IMAGE_TOAST } from "~/domain/export-toasts";

import { useHoldToastRoom, useToast } from "./toaster";
import { DownloadIcon } from "./ui/icons";
import { buttonClass } from "./ui/button";

export interface DownloadItem {
  label: string;
  href: string;
  /** The toast after the download starts (with JavaScript). */
  toast?: { title: string; description: string };
  /** The file name when the answer does not name one (the reference image, fetched from its url). */
  filename?: string;
}

/** The file name from `Content-Disposition` (the UTF-8 form when there is one). */
export function dispositionFilename(header: string | null): string | undefined {
  if (!header) return undefined;
  const utf8 = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (utf8) {
    try {
      return decodeURIComponent(utf8[1]!);
    } catch {
      // fall through to the plain name
    }
  }
  return /filename="([^"]*)"/i.exec(header)?.[1];
}

/** Fetches a download and hands it to the browser; the toast says how it went. */
async function download(item: DownloadItem, toast: ReturnType<typeof useToast>, holdToastRoom: ReturnType<typeof useHoldToastRoom>) {
  const release = holdToastRoom();
  try {
    const response = await fetch(item.href, { credentials: "include" });
    if (!response.ok) {
      const body = (await response.json().catch(() => null)) as { code?: unknown } | null;
      toast({ type: "error", ...(body?.code === "no_image" ? NO_IMAGE_TOAST : EXPORT_FAILED_TOAST) });
      return;
    }
    const blob = await response.blob();
    const url = URL.createObjectURL(blob);
    const link = document.createElement("a");
    link.href = url;
    link.download = dispositionFilename(response.headers.get("Content-Disposition")) ?? item.filename ?? "";
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
    if (item.toast) toast({ type: "success", ...item.toast });
  } catch {
    toast({ type: "error", ...EXPORT_FAILED_TOAST });
  } finally {
    release();
  }
}

const TYPEAHEAD_RESET_MS = 1000;

export function DownloadMenu({
  items,
  label = "Download",
  more,
}: {
  items: DownloadItem[];
  label?: string;
  /** A page to read before choosing (the card check's 'What survives where'): a plain link, last. */
  more?: { label: string; href: string };
}) {
  const hydrated = useHydrated();
  const toast = useToast();
  const holdToastRoom = useHoldToastRoom();
  const detailsRef = useRef<HTMLDetailsElement>(null);
  const summaryRef = useRef<HTMLElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const typed = useRef({ text: "", at: 0 });

  const links = () => [...(listRef.current?.querySelectorAll<HTMLAnchorElement>("a[role='menuitem'], a") ?? [])];
  const close = (focusButton: boolean) => {
    if (detailsRef.current) detailsRef.current.open = false;
    if (focusButton) summaryRef.current?.focus();
  };

  useEffect(() => {
    if (!hydrated) return;
    const onPointer = (event: PointerEvent) => {
      if (detailsRef.current?.open && !detailsRef.current.contains(event.target as Node)) close(false);
    };
    document.addEventListener("pointerdown", onPointer);
    return () => document.removeEventListener("pointerdown", onPointer);
  }, [hydrated]);

  const onKeyDown = (event: React.KeyboardEvent) => {
    if (!hydrated) return;
    const details = detailsRef.current;
    if (!details) return;
    const items = links();
    const index = items.indexOf(document.activeElement as HTMLAnchorElement);
    const focus = (i: number) => items[(i + items.length) % items.length]?.focus();
    if (!details.open) {
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        details.open = true;
        requestAnimationFrame(() => focus(event.key === "ArrowDown" ? 0 : -1));
      }
      return;
    }
    switch (event.key) {
      case "Escape":
        event.preventDefault();
        close(true);
        return;
      case "ArrowDown":
        event.preventDefault();
        focus(index + 1);
        return;
      case "ArrowUp":
        event.preventDefault();
        focus(index < 0 ? -1 : index - 1);
        return;
      case "Home":
        event.preventDefault();
        focus(0);
        return;
      case "End":
        event.preventDefault();
        focus(-1);
        return;
      case "Tab":
        close(false);
        return;
    }
    if (event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey) {
      // eslint-disable-next-line no-restricted-syntax -- a key typed in the menu (an event), not a render
      const now = Date.now();
      typed.current = { text: (now - typed.current.at > TYPEAHEAD_RESET_MS ? "" : typed.current.text) + event.key.toLowerCase(), at: now };
      const match = items.find((a) => a.textContent?.trim().toLowerCase().startsWith(typed.current.text));
      match?.focus();
    }
  };

  return (
    <details ref={detailsRef} className="relative" onKeyDown={onKeyDown} data-testid="download-menu">
      <summary
        ref={summaryRef}
        aria-haspopup={hydrated ? "menu" : undefined}
        onClick={() => {
          // Opening with a click moves focus to the first item for keyboard users.
          if (!detailsRef.current?.open) requestAnimationFrame(() => links()[0]?.focus({ preventScroll: true }));
        }}
        className={buttonClass(
          "secondary",
          "sm",
          "inline-flex h-10 cursor-pointer list-none items-center gap-2 [&::-webkit-details-marker]:hidden",
        )}
      >
        <DownloadIcon />
        {label}
      </summary>
      <ul
        ref={listRef}
        role={hydrated ? "menu" : undefined}
        aria-label={hydrated ? label : undefined}
        className="absolute left-0 z-20 mt-2 w-64 max-w-[calc(100vw-2rem)] overflow-hidden sm:left-auto sm:right-0 rounded-xl border border-slate-200 bg-white py-1 shadow-lg"
      >
        {items.map((item) => (
          <li key={item.href} role={hydrated ? "none" : undefined}>
            <a
              href={item.href}
              download
              role={hydrated ? "menuitem" : undefined}
              onClick={(event) => {
                if (!hydrated) return;
                event.preventDefault();
                close(false);
                void download(item, toast, holdToastRoom);
              }}
              className="block px-4 py-2 text-sm text-slate-800 hover:bg-slate-100 focus:bg-slate-100 focus:outline-none"
            >
              {item.label}
            </a>
          </li>
        ))}
        {more ? (
          <li role={hydrated ? "none" : undefined} className="border-t border-slate-200">
            <a
              href={more.href}
              role={hydrated ? "menuitem" : undefined}
              className="block px-4 py-2 text-sm font-medium text-brand-800 underline hover:bg-slate-100 focus:bg-slate-100 focus:outline-none"
            >
              {more.label}
            </a>
          </li>
        ) : null}
      </ul>
    </details>
  );
}
