// One app server as several processes (WEB_CONCURRENCY=2, Node's cluster) on one PostgreSQL
// database: both workers answer, a signed-out token is refused by every one of them at once,
// and SIGTERM stops them all. Run like two-servers.test.mjs:
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:55432/postgres node --test tests/multi-server/*.test.mjs
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";

import postgres from "postgres";

const root = fileURLToPath(new URL("../..", import.meta.url));
const serverUrl = process.env.DATABASE_URL;
const password = "Forge!pass1";
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

let databaseName;
let server;

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** A JSON call on a connection of its own, so the cluster may hand it to either worker. */
async function call(method, pathname, { token, body } = {}) {
  const headers = { Connection: "close" };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(`${server.base}${pathname}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, json: text.startsWith("{") ? JSON.parse(text) : undefined, text };
}

before(async () => {
  assert.ok(serverUrl, "DATABASE_URL must name a PostgreSQL server (a role that may create databases)");
  assert.ok(existsSync(path.join(root, "build", "index.js")), "build the app first: npm run build");
  databaseName = `pf_cluster_${randomBytes(6).toString("hex")}`;
  // TEST_DATABASE_TEMPLATE: a copy of a prepared database, as in two-servers.test.mjs.
  const template = process.env.TEST_DATABASE_TEMPLATE ?? "";
  assert.match(template, /^[a-z0-9_]*$/, "TEST_DATABASE_TEMPLATE must match [a-z0-9_]+");
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${databaseName}${template ? ` template ${template}` : ""}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${databaseName}`;
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), "pf-cluster-"));
  const child = spawn(process.execPath, ["app/server.mjs"], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      APP_URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: url.toString(),
      SESSION_SECRET: randomBytes(32).toString("hex"),
      DATA_DIR: dataDir,
      WEB_CONCURRENCY: "2",
      PF_PROCESS_METRICS: "1",
      LOG_REQUESTS: "0",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const log = [];
  child.stdout.on("data", (chunk) => log.push(String(chunk)));
  child.stderr.on("data", (chunk) => log.push(String(chunk)));
  server = { base: `http://127.0.0.1:${port}`, dataDir, child, log };
  // Up when both workers answer.
  const pids = new Set();
  for (let i = 0; i < 240 && pids.size < 2; i++) {
    try {
      const stats = await call("GET", "/__process");
      if (stats.status === 200) pids.add(stats.json.pid);
    } catch {
      // not listening yet
    }
    if (pids.size < 2) await sleep(250);
  }
  assert.equal(pids.size, 2, `two workers did not come up:\n${log.join("").slice(-3000)}`);
});

after(async () => {
  if (server?.child.exitCode === null) {
    server.child.kill("SIGKILL");
  }
  if (server) rmSync(server.dataDir, { recursive: true, force: true });
  if (databaseName) {
    const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`drop database if exists ${databaseName} with (force)`);
    await admin.end();
  }
});

test("WEB_CONCURRENCY=2: a token signed out on one worker is refused by both at once; SIGTERM stops them all", async () => {
  const email = `cluster-${randomBytes(4).toString("hex")}@example.test`;
  assert.equal(
    (await call("POST", "/api/auth/register", { body: { firstName: "Cluster", lastName: "Test", email, password } })).status,
    201,
  );
  const outbox = path.join(server.dataDir, "outbox");
  let link;
  for (let i = 0; i < 40 && !link; i++) {
    for (const file of existsSync(outbox) ? readdirSync(outbox) : []) {
      const mail = JSON.parse(readFileSync(path.join(outbox, file), "utf8"));
      if (mail.to === email) link = /https?:\/\/\S+\/verify-email\?token=[^\s"'<>]+/.exec(mail.text)?.[0];
    }
    if (!link) await sleep(100);
  }
  assert.ok(link, "no verification mail");
  assert.equal((await call("GET", `/api/auth/verify-email?${new URL(link).searchParams}`)).status, 200);
  const login = await call("POST", "/api/auth/login", { body: { email, password } });
  assert.equal(login.status, 200, login.text);
  const token = login.json.token;

  // Every worker knows the session (each request on a new connection: the cluster spreads them).
  for (let i = 0; i < 6; i++) assert.equal((await call("GET", "/api/auth/user", { token })).status, 200);

  assert.equal((await call("POST", "/api/auth/logout", { token })).status, 200);
  // The cluster hands connections to its workers in turn: ten in a row reach both.
  for (let i = 0; i < 10; i++) {
    assert.equal((await call("GET", "/api/auth/user", { token })).status, 401, "a signed-out token must be refused by every worker");
  }
  const seen = new Set();
  for (let i = 0; i < 4; i++) seen.add((await call("GET", "/__process")).json.pid);
  assert.equal(seen.size, 2, "connections in a row reach both workers");

  const exited = new Promise((resolve) => server.child.once("exit", resolve));
  server.child.kill("SIGTERM");
  assert.equal(await exited, 0);
  for (const pid of seen) assert.throws(() => process.kill(pid, 0), "every worker stopped");
});
