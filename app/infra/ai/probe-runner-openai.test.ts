// Persona tests through the OpenAI-compatible adapter, against the fake endpoint
// (tests/support/fake-openai.ts): each message of a probe is one streamed chat request with the
// configured chat model and the conversation so far; a rubric is one more request (the judge, not
// streamed) whose verdict is recorded apart from the checks; a run records the chat model's name.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { EMPTY_VOICE } from "~/domain/persona-voice";
import { PROBE_DEFAULTS, type Probe } from "~/domain/probes";

import { startFakeOpenAi, type FakeOpenAi } from "../../../tests/support/fake-openai";
import { createTextGenerator } from "./ai.server";
import { runProbe } from "./probe-runner.server";
import { AiError, type TextGenerator } from "./types";

process.env.DATA_DIR ??= mkdtempSync(path.join(tmpdir(), "pf-probes-openai-"));

let fake: FakeOpenAi;
beforeAll(async () => {
  fake = await startFakeOpenAi();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  fake.reset();
});

/** The generator the server builds from its environment: a text model, and a chat model apart. */
const configured = (): TextGenerator =>
  createTextGenerator({
    OPENAI_API_KEY: fake.apiKey,
    OPENAI_BASE_URL: fake.url,
    OPENAI_TEXT_MODEL: "text-model",
    OPENAI_CHAT_MODEL: "chat-model",
  });

const probe = (fields: Partial<Probe>): Probe => ({
  id: "p",
  name: "Probe",
  turns: ["Hi"],
  ...PROBE_DEFAULTS,
  factExpected: null,
  ...fields,
});

const target = {
  personaId: "00000000-0000-4000-8000-000000000001",
  persona: { name: "Kira Moon", interests: ["gaming"], personality: ["Outgoing"], voice: { ...EMPTY_VOICE, greeting: "Heya, chat!" } },
  lorebook: { entries: [], book: {} },
};
const context = { facts: null, lore: [], name: "Kira Moon" };

interface ChatBody {
  model: string;
  stream?: boolean;
  temperature?: number;
  messages: { role: string; content: string }[];
}
const bodies = () => fake.requests.map((request) => request.body as ChatBody);

describe("probes through an OpenAI-compatible endpoint", () => {
  it("send one streamed chat request per message of each probe, with the chat model", async () => {
    const generator = configured();
    expect(generator.kind).toBe("openai");
    expect(generator.chatModel).toBe("chat-model");

    const single = probe({ id: "a", turns: ["What's your catchphrase?"], mustMention: ["Stay cozy"] });
    const scripted = probe({ id: "b", turns: ["Hi!", "Where do you stream from?", "And who taught you to draw?"], maxLength: 200 });
    fake.replyText("Stay cozy, chat!", "Heya!", "A tiny studio above a noodle shop.", "My older sister Mina.");

    const results = [];
    for (const each of [single, scripted]) results.push(await runProbe(generator, target, each, context));

    // 2 probes, 1 + 3 messages: 4 requests, no more.
    expect(fake.requests).toHaveLength(4);
    expect(fake.unexpected).toBe(0);
    expect(fake.requests.every((request) => request.path === "/v1/chat/completions")).toBe(true);
    expect(bodies().map((body) => [body.model, body.stream])).toEqual(Array(4).fill(["chat-model", true]));

    // Each probe is a fresh conversation (the greeting it opens with is left out of the window, as in
    // chat: it starts with the user's turn); a scripted one grows turn by turn.
    const conversation = (body: ChatBody) => body.messages.filter((m) => m.role !== "system").map((m) => `${m.role}: ${m.content}`);
    expect(bodies().map((body) => body.messages[0]!.role)).toEqual(["system", "system", "system", "system"]);
    expect(conversation(bodies()[0]!)).toEqual(["user: What's your catchphrase?"]);
    expect(conversation(bodies()[1]!)).toEqual(["user: Hi!"]);
    expect(conversation(bodies()[3]!)).toEqual([
      "user: Hi!",
      "assistant: Heya!",
      "user: Where do you stream from?",
      "assistant: A tiny studio above a noodle shop.",
      "user: And who taught you to draw?",
    ]);

    expect(results.map(({ probeId, passed, replies, failures, rubric }) => ({ probeId, passed, replies, failures, rubric }))).toEqual([
      { probeId: "a", passed: true, replies: ["Stay cozy, chat!"], failures: [], rubric: null },
      {
        probeId: "b",
        passed: true,
        replies: ["Heya!", "A tiny studio above a noodle shop.", "My older sister Mina."],
        failures: [],
        rubric: null,
      },
    ]);
  });

  it("judge a rubric with one more request, its verdict recorded apart from the checks", async () => {
    const generator = configured();
    fake.replyText("Stay cozy, chat!", "Sure thing.", JSON.stringify({ passed: false, reason: "The second reply is flat, not playful." }));
    const result = await runProbe(
      generator,
      target,
      probe({ turns: ["Hi!", "Tell me a joke."], mustMention: ["sure"], rubric: "Stays playful in every reply." }),
      context,
    );

    // Two messages and the judge.
    expect(fake.requests).toHaveLength(3);
    const judge = bodies()[2]!;
    expect(judge).toMatchObject({ model: "chat-model", temperature: 0 });
    expect(judge.stream).toBeUndefined();
    const asked = judge.messages.at(-1)!.content;
    expect(asked).toContain("Rubric: Stays playful in every reply.");
    expect(asked).toContain("Kira Moon: Stay cozy, chat!");
    expect(asked).toContain("User: Tell me a joke.");
    expect(asked).toContain("Kira Moon: Sure thing.");

    // The checks pass; the verdict is apart and fails the probe.
    expect(result.failures).toEqual([]);
    expect(result.rubric).toEqual({ passed: false, reason: "The second reply is flat, not playful." });
    expect(result.passed).toBe(false);
  });

  it("pass a probe whose checks and rubric both pass", async () => {
    fake.replyText("Stay cozy!", '```json\n{"passed": true, "reason": "Playful."}\n```');
    const result = await runProbe(configured(), target, probe({ rubric: "Playful." }), context);
    expect(fake.requests).toHaveLength(2);
    expect(result).toMatchObject({ passed: true, failures: [], rubric: { passed: true, reason: "Playful." } });
  });

  it("throw when the judge answers without a verdict (the run ends 'failed')", async () => {
    fake.replyText("Stay cozy!", "I think it is fine.");
    const error = await runProbe(configured(), target, probe({ rubric: "Playful." }), context).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AiError);
    expect((error as AiError).code).toBe("bad_response");
  });
});

