// The server's <Link> writes exactly what Remix's <Link> writes, so the browser hydrates the
// same markup: every attribute, its order, data-discover, href (an empty '?' or '#' dropped),
// target; ids made by useId inside and after it; and anything it does not take the short
// way for (relative paths, '.' and '..', objects, URLs) is Remix's own.
import { Link as RemixLink } from "@remix-run/react";
import { useId, type ComponentProps } from "react";
import { renderToString } from "react-dom/server";
import { StaticRouter } from "react-router-dom/server";
import { describe, expect, it } from "vitest";

import { Link, rendersOnServerAsAnchor, ServerLink } from "./link";

type Props = ComponentProps<typeof RemixLink>;

function Labelled({ children }: { children: string }) {
  const id = useId();
  return <span id={id}>{children}</span>;
}

function page(LinkComponent: typeof RemixLink, props: Props, location: string) {
  return renderToString(
    <StaticRouter location={location}>
      <nav>
        <Labelled>before</Labelled>
        <LinkComponent {...props}>
          <Labelled>inside</Labelled>
        </LinkComponent>
        <Labelled>after</Labelled>
      </nav>
    </StaticRouter>,
  );
}

const CASES: Props[] = [
  { to: "/dashboard" },
  { to: "/persona/0f0c2a4e-0000-4000-8000-000000000001/history?page=2", className: "underline", "aria-describedby": "t" },
  { to: "/my-personas?tab=archived&q=caf%C3%A9#list", rel: "next", title: "Older" },
  { to: "/login?", prefetch: "intent" },
  { to: "/login#", prefetch: "render", replace: true, state: { from: "x" } },
  { to: "/pricing", target: "_blank", reloadDocument: true },
  { to: "/settings", discover: "none", preventScrollReset: true, viewTransition: true },
  { to: "/privacy-policy/", relative: "path", onClick: () => {} },
  { to: "/a/./b" },
  { to: "/a/../b?x=1" },
  { to: "history" },
  { to: "../edit" },
  { to: "." },
  { to: "//cdn.example/x" },
  { to: "https://stripe.example/checkout" },
  { to: "mailto:hello@personaforge.example" },
  { to: { pathname: "/persona/1", search: "?tab=chat" } },
];

describe("the server's <Link>", () => {
  for (const location of ["/", "/persona/1/history", "/my-personas/"]) {
    it(`writes what Remix's <Link> writes, ids included, from ${location}`, () => {
      for (const props of CASES) {
        expect(page(ServerLink as typeof RemixLink, props, location), JSON.stringify(props.to)).toBe(page(RemixLink, props, location));
      }
    });
  }

  it("takes the short way only for paths that resolve to themselves", () => {
    expect(["/dashboard", "/persona/1/history?page=2", "/x#y", "/", "/a?b=../c"].every(rendersOnServerAsAnchor)).toBe(true);
    expect(["history", "./x", "../x", ".", "/a/./b", "/a/..", "//evil.example", "https://x.example", { pathname: "/x" }].some(rendersOnServerAsAnchor)).toBe(false);
  });

  it("is the one the server renders with (no document here); the browser gets Remix's", () => {
    expect(Link).toBe(ServerLink);
  });
});
