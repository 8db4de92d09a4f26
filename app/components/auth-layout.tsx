// The card the sign-in screens sit in, plus the pieces they share: password fields with
// show/hide (a JavaScript enhancement) and third-party sign-in buttons (plain forms).
import { Form } from "@remix-run/react";
import { useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";

import { PublicLayout } from "./public-layout";
import { Field } from "./ui/field";
import { Button } from "./ui/button";

export function AuthCard({ title, subtitle, children }: { title: string; subtitle?: React.ReactNode; children: React.ReactNode }) {
  return (
    <PublicLayout>
      <div className="mx-auto flex max-w-md flex-col px-4 py-12 sm:py-16">
        <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
          <h1 className="text-2xl font-bold text-slate-900">{title}</h1>
          {subtitle ? <p className="mt-2 text-slate-700">{subtitle}</p> : null}
          <div className="mt-6">{children}</div>
        </div>
      </div>
    </PublicLayout>
  );
}

export function PasswordField({
  label,
  inputProps,
  errors,
  hint,
}: {
  label: string;
  inputProps: React.InputHTMLAttributes<HTMLInputElement>;
  errors?: string[];
  hint?: string;
}) {
  const hydrated = useHydrated();
  const [visible, setVisible] = useState(false);
  return (
    <div className="relative">
      <Field label={label} inputProps={{ ...inputProps, type: visible ? "text" : "password" }} errors={errors} hint={hint} />
      {hydrated ? (
        <button
          type="button"
          onClick={() => setVisible((v) => !v)}
          aria-pressed={visible}
          aria-controls={inputProps.id}
          className="absolute right-2 top-7 rounded-md px-2 py-1 text-sm font-medium text-brand-800 hover:bg-brand-50"
        >
          {visible ? "Hide" : "Show"}
          <span className="sr-only"> password</span>
        </button>
      ) : null}
    </div>
  );
}

/**
 * 'Continue with …' for each third-party sign-in provider the server offers (none: nothing);
 * `redirectTo` is where the visitor goes once signed in.
 */
export function OAuthButtons({ providers, redirectTo }: { providers: { id: string; name: string }[]; redirectTo?: string | null }) {
  if (providers.length === 0) return null;
  return (
    <div className="mt-6">
      <p className="relative text-center text-sm text-slate-600">
        <span className="bg-white px-2">or</span>
      </p>
      <div className="mt-4 grid gap-2">
        {providers.map((provider) => (
          <Form key={provider.id} method="post" action={`/api/auth/${provider.id}`} reloadDocument>
            {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
            <Button type="submit" variant="secondary" size="base" className="w-full">
              Continue with {provider.name}
            </Button>
          </Form>
        ))}
      </div>
    </div>
  );
}

export function SubmitButton({ children, busy, busyText }: { children: React.ReactNode; busy?: boolean; busyText?: string }) {
  return (
    <Button type="submit" disabled={busy} size="lg" className="w-full">
      {busy && busyText ? busyText : children}
    </Button>
  );
}
