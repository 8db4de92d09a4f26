// The generation quotas as a creator meets them, through the real routes: the JSON API
// answers 429 with Retry-After and `{ message }`; the pages' forms (without JavaScript)
// answer 429 with Retry-After and the area's failure toast saying when to try again. Also
// an oversized card at POST /api/personas/import: a 413 with a readable message.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { caught } from "../../tests/support/route-calls";

process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), "pf-quota-routes-"));
process.env.APP_URL = "http://app.test";

const { installTestDatabase } = await import("../../tests/support/test-database");
const { closeDatabase, withServiceRole } = await import("~/infra/db/db.server");
const { auth } = await import("~/infra/auth/auth.server");
const { AiError, useImageGenerator, useTextGenerator } = await import("~/infra/ai/ai.server");
const { LIMITS, resetRateLimits } = await import("~/infra/web/rate-limit.server");
const { requestContext } = await import("~/services/accounts.server");
const { createPersona } = await import("~/services/personas.server");
const { settleImageJobs } = await import("~/services/images.server");
const { CARD_MESSAGES } = await import("~/domain/character-card");
const generateImagesApi = await import("./api.$/personas.$id.generate-images");
const backstoryApi = await import("./api.$/generate-backstory");
const importApi = await import("./api.$/personas.import");
const personaPage = await import("./_app.persona.$id");
const createPersonaPage = await import("./_app.create-persona");
const libraryPage = await import("./_app.my-personas");

beforeAll(async () => {
  await installTestDatabase();
  useTextGenerator({ kind: "openai", generateBackstory: async () => "Once upon a time.", chatReply: async function* () {} });
  useImageGenerator({ kind: "openai", generateImage: async () => Promise.reject(new AiError("unavailable", "down")) });
});
beforeEach(() => resetRateLimits());
afterAll(async () => {
  await settleImageJobs();
  useTextGenerator(undefined);
  useImageGenerator(undefined);
  await closeDatabase();
});

let counter = 0;
/** A verified, signed-in creator on the Free plan: their user (for set-up) and their Bearer token. */
async function creator() {
  const ctx = requestContext(new Request("http://app.test/"));
  const email = `quota${++counter}-${Date.now()}@example.com`;
  const password = "Forge!pass1";
  const { verificationToken } = await auth().signUp(ctx, { email, password, firstName: "Quo", lastName: "Ta" });
  await auth().verifyEmail(ctx, verificationToken!);
  const { accessToken, userId } = await auth().signIn(ctx, { email, password });
  const user = {
    id: userId,
    email,
    emailVerified: true,
    firstName: "Quo",
    lastName: "Ta",
    profileImageUrl: null,
    subscriptionStatus: "free",
    createdAt: "",
  };
  return { user, headers: { Authorization: `Bearer ${accessToken}` } };
}

const complete = {
  name: "Nova Quinn",
  type: "vtuber",
  gender: "female",
  ageRange: "25-34",
  interests: ["gaming", "music"],
  description: "Streams at night.",
  personality: ["Outgoing", "Creative"],
};

const post = (url: string, headers: Record<string, string>, body?: BodyInit, type?: string) =>
  new Request(`http://app.test${url}`, { method: "POST", headers: { ...headers, ...(type ? { "Content-Type": type } : {}) }, body });
const form = (fields: Record<string, string | string[]>) => {
  const data = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) for (const v of Array.isArray(value) ? value : [value]) data.append(key, v);
  return data;
};
const FORM = "application/x-www-form-urlencoded";

function expectRetryAfter(response: Response) {
  expect(response.status).toBe(429);
  const retry = Number(response.headers.get("Retry-After"));
  expect(retry).toBeGreaterThan(3500);
  expect(retry).toBeLessThanOrEqual(3600);
}

/** The body of a page action's `data()` answer (Remix's single fetch leaves it as an object). */
function dataOf(answer: unknown): { data: Record<string, unknown>; init: ResponseInit | null } {
  const { data, init } = answer as { data: Record<string, unknown>; init: ResponseInit | null };
  return { data, init };
}

