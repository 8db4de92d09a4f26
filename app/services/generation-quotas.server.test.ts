// Per-creator generation quotas on a real database: reference image generations (10 an hour
// on the Free plan, 60 on Premium), backstories (30) and card imports (30). Past the quota
// a request is a 429 with Retry-After that starts no job and writes nothing; a request
// refused for another reason first (a job already running, missing fields, a bad card, the
// persona limit) does not use up the quota.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";

process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), "pf-quotas-"));

const { createCreator, installTestDatabase } = await import("../../tests/support/test-database");
const { closeDatabase, withServiceRole } = await import("~/infra/db/db.server");
const { generations, imageJobs, personas } = await import("~/infra/db/schema.server");
const { AiError, useImageGenerator, useTextGenerator } = await import("~/infra/ai/ai.server");
const { LIMITS, resetRateLimits, useRateLimitStore } = await import("~/infra/web/rate-limit.server");
const personasService = await import("./personas.server");
const exporter = await import("./persona-export.server");
const images = await import("./images.server");
const lore = await import("./lore.server");
const probes = await import("./probes.server");
const { consumeModelCalls } = await import("~/infra/web/rate-limit.server");

let handle: Awaited<ReturnType<typeof installTestDatabase>>;
beforeAll(async () => {
  handle = await installTestDatabase();
  // Fast stand-ins: a quota counts requests, not what the model writes. An image job that
  // fails still counts (the model was asked).
  useTextGenerator(standIn);
  useImageGenerator({ kind: "openai", generateImage: async () => Promise.reject(new AiError("unavailable", "down")) });
});
afterAll(async () => {
  await images.settleImageJobs();
  useTextGenerator(undefined);
  useImageGenerator(undefined);
  useRateLimitStore(undefined);
  await closeDatabase();
});
beforeEach(() => resetRateLimits());

type Creator = Awaited<ReturnType<typeof createCreator>>;

const standIn = { kind: "openai" as const, generateBackstory: async () => "Once upon a time.", chatReply: async function* () {} };
const restoreCompiler = () => useTextGenerator(standIn);

/** A model whose lore compiles wait until the gate opens. */
function holdCompiles() {
  let opened!: () => void;
  const gate = new Promise<void>((resolve) => (opened = resolve));
  let count = 0;
  useTextGenerator({
    ...standIn,
    compileLore: async () => {
      count++;
      await gate;
      return [];
    },
  });
  return {
    open: () => opened(),
    async started(n: number) {
      while (count < n) await new Promise((resolve) => setTimeout(resolve, 5));
    },
  };
}
const withBackstory = (name = "Nova Quinn") => ({ ...complete(name), backstory: "Nova grew up in Osaka with her sister Mina, a nurse." });
const free = () => createCreator(handle, "free");
const premium = () => createCreator(handle, "active");
const complete = (name = "Nova Quinn") => ({
  name,
  type: "vtuber",
  gender: "female",
  ageRange: "25-34",
  interests: ["gaming", "music"],
  description: "Streams at night.",
  personality: ["Outgoing", "Creative"],
  backstory: "",
});

async function refusal(run: Promise<unknown>) {
  const error = (await run.then(
    () => null,
    (e: unknown) => e,
  )) as { status: number; code?: string; message: string; retryAfterSeconds?: number } | null;
  expect(error, "the request should have been refused").not.toBeNull();
  return error!;
}

function expectOverQuota(error: Awaited<ReturnType<typeof refusal>>) {
  expect(error).toMatchObject({ status: 429, code: "rate_limited" });
  expect(error.retryAfterSeconds).toBeGreaterThan(3500);
  expect(error.retryAfterSeconds).toBeLessThanOrEqual(3600);
}

const generationsOf = async (user: Creator, kind: "image" | "backstory") =>
  (await withServiceRole("test", (tx) => tx.select().from(generations).where(eq(generations.userId, user.id)))).filter(
    (g) => g.kind === kind,
  ).length;
