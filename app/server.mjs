// The production server: Express serving the Remix build, like remix-serve, plus what
// remix-serve cannot give the app:
// - the client's address (for abuse limits), passed to loaders and actions as
//   context.clientAddress. Behind a reverse proxy set TRUST_PROXY (e.g. 1, or "loopback")
//   so X-Forwarded-For is believed;
// - security headers on every answer, and a refusal of cross-site state changes before
//   any action runs;
// - a body the app refused before reading it whole (413, 400, 403…) is read and thrown
//   away, so the client receives the answer and can use the connection again;
// - a clean stop: SIGTERM/SIGINT stop accepting, let requests in flight finish (10 s at
//   most), then close the database (releasing its lock);
// - several processes with WEB_CONCURRENCY=n (Node's cluster: one port, n workers that
//   share nothing but the database), only with DATABASE_URL: the embedded database can be
//   opened by one process;
// - with PF_PROCESS_METRICS=1 (the bench sets it), GET /__process answers this process's
//   CPU time and memory to loopback clients, so the bench can tell work from queueing.
import { spawn } from "node:child_process";
import cluster from "node:cluster";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import url from "node:url";

import { createRequestHandler } from "@remix-run/express";
import compression from "compression";
import express from "express";
import morgan from "morgan";

const root = path.resolve(path.dirname(url.fileURLToPath(import.meta.url)), "..");
process.chdir(root);
// .env (see .env.example) fills in what the environment does not already set.
try {
  process.loadEnvFile(".env");
} catch (error) {
  if (error?.code !== "ENOENT") throw error;
}
process.env.NODE_ENV ??= "production";

const concurrency = webConcurrency(process.env.WEB_CONCURRENCY);
if (cluster.isPrimary && concurrency > 1) {
  runPrimary(concurrency);
  // The primary only supervises: it never loads the app. It ends with process.exit(). The
  // timer keeps its event loop alive until then: without it, once the last worker's handles
  // closed before its 'exit' event ran, Node ended the process with code 13 (a top-level
  // await that never settled) instead of the code stopAll() chose (seen once in CI).
  setInterval(() => {}, 2 ** 30);
  await new Promise(() => {});
}

function webConcurrency(raw) {
  if (raw === undefined || raw === "") return 1;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 64) {
    console.error(`\n[personaforge] cannot start:\nWEB_CONCURRENCY must be a whole number from 1 to 64 (got "${raw}").\n`);
    process.exit(1);
  }
  if (n > 1 && !process.env.DATABASE_URL) {
    console.error(
      `\n[personaforge] cannot start:\nWEB_CONCURRENCY=${n} needs DATABASE_URL (PostgreSQL or Supabase): the embedded database in DATA_DIR can be opened by one process only. Unset WEB_CONCURRENCY, or set DATABASE_URL.\n`,
    );
    process.exit(1);
  }
  return n;
}

/**
 * The cluster's primary: n workers on one port, a dead one replaced (unless workers keep
 * failing to start), all stopped on SIGTERM/SIGINT.
 */
function runPrimary(n) {
  // A worker that dies this soon after it was started counts as failing to start. After
  // QUICK_EXITS_LIMIT such deaths in a row (a database that cannot be reached, a bad setting)
  // the primary stops instead of restarting workers forever; each restart waits a little longer.
  const QUICK_EXIT_MS = 10_000;
  const QUICK_EXITS_LIMIT = 5;
  const RESTART_DELAY_MS = 250;
  let stoppingAll = false;
  let exitCode = 0;
  let quickExits = 0;
  const startedAt = new Map();
  const alive = () => Object.values(cluster.workers ?? {}).filter(Boolean);
  const fork = () => {
    if (stoppingAll) return;
    const worker = cluster.fork();
    startedAt.set(worker.id, Date.now());
  };
  const stopAll = (code) => {
    stoppingAll = true;
    exitCode = code;
    for (const worker of alive()) worker.process.kill("SIGTERM");
    if (alive().length === 0) process.exit(exitCode);
  };
  console.log(`[personaforge] ${n} processes (WEB_CONCURRENCY), primary ${process.pid}`);
  for (let i = 0; i < n; i++) fork();
  cluster.on("exit", (worker, code, signal) => {
    const lived = Date.now() - (startedAt.get(worker.id) ?? 0);
    startedAt.delete(worker.id);
    if (stoppingAll) {
      if (alive().length === 0) {
        console.log("[personaforge] stopped");
        process.exit(exitCode);
      }
      return;
    }
    quickExits = lived < QUICK_EXIT_MS ? quickExits + 1 : 0;
    if (quickExits >= QUICK_EXITS_LIMIT) {
      console.error(
        `[personaforge] ${quickExits} workers in a row exited within ${QUICK_EXIT_MS / 1000} s of starting (the last: ${signal ?? `exit ${code}`}); stopping. See their messages above.`,
      );
      stopAll(1);
      return;
    }
    console.error(`[personaforge] worker ${worker.process.pid} exited (${signal ?? `exit ${code}`}); starting another`);
    setTimeout(fork, quickExits * RESTART_DELAY_MS);
  });
  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.once(signal, () => {
      console.log(`[personaforge] ${signal}: stopping the workers`);
      stopAll(0);
    });
  }
}