describe("reference images", () => {
  it("JSON API: the 11th start on the Free plan is a 429 with Retry-After and a message", async () => {
    const { user, headers } = await creator();
    const persona = await createPersona(user, complete);
    const start = () =>
      caught(() =>
        generateImagesApi.action({
          request: post(`/api/personas/${persona.id}/generate-images`, headers),
          params: { id: persona.id },
          context: {},
        }),
      );
    for (let i = 0; i < LIMITS.imageGenerationsPerUser.points.free; i++) {
      expect((await start()).status).toBe(202);
      await settleImageJobs();
    }
    const refused = await start();
    expectRetryAfter(refused);
    expect(await refused.json()).toMatchObject({
      message: expect.stringMatching(
        /^You can generate reference images 10 times an hour on the Free plan\. Please try again in (60|59) minutes\.$/,
      ),
    });
  });

  it("the page's Generate form: 429 with Retry-After and 'Image Generation Failed' saying when to try again", async () => {
    const { user, headers } = await creator();
    const persona = await createPersona(user, complete);
    const press = () =>
      caught(() =>
        personaPage.action({
          request: post(`/persona/${persona.id}`, headers, form({ intent: "generate-images" }), FORM),
          params: { id: persona.id },
          context: {},
        }),
      );
    for (let i = 0; i < LIMITS.imageGenerationsPerUser.points.free; i++) {
      expect((await press()).status).toBe(302);
      await settleImageJobs();
    }
    const { data, init } = dataOf(await press());
    expectRetryAfter(new Response(null, init!));
    expect(data.imageFailed).toMatchObject({
      toast: {
        type: "error",
        title: "Image Generation Failed",
        description: expect.stringMatching(/^You can generate reference images 10 times an hour on the Free plan\. Please try again in/),
      },
    });
  });
});

describe("backstories", () => {
  it("JSON API and the wizard's Generate Backstory share the quota: the 31st is a 429 'Generation Failed'", async () => {
    const { headers } = await creator();
    const api = () =>
      caught(() =>
        backstoryApi.action({
          request: post("/api/generate-backstory", headers, JSON.stringify(complete), "application/json"),
          params: {},
          context: {},
        }),
      );
    const wizard = () =>
      createPersonaPage.action({
        request: post("/create-persona", headers, form({ intent: "generate-backstory", step: "3", ...complete }), FORM),
        params: {},
        context: {},
      });
    for (let i = 0; i < LIMITS.backstoriesPerUser.points / 2; i++) {
      expect((await api()).status).toBe(200);
      expect(dataOf(await wizard()).data.toast).toMatchObject({ type: "success" });
    }
    const refused = await api();
    expectRetryAfter(refused);
    expect(await refused.json()).toMatchObject({
      message: expect.stringMatching(/^You can generate 30 backstories an hour\. Please try again in (60|59) minutes\.$/),
      code: "rate_limited",
    });

    const { data, init } = dataOf(await wizard());
    expectRetryAfter(new Response(null, init!));
    expect(data.toast).toMatchObject({
      type: "error",
      title: "Generation Failed",
      description: expect.stringMatching(/^You can generate 30 backstories an hour\./),
    });
    // What was typed stays.
    expect(data.values).toMatchObject({ name: complete.name });
  });
});

describe("card imports", () => {
  const cardJson = (name: string) =>
    JSON.stringify({ spec: "chara_card_v2", spec_version: "2.0", data: { name, description: "A traveller.", personality: "Curious" } });

  it("JSON API and the library's import form share the quota: the 31st is a 429, the form shows 'Import Failed'", async () => {
    const { user, headers } = await creator();
    // Premium, so the plan's 10 personas do not stop the imports first.
    await withServiceRole("test: upgrade", (tx) =>
      tx.execute(sql`update public.profiles set subscription_status = 'active' where id = ${user.id}`),
    );
    const api = (name: string) =>
      caught(() =>
        importApi.action({ request: post("/api/personas/import", headers, cardJson(name), "application/json"), params: {}, context: {} }),
      );
    const upload = (name: string) => {
      const body = new FormData();
      body.set("intent", "import");
      body.set("file", new File([cardJson(name)], "card.json", { type: "application/json" }));
      return caught(() => libraryPage.action({ request: post("/my-personas", headers, body), params: {}, context: {} }));
    };
    for (let i = 0; i < LIMITS.cardImportsPerUser.points / 2; i++) {
      expect((await api(`Api ${i}`)).status).toBe(201);
      expect((await upload(`Form ${i}`)).status).toBe(302);
    }
    const refused = await api("One too many");
    expectRetryAfter(refused);
    expect(await refused.json()).toMatchObject({
      message: expect.stringMatching(/^You can import 30 character cards an hour\. Please try again in (60|59) minutes\.$/),
    });

    const { data, init } = dataOf(await upload("By form"));
    expectRetryAfter(new Response(null, init!));
    expect(data.toast).toMatchObject({
      type: "error",
      title: "Import Failed",
      description: expect.stringMatching(/^You can import 30 character cards an hour\./),
    });
  });

  it("a 2.5 MB card is a 413 with a readable message", async () => {
    const { headers } = await creator();
    const big = JSON.stringify({
      spec: "chara_card_v3",
      spec_version: "3.0",
      data: { name: "Big", extensions: { lore: "é".repeat(1_250_000) } },
    });
    const res = await caught(() =>
      importApi.action({ request: post("/api/personas/import", headers, big, "application/json"), params: {}, context: {} }),
    );
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ message: CARD_MESSAGES.tooLarge });
  });
});