const jobOf = async (personaId: string) =>
  (await withServiceRole("test", (tx) => tx.select().from(imageJobs).where(eq(imageJobs.personaId, personaId))))[0];
const personasOf = async (user: Creator) =>
  (await withServiceRole("test", (tx) => tx.select({ id: personas.id }).from(personas).where(eq(personas.userId, user.id)))).length;

/** Starts `n` generations on one persona, one after the other (each job fails at once). */
async function generateTimes(user: Creator, personaId: string, n: number) {
  for (let i = 0; i < n; i++) {
    await images.startImageGeneration(user, personaId);
    await images.settleImageJobs();
  }
}

describe("reference image generations", () => {
  it("the 11th in an hour on the Free plan is a 429 that says when to try again, and starts no job", async () => {
    const user = await free();
    const persona = await personasService.createPersona(user, complete());
    await generateTimes(user, persona.id, LIMITS.imageGenerationsPerUser.points.free);
    const before = await jobOf(persona.id);
    const error = await refusal(images.startImageGeneration(user, persona.id));
    expectOverQuota(error);
    expect(error.message).toMatch(
      /^You can generate reference images 10 times an hour on the Free plan\. Please try again in (60|59) minutes\.$/,
    );
    // The last job is still the one that ran before; nothing new was claimed.
    expect(await jobOf(persona.id)).toEqual(before);
    expect((await images.imageState(user, persona.id)).status).toBe("failed");
  });

  it("the 61st in an hour on Premium is refused; the Free plan's quota is not Premium's", async () => {
    const user = await premium();
    const persona = await personasService.createPersona(user, complete());
    await generateTimes(user, persona.id, LIMITS.imageGenerationsPerUser.points.premium);
    const error = await refusal(images.startImageGeneration(user, persona.id));
    expectOverQuota(error);
    expect(error.message).toMatch(/^You can generate reference images 60 times an hour on the Premium plan\./);
  });

  it("a start refused because a job runs, or for a draft or a stranger's persona, does not count", async () => {
    // The job holds until every press has been answered, however slow the database is.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    useImageGenerator({
      kind: "openai",
      generateImage: async () => {
        await held;
        throw new AiError("unavailable", "down");
      },
    });
    try {
      const user = await free();
      const persona = await personasService.createPersona(user, complete());
      // 8 parallel presses of Generate: one job, 7 refusals with 409.
      const results = await Promise.allSettled(Array.from({ length: 8 }, () => images.startImageGeneration(user, persona.id)));
      release();
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      for (const r of results.filter((r) => r.status === "rejected"))
        expect((r as PromiseRejectedResult).reason).toMatchObject({ status: 409 });
      await images.settleImageJobs();
      const draft = await personasService.saveDraft(user, { name: "Drafty" });
      await expect(images.startImageGeneration(user, draft.id)).rejects.toMatchObject({ status: 409 });
      const stranger = await free();
      await expect(images.startImageGeneration(stranger, persona.id)).rejects.toMatchObject({ status: 404 });
      // One used: nine more, then the quota.
      await generateTimes(user, persona.id, LIMITS.imageGenerationsPerUser.points.free - 1);
      expectOverQuota(await refusal(images.startImageGeneration(user, persona.id)));
      // The stranger's refused attempt did not cost them anything either.
      const own = await personasService.createPersona(stranger, complete("Own"));
      await generateTimes(stranger, own.id, LIMITS.imageGenerationsPerUser.points.free);
    } finally {
      useImageGenerator({ kind: "openai", generateImage: async () => Promise.reject(new AiError("unavailable", "down")) });
    }
  });

  it("many parallel starts across personas: never more than the quota", async () => {
    const user = await premium();
    const ids = [];
    for (let i = 0; i < 70; i++) ids.push((await personasService.createPersona(user, complete(`Nova ${i}`))).id);
    const results = await Promise.allSettled(ids.map((id) => images.startImageGeneration(user, id)));
    await images.settleImageJobs();
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(LIMITS.imageGenerationsPerUser.points.premium);
    for (const r of results.filter((r) => r.status === "rejected"))
      expect((r as PromiseRejectedResult).reason).toMatchObject({ status: 429 });
  });
});

