// The OpenAI-compatible adapter's streamed chat replies against a fake endpoint that speaks
// OpenAI's server-sent events (tests/support/fake-openai.ts): the request's shape, the tokens in
// order, an error mid-stream, a timeout, and the caller going away (the HTTP request is aborted).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { startFakeOpenAi, type FakeOpenAi } from "../../../tests/support/fake-openai";
import { chatSystemPrompt } from "./chat-prompt";
import { createOpenAiTextGenerator, type OpenAiTextOptions } from "./openai-text.server";
import { AiError, type ChatInput } from "./types";

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

const INPUT: ChatInput = {
  personaId: "p-1",
  persona: {
    name: "Luna Starlight",
    type: "vtuber",
    gender: "non-binary",
    ageRange: "18-24",
    interests: ["gaming"],
    personality: ["Outgoing"],
    description: "A cozy night-owl streamer",
    extended: { birthplace: "Lisbon, Portugal", motto: "Stay cozy." },
  },
  history: [
    { role: "user", content: "Hi!" },
    { role: "assistant", content: "Hey there!" },
    { role: "user", content: "Where are you from?" },
  ],
};

function generator(overrides: Partial<OpenAiTextOptions> = {}) {
  return createOpenAiTextGenerator({
    apiKey: fake.apiKey,
    baseURL: fake.url,
    model: "text-model",
    chatModel: "chat-model",
    maxRetries: 0,
    ...overrides,
  });
}

async function collect(iterable: AsyncIterable<string>): Promise<string[]> {
  const pieces: string[] = [];
  for await (const piece of iterable) pieces.push(piece);
  return pieces;
}

async function failure(promise: Promise<unknown>): Promise<AiError> {
  const error = await promise.then(
    () => new Error("expected the call to fail"),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AiError);
  return error as AiError;
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 20));
};

describe("streamed chat replies from an OpenAI-compatible endpoint", () => {
  it("asks for a streamed completion with the chat model, the persona and the window", async () => {
    fake.reply({ content: "", chunks: ["I grew up ", "in Lisbon, ", "Portugal."] });
    const pieces = await collect(generator().chatReply(INPUT));
    expect(pieces).toEqual(["I grew up ", "in Lisbon, ", "Portugal."]);

    expect(fake.requests).toHaveLength(1);
    const body = fake.requests[0]!.body as { model: string; stream: boolean; messages: { role: string; content: string }[] };
    expect(fake.requests[0]!.headers.authorization).toBe(`Bearer ${fake.apiKey}`);
    expect(body.model).toBe("chat-model");
    expect(body.stream).toBe(true);
    expect(body.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(body.messages[0]!.content).toBe(chatSystemPrompt(INPUT.persona));
    expect(body.messages[0]!.content).toContain("Birthplace: Lisbon, Portugal");
    expect(body.messages.at(-1)!.content).toBe("Where are you from?");
  });

  it("uses the text model when no chat model is set, and asks for a different reply on regenerate", async () => {
    fake.reply({ content: "Another answer." });
    await collect(generator({ chatModel: undefined }).chatReply({ ...INPUT, avoid: ["The old answer."] }));
    const body = fake.requests[0]!.body as { model: string; messages: { role: string; content: string }[] };
    expect(body.model).toBe("text-model");
    expect(body.messages.at(-1)).toMatchObject({ role: "system" });
    expect(body.messages.at(-1)!.content).toContain("The old answer.");
  });

  it("an error event mid-stream, or a dropped connection, is an AiError after the first pieces", async () => {
    for (const how of ["error-event", "drop"] as const) {
      fake.reset();
      fake.reply({ content: "one two three four five", failAfter: { chunks: 2, how } });
      const pieces: string[] = [];
      const error = await failure(
        (async () => {
          for await (const piece of generator().chatReply(INPUT)) pieces.push(piece);
        })(),
      );
      expect(pieces).toEqual(["one ", "two "]);
      expect(["unavailable", "bad_response"]).toContain(error.code);
      expect(error.message).not.toContain(fake.apiKey);
    }
  });

  it("an endpoint that stops sending is a timeout", async () => {
    fake.reply({ content: "slow and steady", chunkDelayMs: 2_000 });
    const error = await failure(collect(generator({ timeoutMs: 300 }).chatReply(INPUT)));
    expect(error.code).toBe("timeout");
    expect(error.message).toContain("300 ms");
  });

  it("an error status before the stream is mapped like any other call", async () => {
    fake.reply({ status: 401, message: "Incorrect API key provided", code: "invalid_api_key" });
    expect((await failure(collect(generator().chatReply(INPUT)))).code).toBe("refused");
    fake.reply({ status: 503, message: "overloaded" });
    expect((await failure(collect(generator().chatReply(INPUT)))).code).toBe("unavailable");
  });

  it("an empty reply is bad_response", async () => {
    fake.reply({ content: "", chunks: ["", "  "] });
    expect((await failure(collect(generator().chatReply(INPUT)))).code).toBe("bad_response");
  });

  it("the caller going away aborts the HTTP request", async () => {
    fake.reply({ content: "a b c d e f g h i j", chunkDelayMs: 100 });
    const controller = new AbortController();
    const pieces: string[] = [];
    const error = await failure(
      (async () => {
        for await (const piece of generator().chatReply(INPUT, { signal: controller.signal })) {
          pieces.push(piece);
          if (pieces.length === 2) controller.abort();
        }
      })(),
    );
    expect(error.code).toBe("timeout");
    await until(() => fake.abandonedStreams === 1);
    expect(fake.abandonedStreams).toBe(1);

    // Leaving the loop early (the service stops reading) aborts it too.
    fake.reply({ content: "a b c d e f g h i j", chunkDelayMs: 100 });
    for await (const piece of generator().chatReply(INPUT)) {
      if (piece) break;
    }
    await until(() => fake.abandonedStreams === 2);
    expect(fake.abandonedStreams).toBe(2);
  });
});
