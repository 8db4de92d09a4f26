// The abuse limits themselves, with real parallel calls, on both stores: memory (PGlite's
// single process) and the database table private.rate_limits (PGlite's SQL here; a real
// PostgreSQL 15 server when `npm run test:db` sets DATABASE_URL).
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

const { installTestDatabase } = await import("../../../tests/support/test-database");
const { closeDatabase, withServiceRole } = await import("../db/db.server");
const limits = await import("./rate-limit.server");
const { LIMITS, RateLimitedError, beginPasswordAttempt, clearFailedSignIns, consumeMailAllowance, resetRateLimits, useRateLimitStore } =
  limits;

let handle: Awaited<ReturnType<typeof installTestDatabase>>;

beforeAll(async () => {
  handle = await installTestDatabase();
});
afterAll(async () => {
  useRateLimitStore(undefined);
  await closeDatabase();
});

async function settle<T>(promises: Promise<T>[]) {
  const results = await Promise.allSettled(promises);
  const ok = results.filter((r): r is PromiseFulfilledResult<Awaited<T>> => r.status === "fulfilled").map((r) => r.value);
  const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected").map((r) => r.reason as unknown);
  for (const reason of refused) expect(reason).toBeInstanceOf(RateLimitedError);
  return { ok, refused: refused as InstanceType<typeof RateLimitedError>[] };
}

