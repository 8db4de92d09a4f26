// `npm run test:db`, the database suite: the test files under app/infra and app/services that
// open a database (they use tests/support/test-database.ts, or open PGlite or a server
// themselves, or read DATABASE_URL). CI runs it on PostgreSQL 15 and on the Supabase-faithful
// database (DATABASE_URL); `npm test` runs every test file on PGlite already, so the files that
// never touch a database (the offline generators, the HTTP plumbing) run there once.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const USES_A_DATABASE = /tests\/support\/test-database|\bopenPglite\b|\bopenPostgres\b|\bDATABASE_URL\b/;

const files = ["app/infra", "app/services"]
  .flatMap((dir) => readdirSync(dir, { recursive: true }).map((name) => path.join(dir, String(name))))
  .filter((file) => /\.test\.tsx?$/.test(file) && USES_A_DATABASE.test(readFileSync(file, "utf8")))
  .sort();
console.log(`database suite: ${files.length} test files that open a database`);
const child = spawn("npx", ["vitest", "run", "--config", "tests/vitest.config.ts", ...files], { stdio: "inherit" });
child.on("close", (code) => process.exit(code ?? 1));
