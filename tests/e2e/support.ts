import { randomInt, randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";

import axe from "axe-core";
import { expect, test as base, type APIRequestContext, type Browser, type Page, type Request, type Route } from "@playwright/test";

export const test = base.extend<{ jsEnabled: boolean }>({
  jsEnabled: async ({ javaScriptEnabled }, use) => {
    await use(javaScriptEnabled !== false);
  },
  // Every page's layout shifts are recorded from its first document on, for expectNoLayoutShift.
  page: async ({ page }, use) => {
    await trackLayoutShifts(page);
    await use(page);
  },
  // Every test is its own visitor: its own client address for the per-client abuse limits
  // (the e2e server trusts X-Forwarded-For from loopback). The header is only a label.
  // Playwright reads a fixture's dependencies from its first parameter, which must be a pattern.
  // eslint-disable-next-line no-empty-pattern
  extraHTTPHeaders: async ({}, use) => {
    await use({ "X-Forwarded-For": `198.18.${randomInt(0, 255)}.${randomInt(1, 254)}` });
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
 * JavaScript-enabled page at the same address, with the same styles. The layout guard
 * (expectGoodLayout) runs first, at both sizes.
 */
export async function expectNoA11yViolations(page: Page) {
  await expectGoodLayout(page);
  let target = page;
  if (!(await jsOn(page))) {
    // The whole document: a page still streaming in would be audited half-built.
    await page.waitForLoadState("load");
    const html = (await page.content()).replace(/<script\b[\s\S]*?<\/script>/gi, "");
    target = await auditPage(page);
    await target.setViewportSize(page.viewportSize()!);
    const url = page.url();
    const serve = (route: Route) => route.fulfill({ status: 200, contentType: "text/html", body: html });
    await target.route(url, serve);
    await target.goto(url);
    await target.unroute(url, serve);
    // Audit the page as styled: every stylesheet applied (sizes and colours depend on it).
    await target.waitForFunction(() =>
      [...document.querySelectorAll<HTMLLinkElement>("link[rel=stylesheet]")].every((link) => link.sheet !== null),
    );
  }
  const audit = async () => {
    // What the creator sees once the page is still: a toast fading in or out is half transparent
    // for its 200 ms, and axe would judge its colours mid-way. Finite animations and transitions
    // are taken to their end at once (waiting for them hung where the page was not being drawn);
    // endless ones, a spinner's, are left alone.
    await target.evaluate(() => {
      for (const animation of document.getAnimations()) {
        if (Number.isFinite(Number(animation.effect?.getComputedTiming().endTime))) animation.finish();
      }
    });
    return runAxe(target);
  };
  let summary = await audit();
  // A toast whose 5 seconds ended while axe ran began to fade out under it: the page is judged
  // again with that fade taken to its end. What is really wrong is wrong both times.
  if (summary.length > 0) summary = await audit();
  expect(summary).toEqual([]);
}

/**
 * axe-core's own run (axe.run) in the page, injected once per document: a journey's client-side
 * navigations keep the document, and injecting axe (half a megabyte of script) costs about twice
 * what a run does. No cross-origin frames here, so the page alone is audited.
 */
async function runAxe(target: Page): Promise<string[]> {
  const present = await target.evaluate(() => typeof (window as unknown as { axe?: { run?: unknown } }).axe?.run === "function");
  if (!present) await target.evaluate(axe.source);
  return target.evaluate(async (tags) => {
    const inPage = (window as unknown as { axe: typeof import("axe-core") }).axe;
    const results = await inPage.run(document, { runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] });
    return results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
  }, AXE_TAGS);
}

/** One JavaScript-enabled page per browser, where the no-JavaScript project's server HTML is audited. */
const auditPages = new WeakMap<Browser, Promise<Page>>();
function auditPage(page: Page): Promise<Page> {
  const browser = page.context().browser()!;
  let audit = auditPages.get(browser);
  if (!audit) {
    audit = browser.newContext({ javaScriptEnabled: true }).then((context) => context.newPage());
    auditPages.set(browser, audit);
  }
  return audit;
}

// ---------------------------------------------------------------------------------
// Layout guard
// ---------------------------------------------------------------------------------

/** The two sizes every screen is checked at: a laptop and a phone. */
export const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;

/** A 60-character word with no break opportunity (what a URL or a German compound does to a layout). */
export const LONG_WORD = "Donaudampfschifffahrtsgesellschaftskapitaenswitwenrentenkasse".slice(0, 60).padEnd(60, "x");

/**
 * The layout problems of the page as it stands, at the current viewport: it scrolls sideways,
 * an open menu or dialog reaches past the viewport, a toast lies over a control that is not
 * its own, or a card, section or dialog is wider than its box (a long word pushing out).
 */
async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const vw = document.documentElement.clientWidth;
    const vh = window.innerHeight;
    const name = (el: Element) => {
      const text = (el.getAttribute("aria-label") ?? el.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 40);
      return `<${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}> "${text}"`;
    };
    // Rendered and seen: not in a closed <details>, not hidden, not transparent, not a 1px sr-only box.
    const shown = (el: Element) => {
      const rect = el.getBoundingClientRect();
      return el.checkVisibility({ opacityProperty: true, visibilityProperty: true }) && rect.width > 1 && rect.height > 1;
    };
    if (document.documentElement.scrollWidth > window.innerWidth) {
      problems.push(`the page scrolls sideways: ${document.documentElement.scrollWidth}px wide in a ${window.innerWidth}px viewport`);
    }
    // Open menus (a <details> disclosure's content, role=menu) and dialogs lie inside the viewport.
    const open = [...document.querySelectorAll("details[open] > :not(summary), [role=menu], dialog[open], [role=dialog]")].filter(shown);
    for (const el of open) {
      const r = el.getBoundingClientRect();
      const dialog = el.matches("dialog, [role=dialog]");
      if (r.left < -0.5 || r.right > vw + 0.5 || (dialog && (r.top < -0.5 || r.bottom > vh + 0.5))) {
        problems.push(
          `${name(el)} reaches outside the viewport (${Math.round(r.left)}..${Math.round(r.right)} × ${Math.round(r.top)}..${Math.round(r.bottom)})`,
        );
      }
    }
    // A toast never lies over a control that is not its own, and neither it nor the room held
    // for it is inside a sticky or fixed element: growing there, it would cover what the page
    // scrolled under it (docs/decisions/037-toasts-in-the-page-with-their-room-taken-at-the-input.md).
    const toasts = [...document.querySelectorAll("[data-testid=toast]")].filter(shown);
    const controls = [
      ...document.querySelectorAll("a[href], button, input:not([type=hidden]), select, textarea, summary, [tabindex]:not([tabindex='-1'])"),
    ].filter((el) => shown(el) && !el.closest("[inert]"));
    for (const toast of document.querySelectorAll("[data-testid=toast], [data-testid=toast-pending]")) {
      for (let at = toast.parentElement; at; at = at.parentElement) {
        const position = getComputedStyle(at).position;
        if (position === "sticky" || position === "fixed") {
          problems.push(`a toast is inside ${name(at)}, which is ${position}`);
          break;
        }
      }
    }
    for (const toast of toasts) {
      const t = toast.getBoundingClientRect();
      for (const control of controls) {
        if (toast.contains(control)) continue;
        const c = control.getBoundingClientRect();
        if (c.left < t.right && c.right > t.left && c.top < t.bottom && c.bottom > t.top) {
          // Lying over it, not under it: a toast scrolled under the sticky header is covered by it.
          const x = (Math.max(c.left, t.left) + Math.min(c.right, t.right)) / 2;
          const y = (Math.max(c.top, t.top) + Math.min(c.bottom, t.bottom)) / 2;
          const top = x >= 0 && y >= 0 && x < vw && y < vh ? document.elementFromPoint(x, y) : null;
          if (top && toast.contains(top)) problems.push(`a toast lies over ${name(control)}`);
        }
      }
    }
    // Nothing fixed or floating lies over a control or a heading (a menu button over Send, say). One
    // that has scrolled under the sticky header is hidden by the header, not covered; an open menu,
    // drawer or dialog covers the page on purpose.
    const modalOpen = !!document.querySelector("details[open] > .fixed, dialog[open], [role=dialog]");
    if (!modalOpen) {
      const fixedAncestor = (el: Element | null) => {
        for (let at = el; at; at = at.parentElement) if (getComputedStyle(at).position === "fixed") return at;
        return null;
      };
      const headings = [...document.querySelectorAll("h1, h2, h3, h4, h5, h6")].filter((el) => shown(el) && !el.closest("[inert]"));
      for (const control of [...controls, ...headings]) {
        if (fixedAncestor(control)) continue;
        const c = control.getBoundingClientRect();
        const points: [number, number][] = [
          [c.left + c.width / 2, c.top + c.height / 2],
          [c.left + 2, c.top + 2],
          [c.right - 2, c.bottom - 2],
        ];
        for (const [x, y] of points) {
          if (x < 0 || y < 0 || x >= vw || y >= vh) continue;
          const top = document.elementFromPoint(x, y);
          if (!top || control.contains(top) || top.contains(control)) continue;
          const cover = fixedAncestor(top);
          if (!cover) continue;
          const sticky = [...document.querySelectorAll("header")].find((h) => getComputedStyle(h).position === "sticky");
          const s = sticky?.getBoundingClientRect();
          if (s && y >= s.top && y <= s.bottom && !sticky!.contains(control)) continue;
          problems.push(`${name(cover)} (fixed) lies over ${name(control)}`);
          break;
        }
      }
    }
    // Cards, sections, list items and dialogs hold their content (an intended scroller or an
    // ellipsis clips on purpose and is not counted).
    for (const box of document.querySelectorAll("main article, main section, main li, main form, dialog[open]")) {
      if (!shown(box)) continue;
      const style = getComputedStyle(box);
      if (style.overflowX === "auto" || style.overflowX === "scroll") continue;
      if (box.scrollWidth > box.clientWidth + 1)
        problems.push(`${name(box)} is wider than its box (${box.scrollWidth}px in ${box.clientWidth}px)`);
    }
    return problems;
  });
}

