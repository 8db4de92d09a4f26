import { Link } from "@remix-run/react";

import { PRODUCT_NAME } from "~/domain/site";

import { SparklesIcon } from "./ui/icons";

export function BetaBadge() {
  return <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold uppercase tracking-wide text-amber-900">Beta</span>;
}

export function Brand({ to = "/" }: { to?: string }) {
  return (
    <Link to={to} className="flex items-center gap-2 rounded-md font-bold text-slate-900">
      <span className="flex h-8 w-8 items-center justify-center rounded-lg bg-brand-700 text-white">
        <SparklesIcon />
      </span>
      <span className="text-lg">{PRODUCT_NAME}</span>
      <BetaBadge />
    </Link>
  );
}
