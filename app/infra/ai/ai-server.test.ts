// Choosing the text generator from the environment (app/infra/ai/ai.server.ts).
import { afterEach, describe, expect, it } from "vitest";

import { createTextGenerator, textGenerator, useTextGenerator, type TextGenerator } from "./ai.server";

afterEach(() => {
  useTextGenerator(undefined);
});

describe("the text generator", () => {
  it("is the local one without OPENAI_API_KEY and the OpenAI-compatible one with it", () => {
    expect(createTextGenerator({ OPENAI_API_KEY: undefined, OPENAI_BASE_URL: undefined, OPENAI_TEXT_MODEL: "gpt-4o-mini" }).kind).toBe(
      "local",
    );
    expect(createTextGenerator({ OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: "http://127.0.0.1:1/v1", OPENAI_TEXT_MODEL: "m" }).kind).toBe(
      "openai",
    );
  });

  it("is created once, and tests can install their own", async () => {
    const configured = textGenerator();
    expect(textGenerator()).toBe(configured);
    const replacement: TextGenerator = {
      kind: "local",
      generateBackstory: async () => "replacement",
      chatReply: async function* () {
        yield "replacement";
      },
    };
    useTextGenerator(replacement);
    expect(textGenerator()).toBe(replacement);
    expect(await textGenerator().generateBackstory({ name: "A", type: "content", gender: "other", interests: [], personality: [] })).toBe(
      "replacement",
    );
    useTextGenerator(undefined);
    expect(textGenerator()).not.toBe(replacement);
  });
});