// ---------------------------------------------------------------------------------
// Layout shifts (docs/decisions/029-toasts-without-layout-shift.md)
// ---------------------------------------------------------------------------------

/** One `layout-shift` entry as Chromium reports it, with the page address and the elements that moved. */
export interface LayoutShift {
  value: number;
  hadRecentInput: boolean;
  /** When it happened and when the creator last clicked, tapped or typed before it (ms since the epoch; 0: never in this document). */
  time: number;
  lastInputTime: number;
  url: string;
  sources: Promise<string[]>;
}

/** A request the page made with JavaScript (fetch, XHR, event stream): when it started and when its answer had arrived. */
interface PageRequest {
  start: number;
  end: number;
  url: string;
}
const pageRequests = new WeakMap<Page, PageRequest[]>();
// When text was last entered in a field or a field took focus (ms since the epoch), with JavaScript
// on: Playwright's fill() focuses and types without pointer or key events, where a creator's typing
// and moving between fields are clicks, taps and keydowns that Chromium counts as input.
const typedAt = new WeakMap<Page, number[]>();
// When the page's DOM changed (ms since the epoch, at most one entry per 50 ms), with JavaScript
// on: the render of an answer, which a loaded machine may paint a second after the answer arrived.
const renderedAt = new WeakMap<Page, number[]>();

