// Background work's throughput over worker processes on one PostgreSQL database
// (docs/decisions/041-one-job-queue.md):
//
//   npm run build && node tests/bench/job-queue-throughput.mjs postgres://postgres@127.0.0.1:55432/postgres [--images 500] [--runs 200]
//
// On a throwaway database: two web servers with WORKERS=0; creators (Premium, so any number of
// personas) with personas that have one probe. Two equal halves of the work are queued through
// the web servers: reference-image generations and test runs, each half while no worker runs. The
// first half is run by one worker process, the second by two, each timed from the workers' start
// until nothing is left (the new images are a new version of each persona, so each also queues a
// version run; a worker's start, about a second, is in the figure).
// Then: every job ended once (no job ran twice, none failed), and with idle workers the time from
// queued to started, over 20 generations. Prints the figures and writes them to --out (JSON).
import assert from "node:assert/strict";
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";

import postgres from "postgres";

import { appProcesses, call, createAccount, personaWithProbe, root, sleep, throwawayDatabase } from "../support/app-processes.mjs";

const serverUrl = process.argv[2];
const option = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const IMAGES = Number(option("images", "500"));
const RUNS = Number(option("runs", "200"));
const out = option("out");
const PERSONAS_EACH = 50;
const QUEUES = ["reference-images", "persona-tests"];

assert.ok(serverUrl?.startsWith("postgres"), "usage: node tests/bench/job-queue-throughput.mjs postgres://… [--images N] [--runs N]");
assert.ok(existsSync(path.join(root, "build", "index.js")), "build the app first: npm run build");

const database = await throwawayDatabase(serverUrl, "pf_jobs_bench");
const db = postgres(database.url, { max: 2, onnotice: () => {} });
const apps = appProcesses(database.url, { GENERATION_QUOTA_MULTIPLIER: "1000" });
const p = (values, q) => [...values].sort((a, b) => a - b)[Math.ceil((values.length * q) / 100) - 1];

async function drain() {
  for (;;) {
    const [{ open }] = await db`select count(*)::int as open from pgboss.job where name in ${db(QUEUES)} and state < 'completed'`;
    if (open === 0) return;
    await sleep(100);
  }
}

try {
  const webs = [await apps.web("web-a"), await apps.web("web-b")];
  const personas = [];
  const needed = Math.max(IMAGES, RUNS);
  for (let c = 0; personas.length < needed; c++) {
    const web = webs[c % 2];
    const token = await createAccount(web);
    await db`update public.profiles set subscription_status = 'active' where id = (select id from auth.users order by created_at desc limit 1)`;
    for (let i = 0; i < PERSONAS_EACH && personas.length < needed; i++) {
      personas.push({ id: await personaWithProbe(web, token, `Bench ${c}-${i}`), token, web: webs[(c + i) % 2] });
    }
  }
  console.log(`${personas.length} personas with a probe, on two web servers`);

  async function queueHalf(half) {
    const from = (n) => (half === 0 ? 0 : Math.floor(n / 2));
    const to = (n) => (half === 0 ? Math.floor(n / 2) : n);
    for (const persona of personas.slice(from(IMAGES), to(IMAGES))) {
      const answer = await call(persona.web, "POST", `/api/personas/${persona.id}/generate-images`, { token: persona.token });
      assert.equal(answer.status, 202, answer.text);
    }
    for (const persona of personas.slice(from(RUNS), to(RUNS))) {
      const answer = await call(persona.web, "POST", `/api/personas/${persona.id}/probes/run`, { token: persona.token });
      assert.equal(answer.status, 202, answer.text);
    }
  }

  const phases = [];
  for (const [half, workers] of [
    [0, 1],
    [1, 2],
  ]) {
    // Queued with no worker running; then the phase's workers start together and run it all.
    await queueHalf(half);
    const [{ before }] = await db`select count(*)::int as before from pgboss.job where name in ${db(QUEUES)} and state = 'completed'`;
    const started = performance.now();
    const running = await Promise.all(Array.from({ length: workers }, (_, i) => apps.worker(`worker-${half}-${i}`)));
    await drain();
    const ms = performance.now() - started;
    if (half === 0) await Promise.all(running.map((worker) => apps.stop(worker)));
    const [{ after }] = await db`select count(*)::int as after from pgboss.job where name in ${db(QUEUES)} and state = 'completed'`;
    const jobs = after - before;
    phases.push({ workers, jobs, ms: Math.round(ms), jobsPerSecond: Math.round((jobs / (ms / 1000)) * 10) / 10 });
    console.log(`${workers} worker process(es): ${jobs} jobs in ${(ms / 1000).toFixed(1)} s = ${phases.at(-1).jobsPerSecond} jobs/s`);
  }

  const states = await db`select state::text as state, count(*)::int as jobs from pgboss.job where name in ${db(QUEUES)} group by 1`;
  const twice = await db`select count(*)::int as jobs from pgboss.job where name in ${db(QUEUES)} and retry_count > 0`;
  console.log(`job states: ${states.map((row) => `${row.jobs} ${row.state}`).join(", ")}; run more than once: ${twice[0].jobs}`);

  const waits = [];
  for (const persona of personas.slice(0, 20)) {
    const answer = await call(persona.web, "POST", `/api/personas/${persona.id}/generate-images`, { token: persona.token });
    assert.equal(answer.status, 202, answer.text);
    await drain();
    const [job] = await db`select extract(epoch from started_on - created_on) * 1000 as ms from pgboss.job
      where name = 'reference-images' and data->>'personaId' = ${persona.id} order by created_on desc limit 1`;
    waits.push(Number(job.ms));
    await sleep(300);
  }
  const pickup = { p50: Math.round(p(waits, 50)), p95: Math.round(p(waits, 95)) };
  console.log(`queued → started with idle workers: p50 ${pickup.p50} ms, p95 ${pickup.p95} ms (20 generations)`);
  const result = {
    images: IMAGES,
    runs: RUNS,
    phases,
    ratio: Math.round((phases[1].jobsPerSecond / phases[0].jobsPerSecond) * 100) / 100,
    states: Object.fromEntries(states.map((row) => [row.state, row.jobs])),
    ranTwice: twice[0].jobs,
    pickup,
  };
  console.log(`two worker processes ÷ one: ${result.ratio}`);
  if (out) writeFileSync(out, JSON.stringify(result, null, 2));
} finally {
  await apps.stopAll();
  await db.end();
  await database.drop();
}