describe("backstories", () => {
  it("the 31st in an hour is a 429 and writes nothing; requests with missing fields do not count", async () => {
    const user = await free();
    for (let i = 0; i < 5; i++) {
      await expect(
        personasService.generateBackstory(user, { name: "Nova", type: "vtuber", gender: "female", personality: [] }),
      ).rejects.toMatchObject({
        status: 400,
        code: "missing_information",
      });
    }
    // Two at a time (the creator's running slots), 40 in all.
    const results: PromiseSettledResult<unknown>[] = [];
    for (let i = 0; i < 20; i++)
      results.push(...(await Promise.allSettled([0, 1].map(() => personasService.generateBackstory(user, complete())))));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(LIMITS.backstoriesPerUser.points);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected").map((r) => r.reason);
    expect(refused).toHaveLength(10);
    for (const error of refused) expectOverQuota(error);
    expect(refused[0].message).toMatch(/^You can generate 30 backstories an hour\. Please try again in (60|59) minutes\.$/);
    expect(await generationsOf(user, "backstory")).toBe(LIMITS.backstoriesPerUser.points);
  });

  it("a generator failure counts (the model was asked)", async () => {
    const user = await free();
    useTextGenerator({
      kind: "openai",
      generateBackstory: async () => Promise.reject(new AiError("unavailable", "down")),
      chatReply: async function* () {},
    });
    try {
      for (let i = 0; i < LIMITS.backstoriesPerUser.points; i++) {
        await expect(personasService.generateBackstory(user, complete())).rejects.toMatchObject({ status: 502 });
      }
      expectOverQuota(await refusal(personasService.generateBackstory(user, complete())));
    } finally {
      useTextGenerator({ kind: "openai", generateBackstory: async () => "Once upon a time.", chatReply: async function* () {} });
    }
  });
});

describe("card imports", () => {
  const cardFile = (name: string) =>
    new TextEncoder().encode(
      JSON.stringify({ spec: "chara_card_v2", spec_version: "2.0", data: { name, description: "A traveller.", personality: "Curious" } }),
    );

  it("the 31st in an hour is a 429 and stores nothing; cards refused for what they are do not count", async () => {
    const user = await premium();
    for (const bad of ["{ nope", JSON.stringify({ hello: "world" }), ""]) {
      await expect(exporter.importCardFile(user, new TextEncoder().encode(bad))).rejects.toMatchObject({ status: 400 });
    }
    for (let i = 0; i < LIMITS.cardImportsPerUser.points; i++) await exporter.importCardFile(user, cardFile(`Card ${i}`));
    const error = await refusal(exporter.importCardFile(user, cardFile("One too many")));
    expectOverQuota(error);
    expect(error.message).toMatch(/^You can import 30 character cards an hour\. Please try again in (60|59) minutes\.$/);
    expect(await personasOf(user)).toBe(LIMITS.cardImportsPerUser.points);
  });

  it("an import refused at the Free plan's persona limit does not count", async () => {
    const user = await free();
    for (let i = 0; i < 10; i++) await exporter.importCardFile(user, cardFile(`Card ${i}`));
    for (let i = 0; i < 5; i++) await expect(exporter.importCardFile(user, cardFile("Eleventh"))).rejects.toMatchObject({ status: 403 });
    // Upgraded: the 20 imports left of the hour go through, then the quota.
    await handle.raw.rows("update public.profiles set subscription_status = 'active' where id = $1", [user.id]);
    const upgraded = { ...user, subscriptionStatus: "active" };
    for (let i = 0; i < LIMITS.cardImportsPerUser.points - 10; i++) await exporter.importCardFile(upgraded, cardFile(`Again ${i}`));
    expectOverQuota(await refusal(exporter.importCardFile(upgraded, cardFile("Over"))));
    expect(await personasOf(user)).toBe(LIMITS.cardImportsPerUser.points);
  });
});

