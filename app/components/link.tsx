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
  const pathname = parsePath(to).pathname ?? "";
  // Only a path with '/.' in it can hold a '.' or '..' segment.
  return !pathname.includes("/.") || !pathname.split("/").some((segment) => segment === "." || segment === "..");
}

/** The props only <Link> reads: everything else goes onto the <a> as it is. */
function isLinkOnlyProp(key: string): boolean {
  switch (key) {
    case "to":
    case "prefetch":
    case "discover":
    case "onClick":
    case "relative":
    case "reloadDocument":
    case "replace":
    case "state":
    case "target":
    case "preventScrollReset":
    case "viewTransition":
      return true;
    default:
      return false;
  }
}

/** Remix's <Link> as the server renders it (see above); exported for its test. */
export const ServerLink = forwardRef<HTMLAnchorElement, LinkProps>(function ServerLink(props, ref) {
  const { to } = props;
  if (!rendersOnServerAsAnchor(to)) return createElement(RemixLink, { ...props, ref });
  // The anchor's props are copied key by key, in the caller's order (what `...rest` would
  // give): an object rest and a spread cost about ten times as much, once per link.
  const anchor: Record<string, unknown> = {};
  for (const key in props) {
    if (!isLinkOnlyProp(key)) anchor[key] = (props as Record<string, unknown>)[key];
  }
  anchor["data-discover"] = (props.discover ?? "render") === "render" && !props.reloadDocument ? "true" : undefined;
  // useHref's answer for such a path without a basename: React Router's own parse and print
  // (an empty '?' or '#' dropped).
  anchor.href = createPath(parsePath(to));
  anchor.target = props.target;
  // Remix's <Link> returns the anchor and a prefetch slot (empty on the server) side by side:
  // the same two children keep ids made by useId inside the link the same.
  return createElement(Fragment, null, createElement("a", anchor), null);
});

export const Link: typeof RemixLink = typeof document === "undefined" ? (ServerLink as typeof RemixLink) : RemixLink;
