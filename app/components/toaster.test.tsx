// Without JavaScript the toast is the server's HTML: it must be there, readable, dismissible
// without a script, and it must never move the page by itself (docs/decisions/029-toasts-without-layout-shift.md):
// no timed leave, and nothing of it left when dismissed. The JavaScript timer, fade and give-back
// are journeys (tests/e2e/toasts.enhanced.test.ts, tests/e2e/toasts-layout.test.ts).
import { readFileSync } from "node:fs";

import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";

import { ActionToast, ToastBand, ToastProvider } from "./toaster";

describe("server-rendered toast", () => {
  const html = renderToString(
    <ToastProvider
      serverToast={{ id: "t1", type: "success", title: "Persona deleted", description: "The persona has been successfully deleted." }}
    >
      <ToastBand />
      <p>page</p>
    </ToastProvider>,
  );

  it("shows the title and text inside the labelled notifications region", () => {
    expect(html).toContain('aria-label="Notifications (F8)"');
    expect(html).toContain("Persona deleted");
    expect(html).toContain("The persona has been successfully deleted.");
    expect(html).toContain('aria-live="polite"');
  });

  it("can be dismissed with no script (a labelled checkbox)", () => {
    expect(html).toMatch(/<input type="checkbox" id="toast-dismiss-t1"[^>]*aria-label="Dismiss notification"/);
    expect(html).toMatch(/<label for="toast-dismiss-t1"/);
  });

  it("stays until dismissed: no timed leave that would move the page or leave an empty band", () => {
    expect(html).not.toContain("toast-auto-dismiss");
    expect(html).not.toMatch(/animation|invisible|opacity-0/);
    expect(html).toContain('data-state="shown"');
    expect(readFileSync(new URL("../tailwind.css", import.meta.url), "utf8")).not.toMatch(/toast/i);
  });

  it("keeps its room inside what the checkbox hides, so a dismissed toast leaves no band", () => {
    // The checkbox is visually hidden (no height); everything with a height is in the box that hides.
    expect(html).toMatch(/<input type="checkbox"[^>]*class="peer sr-only"[^>]*\/><div class="pt-4 peer-checked:hidden">/);
    expect(html).toMatch(/<ol aria-live="polite" aria-atomic="true" class="w-full sm:max-w-md">/);
  });

  it("renders only one toast", () => {
    expect(html.match(/data-testid="toast"/g)).toHaveLength(1);
  });

  it("renders an empty region when there is nothing to say", () => {
    const empty = renderToString(
      <ToastProvider serverToast={null}>
        <ToastBand />
        <p>page</p>
      </ToastProvider>,
    );
    expect(empty).not.toContain('data-testid="toast"');
    // An empty region takes no room: no padding waiting for a toast.
    expect(empty).not.toMatch(/p[bt]-\d/);
  });

  it("holds a toast's room while an answer is awaited, unannounced", () => {
    const held = renderToString(
      <ToastProvider serverToast={null}>
        <ToastBand posting />
      </ToastProvider>,
    );
    expect(held).toMatch(/<li aria-hidden="true" data-testid="toast-pending"/);
    expect(held).not.toContain('data-testid="toast"');
  });
});

describe("an action's toast without JavaScript", () => {
  const html = renderToString(
    <ToastProvider serverToast={null}>
      <ActionToast toast={{ type: "error", title: "Chat failed" }} />
    </ToastProvider>,
  );

  it("is rendered in the page's flow, stays until dismissed and hides whole", () => {
    expect(html).toContain("Chat failed");
    expect(html).not.toContain("toast-auto-dismiss");
    expect(html).toContain('class="pt-4 peer-checked:hidden"');
  });
});
