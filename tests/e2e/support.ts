import AxeBuilder from "@axe-core/playwright";
import { expect, test as base, type Page } from "@playwright/test";

export const test = base.extend<{ jsEnabled: boolean }>({
  jsEnabled: async ({ javaScriptEnabled }, use) => {
    await use(javaScriptEnabled !== false);
  },
});
export { expect };

/**
 * Opens a path and, with JavaScript on, waits until React has hydrated, so a click
 * never lands on the server HTML before the enhanced handlers exist.
 */
export async function visit(page: Page, path: string) {
  const response = await page.goto(path);
  if (await jsOn(page)) await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  return response;
}

async function jsOn(page: Page) {
  return (page.context() as unknown as { _options?: { javaScriptEnabled?: boolean } })._options?.javaScriptEnabled !== false;
}

const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];

/**
 * axe finds nothing on the page as it stands. axe runs as a script, so for the
 * JavaScript-off project the page's server HTML (scripts removed) is audited in a
 * JavaScript-enabled page at the same address, with the same styles.
 */
export async function expectNoA11yViolations(page: Page) {
  let target = page;
  let cleanup = async () => {};
  if (!(await jsOn(page))) {
    const html = (await page.content()).replace(/<script\b[\s\S]*?<\/script>/gi, "");
    const browser = page.context().browser()!;
    const context = await browser.newContext({ javaScriptEnabled: true, viewport: page.viewportSize() });
    target = await context.newPage();
    const url = page.url();
    await target.route(url, (route) => route.fulfill({ status: 200, contentType: "text/html", body: html }));
    await target.goto(url);
    cleanup = () => context.close();
  }
  try {
    const results = await new AxeBuilder({ page: target }).withTags(AXE_TAGS).analyze();
    const summary = results.violations.map(
      (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`,
    );
    expect(summary).toEqual([]);
  } finally {
    await cleanup();
  }
}
