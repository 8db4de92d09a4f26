// The signed-in shell (docs/product.md, Navigation shell): a sidebar on large screens; on small
// ones a slide-in drawer opened by the menu button at the header's top left (the one menu control). The drawer is a
// <details> element, so it opens and closes without JavaScript; with JavaScript it also
// closes on navigation, on Escape and on the backdrop, keeps focus inside while open and
// gives focus back sensibly.
import { Form, Link, useLocation } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState } from "react";

import { displayName } from "~/domain/account";
import { headerTitle, isActive, NAV_ITEMS, type NavItem } from "~/domain/navigation";

import { Avatar, type AvatarUser } from "./avatar";
import { CreateGateProvider, CreatePersonaButton } from "./create-gate";
import { Brand } from "./brand";
import { Toasts } from "./toaster";
import { MenuIcon, XIcon } from "./ui/icons";

export interface ShellUser extends AvatarUser {
  email: string;
}

const DRAWER_ID = "mobile-navigation-drawer";
const LARGE_SCREEN = "(min-width: 1024px)";

export function AppShell({ user, children }: { user: ShellUser; children: React.ReactNode }) {
  const location = useLocation();
  const detailsRef = useRef<HTMLDetailsElement>(null);
  const summaryRef = useRef<HTMLElement>(null);
  const drawerRef = useRef<HTMLDivElement>(null);
  const pageRef = useRef<HTMLDivElement>(null);
  const mainRef = useRef<HTMLElement>(null);
  const openerRef = useRef<HTMLElement | null>(null);
  const [open, setOpen] = useState(false);
  const here = `${location.pathname}${location.search}`;

  const closeDrawer = useCallback((focusAfter?: "opener" | "main") => {
    const details = detailsRef.current;
    if (!details?.open) return;
    details.open = false;
    // The toggle event (and the effect that lifts `inert`) comes later; focus cannot wait.
    if (pageRef.current) pageRef.current.inert = false;
    if (focusAfter === "opener") (openerRef.current ?? summaryRef.current)?.focus();
    if (focusAfter === "main") mainRef.current?.focus({ preventScroll: true });
  }, []);

  // A navigation from inside the drawer closes it; focus goes to the new page's content.
  useEffect(() => {
    const focusWasInDrawer = drawerRef.current?.contains(document.activeElement) ?? false;
    closeDrawer(focusWasInDrawer ? "main" : undefined);
  }, [location.key, closeDrawer]);

  // While open: the page behind is inert (focus stays in the drawer) and does not scroll.
  useEffect(() => {
    const page = pageRef.current;
    if (!open || !page) return;
    page.inert = true;
    const overflow = document.body.style.overflow;
    document.body.style.overflow = "hidden";
    const drawer = drawerRef.current;
    (
      drawer?.querySelector<HTMLElement>("ul [aria-current='page']") ?? drawer?.querySelector<HTMLElement>("ul a[href], ul button")
    )?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        event.preventDefault();
        closeDrawer("opener");
      }
    };
    // Growing past the drawer's breakpoint shows the sidebar instead.
    const large = window.matchMedia(LARGE_SCREEN);
    const onResize = () => {
      if (large.matches) closeDrawer();
    };
    document.addEventListener("keydown", onKey);
    large.addEventListener("change", onResize);
    return () => {
      page.inert = false;
      document.body.style.overflow = overflow;
      document.removeEventListener("keydown", onKey);
      large.removeEventListener("change", onResize);
    };
  }, [open, closeDrawer]);

  const title = headerTitle(location.pathname);

  return (
    <CreateGateProvider beforeOpen={closeDrawer}>
      <div className="min-h-screen bg-slate-50">
        {/* First in the page: the one menu control on small screens, in the header's top-left corner. */}
        <nav aria-label="Mobile" className="lg:hidden">
          <details ref={detailsRef} className="group" onToggle={(event) => setOpen(event.currentTarget.open)}>
            <summary
              ref={summaryRef}
              onClick={() => {
                openerRef.current = summaryRef.current;
              }}
              className="fixed left-2 top-3 z-50 flex h-10 w-10 cursor-pointer list-none items-center justify-center rounded-lg text-xl text-slate-800 hover:bg-slate-100 focus-visible:ring-2 focus-visible:ring-brand-600 sm:left-4 [&::-webkit-details-marker]:hidden"
            >
              <MenuIcon className="group-open:hidden" />
              <XIcon className="hidden group-open:block" />
              <span className="sr-only group-open:hidden">Open navigation</span>
              <span className="sr-only hidden group-open:inline">Close navigation</span>
            </summary>
            <div className="fixed inset-0 z-40">
              {/* Without JavaScript the backdrop reloads the page, which closes the drawer. */}
              <a
                href={here}
                aria-hidden="true"
                tabIndex={-1}
                onClick={(event) => {
                  event.preventDefault();
                  closeDrawer("opener");
                }}
                className="absolute inset-0 bg-slate-900/50 motion-safe:transition-opacity motion-safe:duration-200 motion-safe:[@starting-style]:opacity-0"
              />
              <div
                id={DRAWER_ID}
                ref={drawerRef}
                className="absolute inset-y-0 left-0 flex w-80 max-w-[85vw] flex-col overflow-y-auto bg-white shadow-xl motion-safe:transition-transform motion-safe:duration-200 motion-safe:[@starting-style]:-translate-x-full"
              >
                {/* The menu control (summary) sits at the top left and closes the drawer. */}
                <div className="flex h-16 items-center pl-14 pr-3 sm:pl-16">
                  <Brand to="/dashboard" />
                </div>
                <NavList pathname={location.pathname} />
                <UserPanel user={user} />
              </div>
            </div>
          </details>
        </nav>
        <div ref={pageRef}>
          <div className="fixed inset-y-0 left-0 z-30 hidden w-72 border-r border-slate-200 bg-white lg:block">
            <nav aria-label="Main" className="flex h-full flex-col overflow-y-auto">
              <div className="px-5 py-5">
                <Brand to="/dashboard" />
              </div>
              <NavList pathname={location.pathname} />
              <UserPanel user={user} />
            </nav>
          </div>

          <div className="flex min-h-screen flex-col lg:pl-72">
            <header className="sticky top-0 z-20 border-b border-slate-200 bg-white/95 backdrop-blur">
              <div className="flex h-16 items-center gap-3 px-4 sm:px-6 lg:px-8">
                {/* The mobile navigation's menu control lies over this space (it is fixed, outside the page, so the drawer can make the page inert). */}
                <span aria-hidden="true" className="-ml-2 h-10 w-10 shrink-0 lg:hidden" />
                <p className="min-w-0 flex-1 truncate text-lg font-semibold text-slate-900">{title}</p>
                <Link to="/settings" className="rounded-full ring-offset-2 hover:ring-2 hover:ring-brand-200" data-testid="header-avatar">
                  <Avatar user={user} size="sm" decorative />
                  <span className="sr-only">Account settings</span>
                </Link>
              </div>
            </header>
            {/* A new screen is new content: the toast that comes with it moves nothing that was shown (decision 037). */}
            <div key={location.pathname} className="flex flex-1 flex-col">
              <Toasts />
              <main id="main" ref={mainRef} tabIndex={-1} className="flex-1 px-4 pb-28 pt-6 outline-none sm:px-6 lg:px-8 lg:pb-10">
                {children}
              </main>
            </div>
          </div>
        </div>
      </div>
    </CreateGateProvider>
  );
}

