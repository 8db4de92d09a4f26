// Vitest's global set-up: the migrated embedded database, made once per run and kept as PGlite's
// dump in a temporary file. Each test file's database (test-database.ts) starts as a copy of it
// instead of a new PGlite that runs initdb and every migration again: about 2 s less per file.
// On a database server (DATABASE_URL) each file still migrates its own database.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { migrate, openPglite } from "../../app/infra/db/client.server";

export const TEMPLATE_ENV = "PF_TEST_PGLITE_TEMPLATE";

export default async function setup(): Promise<(() => void) | undefined> {
  if (process.env.DATABASE_URL) return undefined;
  const handle = await openPglite();
  try {
    await migrate(handle);
    const dump = await handle.dump!();
    const dir = mkdtempSync(path.join(tmpdir(), "pf-migrated-"));
    const file = path.join(dir, "migrated.tar");
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    process.env[TEMPLATE_ENV] = file;
    return () => rmSync(dir, { recursive: true, force: true });
  } finally {
    await handle.close();
  }
}
