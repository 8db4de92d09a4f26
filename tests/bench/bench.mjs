#!/usr/bin/env node
// PersonaForge performance bench: `npm run bench`.
//
// Builds the app, starts the app's server (`node app/server.mjs`) on 127.0.0.1 with a
// throwaway DATA_DIR, then measures, against budgets:
//   1. first-load JavaScript per page (gzip -9 bytes of every JS file the HTML
//      loads: <script src>, <link rel=modulepreload>, imports in inline module
//      scripts, plus the leading static imports of those files),
//   2. Lighthouse mobile performance + accessibility scores,
//   3. server latency of GET / (autocannon, 10 connections, ~10 s),
//   4. anything in EXTRA_MEASUREMENTS, one after the other: backstory generation, p50/p95
//      over 100 varied personas, with the embedded generator in-process
//      (tests/bench/backstory-embedded.ts, run with node_modules/.bin/tsx) and as
//      POST /api/generate-backstory on the server; chat replies, the embedded responder
//      in-process (tests/bench/chat-embedded.ts) and streamed over HTTP (first and last
//      token); then the persona library at scale: the
//      /my-personas loader's p50/p95 for a creator with 10 personas and one with 2,000
//      (default list and a search), and p95(2,000)/p95(10). Those two creators are seeded
//      before the server starts (tests/bench/seed-library.ts opens the same DATA_DIR through
//      the app's own modules, then closes it), so these rows need the bench's own server; so
//      does the persona page (/persona/{id}: one of the 10-persona creator's active personas,
//      and its Chat tab /persona/{id}?tab=chat); then Stripe webhook handling: p50/p95 of POST /api/webhooks/stripe for signed events,
//      one at a time (signature check, the subscription read back from Stripe, the plan
//      written); then lore (tests/bench/lore-embedded.ts, in-process): matching a 20-message
//      window against 200 entries (p50/p95), with the compile's coverage and the embedded
//      chat's lore answer rates in the row's note; then the main thread's ceiling
//      (tests/bench/main-thread-embedded.ts, in-process): the longest synchronous stretches, each
//      at the largest input allowed (a lore match of a 4,000-character message against 200 entries,
//      a 20,000-character backstory's compile, a card's 200-entry lorebook checked), p95 each
//      against one ceiling; then persona test runs of 12 probes, in-process
//      (tests/bench/tests-embedded.ts) and over HTTP (POST …/probes/run, GET the run until it has
//      completed), p50/p95. The bench's server runs with billing configured against the fake Stripe API
//      (tests/support/fake-stripe-server.ts, started with the same TypeScript runner), so
//      /subscription is measured as a signed-in creator sees it with upgrading available.
// Prints a table, writes bench-results/bench.json.
//
// Flags:
//   --no-build          use the existing build/ instead of running `npm run build`
//   --url <url>         measure an already-running server (loopback only); no build/start
//   --strict            exit 1 if any budget fails (default: always exit 0)
//   --skip <a,b>        skip measurement groups: js, lighthouse, latency, extra
//   --pages <p,q>       measure only these PAGES paths in the js and lighthouse groups (e.g. /subscription)
//   --extra <f,g>       run only these EXTRA_MEASUREMENTS (function names, e.g. measureStripeWebhooks)
//   --only <a,b>        run only these extra measurements (backstory, chat, library, webhooks, history, pages, images, lore,
//                       mainthread, tests),
//                       seeding only the creators they need; js, lighthouse, latency skipped
//   --out <file>        JSON output path (default bench-results/bench.json)
//   --lighthouse-runs <n>  Lighthouse runs per page (default LIGHTHOUSE_RUNS, 5); the performance
//                       row is the median run's score, accessibility and the toast's CLS the worst run
//   --lhr-dir <dir>     also write each Lighthouse report (the whole JSON: network requests with
//                       their priorities and times, observed and simulated metrics) into <dir>
//   --cluster <url>     instead of everything else: the app on the PostgreSQL server at <url> (a
//                       throwaway database is created there and dropped), with 1 and then 2
//                       processes (WEB_CONCURRENCY), the same signed-in page at 10 connections;
//                       reports requests/s of each and the ratio (budget ≥ BUDGETS.clusterRatio)
//   --help
//
// Env: CHROMIUM_PATH (default /usr/bin/chromium); BENCH_PORT (the server, default 3210) and
// BENCH_STRIPE_PORT (the fake Stripe API, default BENCH_PORT + 100), used when free.
//
// Extending: add pages to PAGES, latency targets to LATENCY_TARGETS, and other
// measurements to EXTRA_MEASUREMENTS (see the comments there). Pages that need a
// signed-in session set `auth: true` (signIn() below supplies the cookie); `creator`
// picks one of the seeded library creators instead (LIBRARY.creators), and `{id}` in
// such a page's path stands for one of that creator's seeded active personas.

import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";

// ---------------------------------------------------------------------------
// Configuration: pages, budgets, targets
// ---------------------------------------------------------------------------

const KB = 1024;
const MB = 1024 * KB;

export const BUDGETS = {
  // gzip -9 bytes of first-load JS, by page kind
  js: { public: 100 * KB, app: 160 * KB },
  lighthouse: { performance: 95, accessibility: 100 },
  latencyP95Ms: 50,
  // GET /api/personas?pageSize=100: 100 full personas, backstories included
  apiListP95Ms: 100,
  // one embedded (offline) backstory generation, in-process
  backstoryP95Ms: 50,
  // one embedded (offline) chat reply, in-process
  chatP95Ms: 20,
  // matching a 20-message window against a lorebook of 200 entries, in-process
  loreMatchP95Ms: 5,
  // the longest synchronous stretch one request or job may take on the main thread, at the largest
  // input the product allows (docs/decisions/039-work-on-the-main-thread-has-a-ceiling.md): a lore
  // match of a 4,000-character message against 200 entries, a compile of a 20,000-character
  // backstory, the check of a card's 200-entry lorebook; in-process
  mainThreadP95Ms: 50,
  // Checking one chat reply after it is stored (docs/product.md, Chat: checks on your chats).
  replyCheckP95Ms: 5,
  // a 12-probe persona test run with the embedded responder, from 'Run tests' to the finished row, in-process
  testRunP95Ms: 2_000,
  // the same run over HTTP: POST /api/personas/{id}/probes/run, then GET the run until it has completed
  testRunHttpP95Ms: 2_000,
  // a 24-turn long-conversation test with the embedded responder, start to finished row, in-process
  // (docs/product.md, Persona tests: long conversations)
  conversationTestP95Ms: 5_000,
  // /my-personas loader p95 with 2,000 personas ÷ with 10: paged in the database, so ~1
  libraryP95Ratio: 1.5,
  // persona history: what persona_versions takes per version (table, TOAST and indexes), for
  // a persona with 500 versions and a 20,000-character backstory (a full copy each: ~20 KB)
  historyBytesPerVersion: 4 * KB,
  // server RSS (MB) after the bench's load (docs/benchmarks.md): on the embedded database (the app
  // and PGlite in one process), and the app process alone on PostgreSQL. (Each signed-in page's
  // throughput ÷ a public render's, once a budget, is retired: the p95 budget above is what a
  // creator feels.)
  rssAfterLoadMB: { embedded: 400, postgres: 200 },
  // the embedded server 5 s after start with no request: nothing (no worker, no schedule) has
  // opened its database, so its thread stays closed and the process small
  rssIdleEmbeddedMB: 150,
  // what queueing a persona test run (its row and its job) adds to the edit that makes a new version
  editQueuesRunMs: 5,
  // requests/s with 2 processes ÷ with 1, on PostgreSQL (--cluster)
  clusterRatio: 1.6,
};

/**
 * Pages to measure.
 *   path        URL path on the app
 *   kind        "public" | "app"  (selects the JS budget)
 *   lighthouse  run Lighthouse on it (each run costs ~15–30 s on 2 cores)
 *   auth        needs a signed-in session: the Cookie header comes from signIn()
 *   creator     with auth: sign in as this seeded library creator (a LIBRARY.creators key)
 *               when the bench seeded them, else as signIn()'s user (the rows' notes say which)
 *   cookie      optional fixed Cookie header (string) or async (ctx) => string
 * A page answering 404 is reported as "not built yet" and skipped.
 * `{id}` in a path with `creator` is that creator's seeded active persona with a backstory
 * (the seed's activePersonaId): the rows keep `{id}` in their ids and labels, the notes give
 * the id. Such a page is measured only as that creator (no signIn() fallback), skipped when
 * the creators were not seeded (--url), and a 404 for it fails instead of being skipped.
 */
/**
 * Lighthouse runs per page. The performance row is the median run's score: Lighthouse's guide on
 * variability advises aggregate values for thresholds and finds the median of 5 runs twice as
 * stable as one. Each run of a page here is 5–7 s, so 5 runs of the 13 pages take about 7 minutes.
 */
export const LIGHTHOUSE_RUNS = 5;

export const PAGES = [
  { path: "/", kind: "public", lighthouse: true },
  { path: "/contact", kind: "public", lighthouse: true },
  { path: "/privacy-policy", kind: "public", lighthouse: false },
  { path: "/terms-of-service", kind: "public", lighthouse: false },
  { path: "/commerce-disclosure", kind: "public", lighthouse: false },
  { path: "/login", kind: "public", lighthouse: true },
  { path: "/register", kind: "public", lighthouse: false },
  { path: "/dashboard", kind: "app", lighthouse: true, auth: true },
  // Loaded with a toast (the flash of a profile save, as a no-JavaScript post leaves it): a toast
  // shown with the page must not move it (docs/decisions/029-toasts-without-layout-shift.md).
  { path: "/settings", kind: "app", lighthouse: true, auth: true, toast: true },
  { path: "/create-persona", kind: "app", lighthouse: true, auth: true },
  // Current Plan, the plan cards with Upgrade (billing configured against the fake Stripe) and the FAQ.
  { path: "/subscription", kind: "app", lighthouse: true, auth: true },
  // As the 2,000-persona creator, so the library has a full page of cards (and 159 pages).
  { path: "/my-personas", kind: "app", lighthouse: true, auth: true, creator: "large" },
  // A full persona page: profile, backstory and the extended profile.
  { path: "/persona/{id}", kind: "app", lighthouse: true, auth: true, creator: "small" },
  // The same persona's Chat tab: the chat panel with its (empty) history and the send form.
  { path: "/persona/{id}?tab=chat", kind: "app", lighthouse: true, auth: true, creator: "small" },
  // The same persona's lorebook: every entry its backstory builds, the search and the entry form.
  { path: "/persona/{id}/lore", kind: "app", lighthouse: true, auth: true, creator: "small" },
  // The same persona's tests: the latest run, Suggest probes, the probes and the probe form.
  { path: "/persona/{id}/tests", kind: "app", lighthouse: true, auth: true, creator: "small" },
  // The same persona's long-conversation tests: the form, and the latest run's chart when there is one.
  { path: "/persona/{id}/tests/conversation", kind: "app", lighthouse: true, auth: true, creator: "small" },
  // The same persona's card check: findings, and what survives where in six front ends.
  { path: "/persona/{id}/card-check", kind: "app", lighthouse: true, auth: true, creator: "small" },
];

/**
 * Loads each { path, cookie } for `warmUpSeconds`, `warmUpRounds` times over, at the rows'
 * concurrency, and records nothing: the rows after it measure a server whose code V8 has
 * compiled (see SIGNED_IN.warmUpRounds).
 */
async function warmUp(ctx, targets, { connections, warmUpRounds, warmUpSeconds }) {
  if (!targets.length || !warmUpRounds || !warmUpSeconds) return;
  ctx.log(`latency: warm-up, ${warmUpRounds} × ${targets.length} paths × ${warmUpSeconds} s`);
  for (let round = 0; round < warmUpRounds && !aborting; round++) {
    for (const t of targets) {
      const url = `${ctx.baseUrl}${t.path}`;
      if (new URL(url).hostname !== "127.0.0.1") throw new Error(`refusing to load-test ${url}: not 127.0.0.1`);
      await runAutocannon({
        url,
        connections,
        duration: warmUpSeconds,
        timeout: 10,
        headers: t.cookie ? { cookie: t.cookie, origin: ctx.baseUrl } : {},
      });
    }
  }
}

/** Load tests: GET path at `connections` concurrency for `duration` s. Loopback only. */
// A target may send its own cookie and carry a label; a target without budgetP95Ms is reported
// for information. `distinct: true` asks a URL of its own on every request (`view=<n>` in the
// query), so no kept document answers it: every request is rendered (decision 031).
// measureLatencyTarget(ctx, target) also takes: method (default GET); bodies, JSON bodies
// sent in order, cycling (Content-Type application/json); amount, a number of requests to
// measure instead of `duration` seconds, after `warmupRequests` requests (from `warmupBodies`,
// else `bodies`) instead of `warmup` seconds. Amount runs report p50 and p95, no throughput.
// displayPath names the target in row ids and labels when `path` is a data URL or has a query.
export const LATENCY_TARGETS = [
  { path: "/", connections: 10, duration: 10, warmup: 2, budgetP95Ms: BUDGETS.latencyP95Ms },
  { path: "/", label: "uncached render", distinct: true, connections: 10, duration: 8, warmup: 2 },
  // Signed in: session check, profile through the RLS door, render — on the embedded database.
  { path: "/dashboard", auth: true, connections: 10, duration: 8, warmup: 2, budgetP95Ms: BUDGETS.latencyP95Ms },
];

/**
 * Extra measurements: async (ctx) => MetricRow[]
 * ctx: { baseUrl, dataDir, library, root, args, log, fetchPage(path, {cookie}), cookieFor(page), row(...) }
 * A row: ctx.row({ id, label, value, unit, budget: { op: "<=" | ">=" | "=", value }, note })
 * (or value: null + skipped: "reason"). Example:
 *
 *   async (ctx) => {
 *     const res = await ctx.fetchPage("/");
 *     const html = await res.text();
 *     return [ctx.row({ id: "html./.bytes", label: "HTML size /", value: Buffer.byteLength(html),
 *                       unit: "bytes", budget: { op: "<=", value: 50 * 1024 } })];
 *   },
 */
export const EXTRA_MEASUREMENTS = [
  measureBackstoryGeneration,
  measureChatReplies,
  measureLibraryScaling,
  measureStripeWebhooks,
  measureHistory,
  measureSignedInPages,
  measureReferenceImages,
  measureLoreMatching,
  measureMainThread,
  measurePersonaTests,
];

/**
 * `--only <keys>`: the extra measurements to run alone (js, lighthouse and latency are then
 * skipped), and the seeded creators each needs (only those are seeded).
 */
/** The JSON API's largest page, measured as the largest library's creator. */
const API_PAGE_SIZE = 100;

export const EXTRA_KEYS = {
  backstory: { fn: measureBackstoryGeneration, creators: [] },
  chat: { fn: measureChatReplies, creators: ["small"] },
  library: { fn: measureLibraryScaling, creators: ["small", "large"] },
  webhooks: { fn: measureStripeWebhooks, creators: [] },
  history: { fn: measureHistory, creators: ["history"] },
  images: { fn: measureReferenceImages, creators: ["small"] },
  pages: { fn: measureSignedInPages, creators: ["small", "large"] },
  lore: { fn: measureLoreMatching, creators: [] },
  mainthread: { fn: measureMainThread, creators: [] },
  tests: { fn: measurePersonaTests, creators: [] },
};

/**
 * Signed-in pages (measureSignedInPages): each page as full HTML (what a browser without
 * JavaScript gets: every loader of the page, the session check once, the render) at
 * `connections` for `duration` s, as the seeded creator named, and an uncached public render
 * `publicPath` (a new URL each request: no kept document answers it) measured before and after
 * them. Rows per page: p50, p95 (≤ BUDGETS.latencyP95Ms), req/s and CPU per request of repeat
 * views (the same URL again: the loaders run, the document is kept by its data, decision 031),
 * then the same rows, reported without a budget, with every view rendered (a new URL each
 * request): what the first view after a change costs.
 */
/**
 * What a signed-in row measures since decision 020: the same creator's page asked again and
 * again, so what it reads (a search too, since decision 031) is kept after the first
 * request, until that creator's data changes. The first view after a write reads the database.
 */
const KEPT_NOTE =
  "what a page reads is kept until the creator's data changes, and the document is kept by its URL and data, so these rows measure the kept path (docs/decisions/023, 031); the 'rendered each view' rows measure the render";

export const SIGNED_IN = {
  publicPath: "/login?v=1",
  pages: [
    { path: "/dashboard", creator: "small" },
    { path: "/create-persona", creator: "small" },
    { path: "/my-personas", creator: "small", label: "10 personas" },
    { path: "/my-personas", creator: "large", label: "2000 personas" },
    { path: "/my-personas?q={search}", creator: "large", label: "2000 personas, search" },
    { path: "/persona/{id}", creator: "small" },
    { path: "/persona/{id}/lore", creator: "small" },
    { path: "/persona/{id}/tests", creator: "small" },
    { path: "/persona/{id}/tests/conversation", creator: "small" },
    { path: "/persona/{id}/card-check", creator: "small" },
  ],
  connections: 10,
  duration: 8,
  warmup: 2,
  // Before the first row, every page (and the public render) is loaded this many rounds of this
  // many seconds each: the rows measure a server in its steady state. Just after the database
  // thread opens, V8 is still compiling PGlite's and the app's hot code (measured: the first
  // page loaded ran at about 80 % of the throughput it reached half a minute later), so without
  // it the first row would measure the compilers rather than the page.
  warmUpRounds: 2,
  warmUpSeconds: 2,
};

/**
 * The persona library at scale (measureLibraryScaling). Creators seeded by
 * tests/bench/seed-library.ts into the server's DATA_DIR before it starts: `count` valid
 * personas each (~5 % archived, ~5 % drafts), on the Free plan (at its 10-persona limit) or
 * Premium ('active': 2,000 are over the Free limit). The loader is measured as the single-fetch
 * data request a client-side navigation to the library sends (`<path>.data?_routes=<route>`):
 * only the /my-personas loader (session check, listPersonas: count + one page through the RLS
 * door, kept after the first request, a search too: decisions 023 and 031) and its turbo-stream
 * encoding, no parent loaders and no HTML render.
 */
export const LIBRARY = {
  creators: {
    small: { count: 10, plan: "free" },
    large: { count: 2000, plan: "active" },
    // Persona history: one persona, written to until it has HISTORY.versions versions.
    history: { count: 1, plan: "free" },
  },
  path: "/my-personas",
  routeId: "routes/_app.my-personas",
  connections: 10,
  duration: 8,
  warmup: 2,
};

/**
 * Persona history (measureHistory): the `history` creator's persona gets `versions`
 * versions with a `backstoryChars`-character backstory (seeded by tests/bench/seed-library.ts
 * --history: every 10th version rewrites a sentence of it, the others change traits or the
 * description). Measured as full pages (HTML, as a browser without JavaScript gets them) at
 * `connections` for `duration` s: the history page, the default compare (the previous and the
 * current version) and version 1 against the latest; p95 ≤ BUDGETS.latencyP95Ms. Plus the
 * storage per version.
 */
export const HISTORY = {
  creator: "history",
  versions: 500,
  backstoryChars: 20_000,
  connections: 10,
  duration: 8,
  warmup: 2,
  // As SIGNED_IN: every history row's page loaded before the first row, for about the same
  // half minute in all (SIGNED_IN: 2 rounds × 7 pages × 2 s; here 5 × 3 × 2 s). With 2 rounds
  // (12 s), `--only history` measured its first row at 6.0 ms of CPU a request against 5.4 ms
  // after 30 s (p95 60 against 50 ms): still the compilers, not the page.
  warmUpRounds: 5,
  warmUpSeconds: 2,
};

