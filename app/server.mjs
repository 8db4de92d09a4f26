// The production server: Express serving the Remix build, like remix-serve, plus the
// one thing remix-serve cannot give the app: the client's address (for abuse limits),
// passed to loaders and actions as context.clientAddress. Behind a reverse proxy set
// TRUST_PROXY (e.g. 1, or "loopback") so X-Forwarded-For is believed.
import path from "node:path";
import url from "node:url";

import { createRequestHandler } from "@remix-run/express";
import compression from "compression";
import express from "express";
import morgan from "morgan";

const root = path.resolve(path.dirname(url.fileURLToPath(import.meta.url)), "..");
process.env.NODE_ENV ??= "production";
process.chdir(root);

const build = await import(url.pathToFileURL(path.join(root, "build", "index.js")).href);

const app = express();
app.disable("x-powered-by");
const trustProxy = process.env.TRUST_PROXY;
if (trustProxy) app.set("trust proxy", /^\d+$/.test(trustProxy) ? Number(trustProxy) : trustProxy);
app.use(compression());
app.use(build.publicPath, express.static(build.assetsBuildDirectory, { immutable: true, maxAge: "1y" }));
app.use(express.static("public", { maxAge: "1h" }));
if (process.env.LOG_REQUESTS !== "0") app.use(morgan("tiny"));
app.all(
  "*",
  createRequestHandler({
    build,
    mode: process.env.NODE_ENV,
    getLoadContext: (req) => ({ clientAddress: req.ip ?? req.socket.remoteAddress ?? "unknown" }),
  }),
);

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST;
const server = host ? app.listen(port, host, ready) : app.listen(port, ready);
function ready() {
  console.log(`[personaforge] http://${host ?? "localhost"}:${port}`);
}

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => {
    server.close(() => process.exit(0));
    server.closeIdleConnections?.();
    setTimeout(() => process.exit(0), 3000).unref();
  });
}
