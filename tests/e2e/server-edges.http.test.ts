// A server of its own, with its whole log kept (every request logged, no proxy trusted), on a
// data directory of its own: what the log says of a sign-up, verification, sign-in and reset
// (never their tokens), the methods the site does not answer, a refused body on a connection
// the client closes, forwarded headers nobody vouches for, and what a killed write left behind.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { expect, freePort, newEmail, strongPassword, test } from "./support";

const root = fileURLToPath(new URL("../..", import.meta.url));

interface Running {
  child: ChildProcess;
  url: string;
  port: number;
  dataDir: string;
  log: () => string;
}

let server: Running;

async function startServer(dataDir: string): Promise<Running> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, NODE_ENV: "production" };
  delete env.LOG_REQUESTS;
  delete env.TRUST_PROXY;
  const child = spawn(process.execPath, ["app/server.mjs"], { cwd: root, env });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${port}`;
  await expect
    .poll(async () => (await fetch(`${url}/api/auth/user`).catch(() => null))?.status ?? (child.exitCode !== null ? "exited" : 0), {
      timeout: 60_000,
    })
    .toBe(401);
  return { child, url, port, dataDir, log: () => output };
}

function mails(dataDir: string) {
  const dir = path.join(dataDir, "outbox");
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json") && !f.startsWith("."))
    .sort()
    .map((f) => JSON.parse(readFileSync(path.join(dir, f), "utf8")) as { to: string; subject: string; text: string });
}

async function tokenMailed(to: string, subject: RegExp): Promise<string> {
  let token = "";
  await expect
    .poll(() => {
      const mail = mails(server.dataDir)
        .filter((m) => m.to === to && subject.test(m.subject))
        .at(-1);
      token = mail?.text.match(/[?&]token=([^\s&)]+)/)?.[1] ?? "";
      return token !== "";
    })
    .toBe(true);
  return decodeURIComponent(token);
}

/** One request over a raw socket; answers the status line and headers (or the error that ended it). */
function raw(port: number, head: string, bodyBytes = 0): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let answer = "";
    socket.on("data", (chunk) => (answer += chunk.toString("latin1")));
    socket.on("error", (error: NodeJS.ErrnoException) => resolve(`${error.code} after ${JSON.stringify(answer.slice(0, 40))}`));
    socket.on("close", () => resolve(answer));
    socket.write(head);
    const piece = Buffer.alloc(64 * 1024, 97);
    let sent = 0;
    const pump = () => {
      while (sent < bodyBytes) {
        sent += piece.length;
        if (!socket.write(piece)) return void socket.once("drain", pump);
      }
    };
    pump();
  });
}

// A server of its own starts on a fresh database (migrations included).
test.describe.configure({ mode: "serial", timeout: 120_000 });

const USER = "7f0c1f7e-9a55-4a39-9d0b-3c7e2a1b6f10";
const PERSONA = "0b7d3f7e-2c11-4d7a-8f3e-5a6b7c8d9e01";

test.beforeAll(async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "personaforge-edges-"));
  // What a write killed between its temporary file and the rename leaves, from an earlier run.
  const folder = path.join(dataDir, "images", USER, PERSONA);
  mkdirSync(folder, { recursive: true });
  const stale = path.join(folder, "primary-0123456789abcdef.webp.tmp-4242-deadbeef");
  const fresh = path.join(folder, "primary-0123456789abcdef.webp.tmp-4243-cafebabe");
  writeFileSync(stale, "half an image");
  writeFileSync(fresh, "being written");
  writeFileSync(path.join(folder, "primary-0123456789abcdef.webp"), "an image");
  const hourAgo = new Date(Date.now() - 60 * 60 * 1000);
  utimesSync(stale, hourAgo, hourAgo);
  server = await startServer(dataDir);
});

test.afterAll(async () => {
  server?.child.kill("SIGTERM");
});

test("the log of a sign-up, verification, sign-in and password reset holds none of their tokens", async () => {
  const { url } = server;
  const email = newEmail("logged");
  const password = strongPassword();
  const registered = await fetch(`${url}/api/auth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ firstName: "Log", lastName: "Reader", email, password }),
  });
  expect(registered.status).toBe(201);
  const verification = await tokenMailed(email, /confirm/i);
  expect((await fetch(`${url}/verify-email?token=${encodeURIComponent(verification)}`)).status).toBe(200);
  expect((await fetch(`${url}/api/auth/verify-email?token=${encodeURIComponent(verification)}`)).status).toBeLessThan(500);

  const login = await fetch(`${url}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  expect(login.status).toBe(200);
  const { token } = (await login.json()) as { token: string };
  const linked = await fetch(`${url}/?token=${encodeURIComponent(token)}`, { redirect: "manual" });
  expect(linked.status).toBe(302);
  expect(linked.headers.get("location")).toBe("/dashboard");

  const forgot = await fetch(`${url}/api/auth/forgot-password`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email }),
  });
  expect(forgot.status).toBe(200);
  const reset = await tokenMailed(email, /reset/i);
  expect((await fetch(`${url}/reset-password?token=${encodeURIComponent(reset)}`)).status).toBe(200);
  const changed = await fetch(`${url}/api/auth/reset-password`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ token: reset, password: strongPassword() }),
  });
  expect(changed.status).toBe(200);
  // An OAuth-style return with a code and a state.
  await fetch(`${url}/auth/callback?code=c0de-${token.slice(-12)}&state=st4te-${reset.slice(-8)}`, { redirect: "manual" });

  await expect.poll(() => server.log()).toContain("POST /api/auth/reset-password");
  // The embedded outbox is this server's mailbox: its '[mail]' line is the delivered mail
  // itself (with SMTP nothing of a mail is logged). Nothing else may carry a token.
  const log = server
    .log()
    .split("\n")
    .filter((line) => !line.startsWith("[mail] "))
    .join("\n");
  for (const secret of [verification, token, reset, `c0de-${token.slice(-12)}`, `st4te-${reset.slice(-8)}`]) {
    expect(log).not.toContain(secret);
    expect(log).not.toContain(encodeURIComponent(secret));
  }
  expect(log).toContain("GET /?token=[redacted] 302");
  expect(log).toContain("GET /reset-password?token=[redacted] 200");
});

test("methods the site does not answer are 405 or 501, with no error in the log", async () => {
  const { port } = server;
  const close = "Host: 127.0.0.1\r\nConnection: close\r\n\r\n";
  for (const method of ["TRACE", "PROPFIND", "PURGE"]) {
    for (const target of ["/", "/api/personas", "/dashboard"]) {
      const answer = await raw(port, `${method} ${target} HTTP/1.1\r\n${close}`);
      expect(answer, `${method} ${target}`).toMatch(/^HTTP\/1\.1 405 /);
      expect(answer).toMatch(/\r\nAllow: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS\r\n/i);
    }
  }
  expect(await raw(port, `CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n`)).toMatch(/^HTTP\/1\.1 405 /);
  expect(await raw(port, `BREW / HTTP/1.1\r\n${close}`)).toMatch(/^HTTP\/1\.1 501 /);
  // The server goes on answering, and nothing of this was an error.
  expect((await fetch(`${server.url}/api/auth/user`)).status).toBe(401);
  expect(server.log()).not.toMatch(/\[server\]/);
});

test("an oversized body on a connection the client closes still gets its 413", async () => {
  for (let round = 0; round < 5; round++) {
    const size = 8 * 1024 * 1024;
    const answer = await raw(
      server.port,
      `POST /api/auth/register HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${size}\r\nConnection: close\r\n\r\n`,
      size,
    );
    expect(answer, `round ${round}`).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toContain("Request body too large");
  }
});

test("without TRUST_PROXY, X-Forwarded-Host cannot make another site's post look like ours", async () => {
  const { url } = server;
  const email = newEmail("forwarded");
  const password = strongPassword();
  await fetch(`${url}/api/auth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ firstName: "Fern", lastName: "Ward", email, password }),
  });
  const verification = await tokenMailed(email, /confirm/i);
  await fetch(`${url}/api/auth/verify-email?token=${encodeURIComponent(verification)}`);
  const login = await fetch(`${url}/login`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: url },
    body: new URLSearchParams({ email, password, redirectTo: "/dashboard" }),
    redirect: "manual",
  });
  expect(login.status).toBe(302);
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const forged = await fetch(`${url}/logout`, {
    method: "POST",
    headers: {
      Cookie: cookie,
      Origin: "http://evil.example",
      "X-Forwarded-Host": "evil.example",
      "Content-Type": "application/x-www-form-urlencoded",
    },
    body: "",
    redirect: "manual",
  });
  expect(forged.status).toBe(403);
  // Still signed in.
  const dashboard = await fetch(`${url}/dashboard`, { headers: { Cookie: cookie }, redirect: "manual" });
  expect(dashboard.status).toBe(200);
});

test("half-written image files an interrupted run left are removed at start; a write still going on is not", async () => {
  const folder = path.join(server.dataDir, "images", USER, PERSONA);
  const left = readdirSync(folder).sort();
  expect(left).toEqual(["primary-0123456789abcdef.webp", "primary-0123456789abcdef.webp.tmp-4243-cafebabe"]);
  expect(server.log()).toContain("1 unfinished image file(s) of an interrupted run removed");
});
