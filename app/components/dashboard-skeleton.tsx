// What the dashboard and the library look like while their data loads on client navigation
// (docs/product.md, Dashboard: three skeleton cards in the Recent Personas grid; 'Loading personas...').
export function SkeletonCards({ count = 3 }: { count?: number }) {
  return (
    <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3" aria-hidden="true" data-testid="skeleton-cards">
      {Array.from({ length: count }, (_, i) => (
        <li key={i} className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
          <div className="flex items-start gap-3">
            <div className="h-14 w-14 shrink-0 animate-pulse rounded-xl bg-slate-200 motion-reduce:animate-none" />
            <div className="flex-1 space-y-2">
              <div className="h-5 w-2/3 animate-pulse rounded bg-slate-200 motion-reduce:animate-none" />
              <div className="h-4 w-1/3 animate-pulse rounded bg-slate-200 motion-reduce:animate-none" />
            </div>
          </div>
          <div className="mt-3 h-10 w-full animate-pulse rounded bg-slate-200 motion-reduce:animate-none" />
          <div className="mt-3 h-10 w-full animate-pulse rounded-lg bg-slate-200 motion-reduce:animate-none" />
          <div className="mt-3 h-9 w-full animate-pulse rounded-lg bg-slate-200 motion-reduce:animate-none" />
        </li>
      ))}
    </ul>
  );
}

export function DashboardLoading() {
  return (
    <div className="mx-auto max-w-6xl space-y-8" aria-busy="true" data-testid="dashboard-loading">
      <p role="status" className="sr-only">
        Loading your dashboard...
      </p>
      <div className="h-44 animate-pulse rounded-2xl bg-brand-100 motion-reduce:animate-none" />
      <div className="grid gap-6 md:grid-cols-3">
        {[0, 1, 2].map((i) => (
          <div key={i} className="h-32 animate-pulse rounded-2xl bg-slate-200 motion-reduce:animate-none" />
        ))}
      </div>
      <SkeletonCards />
    </div>
  );
}

/** My Personas on its way: its heading and 'Loading personas...' over skeleton cards. */
export function LibraryLoading({ heading, text }: { heading: string; text: string }) {
  return (
    <div className="mx-auto max-w-6xl space-y-6" aria-busy="true" data-testid="library-loading">
      <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">{heading}</h1>
      <p role="status" className="text-sm text-slate-600">
        {text}
      </p>
      <SkeletonCards count={6} />
    </div>
  );
}
