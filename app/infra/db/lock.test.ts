// The data directory's lock: one server at a time, and a restart after a crash is never
// blocked by a lock whose process is gone or whose PID now belongs to someone else.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { DataDirInUseError, lockPgliteDir } from "./client.server";

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});

function dir() {
  return mkdtempSync(path.join(tmpdir(), "pf-lock-"));
}
const lockFile = (d: string) => path.join(d, "postmaster.personaforge.lock");

/** A live process that is not this one: a Node process (like another server) or something else. */
async function liveProcess(kind: "node" | "other"): Promise<ChildProcess> {
  const child = kind === "node" ? spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"]) : spawn("sleep", ["60"]);
  children.push(child);
  await new Promise((resolve) => child.once("spawn", resolve));
  return child;
}

function startTime(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
}

describe("the data directory lock", () => {
  it("is taken, names its owner, and is released", () => {
    const d = dir();
    const release = lockPgliteDir(d);
    expect(JSON.parse(readFileSync(lockFile(d), "utf8"))).toMatchObject({ pid: process.pid, started: startTime(process.pid) });
    release();
    expect(existsSync(lockFile(d))).toBe(false);
  });

  it("refuses while another running server holds it", async () => {
    const d = dir();
    const other = await liveProcess("node");
    writeFileSync(lockFile(d), JSON.stringify({ pid: other.pid, started: startTime(other.pid!) }));
    expect(() => lockPgliteDir(d)).toThrow(DataDirInUseError);
    expect(() => lockPgliteDir(d)).toThrow(`in use by process ${other.pid}`);
  });

  it("is taken over from a process that died (kill -9 leaves the file behind)", async () => {
    const d = dir();
    const gone = await liveProcess("node");
    const pid = gone.pid!;
    gone.kill("SIGKILL");
    await new Promise((resolve) => gone.once("exit", resolve));
    writeFileSync(lockFile(d), JSON.stringify({ pid, started: "1" }));
    lockPgliteDir(d)();
  });

  it("is taken over when its PID now belongs to another process (a different start time)", async () => {
    const d = dir();
    const stranger = await liveProcess("node");
    writeFileSync(lockFile(d), JSON.stringify({ pid: stranger.pid, started: String(Number(startTime(stranger.pid!)) - 1) }));
    const release = lockPgliteDir(d);
    expect(JSON.parse(readFileSync(lockFile(d), "utf8")).pid).toBe(process.pid);
    release();
  });

  it("reads an older lock (a bare PID): a live process that is not Node is not ours", async () => {
    const d = dir();
    const sleeper = await liveProcess("other");
    writeFileSync(lockFile(d), String(sleeper.pid));
    lockPgliteDir(d)();
    const server = await liveProcess("node");
    writeFileSync(lockFile(d), String(server.pid));
    expect(() => lockPgliteDir(d)).toThrow(DataDirInUseError);
  });

  it("release leaves a lock that another process has taken since", () => {
    const d = dir();
    const release = lockPgliteDir(d);
    writeFileSync(lockFile(d), JSON.stringify({ pid: 999999, started: "1" }));
    release();
    expect(existsSync(lockFile(d))).toBe(true);
  });
});