const itemClass = "flex w-full items-center gap-3 rounded-lg px-3 py-2.5 text-left text-sm font-medium transition-colors";

function NavList({ pathname }: { pathname: string }) {
  return (
    <ul className="flex-1 space-y-1 px-3">
      {NAV_ITEMS.map((item) => (
        <li key={item.path}>
          <NavEntry item={item} active={isActive(item.path, pathname)} />
        </li>
      ))}
    </ul>
  );
}

function NavEntry({ item, active }: { item: NavItem; active: boolean }) {
  const icon = <NavIcon path={item.path} />;
  if (item.kind === "button") {
    // An action, not a place: the create gate (persona limit) stands in front of it.
    return (
      <div className="py-1">
        <CreatePersonaButton
          aria-current={active ? "page" : undefined}
          className={`${itemClass} justify-center bg-brand-700 text-white shadow-sm hover:bg-brand-800 aria-[current=page]:bg-brand-900`}
        >
          {icon}
          {item.label}
        </CreatePersonaButton>
      </div>
    );
  }
  return (
    <Link
      to={item.path}
      prefetch="intent"
      aria-current={active ? "page" : undefined}
      className={`${itemClass} ${active ? "bg-brand-50 text-brand-800" : "text-slate-700 hover:bg-slate-100 hover:text-slate-900"}`}
    >
      {icon}
      {item.label}
    </Link>
  );
}

