// Vitest's global set-up: the threads the server starts (build/workers, scripts/build-workers.mjs),
// built from the source under test, so the tests run the same thread code the server runs.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

export default function setup(): void {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
  execFileSync(process.execPath, [path.join(root, "scripts", "build-workers.mjs")], { stdio: "inherit", cwd: root });
}
