// A bad set-up stops the server with a readable message instead of a stack trace.
import { writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterEach, describe, expect, it, vi } from "vitest";

afterEach(() => {
  vi.restoreAllMocks();
  vi.resetModules();
  vi.unstubAllEnvs();
});

async function startWith(env: Record<string, string>) {
  for (const [k, v] of Object.entries(env)) vi.stubEnv(k, v);
  const exit = vi.spyOn(process, "exit").mockImplementation((() => undefined) as never);
  const errors: string[] = [];
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void errors.push(args.join(" ")));
  const { startServer } = await import("./startup.server");
  await startServer();
  return { exit, output: errors.join("\n") };
}

describe("startServer", () => {
  it("names a DATA_DIR that cannot be written", async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "pf-")), "file");
    writeFileSync(file, "x");
    const { exit, output } = await startWith({ DATA_DIR: path.join(file, "data") });
    expect(exit).toHaveBeenCalledWith(1);
    expect(output).toContain(`DATA_DIR "${path.join(file, "data")}" cannot be written`);
  });

  it("lists what a half-set configuration lacks", async () => {
    const { exit, output } = await startWith({ SUPABASE_URL: "http://127.0.0.1:54321" });
    expect(exit).toHaveBeenCalledWith(1);
    expect(output).toContain("SUPABASE_ANON_KEY is required when SUPABASE_URL is set");
    expect(output).not.toMatch(/\n\s+at /);
  });
});
