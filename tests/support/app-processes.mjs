// The built app started as processes of its own on a PostgreSQL database: web servers
// (app/server.mjs) and job workers (app/worker.mjs, `npm run worker`), for the multi-process test
// of background work and its throughput bench. Each process gets a DATA_DIR of its own; `stopAll`
// stops them (SIGTERM, then SIGKILL after 15 s) and removes those directories.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

import postgres from "postgres";

export const root = fileURLToPath(new URL("../..", import.meta.url));
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

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

/** A throwaway database on the server at `serverUrl`: its URL, and `drop()`. */
export async function throwawayDatabase(serverUrl, prefix) {
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const again = postgres(serverUrl, { max: 1, onnotice: () => {} });
      await again.unsafe(`drop database if exists ${name} with (force)`);
      await again.end();
    },
  };
}

/** Processes of the app on one database; `env` is added to every process's environment. */
export function appProcesses(databaseUrl, env = {}) {
  const secret = randomBytes(32).toString("hex");
  /** @type {{ name: string, base: string, dataDir: string, child: import("node:child_process").ChildProcess, log: string[] }[]} */
  const all = [];

  function start(name, script, own) {
    const dataDir = mkdtempSync(path.join(tmpdir(), `pf-${name}-`));
    const child = spawn(process.execPath, [script], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: "production",
        DATABASE_URL: databaseUrl,
        SESSION_SECRET: secret,
        DATA_DIR: dataDir,
        LOG_REQUESTS: "0",
        ...env,
        ...own,
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
    const started = { name, dataDir, child, log, base: own.PORT ? `http://127.0.0.1:${own.PORT}` : "" };
    all.push(started);
    return started;
  }

  return {
    all,
    /** A web server with WORKERS=0, once it answers. */
    async web(name) {
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
    },
    /** A worker process (`npm run worker`), once it runs jobs. */
    async worker(name) {
      const worker = start(name, "app/worker.mjs", {});
      for (let i = 0; i < 600; i++) {
        if (worker.log.some((line) => line.includes("[worker] running jobs"))) return worker;
        if (worker.child.exitCode !== null) break;
        await sleep(100);
      }
      throw new Error(`worker ${name} did not start:\n${worker.log.slice(-30).join("\n")}`);
    },
    async stop(proc) {
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
    },
    async stopAll() {
      await Promise.all(all.map((proc) => this.stop(proc)));
      for (const proc of all) rmSync(proc.dataDir, { recursive: true, force: true });
    },
    logs() {
      return all.map((p) => `--- ${p.name}\n${p.log.slice(-15).join("\n")}`).join("\n");
    },
  };
}

/** One JSON call to a web server with a Bearer token; `client` is the visitor's address a proxy on loopback passes. */
export async function call(web, method, pathname, { token, body, client = "198.51.100.1" } = {}) {
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
/** A verified, signed-in creator made through `web` (its outbox holds the verification mail): their token. */
export async function createAccount(web, password = "Forge!pass1") {
  const email = `jobs${++accounts}-${randomBytes(4).toString("hex")}@example.test`;
  const client = `192.0.2.${accounts % 250}`;
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

/** A finished persona of the creator's with one enabled probe, made through `web`: its id. */
export async function personaWithProbe(web, token, name) {
  const created = await call(web, "POST", "/api/personas", {
    token,
    body: {
      name,
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
  return created.json.id;
}