/**
 * Sign-in hook for `auth: true` pages. Return a Cookie header value for a
 * signed-in test user (e.g. register + log in via the app's forms against
 * ctx.baseUrl and collect Set-Cookie), or null to skip those pages.
 * Called at most once per run; the result is cached.
 */
async function signIn(ctx) {
  // Needs the server's DATA_DIR to read the verification mail from its outbox.
  if (!ctx.dataDir) return null;
  const email = `bench-${Date.now()}@example.com`;
  const password = "Bench!pass1";
  const post = (p, body) =>
    fetch(`${ctx.baseUrl}${p}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const registered = await post("/api/auth/register", { firstName: "Bench", lastName: "Creator", email, password });
  if (registered.status !== 201) throw new Error(`sign-in: register answered ${registered.status}`);
  const outbox = path.join(ctx.dataDir, "outbox");
  let link;
  for (let i = 0; i < 50 && !link; i++) {
    for (const file of fs.existsSync(outbox) ? fs.readdirSync(outbox).filter((f) => f.endsWith(".json")) : []) {
      const mail = JSON.parse(fs.readFileSync(path.join(outbox, file), "utf8"));
      if (mail.to === email) link = mail.text.match(/https?:\/\/\S+\/verify-email\?token=\S+/)?.[0];
    }
    if (!link) await new Promise((r) => setTimeout(r, 100));
  }
  if (!link) throw new Error("sign-in: no verification mail in the outbox");
  const verified = await fetch(`${ctx.baseUrl}/api/auth/verify-email${new URL(link).search}`);
  if (verified.status !== 200) throw new Error(`sign-in: verify answered ${verified.status}`);
  return logIn(ctx, email, password);
}

/** POST /api/auth/login, then a sign-in link `/?token=`, which stores the token as the session cookie. Returns the Cookie header. */
async function logIn(ctx, email, password) {
  const login = await fetch(`${ctx.baseUrl}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  if (login.status !== 200) throw new Error(`sign-in: login of ${email} answered ${login.status}`);
  const { token } = await login.json();
  const session = await fetch(`${ctx.baseUrl}/?token=${encodeURIComponent(token)}`, { redirect: "manual" });
  const cookie = session.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .find((c) => c.startsWith("pf_session="));
  if (!cookie) throw new Error(`sign-in: no session cookie for ${email}`);
  return cookie;
}

const CHROME_FLAGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
];

const SERVER_READY_TIMEOUT_MS = 60_000;
// BENCH_PORT: where the bench's server listens when free (else any free port).
const PREFERRED_PORT = Number(process.env.BENCH_PORT ?? 3210);

// ---------------------------------------------------------------------------
// Args
// ---------------------------------------------------------------------------

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

function parseArgs(argv) {
  const args = {
    build: true,
    url: null,
    strict: false,
    skip: new Set(),
    pages: null,
    extra: null,
    out: path.join(ROOT, "bench-results/bench.json"),
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const [flag, inline] = a.includes("=") ? [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)] : [a, undefined];
    const value = () => {
      if (inline !== undefined) return inline;
      const v = argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case "--no-build":
        args.build = false;
        break;
      case "--strict":
        args.strict = true;
        break;
      case "--url":
        args.url = value();
        break;
      case "--out":
        args.out = path.resolve(value());
        break;
      case "--skip":
        for (const s of value().split(",")) if (s.trim()) args.skip.add(s.trim());
        break;
      case "--pages":
        args.pages = new Set(
          value()
            .split(",")
            .map((s) => s.trim())
            .filter(Boolean),
        );
        break;
      case "--extra":
        args.extra = new Set(
          value()
            .split(",")
            .map((s) => s.trim())
            .filter(Boolean),
        );
        break;
      case "--only":
        args.only = value()
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean);
        break;
      case "--cluster":
        args.cluster = value();
        break;
      case "--lhr-dir":
        args.lhrDir = path.resolve(value());
        break;
      case "--lighthouse-runs":
        args.lighthouseRuns = Number(value());
        if (!Number.isInteger(args.lighthouseRuns) || args.lighthouseRuns < 1) throw new Error("--lighthouse-runs: a whole number ≥ 1");
        break;
      case "--help":
      case "-h":
        args.help = true;
        break;
      default:
        throw new Error(`unknown argument: ${a} (try --help)`);
    }
  }
  if (args.url) {
    const u = new URL(args.url);
    if (!["127.0.0.1", "localhost", "[::1]"].includes(u.hostname)) {
      throw new Error(`--url must point at a loopback server (127.0.0.1), got ${u.hostname}`);
    }
    if (u.hostname === "localhost") u.hostname = "127.0.0.1";
    args.url = u.origin;
    args.build = false;
  }
  for (const s of args.skip) {
    if (!["js", "lighthouse", "latency", "extra"].includes(s)) throw new Error(`--skip: unknown group "${s}"`);
  }
  for (const p of args.pages ?? []) {
    if (!PAGES.some((page) => page.path === p)) throw new Error(`--pages: "${p}" is not in PAGES`);
  }
  for (const f of args.extra ?? []) {
    if (!EXTRA_MEASUREMENTS.some((fn) => fn.name === f))
      throw new Error(`--extra: unknown measurement "${f}" (${EXTRA_MEASUREMENTS.map((fn) => fn.name).join(", ")})`);
  }
  if (args.only) {
    for (const key of args.only)
      if (!EXTRA_KEYS[key]) throw new Error(`--only: unknown measurement "${key}" (${Object.keys(EXTRA_KEYS).join(", ")})`);
    for (const group of ["js", "lighthouse", "latency"]) args.skip.add(group);
  }
  return args;
}

// ---------------------------------------------------------------------------
// Process management (everything we start is tracked and killed on exit)
// ---------------------------------------------------------------------------

const cleanups = new Set();
let cleaningUp = null;

function onCleanup(fn) {
  cleanups.add(fn);
  return () => cleanups.delete(fn);
}

async function runCleanups() {
  cleaningUp ??= (async () => {
    for (const fn of [...cleanups].reverse()) {
      try {
        await fn();
      } catch (err) {
        console.error(`cleanup: ${err?.message ?? err}`);
      }
    }
    cleanups.clear();
  })();
  return cleaningUp;
}

let aborting = false;

function installSignalHandlers() {
  for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) {
    process.on(sig, () => {
      const code = sig === "SIGINT" ? 130 : sig === "SIGHUP" ? 129 : 143;
      if (aborting) process.exit(code); // second signal: don't wait (exit hooks still SIGKILL children)
      aborting = true;
      console.error(`\n${sig}: stopping…`);
      runCleanups().finally(() => process.exit(code));
    });
  }
  // Killing Chrome mid-run makes Lighthouse reject promises nobody awaits; a stray
  // rejection must not crash the run before the server and temp dir are cleaned up.
  process.on("unhandledRejection", (err) => {
    if (!aborting) console.error(`bench: unhandled rejection: ${err?.message ?? err}`);
  });
}

/** Child in its own process group, so we can kill it and whatever it spawned by pgid. */
function startChild(cmd, argv, { cwd, env, label }) {
  const child = spawn(cmd, argv, { cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  const output = [];
  const keep = (chunk) => {
    output.push(chunk.toString());
    if (output.length > 400) output.splice(0, output.length - 400);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  const exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  let alive = true;
  exited.then(() => {
    alive = false;
  });
  const killGroup = (signal) => {
    if (!alive || !child.pid) return;
    try {
      process.kill(-child.pid, signal);
    } catch {
      try {
        child.kill(signal);
      } catch {
        /* already gone */
      }
    }
  };
  // Last resort if the process exits without running async cleanup.
  const onExit = () => killGroup("SIGKILL");
  process.on("exit", onExit);
  const stop = async () => {
    killGroup("SIGTERM");
    // The server answers SIGTERM with server.close(), which waits for idle keep-alive
    // sockets (ours, Chrome's); nothing here needs a graceful stop, so don't wait long.
    const timer = setTimeout(() => killGroup("SIGKILL"), 1500);
    await exited;
    clearTimeout(timer);
    process.off("exit", onExit);
  };
  const unregister = onCleanup(stop);
  return {
    child,
    exited,
    output: () => output.join(""),
    get alive() {
      return alive;
    },
    stop: async () => {
      unregister();
      await stop();
    },
    label,
  };
}

async function isPortFree(port) {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once("error", () => resolve(false));
    srv.listen(port, "127.0.0.1", () => srv.close(() => resolve(true)));
  });
}

async function findFreePort(preferred) {
  if (await isPortFree(preferred)) return preferred;
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function build(log) {
  log("build: npm run build");
  const t0 = Date.now();
  const proc = startChild("npm", ["run", "-s", "build"], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: "production" },
    label: "npm run build",
  });
  const { code, signal } = await proc.exited;
  await proc.stop();
  if (code !== 0) {
    throw new Error(`npm run build failed (${signal ?? `exit ${code}`}):\n${tail(proc.output(), 60)}`);
  }
  log(`build: done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

/**
 * The Node flags `npm run serve` starts the server with (package.json: its heap limits, decision
 * 012), so the bench measures the server as it is run.
 */
function serverNodeFlags() {
  const serve = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")).scripts?.serve ?? "";
  const flags = /^(?:exec\s+)?node((?:\s+--[\w-]+(?:=\S+)?)*)\s+app\/server\.mjs/.exec(serve);
  return flags ? flags[1].trim().split(/\s+/).filter(Boolean) : [];
}

/** Starts the server on a fresh DATA_DIR; `beforeStart(dataDir)` runs first (the DATA_DIR is free then) and its result is returned as `prepared`. */
async function startServer(log, { beforeStart, extraEnv = {} } = {}) {
  const buildEntry = path.join(ROOT, "build/index.js");
  if (!fs.existsSync(buildEntry)) throw new Error(`${path.relative(ROOT, buildEntry)} not found: build first (drop --no-build)`);
  const port = await findFreePort(PREFERRED_PORT);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "personaforge-bench-"));
  const removeDataDir = () => fs.rmSync(dataDir, { recursive: true, force: true });
  onCleanup(removeDataDir);
  const baseUrl = `http://127.0.0.1:${port}`;
  const prepared = beforeStart ? await beforeStart(dataDir) : undefined;
  log(`server: node ${[...serverNodeFlags(), "app/server.mjs"].join(" ")} on ${baseUrl} (DATA_DIR=${dataDir})`);
  const server = startChild(process.execPath, [...serverNodeFlags(), "app/server.mjs"], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      APP_URL: baseUrl,
      // Request logging would measure the terminal, not the app.
      LOG_REQUESTS: "0",
      // GET /__process: the server's CPU time and RSS, for the CPU-per-request and memory rows.
      PF_PROCESS_METRICS: "1",
      // The backstory rows ask for 210 backstories as one creator in a few minutes; the
      // quota (30 an hour) stays in the measured path, ten times as large.
      GENERATION_QUOTA_MULTIPLIER: "10",
      ...extraEnv,
    },
    label: "server",
  });
  process.on("exit", removeDataDir); // also on a hard exit, after the server's SIGKILL exit hook

  const t0 = Date.now();
  let last = "no answer";
  while (Date.now() - t0 < SERVER_READY_TIMEOUT_MS) {
    if (!server.alive) {
      const { code, signal } = await server.exited;
      throw new Error(`server exited early (${signal ?? `exit ${code}`}):\n${tail(server.output(), 60)}`);
    }
    try {
      const res = await fetch(`${baseUrl}/`, { redirect: "manual", signal: AbortSignal.timeout(5000) });
      await res.arrayBuffer();
      last = `HTTP ${res.status}`;
      if (res.status === 200) break;
      // Up, but the index page is not built yet: measure whatever else exists.
      if (res.status === 404) {
        log("server: GET / answers 404 (index not built yet), continuing");
        break;
      }
    } catch (err) {
      last = err?.cause?.code ?? err?.message ?? String(err);
    }
    await sleep(250);
  }
  if (!/^HTTP (200|404)$/.test(last)) {
    throw new Error(`server not ready after ${SERVER_READY_TIMEOUT_MS / 1000} s (last: ${last}):\n${tail(server.output(), 60)}`);
  }
  log(`server: ready in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return { baseUrl, server, dataDir, prepared };
}

/** PAGES, or only those named with --pages. */
function selectedPages(ctx) {
  return ctx.args.pages ? PAGES.filter((p) => ctx.args.pages.has(p.path)) : PAGES;
}

/** EXTRA_MEASUREMENTS, or only those named with --extra. */
function selectedExtras(args) {
  if (args.only) return args.only.map((key) => EXTRA_KEYS[key].fn);
  return args.extra ? EXTRA_MEASUREMENTS.filter((fn) => args.extra.has(fn.name)) : EXTRA_MEASUREMENTS;
}

function tail(text, lines) {
  return text.split("\n").slice(-lines).join("\n");
}

// ---------------------------------------------------------------------------
// Metric rows
// ---------------------------------------------------------------------------

function checkBudget(value, budget) {
  if (value === null || value === undefined || Number.isNaN(value)) return false;
  switch (budget.op) {
    case "<=":
      return value <= budget.value;
    case ">=":
      return value >= budget.value;
    case "=":
      return value === budget.value;
    default:
      throw new Error(`unknown budget op ${budget.op}`);
  }
}

/**
 * A metric row. value null + skipped → SKIP (not a failure). value null without
 * skipped → FAIL (measurement broke). `pass` can be forced (e.g. errors seen).
 */
function row({ id, label, value = null, unit = "", budget = null, note = "", skipped = null, pass, details }) {
  let result;
  if (skipped) result = null;
  else if (pass !== undefined) result = pass;
  else if (budget) result = checkBudget(value, budget);
  else result = value === null ? false : null; // informational row: no verdict unless it broke
  return {
    id,
    label: label ?? id,
    value,
    unit,
    budget,
    pass: result,
    note: skipped ?? note,
    skipped: Boolean(skipped),
    ...(details ? { details } : {}),
  };
}

function fmtValue(value, unit) {
  if (value === null || value === undefined) return "—";
  switch (unit) {
    case "bytes":
      return `${(value / KB).toFixed(1)} KB`;
    case "ms":
      return `${value.toFixed(value < 1 ? 2 : 1)} ms`;
    case "req/s":
      return `${value.toFixed(0)} req/s`;
    case "MB":
      return `${value.toFixed(0)} MB`;
    case "score":
      return `${Math.round(value)}`;
    default:
      return `${value}${unit ? ` ${unit}` : ""}`;
  }
}

function fmtBudget(budget, unit) {
  if (!budget) return "";
  const sym = { "<=": "≤", ">=": "≥", "=": "=" }[budget.op];
  return `${sym} ${fmtValue(budget.value, unit)}`;
}

// ---------------------------------------------------------------------------
// Session cookies
// ---------------------------------------------------------------------------

function makeCookieResolver(ctx) {
  let session;
  return async (page) => {
    if (typeof page.cookie === "function") return (await page.cookie(ctx)) ?? null;
    if (typeof page.cookie === "string") return page.cookie;
    if (page.auth && page.creator && ctx.library?.creators?.[page.creator]) {
      try {
        return await creatorCookie(ctx, page.creator);
      } catch (err) {
        // Another user would only see 'Persona Not Found' for the creator's persona.
        if (isSeededPersonaPage(page))
          throw new Error(`sign-in as the seeded ${page.creator} creator failed: ${err?.message ?? err}`, { cause: err });
        ctx.log(`sign-in as the seeded ${page.creator} creator failed (${err?.message ?? err}); using signIn()'s user`);
      }
    }
    if (page.auth) {
      session ??= Promise.resolve(signIn(ctx)).catch((err) => {
        ctx.log(`signIn failed: ${err?.message ?? err}`);
        return null;
      });
      return await session;
    }
    return null;
  };
}

/** Cookie header of a seeded library creator (LIBRARY.creators key), signed in once per run; throws when unavailable. */
function creatorCookie(ctx, key) {
  const lib = ctx.library;
  const creator = lib?.creators?.[key];
  if (!creator) throw new Error(lib?.skipped ?? lib?.error ?? `no seeded creator "${key}"`);
  lib.cookies ??= {};
  lib.cookies[key] ??= logIn(ctx, creator.email, lib.password).then((cookie) => {
    creator.signedIn = true;
    return cookie;
  });
  return lib.cookies[key];
}

/** A PAGES entry whose path names one of its creator's seeded personas (`{id}`). */
function isSeededPersonaPage(page) {
  return page.path.includes("{id}");
}

/**
 * The URL path to request for a page: its path, with `{id}` replaced by its creator's seeded
 * active persona. Returns { path } or { skip } (not seeded); throws when the seeding failed.
 */
function resolvePagePath(ctx, page) {
  if (!isSeededPersonaPage(page)) return { path: page.path };
  const lib = ctx.library;
  if (!lib?.creators) {
    if (lib?.error) throw new Error(lib.error);
    return { skip: lib?.skipped ?? "library creators not seeded" };
  }
  const id = lib.creators[page.creator]?.activePersonaId;
  if (!id) throw new Error(`the seed names no active persona of the "${page.creator}" creator`);
  return { path: page.path.replace("{id}", encodeURIComponent(id)) };
}

/** For a page with `creator`: who the measurement was signed in as (call after ctx.cookieFor(page)), and which persona `{id}` was. */
function signedInAsNote(ctx, page) {
  if (!page.creator) return "";
  const creator = ctx.library?.creators?.[page.creator];
  if (creator?.signedIn && isSeededPersonaPage(page)) {
    return `as the ${creator.personas.toLocaleString("en-US")}-persona creator, {id} = ${creator.activePersonaId} (active, with a backstory)`;
  }
  if (creator?.signedIn) return `as the ${creator.personas.toLocaleString("en-US")}-persona creator`;
  return `as signIn()'s new user (no personas): ${ctx.library?.skipped ?? ctx.library?.error ?? `the ${page.creator} creator could not sign in`}`;
}

const AUTH_MISSING = "needs sign-in (signIn() returned no session: run the bench against its own server, or set BENCH_DATA_DIR with --url)";

/** Resolve the path and the cookie and probe the page. Returns { path, cookie, status, skip } with skip a reason or null. */
async function probePage(ctx, page) {
  const resolved = resolvePagePath(ctx, page);
  if (resolved.skip) return { path: null, cookie: null, status: null, skip: resolved.skip };
  const cookie = await ctx.cookieFor(page);
  if (page.auth && !cookie) return { path: resolved.path, cookie, status: null, skip: AUTH_MISSING };
  const res = await ctx.fetchPage(resolved.path, { cookie });
  await res.arrayBuffer();
  if (res.status === 404 && isSeededPersonaPage(page))
    throw new Error(`GET ${resolved.path} answered 404: the seeded persona was not found`);
  if (res.status === 404) return { path: resolved.path, cookie, status: 404, skip: "not built yet (404)" };
  return { path: resolved.path, cookie, status: res.status, skip: null };
}

// ---------------------------------------------------------------------------
// 1. First-load JavaScript
// ---------------------------------------------------------------------------

function decodeEntities(s) {
  return s
    .replace(/&amp;/g, "&")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">");
}

function parseAttrs(tag) {
  const attrs = {};
  const re = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
  const inner = tag.replace(/^<\w+/, "").replace(/\/?>$/, "");
  let m;
  while ((m = re.exec(inner))) {
    attrs[m[1].toLowerCase()] = decodeEntities(m[2] ?? m[3] ?? m[4] ?? "");
  }
  return attrs;
}