function UserPanel({ user }: { user: ShellUser }) {
  const name = displayName(user.firstName, user.lastName);
  return (
    <div className="border-t border-slate-200 p-4" data-testid="user-panel">
      <div className="flex items-center gap-3">
        <Link to="/settings" className="rounded-full ring-offset-2 hover:ring-2 hover:ring-brand-200">
          <Avatar user={user} decorative />
          <span className="sr-only">Account settings</span>
        </Link>
        <div className="min-w-0">
          <p className="truncate text-sm font-semibold text-slate-900">{name}</p>
          <p className="truncate text-xs text-slate-600">{user.email}</p>
        </div>
      </div>
      <Form method="post" action="/logout" className="mt-3">
        <button
          type="submit"
          className="flex w-full items-center justify-center gap-2 rounded-lg border border-slate-300 px-3 py-2 text-sm font-medium text-slate-800 hover:bg-slate-100"
        >
          <LogOutIcon />
          Log out
        </button>
      </Form>
    </div>
  );
}

// Icons only the shell uses; decorative, the label is always beside them.
function Svg({ children }: { children: React.ReactNode }) {
  return (
    <svg
      viewBox="0 0 24 24"
      width="1.25em"
      height="1.25em"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      className="shrink-0"
    >
      {children}
    </svg>
  );
}

function NavIcon({ path }: { path: string }) {
  switch (path) {
    case "/dashboard":
      return (
        <Svg>
          <rect x="3" y="3" width="7" height="9" rx="1" />
          <rect x="14" y="3" width="7" height="5" rx="1" />
          <rect x="14" y="12" width="7" height="9" rx="1" />
          <rect x="3" y="16" width="7" height="5" rx="1" />
        </Svg>
      );
    case "/create-persona":
      return (
        <Svg>
          <path d="M12 5v14M5 12h14" />
        </Svg>
      );
    case "/my-personas":
      return (
        <Svg>
          <circle cx="9" cy="8" r="3.5" />
          <path d="M2.5 20c0-3.6 2.9-6.5 6.5-6.5s6.5 2.9 6.5 6.5" />
          <path d="M16 4.5a3.5 3.5 0 0 1 0 7M18 13.8c2 .9 3.5 3 3.5 6.2" />
        </Svg>
      );
    case "/subscription":
      return (
        <Svg>
          <rect x="2.5" y="5" width="19" height="14" rx="2" />
          <path d="M2.5 10h19M6.5 15h4" />
        </Svg>
      );
    default:
      return (
        <Svg>
          <circle cx="12" cy="12" r="3" />
          <path d="M19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-1.8-.3 1.7 1.7 0 0 0-1 1.5V21a2 2 0 1 1-4 0v-.1a1.7 1.7 0 0 0-1.1-1.5 1.7 1.7 0 0 0-1.8.3l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1a1.7 1.7 0 0 0 .3-1.8 1.7 1.7 0 0 0-1.5-1H3a2 2 0 1 1 0-4h.1a1.7 1.7 0 0 0 1.5-1.1 1.7 1.7 0 0 0-.3-1.8l-.1-.1a2 2 0 1 1 2.8-2.8l.1.1a1.7 1.7 0 0 0 1.8.3H9a1.7 1.7 0 0 0 1-1.5V3a2 2 0 1 1 4 0v.1a1.7 1.7 0 0 0 1 1.5 1.7 1.7 0 0 0 1.8-.3l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1a1.7 1.7 0 0 0-.3 1.8V9a1.7 1.7 0 0 0 1.5 1H21a2 2 0 1 1 0 4h-.1a1.7 1.7 0 0 0-1.5 1z" />
        </Svg>
      );
  }
}

function LogOutIcon() {
  return (
    <Svg>
      <path d="M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4M16 17l5-5-5-5M21 12H9" />
    </Svg>
  );
}