describe.each(["memory", "database"] as const)("abuse limits in %s", (store) => {
  beforeEach(async () => {
    useRateLimitStore(store);
    await resetRateLimits();
  });

  it("50 parallel attempts on one (address, client): exactly 5 are let through to the password check", async () => {
    const { ok, refused } = await settle(Array.from({ length: 50 }, () => beginPasswordAttempt("victim@example.test", "198.51.100.1")));
    expect(ok).toHaveLength(5);
    expect(refused).toHaveLength(45);
    for (const error of refused) {
      expect(error.message).toMatch(/^Too many failed sign-in attempts\. Please try again in 1[45] minutes\.$/);
      expect(error.retryAfterSeconds).toBeGreaterThan(800);
      expect(error.retryAfterSeconds).toBeLessThanOrEqual(900);
    }
  });

  it("a neighbour behind the same client and the owner on another client are not locked out", async () => {
    await settle(Array.from({ length: 20 }, () => beginPasswordAttempt("victim@example.test", "198.51.100.1").then((a) => a.failed())));
    await expect(beginPasswordAttempt("victim@example.test", "198.51.100.1")).rejects.toBeInstanceOf(RateLimitedError);
    await expect(beginPasswordAttempt("neighbour@example.test", "198.51.100.1")).resolves.toBeDefined();
    await expect(beginPasswordAttempt("VICTIM@example.test", "203.0.113.50")).resolves.toBeDefined();
  });

  it("a success forgets the consecutive failures of its (address, client)", async () => {
    for (let i = 0; i < 4; i++) await (await beginPasswordAttempt("a@example.test", "198.51.100.2")).failed();
    await (await beginPasswordAttempt("a@example.test", "198.51.100.2")).succeeded();
    const { ok } = await settle(Array.from({ length: 8 }, () => beginPasswordAttempt("a@example.test", "198.51.100.2")));
    expect(ok).toHaveLength(5);
  });

  it("one client has a much larger ceiling across addresses; a success refunds its point", async () => {
    const client = "198.51.100.3";
    const ceiling = LIMITS.failsPerClient.points;
    const first = await settle(
      Array.from({ length: ceiling - 1 }, (_, i) => beginPasswordAttempt(`guess${i}@example.test`, client).then((a) => a.failed())),
    );
    expect(first.ok).toHaveLength(ceiling - 1);
    // A success does not use up the last point.
    await (await beginPasswordAttempt("owner@example.test", client)).succeeded();
    await (await beginPasswordAttempt("last@example.test", client)).failed();
    const over = await settle([beginPasswordAttempt("one-more@example.test", client)]);
    expect(over.refused).toHaveLength(1);
    expect(over.refused[0].retryAfterSeconds).toBeGreaterThan(23 * 3600);
    // The refused address did not lose a point of its own to the client's ceiling.
    await expect(beginPasswordAttempt("one-more@example.test", "198.51.100.4")).resolves.toBeDefined();
  });

  /** 240 wrong passwords at one account from 60 client addresses (4 each), 40 at a time. */
  async function guessFromEverywhere(address: string) {
    let checked = 0;
    const refused: InstanceType<typeof RateLimitedError>[] = [];
    for (let batch = 0; batch < 6; batch++) {
      const result = await settle(
        Array.from({ length: 40 }, (_, i) => beginPasswordAttempt(address, `198.18.${batch}.${i % 10}`).then((a) => a.failed())),
      );
      checked += result.ok.length;
      refused.push(...result.refused);
    }
    return { checked, refused };
  }

  it("one account guessed at from 60 client addresses: at most 50 checks in its hour, then 429 for every unknown client", async () => {
    const address = "famous@example.test";
    const { checked, refused } = await guessFromEverywhere(address);
    expect(checked).toBe(LIMITS.failsPerAccount.points);
    expect(refused).toHaveLength(240 - checked);
    expect(refused[0].message).toMatch(/^Too many failed sign-in attempts\. Please try again in (60|59) minutes\.$/);
    expect(refused[0].retryAfterSeconds).toBeGreaterThan(3500);
    // A client that never tried is refused too, whatever its address; other accounts are not.
    await expect(beginPasswordAttempt(address.toUpperCase(), "203.0.113.9")).rejects.toBeInstanceOf(RateLimitedError);
    await expect(beginPasswordAttempt("someone-else@example.test", "198.18.0.1")).resolves.toBeDefined();
    // The refusals took nothing from the pairs: once the account's count is cleared, a client
    // refused 4 times on it still has its 5 consecutive attempts.
    await clearFailedSignIns(address);
    const after = await settle(Array.from({ length: 5 }, () => beginPasswordAttempt(address, "198.18.5.9")));
    expect(after.ok).toHaveLength(5);
  });

  it("a device cookie's attempts count against that device alone: 5 consecutive failures lock it, a success forgets them", async () => {
    const address = "owner@example.test";
    await guessFromEverywhere(address);
    await expect(beginPasswordAttempt(address, "203.0.113.9")).rejects.toBeInstanceOf(RateLimitedError);
    // The owner's browser, from any address, is still let through to the password check.
    await (await beginPasswordAttempt(address, "203.0.113.9", "laptop")).succeeded();
    for (let i = 0; i < 4; i++) await (await beginPasswordAttempt(address, "203.0.113.9", "laptop")).failed();
    await (await beginPasswordAttempt(address, "192.0.2.77", "laptop")).succeeded();
    const burst = await settle(Array.from({ length: 12 }, () => beginPasswordAttempt(address, "192.0.2.78", "laptop")));
    expect(burst.ok).toHaveLength(LIMITS.consecutiveFailsPerDevice.points);
    expect(burst.refused[0].message).toMatch(/^Too many failed sign-in attempts\. Please try again in 1[45] minutes\.$/);
    // Another browser of the owner is not locked by this one; the device id is per account.
    await expect(beginPasswordAttempt(address, "192.0.2.78", "phone")).resolves.toBeDefined();
    await expect(beginPasswordAttempt("other@example.test", "192.0.2.78", "laptop")).resolves.toBeDefined();
  });

  it("a password reset clears the account's count for unknown clients and the device's failures", async () => {
    const address = "reset@example.test";
    await guessFromEverywhere(address);
    await settle(Array.from({ length: 6 }, () => beginPasswordAttempt(address, "192.0.2.80", "laptop").then((a) => a.failed())));
    await expect(beginPasswordAttempt(address, "192.0.2.80", "laptop")).rejects.toBeInstanceOf(RateLimitedError);
    await expect(beginPasswordAttempt(address, "203.0.113.11")).rejects.toBeInstanceOf(RateLimitedError);
    await clearFailedSignIns(address, "203.0.113.11", "laptop");
    await expect(beginPasswordAttempt(address, "203.0.113.11")).resolves.toBeDefined();
    await expect(beginPasswordAttempt(address, "192.0.2.80", "laptop")).resolves.toBeDefined();
  });

  it("account e-mails: per (address, client), per client and a larger per address cap", async () => {
    const mail = (email: string, client: string) => consumeMailAllowance(email, client);
    const pair = LIMITS.mailsPerAddressAndClient.points;
    const burst = await settle(Array.from({ length: 10 }, () => mail("reset-me@example.test", "198.51.100.7")));
    expect(burst.ok).toHaveLength(pair);
    expect(burst.refused[0].message).toMatch(/^Too many e-mails requested\. Please try again in (60|59) minutes\.$/);
    // The attacker's client could not block the owner's reset mails.
    await expect(mail("reset-me@example.test", "203.0.113.10")).resolves.toBeUndefined();
    // One client across addresses: its own ceiling.
    const spread = await settle(Array.from({ length: 15 }, (_, i) => mail(`m${i}@example.test`, "198.51.100.8")));
    expect(spread.ok).toHaveLength(LIMITS.mailsPerClient.points);
    // One address across many clients: the larger cap.
    const many = await settle(Array.from({ length: 15 }, (_, i) => mail("popular@example.test", `198.18.1.${i}`)));
    expect(many.ok).toHaveLength(LIMITS.mailsPerAddress.points);
  });
});