function recordRequests(page: Page) {
  const typed: number[] = [];
  const rendered: number[] = [];
  typedAt.set(page, typed);
  renderedAt.set(page, rendered);
  const ready = page
    .exposeBinding("__layoutGuardTyped", (_source, at: number) => void typed.push(at))
    .then(() => page.exposeBinding("__layoutGuardRendered", (_source, at: number) => void rendered.push(at)))
    .then(() =>
      page.addInitScript(() => {
        const guard = window as unknown as { __layoutGuardTyped: (at: number) => void; __layoutGuardRendered: (at: number) => void };
        for (const type of ["input", "change", "focusin"])
          window.addEventListener(type, () => void guard.__layoutGuardTyped(Date.now()), { capture: true });
        let last = 0;
        new MutationObserver(() => {
          const now = Date.now();
          if (now - last < 50) return;
          last = now;
          void guard.__layoutGuardRendered(now);
        }).observe(document, { childList: true, subtree: true, attributes: true, characterData: true });
      }),
    );
  const requests: PageRequest[] = [];
  const open = new Map<Request, PageRequest>();
  page.on("request", (request) => {
    if (!["fetch", "xhr", "eventsource"].includes(request.resourceType())) return;
    const entry = { start: Date.now(), end: Number.POSITIVE_INFINITY, url: request.url() };
    open.set(request, entry);
    requests.push(entry);
  });
  // The browser's own times once the request is done (Request.timing(): its start and the last
  // byte of its answer): the events reach this process late on a loaded machine, and the shifts
  // and inputs they are compared with carry the browser's times.
  const done = (request: Request) => {
    const entry = open.get(request);
    open.delete(request);
    if (!entry) return;
    entry.end = Date.now();
    const { startTime, responseEnd } = request.timing();
    if (startTime > 0) {
      entry.start = startTime;
      if (responseEnd >= 0) entry.end = startTime + responseEnd;
    }
  };
  page.on("requestfinished", done);
  page.on("requestfailed", done);
  pageRequests.set(page, requests);
  return ready;
}

