// Background work over two web servers started with WORKERS=0 and worker processes
// (`npm run worker`) on one PostgreSQL database: what the web servers queue, the workers run,
// each job once; a worker killed with SIGKILL in the middle loses nothing, and what it was running
// is run again by another worker; with idle workers a job starts within a second of being queued.
// Run from .ci/run on PostgreSQL 15:
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:55432/postgres node --test tests/multi-server/job-queue.test.mjs
//
// Needs a built app (`npm run build`). Creates a throwaway database on that server and speaks
// HTTP with Bearer tokens to the web servers; it reads the queue (schema pgboss) and the product's
// tables directly to check the outcome.
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
const CREATORS = 4;
const PERSONAS_EACH = 10;
const QUEUES = ["reference-images", "persona-tests"];

/** @type {{ name: string, base: string, dataDir: string, child: import("node:child_process").ChildProcess, log: string[] }[]} */
const processes = [];
let databaseName;
let databaseUrl;
/** @type {import("postgres").Sql} */
let db;

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

function start(name, script, env) {
  const dataDir = mkdtempSync(path.join(tmpdir(), `pf-jobs-${name}-`));
  const child = spawn(process.execPath, [script], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: "production",
      DATABASE_URL: databaseUrl,
      SESSION_SECRET: SECRET,
      DATA_DIR: dataDir,
      GENERATION_QUOTA_MULTIPLIER: "100",
      LOG_REQUESTS: "0",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const log = [];
  const keep = (chunk) => {
    log.push(...String(chunk).split("\n").filter(Boolean));
    if (log.length > 300) log.splice(0, log.length - 300);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  const started = { name, dataDir, child, log, base: env.PORT ? `http://127.0.0.1:${env.PORT}` : "" };
  processes.push(started);
  return started;
}

async function startWeb(name) {
  const port = await freePort();
  const web = start(name, "app/server.mjs", {
    HOST: "127.0.0.1",
    PORT: String(port),
    APP_URL: `http://127.0.0.1:${port}`,
    TRUST_PROXY: "loopback",
    WORKERS: "0",
  });
  for (let i = 0; i < 240; i++) {
    if (web.child.exitCode !== null) break;
    try {
      const res = await fetch(`${web.base}/api/auth/user`);
      await res.arrayBuffer();
      if (res.status === 401 || res.status === 200) return web;
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  throw new Error(`web server ${name} did not come up:\n${web.log.slice(-30).join("\n")}`);
}

async function startWorker(name) {
  const worker = start(name, "app/worker.mjs", {});
  for (let i = 0; i < 240; i++) {
    if (worker.log.some((line) => line.includes("[worker] running jobs"))) return worker;
    if (worker.child.exitCode !== null) break;
    await sleep(100);
  }
  throw new Error(`worker ${name} did not start:\n${worker.log.slice(-30).join("\n")}`);
}

async function stop(proc) {
  if (proc.child.exitCode !== null || proc.child.signalCode !== null) return;
  const exited = new Promise((resolve) => proc.child.once("exit", resolve));
  proc.child.kill("SIGTERM");
  let timer;
  const stopped = await Promise.race([exited.then(() => true), new Promise((resolve) => (timer = setTimeout(resolve, 15_000, false)))]);
  clearTimeout(timer);
  if (!stopped) {
    proc.child.kill("SIGKILL");
    await exited;
  }
}

async function call(web, method, pathname, { token, body, client = "198.51.100.1" } = {}) {
  const headers = { "X-Forwarded-For": client };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(`${web.base}${pathname}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let json;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text };
}

let accounts = 0;
async function createAccount(web) {
  const email = `jobs${++accounts}-${randomBytes(4).toString("hex")}@example.test`;
  const client = `192.0.2.${accounts}`;
  const registered = await call(web, "POST", "/api/auth/register", {
    body: { firstName: "Job", lastName: "Queue", email, password },
    client,
  });
  assert.equal(registered.status, 201, registered.text);
  const outbox = path.join(web.dataDir, "outbox");
  let link;
  for (let i = 0; i < 40 && !link; i++) {
    if (existsSync(outbox)) {
      for (const file of readdirSync(outbox).filter((f) => f.endsWith(".json"))) {
        const mail = JSON.parse(readFileSync(path.join(outbox, file), "utf8"));
        link ||= mail.to === email && /https?:\/\/\S+\/verify-email\?token=[^\s"'<>]+/.exec(mail.text)?.[0];
      }
    }
    if (!link) await sleep(100);
  }
  assert.ok(link, `no verification mail for ${email}`);
  const verified = await call(web, "GET", `/api/auth/verify-email?${new URL(link).searchParams}`, { client });
  assert.equal(verified.status, 200, verified.text);
  const login = await call(web, "POST", "/api/auth/login", { body: { email, password }, client });
  assert.equal(login.status, 200, login.text);
  return login.json.token;
}

/** Rows as plain objects (postgres.js answers with an array of its own kind). */
const plain = (rows) => rows.map((row) => ({ ...row }));

const jobStates = async () =>
  plain(
    await db`select name, state::text as state, count(*)::int as jobs from pgboss.job where name in ${db(QUEUES)} group by 1, 2 order by 1, 2`,
  );

async function waitForJobs(what, done, timeoutMs = 180_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const [{ open }] = await db`select count(*)::int as open from pgboss.job where name in ${db(QUEUES)} and state < 'completed'`;
    if (done(open)) return;
    if (Date.now() > until) {
      const logs = processes.map((p) => `--- ${p.name}\n${p.log.slice(-15).join("\n")}`).join("\n");
      throw new Error(`${what}: timed out with ${open} jobs open: ${JSON.stringify(await jobStates())}\n${logs}`);
    }
    await sleep(200);
  }
}

const p95 = (values) => [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.95) - 1];

describe("background work on one PostgreSQL database: two web servers, worker processes", () => {
  let webA;
  let webB;
  const personas = [];

  before(async () => {
    assert.ok(serverUrl, "DATABASE_URL must name a PostgreSQL server");
    assert.ok(existsSync(path.join(root, "build", "index.js")), "build the app first: npm run build");
    databaseName = `pf_jobs_${randomBytes(6).toString("hex")}`;
    const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${databaseName}`);
    await admin.end();
    const url = new URL(serverUrl);
    url.pathname = `/${databaseName}`;
    databaseUrl = url.toString();
    db = postgres(databaseUrl, { max: 2, onnotice: () => {} });
    webA = await startWeb("web-a");
    webB = await startWeb("web-b");
  });

  after(async () => {
    await Promise.all(processes.map(stop));
    for (const proc of processes) rmSync(proc.dataDir, { recursive: true, force: true });
    await db?.end();
    if (databaseName) {
      const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
      await admin.unsafe(`drop database if exists ${databaseName} with (force)`);
      await admin.end();
    }
  });

  test("web servers with WORKERS=0 queue the work and run none of it; workers run each job once, a SIGKILL loses nothing", async (t) => {
    // Creators on both web servers, each with personas that have a probe.
    for (let c = 0; c < CREATORS; c++) {
      const web = c % 2 ? webB : webA;
      const token = await createAccount(web);
      for (let p = 0; p < PERSONAS_EACH; p++) {
        const created = await call(web, "POST", "/api/personas", {
          token,
          body: {
            name: `Queue ${c}-${p}`,
            type: "vtuber",
            gender: "female",
            ageRange: "18-24",
            interests: ["gaming"],
            description: "A cheerful late-night streamer.",
            personality: ["Outgoing", "Creative"],
            backstory: "",
          },
        });
        assert.equal(created.status, 201, created.text);
        const probe = await call(web, "POST", `/api/personas/${created.json.id}/probes`, {
          token,
          body: { name: "Greets", turns: ["Hi!"], inCharacter: true },
        });
        assert.equal(probe.status, 201, probe.text);
        personas.push({ id: created.json.id, token, web });
      }
    }
    // Everything queued through the two web servers.
    for (const [i, persona] of personas.entries()) {
      const web = i % 2 ? webA : webB;
      const images = await call(web, "POST", `/api/personas/${persona.id}/generate-images`, { token: persona.token });
      assert.equal(images.status, 202, images.text);
      const run = await call(web, "POST", `/api/personas/${persona.id}/probes/run`, { token: persona.token });
      assert.equal(run.status, 202, run.text);
    }
    const total = personas.length * 2;
    await sleep(1_000);
    assert.deepEqual(await jobStates(), [
      { name: "persona-tests", state: "created", jobs: personas.length },
      { name: "reference-images", state: "created", jobs: personas.length },
    ]);

    // An attempt still active 6 s after it started counts as crashed here (the operator's setting
    // through pg-boss's queue table; 3 and 10 minutes by default), so the test need not wait.
    await db`update pgboss.queue set expire_seconds = 6 where name in ${db(QUEUES)}`;
    await db`update pgboss.job set expire_in = interval '6 seconds' where name in ${db(QUEUES)}`;

    const started = Date.now();
    const workerA = await startWorker("worker-a");
    await startWorker("worker-b");
    await waitForJobs("a third done", (open) => open <= total - Math.ceil(total / 3));
    workerA.child.kill("SIGKILL");
    await new Promise((resolve) => workerA.child.once("exit", resolve));
    const cutOff = await db`select id from pgboss.job where name in ${db(QUEUES)} and state = 'active'`;
    t.diagnostic(`killed worker-a with ${cutOff.length} job(s) active across the workers`);
    // Past the expiry, another worker starts: it finds the cut-off attempts and tries them again.
    await sleep(6_500);
    await startWorker("worker-c");
    await waitForJobs("everything done", (open) => open === 0);
    t.diagnostic(`${total} jobs in ${Date.now() - started} ms with two workers, one of them killed`);

    // Each job ended once: none failed or left waiting, and only attempts cut off were run again.
    // (The new images are a new version of each persona, which queues a test run of its own.)
    const states = await jobStates();
    assert.deepEqual(
      states.filter((row) => row.state !== "completed" && row.state !== "cancelled"),
      [],
    );
    assert.deepEqual(
      states.filter((row) => row.name === "reference-images"),
      [{ name: "reference-images", state: "completed", jobs: personas.length }],
    );
    const cutOffIds = new Set(cutOff.map((row) => row.id));
    const again = await db`select id, retry_count from pgboss.job where name in ${db(QUEUES)} and retry_count > 0`;
    for (const row of again) assert.ok(cutOffIds.has(row.id), `job ${row.id} ran ${row.retry_count + 1} times without a crash`);

    // What the creators see: every persona has its images, and its newest test run completed.
    const ids = personas.map((p) => p.id);
    const [{ withImages }] =
      await db`select count(*)::int as "withImages" from public.personas where id in ${db(ids)} and image_url is not null and secondary_image_url is not null`;
    assert.equal(withImages, personas.length);
    const [{ generating }] = await db`select count(*)::int as generating from public.image_jobs`;
    assert.equal(generating, 0);
    const newest = plain(
      await db`select distinct on (persona_id) status, passed from public.probe_runs order by persona_id, created_at desc`,
    );
    assert.equal(newest.length, personas.length);
    assert.deepEqual(
      newest.filter((run) => run.status !== "completed" || run.passed !== 1),
      [],
    );
    const [{ open }] = await db`select count(*)::int as open from public.probe_runs where status in ('queued', 'running')`;
    assert.equal(open, 0);
    const interrupted = await db`select error from public.probe_runs where status = 'failed'`;
    for (const run of interrupted) assert.equal(run.error, "The run was interrupted before it finished.");
    const [{ images }] = await db`select count(*)::int as images from public.generations where kind = 'image'`;
    assert.equal(images, personas.length * 2);

    // Idle workers start a job within a second of it being queued through a web server.
    const waits = [];
    for (const persona of personas.slice(0, 20)) {
      const run = await call(persona.web, "POST", `/api/personas/${persona.id}/generate-images`, { token: persona.token });
      assert.equal(run.status, 202, run.text);
      await waitForJobs("the next image", (open) => open === 0, 30_000);
      const [job] = await db`select extract(epoch from started_on - created_on) * 1000 as ms from pgboss.job
        where name = 'reference-images' and data->>'personaId' = ${persona.id} order by created_on desc limit 1`;
      waits.push(Number(job.ms));
      await sleep(300);
    }
    t.diagnostic(`queued → started, idle workers: p95 ${p95(waits).toFixed(0)} ms over ${waits.length}`);
    assert.ok(p95(waits) <= 1_000, `p95 from queued to started is ${p95(waits)} ms`);
  });
});