// The embedded database's start-up work (migrations, its statistics, image jobs a previous run
// left unfinished) runs in a short-lived process of its own, this same file with
// PF_STARTUP_ONLY=1: what opening PGlite leaves in a process after its thread is closed
// (compiled code, the allocator's arenas: about 70 MB) goes with that process, and this one opens
// its database thread when a request first needs it (docs/decisions/015-a-lighter-document-and-start.md).
// A failed start-up stops this process with the same exit code; its message is already printed.
const startupOnly = process.env.PF_STARTUP_ONLY === "1";
if (!startupOnly && startupInItsOwnProcess()) {
  const code = await runStartupProcess();
  if (code !== 0) process.exit(code);
  process.env.PF_STARTUP_DONE = "1";
}

function startupInItsOwnProcess() {
  return !process.env.DATABASE_URL && process.env.PGLITE_THREAD !== "0" && process.env.PGLITE_IDLE_SECONDS !== "0";
}

function runStartupProcess() {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...process.execArgv, url.fileURLToPath(import.meta.url)], {
      env: { ...process.env, PF_STARTUP_ONLY: "1" },
      stdio: "inherit",
    });
    const forward = (signal) => child.kill(signal);
    for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, forward);
    child.on("exit", (code, signal) => {
      for (const s of ["SIGINT", "SIGTERM"]) process.off(s, forward);
      resolve(code ?? (signal ? 1 : 0));
    });
    child.on("error", (error) => {
      console.error(`\n[personaforge] cannot start:\nthe start-up process failed: ${error.message}\n`);
      resolve(1);
    });
  });
}

const build = await import(url.pathToFileURL(path.join(root, "build", "index.js")).href);
const hooks = build.entry.module.serverHooks;
if (startupOnly) {
  // Importing the build did the start-up work (app/entry.server.tsx); release DATA_DIR and go.
  await hooks.closeDatabase();
  process.exit(0);
}

const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;
const DRAIN_LIMIT_MS = 10_000;
const STOP_GRACE_MS = 10_000;
let stopping = false;

// The methods the app answers; any other is refused before it reaches the app (405, with Allow).
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
const ALLOWED_METHODS = new Set(METHODS);

const app = express();
app.disable("x-powered-by");
const trustProxy = process.env.TRUST_PROXY;
if (trustProxy) app.set("trust proxy", /^\d+$/.test(trustProxy) ? Number(trustProxy) : trustProxy);