describe("lorebook compiles and suggested tests", () => {
  it("the 31st compile in an hour is a 429 that says so; a compile refused for no backstory does not count", async () => {
    const user = await free();
    const persona = await personasService.createPersona(user, withBackstory());
    const bare = await personasService.createPersona(user, complete("Bare"));
    for (let i = 0; i < 3; i++) await expect(lore.compilePersonaLore(user, bare.id)).rejects.toMatchObject({ status: 400 });
    for (let i = 0; i < LIMITS.loreCompilesPerUser.points; i++) await lore.compilePersonaLore(user, persona.id);
    const error = await refusal(lore.compilePersonaLore(user, persona.id));
    expectOverQuota(error);
    expect(error.message).toMatch(/^You can build a lorebook from the backstory 30 times an hour\. Please try again in (60|59) minutes\.$/);
    // Another creator's compiles are their own.
    const other = await free();
    const theirs = await personasService.createPersona(other, withBackstory("Theirs"));
    await lore.compilePersonaLore(other, theirs.id);
  });

  it("the 61st suggestion in an hour is a 429; a stranger's persona is a 404 that does not count", async () => {
    const user = await free();
    const persona = await personasService.createPersona(user, withBackstory());
    const stranger = await free();
    await expect(probes.suggestPersonaProbes(stranger, persona.id)).rejects.toMatchObject({ status: 404 });
    for (let i = 0; i < LIMITS.suggestionsPerUser.points; i++) await probes.suggestPersonaProbes(user, persona.id);
    const error = await refusal(probes.suggestPersonaProbes(user, persona.id));
    expectOverQuota(error);
    expect(error.message).toMatch(/^You can ask for suggested tests 60 times an hour\. Please try again in (60|59) minutes\.$/);
  });
});

describe("generations at once", () => {
  it("a third compile while two run is a 429 with a short Retry-After; a slot frees when one ends", async () => {
    const user = await free();
    const persona = await personasService.createPersona(user, withBackstory());
    const gate = holdCompiles();
    try {
      const running = [lore.compilePersonaLore(user, persona.id), lore.compilePersonaLore(user, persona.id)];
      await gate.started(2);
      const error = await refusal(lore.compilePersonaLore(user, persona.id));
      expect(error).toMatchObject({ status: 429, code: "rate_limited", retryAfterSeconds: 5 });
      expect(error.message).toBe("You already have 2 generations running. Please wait for one to finish.");
      // A backstory or a card import shares the slots.
      await expect(personasService.generateBackstory(user, complete())).rejects.toMatchObject({ status: 429 });
      // Another creator is not held up.
      const other = await free();
      await personasService.generateBackstory(other, complete());
      gate.open();
      await Promise.all(running);
      // Both slots are free again, the refused attempts left nothing behind, and only started work counted.
      const gate2 = holdCompiles();
      const again = [lore.compilePersonaLore(user, persona.id), lore.compilePersonaLore(user, persona.id)];
      await gate2.started(2);
      gate2.open();
      await Promise.all(again);
    } finally {
      restoreCompiler();
    }
  });

  it("a generation that fails frees its slot", async () => {
    const user = await free();
    useTextGenerator({ ...standIn, generateBackstory: async () => Promise.reject(new AiError("unavailable", "down")) });
    try {
      for (let i = 0; i < 5; i++) await expect(personasService.generateBackstory(user, complete())).rejects.toMatchObject({ status: 502 });
    } finally {
      restoreCompiler();
    }
    await Promise.all([personasService.generateBackstory(user, complete()), personasService.generateBackstory(user, complete())]);
  });
});

