import { describe, expect, it } from "vitest";

import { KeptPerUser } from "./kept-per-user";

describe("values kept per user", () => {
  it("answers what was kept, for the same user only", () => {
    const kept = new KeptPerUser<string>();
    expect(kept.keep("s1", "u1", "Ada", kept.epoch)).toBe(true);
    expect(kept.get("s1", "u1")).toBe("Ada");
    expect(kept.get("s1", "u2")).toBeUndefined();
    // Asking as another user drops the entry altogether.
    expect(kept.get("s1", "u1")).toBeUndefined();
  });

  it("a change of the user forgets all of that user's entries and no one else's", () => {
    const kept = new KeptPerUser<string>();
    kept.keep("s1", "u1", "a", kept.epoch);
    kept.keep("s2", "u1", "b", kept.epoch);
    kept.keep("s3", "u2", "c", kept.epoch);
    kept.forgetUser("u1");
    expect([kept.get("s1", "u1"), kept.get("s2", "u1"), kept.get("s3", "u2")]).toEqual([undefined, undefined, "c"]);
    kept.forgetAll();
    expect(kept.get("s3", "u2")).toBeUndefined();
    expect(kept.size).toBe(0);
  });

  it("an answer asked for before a change and arriving after it is not kept", () => {
    const kept = new KeptPerUser<string>();
    const asked = kept.epoch;
    kept.forgetUser("someone");
    expect(kept.keep("s1", "u1", "stale?", asked)).toBe(false);
    expect(kept.get("s1", "u1")).toBeUndefined();
    expect(kept.keep("s1", "u1", "fresh", kept.epoch)).toBe(true);
  });

  it("keeps at most `limit` entries, the oldest going first, and none older than maxAgeMs", () => {
    let now = 0;
    const kept = new KeptPerUser<number>(2, 1_000, () => now);
    kept.keep("a", "u", 1, kept.epoch);
    kept.keep("b", "u", 2, kept.epoch);
    kept.keep("c", "v", 3, kept.epoch);
    expect([kept.get("a", "u"), kept.get("b", "u"), kept.get("c", "v")]).toEqual([undefined, 2, 3]);
    now = 999;
    expect(kept.get("b", "u")).toBe(2);
    now = 1_000;
    expect(kept.get("b", "u")).toBeUndefined();
  });
});
