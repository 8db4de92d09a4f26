// Dead copies of rewritten rows given back for reuse (docs/decisions/040-lorebook-history-stored-once.md).
// An update writes a new copy of the row, and of any long value it changed (a lorebook is one
// value of up to 2 MB); the old copy is dead until VACUUM marks its room free. PGlite runs no
// autovacuum, and a database server's wakes about once a minute: a creator toggling one entry of
// a 200-entry lorebook a thousand times in that minute left some 19 MB of dead copies behind.
// The services say how many bytes a write rewrote; past a threshold, the table is vacuumed off
// the request, one table at a time. Plain VACUUM takes no lock that blocks reads or writes.
import { database, outsideDoor } from "./db.server";

/** Bytes rewritten in a table before it is vacuumed (a lorebook of 200 entries is about 150 KB). */
export const VACUUM_AFTER_BYTES = 4 * 1024 * 1024;

/** The tables whose rewrites a service reports. */
type RewrittenTable = "public.personas";

const rewritten = new Map<RewrittenTable, number>();
let running: Promise<void> = Promise.resolve();

/** Notes that a committed write rewrote `bytes` of `table`; vacuums it off the request past the threshold. */
export function noteRewritten(table: RewrittenTable, bytes: number): void {
  const total = (rewritten.get(table) ?? 0) + Math.max(0, bytes);
  if (total < VACUUM_AFTER_BYTES) {
    rewritten.set(table, total);
    return;
  }
  rewritten.set(table, 0);
  running = running.then(() =>
    outsideDoor(async () => {
      try {
        await (await database()).raw.exec(`vacuum ${table}`);
      } catch (error) {
        // A role that does not own the table (a managed database) leaves it to autovacuum.
        console.warn(`[db] could not vacuum ${table}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }),
  );
}

/** Resolves when the vacuums asked for so far are done (tests, and a server closing). */
export function maintenanceSettled(): Promise<void> {
  return running;
}
