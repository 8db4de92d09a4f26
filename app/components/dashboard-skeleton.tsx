// What the dashboard looks like while its data loads on client navigation (SPEC §2: three
// skeleton cards in the Recent Personas grid).
export function SkeletonCards({ count = 3 }: { count?: number }) {
  return (
    <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3" aria-hidden="true" data-testid="skeleton-cards">
      {Array.from({ length: count }, (_, i) => (
        <li key={i} className="overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm">
          <div className="aspect-[4/3] animate-pulse bg-slate-200 motion-reduce:animate-none" />
          <div className="space-y-3 p-4">
            <div className="h-5 w-2/3 animate-pulse rounded bg-slate-200 motion-reduce:animate-none" />
            <div className="h-4 w-1/3 animate-pulse rounded bg-slate-200 motion-reduce:animate-none" />
            <div className="h-4 w-full animate-pulse rounded bg-slate-200 motion-reduce:animate-none" />
            <div className="h-9 w-full animate-pulse rounded-lg bg-slate-200 motion-reduce:animate-none" />
          </div>
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