/** Import specifiers in module source: static `import … from "x"`, `import "x"`, `export … from "x"`, and `import("x")`. */
function importsInInlineModule(code) {
  const specs = [];
  const staticRe = /(?:^|[;\s}])(?:import|export)\s*(?:[\w$*{}\s,]+?\s*from\s*)?["']([^"'\n]+)["']/g;
  const dynamicRe = /\bimport\s*\(\s*["']([^"'\n]+)["']\s*\)/g;
  let m;
  while ((m = staticRe.exec(code))) specs.push(m[1]);
  while ((m = dynamicRe.exec(code))) specs.push(m[1]);
  return specs;
}

/**
 * Only the leading block of static imports of a fetched JS file (esbuild puts them
 * first): those load eagerly with the file. Dynamic imports inside chunks are lazy
 * and not counted. Remix normally modulepreloads all of these anyway.
 */
function leadingStaticImports(code) {
  const specs = [];
  const re =
    /^(?:\s|\/\*[\s\S]*?\*\/|\/\/[^\n]*\n|"use strict";?)*(?:import\s*(?:[\w$*{}\s,]+?\s*from\s*)?|export\s*[\w$*{}\s,]+?\s*from\s*)["']([^"'\n]+)["']\s*;?/;
  let rest = code;
  for (let i = 0; i < 500; i++) {
    const m = re.exec(rest);
    if (!m) break;
    specs.push(m[1]);
    rest = rest.slice(m[0].length);
  }
  return specs;
}

export function collectJsUrls(html, pageUrl) {
  const urls = [];
  const add = (spec) => {
    if (!spec || spec.startsWith("data:")) return;
    // Bare specifiers (no ./, /, or scheme) would need an import map; Remix never emits them.
    if (!/^(\.{0,2}\/|[a-z][a-z0-9+.-]*:)/i.test(spec)) return;
    urls.push(new URL(spec, pageUrl).href);
  };
  // Strip comments so commented-out tags don't count.
  const doc = html.replace(/<!--[\s\S]*?-->/g, "");
  const scriptRe = /<script\b[^>]*>([\s\S]*?)<\/script\s*>/gi;
  let m;
  while ((m = scriptRe.exec(doc))) {
    const open = m[0].slice(0, m[0].indexOf(">") + 1);
    const attrs = parseAttrs(open);
    const type = (attrs.type ?? "").toLowerCase();
    // text/x-module-after-paint: the app's boot module, started after the first paint (docs/decisions/013).
    const isModule = type === "module" || type === "text/x-module-after-paint";
    const isJs = type === "" || isModule || /javascript|ecmascript/.test(type);
    if (!isJs) continue;
    if ("src" in attrs) add(attrs.src);
    else if (isModule) importsInInlineModule(m[1]).forEach(add);
  }
  const linkRe = /<link\b[^>]*>/gi;
  while ((m = linkRe.exec(doc))) {
    const attrs = parseAttrs(m[0]);
    const rel = (attrs.rel ?? "").toLowerCase().split(/\s+/);
    // data-modulepreload: the app's modulepreloads, re-armed after the first paint (docs/decisions/013).
    if ((rel.includes("modulepreload") || "data-modulepreload" in attrs) && attrs.href) add(attrs.href);
  }
  return [...new Set(urls)];
}

async function measureFirstLoadJs(ctx) {
  const rows = [];
  for (const page of selectedPages(ctx)) {
    const id = `js.${page.path}`;
    const label = `First-load JS ${page.path}`;
    const budget = { op: "<=", value: BUDGETS.js[page.kind] };
    if (!budget.value) throw new Error(`page ${page.path}: unknown kind "${page.kind}"`);
    try {
      const resolved = resolvePagePath(ctx, page);
      if (resolved.skip) {
        rows.push(row({ id, label, unit: "bytes", budget, skipped: resolved.skip }));
        continue;
      }
      const cookie = await ctx.cookieFor(page);
      if (page.auth && !cookie) {
        rows.push(row({ id, label, unit: "bytes", budget, skipped: AUTH_MISSING }));
        continue;
      }
      const res = await ctx.fetchPage(resolved.path, { cookie });
      const html = await res.text();
      if (res.status === 404 && !isSeededPersonaPage(page)) {
        rows.push(row({ id, label, unit: "bytes", budget, skipped: "not built yet (404)" }));
        continue;
      }
      if (res.status !== 200) {
        rows.push(
          row({
            id,
            label,
            unit: "bytes",
            budget,
            note: `HTTP ${res.status}${res.headers.get("location") ? ` → ${res.headers.get("location")}` : ""}`,
          }),
        );
        continue;
      }
      const pageUrl = `${ctx.baseUrl}${resolved.path}`;
      const queue = collectJsUrls(html, pageUrl);
      const fromHtml = new Set(queue);
      const seen = new Set(queue);
      const files = [];
      const errors = [];
      while (queue.length) {
        const url = queue.shift();
        try {
          const r = await fetch(url, { headers: cookie ? { cookie } : {}, signal: AbortSignal.timeout(15_000) });
          const buf = Buffer.from(await r.arrayBuffer());
          if (!r.ok) {
            errors.push(`${new URL(url).pathname}: HTTP ${r.status}`);
            continue;
          }
          const gzip = zlib.gzipSync(buf, { level: 9 }).length;
          files.push({
            url: url.startsWith(ctx.baseUrl) ? url.slice(ctx.baseUrl.length) : url,
            bytes: buf.length,
            gzip,
            fromHtml: fromHtml.has(url),
          });
          for (const spec of leadingStaticImports(buf.toString("utf8"))) {
            if (!/^(\.{0,2}\/|[a-z][a-z0-9+.-]*:)/i.test(spec)) continue;
            const next = new URL(spec, url).href;
            if (!seen.has(next)) {
              seen.add(next);
              queue.push(next);
            }
          }
        } catch (err) {
          errors.push(`${url}: ${err?.cause?.code ?? err?.message ?? err}`);
        }
      }
      const total = files.reduce((s, f) => s + f.gzip, 0);
      const raw = files.reduce((s, f) => s + f.bytes, 0);
      const extra = files.filter((f) => !f.fromHtml).length;
      const noteParts = [`${files.length} files, ${(raw / KB).toFixed(1)} KB raw`, signedInAsNote(ctx, page)].filter(Boolean);
      if (extra) noteParts.push(`${extra} via imports, not preloaded`);
      if (errors.length) noteParts.push(`fetch errors: ${errors.join("; ")}`);
      rows.push(
        row({
          id,
          label,
          value: total,
          unit: "bytes",
          budget,
          note: noteParts.join(", "),
          ...(errors.length ? { pass: false } : {}),
          details: {
            kind: page.kind,
            ...(resolved.path !== page.path ? { path: resolved.path } : {}),
            rawBytes: raw,
            files: files.sort((a, b) => b.gzip - a.gzip),
          },
        }),
      );
    } catch (err) {
      rows.push(row({ id, label, unit: "bytes", budget, note: `error: ${err?.message ?? err}` }));
    }
  }
  return rows;
}

// ---------------------------------------------------------------------------
// 2. Lighthouse
// ---------------------------------------------------------------------------

async function measureLighthouse(ctx) {
  const pages = selectedPages(ctx).filter((p) => p.lighthouse);
  if (pages.length === 0) return [];
  const rowsFor = (page, fields) => [
    row({
      id: `lighthouse.performance.${page.path}`,
      label: `Lighthouse perf ${page.path}`,
      unit: "score",
      budget: { op: ">=", value: BUDGETS.lighthouse.performance },
      ...fields.performance,
    }),
    row({
      id: `lighthouse.accessibility.${page.path}`,
      label: `Lighthouse a11y ${page.path}`,
      unit: "score",
      budget: { op: "=", value: BUDGETS.lighthouse.accessibility },
      ...fields.accessibility,
    }),
  ];
  const both = (fields) => ({ performance: fields, accessibility: fields });
  // A page loaded with a toast also gets a row of its own for CLS, which must be 0.
  const clsRow = (page, fields) =>
    row({
      id: `lighthouse.cls.${page.path}`,
      label: `Lighthouse CLS ${page.path} with a toast`,
      unit: "",
      budget: { op: "=", value: 0 },
      ...fields,
    });

  // Probe first, so no Chrome is launched when nothing is measurable.
  const pending = [];
  const rows = [];
  for (const page of pages) {
    try {
      const probe = await probePage(ctx, page);
      if (probe.skip) rows.push(...rowsFor(page, both({ skipped: probe.skip })));
      else pending.push({ page, path: probe.path, cookie: probe.cookie, status: probe.status });
    } catch (err) {
      rows.push(...rowsFor(page, both({ note: `error: ${err?.message ?? err}` })));
    }
  }
  if (pending.length === 0) return rows;

  const chromePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  if (!fs.existsSync(chromePath)) {
    for (const { page } of pending) rows.push(...rowsFor(page, both({ note: `Chromium not found at ${chromePath} (set CHROMIUM_PATH)` })));
    return rows;
  }
  const [{ default: lighthouse }, chromeLauncher] = await Promise.all([import("lighthouse"), import("chrome-launcher")]);

  ctx.log(`lighthouse: launching ${chromePath}`);
  const chrome = await chromeLauncher.launch({
    chromePath,
    chromeFlags: CHROME_FLAGS,
    handleSIGINT: false, // our own handler kills it together with the server
    logLevel: "silent",
  });
  let killed = false;
  const killChrome = async () => {
    if (killed) return;
    killed = true;
    try {
      await chrome.kill();
    } catch {
      /* already gone */
    }
  };
  const unregister = onCleanup(killChrome);
  const runs = ctx.args.lighthouseRuns ?? LIGHTHOUSE_RUNS;
  const results = new Map(pending.map((entry) => [entry, []]));
  try {
    // In rounds (every page once, then again), so a moment of load on the machine falls on one
    // run of several pages rather than on every run of one.
    for (let round = 1; round <= runs && !aborting; round++) {
      for (const entry of pending) {
        if (aborting) break;
        results.get(entry).push(await lighthouseRun(ctx, lighthouse, chrome, entry, `${round}/${runs}`));
      }
    }
  } finally {
    unregister();
    await killChrome();
  }
  for (const entry of pending) {
    const { page } = entry;
    const all = results.get(entry);
    const done = all.filter((run) => !run.error);
    const failed = all.filter((run) => run.error).map((run) => run.error);
    if (done.length === 0) {
      rows.push(...rowsFor(page, both({ note: `error: ${failed[0] ?? "not run"}` })));
      continue;
    }
    // The budget judges the median run by performance score, as Lighthouse's guide on variability
    // advises ('use aggregate values like the median … The median Lighthouse score of 5 runs is twice
    // as stable as 1 run'); every run's score stays in the note, the lowest among them.
    const byScore = [...done].sort((a, b) => (a.perf ?? -1) - (b.perf ?? -1));
    const median = byScore[Math.floor((byScore.length - 1) / 2)];
    const scores = done.map((run) => run.perf ?? "—").join(", ");
    const of = done.length === 1 ? "1 run" : `median of ${done.length} runs (${scores}; in run order)`;
    const failedNote = failed.length ? `; ${failed.length} run(s) failed: ${failed[0]}` : "";
    // Accessibility and the toast's CLS hold in every run, not in the median one.
    const a11yWorst = [...done].sort((a, b) => (a.a11y ?? -1) - (b.a11y ?? -1))[0];
    rows.push(
      ...rowsFor(page, {
        performance: {
          value: median.perf,
          note: `${of}; the median run: ${median.perfNote}${failedNote}`,
          details: { ...median.details, runs: done.map((run) => ({ performance: run.perf, ...run.details })) },
        },
        accessibility: {
          value: a11yWorst.a11y,
          note: [done.length > 1 ? `lowest of ${done.length} runs` : "", a11yWorst.a11yNote].filter(Boolean).join(", "),
          details: { failingAccessibilityAudits: a11yWorst.details.failingAccessibilityAudits },
        },
      }),
    );
    if (page.toast) {
      const shifts = done.map((run) => run.cls);
      const worst = shifts.some((cls) => cls == null) ? null : Math.max(...shifts);
      rows.push(
        clsRow(page, {
          value: worst,
          note: `${done[0].toast.path} loaded with the toast '${done[0].toast.title}' (its HTML checked to show it); the largest of ${done.length} runs`,
        }),
      );
    }
  }
  return rows;
}

/** One Lighthouse run of one page: its scores and notes, or { error }. */
async function lighthouseRun(ctx, lighthouse, chrome, { page, path: pagePath, cookie, status }, label) {
  const url = `${ctx.baseUrl}${pagePath}`;
  const t0 = Date.now();
  ctx.log(`lighthouse: ${page.path} (run ${label})`);
  try {
    const toast = page.toast ? await flashToastCookie(ctx, cookie) : null;
    const result = await lighthouse(toast ? `${ctx.baseUrl}${toast.path}` : url, {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: ["performance", "accessibility"],
      ...(cookie ? { extraHeaders: { Cookie: toast ? `${cookie}; ${toast.cookie}` : cookie } } : {}),
    });
    const lhr = result?.lhr;
    if (!lhr) throw new Error("no result");
    if (ctx.args.lhrDir) saveLighthouseReport(ctx, page, lhr);
    const score = (c) => (lhr.categories[c]?.score == null ? null : Math.round(lhr.categories[c].score * 100));
    const perf = score("performance");
    const a11y = score("accessibility");
    const audits = lhr.audits;
    const num = (a) => audits[a]?.numericValue;
    const early = scriptsBeforePaint(lhr);
    const perfNote = [
      num("first-contentful-paint") != null && `FCP ${(num("first-contentful-paint") / 1000).toFixed(1)} s`,
      num("largest-contentful-paint") != null && `LCP ${(num("largest-contentful-paint") / 1000).toFixed(1)} s`,
      num("total-blocking-time") != null && `TBT ${Math.round(num("total-blocking-time"))} ms`,
      num("cumulative-layout-shift") != null && `CLS ${num("cumulative-layout-shift").toFixed(3)}`,
      early && `${early.before} of ${early.scripts} scripts done before the real first paint`,
      lhr.runtimeError && `error: ${lhr.runtimeError.code}`,
      status !== 200 && `HTTP ${status}`,
      signedInAsNote(ctx, page),
    ]
      .filter(Boolean)
      .join(", ");
    const failedA11y = Object.values(lhr.categories.accessibility?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && audits[ref.id]?.score === 0)
      .map((ref) => ref.id);
    const a11yNote = [
      failedA11y.length ? `failing: ${failedA11y.join(", ")}` : "",
      lhr.runtimeError ? `error: ${lhr.runtimeError.code}` : "",
    ]
      .filter(Boolean)
      .join(", ");
    const details = {
      finalUrl: lhr.finalDisplayedUrl ?? lhr.finalUrl,
      benchmarkIndex: lhr.environment?.benchmarkIndex,
      runWarnings: lhr.runWarnings,
      seconds: (Date.now() - t0) / 1000,
      metrics: Object.fromEntries(
        [
          "first-contentful-paint",
          "largest-contentful-paint",
          "total-blocking-time",
          "cumulative-layout-shift",
          "speed-index",
          "interactive",
        ].map((a) => [a, num(a) ?? null]),
      ),
      failingAccessibilityAudits: failedA11y,
      scriptsBeforePaint: early,
    };
    ctx.log(
      `lighthouse: ${page.path} perf ${perf ?? "—"} a11y ${a11y ?? "—"} (${((Date.now() - t0) / 1000).toFixed(0)} s, benchmarkIndex ${lhr.environment?.benchmarkIndex ?? "?"})`,
    );
    const cls = lhr.runtimeError ? null : (num("cumulative-layout-shift") ?? null);
    return { perf, a11y, perfNote, a11yNote, details, cls, toast };
  } catch (err) {
    return { error: String(err?.message ?? err) };
  }
}

/**
 * A toast to load a page with: a profile save posted as a browser without JavaScript posts it
 * (same names, so nothing changes), whose redirect carries the toast in its flash cookie. Each
 * Lighthouse run needs a fresh one: the page that shows a toast clears it.
 */
async function flashToastCookie(ctx, cookie) {
  const page = await ctx.fetchPage("/settings", { cookie });
  const html = await page.text();
  const value = (name) => decodeEntities(html.match(new RegExp(`name="${name}"[^>]*value="([^"]*)"`))?.[1] ?? "");
  const res = await fetch(`${ctx.baseUrl}/settings`, {
    method: "POST",
    redirect: "manual",
    headers: { Cookie: cookie, Origin: ctx.baseUrl, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ intent: "profile", firstName: value("firstName"), lastName: value("lastName") }).toString(),
  });
  await res.arrayBuffer();
  const flash = res.headers.getSetCookie().find((c) => c.startsWith("pf_toast="));
  if (res.status !== 302 || !flash) throw new Error(`the profile save answered ${res.status} without a toast`);
  const toast = { path: res.headers.get("location") ?? "/settings", cookie: flash.split(";")[0], title: "Profile Updated" };
  // The flash cookie is signed and read without a server-side state: the page shows it to every
  // load that sends it, so this check leaves it for Lighthouse.
  const shown = await (await ctx.fetchPage(toast.path, { cookie: `${cookie}; ${toast.cookie}` })).text();
  if (!shown.includes(toast.title)) throw new Error(`${toast.path} did not show the toast '${toast.title}'`);
  return toast;
}

/**
 * How many of the page's scripts had arrived when Chromium really painted first (the unthrottled
 * load Lighthouse's simulation starts from). Lantern's simulated FCP and LCP count every
 * high-priority script that was done by then as needed for the paint, and its LCP every request,
 * although module scripts block no paint (GoogleChrome/lighthouse#17163): on localhost the same
 * build scores 100 with FCP 1.0 s when its scripts arrive after the paint, and 92–97 with FCP and
 * LCP 2.1–2.7 s when they arrive before (docs/benchmarks.md). null when the report has no timings.
 */
function scriptsBeforePaint(lhr) {
  const requests = lhr.audits["network-requests"]?.details?.items ?? [];
  const paint = lhr.audits.metrics?.details?.items?.[0]?.observedFirstContentfulPaint;
  if (!requests.length || paint == null) return null;
  const origin = Math.min(...requests.map((request) => request.networkRequestTime));
  const scripts = requests.filter((request) => request.resourceType === "Script");
  return { scripts: scripts.length, before: scripts.filter((request) => request.networkEndTime - origin <= paint).length };
}

