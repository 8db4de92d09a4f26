// Starting and stopping a server of its own (the build the e2e server runs), on a data
// directory of its own: a clean stop finishes what is in flight and releases the database;
// a lock left behind by a crash, or whose PID now belongs to another process, never blocks
// a restart.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { expect, freePort, test } from "./support";

const root = fileURLToPath(new URL("../..", import.meta.url));

interface Running {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
}

/** The server as `node app/server.mjs` starts it, or through npm (`npm run serve`), whose PID is then the child's. */
async function startServer(dataDir: string, { viaNpm = false } = {}): Promise<Running> {
  const port = await freePort();
  const [command, args] = viaNpm ? ["npm", ["run", "-s", "serve"]] : [process.execPath, ["app/server.mjs"]];
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, NODE_ENV: "production", LOG_REQUESTS: "0" },
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  await expect
    .poll(async () => (await fetch(`${url}/api/auth/user`).catch(() => null))?.status ?? (child.exitCode !== null ? "exited" : 0), {
      timeout: 60_000,
    })
    .toBe(401);
  return { child, url, output: () => output, exited };
}

// Each test starts servers of its own on fresh databases (migrations included): more time than a page test.
test.describe.configure({ timeout: 120_000 });

const lockOf = (dataDir: string) => path.join(dataDir, "pgdata", "postmaster.personaforge.lock");

