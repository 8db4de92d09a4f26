import { PassThrough } from "node:stream";

import { createReadableStreamFromReadable, type EntryContext, type HandleErrorFunction } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";

import { cachedPage, publicPageKey, storePage } from "./infra/page-cache.server";
import { startServer } from "./infra/startup.server";

// Configuration, DATA_DIR and the database (with migrations) are checked once, before the
// first request: a bad set-up stops the server with a readable message.
await startServer();

export const streamTimeout = 5_000;

const securityHeaders: Record<string, string> = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "X-Frame-Options": "DENY",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
};

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
) {
  for (const [name, value] of Object.entries(securityHeaders)) responseHeaders.set(name, value);
  const cacheKey = publicPageKey(request, remixContext, responseStatusCode, responseHeaders);
  if (cacheKey) {
    const hit = cachedPage(cacheKey);
    if (hit) {
      responseHeaders.set("Content-Type", hit.contentType);
      return new Response(hit.body, { status: 200, headers: responseHeaders });
    }
    return renderComplete(request, responseStatusCode, responseHeaders, remixContext, cacheKey);
  }
  const waitForAll = isbot(request.headers.get("user-agent") ?? "") || remixContext.isSpaMode;

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <RemixServer context={remixContext} url={request.url} abortDelay={streamTimeout} />,
      {
        [waitForAll ? "onAllReady" : "onShellReady"]() {
          shellRendered = true;
          const body = new PassThrough();
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors after the shell are logged by handleError; logging here too would double them.
          if (shellRendered) console.error(error);
        },
      },
    );
    setTimeout(abort, streamTimeout + 1_000);
  });
}

/** Renders the whole document before answering, and keeps it for the next anonymous visitor. */
function renderComplete(
  request: Request,
  status: number,
  headers: Headers,
  remixContext: EntryContext,
  cacheKey: string,
): Promise<Response> {
  return new Promise<Response>((resolve, reject) => {
    const chunks: Buffer[] = [];
    const sink = new PassThrough();
    sink.on("data", (chunk: Buffer) => chunks.push(chunk));
    sink.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const contentType = "text/html; charset=utf-8";
      if (status === 200) storePage(cacheKey, { body, contentType });
      headers.set("Content-Type", contentType);
      resolve(new Response(body, { status, headers }));
    });
    const { pipe, abort } = renderToPipeableStream(
      <RemixServer context={remixContext} url={request.url} abortDelay={streamTimeout} />,
      {
        onAllReady() {
          pipe(sink);
        },
        onShellError: reject,
        onError(error: unknown) {
          status = 500;
          console.error(error);
        },
      },
    );
    setTimeout(abort, streamTimeout + 1_000);
  });
}

export const handleError: HandleErrorFunction = (error, { request }) => {
  // Aborted requests (the visitor navigated away) are not errors.
  if (request.signal.aborted) return;
  console.error(`[server] ${request.method} ${new URL(request.url).pathname}:`, error);
};
