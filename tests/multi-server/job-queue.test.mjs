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
import { existsSync } from "node:fs";
import path from "node:path";
import { after, before, describe, test } from "node:test";

import postgres from "postgres";

import { appProcesses, call, createAccount, personaWithProbe, root, sleep, throwawayDatabase } from "../support/app-processes.mjs";

const serverUrl = process.env.DATABASE_URL;
const CREATORS = 4;
const PERSONAS_EACH = 10;
const QUEUES = ["reference-images", "persona-tests"];

let database;
let apps;
/** @type {import("postgres").Sql} */
let db;

/** Rows as plain objects (postgres.js answers with an array of its own kind). */
const plain = (rows) => rows.map((row) => ({ ...row }));

const jobStates = async () =>
  plain(
    await db`select name, state::text as state, count(*)::int as jobs from pgboss.job where name in ${db(QUEUES)} group by 1, 2 order by 1, 2`,
  );

async function waitForJobs(what, done, timeoutMs = 180_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const [{ open, completed }] =
      await db`select count(*) filter (where state < 'completed')::int as open, count(*) filter (where state = 'completed')::int as completed
        from pgboss.job where name in ${db(QUEUES)}`;
    if (done(open, completed)) return;
    if (Date.now() > until)
      throw new Error(`${what}: timed out with ${open} jobs open: ${JSON.stringify(await jobStates())}\n${apps.logs()}`);
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
    database = await throwawayDatabase(serverUrl, "pf_jobs");
    db = postgres(database.url, { max: 2, onnotice: () => {} });
    apps = appProcesses(database.url, { GENERATION_QUOTA_MULTIPLIER: "100" });
    webA = await apps.web("web-a");
    webB = await apps.web("web-b");
  });

  after(async () => {
    await apps?.stopAll();
    await db?.end();
    await database?.drop();
  });

  test("web servers with WORKERS=0 queue the work and run none of it; workers run each job once, a SIGKILL loses nothing", async (t) => {
    // Creators on both web servers, each with personas that have a probe.
    for (let c = 0; c < CREATORS; c++) {
      const web = c % 2 ? webB : webA;
      const token = await createAccount(web);
      for (let p = 0; p < PERSONAS_EACH; p++) personas.push({ id: await personaWithProbe(web, token, `Queue ${c}-${p}`), token, web });
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
    // Two of each creator's runs have their job; the rest wait for their creator's turn
    // (personaforge.test_runs_per_creator, docs/deployment.md).
    assert.deepEqual(await jobStates(), [
      { name: "persona-tests", state: "created", jobs: CREATORS * 2 },
      { name: "reference-images", state: "created", jobs: personas.length },
    ]);

    // An attempt still active 6 s after it started counts as crashed here (the operator's setting
    // through pg-boss's queue table; 3 and 10 minutes by default), so the test need not wait.
    await db`update pgboss.queue set expire_seconds = 6 where name in ${db(QUEUES)}`;
    await db`update pgboss.job set expire_in = interval '6 seconds' where name in ${db(QUEUES)}`;

    const started = Date.now();
    const workerA = await apps.worker("worker-a");
    await apps.worker("worker-b");
    await waitForJobs("a third done", (_open, completed) => completed >= Math.ceil(total / 3));
    workerA.child.kill("SIGKILL");
    await new Promise((resolve) => workerA.child.once("exit", resolve));
    const cutOff = await db`select id from pgboss.job where name in ${db(QUEUES)} and state = 'active'`;
    t.diagnostic(`killed worker-a with ${cutOff.length} job(s) active across the workers`);
    // Past the expiry, another worker starts: it finds the cut-off attempts and tries them again.
    await sleep(6_500);
    await apps.worker("worker-c");
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
