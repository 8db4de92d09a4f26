import { randomBytes } from "node:crypto";

import type { EntryContext, HandleErrorFunction } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { renderToString } from "react-dom/server";

import { NonceProvider } from "./components/nonce";
import { closeDatabase, databaseMemory, releaseIdleDatabase } from "./infra/db.server";
import { authorizationRefusal, commonSecurityHeaders, contentSecurityPolicy, crossSiteRefusal } from "./infra/http-guards.server";
import { imageStorage } from "./infra/image-storage.server";
import { describeError, redactedUrl } from "./infra/log.server";
import { cachedPage, publicPageKey, storePage } from "./infra/page-cache.server";
import { startServer } from "./infra/startup.server";
import { recoverImageJobs } from "./services/images.server";

// Configuration, DATA_DIR and the database (with migrations) are checked once, before the
// first request: a bad set-up stops the server with a readable message. When app/server.mjs ran
// the embedded database's start-up in a process of its own (PF_STARTUP_DONE=1), this checks the
// settings and DATA_DIR and opens the database when a request first needs it.
await startServer();
const STALE_TEMPORARY_FILE_MS = 5 * 60 * 1000;
if (process.env.PF_STARTUP_DONE !== "1") {
  // Image jobs a previous run left 'generating' can never finish: they are marked failed.
  const recoveredJobs = await recoverImageJobs();
  if (recoveredJobs > 0) console.log(`[images] ${recoveredJobs} interrupted image generation(s) marked failed`);
  // Half-written image files a killed process left (older than a write could still be running).
  const staleFiles = await imageStorage()
    .removeStaleTemporaryFiles?.(STALE_TEMPORARY_FILE_MS)
    .catch((error: unknown) => {
      console.error(`[images] could not remove interrupted writes: ${error instanceof Error ? error.message : String(error)}`);
      return 0;
    });
  if (staleFiles) console.log(`[images] ${staleFiles} unfinished image file(s) of an interrupted run removed`);
  // The embedded database's thread opens again when a request first needs it.
  await releaseIdleDatabase();
}

export const streamTimeout = 5_000;

/** What app/server.mjs needs from the app before and after it runs (it reaches them through the build). */
export const serverHooks = {
  authorizationRefusal,
  crossSiteRefusal,
  commonSecurityHeaders,
  closeDatabase,
  databaseMemory,
  redactedUrl,
  describeError,
};

// A cached public page keeps this mark where its nonce was; each answer gets a fresh one.
const NONCE_MARK = "__personaforge_nonce__";

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
) {
  // The headers every answer carries are set by app/server.mjs; a page adds its script policy.
  const nonce = randomBytes(16).toString("base64");
  responseHeaders.set("Content-Security-Policy", contentSecurityPolicy(nonce));
  const cacheKey = publicPageKey(request, remixContext, responseStatusCode, responseHeaders);
  if (cacheKey) {
    const hit = cachedPage(cacheKey);
    if (hit) {
      responseHeaders.set("Content-Type", hit.contentType);
      return new Response(hit.body.replaceAll(NONCE_MARK, nonce), { status: 200, headers: responseHeaders });
    }
    return renderComplete(request, responseStatusCode, responseHeaders, remixContext, cacheKey, nonce);
  }
  return renderComplete(request, responseStatusCode, responseHeaders, remixContext, null, nonce);
}

/**
 * Renders the whole document with React's renderToString, then answers it in one piece; a
 * cacheable public page is kept for the next anonymous visitor. No page streams (no deferred
 * data, no Suspense), so a stream gained nothing; React's string renderer joins strings, where
 * its Node stream copies each piece into a byte buffer (React 18's stream writer also left NUL
 * bytes where a multi-byte character met the end of that buffer). A render error throws, and
 * Remix renders the error boundary instead.
 */
function renderComplete(
  request: Request,
  status: number,
  headers: Headers,
  remixContext: EntryContext,
  cacheKey: string | null,
  nonce: string,
): Response {
  const markup = renderToString(
    <NonceProvider value={nonce}>
      <RemixServer context={remixContext} url={request.url} nonce={nonce} />
    </NonceProvider>,
  );
  const html = `<!DOCTYPE html>${markup}`;
  const contentType = "text/html; charset=utf-8";
  if (cacheKey && status === 200) storePage(cacheKey, { body: html.replaceAll(nonce, NONCE_MARK), contentType });
  headers.set("Content-Type", contentType);
  return new Response(html, { status, headers });
}

export const handleError: HandleErrorFunction = (error, { request }) => {
  // Aborted requests (the visitor navigated away) are not errors.
  if (request.signal.aborted) return;
  // A refusal Remix makes itself (405 for a method a route does not take, 404 for an unknown
  // route or action) is the visitor's mistake: the request log's line says enough.
  if (isRouteErrorResponse(error) && error.status < 500) return;
  console.error(`[server] ${request.method} ${new URL(request.url).pathname}: ${describeError(error)}`);
};