/** --lhr-dir: the whole report, named by page and time, for reading Lighthouse's reasons later. */
function saveLighthouseReport(ctx, page, lhr) {
  fs.mkdirSync(ctx.args.lhrDir, { recursive: true });
  const slug = page.path.replace(/[^a-z0-9]+/gi, "-").replace(/^-|-$/g, "") || "index";
  const file = path.join(ctx.args.lhrDir, `${slug}-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
  fs.writeFileSync(file, JSON.stringify(lhr));
  ctx.log(`lighthouse: report written to ${path.relative(process.cwd(), file)}`);
}

// ---------------------------------------------------------------------------
// 3. Server latency
// ---------------------------------------------------------------------------

/** The server process's CPU time and memory (GET /__process, PF_PROCESS_METRICS=1), or null. */
async function processStats(ctx) {
  try {
    const res = await fetch(`${ctx.baseUrl}/__process`, { signal: AbortSignal.timeout(5000) });
    if (res.status !== 200) {
      await res.arrayBuffer();
      return null;
    }
    return await res.json();
  } catch {
    return null;
  }
}

function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  const rank = Math.ceil((p / 100) * sorted.length); // nearest-rank
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

/** One autocannon run (stopped on abort); onResponse gets (client, status, bytes, ms) for each answer. */
async function runAutocannon(opts, onResponse) {
  const { default: autocannon } = await import("autocannon");
  return new Promise((resolve, reject) => {
    const instance = autocannon(opts, (err, result) => (err ? reject(err) : resolve(result)));
    if (onResponse) instance.on("response", onResponse);
    const unregister = onCleanup(() => instance.stop());
    instance.on("done", unregister);
  });
}

async function measureLatency(ctx) {
  const rows = [];
  for (const target of LATENCY_TARGETS) rows.push(...(await measureLatencyTarget(ctx, target)));
  return rows;
}

/** Row ids and labels of a latency target's p50, p95 and throughput rows. */
function latencyNames(target) {
  const method = target.method ?? "GET";
  const suffix = target.label ? ` (${target.label})` : "";
  const idSuffix = target.label ? `.${target.label.replace(/\W+/g, "-")}` : "";
  const shown = target.displayPath ?? target.path;
  const idPath = method === "GET" ? shown : `${method}.${shown}`;
  return {
    ids: {
      p50: `latency.p50.${idPath}${idSuffix}`,
      p95: `latency.p95.${idPath}${idSuffix}`,
      rps: `latency.rps.${idPath}${idSuffix}`,
      cpu: `cpu.per-request.${idPath}${idSuffix}`,
    },
    labels: {
      p50: `Latency p50 ${method} ${shown}${suffix}`,
      p95: `Latency p95 ${method} ${shown}${suffix}`,
      rps: `Throughput ${method} ${shown}${suffix}`,
      cpu: `CPU per request ${method} ${shown}${suffix}`,
    },
  };
}

/** Latency rows (p50, p95 against budgetP95Ms, and throughput for duration runs) of one target: see LATENCY_TARGETS. */
async function measureLatencyTarget(ctx, target) {
  const rows = [];
  const p = target.path;
  const method = target.method ?? "GET";
  const byAmount = target.amount != null;
  const budget = target.budgetP95Ms != null ? { op: "<=", value: target.budgetP95Ms } : undefined;
  const { ids, labels } = latencyNames(target);
  try {
    // A target with its own cookie is probed with it (a seeded creator's persona is not found as anyone else).
    const page = (!target.cookie && PAGES.find((pg) => pg.path === p)) || { path: p, ...target };
    // A GET probe: resolves the cookie and tells a missing route (404) from one that exists.
    const probe = await probePage(ctx, page);
    if (probe.skip) {
      rows.push(row({ id: ids.p50, label: labels.p50, unit: "ms", skipped: probe.skip }));
      rows.push(row({ id: ids.p95, label: labels.p95, unit: "ms", budget, skipped: probe.skip }));
      if (!byAmount) rows.push(row({ id: ids.rps, label: labels.rps, unit: "req/s", skipped: probe.skip }));
      return rows;
    }
    const url = `${ctx.baseUrl}${p}`;
    if (new URL(url).hostname !== "127.0.0.1") throw new Error(`refusing to load-test ${url}: not 127.0.0.1`);
    const cookie = target.cookie ?? probe.cookie;
    const base = {
      url,
      method,
      connections: target.connections,
      // A browser names its page's origin on every state change; the server refuses cookie posts without it.
      headers: cookie ? { cookie, origin: ctx.baseUrl } : {},
      timeout: 10,
    };
    const requestsFor = (bodies) =>
      bodies?.length
        ? {
            requests: bodies.map((b) => ({
              method,
              path: p,
              headers: { "content-type": "application/json", ...(cookie ? { cookie, origin: ctx.baseUrl } : {}) },
              body: JSON.stringify(b),
            })),
          }
        : {};
    // `distinct`: each request asks a URL of its own (`view=<n>` added to the query), so no
    // kept document answers it and every request is rendered (decision 031).
    let views = 0;
    const distinctRequests = target.distinct
      ? { requests: [{ method, setupRequest: (req) => ({ ...req, path: `${p}${p.includes("?") ? "&" : "?"}view=${++views}` }) }] }
      : {};
    const what = `${method} ${p}${target.distinct ? " (a new URL each request)" : ""}`;
    if (byAmount) {
      const warmup = target.warmupRequests ?? 0;
      if (warmup > 0) {
        ctx.log(`latency: warm-up ${what} ${warmup} requests`);
        await runAutocannon({
          ...base,
          amount: warmup,
          connections: Math.min(target.connections, warmup),
          ...requestsFor(target.warmupBodies ?? target.bodies),
        });
      }
      ctx.log(`latency: ${what}, ${target.connections} connection(s), ${target.amount} requests`);
    } else {
      ctx.log(`latency: warm-up ${what} ${target.warmup} s`);
      await runAutocannon({ ...base, duration: target.warmup, ...requestsFor(target.bodies), ...distinctRequests });
      ctx.log(`latency: ${what}, ${target.connections} connections, ${target.duration} s`);
    }
    const latencies = [];
    let non2xx = 0;
    const before = await processStats(ctx);
    const result = await runAutocannon(
      {
        ...base,
        ...(byAmount ? { amount: target.amount } : { duration: target.duration }),
        ...requestsFor(target.bodies),
        ...distinctRequests,
      },
      (_client, statusCode, _bytes, responseTime) => {
        if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
        else non2xx++;
      },
    );
    const after = await processStats(ctx);
    const samePid = before && after && before.pid === after.pid && result.requests.total > 0;
    const cpuMs = samePid ? (after.cpuUserMs + after.cpuSystemMs - before.cpuUserMs - before.cpuSystemMs) / result.requests.total : null;
    // The main thread alone (renders; the embedded database has a thread of its own): what bounds throughput.
    const mainMs =
      samePid && before.mainThreadCpuMs != null && after.mainThreadCpuMs != null
        ? (after.mainThreadCpuMs - before.mainThreadCpuMs) / result.requests.total
        : null;
    latencies.sort((a, b) => a - b);
    const p50 = percentile(latencies, 50);
    const p95 = percentile(latencies, 95);
    const seconds = result.duration ?? target.duration;
    const rps = result.requests.total / seconds;
    const problems = [];
    if (non2xx || result.non2xx) problems.push(`${Math.max(non2xx, result.non2xx)} non-2xx`);
    if (result.errors) problems.push(`${result.errors} errors`);
    if (result.timeouts) problems.push(`${result.timeouts} timeouts`);
    if (byAmount && latencies.length + non2xx < target.amount)
      problems.push(`${target.amount - latencies.length - non2xx} requests unanswered`);
    const details = {
      method,
      connections: target.connections,
      durationSeconds: seconds,
      ...(byAmount ? { amount: target.amount, warmupRequests: target.warmupRequests ?? 0 } : {}),
      requests: result.requests.total,
      samples: latencies.length,
      maxMs: latencies.at(-1) ?? null,
      autocannon: {
        p50: result.latency.p50,
        p90: result.latency.p90,
        p97_5: result.latency.p97_5,
        p99: result.latency.p99,
        mean: result.latency.average,
      },
      non2xx: Math.max(non2xx, result.non2xx ?? 0),
      errors: result.errors,
      timeouts: result.timeouts,
      cpuMsPerRequest: cpuMs,
      mainThreadCpuMsPerRequest: mainMs,
      serverRssMB: after ? after.rssBytes / MB : null,
    };
    const note = problems.join(", ");
    const bad = problems.length ? { pass: false } : {};
    const run = byAmount
      ? `${target.connections} conn, ${target.amount} requests after ${target.warmupRequests ?? 0} warm-up`
      : `${target.connections} conn, ${target.duration} s`;
    rows.push(row({ id: ids.p50, label: labels.p50, value: p50, unit: "ms", note, ...bad }));
    rows.push(
      row({
        id: ids.p95,
        label: labels.p95,
        value: p95,
        unit: "ms",
        budget,
        note: `${run}, ${latencies.length} samples${note ? `, ${note}` : ""}`,
        details,
        ...bad,
      }),
    );
    if (!byAmount) rows.push(row({ id: ids.rps, label: labels.rps, value: rps, unit: "req/s", note, ...bad }));
    rows.push(
      row({
        id: ids.cpu,
        label: labels.cpu,
        value: cpuMs === null ? null : Math.round(cpuMs * 100) / 100,
        unit: "ms",
        ...(cpuMs === null ? { skipped: "the server does not answer GET /__process (PF_PROCESS_METRICS=1, one process)" } : {}),
        note:
          cpuMs === null
            ? ""
            : `server process CPU (user+system) ÷ ${result.requests.total} requests${mainMs === null ? "" : `; main thread ${mainMs.toFixed(1)} ms (the rest: the database thread, GC)`}; ${((cpuMs * rps) / 10).toFixed(0)} % of one core at this rate`,
      }),
    );
  } catch (err) {
    const note = `error: ${err?.message ?? err}`;
    rows.push(row({ id: ids.p95, label: labels.p95, unit: "ms", budget, note }));
  }
  return rows;
}

// ---------------------------------------------------------------------------
// 4. Backstory generation (an EXTRA_MEASUREMENTS entry)
// ---------------------------------------------------------------------------

const BACKSTORY_COUNT = 100;
const BACKSTORY_WARMUP = 10;
const BACKSTORY_SCRIPT_TIMEOUT_MS = 120_000;

/** The TypeScript runner for tests/bench/*.ts: tsx (resolves tsconfig's `~` paths), else vite-node with the vitest config's alias. */
function tsRunner() {
  const bin = (name) => path.join(ROOT, "node_modules/.bin", name);
  if (fs.existsSync(bin("tsx"))) return { name: "tsx", cmd: bin("tsx"), args: [] };
  if (fs.existsSync(bin("vite-node"))) return { name: "vite-node", cmd: bin("vite-node"), args: ["--config", "tests/vitest.config.ts"] };
  return null;
}

/** Runs tests/bench/backstory-embedded.ts in a child process and returns its JSON. */
async function runEmbeddedBackstories(ctx) {
  const runner = tsRunner();
  if (!runner) throw new Error("neither node_modules/.bin/tsx nor node_modules/.bin/vite-node is installed (npm ci)");
  const script = "tests/bench/backstory-embedded.ts";
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "personaforge-bench-backstory-"));
  const removeTmp = onCleanup(() => fs.rmSync(tmp, { recursive: true, force: true }));
  try {
    const out = path.join(tmp, "result.json");
    ctx.log(`backstory: ${runner.name} ${script}, ${BACKSTORY_COUNT} personas after ${BACKSTORY_WARMUP} warm-up`);
    const proc = startChild(
      runner.cmd,
      [...runner.args, script, "--out", out, "--count", String(BACKSTORY_COUNT), "--warmup", String(BACKSTORY_WARMUP)],
      {
        cwd: ROOT,
        env: { ...process.env, NODE_ENV: "production" },
        label: "backstory-embedded",
      },
    );
    const timer = setTimeout(() => proc.stop(), BACKSTORY_SCRIPT_TIMEOUT_MS);
    const { code, signal } = await proc.exited;
    clearTimeout(timer);
    await proc.stop();
    if (code !== 0 || !fs.existsSync(out)) {
      throw new Error(`${script} failed (${signal ?? `exit ${code}`}): ${tail(proc.output().trim(), 8)}`);
    }
    return { runner: runner.name, ...JSON.parse(fs.readFileSync(out, "utf8")) };
  } finally {
    removeTmp();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * Backstory generation, p50/p95 over BACKSTORY_COUNT varied valid personas: the embedded
 * generator in-process (against BUDGETS.backstoryP95Ms), then POST /api/generate-backstory
 * with the same inputs on the server, signed in, one request at a time (against
 * BUDGETS.latencyP95Ms). Runs one after the other so neither loads the CPU under the other.
 */
async function measureBackstoryGeneration(ctx) {
  const rows = [];
  const ids = { p50: "backstory.embedded.p50", p95: "backstory.embedded.p95" };
  const labels = { p50: "Backstory p50 embedded (in-process)", p95: "Backstory p95 embedded (in-process)" };
  const budget = { op: "<=", value: BUDGETS.backstoryP95Ms };
  let embedded;
  try {
    embedded = await runEmbeddedBackstories(ctx);
  } catch (err) {
    rows.push(row({ id: ids.p95, label: labels.p95, unit: "ms", budget, note: `error: ${err?.message ?? err}` }));
  }
  if (embedded) {
    const sorted = [...embedded.timingsMs].sort((a, b) => a - b);
    const p50 = percentile(sorted, 50);
    const p95 = percentile(sorted, 95);
    const words = embedded.words;
    const minWords = Math.min(...words);
    const avgWords = words.reduce((a, b) => a + b, 0) / words.length;
    const short = words.filter((w) => w < embedded.minWords).length;
    const long = embedded.chars.filter((c) => c > embedded.maxChars).length;
    const problems = [];
    if (sorted.length !== BACKSTORY_COUNT) problems.push(`${sorted.length} of ${BACKSTORY_COUNT} timed`);
    if (short) problems.push(`${short} under ${embedded.minWords} words`);
    if (long) problems.push(`${long} over ${embedded.maxChars} characters`);
    const bad = problems.length ? { pass: false } : {};
    const wordsNote = `words min ${minWords}, avg ${avgWords.toFixed(0)} (≥ ${embedded.minWords} promised)`;
    rows.push(row({ id: ids.p50, label: labels.p50, value: p50, unit: "ms", note: wordsNote, ...bad }));
    rows.push(
      row({
        id: ids.p95,
        label: labels.p95,
        value: p95,
        unit: "ms",
        budget,
        note: [
          `${sorted.length} personas after ${embedded.warmup} warm-up (cold first call ${embedded.firstCallMs.toFixed(1)} ms), ${embedded.runner}`,
          ...problems,
        ].join(", "),
        details: {
          generator: embedded.generator,
          runner: embedded.runner,
          node: embedded.node,
          personas: sorted.length,
          warmup: embedded.warmup,
          firstCallMs: embedded.firstCallMs,
          maxMs: sorted.at(-1),
          meanMs: sorted.reduce((a, b) => a + b, 0) / sorted.length,
          words: { min: minWords, avg: avgWords, max: Math.max(...words), underMinimum: short },
          maxChars: Math.max(...embedded.chars),
        },
        ...bad,
      }),
    );
  }

  // Over HTTP, with the same inputs (the measured requests only; the text check comes after).
  const target = {
    path: "/api/generate-backstory",
    method: "POST",
    auth: true,
    connections: 1,
    amount: BACKSTORY_COUNT,
    warmupRequests: BACKSTORY_WARMUP,
    bodies: embedded?.inputs,
    warmupBodies: embedded?.warmupInputs,
    budgetP95Ms: BUDGETS.latencyP95Ms,
  };
  if (!embedded) {
    const skipped = "no inputs: the embedded run failed (see the row above)";
    rows.push(
      row({ id: "latency.p50.POST./api/generate-backstory", label: "Latency p50 POST /api/generate-backstory", unit: "ms", skipped }),
    );
    rows.push(
      row({
        id: "latency.p95.POST./api/generate-backstory",
        label: "Latency p95 POST /api/generate-backstory",
        unit: "ms",
        budget: { op: "<=", value: target.budgetP95Ms },
        skipped,
      }),
    );
    return rows;
  }
  const httpRows = await measureLatencyTarget(ctx, target);
  rows.push(...httpRows);
  const p95Row = httpRows.find((r) => r.id.startsWith("latency.p95.") && r.value !== null);
  if (p95Row) {
    // Same text as in-process? Tells whether the server wrote these with the embedded generator.
    const cookie = await ctx.cookieFor(target);
    let same = 0;
    const failures = [];
    for (const [i, input] of embedded.inputs.entries()) {
      const res = await fetch(`${ctx.baseUrl}${target.path}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...(cookie ? { cookie, origin: ctx.baseUrl } : {}) },
        body: JSON.stringify(input),
        signal: AbortSignal.timeout(15_000),
      });
      const body = await res.text();
      const story = res.ok ? JSON.parse(body).backstory : null;
      if (typeof story !== "string") {
        failures.push(`#${i}: HTTP ${res.status}`);
        continue;
      }
      if (createHash("sha256").update(story).digest("hex") === embedded.hashes[i]) same++;
    }
    p95Row.details.sameTextAsEmbedded = same;
    p95Row.note += `, text = embedded for ${same}/${embedded.inputs.length}`;
    if (failures.length) {
      p95Row.note += `, check requests failed: ${failures.slice(0, 3).join("; ")}${failures.length > 3 ? "…" : ""}`;
      p95Row.pass = false;
    }
  }
  return rows;
}

// ---------------------------------------------------------------------------
// 4b. Chat replies (an EXTRA_MEASUREMENTS entry)
// ---------------------------------------------------------------------------

const CHAT_COUNT = 200;
const CHAT_WARMUP = 20;
// The server allows 20 replies a minute per user: one warm-up and 19 measured.
const CHAT_HTTP_COUNT = 19;

const LORE_COUNT = 500;
const LORE_WARMUP = 50;
const TEST_RUN_COUNT = 12;
const TEST_RUN_WARMUP = 2;

/**
 * Lore (tests/bench/lore-embedded.ts, in-process): p50/p95 of matching a 20-message window
 * against 200 entries (against BUDGETS.loreMatchP95Ms); the note gives, untimed, the share of
 * named people and places the compile covers and the embedded chat's lore answer rates.
 */
