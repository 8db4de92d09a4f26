// The pathless layout of every signed-in page: strangers go to /login and come back
// afterwards; signed-in users get the navigation shell. These pages are personal, so
// they are never cached (no publicPage handle, and Cache-Control: private, no-store).
import { data, type HeadersFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData, useLocation, useNavigation, useRouteLoaderData } from "@remix-run/react";

import { AppShell } from "~/components/app-shell";
import { DashboardLoading, LibraryLoading } from "~/components/dashboard-skeleton";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { DASHBOARD_PATH } from "~/domain/navigation";
import { LIST_TEXT } from "~/domain/persona-list";
import { requireUser, responseHeaders } from "~/services/index.server";

const LIBRARY_PATH = "/my-personas";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user, ctx } = await requireUser(request, context);
  return data({ user }, { headers: responseHeaders(ctx) });
}

// Child routes without their own `headers` inherit these. Set-Cookie travels on its own.
export const headers: HeadersFunction = ({ loaderHeaders }) => ({
  "Cache-Control": loaderHeaders.get("Cache-Control") ?? "private, no-store",
});

export default function AppLayout() {
  const { user } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const location = useLocation();
  // On the way to the dashboard from another page, its skeleton shows while it loads.
  const arriving =
    navigation.state === "loading" && navigation.location.pathname !== location.pathname ? navigation.location.pathname : null;
  // So does the library's, with its 'Loading personas...' (a slow connection shows at once that it is coming).
  const loading =
    arriving === DASHBOARD_PATH ? (
      <DashboardLoading />
    ) : arriving === LIBRARY_PATH ? (
      <LibraryLoading heading={LIST_TEXT.heading} text={LIST_TEXT.loading} />
    ) : null;
  return <AppShell user={user}>{loading ?? <Outlet />}</AppShell>;
}

export function ErrorBoundary() {
  // A page below failed: keep the shell around the error. The shell's own loader failed: no shell.
  const layout = useRouteLoaderData<typeof loader>("routes/_app");
  if (layout?.user) {
    return (
      <AppShell user={layout.user}>
        <GeneralErrorBoundary />
      </AppShell>
    );
  }
  return (
    <main id="main" className="min-h-screen bg-slate-50">
      <GeneralErrorBoundary />
    </main>
  );
}