test("SIGTERM: new connections refused, the request in flight answered, the database closed and its lock released", async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "pf-lifecycle-"));
  const server = await startServer(dataDir);
  expect(existsSync(lockOf(dataDir))).toBe(true);

  // Refusals are logged as one line each (even with the request log off), never a stack trace.
  const before = server.output().length;
  expect((await fetch(`${server.url}/api/personas/stats`, { method: "POST" })).status).toBe(405);
  expect((await fetch(`${server.url}/api/no-such-call`)).status).toBe(404);
  expect((await fetch(`${server.url}/logout`, { method: "POST", headers: { Origin: "http://evil.example" } })).status).toBe(403);
  const logged = () =>
    server
      .output()
      .slice(before)
      .trim()
      .split("\n")
      .filter((line) => !line.startsWith("GET /api/auth/user 401"));
  await expect.poll(() => logged().length).toBe(3);
  // Each is logged when its answer has been sent, so not necessarily in the order asked.
  for (const line of [/^POST \/api\/personas\/stats 405 /, /^GET \/api\/no-such-call 404 /, /^POST \/logout 403 /]) {
    expect(logged().filter((entry) => line.test(entry))).toHaveLength(1);
  }

  // A request whose body is still arriving when the stop begins.
  let finishBody = () => {};
  const rest = new Promise<void>((resolve) => (finishBody = resolve));
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(encoder.encode('{"email":"someone@example.com",'));
      await rest;
      controller.enqueue(encoder.encode('"password":"Wrong#Pass1"}'));
      controller.close();
    },
  });
  const inFlight = fetch(`${server.url}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body,
    duplex: "half",
  } as RequestInit);
  await new Promise((resolve) => setTimeout(resolve, 200));

  server.child.kill("SIGTERM");
  await expect.poll(() => server.output()).toContain("SIGTERM: finishing requests in flight");
  await expect(fetch(`${server.url}/api/auth/user`)).rejects.toThrow();

  finishBody();
  const answer = await inFlight;
  expect(answer.status).toBe(401);
  expect((await answer.json()).message).toBe("Invalid email or password.");

  expect(await server.exited).toBe(0);
  expect(server.output()).toContain("[personaforge] stopped");
  expect(existsSync(lockOf(dataDir))).toBe(false);

  // The same data directory opens again at once.
  const again = await startServer(dataDir);
  again.child.kill("SIGINT");
  expect(await again.exited).toBe(0);
});

test("a signal to npm's process stops the server and its database, leaving nothing running", async () => {
  // Both scripts end by exec-ing Node in the place of npm's shell, so npm's signal reaches the
  // server itself; `npm start` builds first, then runs what `npm run serve` runs.
  const scripts = (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
  expect(scripts.serve).toMatch(/^exec node /);
  expect(scripts.start).toBe(`npm run -s build && ${scripts.serve}`);
  const dataDir = mkdtempSync(path.join(tmpdir(), "pf-lifecycle-npm-"));
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    const server = await startServer(dataDir, { viaNpm: true });
    server.child.kill(signal);
    await server.exited;
    await expect
      .poll(() =>
        fetch(`${server.url}/api/auth/user`).then(
          () => "answering",
          () => "stopped",
        ),
      )
      .toBe("stopped");
    // An orphaned server would still answer and hold the database's lock.
    await expect.poll(() => existsSync(lockOf(dataDir))).toBe(false);
    const survivors = execFileSync("ps", ["-eo", "pid=,args="], { encoding: "utf8" })
      .split("\n")
      .filter((line) => line.includes("app/server.mjs"))
      .map((line) => line.trim().split(" ")[0]!)
      .filter((pid) => readFileSync(`/proc/${pid}/environ`, "utf8").includes(`DATA_DIR=${dataDir}`));
    expect(survivors).toEqual([]);
  }
});

test("a lock left by a crash, or naming a PID that now belongs to another process, does not block the start", async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "pf-lifecycle-"));
  const first = await startServer(dataDir);
  first.child.kill("SIGKILL");
  await first.exited;
  expect(existsSync(lockOf(dataDir))).toBe(true);

  // The crashed server's PID now belongs to an unrelated live process: the test runner itself.
  mkdirSync(path.dirname(lockOf(dataDir)), { recursive: true });
  writeFileSync(lockOf(dataDir), JSON.stringify({ pid: process.pid, started: "1" }));
  const second = await startServer(dataDir);
  expect(second.output()).not.toContain("in use by process");

  // While it runs, a second server on the same directory is refused with a readable message.
  const port = await freePort();
  const third = spawn(process.execPath, ["app/server.mjs"], {
    cwd: root,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, NODE_ENV: "production" },
  });
  let output = "";
  third.stderr!.on("data", (chunk) => (output += chunk));
  const code = await new Promise((resolve) => third.once("exit", resolve));
  expect(code).toBe(1);
  expect(output).toContain(`is in use by process ${second.child.pid}`);
  expect(output).not.toMatch(/\n\s+at /);

  second.child.kill("SIGTERM");
  expect(await second.exited).toBe(0);
});

test("several processes need a server database: WEB_CONCURRENCY=2 on the embedded one is refused with a readable message", async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "pf-lifecycle-"));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(await freePort()),
    DATA_DIR: dataDir,
    NODE_ENV: "production",
    WEB_CONCURRENCY: "2",
  };
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, ["app/server.mjs"], { cwd: root, env });
  let output = "";
  child.stderr!.on("data", (chunk) => (output += chunk));
  const code = await new Promise((resolve) => child.once("exit", resolve));
  expect(code).toBe(1);
  expect(output).toContain("WEB_CONCURRENCY=2 needs DATABASE_URL");
  expect(output).not.toMatch(/\n\s+at /);
  // Nothing was opened: no lock in the data directory.
  expect(existsSync(lockOf(dataDir))).toBe(false);
});

test("several processes whose database cannot be reached: the workers are not restarted forever, the server stops with exit 1", async () => {
  test.setTimeout(60_000);
  // Nothing listens on this port: every worker fails to start.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(await freePort()),
    NODE_ENV: "production",
    WEB_CONCURRENCY: "2",
    DATABASE_URL: `postgres://postgres@127.0.0.1:${await freePort()}/postgres`,
  };
  const child = spawn(process.execPath, ["app/server.mjs"], { cwd: root, env });
  let output = "";
  child.stderr!.on("data", (chunk) => (output += chunk));
  const code = await new Promise((resolve) => child.once("exit", resolve));
  expect(code).toBe(1);
  expect(output).toContain("workers in a row exited within 10 s of starting");
  expect(output).not.toMatch(/\n\s+at /);
});

test("the process metrics the bench reads are off unless PF_PROCESS_METRICS=1", async () => {
  const server = await startServer(mkdtempSync(path.join(tmpdir(), "pf-lifecycle-")));
  expect((await fetch(`${server.url}/__process`)).status).toBe(404);
  server.child.kill("SIGTERM");
  expect(await server.exited).toBe(0);
});
