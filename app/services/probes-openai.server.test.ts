// Persona test runs through a configured model (an OpenAI-compatible endpoint, here the fake of
// tests/support/fake-openai.ts) on a real database: exactly one chat request per probe turn, one
// more per rubric (judged apart from the checks), the model's name recorded with the run; a model
// that stops answering mid-run ends the run 'failed' with the reason, keeping what it has.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { startFakeOpenAi, type FakeOpenAi } from "../../tests/support/fake-openai";

process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), "pf-probes-openai-"));

const { createCreator, installTestDatabase } = await import("../../tests/support/test-database");
const { closeDatabase } = await import("~/infra/db/db.server");
const { useTextGenerator } = await import("~/infra/ai/ai.server");
const { createOpenAiTextGenerator } = await import("~/infra/ai/openai-text.server");
const { resetRateLimits } = await import("~/infra/web/rate-limit.server");
const personasService = await import("./personas.server");
const probes = await import("./probes.server");

let handle: Awaited<ReturnType<typeof installTestDatabase>>;
let fake: FakeOpenAi;
beforeAll(async () => {
  handle = await installTestDatabase();
  fake = await startFakeOpenAi();
});
beforeEach(() => {
  fake.reset();
  useTextGenerator(
    createOpenAiTextGenerator({
      apiKey: fake.apiKey,
      baseURL: fake.url,
      model: "text-model",
      chatModel: "chat-model",
      maxRetries: 0,
      timeoutMs: 2_000,
    }),
  );
});
afterEach(async () => {
  await probes.settleRuns();
  useTextGenerator(undefined);
  await resetRateLimits();
});
afterAll(async () => {
  await fake.close();
  await closeDatabase();
});

async function persona() {
  const user = await createCreator(handle, "active", { first: "Model", last: "Runner" });
  const created = await personasService.createPersona(user, {
    name: "Kira Moon",
    type: "vtuber",
    gender: "female",
    ageRange: "25-34",
    interests: ["gaming"],
    description: "A late-night streamer.",
    personality: ["Outgoing"],
    backstory: "Kira grew up with her older sister Mina.",
  });
  return { user, id: created.id };
}

const chatRequests = () => fake.requests.filter((request) => request.path.endsWith("/chat/completions"));

describe("a run through a model", () => {
  it("sends one request per probe turn, one more per rubric, and records the model's name", async () => {
    const { user, id } = await persona();
    await probes.addProbes(user, id, [
      { name: "Greets", turns: ["Hi!"], mustMention: ["hello"] },
      { name: "Follows up", turns: ["Hi!", "How are you?", "What do you stream?"], inCharacter: true },
      { name: "Playful", turns: ["Tell me a joke."], rubric: "The reply is playful." },
    ]);
    fake.replyText("Hello there, chat!", "Hey!", "Doing great.", "Mostly cozy games.", "Why did the streamer cross the road?");
    fake.reply({ content: '{"passed": true, "reason": "It jokes."}' });
    const { runId } = await probes.startRun(user, id);
    await probes.settleRuns();
    const run = await probes.getRun(user, id, runId);
    expect(run).toMatchObject({ status: "completed", model: "chat-model", total: 3, passed: 3, failed: 0 });
    expect(chatRequests()).toHaveLength(1 + 3 + 1 + 1);
    expect(fake.unexpected).toBe(0);
    expect(chatRequests().every((request) => (request.body as { model: string }).model === "chat-model")).toBe(true);
    expect(run.results.map((result) => result.replies.length)).toEqual([1, 3, 1]);
    expect(run.results[2]!.rubric).toEqual({ passed: true, reason: "It jokes." });
    // Each turn of the scripted exchange carries the conversation so far.
    const third = chatRequests()[3]!.body as { messages: { role: string; content: string }[] };
    expect(third.messages.filter((m) => m.role !== "system").map((m) => m.content)).toEqual([
      "Hi!",
      "Hey!",
      "How are you?",
      "Doing great.",
      "What do you stream?",
    ]);
  });

  it("ends 'failed' with the reason when the model stops answering, keeping what it has", async () => {
    const { user, id } = await persona();
    await probes.addProbes(user, id, [
      { name: "First", turns: ["Hi!"], inCharacter: true },
      { name: "Second", turns: ["Where are you from?"], inCharacter: true },
    ]);
    fake.replyText("Hello!");
    fake.reply({ status: 503, message: "Overloaded", type: "server_error" });
    const { runId } = await probes.startRun(user, id);
    await probes.settleRuns();
    const run = await probes.getRun(user, id, runId);
    expect(run).toMatchObject({ status: "failed", model: "chat-model", passed: 1, failed: 0 });
    expect(run.error).toMatch(/^The model chat-model failed: /);
    expect(run.results.map((result) => result.name)).toEqual(["First"]);
  });
});
