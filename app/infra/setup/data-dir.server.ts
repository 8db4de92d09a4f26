// DATA_DIR holds everything the embedded mode keeps on disk: the PGlite database,
// the generated session secret, the mail outbox and stored images.
import { randomBytes } from "node:crypto";
import { accessSync, constants, mkdirSync, readFileSync, writeFileSync, rmSync } from "node:fs";
import path from "node:path";

export class DataDirError extends Error {
  override name = "DataDirError";
}

export function prepareDataDir(dir: string): string {
  const absolute = path.resolve(dir);
  try {
    mkdirSync(absolute, { recursive: true });
    accessSync(absolute, constants.W_OK);
    const probe = path.join(absolute, `.write-test-${process.pid}`);
    writeFileSync(probe, "ok");
    rmSync(probe);
  } catch (error) {
    const reason = error instanceof Error && "code" in error ? String((error as NodeJS.ErrnoException).code) : String(error);
    throw new DataDirError(`DATA_DIR "${absolute}" cannot be written (${reason}). Point DATA_DIR at a directory this user can write to.`);
  }
  return absolute;
}

/** The configured secret, or one generated on first start and kept in DATA_DIR. */
export function sessionSecret(dataDir: string, configured?: string): string {
  if (configured) return configured;
  const file = path.join(dataDir, "session-secret");
  try {
    const existing = readFileSync(file, "utf8").trim();
    if (existing.length >= 32) return existing;
  } catch {
    // not created yet
  }
  const secret = randomBytes(32).toString("hex");
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}