describe("a run with the OpenAI generator", () => {
  it("records the chat model's name and sends one request per message, plus one per rubric", async () => {
    const { createCreator, installTestDatabase } = await import("../../../tests/support/test-database");
    const { closeDatabase } = await import("~/infra/db/db.server");
    const { useTextGenerator } = await import("./ai.server");
    const personas = await import("~/services/personas.server");
    const probes = await import("~/services/probes.server");
    const handle = await installTestDatabase();
    try {
      const user = await createCreator(handle, "active", { first: "Test", last: "Pilot" });
      const persona = await personas.createPersona(user, {
        name: "Kira Moon",
        type: "vtuber",
        gender: "female",
        ageRange: "25-34",
        interests: ["gaming"],
        description: "A late-night streamer.",
        personality: ["Outgoing", "Curious"],
        backstory: "Kira grew up with her older sister Mina.",
      });
      await probes.addProbes(user, persona.id, [
        { name: "Greets", turns: ["Hi!"], mustMention: ["heya"] },
        { name: "Remembers", turns: ["Hi!", "Who is Mina?", "What does she do?"], inCharacter: true, rubric: "Talks about Mina warmly." },
      ]);
      useTextGenerator(configured());
      fake.replyText("Heya!", "Hi there.", "My older sister.", "She is a nurse.", '{"passed": true, "reason": "Warm."}');

      const { runId } = await probes.startRun(user, persona.id);
      let run = await probes.getRun(user, persona.id, runId);
      for (let i = 0; i < 200 && (run.status === "queued" || run.status === "running"); i++) {
        await probes.settleRuns();
        run = await probes.getRun(user, persona.id, runId);
      }
      expect(run).toMatchObject({ status: "completed", model: "chat-model", total: 2, passed: 2, failed: 0 });
      expect(run.results.map((result) => [result.name, result.replies.length, result.rubric])).toEqual([
        ["Greets", 1, null],
        ["Remembers", 3, { passed: true, reason: "Warm." }],
      ]);
      // 1 + 3 messages, and the judge of the one rubric.
      expect(fake.requests).toHaveLength(5);
      expect(fake.unexpected).toBe(0);
      expect(bodies().map((body) => body.stream === true)).toEqual([true, true, true, true, false]);
    } finally {
      await probes.settleRuns();
      useTextGenerator(undefined);
      await closeDatabase();
    }
  });
});
