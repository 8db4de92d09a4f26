// Two app servers on one PostgreSQL database, as behind a load balancer: the abuse limits,
// the sessions, the plan limit and fresh reads after writes must hold across both. Run from
// .ci/run on PostgreSQL 15:
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:55432/postgres node --test tests/multi-server/*.test.mjs
//
// Needs a built app (`npm run build`). Creates a throwaway database on that server, starts
// `node app/server.mjs` twice on free ports of 127.0.0.1 (same DATABASE_URL and SESSION_SECRET,
// a DATA_DIR each), speaks only HTTP with Bearer tokens (no cookies), and stops both at the end.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";

import postgres from "postgres";

const root = fileURLToPath(new URL("../..", import.meta.url));
const serverUrl = process.env.DATABASE_URL;
const SECRET = randomBytes(32).toString("hex");
const password = "Forge!pass1";

/** @type {{ name: string, base: string, dataDir: string, child: import("node:child_process").ChildProcess, log: string[] }[]} */
const servers = [];
let databaseName;
let databaseUrl;

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

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function startServer(name, port, appUrl) {
  const dataDir = mkdtempSync(path.join(tmpdir(), `pf-multi-${name}-`));
  const child = spawn(process.execPath, ["app/server.mjs"], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      APP_URL: appUrl,
      DATABASE_URL: databaseUrl,
      SESSION_SECRET: SECRET,
      DATA_DIR: dataDir,
      TRUST_PROXY: "loopback",
      LOG_REQUESTS: "0",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const log = [];
  const keep = (chunk) => {
    log.push(...String(chunk).split("\n").filter(Boolean));
    if (log.length > 200) log.splice(0, log.length - 200);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  const server = { name, base: `http://127.0.0.1:${port}`, dataDir, child, log };
  servers.push(server);
  return server;
}

async function waitUntilUp(server) {
  for (let i = 0; i < 240; i++) {
    if (server.child.exitCode !== null) break;
    try {
      const res = await fetch(`${server.base}/api/auth/user`);
      await res.arrayBuffer();
      if (res.status === 401 || res.status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  throw new Error(`server ${server.name} did not come up:\n${server.log.slice(-30).join("\n")}`);
}

async function stopServer(server) {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  const exited = new Promise((resolve) => server.child.once("exit", resolve));
  server.child.kill("SIGTERM");
  let timer;
  const stopped = await Promise.race([exited.then(() => true), new Promise((resolve) => (timer = setTimeout(resolve, 15_000, false)))]);
  clearTimeout(timer);
  if (!stopped) {
    server.child.kill("SIGKILL");
    await exited;
  }
}

/** One JSON call; `client` is the visitor's address, as a proxy on loopback would pass it. */
async function call(server, method, pathname, { token, body, client = "198.51.100.1" } = {}) {
  const headers = { "X-Forwarded-For": client };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(`${server.base}${pathname}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, json, text };
}

let accounts = 0;
/** Registers on `via`, verifies through the link mailed to `via`'s outbox (on `verifyOn`), signs in on `verifyOn`. */
async function createAccount(via, verifyOn = via) {
  const email = `multi${++accounts}-${randomBytes(4).toString("hex")}@example.test`;
  const client = `192.0.2.${accounts}`;
  const registered = await call(via, "POST", "/api/auth/register", {
    body: { firstName: "Multi", lastName: "Server", email, password },
    client,
  });
  assert.equal(registered.status, 201, registered.text);
  const link = await verificationLink(via, email);
  const verified = await call(verifyOn, "GET", `/api/auth/verify-email?${new URL(link).searchParams}`, { client });
  assert.equal(verified.status, 200, verified.text);
  const login = await call(verifyOn, "POST", "/api/auth/login", { body: { email, password }, client });
  assert.equal(login.status, 200, login.text);
  return { email, token: login.json.token };
}

async function verificationLink(server, email) {
  const outbox = path.join(server.dataDir, "outbox");
  for (let i = 0; i < 40; i++) {
    if (existsSync(outbox)) {
      for (const file of readdirSync(outbox)
        .filter((f) => f.endsWith(".json"))
        .sort()
        .reverse()) {
        const mail = JSON.parse(readFileSync(path.join(outbox, file), "utf8"));
        const link = mail.to === email && /https?:\/\/\S+\/verify-email\?token=[^\s"'<>]+/.exec(mail.text)?.[0];
        if (link) return link;
      }
    }
    await sleep(100);
  }
  throw new Error(`no verification mail for ${email} in ${outbox}`);
}

const persona = (name) => ({
  name,
  type: "vtuber",
  gender: "female",
  ageRange: "18-24",
  interests: ["gaming", "music"],
  description: "A cheerful late-night streamer.",
  personality: ["Outgoing", "Creative"],
});

describe("two app servers on one PostgreSQL database", () => {
  let a;
  let b;

  before(async () => {
    assert.ok(serverUrl, "DATABASE_URL must name a PostgreSQL server (a role that may create databases)");
    assert.ok(existsSync(path.join(root, "build", "index.js")), "build the app first: npm run build");
    databaseName = `pf_multi_${randomBytes(6).toString("hex")}`;
    // TEST_DATABASE_TEMPLATE: start from a copy of a prepared database (CI: a pristine
    // Supabase-faithful one, so the servers run plain-Postgres mode on Supabase's schema).
    const template = process.env.TEST_DATABASE_TEMPLATE ?? "";
    assert.match(template, /^[a-z0-9_]*$/, "TEST_DATABASE_TEMPLATE must match [a-z0-9_]+");
    const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${databaseName}${template ? ` template ${template}` : ""}`);
    await admin.end();
    const url = new URL(serverUrl);
    url.pathname = `/${databaseName}`;
    databaseUrl = url.toString();

    const [portA, portB] = [await freePort(), await freePort()];
    const appUrl = `http://127.0.0.1:${portA}`;
    // Both start at once: the migrations' advisory lock lets exactly one apply them.
    a = await startServer("A", portA, appUrl);
    b = await startServer("B", portB, appUrl);
    await Promise.all([waitUntilUp(a), waitUntilUp(b)]);
  });

  after(async () => {
    await Promise.all(servers.map(stopServer));
    for (const server of servers) rmSync(server.dataDir, { recursive: true, force: true });
    if (databaseName) {
      const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
      await admin.unsafe(`drop database if exists ${databaseName} with (force)`);
      await admin.end();
    }
  });

  test("a session made on one server works on the other, and signing out on one ends it on both", async () => {
    // Registered on A, verified and signed in on B.
    const { email, token } = await createAccount(a, b);
    for (const server of [a, b]) {
      const me = await call(server, "GET", "/api/auth/user", { token });
      assert.equal(me.status, 200, `${server.name}: ${me.text}`);
      assert.equal(me.json.email ?? me.json.user?.email, email);
    }
    const out = await call(a, "POST", "/api/auth/logout", { token });
    assert.ok(out.status >= 200 && out.status < 300, out.text);
    for (const server of [b, a]) {
      const me = await call(server, "GET", "/api/auth/user", { token });
      assert.equal(me.status, 401, `${server.name} still accepts a signed-out token: ${me.text}`);
    }
  });

  test("the sign-in limit holds across both servers: 20 parallel guesses, 10 to each, only 5 evaluated", async () => {
    const { email } = await createAccount(b);
    const attacker = "203.0.113.66";
    const guesses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call(i % 2 ? b : a, "POST", "/api/auth/login", { body: { email, password: `Wrong!pass${i}` }, client: attacker }),
      ),
    );
    const statuses = guesses.map((g) => g.status);
    assert.equal(statuses.filter((s) => s === 401).length, 5, `401s: ${statuses.join(",")}`);
    assert.equal(statuses.filter((s) => s === 429).length, 15, `429s: ${statuses.join(",")}`);
    const refused = guesses.find((g) => g.status === 429);
    assert.match(refused.json.message, /^Too many failed sign-in attempts\. Please try again in \d+ minutes?\.$/);
    assert.ok(Number(refused.headers.get("retry-after")) > 800, `Retry-After: ${refused.headers.get("retry-after")}`);

    // Sequential failures split across the servers count together too.
    for (const server of [a, b]) {
      const right = await call(server, "POST", "/api/auth/login", { body: { email, password }, client: attacker });
      assert.equal(right.status, 429, `${server.name} let the attacker's client in: ${right.text}`);
    }
    // The owner on another client is not locked out, on either server.
    for (const server of [b, a]) {
      const owner = await call(server, "POST", "/api/auth/login", { body: { email, password }, client: "198.51.100.200" });
      assert.equal(owner.status, 200, `${server.name}: ${owner.text}`);
    }
  });

  test("the plan limit holds across both servers: 20 parallel creations for a Free user with 9 personas → exactly one", async () => {
    const { token } = await createAccount(a);
    for (let i = 0; i < 9; i++) {
      const draft = await call(i % 2 ? b : a, "POST", "/api/personas/draft", { token, body: { name: `Draft ${i}` } });
      assert.equal(draft.status, 201, draft.text);
    }
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => call(i % 2 ? b : a, "POST", "/api/personas", { token, body: persona(`Racer ${i}`) })),
    );
    const statuses = results.map((r) => r.status);
    assert.equal(statuses.filter((s) => s === 201).length, 1, `statuses: ${statuses.join(",")}`);
    for (const s of statuses.filter((s) => s !== 201)) assert.ok(s >= 400 && s < 500, `statuses: ${statuses.join(",")}`);
    const usage = await call(b, "GET", "/api/user/usage", { token });
    assert.deepEqual(usage.json, { subscriptionStatus: "free", canCreateMore: false });
  });

  test("fresh after writes across servers: a write on one, the next reads on the other see it, 1,000 times", async () => {
    // What each server keeps (docs/architecture.md, kept reads) must never answer for a write
    // the other server made: the persona, the library's list and a search, right after the write.
    const { token } = await createAccount(a);
    const created = await call(a, "POST", "/api/personas", { token, body: persona("Fresh Reader") });
    assert.equal(created.status, 201, created.text);
    const id = created.json.id;
    const stale = [];
    for (let i = 0; i < 1_000; i++) {
      const [writer, reader] = i % 2 ? [b, a] : [a, b];
      const description = `Streams at night, take ${i}.`;
      const wrote = await call(writer, "PATCH", `/api/personas/${id}`, { token, body: { ...persona("Fresh Reader"), description } });
      assert.equal(wrote.status, 200, wrote.text);
      const [one, list, search] = await Promise.all([
        call(reader, "GET", `/api/personas/${id}`, { token }),
        call(reader, "GET", "/api/personas?pageSize=12", { token }),
        call(reader, "GET", `/api/personas?q=${encodeURIComponent(`take ${i}.`)}`, { token }),
      ]);
      if (one.json?.description !== description) stale.push(`#${i} ${reader.name} persona: ${one.json?.description}`);
      const listed = Array.isArray(list.json) ? list.json.find((p) => p.id === id) : undefined;
      if (listed?.description !== description) stale.push(`#${i} ${reader.name} list: ${listed?.description}`);
      if (!Array.isArray(search.json) || search.json.length !== 1) stale.push(`#${i} ${reader.name} search: ${search.text.slice(0, 80)}`);
    }
    assert.deepEqual(stale.slice(0, 10), [], `${stale.length} stale reads of 3,000`);
  });
});