app.use((req, res, next) => {
  for (const [name, value] of Object.entries(hooks.commonSecurityHeaders())) res.setHeader(name, value);
  if (stopping) res.setHeader("Connection", "close");
  // Without a proxy in front (TRUST_PROXY unset), X-Forwarded-* and Forwarded are whatever the
  // client wrote: the app never builds its address, host or scheme from them.
  if (!trustProxy) {
    for (const name of Object.keys(req.headers)) {
      if (name.startsWith("x-forwarded-") || name === "forwarded") delete req.headers[name];
    }
  }
  next();
});
// One line per request, its query's secrets redacted; with LOG_REQUESTS=0 still one per
// refused or failed request.
morgan.token("redacted-url", (req) => hooks.redactedUrl(req.originalUrl ?? req.url ?? ""));
app.use(
  morgan(":method :redacted-url :status :res[content-length] - :response-time ms", {
    skip: (req, res) => process.env.LOG_REQUESTS === "0" && res.statusCode < 400,
  }),
);
app.use((req, res, next) => {
  if (ALLOWED_METHODS.has(req.method)) return next();
  res.setHeader("Allow", METHODS.join(", "));
  refuse(req, res, 405, "Method not allowed", "This site does not answer that kind of request.");
});
if (process.env.PF_PROCESS_METRICS === "1") {
  app.get("/__process", async (req, res) => {
    const address = req.socket.remoteAddress ?? "";
    if (!["127.0.0.1", "::1", "::ffff:127.0.0.1"].includes(address)) return res.status(404).end();
    // The embedded database's thread (undefined without one, null while it is closed); asking never opens it.
    const database = await hooks.databaseMemory().catch(() => undefined);
    const cpu = process.cpuUsage();
    const memory = process.memoryUsage();
    res.set("Cache-Control", "no-store").json({
      pid: process.pid,
      cpuUserMs: cpu.user / 1000,
      cpuSystemMs: cpu.system / 1000,
      mainThreadCpuMs: mainThreadCpuMs(),
      rssBytes: memory.rss,
      heapUsedBytes: memory.heapUsed,
      heapTotalBytes: memory.heapTotal,
      externalBytes: memory.external,
      databaseThread: database === undefined ? undefined : database === null ? { open: false } : { open: true, ...database },
      uptimeSeconds: process.uptime(),
    });
  });
}
// The build's scripts and style sheets go out as the brotli copies `npm run build` made
// (scripts/precompress-assets.mjs, quality 11: an eighth smaller than the middleware's quality
// 4, and no compression per request); a file without one, or a browser that does not take
// brotli, gets the middleware's answer as before. The copies are listed once, at start; one
// gone since (a rebuild) falls back to its file.
function buildAssets(dir) {
  const serve = express.static(dir, { immutable: true, maxAge: "1y" });
  let copies;
  try {
    copies = new Set(
      readdirSync(dir, { recursive: true })
        .filter((file) => file.endsWith(".br"))
        .map((file) => `/${file.split(path.sep).join("/").slice(0, -3)}`),
    );
  } catch {
    copies = new Set();
  }
  return (req, res, next) => {
    if (!((req.method === "GET" || req.method === "HEAD") && copies.has(req.path) && req.acceptsEncodings("br") === "br")) {
      return serve(req, res, next);
    }
    const asked = req.url;
    res.type(path.extname(req.path));
    res.setHeader("Content-Encoding", "br");
    res.vary("Accept-Encoding");
    req.url = `${req.path}.br`;
    serve(req, res, (err) => {
      res.removeHeader("Content-Encoding");
      res.removeHeader("Content-Type");
      req.url = asked;
      if (err) next(err);
      else serve(req, res, next);
    });
  };
}
// The JSON API's answers are compressed at zlib's fastest level: a page of 100 full personas is
// about 600 KB of JSON, which level 6 (the default, kept for pages and for assets without a brotli copy) takes about 9 ms
// of CPU to compress and level 1 about 4, for a sixth more bytes on the wire.
const compressPage = compression();
const compressApi = compression({ level: 1 });
app.use((req, res, next) => (req.path.startsWith("/api/") ? compressApi : compressPage)(req, res, next));
app.use(build.publicPath, buildAssets(build.assetsBuildDirectory));
// Only a path that names a file (it ends in an extension) can be one of public/'s files, so a
// page request skips the disk lookup.
const publicFiles = express.static("public", { maxAge: "1h" });
app.use((req, res, next) => (/\.[A-Za-z0-9]+$/.test(req.path) ? publicFiles(req, res, next) : next()));

app.use(discardUnreadBodies);
app.use((req, res, next) => {
  const message = hooks.authorizationRefusal(req.headers.authorization);
  if (!message) return next();
  res.setHeader("WWW-Authenticate", 'Bearer realm="personaforge", error="invalid_request"');
  refuse(req, res, 401, "Sign-in required", message);
});
app.use((req, res, next) => {
  const message = hooks.crossSiteRefusal(req.method, () => webHeaders(req.headers));
  if (message) refuse(req, res, 403, "Request refused", message);
  else next();
});

app.all(
  "*",
  createRequestHandler({
    build,
    mode: process.env.NODE_ENV,
    getLoadContext: (req) => ({ clientAddress: req.ip ?? req.socket.remoteAddress ?? "unknown" }),
  }),
);

// Whatever escaped the app: one log line, and an answer without details.
app.use((error, req, res, next) => {
  console.error(`[server] ${req.method} ${req.path}: ${hooks.describeError(error, 0)}`);
  if (res.headersSent) return res.destroy();
  refuse(req, res, 500, "Something went wrong", "Something went wrong on our side. Please try again.");
  void next;
});

/** CPU time of the main thread alone (Linux /proc; null elsewhere): what renders pages, without the database thread. */
function mainThreadCpuMs() {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // utime and stime, fields 14 and 15 of stat (11 and 12 after the state field), in clock ticks (100 a second on Linux).
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return null;
  }
}

function webHeaders(raw) {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    for (const one of [].concat(value ?? [])) headers.append(name, one);
  }
  return headers;
}

