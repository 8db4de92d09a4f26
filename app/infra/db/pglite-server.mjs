// The embedded database served as a PostgreSQL server (docs/decisions/032-one-database-path.md):
// PGlite behind @electric-sql/pglite-socket on a unix socket, so that the app reaches it with
// the driver it uses for PostgreSQL and Supabase (postgres.js, client.server.ts). Plain
// JavaScript because it also runs as a worker thread of its own (pglite-server.worker.mjs),
// which Node loads from this folder; in the app's process it is bundled like any module.
//
// PGlite is one Postgres session: the socket is served to one connection at a time (the app's
// client holds one). The socket lives in a directory only this user may enter: whoever can
// connect to it is the database's superuser.
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";

/** The extensions the schema uses, by name (a worker receives names: modules cannot cross threads). */
const EXTENSIONS = { pg_trgm };

/**
 * @typedef {object} ServeOptions
 * @property {string | undefined} dataDir PGlite's data directory; in memory without one (tests).
 * @property {string} socketPath the unix socket to serve on.
 * @property {string[]} startParams Postgres's start parameters (client.server.ts, PGLITE_OPTIONS).
 * @property {Blob} [loadDataDir] an in-memory database starts as this dump of one (PGlite's
 *   `dumpDataDir`): the tests' migrated database, made once per run.
 */

/**
 * @typedef {object} ServedMemory
 * @property {number} heapUsedBytes the serving thread's JavaScript heap in use
 * @property {number} heapTotalBytes the serving thread's JavaScript heap reserved
 */

/**
 * Opens PGlite and serves it on `socketPath`. `stop` closes the socket, then the database
 * (PGlite's clean shutdown: everything committed is on disk).
 *
 * @param {ServeOptions} options
 * @returns {Promise<{ stop(): Promise<void>, dump(): Promise<Blob> }>}
 */
export async function servePglite({ dataDir, socketPath, startParams, loadDataDir }) {
  const options = { startParams, extensions: EXTENSIONS, ...(loadDataDir && !dataDir ? { loadDataDir } : {}) };
  const db = dataDir ? new PGlite(dataDir, options) : new PGlite(options);
  await db.waitReady;
  const server = new PGLiteSocketServer({ db, path: socketPath, maxConnections: 1 });
  try {
    await server.start();
  } catch (error) {
    await db.close();
    throw error;
  }
  return {
    /** The database as PGlite's dump (an uncompressed tarball), for an in-memory copy. */
    dump: async () => db.dumpDataDir("none"),
    async stop() {
      try {
        await server.stop();
      } finally {
        await db.close();
      }
    },
  };
}
