// The embedded database's thread (docs/decisions/032-one-database-path.md): servePglite
// (pglite-server.mjs) in a worker thread, so that Postgres's statements and the app's page
// renders use both cores. It says `ready` (or `failed`) once serving, answers `memory`, and on
// `stop` stops serving and closes the database, then says `stopped`.
import { getHeapStatistics } from "node:v8";
import { parentPort, workerData } from "node:worker_threads";

import { servePglite } from "./pglite-server.mjs";

if (!parentPort) throw new Error("pglite-server.worker.mjs runs as a worker thread");
const port = parentPort;

try {
  const served = await servePglite(workerData);
  port.on("message", async (message) => {
    if (message === "memory") {
      const heap = getHeapStatistics();
      port.postMessage({ memory: { heapUsedBytes: heap.used_heap_size, heapTotalBytes: heap.total_heap_size } });
    } else if (message === "stop") {
      try {
        await served.stop();
        port.postMessage({ stopped: true });
      } catch (error) {
        port.postMessage({ stopped: true, error: error instanceof Error ? error.message : String(error) });
      }
    }
  });
  port.postMessage({ ready: true });
} catch (error) {
  port.postMessage({ failed: error instanceof Error ? error.message : String(error) });
}
