// Supabase mode's session check reads GoTrue's auth.sessions in the project's database. On a
// Supabase-managed database (CI: the Supabase-faithful one, TEST_DATABASE_TEMPLATE) a live
// session is found and a signed-out one is not; on any other database the lookup cannot tell
// and the adapter asks GoTrue instead.
import { randomUUID } from "node:crypto";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { createAuthUser, installTestDatabase } from "../../../tests/support/test-database";

const { closeDatabase, databaseIsSupabaseManaged } = await import("~/infra/db/db.server");
const { lookupGoTrueSession } = await import("~/infra/auth/auth.server");

let handle: Awaited<ReturnType<typeof installTestDatabase>>;
let managed = false;
beforeAll(async () => {
  handle = await installTestDatabase();
  managed = await databaseIsSupabaseManaged();
});
afterAll(() => closeDatabase());

describe("GoTrue session lookup", () => {
  it("answers only for the project's own database", async () => {
    const user = await createAuthUser(handle);
    const sessionId = randomUUID();
    await handle.raw.rows("insert into auth.sessions (id, user_id) values ($1, $2)", [sessionId, user.id]);
    const found = await lookupGoTrueSession(sessionId, user.id);
    if (!managed) {
      expect(found).toBeUndefined();
      return;
    }
    expect(found).toMatchObject({ email: user.email, emailConfirmedAt: expect.any(Date), createdAt: expect.any(Date) });
    // The profile every signed-in page shows comes in the same statement.
    expect(found?.profile).toMatchObject({ firstName: "Test", lastName: "User", subscriptionStatus: "free", createdAt: expect.any(Date) });
    // Another user's id with this session, an unknown session: nothing.
    expect(await lookupGoTrueSession(sessionId, randomUUID())).toBeNull();
    expect(await lookupGoTrueSession(randomUUID(), user.id)).toBeNull();
    // A time-boxed session past its end, then GoTrue's sign-out (the row is deleted).
    await handle.raw.rows("update auth.sessions set not_after = now() - interval '1 minute' where id = $1", [sessionId]);
    expect(await lookupGoTrueSession(sessionId, user.id)).toBeNull();
    await handle.raw.rows("update auth.sessions set not_after = null where id = $1", [sessionId]);
    await handle.raw.rows("delete from auth.sessions where id = $1", [sessionId]);
    expect(await lookupGoTrueSession(sessionId, user.id)).toBeNull();
  });
});
