import { data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useLocation, useRouteLoaderData } from "@remix-run/react";
import { useEffect } from "react";

import { GeneralErrorBoundary } from "~/components/error-boundary";
import { useNonce } from "~/components/nonce";
import { PublicLayout } from "~/components/public-layout";
import { ToastProvider } from "~/components/toaster";
import { PRODUCT_NAME, PRODUCT_TAGLINE } from "~/domain/site";
import { getToast } from "~/services/index.server";
import stylesheet from "~/tailwind.css";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: MetaFunction = () => [{ title: `${PRODUCT_NAME} (Beta)` }, { name: "description", content: PRODUCT_TAGLINE }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { toast, headers } = await getToast(request);
  return data({ toast }, { headers: headers ?? undefined });
}

/** The element after the page's content that its first frame waits for (see Layout's head). */
const PAGE_END = "page-end";

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  return (
    <html lang="en" className="h-full">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#6d28d9" />
        <Meta />
        <Links />
        {/* The first frame waits until the page's content is parsed (the marker after it), so a
            slow device never paints half a page and then moves it: half a row of buttons, a
            select before its options. Browsers without rel=expect paint as they parse. */}
        <link rel="expect" href={`#${PAGE_END}`} {...{ blocking: "render" }} />
      </head>
      <body className="min-h-full">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-4 focus:z-50 focus:rounded-md focus:bg-white focus:px-4 focus:py-2 focus:text-brand-800 focus:shadow"
        >
          Skip to content
        </a>
        {children}
        <div id={PAGE_END} hidden />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  const rootData = useRouteLoaderData<typeof loader>("root");
  const { pathname, search } = useLocation();
  // Marks the document once React has taken over (tests wait for it before interacting).
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return (
    <ToastProvider serverToast={rootData?.toast ?? null} screen={`${pathname}${search}`}>
      <Outlet />
    </ToastProvider>
  );
}

export function ErrorBoundary() {
  return (
    <PublicLayout>
      <GeneralErrorBoundary />
    </PublicLayout>
  );
}
