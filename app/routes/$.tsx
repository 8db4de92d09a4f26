// Any path no other route claims: a real 404 with its text (docs/product.md, Public routes). A signed-in creator sees
// it inside the navigation shell, so a mistyped address never makes them look signed out.
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { isRouteErrorResponse, useRouteError } from "@remix-run/react";

import { AppShell, type ShellUser } from "~/components/app-shell";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { PublicLayout } from "~/components/public-layout";
import { optionalUser, responseHeaders } from "~/services/index.server";

async function notFound(request: Request, context: { clientAddress?: string }): Promise<never> {
  const { user, ctx } = await optionalUser(request, context);
  const headers = responseHeaders(ctx, user ? { "Cache-Control": "private, no-store" } : undefined);
  throw data({ user: user satisfies ShellUser | null }, { status: 404, headers });
}

export function loader({ request, context }: LoaderFunctionArgs) {
  return notFound(request, context);
}

export function action({ request, context }: ActionFunctionArgs) {
  return notFound(request, context);
}

export default function NotFound() {
  return null;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const user = isRouteErrorResponse(error) ? (error.data as { user?: ShellUser | null } | null)?.user : null;
  if (user) {
    return (
      <AppShell user={user}>
        <GeneralErrorBoundary />
      </AppShell>
    );
  }
  return (
    <PublicLayout>
      <GeneralErrorBoundary />
    </PublicLayout>
  );
}
