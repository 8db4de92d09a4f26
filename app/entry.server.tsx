import { randomBytes } from "node:crypto";
import { Writable } from "node:stream";

import type { EntryContext, HandleErrorFunction } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";

import { NonceProvider } from "./components/nonce";
import { closeDatabase, databaseMemory } from "./infra/db/db.server";
import { authorizationRefusal, commonSecurityHeaders, contentSecurityPolicy, crossSiteRefusal } from "./infra/web/http-guards.server";
import { imageStorage } from "./infra/storage/image-storage.server";
import { withoutNulBytes } from "./infra/web/document.server";
import { describeError, redactedUrl } from "./infra/web/log.server";
import { cachedPage, publicPageKey, renderedPageKey, storePage } from "./infra/web/page-cache.server";
import { startServer } from "./infra/setup/startup.server";
import { handleCardTargetJobs } from "./services/card-target-runs.server";
import { handleConversationTestJobs } from "./services/conversation-tests.server";
import { handleImageJobs } from "./services/images.server";
import { handleDigestJobs } from "./services/notifications.server";
import { startJobWorkers, stopJobWorkers } from "./infra/jobs/queue.server";
import { handleTestRunJobs } from "./services/probes.server";

// Configuration, DATA_DIR and the database (with migrations) are checked once, before the
// first request: a bad set-up stops the server with a readable message. When app/server.mjs ran
// the embedded database's start-up in a process of its own (PF_STARTUP_DONE=1), this checks the
// settings and DATA_DIR and opens the database when a request first needs it.
await startServer();
const STALE_TEMPORARY_FILE_MS = 5 * 60 * 1000;
if (process.env.PF_STARTUP_DONE !== "1") {
  // Half-written image files a killed process left (older than a write could still be running).
  const staleFiles = await imageStorage()
    .removeStaleTemporaryFiles?.(STALE_TEMPORARY_FILE_MS)
    .catch((error: unknown) => {
      console.error(`[images] could not remove interrupted writes: ${error instanceof Error ? error.message : String(error)}`);
      return 0;
    });
  if (staleFiles) console.log(`[images] ${staleFiles} unfinished image file(s) of an interrupted run removed`);
}

// Background work is jobs on the database's queue (app/infra/jobs/queue.server.ts): the serving
// process runs them unless WORKERS=0; `npm run worker` starts a process that only runs them.
handleTestRunJobs();
handleCardTargetJobs();
handleConversationTestJobs();
handleImageJobs();
handleDigestJobs();
if (process.env.PF_STARTUP_ONLY !== "1" && process.env.PF_WORKER_ONLY !== "1") {
  await startJobWorkers().catch((error: unknown) => console.error(`[jobs] workers not started: ${describeError(error)}`));
}

export const streamTimeout = 5_000;

/** What app/server.mjs needs from the app before and after it runs (it reaches them through the build). */
export const serverHooks = {
  authorizationRefusal,
  crossSiteRefusal,
  commonSecurityHeaders,
  closeDatabase,
  startJobWorkers,
  stopJobWorkers,
  databaseMemory,
  redactedUrl,
  describeError,
};

// A kept page keeps this mark where its nonce was; each answer gets a fresh one.
const NONCE_MARK = "__personaforge_nonce__";

export default function handleRequest(request: Request, responseStatusCode: number, responseHeaders: Headers, remixContext: EntryContext) {
  // The headers every answer carries are set by app/server.mjs; a page adds its script policy.
  const nonce = randomBytes(16).toString("base64");
  responseHeaders.set("Content-Security-Policy", contentSecurityPolicy(nonce));
  // A public page is kept by its path; any other by its URL and its loaders' data (decision 031).
  const cacheKey =
    publicPageKey(request, remixContext, responseStatusCode, responseHeaders) ?? renderedPageKey(request, remixContext, responseStatusCode);
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
 * Renders the whole document with React's renderToPipeableStream (Remix's single fetch streams
 * the loaders' data through it), waits until everything is ready, then answers it in one piece; a
 * page that can be kept is kept for the next request that shows the same. No page defers data, so
 * streaming the document itself gained nothing.
 */
function renderComplete(
  request: Request,
  status: number,
  headers: Headers,
  remixContext: EntryContext,
  cacheKey: string | null,
  nonce: string,
): Promise<Response> {
  return new Promise<Response>((resolve, reject) => {
    const chunks: Buffer[] = [];
    // No 'close' after 'finish': React would answer it by ending the stream a second time, and
    // Node builds an error (with its stack) for that on every document.
    const sink = new Writable({
      emitClose: false,
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk);
        done();
      },
    });
    let timer: NodeJS.Timeout | undefined;
    sink.on("finish", () => {
      clearTimeout(timer);
      const body = withoutNulBytes(Buffer.concat(chunks));
      const contentType = "text/html; charset=utf-8";
      if (cacheKey && status === 200) storePage(cacheKey, { body: body.toString("utf8").replaceAll(nonce, NONCE_MARK), contentType });
      headers.set("Content-Type", contentType);
      resolve(new Response(new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength), { status, headers }));
    });
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={streamTimeout} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        onAllReady() {
          pipe(sink);
        },
        onShellError(error: unknown) {
          clearTimeout(timer);
          reject(error);
        },
        onError(error: unknown) {
          status = 500;
          console.error(`[server] render ${new URL(request.url).pathname}: ${describeError(error)}`);
        },
      },
    );
    timer = setTimeout(abort, streamTimeout + 1_000);
  });
}

export const handleError: HandleErrorFunction = (error, { request }) => {
  // Aborted requests (the visitor navigated away) are not errors.
  if (request.signal.aborted) return;
  // A refusal Remix makes itself (405 for a method a route does not take, 404 for an unknown
  // route or action) is the visitor's mistake: the request log's line says enough.
  if (isRouteErrorResponse(error) && error.status < 500) return;
  console.error(`[server] ${request.method} ${new URL(request.url).pathname}: ${describeError(error)}`);
};