describe("the daily ceiling in model calls (with a model key)", () => {
  it("a Free creator's 300 calls: an image generation (2 calls) past it is a 429 that takes nothing; a backstory (1) still fits", async () => {
    const user = await free();
    const persona = await personasService.createPersona(user, complete());
    await consumeModelCalls(user.id, false, LIMITS.modelCallsPerUser.points.free - 1);
    const error = await refusal(images.startImageGeneration(user, persona.id));
    expect(error).toMatchObject({ status: 429, code: "rate_limited" });
    expect(error.message).toMatch(/^You have used today's 300 model calls on the Free plan\. Please try again in 24 hours\.$/);
    expect(error.retryAfterSeconds).toBeGreaterThan(23 * 3600);
    expect(await jobOf(persona.id)).toBeUndefined();
    // The refused image generation gave its hourly point back too: 10 are left once the day turns.
    await personasService.generateBackstory(user, complete());
    expect((await refusal(personasService.generateBackstory(user, complete()))).message).toMatch(/^You have used today's 300/);
  });

  it("Premium's ceiling is 2,000; the embedded generators make no model calls", async () => {
    const user = await premium();
    await consumeModelCalls(user.id, true, LIMITS.modelCallsPerUser.points.premium);
    const error = await refusal(personasService.generateBackstory(user, complete()));
    expect(error.message).toMatch(/^You have used today's 2,000 model calls on the Premium plan\./);
    useTextGenerator(undefined);
    try {
      await personasService.generateBackstory(user, complete());
    } finally {
      restoreCompiler();
    }
  });
});

describe("on the database store (private.rate_limits, shared by every app server)", () => {
  beforeEach(async () => {
    useRateLimitStore("database");
    await resetRateLimits();
  });
  afterEach(() => useRateLimitStore(undefined));

  it("counts in the table, refuses past the quota and gives back refused requests' points", async () => {
    const user = await free();
    const persona = await personasService.createPersona(user, complete());
    const draft = await personasService.saveDraft(user, { name: "Drafty" });
    await expect(images.startImageGeneration(user, draft.id)).rejects.toMatchObject({ status: 409 });
    await generateTimes(user, persona.id, LIMITS.imageGenerationsPerUser.points.free);
    expectOverQuota(await refusal(images.startImageGeneration(user, persona.id)));
    const rows = await handle.raw.rows<{ key: string; points: number }>(
      "select key, points from private.rate_limits where key like 'generate:%'",
    );
    expect(rows).toEqual([{ key: `generate:images:user:${user.id}`, points: 10 }]);

    let done = 0;
    for (let i = 0; i < 35; i++) {
      const result = await personasService.generateBackstory(user, complete()).then(
        () => true,
        (error: unknown) => (expectOverQuota(error as Awaited<ReturnType<typeof refusal>>), false),
      );
      if (result) done++;
    }
    expect(done).toBe(LIMITS.backstoriesPerUser.points);
  });

  it("running slots and model calls are shared by every app server, and a refused take leaves nothing behind", async () => {
    const user = await free();
    const persona = await personasService.createPersona(user, { ...complete(), backstory: "Nova grew up in Osaka with her sister Mina." });
    const gate = holdCompiles();
    try {
      const first = [lore.compilePersonaLore(user, persona.id), lore.compilePersonaLore(user, persona.id)];
      await gate.started(2);
      const error = await refusal(lore.compilePersonaLore(user, persona.id));
      expect(error).toMatchObject({ status: 429, code: "rate_limited", retryAfterSeconds: 5 });
      gate.open();
      await Promise.all(first);
      const rows = await handle.raw.rows<{ points: number }>("select points from private.rate_limits where key = $1", [
        `generate:running:user:${user.id}`,
      ]);
      expect(rows).toEqual([{ points: 0 }]);
      // The two compiles that ran took a model call each; the refused one took none.
      const calls = await handle.raw.rows<{ points: number }>("select points from private.rate_limits where key = $1", [
        `model:calls:user:${user.id}`,
      ]);
      expect(calls).toEqual([{ points: 2 }]);
    } finally {
      gate.open();
      restoreCompiler();
    }
  });
});