/**
 * Whether a shift is the page's answer to the creator: it came within 500 ms of text typed into a
 * field or of a field taking focus (see typedAt), or it happened while, or within 500 ms
 * after, the answer arrived to a request the creator's last input started (within a second of
 * it, or after another such answer: a form's post and the reload of the page's data that
 * follows it, within a second, or however late for Remix's own loads). Chromium forgives a shift only within 500 ms of the input itself, so an
 * error or a toast that a slow server sends back after 600 ms would count there; a poll or a
 * timer that moves the page is never an answer. With JavaScript, a shift up to 3 s after the
 * answer still answers when the page was changing within 500 ms before it and no other request
 * (a poll) answered in between (renderedAt): a busy machine renders an answer late.
 */
function answersInput(page: Page, shift: LayoutShift): boolean {
  const typed = (typedAt.get(page) ?? []).filter((at) => at <= shift.time + 5);
  // Each recent input may be the one answered: a field the reply focuses again after a send
  // must not hide the send whose answer is still arriving.
  const inputs = [...new Set([shift.lastInputTime, ...typed])].filter((at) => at > 0 && shift.time - at <= 10_000);
  return inputs.some((input) => answersOneInput(page, shift, input));
}

function answersOneInput(page: Page, shift: LayoutShift, lastInput: number): boolean {
  if (shift.time - lastInput <= 500) return true;
  const requests = (pageRequests.get(page) ?? []).filter((request) => request.start >= lastInput - 50);
  const caused = requests.filter((request) => request.start <= lastInput + 1000);
  // Remix's loads of a navigation (its data and route manifest) continue the chain however slowly
  // the machine gets to them; any other request continues it when it starts within a second.
  const navigationLoad = (request: PageRequest) =>
    /\.data(\?|$)|\/__manifest\?/.test(new URL(request.url).pathname + new URL(request.url).search);
  for (const request of requests) {
    if (caused.includes(request) || request.start > shift.time) continue;
    if (caused.some((before) => request.start >= before.end - 5 && (navigationLoad(request) || request.start <= before.end + 1000)))
      caused.push(request);
  }
  if (caused.some((request) => request.start <= shift.time && shift.time <= request.end + 500)) return true;
  // Later than that (at most 3 s), it is still the answer when the page was changing just before it
  // and nothing else answered in between (a poll): a busy machine renders an answer late.
  const answered = Math.max(...caused.filter((request) => request.end <= shift.time).map((request) => request.end));
  if (!(shift.time - answered <= 3000)) return false;
  const others = (pageRequests.get(page) ?? []).filter((request) => !caused.includes(request));
  if (others.some((request) => request.end >= answered && request.end <= shift.time)) return false;
  return (renderedAt.get(page) ?? []).some((at) => at >= answered - 5 && at <= shift.time + 5 && shift.time - at <= 500);
}