describe("the database store", () => {
  beforeEach(async () => {
    useRateLimitStore("database");
    await resetRateLimits();
  });

  it("keeps its counters in private.rate_limits and starts afresh once a window has passed", async () => {
    for (let i = 0; i < 5; i++) await (await beginPasswordAttempt("rows@example.test", "198.51.100.20")).failed();
    await expect(beginPasswordAttempt("rows@example.test", "198.51.100.20")).rejects.toBeInstanceOf(RateLimitedError);
    const rows = await handle.raw.rows<{ key: string; points: number }>(
      "select key, points from private.rate_limits where key like 'sign-in:address+client:%' order by key",
    );
    expect(rows).toEqual([{ key: "sign-in:address+client:rows@example.test|198.51.100.20", points: 6 }]);
    await handle.raw.rows("update private.rate_limits set expire = now() - interval '1 second'");
    await expect(beginPasswordAttempt("rows@example.test", "198.51.100.20")).resolves.toBeDefined();
    const [after] = await handle.raw.rows<{ points: number }>(
      "select points from private.rate_limits where key = 'sign-in:address+client:rows@example.test|198.51.100.20'",
    );
    expect(after.points).toBe(1);
  });

  it("keeps the account's budget and a device's failures in rows of their own", async () => {
    for (let i = 0; i < 3; i++) await (await beginPasswordAttempt("Budget@example.test", `198.51.100.${30 + i}`)).failed();
    await (await beginPasswordAttempt("budget@example.test", "198.51.100.40", "laptop")).failed();
    const rows = await handle.raw.rows<{ key: string; points: number }>(
      "select key, points from private.rate_limits where key like 'sign-in:account:%' or key like 'sign-in:device:%' order by key",
    );
    expect(rows).toEqual([
      { key: "sign-in:account:budget@example.test", points: 3 },
      { key: "sign-in:device:budget@example.test|laptop", points: 1 },
    ]);
  });

  it("is reached only through the service role: anon and authenticated see nothing", async () => {
    await consumeMailAllowance("secret@example.test", "198.51.100.21");
    for (const role of ["anon", "authenticated"]) {
      await expect(
        handle.rawTransaction(async (tx) => {
          await tx.exec(`set local role ${role}`);
          return tx.rows("select * from private.rate_limits");
        }),
      ).rejects.toThrow(/permission denied/);
    }
    const [{ n }] = await withServiceRole("test", async (tx) => {
      const result = (await tx.execute(sql`select count(*)::int as n from private.rate_limits`)) as unknown as
        { n: number }[] | { rows: { n: number }[] };
      return Array.isArray(result) ? result : result.rows;
    });
    expect(n).toBe(3);
  });
});
