// Shared frame for the legal pages (Privacy Policy, Terms of Service, Commerce Disclosure):
// an <article> with one <h1>, a "Last updated" line and a readable prose column. Plain
// Tailwind classes only (no typography plugin); the page itself sits inside PublicLayout's
// <main>, so nothing here renders another landmark of that kind.
import { CONTACT_EMAIL } from "~/domain/site";

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
] as const;

/** "2026-11-21" -> "November 21, 2026", without time zones or locale data. */
function formatIsoDate(iso: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!match) return iso;
  const [, year, month, day] = match;
  const monthName = MONTHS[Number(month) - 1];
  return monthName ? `${monthName} ${Number(day)}, ${year}` : iso;
}

/** Turns a heading into a stable fragment id: "Your rights" -> "your-rights". */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

export function LegalPage({
  title,
  updated,
  intro,
  children,
}: {
  title: string;
  /** ISO date (YYYY-MM-DD) of the last change. */
  updated: string;
  /** Optional lead paragraph shown under the date. */
  intro?: React.ReactNode;
  children: React.ReactNode;
}) {
  return (
    <article aria-labelledby="legal-title" className="mx-auto max-w-3xl px-4 py-12 text-slate-700 sm:px-6 md:py-16">
      <header className="border-b border-slate-200 pb-6">
        <h1 id="legal-title" className="text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl">
          {title}
        </h1>
        <p className="mt-3 text-sm text-slate-600">
          Last updated: <time dateTime={updated}>{formatIsoDate(updated)}</time>
        </p>
        {intro ? <div className="mt-6 space-y-4 text-lg leading-relaxed text-slate-700">{intro}</div> : null}
      </header>
      <div className="mt-8 space-y-10 leading-relaxed">{children}</div>
    </article>
  );
}

/** One numbered-or-not section of a legal page: an <h2> and its body. */
export function LegalSection({ title, id, children }: { title: string; id?: string; children: React.ReactNode }) {
  const sectionId = id ?? slugify(title);
  return (
    <section aria-labelledby={sectionId} className="scroll-mt-20">
      <h2 id={sectionId} className="text-xl font-bold text-slate-900 sm:text-2xl">
        {title}
      </h2>
      <div className="mt-4 space-y-4">{children}</div>
    </section>
  );
}

/** A sub-heading inside a LegalSection. */
export function LegalSubheading({ children }: { children: React.ReactNode }) {
  return <h3 className="pt-2 text-lg font-semibold text-slate-900">{children}</h3>;
}

/** A bulleted list with readable spacing. */
export function LegalList({ children }: { children: React.ReactNode }) {
  return <ul className="list-disc space-y-2 pl-6 marker:text-slate-500">{children}</ul>;
}

/** An in-text link style shared by the legal pages. */
export const legalLinkClass = "font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800";

/** The contact address as a mailto link (optionally with a subject line). */
export function ContactEmail({ subject }: { subject?: string }) {
  const href = subject ? `mailto:${CONTACT_EMAIL}?subject=${encodeURIComponent(subject)}` : `mailto:${CONTACT_EMAIL}`;
  return (
    <a href={href} className={legalLinkClass}>
      {CONTACT_EMAIL}
    </a>
  );
}