/** What happened in the 3 s before a shift, in ms relative to it: typing and focus, requests. */
function timeline(page: Page, shift: LayoutShift): string {
  const at = (time: number) => Math.round(time - shift.time);
  const typed = (typedAt.get(page) ?? []).filter((time) => time >= shift.time - 3000 && time <= shift.time + 5).map(at);
  const requests = (pageRequests.get(page) ?? [])
    .filter((request) => request.end >= shift.time - 3000 && request.start <= shift.time + 5)
    .map((request) => `${new URL(request.url).pathname}${new URL(request.url).search} ${at(request.start)}..${at(request.end)}`);
  return ` [input ${at(shift.lastInputTime)}; typed ${typed.join(", ") || "none"}; requests ${requests.join(", ") || "none"}]`;
}

const layoutShifts = new WeakMap<Page, Promise<LayoutShift[]>>();
// How many of a page's recorded shifts the layout guard has already judged or caused itself
// (resizing the window to check the other size moves everything, by design).
const judgedShifts = new WeakMap<Page, number>();

/**
 * Records the page's layout shifts through the DevTools protocol (PerformanceTimeline), the
 * entries a PerformanceObserver of type 'layout-shift' sees and Lighthouse's CLS adds up. The
 * protocol rather than an init script: without JavaScript no script of ours runs in the page,
 * and the JavaScript-off project must be measured too. The buffered entries of the document
 * already shown come first, so a page tracked late still reports what its screen did.
 */
export function trackLayoutShifts(page: Page): Promise<LayoutShift[]> {
  let tracked = layoutShifts.get(page);
  if (!tracked) {
    const recording = recordRequests(page);
    tracked = (async () => {
      await recording;
      const shifts: LayoutShift[] = [];
      const session = await page.context().newCDPSession(page);
      session.on("PerformanceTimeline.timelineEventAdded", ({ event }) => {
        const details = event.layoutShiftDetails;
        if (!details) return;
        const url = page.url();
        const sources = Promise.all(
          details.sources.map(async ({ nodeId, previousRect, currentRect }) => {
            const rect = (r: { x: number; y: number; width: number; height: number }) =>
              `${Math.round(r.x)},${Math.round(r.y)} ${Math.round(r.width)}×${Math.round(r.height)}`;
            const moved = `${rect(previousRect)} → ${rect(currentRect)}`;
            try {
              const { node } = await session.send("DOM.describeNode", { backendNodeId: nodeId });
              const attrs = node.attributes ?? [];
              const attr = (n: string) => attrs[attrs.indexOf(n) + 1];
              const label = [node.localName || node.nodeName, attrs.includes("id") ? `#${attr("id")}` : ""].join("");
              const cls = attrs.includes("class") ? ` .${attr("class").split(/\s+/).slice(0, 4).join(".")}` : "";
              return `<${label}${cls}> ${moved}`;
            } catch {
              return `(a node since removed) ${moved}`;
            }
          }),
        );
        shifts.push({
          value: details.value,
          hadRecentInput: details.hadRecentInput,
          time: event.time * 1000,
          lastInputTime: details.lastInputTime * 1000,
          url,
          sources,
        });
      });
      await session.send("PerformanceTimeline.enable", { eventTypes: ["layout-shift"] });
      return shifts;
    })();
    layoutShifts.set(page, tracked);
  }
  return tracked;
}

/**
 * The layout shifts of the page so far that did not follow an input (a click, a tap, a key)
 * within 500 ms, as CLS counts them, less those that are the answer to an input (answersInput).
 */
