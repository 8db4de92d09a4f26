// Header and footer of the public pages (docs/product.md, Public routes: Features, Pricing, Contact, Sign In,
// Get Started; footer links). The mobile menu is a <details> element: it opens without
// JavaScript and needs no client code.

import { Link, useLocation } from "@remix-run/react";

import { CONTACT_EMAIL, PRODUCT_NAME } from "~/domain/site";

import { Brand } from "./brand";
import { Toasts } from "./toaster";
import { MenuIcon } from "./ui/icons";
import { buttonClass } from "./ui/button";

const navLinks = [
  { to: "/#features", label: "Features" },
  { to: "/#pricing", label: "Pricing" },
  { to: "/contact", label: "Contact" },
];

export function PublicLayout({ children }: { children: React.ReactNode }) {
  const { pathname } = useLocation();
  return (
    <div className="flex min-h-screen flex-col">
      <SiteHeader />
      {/* A new screen is new content: the toast that comes with it moves nothing that was shown (decision 037). */}
      <div key={pathname} className="flex flex-1 flex-col">
        <div className="mx-auto w-full max-w-6xl">
          <Toasts />
        </div>
        <main id="main" className="flex-1">
          {children}
        </main>
        <SiteFooter />
      </div>
    </div>
  );
}

function SiteHeader() {
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/95 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
        <Brand />
        <nav aria-label="Main" className="hidden items-center gap-6 md:flex">
          {navLinks.map((link) => (
            <Link key={link.to} to={link.to} className="text-sm font-medium text-slate-700 hover:text-brand-700">
              {link.label}
            </Link>
          ))}
        </nav>
        <div className="hidden items-center gap-3 md:flex">
          <Link to="/login" className="rounded-lg px-3 py-2 text-sm font-medium text-slate-800 hover:bg-slate-100">
            Sign In
          </Link>
          <Link to="/register" className={buttonClass("primary", "md")}>
            Get Started
          </Link>
        </div>
        <details className="relative md:hidden">
          <summary className="flex cursor-pointer list-none items-center rounded-lg p-2 text-xl text-slate-800 hover:bg-slate-100 [&::-webkit-details-marker]:hidden">
            <MenuIcon />
            <span className="sr-only">Menu</span>
          </summary>
          <nav
            aria-label="Mobile"
            className="absolute right-0 mt-2 flex w-56 max-w-[calc(100vw-2rem)] flex-col gap-1 rounded-xl border border-slate-200 bg-white p-2 shadow-lg"
          >
            {navLinks.map((link) => (
              <Link key={link.to} to={link.to} className="rounded-md px-3 py-2 text-slate-800 hover:bg-slate-100">
                {link.label}
              </Link>
            ))}
            <Link to="/login" className="rounded-md px-3 py-2 text-slate-800 hover:bg-slate-100">
              Sign In
            </Link>
            <Link to="/register" className={buttonClass("primary", "sm")}>
              Get Started
            </Link>
          </nav>
        </details>
      </div>
    </header>
  );
}

function SiteFooter() {
  // The copyright year: a kept public page shows it for at most ten minutes (decision 031).
  // eslint-disable-next-line no-restricted-syntax -- the year, not a time a page states
  const year = new Date().getFullYear();
  return (
    <footer className="border-t border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-10 sm:px-6 md:flex-row md:items-start md:justify-between">
        <div className="max-w-sm">
          <Brand />
          <p className="mt-3 text-sm text-slate-600">Design AI characters with personalities, stories, and dynamic conversations.</p>
        </div>
        <nav aria-label="Footer" className="grid grid-cols-2 gap-x-10 gap-y-2 text-sm">
          <Link to="/#features" className="text-slate-700 hover:text-brand-700">
            Features
          </Link>
          <Link to="/privacy-policy" className="text-slate-700 hover:text-brand-700">
            Privacy Policy
          </Link>
          <Link to="/#pricing" className="text-slate-700 hover:text-brand-700">
            Pricing
          </Link>
          <Link to="/terms-of-service" className="text-slate-700 hover:text-brand-700">
            Terms of Service
          </Link>
          <Link to="/contact" className="text-slate-700 hover:text-brand-700">
            Contact
          </Link>
          <Link to="/commerce-disclosure" className="text-slate-700 hover:text-brand-700">
            Commerce Disclosure
          </Link>
        </nav>
      </div>
      <div className="border-t border-slate-100">
        <p className="mx-auto max-w-6xl px-4 py-4 text-xs text-slate-600 sm:px-6">
          © {year} {PRODUCT_NAME}. Beta software. Questions?{" "}
          <a className="underline" href={`mailto:${CONTACT_EMAIL}`}>
            {CONTACT_EMAIL}
          </a>
        </p>
      </div>
    </footer>
  );
}
