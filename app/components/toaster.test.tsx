// Without JavaScript the toast is the server's HTML: it must be there, readable,
// dismissible without a script and set to leave by itself after 5 s.
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";

import { ToastProvider, Toasts } from "./toaster";

describe("server-rendered toast", () => {
  const html = renderToString(
    <ToastProvider
      serverToast={{ id: "t1", type: "success", title: "Persona deleted", description: "The persona has been successfully deleted." }}
    >
      <Toasts />
      <p>page</p>
    </ToastProvider>,
  );

  it("shows the title and text inside the labelled notifications region", () => {
    expect(html).toContain('aria-label="Notifications (F8)"');
    expect(html).toContain("Persona deleted");
    expect(html).toContain("The persona has been successfully deleted.");
    expect(html).toContain('aria-live="polite"');
  });

  it("can be dismissed with no script (a labelled checkbox) and leaves by CSS after 5 s", () => {
    expect(html).toMatch(/<input type="checkbox" id="toast-dismiss-t1"[^>]*aria-label="Dismiss notification"/);
    expect(html).toContain("toast-auto-dismiss");
  });

  it("renders only one toast", () => {
    expect(html.match(/data-testid="toast"/g)).toHaveLength(1);
  });

  it("renders an empty region when there is nothing to say", () => {
    const empty = renderToString(
      <ToastProvider serverToast={null}>
        <Toasts />
        <p>page</p>
      </ToastProvider>,
    );
    expect(empty).not.toContain('data-testid="toast"');
  });
});
