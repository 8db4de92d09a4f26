// The pathless layout of every signed-in page: strangers go to /login and come back
// afterwards; signed-in users get the navigation shell. These pages are personal, so
// they are never cached (no publicPage handle, and Cache-Control: private, no-store).
import { data, type HeadersFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData, useLocation, useNavigation, useRouteLoaderData } from "@remix-run/react";

import { AppShell } from "~/components/app-shell";
import { DashboardLoading } from "~/components/dashboard-skeleton";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { DASHBOARD_PATH } from "~/domain/navigation";
import { requireUser, responseHeaders } from "~/services/session.server";

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
  const toDashboard =
    navigation.state === "loading" && navigation.location.pathname === DASHBOARD_PATH && location.pathname !== DASHBOARD_PATH;
  return <AppShell user={user}>{toDashboard ? <DashboardLoading /> : <Outlet />}</AppShell>;
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