export async function unexpectedLayoutShifts(page: Page): Promise<LayoutShift[]> {
  const shifts = await trackLayoutShifts(page);
  // Entries are reported when the frame is painted: let the pending frames come.
  await page.waitForTimeout(100);
  return shifts
    .slice(judgedShifts.get(page) ?? 0)
    .filter((shift) => !shift.hadRecentInput && shift.value > 0 && !answersInput(page, shift));
}

/**
 * Nothing on the page moved by itself: the sum of the layout shifts not caused by an input is
 * 0 (Chromium leaves out moves under 3 px, so a sub-pixel wobble is not counted and needs no
 * allowance). A toast's appearance after a click or with a new page is not a shift; a toast
 * leaving by a timer would be.
 */
export async function expectNoLayoutShift(page: Page) {
  const shifts = await unexpectedLayoutShifts(page);
  const described = await Promise.all(
    shifts.map(async (shift) => {
      const after = shift.lastInputTime ? ` ${Math.round(shift.time - shift.lastInputTime)} ms after an input` : "";
      return `${shift.value.toFixed(4)} on ${new URL(shift.url).pathname}${after}: ${(await shift.sources).join("; ")}${timeline(page, shift)}`;
    }),
  );
  expect(described, `layout shifts without an input (CLS ${shifts.reduce((sum, shift) => sum + shift.value, 0).toFixed(4)})`).toEqual([]);
}

/**
 * The layout guard: the page as it stands, checked at the laptop and the phone size (the two
 * sizes of docs/decisions/009-toasts-in-the-header-and-a-layout-guard.md), then back at the size it had; with a menu, drawer or dialog open, at the
 * size it has. Before that, nothing on the page may have moved by itself since the last check
 * (expectNoLayoutShift). Journeys call it on every screen they visit; `expectNoA11yViolations`
 * calls it too, so every audited screen is guarded.
 */
export async function expectGoodLayout(page: Page, options: { sizes?: (keyof typeof VIEWPORTS)[] } = {}) {
  await expectNoLayoutShift(page);
  const original = page.viewportSize();
  // An open menu, drawer or dialog belongs to the size it was opened at (growing the window
  // closes the drawer): then the page is checked as it stands, at its own size.
  const somethingOpen = await page.evaluate(() => !!document.querySelector("details[open], dialog[open]"));
  const current = (Object.keys(VIEWPORTS) as (keyof typeof VIEWPORTS)[]).filter(
    (size) => VIEWPORTS[size].width === original?.width && VIEWPORTS[size].height === original?.height,
  );
  const sizes = options.sizes ?? (somethingOpen ? (current.length ? current : []) : (["desktop", "phone"] as const));
  const found: string[] = [];
  if (sizes.length === 0)
    found.push(...(await layoutProblems(page)).map((problem) => `${original?.width}×${original?.height}: ${problem}`));
  try {
    for (const size of sizes) {
      const viewport = VIEWPORTS[size];
      if (page.viewportSize()?.width !== viewport.width || page.viewportSize()?.height !== viewport.height) {
        await page.setViewportSize(viewport);
      }
      found.push(...(await layoutProblems(page)).map((problem) => `${size} ${viewport.width}×${viewport.height}: ${problem}`));
    }
  } finally {
    if (original) await page.setViewportSize(original);
    // The guard's own resizes are not the page's shifts: the page is left to settle (no new
    // entry for 300 ms, at most 2 s: a loaded machine paints late) before the count is taken.
    const shifts = await trackLayoutShifts(page);
    let seen = -1;
    for (let waited = 0, quiet = 0; quiet < 3 && waited < 2000; waited += 100) {
      await page.waitForTimeout(100);
      quiet = shifts.length === seen ? quiet + 1 : 0;
      seen = shifts.length;
    }
    judgedShifts.set(page, shifts.length);
  }
  expect(found, `layout of ${page.url()}`).toEqual([]);
}

// ---------------------------------------------------------------------------------
// Accounts and mail
// ---------------------------------------------------------------------------------

export interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  createdAt: string;
}

