import { mkdtempSync, readFileSync, writeFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { DataDirError, prepareDataDir, sessionSecret } from "./data-dir.server";

describe("DATA_DIR", () => {
  it("is created when missing", () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), "pf-")), "nested", "data");
    expect(prepareDataDir(dir)).toBe(dir);
    expect(statSync(dir).isDirectory()).toBe(true);
  });

  it("that cannot be written stops with an error naming the directory", () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "pf-")), "a-file");
    writeFileSync(file, "not a directory");
    const dir = path.join(file, "data");
    expect(() => prepareDataDir(dir)).toThrow(DataDirError);
    expect(() => prepareDataDir(dir)).toThrow(`DATA_DIR "${dir}" cannot be written`);
  });
});

describe("the session secret", () => {
  it("is generated once, kept in DATA_DIR and reused", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "pf-"));
    const first = sessionSecret(dir);
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(readFileSync(path.join(dir, "session-secret"), "utf8").trim()).toBe(first);
    expect(statSync(path.join(dir, "session-secret")).mode & 0o077).toBe(0);
    expect(sessionSecret(dir)).toBe(first);
  });

  it("comes from SESSION_SECRET when configured", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "pf-"));
    expect(sessionSecret(dir, "x".repeat(40))).toBe("x".repeat(40));
  });
});