async function measureLoreMatching(ctx) {
  const id = "lore.match.p95";
  const label = "Lore match p95 (20 messages × 200 entries, in-process)";
  const budget = { op: "<=", value: BUDGETS.loreMatchP95Ms };
  const runner = tsRunner();
  if (!runner)
    return [row({ id, label, unit: "ms", budget, note: "error: neither node_modules/.bin/tsx nor vite-node is installed (npm ci)" })];
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "personaforge-bench-lore-"));
  const removeTmp = onCleanup(() => fs.rmSync(tmp, { recursive: true, force: true }));
  try {
    const out = path.join(tmp, "result.json");
    ctx.log(`lore: ${runner.name} tests/bench/lore-embedded.ts, ${LORE_COUNT} matches after ${LORE_WARMUP} warm-up`);
    const proc = startChild(
      runner.cmd,
      [...runner.args, "tests/bench/lore-embedded.ts", "--out", out, "--count", String(LORE_COUNT), "--warmup", String(LORE_WARMUP)],
      { cwd: ROOT, env: { ...process.env, NODE_ENV: "production" }, label: "lore-embedded" },
    );
    const { code, signal } = await proc.exited;
    await proc.stop();
    if (code !== 0 || !fs.existsSync(out))
      throw new Error(`lore-embedded.ts failed (${signal ?? `exit ${code}`}): ${tail(proc.output().trim(), 8)}`);
    const result = JSON.parse(fs.readFileSync(out, "utf8"));
    const sorted = [...result.timingsMs].sort((a, b) => a - b);
    const coverage = (100 * result.coverage.covered) / result.coverage.named;
    const note =
      `${sorted.length} matches of ${result.windowMessages} messages against ${result.entries} entries (${result.matchedMean.toFixed(1)} matched on average); ` +
      `compile covers ${coverage.toFixed(1)}% of ${result.coverage.named} named people and places (50 personas); ` +
      `chat answers ${result.answers.withLore}/${result.answers.questions} lore questions with the entry's fact, ${result.answers.without}/${result.answers.questions} without the lorebook`;
    return [
      row({
        id: "lore.match.p50",
        label: "Lore match p50 (20 messages × 200 entries, in-process)",
        value: percentile(sorted, 50),
        unit: "ms",
      }),
      row({
        id,
        label,
        value: percentile(sorted, 95),
        unit: "ms",
        budget,
        note,
        details: { coverage: result.coverage, answers: result.answers },
      }),
    ];
  } catch (err) {
    return [row({ id, label, unit: "ms", budget, note: `error: ${err?.message ?? err}` })];
  } finally {
    removeTmp();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

const MAIN_THREAD_COUNT = 30;
const MAIN_THREAD_WARMUP = 3;
// An operation far over the ceiling is reported from the runs it had time for (one at least).
const MAIN_THREAD_MAX_SECONDS = 30;

/**
 * The main thread's ceiling (tests/bench/main-thread-embedded.ts, in-process): p95 of each of the
 * longest synchronous stretches a request or job makes, at the largest input the product allows,
 * against BUDGETS.mainThreadP95Ms (docs/decisions/039-work-on-the-main-thread-has-a-ceiling.md):
 * a lore match of a 4,000-character message against 200 entries of 40 keys of 100 characters, half
 * of them patterns; a compile of a 20,000-character backstory with 200 existing entries; the check
 * of a card whose lorebook holds 200 entries of 40 pattern keys; the reading of the largest
 * SillyTavern chat an import takes. The lore row's note gives the same match with plain keys only.
 */
async function measureMainThread(ctx) {
  const budget = { op: "<=", value: BUDGETS.mainThreadP95Ms };
  const rows = [
    {
      id: "mainthread.loreMatch4000.p95",
      op: "loreMatchOffThread",
      label: "Lore match: main thread held p95 (4,000 characters × 200 heaviest entries, matched on its thread)",
    },
    {
      id: "mainthread.loreMatch4000.work.p95",
      op: "loreMatch",
      label: "Lore match p95, the work itself (the same, in-process)",
      info: true,
    },
    { id: "mainthread.compile20000.p95", op: "compile", label: "Lore compile p95 (20,000-character backstory, 200 entries, in-process)" },
    {
      id: "mainthread.cardCheck200.p95",
      op: "cardCheckOffThread",
      label: "Card import: main thread held p95 (a 200-entry lorebook, read and checked on its thread)",
    },
    {
      id: "mainthread.cardCheck200.work.p95",
      op: "cardCheck",
      label: "Card check p95, the work itself (the same, in-process)",
      info: true,
    },
    { id: "mainthread.chatImport.p95", op: "chatImport", label: "Chat import p95 (a 5 MB SillyTavern chat of 2,000 messages, in-process)" },
    {
      id: "mainthread.replyCheck.p95",
      op: "replyCheck",
      label: "Checking one chat reply p95 (an 8,000-character reply, 200 secret entries, in-process)",
      budgetMs: BUDGETS.replyCheckP95Ms,
    },
  ];
  const budgetOf = ({ info, budgetMs }) => (info ? undefined : budgetMs != null ? { op: "<=", value: budgetMs } : budget);
  const failed = (note) => rows.map((r) => row({ id: r.id, label: r.label, unit: "ms", budget: budgetOf(r), note }));
  const runner = tsRunner();
  if (!runner) return failed("error: neither node_modules/.bin/tsx nor vite-node is installed (npm ci)");
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "personaforge-bench-mainthread-"));
  const removeTmp = onCleanup(() => fs.rmSync(tmp, { recursive: true, force: true }));
  try {
    const out = path.join(tmp, "result.json");
    ctx.log(
      `main thread: ${runner.name} tests/bench/main-thread-embedded.ts, up to ${MAIN_THREAD_COUNT} runs of each after ${MAIN_THREAD_WARMUP} warm-up, at most ${MAIN_THREAD_MAX_SECONDS} s each`,
    );
    const proc = startChild(
      runner.cmd,
      [
        ...runner.args,
        "tests/bench/main-thread-embedded.ts",
        ...["--out", out, "--count", String(MAIN_THREAD_COUNT), "--warmup", String(MAIN_THREAD_WARMUP)],
        ...["--max-seconds", String(MAIN_THREAD_MAX_SECONDS)],
      ],
      { cwd: ROOT, env: { ...process.env, NODE_ENV: "production" }, label: "main-thread-embedded" },
    );
    const { code, signal } = await proc.exited;
    await proc.stop();
    if (code !== 0 || !fs.existsSync(out))
      throw new Error(`main-thread-embedded.ts failed (${signal ?? `exit ${code}`}): ${tail(proc.output().trim(), 8)}`);
    const result = JSON.parse(fs.readFileSync(out, "utf8"));
    const sortedOf = (op) => [...result[op].timingsMs].sort((a, b) => a - b);
    const spread = (sorted) =>
      `${sorted.length} runs: p50 ${percentile(sorted, 50).toFixed(1)} ms, max ${sorted.at(-1).toFixed(1)} ms` +
      (sorted.length < MAIN_THREAD_COUNT ? ` (stopped after ${MAIN_THREAD_MAX_SECONDS} s)` : "");
    const plain = sortedOf("loreMatchPlain");
    const notes = {
      loreMatchOffThread: `${spread(sortedOf("loreMatchOffThread"))}; the longest gap between ticks of a 1 ms timer while matchLoreOffThread() ran, the lorebook sent to the thread each time`,
      loreMatch:
        `${spread(sortedOf("loreMatch"))}; 200 entries × 40 keys of 100 characters, every other entry's keys patterns (${result.loreMatch.keptMean.toFixed(0)} kept within the 3,000-character budget); ` +
        `with every key plain: p95 ${percentile(plain, 95).toFixed(1)} ms`,
      compile: `${spread(sortedOf("compile"))}; ${result.compile.proposalsMean.toFixed(0)} proposals, 200 existing entries checked for staleness`,
      cardCheckOffThread: `${spread(sortedOf("cardCheckOffThread"))}; the longest gap between ticks of a 1 ms timer while readCardOffThread() read the card's file`,
      cardCheck: `${spread(sortedOf("cardCheck"))}; a ${(result.cardCheck.cardBytes / MB).toFixed(2)} MB card, 200 entries × 40 pattern keys read and checked`,
      chatImport: `${spread(sortedOf("chatImport"))}; readChatJsonl() of ${(result.chatImport.chatBytes / MB).toFixed(2)} MB, ${result.chatImport.messages.toLocaleString("en-US")} messages with three swipes each`,
      replyCheck: `${spread(sortedOf("replyCheck"))}; checkReply() of ${result.replyCheck.replyChars.toLocaleString("en-US")} characters against ${result.replyCheck.secrets} secret entries, 5 catchphrases and 3 replies before it`,
    };
    return rows.map((r) => {
      const { id, op, label } = r;
      const sorted = sortedOf(op);
      return row({
        id,
        label,
        value: percentile(sorted, 95),
        unit: "ms",
        budget: budgetOf(r),
        note: notes[op],
        details: { timingsMs: result[op].timingsMs },
      });
    });
  } catch (err) {
    return failed(`error: ${err?.message ?? err}`);
  } finally {
    removeTmp();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * Persona test runs (tests/bench/tests-embedded.ts, in-process on a fresh embedded database, or
 * DATABASE_URL's server): a persona with a voice, a lorebook and 12 suggested probes; p50/p95 of
 * 'Run tests' to the finished run (against BUDGETS.testRunP95Ms), every probe sent to the embedded
 * responder and every verdict recorded. The note says how many of the 12 passed (all, unchanged).
 */
async function measureTestRuns(ctx) {
  const id = "tests.run.p95";
  const label = "Persona test run p95 (12 probes, embedded, in-process)";
  const budget = { op: "<=", value: BUDGETS.testRunP95Ms };
  const runner = tsRunner();
  if (!runner) return [row({ id, label, unit: "ms", budget, note: "error: neither tsx nor vite-node is installed (npm ci)" })];
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "personaforge-bench-tests-"));
  const removeTmp = onCleanup(() => fs.rmSync(tmp, { recursive: true, force: true }));
  try {
    const out = path.join(tmp, "result.json");
    ctx.log(`tests: ${runner.name} tests/bench/tests-embedded.ts, ${TEST_RUN_COUNT} runs after ${TEST_RUN_WARMUP} warm-up`);
    const proc = startChild(
      runner.cmd,
      [
        ...runner.args,
        "tests/bench/tests-embedded.ts",
        "--out",
        out,
        "--count",
        String(TEST_RUN_COUNT),
        "--warmup",
        String(TEST_RUN_WARMUP),
      ],
      { cwd: ROOT, env: { ...process.env, NODE_ENV: "production", DATA_DIR: tmp }, label: "tests-embedded" },
    );
    const { code, signal } = await proc.exited;
    await proc.stop();
    if (code !== 0 || !fs.existsSync(out))
      throw new Error(`tests-embedded.ts failed (${signal ?? `exit ${code}`}): ${tail(proc.output().trim(), 8)}`);
    const result = JSON.parse(fs.readFileSync(out, "utf8"));
    const sorted = [...result.timingsMs].sort((a, b) => a - b);
    const allPassed = result.passed === result.total;
    const edits = (which) => [...(result.editMs?.[which] ?? [])].sort((a, b) => a - b);
    const queuedEdits = edits("queued");
    const plainEdits = edits("plain");
    const editRows =
      queuedEdits.length && plainEdits.length
        ? [
            row({
              id: "tests.edit-queues-run.p95",
              label:
                "What queueing a test run adds to a persona edit (p95 of an edit that queues one − p95 of the same edit without probes)",
              value: Math.round((percentile(queuedEdits, 95) - percentile(plainEdits, 95)) * 100) / 100,
              unit: "ms",
              budget: { op: "<=", value: BUDGETS.editQueuesRunMs },
              note: `${queuedEdits.length} voice edits each, alternately, workers stopped: p50 ${percentile(queuedEdits, 50).toFixed(1)} vs ${percentile(plainEdits, 50).toFixed(1)} ms, p95 ${percentile(queuedEdits, 95).toFixed(1)} vs ${percentile(plainEdits, 95).toFixed(1)} ms (the run and its job written by the database in the edit's transaction)`,
            }),
          ]
        : [];
    const talks = [...(result.conversationMs ?? [])].sort((a, b) => a - b);
    const conversationRows = talks.length
      ? [
          row({
            id: "conversation.embedded24.p95",
            label: "Long-conversation test p95 (24 turns, 4 checkpoints, embedded, in-process)",
            value: Math.round(percentile(talks, 95)),
            unit: "ms",
            budget: { op: "<=", value: BUDGETS.conversationTestP95Ms },
            note: `${talks.length} tests, a seed each; p50 ${percentile(talks, 50).toFixed(0)} ms; ${result.conversationFailures} checkpoint questions failed on the unchanged persona`,
          }),
        ]
      : [];
    return [
      ...editRows,
      ...conversationRows,
      row({
        id: "tests.run.p50",
        label: "Persona test run p50 (12 probes, embedded, in-process)",
        value: percentile(sorted, 50),
        unit: "ms",
      }),
      row({
        id,
        label,
        value: percentile(sorted, 95),
        unit: "ms",
        budget,
        note: `${sorted.length} runs of ${result.probes} probes after ${result.warmup} warm-up; ${result.passed}/${result.total} passed on the unchanged persona`,
        ...(allPassed ? {} : { pass: false }),
      }),
    ];
  } catch (err) {
    return [row({ id, label, unit: "ms", budget, note: `error: ${err?.message ?? err}` })];
  } finally {
    removeTmp();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

const TEST_RUN_HTTP_POLL_MS = 20;

/**
 * Persona test runs over HTTP, as a client of the JSON API does them (docs/api.md, Persona tests),
 * on the bench's server: signIn()'s creator creates a persona (backstory and voice), builds its
 * lorebook (POST …/lorebook/compile, the first 8 proposals posted), POSTs …/probes/suggest and the
 * first 12 suggestions to …/probes; then each run: POST …/probes/run (202 { runId }) and GET
 * …/probes/runs/{runId} every TEST_RUN_HTTP_POLL_MS until it is 'completed', timed from the POST to
 * the answer that says so (so a poll's interval is in the figure). p50/p95 against
 * BUDGETS.testRunHttpP95Ms; a run that fails, or probes that fail on the unchanged persona, fail the row.
 */
async function measureTestRunsHttp(ctx) {
  const id = "tests.http.run.p95";
  const label = "Persona test run p95 (12 probes, embedded, HTTP: POST run → polled GET)";
  const budget = { op: "<=", value: BUDGETS.testRunHttpP95Ms };
  const cookie = await ctx.cookieFor({ auth: true }).catch(() => null);
  if (!cookie) return [row({ id, label, unit: "ms", budget, skipped: AUTH_MISSING })];
  const call = async (method, p, body, expected) => {
    const res = await fetch(`${ctx.baseUrl}${p}`, {
      method,
      headers: { cookie, origin: ctx.baseUrl, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    if (res.status !== expected) throw new Error(`${method} ${p} answered ${res.status}: ${text.slice(0, 200)}`);
    return JSON.parse(text);
  };
  try {
    const persona = await call(
      "POST",
      "/api/personas",
      {
        name: "Kira Moon",
        type: "vtuber",
        gender: "female",
        ageRange: "25-34",
        interests: ["gaming", "music"],
        description: "A late-night streamer.",
        personality: ["Outgoing", "Curious", "Humorous"],
        backstory:
          "Kira grew up in a loud house with her older sister Mina, who taught her to draw on grocery receipts. At sixteen she joined the Starlight Academy art club, where she met her rival Jun Park. She moved away to stream from a tiny studio above a noodle shop.",
        voice: { greeting: "Heya, chat! Grab a blanket.", catchphrases: ["Stay cozy", "Let's gooo"] },
      },
      201,
    );
    const base = `/api/personas/${persona.id}`;
    const { proposals } = await call("POST", `${base}/lorebook/compile`, undefined, 200);
    for (const { name, keys, content, kind } of proposals.slice(0, 8))
      await call("POST", `${base}/lorebook/entries`, { name, keys, content, kind }, 201);
    const { probes: suggested } = await call("POST", `${base}/probes/suggest`, undefined, 200);
    for (const { factExpected: _pinned, ...probe } of suggested.slice(0, 12)) await call("POST", `${base}/probes`, probe, 201);
    ctx.log(
      `tests over HTTP: ${TEST_RUN_COUNT} runs of ${Math.min(12, suggested.length)} probes after ${TEST_RUN_WARMUP} warm-up, polled every ${TEST_RUN_HTTP_POLL_MS} ms`,
    );

    const oneRun = async () => {
      // 'Run tests' twice within 2 s is one run (a double click): each measured run starts after that, untimed.
      await sleep(2_100);
      const started = performance.now();
      const { runId } = await call("POST", `${base}/probes/run`, undefined, 202);
      for (;;) {
        const run = await call("GET", `${base}/probes/runs/${runId}`, undefined, 200);
        if (run.status === "completed") return { ms: performance.now() - started, run };
        if (run.status === "failed") throw new Error(`run ${runId} failed: ${run.error}`);
        if (performance.now() - started > 30_000) throw new Error(`run ${runId} still ${run.status} after 30 s`);
        await sleep(TEST_RUN_HTTP_POLL_MS);
      }
    };
    for (let i = 0; i < TEST_RUN_WARMUP; i++) await oneRun();
    const timings = [];
    let last;
    for (let i = 0; i < TEST_RUN_COUNT; i++) {
      const { ms, run } = await oneRun();
      timings.push(ms);
      last = run;
    }
    const sorted = timings.sort((a, b) => a - b);
    const allPassed = last.passed === last.total;
    return [
      row({
        id: "tests.http.run.p50",
        label: "Persona test run p50 (12 probes, embedded, HTTP: POST run → polled GET)",
        value: percentile(sorted, 50),
        unit: "ms",
      }),
      row({
        id,
        label,
        value: percentile(sorted, 95),
        unit: "ms",
        budget,
        note: `${sorted.length} runs of ${last.total} probes one at a time after ${TEST_RUN_WARMUP} warm-up, GET every ${TEST_RUN_HTTP_POLL_MS} ms; ${last.passed}/${last.total} passed on the unchanged persona`,
        ...(allPassed ? {} : { pass: false }),
      }),
    ];
  } catch (err) {
    return [row({ id, label, unit: "ms", budget, note: `error: ${err?.message ?? err}` })];
  }
}

/** `--only tests`: the in-process rows, then the same run over HTTP. */
async function measurePersonaTests(ctx) {
  return [...(await measureTestRuns(ctx)), ...(await measureTestRunsHttp(ctx))];
}

/**
 * Chat replies: the embedded responder in-process (tests/bench/chat-embedded.ts, p50/p95
 * against BUDGETS.chatP95Ms), then POST /api/personas/{id}/chat with Accept: text/event-stream
 * as the seeded 10-persona creator on its active persona, one request at a time: time to the
 * first token (against BUDGETS.latencyP95Ms) and to the last (for information: the embedded
 * responder sends a live reply a word at a time at a reading pace).
 */
async function measureChatReplies(ctx) {
  const rows = [];
  const runner = tsRunner();
  try {
    if (!runner) throw new Error("neither node_modules/.bin/tsx nor node_modules/.bin/vite-node is installed (npm ci)");
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "personaforge-bench-chat-"));
    const removeTmp = onCleanup(() => fs.rmSync(tmp, { recursive: true, force: true }));
    try {
      const out = path.join(tmp, "result.json");
      ctx.log(`chat: ${runner.name} tests/bench/chat-embedded.ts, ${CHAT_COUNT} replies after ${CHAT_WARMUP} warm-up`);
      const proc = startChild(
        runner.cmd,
        [...runner.args, "tests/bench/chat-embedded.ts", "--out", out, "--count", String(CHAT_COUNT), "--warmup", String(CHAT_WARMUP)],
        {
          cwd: ROOT,
          env: { ...process.env, NODE_ENV: "production" },
          label: "chat-embedded",
        },
      );
      const { code, signal } = await proc.exited;
      await proc.stop();
      if (code !== 0 || !fs.existsSync(out))
        throw new Error(`chat-embedded.ts failed (${signal ?? `exit ${code}`}): ${tail(proc.output().trim(), 8)}`);
      const result = JSON.parse(fs.readFileSync(out, "utf8"));
      const sorted = [...result.timingsMs].sort((a, b) => a - b);
      const empty = result.chars.filter((c) => c === 0).length;
      rows.push(row({ id: "chat.embedded.p50", label: "Chat reply p50 embedded (in-process)", value: percentile(sorted, 50), unit: "ms" }));
      rows.push(
        row({
          id: "chat.embedded.p95",
          label: "Chat reply p95 embedded (in-process)",
          value: percentile(sorted, 95),
          unit: "ms",
          budget: { op: "<=", value: BUDGETS.chatP95Ms },
          note: `${sorted.length} replies, each with a full 20-message window, after ${result.warmup} warm-up${empty ? `, ${empty} empty replies` : ""}`,
          ...(empty ? { pass: false } : {}),
        }),
      );
    } finally {
      removeTmp();
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  } catch (err) {
    rows.push(
      row({
        id: "chat.embedded.p95",
        label: "Chat reply p95 embedded (in-process)",
        unit: "ms",
        budget: { op: "<=", value: BUDGETS.chatP95Ms },
        note: `error: ${err?.message ?? err}`,
      }),
    );
  }

  const page = { path: "/persona/{id}?tab=chat", auth: true, creator: "small" };
  const ttftBudget = { op: "<=", value: BUDGETS.latencyP95Ms };
  let resolved;
  try {
    resolved = resolvePagePath(ctx, page);
  } catch (err) {
    resolved = { skip: `error: ${err?.message ?? err}` };
  }
  const cookie = resolved.skip ? null : await ctx.cookieFor(page);
  if (resolved.skip || !cookie) {
    const skipped = resolved.skip ?? AUTH_MISSING;
    rows.push(
      row({ id: "chat.http.first-token.p95", label: "Chat first token p95 (HTTP, streamed)", unit: "ms", budget: ttftBudget, skipped }),
    );
    return rows;
  }
  const id = new URL(resolved.path, ctx.baseUrl).pathname.split("/").at(-1);
  const url = `${ctx.baseUrl}/api/personas/${id}/chat`;
  const questions = ["Hi!", "Where are you from?", "What do you do?", "What are your hobbies?", "What's your motto?"];
  const first = [];
  const last = [];
  const failures = [];
  for (let i = 0; i <= CHAT_HTTP_COUNT; i++) {
    const started = performance.now();
    let firstAt = null;
    try {
      const res = await fetch(url, {
        method: "POST",
        headers: { cookie, origin: ctx.baseUrl, accept: "text/event-stream", "content-type": "application/json" },
        body: JSON.stringify({ message: questions[i % questions.length] }),
        signal: AbortSignal.timeout(15_000),
      });
      if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
      const decoder = new TextDecoder();
      let text = "";
      for await (const chunk of res.body) {
        text += decoder.decode(chunk, { stream: true });
        if (firstAt === null && text.includes("event: token")) firstAt = performance.now();
      }
      if (!text.includes("event: done")) throw new Error("no done event");
      if (i === 0) continue; // warm-up
      first.push(firstAt - started);
      last.push(performance.now() - started);
    } catch (err) {
      failures.push(`#${i}: ${err?.message ?? err}`);
    }
  }
  const fail = failures.length ? { pass: false } : {};
  const note = `${first.length} replies one at a time as the 10-persona creator${failures.length ? `, failed: ${failures.slice(0, 3).join("; ")}` : ""}`;
  const firstSorted = first.sort((a, b) => a - b);
  const lastSorted = last.sort((a, b) => a - b);
  rows.push(
    row({
      id: "chat.http.first-token.p50",
      label: "Chat first token p50 (HTTP, streamed)",
      value: firstSorted.length ? percentile(firstSorted, 50) : null,
      unit: "ms",
      note,
      ...fail,
    }),
  );
  rows.push(
    row({
      id: "chat.http.first-token.p95",
      label: "Chat first token p95 (HTTP, streamed)",
      value: firstSorted.length ? percentile(firstSorted, 95) : null,
      unit: "ms",
      budget: ttftBudget,
      note,
      ...fail,
    }),
  );
  const paced = "the embedded responder sends a live reply a word at a time (15 ms a word)";
  rows.push(
    row({
      id: "chat.http.last-token.p50",
      label: "Chat last token p50 (HTTP, streamed)",
      value: lastSorted.length ? percentile(lastSorted, 50) : null,
      unit: "ms",
      note: paced,
      ...fail,
    }),
  );
  rows.push(
    row({
      id: "chat.http.last-token.p95",
      label: "Chat last token p95 (HTTP, streamed)",
      value: lastSorted.length ? percentile(lastSorted, 95) : null,
      unit: "ms",
      note: paced,
      ...fail,
    }),
  );
  return rows;
}

// ---------------------------------------------------------------------------
// 5. Persona library at scale (an EXTRA_MEASUREMENTS entry; seeding runs before the server)
// ---------------------------------------------------------------------------

const LIBRARY_SEED_TIMEOUT_MS = 180_000;

/**
 * startServer's beforeStart: runs tests/bench/seed-library.ts on the server's DATA_DIR while
 * nothing holds it (the script opens, migrates, seeds and closes it). Returns ctx.library:
 * { password, creators: { key: { email, personas, notArchived, search… } } }, or { error } /
 * { skipped } (never throws: the other groups still run).
 */
async function seedLibrary(log, dataDir, only = null) {
  if (process.env.SUPABASE_URL) {
    return {
      skipped:
        "the server runs on Supabase: the library creators are seeded through the embedded sign-up, on the embedded database or DATABASE_URL",
    };
  }
  const runner = tsRunner();
  if (!runner) return { error: "seeding needs node_modules/.bin/tsx or vite-node (npm ci)" };
  const script = "tests/bench/seed-library.ts";
  const specs = Object.entries(LIBRARY.creators)
    .filter(([key]) => !only || only.includes(key))
    .map(([key, c]) => `${key}:${c.count}:${c.plan}`);
  const history =
    !only || only.includes(HISTORY.creator) ? ["--history", `${HISTORY.creator}:${HISTORY.versions}:${HISTORY.backstoryChars}`] : [];
  const password = `Bench-${randomBytes(12).toString("base64url")}`;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "personaforge-bench-seed-"));
  const removeTmp = onCleanup(() => fs.rmSync(tmp, { recursive: true, force: true }));
  try {
    const out = path.join(tmp, "seed.json");
    log(`library: ${runner.name} ${script}: creators ${specs.join(", ")} (key:personas:plan) into DATA_DIR`);
    const proc = startChild(runner.cmd, [...runner.args, script, "--out", out, ...specs.flatMap((c) => ["--creator", c]), ...history], {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: "production", DATA_DIR: dataDir, BENCH_SEED_PASSWORD: password },
      label: "seed-library",
    });
    const timer = setTimeout(() => proc.stop(), LIBRARY_SEED_TIMEOUT_MS);
    const { code, signal } = await proc.exited;
    clearTimeout(timer);
    await proc.stop();
    if (code !== 0 || !fs.existsSync(out))
      throw new Error(`${script} failed (${signal ?? `exit ${code}`}): ${tail(proc.output().trim(), 8)}`);
    const seeded = JSON.parse(fs.readFileSync(out, "utf8"));
    log(`library: seeded in ${(seeded.totalMs / 1000).toFixed(1)} s (of which migrations ${(seeded.migrateMs / 1000).toFixed(1)} s)`);
    return { ...seeded, password };
  } catch (err) {
    log(`library: seeding failed: ${err?.message ?? err}`);
    return { error: `seeding failed: ${err?.message ?? err}` };
  } finally {
    removeTmp();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** The single-fetch data URL a client-side navigation to the library requests: this route's loader only. */
function libraryDataPath(q) {
  return `${LIBRARY.path}.data?${new URLSearchParams({ ...(q ? { q } : {}), _routes: LIBRARY.routeId })}`;
}

/** GETs a library data URL once: 200, and the loader's page decoded (turbo-stream, as the browser does). */
async function fetchLibraryData(ctx, dataPath, cookie) {
  const res = await ctx.fetchPage(dataPath, { cookie });
  const body = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200) {
    throw new Error(`${dataPath} answered ${res.status}${res.status === 202 ? " (a single-fetch redirect: not signed in?)" : ""}`);
  }
  let decode;
  try {
    ({ decode } = await import("turbo-stream")); // Remix's own dependency
  } catch {
    return { bytes: body.length, data: null };
  }
  const decoded = await decode(new Response(body).body);
  await decoded.done;
  const data = decoded.value?.[LIBRARY.routeId]?.data;
  if (!data || !Array.isArray(data.personas)) throw new Error(`${dataPath}: no ${LIBRARY.routeId} loader data in the answer`);
  return { bytes: body.length, data };
}

/**
 * /my-personas loader p50/p95 (autocannon, LIBRARY.connections for LIBRARY.duration s, against
 * BUDGETS.latencyP95Ms like GET /dashboard) for the 10-persona and the 2,000-persona creator,
 * the latter also with a search matching a few; then p95(2,000) ÷ p95(10) against
 * BUDGETS.libraryP95Ratio. Each data URL is checked first: 200 with the creator's session, and
 * the decoded page lists what the seed says it should.
 */
async function measureLibraryScaling(ctx) {
  const lib = ctx.library;
  const rows = [];
  const fmtCount = (n) => n.toLocaleString("en-US");
  // The library's own creators (the history creator has one persona and its own rows).
  const scaling = Object.entries(LIBRARY.creators).filter(([key]) => key !== HISTORY.creator);
  const cases = scaling.flatMap(([key, c]) => {
    const base = { key, label: `loader, ${c.count} personas`, q: null }; // no digit grouping: it goes into the row id
    // The biggest library is also searched (the seed puts the search term in a few names).
    return c.count === Math.max(...scaling.map(([, x]) => x.count))
      ? [base, { key, label: `${base.label}, search`, q: lib?.creators?.[key]?.search?.q ?? "zephyr" }]
      : [base];
  });
  const p95ByCase = new Map();
  for (const c of cases) {
    if (aborting) break;
    const dataPath = libraryDataPath(c.q);
    const target = {
      path: dataPath,
      displayPath: LIBRARY.path,
      label: c.label,
      auth: true,
      connections: LIBRARY.connections,
      duration: LIBRARY.duration,
      warmup: LIBRARY.warmup,
      budgetP95Ms: BUDGETS.latencyP95Ms,
    };
    const { ids, labels } = latencyNames(target);
    const budget = { op: "<=", value: BUDGETS.latencyP95Ms };
    const creator = lib?.creators?.[c.key];
    if (!creator) {
      const reason = lib?.error ? { note: `error: ${lib.error}` } : { skipped: lib?.skipped ?? "library creators not seeded" };
      rows.push(row({ id: ids.p50, label: labels.p50, unit: "ms", ...reason }));
      rows.push(row({ id: ids.p95, label: labels.p95, unit: "ms", budget, ...reason }));
      continue;
    }
    let checked;
    try {
      const cookie = await creatorCookie(ctx, c.key);
      const { bytes, data } = await fetchLibraryData(ctx, dataPath, cookie);
      const expected = c.q ? creator.search.matchesNotArchived : creator.notArchived;
      if (data && data.total !== expected)
        throw new Error(`${dataPath}: the loader lists ${data.total} personas, the seed expects ${expected}`);
      if (data && (data.personas.length > expected || (expected > 0 && data.personas.length === 0))) {
        throw new Error(`${dataPath}: ${data.personas.length} cards on page 1 of ${expected}`);
      }
      checked = { cookie, bytes, data };
    } catch (err) {
      rows.push(row({ id: ids.p95, label: labels.p95, unit: "ms", budget, note: `error: ${err?.message ?? err}` }));
      continue;
    }
    const latencyRows = await measureLatencyTarget(ctx, { ...target, cookie: checked.cookie });
    const p95Row = latencyRows.find((r) => r.id === ids.p95);
    if (p95Row?.value != null) {
      const { data } = checked;
      const listed = data
        ? `${fmtCount(data.total)} listed, ${data.personas.length} on page 1 (${data.query.sort})`
        : "answer not decoded (turbo-stream not importable)";
      p95Row.note += `, ${fmtCount(creator.personas)} personas (${creator.plan}): ${c.q ? `q=${c.q}: ` : ""}${listed}; GET ${dataPath} (single fetch: this loader only), ${(checked.bytes / KB).toFixed(1)} KB${c.q ? "; repeat views: the search's page of cards is kept until the creator's personas change (decision 031)" : "; repeat views: the page of cards is kept until the creator's personas change (decision 023)"}`;
      p95Row.details = {
        ...p95Row.details,
        library: {
          dataUrl: dataPath,
          creatorPersonas: creator.personas,
          plan: creator.plan,
          q: c.q,
          listed: data?.total ?? null,
          pageItems: data?.personas.length ?? null,
          bytes: checked.bytes,
        },
      };
      p95ByCase.set(c, p95Row);
    }
    rows.push(...latencyRows);
  }

  // The JSON API's biggest page: 100 full personas (backstories included) of the largest library.
  const apiKey = scaling.reduce((a, b) => (b[1].count > a[1].count ? b : a))[0];
  const apiTarget = {
    path: `/api/personas?pageSize=${API_PAGE_SIZE}`,
    label: `API list, ${API_PAGE_SIZE} full personas of ${LIBRARY.creators[apiKey].count}`,
    auth: true,
    connections: LIBRARY.connections,
    duration: LIBRARY.duration,
    warmup: LIBRARY.warmup,
    budgetP95Ms: BUDGETS.apiListP95Ms,
  };
  if (!aborting && lib?.creators?.[apiKey]) {
    try {
      const cookie = await creatorCookie(ctx, apiKey);
      const res = await ctx.fetchPage(apiTarget.path, { cookie });
      const items = res.status === 200 ? await res.json() : null;
      if (!Array.isArray(items) || items.length !== API_PAGE_SIZE || typeof items[0]?.backstory !== "string") {
        throw new Error(`${apiTarget.path} answered ${res.status} with ${Array.isArray(items) ? items.length : "no"} personas`);
      }
      const apiRows = await measureLatencyTarget(ctx, { ...apiTarget, cookie });
      const p95Row = apiRows.find((r) => r.id === latencyNames(apiTarget).ids.p95);
      if (p95Row?.value != null) p95Row.note += `; ${items.length} personas with their backstories, answered unchanged`;
      rows.push(...apiRows);
    } catch (err) {
      const { ids, labels } = latencyNames(apiTarget);
      rows.push(
        row({
          id: ids.p95,
          label: labels.p95,
          unit: "ms",
          budget: { op: "<=", value: BUDGETS.apiListP95Ms },
          note: `error: ${err?.message ?? err}`,
        }),
      );
    }
  }

  // p95 with the most personas ÷ p95 with the fewest, default list both.
  const counts = scaling.map(([, x]) => x.count);
  const [few, many] = [Math.min(...counts), Math.max(...counts)];
  const ratioBudget = { op: "<=", value: BUDGETS.libraryP95Ratio };
  const ratioRow = {
    id: `latency.p95-ratio.${LIBRARY.path}.${many}-vs-${few}`,
    label: `Loader p95 ratio ${LIBRARY.path} ${fmtCount(many)} ÷ ${fmtCount(few)} personas`,
    unit: "×",
    budget: ratioBudget,
  };
  const pick = (count) => [...p95ByCase].find(([c]) => !c.q && LIBRARY.creators[c.key].count === count)?.[1];
  const [low, high] = [pick(few), pick(many)];
  if (low && high) {
    const ratio = high.value / low.value;
    rows.push(
      row({
        ...ratioRow,
        value: Math.round(ratio * 100) / 100,
        note: `p95 ${high.value.toFixed(1)} ms ÷ ${low.value.toFixed(1)} ms; budget ≤ ${BUDGETS.libraryP95Ratio}: the library filters, counts and pages in the database, so ${many / few}× the personas should cost about the same per request (~1); both default lists are kept after their first request (decision 020), so the search row above is the one that reads ${fmtCount(many)} personas every time`,
        details: { p95ManyMs: high.value, p95FewMs: low.value, ratio, many, few },
      }),
    );
  } else if (!lib?.creators) {
    rows.push(
      row({ ...ratioRow, ...(lib?.error ? { note: `error: ${lib.error}` } : { skipped: lib?.skipped ?? "library creators not seeded" }) }),
    );
  } else {
    rows.push(row({ ...ratioRow, note: "needs both p95 rows above" }));
  }
  return rows;
}

/**
 * Persona history (HISTORY): p50/p95 of the history page, the default compare and version 1
 * against the latest, as the `history` creator; each page is checked first (200, and the
 * text it must show). Then the storage per version the seed measured, against
 * BUDGETS.historyBytesPerVersion.
 */
async function measureHistory(ctx) {
  const lib = ctx.library;
  const creator = lib?.creators?.[HISTORY.creator];
  const seeded = creator?.history;
  const budget = { op: "<=", value: BUDGETS.latencyP95Ms };
  const storageRow = {
    id: "history.storage.bytes-per-version",
    label: `Storage per version (persona_versions, ${HISTORY.versions} versions, ${HISTORY.backstoryChars.toLocaleString("en-US")}-char backstory)`,
    unit: "bytes",
    budget: { op: "<=", value: BUDGETS.historyBytesPerVersion },
  };
  const cases = [
    { suffix: "history", label: `history page, ${HISTORY.versions} versions`, query: "", expect: `Version ${HISTORY.versions}` },
    {
      suffix: "history/compare",
      label: "compare, previous and current",
      query: "",
      expect: `Compare versions ${HISTORY.versions - 1} and ${HISTORY.versions}`,
    },
    {
      suffix: "history/compare",
      label: `compare, 1 and ${HISTORY.versions}`,
      query: `?from=1&to=${HISTORY.versions}`,
      expect: `Compare versions 1 and ${HISTORY.versions}`,
    },
  ];
  const rows = [];
  if (!seeded) {
    const reason = lib?.error ? { note: `error: ${lib.error}` } : { skipped: lib?.skipped ?? "history creator not seeded" };
    for (const c of cases) {
      const { ids, labels } = latencyNames({ path: `/persona/{id}/${c.suffix}`, label: c.label });
      rows.push(row({ id: ids.p95, label: labels.p95, unit: "ms", budget, ...reason }));
    }
    rows.push(row({ ...storageRow, ...reason }));
    return rows;
  }
  const pathOf = (c) => `/persona/${seeded.personaId}/${c.suffix}${c.query}`;
  const historyCookie = await creatorCookie(ctx, HISTORY.creator).catch(() => null);
  if (historyCookie)
    await warmUp(
      ctx,
      cases.map((c) => ({ path: pathOf(c), cookie: historyCookie })),
      HISTORY,
    );
  for (const c of cases) {
    if (aborting) break;
    const path = pathOf(c);
    const target = {
      path,
      displayPath: `/persona/{id}/${c.suffix}`,
      label: c.label,
      auth: true,
      connections: HISTORY.connections,
      duration: HISTORY.duration,
      warmup: HISTORY.warmup,
      budgetP95Ms: BUDGETS.latencyP95Ms,
    };
    const { ids, labels } = latencyNames(target);
    let cookie;
    let bytes;
    try {
      cookie = await creatorCookie(ctx, HISTORY.creator);
      const res = await ctx.fetchPage(path, { cookie });
      const html = await res.text();
      if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
      if (!html.includes(c.expect)) throw new Error(`${path}: the page does not show "${c.expect}"`);
      bytes = Buffer.byteLength(html);
    } catch (err) {
      rows.push(row({ id: ids.p95, label: labels.p95, unit: "ms", budget, note: `error: ${err?.message ?? err}` }));
      continue;
    }
    const latencyRows = await measureLatencyTarget(ctx, { ...target, cookie });
    const p95Row = latencyRows.find((r) => r.id === ids.p95);
    if (p95Row?.value != null) {
      p95Row.note += `; GET ${path} (full HTML, ${(bytes / KB).toFixed(1)} KB), after the warm-up of the three history pages (${HISTORY.warmUpRounds} × ${HISTORY.warmUpSeconds} s each); repeat views: ${KEPT_NOTE}`;
      p95Row.details = {
        ...p95Row.details,
        history: { path, versions: seeded.versions, backstoryChars: seeded.backstoryChars, htmlBytes: bytes },
      };
    }
    rows.push(...latencyRows);
    // The same page rendered on every view (a new URL each request): a first view after a change.
    const rendered = { ...target, label: `${c.label}, rendered each view`, budgetP95Ms: undefined, distinct: true };
    rows.push(...(await measureLatencyTarget(ctx, { ...rendered, cookie })));
  }
  const st = seeded.storage;
  rows.push(
    row({
      ...storageRow,
      value: st.bytesPerVersion,
      note: `this persona's ${st.personaVersions} version rows take ${(st.personaRowBytes / KB).toFixed(0)} KB as stored; the whole table, with TOAST and indexes, ${(st.tableBytes / KB).toFixed(0)} KB for the ${st.versionsInTable} versions of all personas (${st.tableBytesPerVersion} bytes a version); ${st.backstoriesStored} backstories stored (${(st.backstoryBytesStored / KB).toFixed(0)} KB compressed), the other versions point at them; a full copy each would be ~${((HISTORY.versions * HISTORY.backstoryChars) / KB / KB).toFixed(1)} MB of backstory alone`,
      details: { ...st, seedMs: seeded.seedMs },
    }),
  );
  return rows;
}

// ---------------------------------------------------------------------------
// 5b. Signed-in pages against a public render (an EXTRA_MEASUREMENTS entry)
// ---------------------------------------------------------------------------

/** SIGNED_IN: every page's latency, throughput, CPU per request and its throughput ÷ the uncached public render's. */
async function measureSignedInPages(ctx) {
  const lib = ctx.library;
  const rows = [];
  const run = { connections: SIGNED_IN.connections, duration: SIGNED_IN.duration, warmup: SIGNED_IN.warmup };
  const publicTarget = (when) => ({ path: SIGNED_IN.publicPath, label: `uncached public render, ${when}`, distinct: true, ...run });

  // A page's path for its seeded creator: their persona's id, their search.
  const pathFor = (page, creator) =>
    page.path
      .replace("{id}", encodeURIComponent(creator.activePersonaId ?? ""))
      .replace("{search}", encodeURIComponent(creator.search?.q ?? "zephyr"));
  const warmUpTargets = [{ path: SIGNED_IN.publicPath, cookie: null }];
  for (const page of SIGNED_IN.pages) {
    const creator = lib?.creators?.[page.creator];
    if (!creator) continue;
    const cookie = await creatorCookie(ctx, page.creator).catch(() => null);
    if (cookie) warmUpTargets.push({ path: pathFor(page, creator), cookie });
  }
  await warmUp(ctx, warmUpTargets, SIGNED_IN);
  const first = await measureLatencyTarget(ctx, publicTarget("before"));
  rows.push(...first);
  for (const page of SIGNED_IN.pages) {
    if (aborting) break;
    const label = `signed in${page.label ? `, ${page.label}` : ""}`;
    const target = {
      path: page.path,
      displayPath: page.path.replace(/\?.*$/, ""),
      label,
      auth: true,
      budgetP95Ms: BUDGETS.latencyP95Ms,
      ...run,
    };
    const { ids, labels } = latencyNames(target);
    const creator = lib?.creators?.[page.creator];
    if (!creator) {
      const reason = lib?.error ? { note: `error: ${lib.error}` } : { skipped: lib?.skipped ?? "library creators not seeded" };
      rows.push(row({ id: ids.p95, label: labels.p95, unit: "ms", budget: { op: "<=", value: BUDGETS.latencyP95Ms }, ...reason }));
      continue;
    }
    let url;
    let cookie;
    try {
      cookie = await creatorCookie(ctx, page.creator);
      url = pathFor(page, creator);
      const res = await ctx.fetchPage(url, { cookie });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}`);
    } catch (err) {
      rows.push(
        row({
          id: ids.p95,
          label: labels.p95,
          unit: "ms",
          budget: { op: "<=", value: BUDGETS.latencyP95Ms },
          note: `error: ${err?.message ?? err}`,
        }),
      );
      continue;
    }
    const pageRows = await measureLatencyTarget(ctx, { ...target, path: url, cookie });
    const p95Row = pageRows.find((r) => r.id === ids.p95);
    if (p95Row?.value != null) {
      p95Row.note += `; as the ${creator.personas.toLocaleString("en-US")}-persona creator, full HTML of ${url}, after the warm-up of every page (${SIGNED_IN.warmUpRounds} × ${SIGNED_IN.warmUpSeconds} s each)`;
      p95Row.note += `; repeat views: ${KEPT_NOTE}`;
    }
    rows.push(...pageRows);
    // The same page rendered on every view: what a first view after a change costs.
    const rendered = { ...target, label: `${label}, rendered each view`, budgetP95Ms: undefined, distinct: true };
    const renderedRows = await measureLatencyTarget(ctx, { ...rendered, path: url, cookie });
    const renderedP95 = renderedRows.find((r) => r.id === latencyNames(rendered).ids.p95);
    if (renderedP95?.value != null) renderedP95.note += `; a new URL each request (…view=<n>), so no kept document answers it`;
    rows.push(...renderedRows);
  }
  const last = await measureLatencyTarget(ctx, publicTarget("after"));
  rows.push(...last);
  return rows;
}

// ---------------------------------------------------------------------------
// 6. Stripe webhooks (an EXTRA_MEASUREMENTS entry)
// ---------------------------------------------------------------------------

/** Billing for the bench's own server: the fake Stripe API's keys (never real ones). */
export const STRIPE_BENCH = {
  STRIPE_SECRET_KEY: "sk_test_personaforge_bench",
  STRIPE_WEBHOOK_SECRET: "whsec_personaforge_bench_0123456789abcdef",
  STRIPE_PRICE_ID: "price_personaforge_premium_bench",
  events: 100,
  warmup: 10,
};
const FAKE_STRIPE_READY_TIMEOUT_MS = 30_000;

/**
 * Starts tests/support/fake-stripe-server.ts (with tsRunner()) on a free port before the
 * bench's server, and returns the STRIPE_* environment the server gets; { skipped } / { error }
 * when it cannot (the webhook rows then say why, the pages are measured without billing).
 */
async function startFakeStripe(log) {
  const runner = tsRunner();
  if (!runner) return { error: "the fake Stripe needs node_modules/.bin/tsx or vite-node (npm ci)" };
  const port = await findFreePort(Number(process.env.BENCH_STRIPE_PORT ?? PREFERRED_PORT + 100));
  const { events: _e, warmup: _w, ...keys } = STRIPE_BENCH;
  const apiUrl = `http://127.0.0.1:${port}`;
  const proc = startChild(runner.cmd, [...runner.args, "tests/support/fake-stripe-server.ts"], {
    cwd: ROOT,
    env: { ...process.env, ...keys, FAKE_STRIPE_PORT: String(port) },
    label: "fake-stripe",
  });
  const t0 = Date.now();
  while (Date.now() - t0 < FAKE_STRIPE_READY_TIMEOUT_MS) {
    if (!proc.alive) return { error: `the fake Stripe exited: ${tail(proc.output().trim(), 5)}` };
    const ok = await fetch(`${apiUrl}/health`, { signal: AbortSignal.timeout(2000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) {
      log(`stripe: fake Stripe API on ${apiUrl} (tests/support/fake-stripe-server.ts)`);
      return { apiUrl, env: { ...keys, STRIPE_API_URL: apiUrl }, proc };
    }
    await sleep(200);
  }
  await proc.stop();
  return { error: `the fake Stripe did not answer within ${FAKE_STRIPE_READY_TIMEOUT_MS / 1000} s` };
}

/**
 * POST /api/webhooks/stripe, one signed event at a time, p50/p95 against BUDGETS.latencyP95Ms.
 * A fresh creator opens Checkout (the app creates their Stripe customer), a subscription is made
 * on the fake Stripe, then `customer.subscription.updated` and `invoice.paid` events about it
 * (each with its own id, signed with the SDK's generateTestHeaderString) are delivered in turn:
 * each is verified, the subscription read back from the fake Stripe and the plan written. Every
 * answer must be 200 'applied'; a replay of the first must be 'duplicate'.
 */
async function measureStripeWebhooks(ctx) {
  const ids = { p50: "webhook.stripe.p50", p95: "webhook.stripe.p95" };
  const labels = { p50: "Stripe webhook p50 (signed, sequential)", p95: "Stripe webhook p95 (signed, sequential)" };
  const budget = { op: "<=", value: BUDGETS.latencyP95Ms };
  const stripe = ctx.stripe;
  if (!stripe?.apiUrl) {
    const reason = stripe?.error ? { note: `error: ${stripe.error}` } : { skipped: stripe?.skipped ?? "no fake Stripe" };
    return [
      row({ id: ids.p50, label: labels.p50, unit: "ms", ...reason }),
      row({ id: ids.p95, label: labels.p95, unit: "ms", budget, ...reason }),
    ];
  }
  try {
    const { default: Stripe } = await import("stripe");
    const cookie = await signIn(ctx);
    if (!cookie) throw new Error("no signed-in creator");
    const checkout = await fetch(`${ctx.baseUrl}/api/create-checkout-session`, {
      method: "POST",
      headers: { cookie, origin: ctx.baseUrl },
    });
    if (checkout.status !== 200) throw new Error(`create-checkout-session answered ${checkout.status}: ${await checkout.text()}`);
    const sessionId = new URL((await checkout.json()).url).pathname.split("/").pop();
    const stripeApi = async (method, p, params) => {
      const res = await fetch(`${stripe.apiUrl}${p}`, {
        method,
        headers: {
          authorization: `Bearer ${STRIPE_BENCH.STRIPE_SECRET_KEY}`,
          ...(params ? { "content-type": "application/x-www-form-urlencoded" } : {}),
        },
        body: params ? new URLSearchParams(params) : undefined,
      });
      if (!res.ok) throw new Error(`fake Stripe ${method} ${p} answered ${res.status}`);
      return res.json();
    };
    const session = await stripeApi("GET", `/v1/checkout/sessions/${sessionId}`);
    const subscription = await stripeApi("POST", "/v1/subscriptions", {
      customer: session.customer,
      "items[0][price]": STRIPE_BENCH.STRIPE_PRICE_ID,
      "metadata[user_id]": session.client_reference_id,
    });
    const event = (i) => {
      const type = i % 2 ? "invoice.paid" : "customer.subscription.updated";
      const object =
        type === "invoice.paid"
          ? {
              id: `in_bench_${i}`,
              object: "invoice",
              customer: session.customer,
              status: "paid",
              parent: { type: "subscription_details", subscription_details: { subscription: subscription.id } },
            }
          : subscription;
      const payload = JSON.stringify({
        id: `evt_bench_${randomBytes(8).toString("hex")}_${i}`,
        object: "event",
        api_version: Stripe.API_VERSION,
        created: Math.floor(Date.now() / 1000),
        type,
        data: { object },
        livemode: false,
      });
      return { payload, header: Stripe.webhooks.generateTestHeaderString({ payload, secret: STRIPE_BENCH.STRIPE_WEBHOOK_SECRET }) };
    };
    const deliver = async ({ payload, header }) => {
      const t0 = performance.now();
      const res = await fetch(`${ctx.baseUrl}/api/webhooks/stripe`, {
        method: "POST",
        headers: { "content-type": "application/json", "stripe-signature": header },
        body: payload,
      });
      const body = await res.json().catch(() => ({}));
      return { ms: performance.now() - t0, status: res.status, outcome: body.outcome };
    };
    const first = event(0);
    const problems = [];
    for (let i = 0; i < STRIPE_BENCH.warmup; i++) {
      const r = await deliver(i === 0 ? first : event(1000 + i));
      if (r.status !== 200 || r.outcome !== "applied") problems.push(`warm-up ${i}: ${r.status} ${r.outcome ?? ""}`.trim());
    }
    const timings = [];
    for (let i = 0; i < STRIPE_BENCH.events && !aborting; i++) {
      const r = await deliver(event(i + 1));
      if (r.status !== 200 || r.outcome !== "applied") problems.push(`event ${i}: ${r.status} ${r.outcome ?? ""}`.trim());
      timings.push(r.ms);
    }
    const replay = await deliver(first);
    if (replay.outcome !== "duplicate") problems.push(`replay answered ${replay.status} ${replay.outcome ?? ""}`.trim());
    const status = await fetch(`${ctx.baseUrl}/api/subscription/status`, { headers: { cookie } }).then((r) => r.json());
    if (status.status !== "active") problems.push(`the creator's plan is ${status.status}, not active`);
    const sorted = timings.sort((a, b) => a - b);
    const bad = problems.length ? { pass: false } : {};
    const note = [
      `${sorted.length} events after ${STRIPE_BENCH.warmup} warm-up; each verified, read back from the fake Stripe, written; replay → ${replay.outcome}`,
      ...problems.slice(0, 3),
    ].join(", ");
    return [
      row({ id: ids.p50, label: labels.p50, value: percentile(sorted, 50), unit: "ms", ...bad }),
      row({
        id: ids.p95,
        label: labels.p95,
        value: percentile(sorted, 95),
        unit: "ms",
        budget,
        note,
        details: { events: sorted.length, maxMs: sorted.at(-1), problems },
        ...bad,
      }),
    ];
  } catch (err) {
    return [row({ id: ids.p95, label: labels.p95, unit: "ms", budget, note: `error: ${err?.message ?? err}` })];
  }
}

/** A server RSS row from processStats() (null: the server does not report it); without budgetMB, for information. */
function rssRow(stats, { id, label, budgetMB, when }) {
  const budget = budgetMB === undefined ? null : { op: "<=", value: budgetMB };
  if (!stats) return row({ id, label, unit: "MB", budget, skipped: "the server does not answer GET /__process (PF_PROCESS_METRICS=1)" });
  const mb = (bytes) => `${(bytes / MB).toFixed(0)} MB`;
  // The embedded database's thread (decisions 012 and 032): open or closed, and its JavaScript heap (RSS counts PGlite's WebAssembly memory too).
  const thread = stats.databaseThread;
  const database = !thread
    ? ""
    : thread.open
      ? `; database thread open: its JS heap ${mb(thread.heapUsedBytes)} of ${mb(thread.heapTotalBytes)}`
      : "; database thread closed (opens on the next statement)";
  return row({
    id,
    label,
    value: Math.round((stats.rssBytes / MB) * 10) / 10,
    unit: "MB",
    budget,
    note: `${when}; main thread JS heap ${mb(stats.heapUsedBytes)} used of ${stats.heapTotalBytes === undefined ? "?" : mb(stats.heapTotalBytes)}, external ${mb(stats.externalBytes)}${database}`,
    details: stats,
  });
}

/** Waits (up to limitMs) until the server says its database thread is closed; the stats then, or null. */
async function statsAfterDatabaseRelease(ctx, limitMs) {
  const t0 = Date.now();
  while (Date.now() - t0 < limitMs && !aborting) {
    const stats = await processStats(ctx);
    if (!stats?.databaseThread) return null;
    if (!stats.databaseThread.open) return { stats, waitedMs: Date.now() - t0 };
    await sleep(1000);
  }
  return null;
}

// ---------------------------------------------------------------------------
// 7. Past one process (--cluster <postgres url>)
// ---------------------------------------------------------------------------

/** The page the cluster mode measures: signed in, the profile and the persona list (as a new creator with a few personas). */
// Runs alternate (1, 2, 1, 2) so that a change in the machine's load shows in both means.
export const CLUSTER = { path: "/dashboard", personas: 3, processes: [1, 2, 1, 2], connections: 10, duration: 8, warmup: 2 };

/**
 * DATABASE_URL names a PostgreSQL server: a database of the bench's own is created there
 * (pf_bench_<pid>) and DATABASE_URL points at it for the seeding and the server; it is dropped
 * when the bench ends. The report's `database` says which mode was measured.
 */
async function onThrowawayDatabase(log) {
  const { default: postgres } = await import("postgres");
  const serverUrl = new URL(process.env.DATABASE_URL);
  const admin = postgres(serverUrl.href, { max: 1, onnotice: () => {} });
  const dbName = `pf_bench_${process.pid}`;
  await admin.unsafe(`create database ${dbName}`);
  onCleanup(async () => {
    await admin.unsafe(`drop database if exists ${dbName} with (force)`).catch(() => {});
    await admin.end({ timeout: 5 });
  });
  const dbUrl = new URL(serverUrl.href);
  dbUrl.pathname = `/${dbName}`;
  process.env.DATABASE_URL = dbUrl.href;
  log(`database: PostgreSQL at ${dbUrl.host}, throwaway database ${dbName}`);
}

/**
 * `--cluster <url>`: creates a throwaway database on that PostgreSQL server, then for 1 and 2
 * processes (WEB_CONCURRENCY), alternately, starts the app on it, signs a creator in (the first
 * run registers it), and measures CLUSTER.path. Reports requests/s of each run, the ratio of the means (≥ BUDGETS.clusterRatio)
 * and p95 for information. The load generator runs on the same machine: on 2 cores it takes a
 * share of the CPU the processes would use.
 */
async function runClusterBench(args) {
  const started = Date.now();
  const log = (msg) => console.log(`[bench ${((Date.now() - started) / 1000).toFixed(0).padStart(3)} s] ${msg}`);
  const { default: postgres } = await import("postgres");
  const admin = postgres(args.cluster, { max: 1, onnotice: () => {} });
  const dbName = `pf_bench_cluster_${process.pid}`;
  const dbUrl = new URL(args.cluster);
  dbUrl.pathname = `/${dbName}`;
  const rows = [];
  try {
    if (args.build) await build(log);
    await admin.unsafe(`create database ${dbName}`);
    onCleanup(async () => {
      await admin.unsafe(`drop database if exists ${dbName} with (force)`).catch(() => {});
      await admin.end({ timeout: 5 });
    });
    const secret = randomBytes(32).toString("hex");
    let account;
    const rps = new Map();
    for (const [run, n] of CLUSTER.processes.entries()) {
      if (aborting) break;
      const { baseUrl, dataDir, server } = await startServer(log, {
        extraEnv: { DATABASE_URL: dbUrl.href, WEB_CONCURRENCY: String(n), SESSION_SECRET: secret },
      });
      const ctx = {
        baseUrl,
        dataDir,
        log,
        args,
        fetchPage: (p, { cookie } = {}) => fetch(`${baseUrl}${p}`, { redirect: "manual", headers: cookie ? { cookie } : {} }),
      };
      ctx.cookieFor = async (page) => (typeof page.cookie === "string" ? page.cookie : null);
      if (!account) {
        const cookie = await signIn(ctx);
        for (let i = 0; i < CLUSTER.personas; i++) {
          const res = await fetch(`${baseUrl}/api/personas`, {
            method: "POST",
            headers: { cookie, origin: baseUrl, "content-type": "application/json" },
            body: JSON.stringify({
              name: `Cluster ${i + 1}`,
              type: "influencer",
              gender: "female",
              ageRange: "25-34",
              interests: ["tech"],
              personality: ["Curious"],
              description: "A persona for the cluster bench.",
            }),
          });
          if (res.status !== 201) throw new Error(`POST /api/personas answered ${res.status}: ${await res.text()}`);
          await res.arrayBuffer();
        }
        account = { cookie };
      }
      const target = {
        path: CLUSTER.path,
        label: `${n} process${n > 1 ? "es" : ""}, PostgreSQL, run ${run + 1}`,
        cookie: account.cookie,
        auth: true,
        connections: CLUSTER.connections,
        duration: CLUSTER.duration,
        warmup: CLUSTER.warmup,
      };
      const measured = await measureLatencyTarget(ctx, target);
      rows.push(...measured.filter((r) => !r.id.startsWith("cpu.")));
      const value = measured.find((r) => r.id === latencyNames(target).ids.rps)?.value;
      if (value != null) rps.set(n, [...(rps.get(n) ?? []), value]);
      await server.stop();
    }
    const mean = (list) => (list?.length ? list.reduce((a, b) => a + b, 0) / list.length : null);
    const [one, two] = [mean(rps.get(1)), mean(rps.get(2))];
    rows.push(
      row({
        id: "cluster.rps-ratio",
        label: `Throughput ${CLUSTER.path}, 2 processes ÷ 1 (PostgreSQL)`,
        value: one && two ? Math.round((two / one) * 100) / 100 : null,
        unit: "×",
        budget: { op: ">=", value: BUDGETS.clusterRatio },
        note:
          one && two
            ? `mean ${two.toFixed(0)} ÷ mean ${one.toFixed(0)} req/s; ${os.cpus().length} CPUs shared with PostgreSQL and the load generator`
            : "needs both runs",
      }),
    );
  } catch (err) {
    rows.push(row({ id: "cluster.error", label: "Cluster bench", note: `error: ${err?.message ?? err}` }));
  }
  printTable(rows);
  const report = {
    timestamp: new Date().toISOString(),
    mode: "cluster",
    cpus: os.cpus().length,
    loadAverage: os.loadavg()[0],
    metrics: Object.fromEntries(rows.map((r) => [r.id, r])),
  };
  fs.mkdirSync(path.dirname(args.out), { recursive: true });
  fs.writeFileSync(args.out, `${JSON.stringify(report, null, 2)}\n`);
  log(`wrote ${path.relative(process.cwd(), args.out) || args.out}`);
  return args.strict && rows.some((r) => r.pass === false) ? 1 : 0;
}

// ---------------------------------------------------------------------------
// 8. Reference images ( an EXTRA_MEASUREMENTS entry, run last: it gives the small
//    creator's persona its images)
// ---------------------------------------------------------------------------

/**
 * measureReferenceImages: (1) embedded generation in-process, p50/p95 of one generation (the
 * primary and the secondary image, each drawn and checked) over `count` varied personas in the
 * five styles (tests/bench/images-embedded.ts), against `generationP95Ms`; (2) the same on the
 * bench's server: POST /api/personas/{id}/generate-images as the small creator, then polling
 * GET /api/personas/{id} until done (for information); (3) that persona's page now showing its
 * reference image: first-load JS and Lighthouse (as the PAGES rows), plus its LCP against
 * `lcpBudgetMs` (simulated mobile).
 */
export const IMAGES = {
  count: 30,
  warmup: 3,
  generationP95Ms: 1000,
  lcpBudgetMs: 2000,
  page: "/persona/{id}",
  scriptTimeoutMs: 180_000,
};

async function runImagesScript(ctx) {
  const runner = tsRunner();
  if (!runner) throw new Error("neither node_modules/.bin/tsx nor node_modules/.bin/vite-node is installed (npm ci)");
  const script = "tests/bench/images-embedded.ts";
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "personaforge-bench-images-"));
  const removeTmp = onCleanup(() => fs.rmSync(tmp, { recursive: true, force: true }));
  try {
    const out = path.join(tmp, "result.json");
    ctx.log(`images: ${runner.name} ${script}, ${IMAGES.count} generations after ${IMAGES.warmup} warm-up`);
    const proc = startChild(
      runner.cmd,
      [...runner.args, script, "--out", out, "--count", String(IMAGES.count), "--warmup", String(IMAGES.warmup)],
      {
        cwd: ROOT,
        env: { ...process.env, NODE_ENV: "production" },
        label: "images-embedded",
      },
    );
    const timer = setTimeout(() => proc.stop(), IMAGES.scriptTimeoutMs);
    const { code, signal } = await proc.exited;
    clearTimeout(timer);
    await proc.stop();
    if (code !== 0 || !fs.existsSync(out))
      throw new Error(`${script} failed (${signal ?? `exit ${code}`}): ${tail(proc.output().trim(), 8)}`);
    return { runner: runner.name, ...JSON.parse(fs.readFileSync(out, "utf8")) };
  } finally {
    removeTmp();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

async function measureReferenceImages(ctx) {
  const rows = [];
  // (1) In-process.
  const ids = { p50: "images.embedded.p50", p95: "images.embedded.p95" };
  const budget = { op: "<=", value: IMAGES.generationP95Ms };
  try {
    const result = await runImagesScript(ctx);
    const sorted = [...result.timingsMs].sort((a, b) => a - b);
    const byStyle = {};
    result.timingsMs.forEach((ms, i) => (byStyle[result.styles[i]] ??= []).push(ms));
    const styleNote = Object.entries(byStyle)
      .map(([s, v]) => `${s} ${(v.reduce((a, b) => a + b, 0) / v.length).toFixed(0)}`)
      .join(", ");
    const kb = result.sizes.reduce((a, b) => a + b, 0) / result.sizes.length / KB;
    rows.push(
      row({
        id: ids.p50,
        label: "Reference images p50 embedded (both images, in-process)",
        value: percentile(sorted, 50),
        unit: "ms",
        note: `mean ms by style: ${styleNote}`,
      }),
    );
    rows.push(
      row({
        id: ids.p95,
        label: "Reference images p95 embedded (both images, in-process)",
        value: percentile(sorted, 95),
        unit: "ms",
        budget,
        note: `${sorted.length} generations (768 × 768 WebP, avg ${kb.toFixed(0)} KB an image) after ${result.warmup} warm-up, ${result.runner}`,
        details: { generator: result.generator, node: result.node, maxMs: sorted.at(-1), byStyle },
      }),
    );
  } catch (err) {
    rows.push(
      row({
        id: ids.p95,
        label: "Reference images p95 embedded (both images, in-process)",
        unit: "ms",
        budget,
        note: `error: ${err?.message ?? err}`,
      }),
    );
  }

  // (2) On the server, as the small creator.
  const page = PAGES.find((p) => p.path === IMAGES.page);
  const serverId = "images.server.generate";
  const serverLabel = "Reference images on the server (POST → images stored, polled)";
  let ready = false;
  try {
    const resolved = resolvePagePath(ctx, page);
    if (resolved.skip) {
      rows.push(row({ id: serverId, label: serverLabel, unit: "ms", skipped: resolved.skip }));
    } else {
      const cookie = await ctx.cookieFor(page);
      const personaId = decodeURIComponent(resolved.path.split("/").pop());
      const headers = { cookie, origin: ctx.baseUrl, accept: "application/json" };
      const t0 = performance.now();
      const started = await fetch(`${ctx.baseUrl}/api/personas/${personaId}/generate-images`, {
        method: "POST",
        headers,
        signal: AbortSignal.timeout(15_000),
      });
      if (started.status !== 202) throw new Error(`generate-images answered ${started.status}: ${(await started.text()).slice(0, 200)}`);
      let state = null;
      while (performance.now() - t0 < 60_000) {
        await sleep(100);
        const body = await (
          await fetch(`${ctx.baseUrl}/api/personas/${personaId}`, { headers, signal: AbortSignal.timeout(15_000) })
        ).json();
        state = body.imageGeneration?.status;
        if (state !== "generating") {
          ready = state === "idle" && !!body.imageUrl;
          break;
        }
      }
      const ms = performance.now() - t0;
      rows.push(
        row({
          id: serverId,
          label: serverLabel,
          value: ready ? ms : null,
          unit: "ms",
          note: ready ? `persona ${personaId}, polled every 100 ms` : `ended ${state ?? "without an answer"}`,
          ...(ready ? {} : { pass: false }),
        }),
      );
    }
  } catch (err) {
    rows.push(row({ id: serverId, label: serverLabel, unit: "ms", note: `error: ${err?.message ?? err}` }));
  }
  if (!ready) return rows;

  // (3) The persona page with its reference image.
  const sub = { ...ctx, args: { ...ctx.args, pages: new Set([IMAGES.page]) } };
  const rename = (r) => ({ ...r, id: `images.${r.id}`, label: `${r.label} (with a reference image)` });
  rows.push(...(await measureFirstLoadJs(sub)).map(rename));
  const lighthouseRows = (await measureLighthouse(sub)).map(rename);
  rows.push(...lighthouseRows);
  const perf = lighthouseRows.find((r) => r.id.startsWith("images.lighthouse.performance."));
  const lcp = perf?.details?.metrics?.["largest-contentful-paint"];
  rows.push(
    row({
      id: `images.lcp.${IMAGES.page}`,
      label: `LCP ${IMAGES.page} (with a reference image, simulated mobile)`,
      value: typeof lcp === "number" ? Math.round(lcp) : null,
      unit: "ms",
      budget: { op: "<=", value: IMAGES.lcpBudgetMs },
      note: typeof lcp === "number" ? "Lighthouse's simulated mobile throttling" : `no LCP measured${perf?.note ? ` (${perf.note})` : ""}`,
    }),
  );
  return rows;
}

// ---------------------------------------------------------------------------
// Report
// ---------------------------------------------------------------------------

function printTable(rows) {
  const header = ["Metric", "Value", "Budget", "Result", "Note"];
  const body = rows.map((r) => [
    r.label,
    fmtValue(r.value, r.unit),
    fmtBudget(r.budget, r.unit),
    r.skipped ? "SKIP" : r.pass === null ? "info" : r.pass ? "PASS" : "FAIL",
    r.note ?? "",
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const noteWidth = Math.max(20, (process.stdout.columns || 160) - widths.slice(0, 4).reduce((a, b) => a + b + 3, 0));
  const line = (cells) =>
    cells
      .map((c, i) =>
        i === 4
          ? c.length > noteWidth
            ? `${c.slice(0, noteWidth - 1)}…`
            : c
          : i === 1 || i === 2
            ? c.padStart(widths[i])
            : c.padEnd(widths[i]),
      )
      .join("   ")
      .trimEnd();
  console.log();
  console.log(line(header));
  console.log(widths.map((w, i) => "─".repeat(i === 4 ? Math.min(w, noteWidth) : w)).join("   "));
  for (const b of body) console.log(line(b));
  console.log();
}

// ---------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (args.cluster) return runClusterBench(args);
  if (args.help) {
    const lines = fs
      .readFileSync(fileURLToPath(import.meta.url), "utf8")
      .split("\n")
      .slice(1);
    console.log(
      lines
        .slice(
          0,
          lines.findIndex((l) => !l.startsWith("//")),
        )
        .map((l) => l.replace(/^\/\/ ?/, ""))
        .join("\n"),
    );
    return 0;
  }
  const started = Date.now();
  const log = (msg) => console.log(`[bench ${((Date.now() - started) / 1000).toFixed(0).padStart(3)} s] ${msg}`);

  const loadAtStart = os.loadavg()[0];
  if (loadAtStart > os.cpus().length) {
    log(`warning: load average ${loadAtStart.toFixed(1)} on ${os.cpus().length} CPUs; latency and Lighthouse numbers will be noisy`);
  }

  let baseUrl = args.url;
  let dataDir = process.env.BENCH_DATA_DIR;
  let library;
  let server;
  let stripe;
  if (!baseUrl) {
    if (args.build) await build(log);
    // With DATABASE_URL (the production mode) the server, and the seeding before it, run on a
    // throwaway database created on that PostgreSQL server and dropped at the end.
    if (process.env.DATABASE_URL) await onThrowawayDatabase(log);
    // Billing configured against the fake Stripe: the server's child environment gets STRIPE_*.
    stripe = await startFakeStripe(log);
    if (stripe.env) Object.assign(process.env, stripe.env);
    else log(`stripe: ${stripe.error ?? stripe.skipped}; measuring without billing`);
    // The seeded creators serve the extra group's library rows and the js/lighthouse /my-personas and /persona/{id} pages.
    const pagesNeedSeed = PAGES.some((p) => p.creator && (!args.pages || args.pages.has(p.path)));
    const extras = args.skip.has("extra") ? [] : selectedExtras(args);
    const onlyCreators = args.only ? args.only.flatMap((key) => EXTRA_KEYS[key].creators) : null;
    const seed =
      extras.some((fn) =>
        [measureLibraryScaling, measureHistory, measureChatReplies, measureReferenceImages, measureSignedInPages].includes(fn),
      ) ||
      (pagesNeedSeed && ["js", "lighthouse"].some((g) => !args.skip.has(g)));
    const needSeed = seed && (!onlyCreators || onlyCreators.length > 0);
    ({
      baseUrl,
      dataDir,
      server,
      prepared: library,
    } = await startServer(log, { beforeStart: needSeed ? (dir) => seedLibrary(log, dir, onlyCreators) : undefined }));
    library ??= { skipped: "not seeded (no selected measurement needs the seeded creators)" };
  } else {
    log(`measuring running server at ${baseUrl}`);
    library = {
      skipped:
        "needs the bench's own server (not --url): the creators with 10 and 2,000 personas are seeded into its DATA_DIR before it starts",
    };
    stripe = { skipped: "needs the bench's own server (not --url), started with the fake Stripe API" };
  }

  const ctx = {
    baseUrl,
    dataDir,
    library,
    stripe,
    root: ROOT,
    args,
    log,
    row,
    fetchPage: (p, { cookie } = {}) =>
      fetch(`${baseUrl}${p}`, { redirect: "manual", headers: cookie ? { cookie } : {}, signal: AbortSignal.timeout(15_000) }),
  };
  ctx.cookieFor = makeCookieResolver(ctx);

  // Memory 5 s after start, before any load (the bench's own server only). On the embedded
  // database nothing may have opened it by then: no job worker and no schedule looks at an empty
  // queue (app/infra/jobs/queue.server.ts), so its thread is closed.
  const memoryRows = [];
  if (server) {
    await sleep(5000);
    const idle = await processStats(ctx);
    const embedded = !process.env.DATABASE_URL;
    memoryRows.push(
      rssRow(idle, {
        id: "memory.rss.idle",
        label: "Server RSS, idle after start",
        budgetMB: embedded ? BUDGETS.rssIdleEmbeddedMB : undefined,
        when: "5 s after the server answered its first request (a public one), before any load",
      }),
    );
    if (embedded && idle?.databaseThread) {
      memoryRows.push(
        row({
          id: "memory.idle.database-open",
          label: "Embedded database open 5 s after start, with no request that needs it (1 = open)",
          value: idle.databaseThread.open ? 1 : 0,
          budget: { op: "<=", value: 0 },
          note: "job workers and schedules open it only when work is queued or due",
        }),
      );
    }
    // The embedded database's thread opens on the first statement after start (decision 012): the same with it open, and what opening cost.
    const t0 = Date.now();
    const cookie = await ctx.cookieFor({ auth: true });
    if (cookie) await (await ctx.fetchPage("/dashboard", { cookie })).arrayBuffer();
    memoryRows.push(
      rssRow(await processStats(ctx), {
        id: "memory.rss.database-open",
        label: "Server RSS, idle with the database thread open",
        when: `after a sign-in and one /dashboard (${Date.now() - t0} ms), before any load (for information)`,
      }),
    );
    const opened = [...server.output().matchAll(/database thread opened in (\d+) ms/g)].map((m) => Number(m[1]));
    if (opened.length > 0) {
      memoryRows.push(
        row({
          id: "memory.database-open-ms",
          label: "Opening the idle database thread (first statement after start)",
          value: opened[0],
          unit: "ms",
          note: "from the server's log: a new worker, PGlite compiled and started on DATA_DIR and served on its socket; paid once by the first request after start or after an idle release (for information)",
        }),
      );
    }
  }

  const groups = [
    ["js", "First-load JS", measureFirstLoadJs],
    ["lighthouse", "Lighthouse", measureLighthouse],
    ["latency", "Server latency", measureLatency],
    // One after the other: each loads the CPU, and would skew the other's numbers.
    [
      "extra",
      "Extra measurements",
      async (c) => {
        const out = [];
        for (const fn of selectedExtras(c.args)) {
          if (aborting) break;
          try {
            out.push(...(await fn(c)));
          } catch (err) {
            out.push(row({ id: `extra.${fn.name || "anonymous"}`, note: `error: ${err?.message ?? err}` }));
          }
        }
        return out;
      },
    ],
  ];
  const rows = [];
  for (const [key, name, fn] of groups) {
    if (aborting) return 130;
    if (args.skip.has(key)) {
      log(`${name}: skipped (--skip)`);
      continue;
    }
    const t0 = Date.now();
    try {
      rows.push(...(await fn(ctx)));
    } catch (err) {
      rows.push(row({ id: `${key}.error`, label: name, note: `error: ${err?.stack ?? err}` }));
    }
    log(`${name}: done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }

  if (aborting) return 130;
  if (server?.alive) {
    memoryRows.push(
      rssRow(await processStats(ctx), {
        id: "memory.rss.after-load",
        label: "Server RSS, after the load",
        budgetMB: process.env.DATABASE_URL ? BUDGETS.rssAfterLoadMB.postgres : BUDGETS.rssAfterLoadMB.embedded,
        when: "after every measurement above",
      }),
    );
    // The embedded database's thread is closed after a minute without a statement (decision 012): what the server holds then.
    const released = await statsAfterDatabaseRelease(ctx, 75_000);
    if (released) {
      memoryRows.push(
        rssRow(released.stats, {
          id: "memory.rss.after-idle-release",
          label: "Server RSS, after the load and the database thread's idle release",
          when: `${(released.waitedMs / 1000).toFixed(0)} s after the load, once the server closed its idle database thread (for information)`,
        }),
      );
    }
  }
  rows.push(...memoryRows);
  if (server && !server.alive) {
    // Every row after this point measured connection errors: say why.
    const { code, signal } = await server.exited;
    const output = tail(server.output().trim(), 30);
    log(`server exited during the run (${signal ?? `exit ${code}`}):\n${output}`);
    rows.push(
      row({
        id: "server.exited",
        label: "Server",
        note: `exited during the run (${signal ?? `exit ${code}`}): ${tail(output, 3).replace(/\s+/g, " ")}`,
        details: { output },
      }),
    );
  }
  printTable(rows);

  const failures = rows.filter((r) => r.pass === false);
  const report = {
    timestamp: new Date().toISOString(),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpus: os.cpus().length,
    loadAverage: { atStart: loadAtStart, atEnd: os.loadavg()[0] },
    baseUrl,
    build: !args.url && args.build,
    durationSeconds: (Date.now() - started) / 1000,
    database: args.url ? "the server at --url" : process.env.DATABASE_URL ? "PostgreSQL (DATABASE_URL)" : "embedded (PGlite)",
    budgets: BUDGETS,
    summary: {
      total: rows.length,
      passed: rows.filter((r) => r.pass === true).length,
      failed: failures.length,
      skipped: rows.filter((r) => r.skipped).length,
    },
    metrics: Object.fromEntries(
      rows.map((r) => [
        r.id,
        {
          label: r.label,
          value: r.value,
          unit: r.unit,
          budget: r.budget,
          pass: r.pass,
          skipped: r.skipped,
          note: r.note || undefined,
          details: r.details,
        },
      ]),
    ),
  };
  fs.mkdirSync(path.dirname(args.out), { recursive: true });
  fs.writeFileSync(args.out, `${JSON.stringify(report, null, 2)}\n`);
  log(`wrote ${path.relative(process.cwd(), args.out) || args.out}`);
  log(
    `${report.summary.passed} passed, ${report.summary.failed} failed, ${report.summary.skipped} skipped in ${report.durationSeconds.toFixed(0)} s`,
  );
  if (failures.length && args.strict) return 1;
  return 0;
}

// Run only when executed directly, so helpers (collectJsUrls, PAGES…) can be imported.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  installSignalHandlers();
  let exitCode;
  try {
    exitCode = await main();
  } catch (err) {
    console.error(`bench: ${err?.message ?? err}`);
    exitCode = 2;
  } finally {
    await runCleanups();
  }
  process.exit(exitCode);
}