function refuse(req, res, status, title, message) {
  if (req.path.startsWith("/api/") || req.path.endsWith(".data") || !req.accepts("html")) {
    res.status(status).json({ message });
    return;
  }
  const escape = (text) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  res
    .status(status)
    .type("html")
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(title)} | PersonaForge</title></head>` +
        `<body style="font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem"><main><h1>${escape(title)}</h1><p>${escape(message)}</p><p><a href="/">Go to PersonaForge</a></p></main></body></html>`,
    );
}

/**
 * When the answer is sent before the request body was read to its end, the rest of the
 * body is read and discarded (up to 64 MB or 10 s; then the connection is closed): closing
 * a socket with unread data makes the client see a reset instead of the answer, and
 * leaving it unread would stall the next request on a kept-alive connection.
 */
function discardUnreadBodies(req, res, next) {
  if (req.method === "GET" || req.method === "HEAD") return next();
  if (Number(req.headers["content-length"] ?? 0) > DRAIN_LIMIT_BYTES) res.setHeader("Connection", "close");
  if (closesAfterAnswer(req)) {
    // The connection ends with this answer, and Node closes it as soon as the answer is sent:
    // unread data would then reset the connection and the client would lose the answer (EPIPE
    // instead of 413). So the answer's end waits until the rest of the body has been read.
    const end = res.end;
    res.end = function endAfterBody(...args) {
      if (req.complete) return end.apply(this, args);
      discard(req, () => end.apply(this, args));
      return this;
    };
  }
  res.once("finish", () => {
    if (!req.complete) discard(req);
  });
  next();
}

/** The client asked for the connection to close after this request (or speaks HTTP/1.0 without keep-alive). */
function closesAfterAnswer(req) {
  const connection = String(req.headers.connection ?? "").toLowerCase();
  return /\bclose\b/.test(connection) || (req.httpVersion === "1.0" && !/\bkeep-alive\b/.test(connection));
}

/** Reads and drops the rest of a body the app did not read (64 MB or 10 s at most, then the connection is cut). */
function discard(req, done = () => {}) {
  // The app's body stream (already released by the app) stops receiving data.
  req.removeAllListeners("data");
  let discarded = 0;
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    done();
  };
  const timer = setTimeout(() => req.socket.destroy(), DRAIN_LIMIT_MS).unref();
  req.on("data", (chunk) => {
    discarded += chunk.length;
    if (discarded > DRAIN_LIMIT_BYTES) req.socket.destroy();
  });
  req.once("end", finish);
  req.once("close", finish);
  req.resume();
}

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST;
const server = host ? app.listen(port, host, ready) : app.listen(port, ready);
// An idle keep-alive connection is closed by the client or the proxy in front, not by us first:
// a request sent on a connection just as the server closes it fails with ECONNRESET (Node's
// default is 5 s; load balancers commonly keep idle connections for 60 s). Headers must still
// arrive within their own limit, which Node's guidance sets longer than the keep-alive.
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;
// A method Node's parser does not know (a made-up one) is 501, CONNECT (a proxy's method) is
// 405, other unreadable requests 400, 408 or 431: each answered, never an error line.
server.on("clientError", (error, socket) => {
  if (error.code === "ECONNRESET" || !socket.writable) return socket.destroy();
  const status =
    error.code === "HPE_INVALID_METHOD"
      ? "501 Not Implemented"
      : error.code === "HPE_HEADER_OVERFLOW"
        ? "431 Request Header Fields Too Large"
        : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
          ? "408 Request Timeout"
          : "400 Bad Request";
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
});
server.on("connect", (req, socket) => {
  socket.end(`HTTP/1.1 405 Method Not Allowed\r\nAllow: ${METHODS.join(", ")}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
});
function ready() {
  console.log(`[personaforge] http://${host ?? "localhost"}:${port}`);
}

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => {
    stopping = true;
    console.log(`[personaforge] ${signal}: finishing requests in flight, then stopping`);
    server.close(async () => {
      try {
        // Jobs under way get 5 s to finish; one cut off is tried again at the next start.
        await hooks.stopJobWorkers?.();
        await hooks.closeDatabase();
      } catch (error) {
        console.error(`[personaforge] closing the database: ${error instanceof Error ? error.message : error}`);
      }
      console.log("[personaforge] stopped");
      process.exit(0);
    });
    server.closeIdleConnections();
    // Requests still running after the grace period are cut off; close() then completes.
    setTimeout(() => server.closeAllConnections(), STOP_GRACE_MS).unref();
  });
}
