// The app's <Link>: Remix's, except while the server renders a link to an absolute path
// (decision 017). There it writes the very <a> Remix's <Link> writes (the caller's attributes,
// data-discover, href, target) without running its hooks: resolving the path against the
// route, the prefetch state, the click handler and the ref that only the browser uses. A page
// of cards has dozens of links: those hooks were 3–5 % of its main thread on the server.
// In the browser every link is Remix's own, so hydration, client-side navigation and
// prefetching are unchanged. Anything else (an object, a relative path, a '.' or '..'
// segment, a protocol-relative or absolute URL) goes to Remix's <Link> on the server too.
import { createPath, Link as RemixLink, parsePath } from "@remix-run/react";
import { createElement, forwardRef, Fragment, type ComponentProps } from "react";

type LinkProps = ComponentProps<typeof RemixLink>;

/** A path that resolves to itself: absolute, not protocol-relative, no '.' or '..' segment. */
export function rendersOnServerAsAnchor(to: LinkProps["to"]): to is string {
  if (typeof to !== "string" || !to.startsWith("/") || to.startsWith("//")) return false;
  return !(parsePath(to).pathname ?? "").split("/").some((segment) => segment === "." || segment === "..");
}

/** Remix's <Link> as the server renders it (see above); exported for its test. */
export const ServerLink = forwardRef<HTMLAnchorElement, LinkProps>(function ServerLink(props, ref) {
  const {
    to,
    prefetch: _prefetch,
    discover = "render",
    onClick: _onClick,
    relative: _relative,
    reloadDocument,
    replace: _replace,
    state: _state,
    target,
    preventScrollReset: _preventScrollReset,
    viewTransition: _viewTransition,
    ...rest
  } = props;
  if (!rendersOnServerAsAnchor(to)) return createElement(RemixLink, { ...props, ref });
  // useHref's answer for such a path without a basename: React Router's own parse and print
  // (an empty '?' or '#' dropped).
  const href = createPath(parsePath(to));
  const anchor = createElement("a", { ...rest, "data-discover": discover === "render" && !reloadDocument ? "true" : undefined, href, target });
  // Remix's <Link> returns the anchor and a prefetch slot (empty on the server) side by side:
  // the same two children keep ids made by useId inside the link the same.
  return createElement(Fragment, null, anchor, null);
});

export const Link: typeof RemixLink = typeof document === "undefined" ? (ServerLink as typeof RemixLink) : RemixLink;
