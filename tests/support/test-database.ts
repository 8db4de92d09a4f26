// A fresh database with the real bootstrap and migrations, for one test file:
// PGlite in memory by default, or a throwaway database on the server named by
// DATABASE_URL (how .ci/run proves the same properties on PostgreSQL 15).
import { randomBytes, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";

import postgres from "postgres";

import { migrate, openPglite, openPostgres, type DatabaseHandle } from "~/infra/db/client.server";
import { useDatabase } from "~/infra/db/db.server";
import { stopJobWorkers } from "~/infra/jobs/queue.server";

export async function createTestDatabase(): Promise<DatabaseHandle> {
  const serverUrl = process.env.DATABASE_URL;
  let handle: DatabaseHandle;
  if (serverUrl) {
    const name = `pf_test_${randomBytes(6).toString("hex")}`;
    // TEST_DATABASE_TEMPLATE: copy a prepared database instead of an empty one (CI copies a
    // pristine Supabase-faithful database, so the suite runs against Supabase's auth schema).
    const template = process.env.TEST_DATABASE_TEMPLATE ?? "";
    if (template && !/^[a-z0-9_]+$/.test(template)) throw new Error("TEST_DATABASE_TEMPLATE must match [a-z0-9_]+");
    // fetch_types off: these two statements need no array types, and a connection reset while
    // postgres.js fetches them escapes as an unhandled rejection (porsager/postgres#1192).
    const admin = postgres(serverUrl, { max: 1, fetch_types: false, onnotice: () => {} });
    await admin.unsafe(`create database ${name}${template ? ` template ${template}` : ""}`);
    await admin.end();
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const opened = await openPostgres(url.toString(), { max: 4 });
    handle = {
      ...opened,
      close: async () => {
        // Workers a test woke stop first: a poll in flight would keep a connection open.
        await stopJobWorkers();
        await opened.close();
        await dropDatabase(serverUrl, name);
      },
    };
  } else {
    // A copy of the database migrated once for the run (migrated-template.ts), when there is one;
    // migrate() below then finds every migration applied.
    const template = process.env.PF_TEST_PGLITE_TEMPLATE;
    handle = await openPglite(undefined, template ? { loadDataDir: new Blob([readFileSync(template)]) } : {});
  }
  await migrate(handle);
  return handle;
}

/**
 * Drops a test database once its last connection has gone. `with (force)` only after waiting:
 * forcing at once kills a connection that is still starting, and postgres.js then reports the
 * reset of its start-up query as an unhandled rejection (porsager/postgres#1223). A plain DROP
 * DATABASE itself waits up to 5 s for other sessions to leave before it answers 55006, so one
 * try is the wait.
 */
async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  const dropper = postgres(serverUrl, { max: 1, fetch_types: false, onnotice: () => {} });
  try {
    try {
      await dropper.unsafe(`drop database if exists ${name}`);
      return;
    } catch (error) {
      // 55006 object_in_use: a connection is still open after 5 s; anything else is a real failure.
      if ((error as { code?: string }).code !== "55006") throw error;
    }
    // Said, so that whatever kept it open can be found: no test should leave a connection behind.
    const left = await dropper.unsafe(
      `select backend_start, state, left(query, 60) as query from pg_stat_activity where datname = '${name}'`,
    );
    console.warn(`[test-database] ${name} still had ${left.length} connection(s) 5 s after closing: ${JSON.stringify(left)}`);
    await dropper.unsafe(`drop database if exists ${name} with (force)`);
  } finally {
    await dropper.end();
  }
}

/** Creates a fresh database and makes it the one the doors use; returns it for raw set-up. */
export async function installTestDatabase(): Promise<DatabaseHandle> {
  const handle = await createTestDatabase();
  useDatabase(handle);
  return handle;
}

export interface TestUser {
  id: string;
  email: string;
}

/** Inserts an auth user directly (as the auth adapter would); the trigger makes the profile. */
export async function createAuthUser(
  handle: DatabaseHandle,
  meta: { first_name?: string; last_name?: string } = { first_name: "Test", last_name: "User" },
): Promise<TestUser> {
  const id = randomUUID();
  const email = `user-${id.slice(0, 8)}@example.test`;
  await handle.raw.rows(
    `insert into auth.users (id, aud, role, email, raw_user_meta_data, raw_app_meta_data, email_confirmed_at)
     values ($1, 'authenticated', 'authenticated', $2, $3::jsonb, '{"provider":"email"}'::jsonb, now())`,
    [id, email, JSON.stringify(meta)],
  );
  return { id, email };
}

/**
 * An auth user as the services see a signed-in creator (CurrentUser), on the given plan
 * ('free' unless said otherwise; 'active' is Premium).
 */
export async function createCreator(handle: DatabaseHandle, plan = "free", names = { first: "Test", last: "Creator" }) {
  const { id, email } = await createAuthUser(handle, { first_name: names.first, last_name: names.last });
  if (plan !== "free") {
    await handle.raw.rows(`update public.profiles set subscription_status = $2 where id = $1`, [id, plan]);
  }
  return {
    id,
    email,
    emailVerified: true,
    firstName: names.first,
    lastName: names.last,
    profileImageUrl: null,
    subscriptionStatus: plan,
    createdAt: new Date().toISOString(),
  };
}
