import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { defineConfig, type LaunchOptions } from "@playwright/test";

import { e2eOAuth, e2eOAuthPort as oauthPort, e2eOAuthUrl } from "./support/e2e-oauth";
import { e2eStripe, e2eStripePort as stripePort } from "./support/e2e-stripe";

const root = fileURLToPath(new URL("..", import.meta.url));
// The app runs as `npm run serve` runs it (with its heap limits), so the journeys meet them too.
const serveCommand = (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: { serve: string } }).scripts.serve;
const port = Number(process.env.E2E_PORT ?? 3100);
const baseURL = process.env.E2E_BASE_URL ?? `http://localhost:${port}`;
// Each run starts from an empty embedded database. Workers load this file again, so the
// directory chosen by the main process is handed down through the environment.
const dataDir = (process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), "personaforge-e2e-")));

// Debian's headless Chromium (apt-get install -y chromium-headless-shell), else its full Chromium,
// or CHROMIUM_PATH; Playwright never downloads a browser here. The headless shell is the browser
// Playwright itself drives headless: the full browser builds its whole window interface for every
// page, and on two cores ran the suite about three times slower (docs/benchmarks.md, End-to-end suite).
const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";
const launchOptions: LaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : "/usr/bin/chromium"),
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
  ],
};

export default defineConfig({
  testDir: "./e2e",
  testMatch: "**/*.test.ts",
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: 0,
  // Three browsers on two cores: a journey waits on the server and the browser often enough that
  // the third keeps the cores busy (the suite: 16.4 min with two, 13.9 with three). A test's
  // timeout guards against a hang, not a slow machine: the longest journeys pass 30 s then.
  workers: 3,
  timeout: 45_000,
  expect: {
    timeout: 7_000,
    // Visual snapshots (tests/e2e/visual.enhanced.test.ts): one fixed font, no animations, CSS
    // pixels; a change of more than a few pixels fails. `npm run test:visual:update` rewrites them.
    toHaveScreenshot: {
      animations: "disabled",
      caret: "hide",
      scale: "css",
      maxDiffPixelRatio: 0.001,
      stylePath: path.join(root, "tests/e2e/visual/screenshot.css"),
    },
  },
  // Kept in the repository next to the test, one file per screen and size (no platform suffix:
  // the font is fixed by the stylesheet above).
  snapshotPathTemplate: "{testDir}/visual/{arg}{ext}",
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never", outputFolder: path.join(root, "playwright-report") }]],
  outputDir: path.join(root, "test-results"),
  use: {
    baseURL,
    // No trace by default: recording one (its screencast and DOM snapshots) made the journeys take
    // about 40 % longer on two cores (docs/benchmarks.md, The test suite on a fresh machine). To
    // see a failing journey step by step: `npx playwright test -c tests/playwright.config.ts --trace on …`.
    trace: "off",
    launchOptions,
  },
  projects: [
    { name: "js", use: { javaScriptEnabled: true }, testIgnore: "**/*.http.test.ts" },
    // Files named *.enhanced.test.ts test JavaScript-only enhancements.
    { name: "no-js", use: { javaScriptEnabled: false }, testIgnore: ["**/*.enhanced.test.ts", "**/*.http.test.ts"] },
    // Files named *.http.test.ts talk to servers over raw HTTP, no browser: they run once.
    { name: "http", testMatch: "**/*.http.test.ts" },
  ],
  webServer: process.env.E2E_BASE_URL
    ? undefined
    : [
        // Billing runs against the fake Stripe API (tests/support/fake-stripe.ts) on a fixed port
        // next to the app's; its hosted Checkout and portal pages deliver signed events to the app.
        {
          command: "node_modules/.bin/tsx tests/support/fake-stripe-server.ts",
          cwd: root,
          url: `${e2eStripe.STRIPE_API_URL}/health`,
          reuseExistingServer: false,
          timeout: 30_000,
          env: {
            FAKE_STRIPE_PORT: String(stripePort),
            STRIPE_SECRET_KEY: e2eStripe.STRIPE_SECRET_KEY,
            STRIPE_WEBHOOK_SECRET: e2eStripe.STRIPE_WEBHOOK_SECRET,
            STRIPE_PRICE_ID: e2eStripe.STRIPE_PRICE_ID,
            FAKE_STRIPE_WEBHOOK_URL: `${baseURL}/api/webhooks/stripe`,
          },
          stdout: "ignore",
          stderr: "pipe",
        },
        // Third-party sign-in runs against a local identity provider (tests/support/fake-oauth-provider.ts)
        // on the port after the fake Stripe's: Google, GitHub and a generic OpenID Connect issuer.
        {
          command: "node_modules/.bin/tsx tests/support/fake-oauth-server.ts",
          cwd: root,
          url: `${e2eOAuthUrl}/health`,
          reuseExistingServer: false,
          timeout: 30_000,
          env: { FAKE_OAUTH_PORT: String(oauthPort) },
          stdout: "ignore",
          stderr: "pipe",
        },
        {
          command: `npm run -s build && ${serveCommand}`,
          cwd: root,
          url: `${baseURL}/`,
          reuseExistingServer: false,
          timeout: 120_000,
          // TRUST_PROXY lets each test present its own client address (X-Forwarded-For), so the
          // per-client abuse limits apply per test as they would per visitor.
          env: {
            PORT: String(port),
            DATA_DIR: dataDir,
            NODE_ENV: "production",
            TRUST_PROXY: "loopback",
            APP_URL: baseURL,
            // Notification digests (docs/product.md, Settings) every few seconds instead of hourly.
            NOTIFY_DIGEST_INTERVAL_MS: "3000",
            ...e2eStripe,
            ...e2eOAuth,
          },
          stdout: "ignore",
          stderr: "pipe",
        },
      ],
});
