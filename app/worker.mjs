// `npm run worker`: a process that only runs background jobs (app/infra/jobs/queue.server.ts),
// against the database server at DATABASE_URL that web servers started with WORKERS=0 (or any
// number of other workers) share. docs/deployment.md says how to run several.
import path from "node:path";
import url from "node:url";

const root = path.resolve(path.dirname(url.fileURLToPath(import.meta.url)), "..");

if (!process.env.DATABASE_URL) {
  console.error(
    "\n[worker] cannot start:\nDATABASE_URL is not set. The embedded database is served to the web server alone, which runs its jobs itself; a worker process needs a PostgreSQL or Supabase database.\n",
  );
  process.exit(1);
}

// Importing the build checks the settings and opens the database, as the web server does.
process.env.PF_WORKER_ONLY = "1";
const build = await import(url.pathToFileURL(path.join(root, "build", "index.js")).href);
const hooks = build.entry.module.serverHooks;
await hooks.startJobWorkers({ always: true });
console.log("[worker] running jobs");

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, async () => {
    console.log(`[worker] ${signal}: finishing the jobs under way, then stopping`);
    try {
      await hooks.stopJobWorkers();
      await hooks.closeDatabase();
    } catch (error) {
      console.error(`[worker] stopping: ${error instanceof Error ? error.message : error}`);
    }
    process.exit(0);
  });
}