const outboxDir = () => path.join(process.env.E2E_DATA_DIR!, "outbox");

function readMails(): OutboxMail[] {
  let files: string[];
  try {
    files = readdirSync(outboxDir())
      .filter((f) => f.endsWith(".json") && !f.startsWith("."))
      .sort();
  } catch {
    return [];
  }
  return files.map((f) => JSON.parse(readFileSync(path.join(outboxDir(), f), "utf8")) as OutboxMail);
}

/** The newest mail to an address whose subject matches, waiting for it to arrive. */
export async function latestMail(to: string, subject: RegExp): Promise<OutboxMail> {
  let found: OutboxMail | undefined;
  await expect
    .poll(
      () => {
        found = readMails()
          .filter((m) => m.to === to && subject.test(m.subject))
          .at(-1);
        return found !== undefined;
      },
      { message: `a mail to ${to} with subject ${subject}` },
    )
    .toBe(true);
  return found!;
}

export function mailsTo(to: string): OutboxMail[] {
  return readMails().filter((m) => m.to === to);
}

/** The first link in a mail's text that goes to the given path of the app. */
export function linkIn(mail: OutboxMail, pathname: string): string {
  const link = mail.text.match(/https?:\/\/\S+/g)?.find((l) => new URL(l).pathname === pathname);
  if (!link) throw new Error(`no ${pathname} link in "${mail.subject}"`);
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}

export interface Account {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  token: string;
}

// Upper, lower, digit and one of the special characters (@$!%*?&).
export const strongPassword = () => `Forge!${randomUUID().slice(0, 8)}a1`;

export function newEmail(prefix = "creator") {
  return `${prefix}-${randomUUID().slice(0, 10)}@example.com`;
}

/** Registers, verifies (through the link in the outbox) and signs in, all through the JSON API. */
export async function createAccount(request: APIRequestContext, options: { firstName?: string; lastName?: string } = {}): Promise<Account> {
  const account = {
    firstName: options.firstName ?? "Ada",
    lastName: options.lastName ?? "Lovelace",
    email: newEmail(),
    password: strongPassword(),
  };
  const registered = await request.post("/api/auth/register", { data: account });
  expect(registered.status(), await registered.text()).toBe(201);
  const mail = await latestMail(account.email, /confirm/i);
  const verified = await request.get(`/api/auth${linkIn(mail, "/verify-email")}`);
  expect(verified.status(), await verified.text()).toBe(200);
  const login = await request.post("/api/auth/login", { data: { email: account.email, password: account.password } });
  expect(login.status(), await login.text()).toBe(200);
  const { token } = (await login.json()) as { token: string };
  return { ...account, token };
}

/** Signs the page in with a sign-in link (docs/product.md, Sign-in links): `/?token=…` stores the token as the session. */
export async function signIn(page: Page, account: Account) {
  await page.goto(`/?token=${encodeURIComponent(account.token)}`);
  // Signed in as another account already: the link asks first ('Sign in as {email}?').
  if (!/\/dashboard$/.test(page.url())) await page.getByRole("button", { name: `Sign in as ${account.email}` }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  if (await jsOn(page)) await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}

/** Creates an active persona over the JSON API as `account` (personaBody, with `extra`); returns it. */
export async function createPersona(request: APIRequestContext, account: Account, name: string, extra: Record<string, unknown> = {}) {
  const res = await request.post("/api/personas", {
    headers: { Authorization: `Bearer ${account.token}` },
    data: personaBody(name, extra),
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { id: string; name: string };
}

/** A complete, valid persona body for the JSON API (override any field). */
export function personaBody(name: string, extra: Record<string, unknown> = {}) {
  return {
    name,
    type: "vtuber",
    gender: "female",
    ageRange: "18-24",
    interests: ["gaming", "music"],
    description: "A cheerful late-night streamer.",
    personality: ["Outgoing", "Creative"],
    ...extra,
  };
}

/** A TCP port free on 127.0.0.1 right now, for a test that starts a server of its own. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
