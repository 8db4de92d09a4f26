// The OpenAI-compatible text adapter against a fake endpoint speaking OpenAI's HTTP
// (tests/support/fake-openai.ts): the real `openai` package, real HTTP.
import { createServer } from "node:net";

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { PERSONA_LIMITS } from "~/domain/persona";

import { startFakeOpenAi, type FakeOpenAi } from "../../../tests/support/fake-openai";
import { BACKSTORY_SYSTEM_PROMPT, cleanProse, createOpenAiTextGenerator, type OpenAiTextOptions } from "./openai-text.server";
import { AiError, BACKSTORY_MIN_WORDS, countWords, type BackstoryInput } from "./types";

const MODEL = "gpt-4o-mini";
const INPUT: BackstoryInput = {
  name: "Luna Starlight",
  type: "vtuber",
  gender: "non-binary",
  ageRange: "18-24",
  interests: ["gaming", "music"],
  personality: ["Outgoing", "Creative", "Humorous"],
  description: "A cozy night-owl streamer",
};

/** Prose of exactly `count` words, in sentences of ten words; `tag` makes texts differ. */
function prose(count: number, tag = "Luna"): string {
  const words = Array.from({ length: count }, (_, i) => (i % 10 === 0 ? tag : `word${i}`));
  const sentences: string[] = [];
  for (let i = 0; i < words.length; i += 10) sentences.push(`${words.slice(i, i + 10).join(" ")}.`);
  const paragraphs: string[] = [];
  for (let i = 0; i < sentences.length; i += 8) paragraphs.push(sentences.slice(i, i + 8).join(" "));
  return paragraphs.join("\n\n");
}

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

function generator(overrides: Partial<OpenAiTextOptions> = {}) {
  return createOpenAiTextGenerator({ apiKey: fake.apiKey, baseURL: fake.url, model: MODEL, ...overrides });
}

async function failure(promise: Promise<unknown>): Promise<AiError> {
  const error = await promise.then(
    () => {
      throw new Error("expected the call to fail");
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AiError);
  return error as AiError;
}

/** The key appears nowhere an error could carry it to a log or a page. */
function expectNoKey(error: AiError, key = fake.apiKey) {
  expect(error.message).not.toContain(key);
  expect(String(error.stack)).not.toContain(key);
  expect(JSON.stringify(error)).not.toContain(key);
  expect(error.cause).toBeUndefined();
}

type Message = { role: string; content: string };
const bodyOf = (i: number) => fake.requests[i].body as { model: string; messages: Message[]; temperature?: number; stream?: boolean };

describe("the OpenAI-compatible text generator", () => {
  it("sends the persona as one chat completion with the bearer key, and returns the reply", async () => {
    const story = prose(900);
    fake.replyText(story);
    const text = await generator().generateBackstory(INPUT);
    expect(text).toBe(story);
    expect(generator().kind).toBe("openai");

    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/v1/chat/completions");
    expect(request.headers.authorization).toBe(`Bearer ${fake.apiKey}`);
    expect(request.headers["content-type"]).toContain("application/json");

    const body = bodyOf(0);
    expect(body.model).toBe(MODEL);
    expect(body.stream).toBeUndefined();
    expect(typeof body.temperature).toBe("number");
    expect(body.messages.map((m) => m.role)).toEqual(["system", "user"]);
    expect(body.messages[0].content).toBe(BACKSTORY_SYSTEM_PROMPT);
    expect(body.messages[0].content).toContain("at least 800 words");
    expect(body.messages[0].content).toMatch(/plain prose/i);
    expect(body.messages[1].content).toBe(
      [
        "Write the backstory for this persona.",
        "Name: Luna Starlight",
        "Persona type: AIVTuber",
        "Gender: non-binary (pronouns: they/them)",
        "Age range: 18-24",
        "Interests: gaming, music",
        "Personality traits: Outgoing, Creative, Humorous",
        "Description: A cozy night-owl streamer",
      ].join("\n"),
    );
  });

  it("gives the model the fact sheet the story must state", async () => {
    fake.replyText(prose(850));
    const facts = {
      birthplace: "Seoul, South Korea",
      currentResidence: "Tokyo, Japan",
      occupation: "Virtual streamer",
      education: "Diploma in Music Production",
      family: "Raised by a single mother who taught them resilience",
      birthYear: 2004,
    };
    await generator().generateBackstory({ ...INPUT, facts });
    const user = bodyOf(0).messages[1].content;
    expect(user).toContain("never contradict");
    expect(user).toContain("Born: 2004, in Seoul, South Korea");
    expect(user).toContain("Lives in: Tokyo, Japan");
    expect(user).toContain("Family: Raised by a single mother who taught them resilience");
    expect(user).toContain("Occupation: Virtual streamer");
  });

  it("leaves out facts the sheet does not state (an imported card's)", async () => {
    fake.replyText(prose(850));
    const facts = { birthplace: "", currentResidence: "Neo Tokyo", occupation: "", education: "", family: "", birthYear: 0 };
    await generator().generateBackstory({ ...INPUT, facts });
    const user = bodyOf(0).messages[1].content;
    expect(user).toContain("Lives in: Neo Tokyo");
    expect(user).not.toContain("Born:");
    expect(user).not.toContain("Occupation:");
  });

  it("says what is missing instead of leaving fields out", async () => {
    fake.replyText(prose(850));
    await generator().generateBackstory({ name: "Kai", type: "advisor", gender: "male", interests: [], personality: ["Direct"] });
    const user = bodyOf(0).messages[1].content;
    expect(user).toContain("Persona type: Virtual Advisor");
    expect(user).toContain("Gender: male (pronouns: he/him)");
    expect(user).toContain("Age range: not specified");
    expect(user).toContain("Interests: not specified");
    expect(user).toContain("Description: not provided");
  });

  it("trims the reply, drops markdown headings and caps it at the backstory limit, at a sentence end", async () => {
    fake.replyText(`\n\n# Luna's Story\n\n${prose(850)}\n\n\n\n${prose(30, "More")}  \n`);
    const text = await generator().generateBackstory(INPUT);
    expect(text).toBe(`${prose(850)}\n\n${prose(30, "More")}`);

    fake.replyText(prose(5000)); // ~45,000 characters
    const long = await generator().generateBackstory(INPUT);
    expect(long.length).toBeLessThanOrEqual(PERSONA_LIMITS.backstoryMax);
    expect(long.length).toBeGreaterThan(PERSONA_LIMITS.backstoryMax - 200);
    expect(long).toMatch(/\.$/);
    expect(prose(5000).startsWith(long)).toBe(true);
  });

  it("asks once more, with the draft, when the reply is under 800 words, and returns the longer story", async () => {
    const draft = prose(300, "Draft");
    const full = prose(950, "Full");
    fake.replyText(draft, full);
    const text = await generator().generateBackstory(INPUT);
    expect(text).toBe(full);

    expect(fake.requests).toHaveLength(2);
    const second = bodyOf(1);
    expect(second.model).toBe(MODEL);
    expect(second.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(second.messages.slice(0, 2)).toEqual(bodyOf(0).messages);
    expect(second.messages[2].content).toBe(draft);
    expect(second.messages[3].content).toContain("300 words");
    expect(second.messages[3].content).toContain("at least 800 words");
  });

  it("joins the draft and a reply that only continues it", async () => {
    const draft = prose(500, "Draft");
    const more = prose(400, "More");
    fake.replyText(draft, more);
    const text = await generator().generateBackstory(INPUT);
    expect(text).toBe(`${draft}\n\n${more}`);
    expect(countWords(text)).toBe(900);
  });

  it("reports a story that stays short as too_short, never returning it", async () => {
    fake.replyText(prose(300, "Draft"), prose(450, "Draft"));
    const error = await failure(generator().generateBackstory(INPUT));
    expect(error.code).toBe("too_short");
    expect(error.message).toContain(String(BACKSTORY_MIN_WORDS));
    expect(fake.requests).toHaveLength(2);
  });

  it("maps 401 (a wrong key) to refused, without retrying and without the key in the message", async () => {
    const wrongKey = `sk-proj-${"x".repeat(20)}secretpart1234`;
    const error = await failure(generator({ apiKey: wrongKey }).generateBackstory(INPUT));
    expect(error.code).toBe("refused");
    expect(error.status).toBe(401);
    expect(error.message).toContain("127.0.0.1");
    expectNoKey(error, wrongKey);
    expect(error.message).not.toContain("secretpart");
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0].headers.authorization).toBe(`Bearer ${wrongKey}`);
  });

  it("maps 403 to refused", async () => {
    fake.reply({
      status: 403,
      message: "Project does not have access to model gpt-4o-mini",
      type: "invalid_request_error",
      code: "model_not_found",
    });
    const error = await failure(generator().generateBackstory(INPUT));
    expect(error.code).toBe("refused");
    expect(error.status).toBe(403);
    expect(error.message).toContain("does not have access");
  });

  it("maps another 4xx to refused", async () => {
    fake.reply({ status: 404, message: "The model `gpt-nope` does not exist", code: "model_not_found" });
    const error = await failure(generator({ model: "gpt-nope" }).generateBackstory(INPUT));
    expect(error.code).toBe("refused");
    expect(error.status).toBe(404);
  });

  it("maps 500 to unavailable after the client's retry", async () => {
    const busy = {
      status: 500,
      message: "The server had an error while processing your request.",
      type: "server_error",
      headers: { "retry-after-ms": "10" },
    };
    fake.reply(busy, busy);
    const error = await failure(generator().generateBackstory(INPUT));
    expect(error.code).toBe("unavailable");
    expect(error.status).toBe(500);
    expect(fake.requests).toHaveLength(2);
    expect(fake.unexpected).toBe(0);
  });

  it("succeeds when the retry after a 500 does", async () => {
    fake.reply({ status: 503, message: "Service Unavailable", type: "server_error", headers: { "retry-after-ms": "10" } });
    fake.replyText(prose(820));
    expect(countWords(await generator().generateBackstory(INPUT))).toBe(820);
    expect(fake.requests).toHaveLength(2);
  });

  it("maps 429 to unavailable", async () => {
    fake.reply({ status: 429, message: "Rate limit reached for gpt-4o-mini", type: "requests", code: "rate_limit_exceeded" });
    const error = await failure(generator({ maxRetries: 0 }).generateBackstory(INPUT));
    expect(error.code).toBe("unavailable");
    expect(error.status).toBe(429);
  });

  it("maps a connection failure to unavailable", async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const error = await failure(generator({ baseURL: `http://127.0.0.1:${port}/v1`, maxRetries: 0 }).generateBackstory(INPUT));
    expect(error.code).toBe("unavailable");
    expect(error.status).toBeUndefined();
    expectNoKey(error);
  });

  it("maps a reply slower than the timeout to timeout", async () => {
    fake.reply({ content: prose(900), delayMs: 3_000 });
    const started = Date.now();
    const error = await failure(generator({ timeoutMs: 300, maxRetries: 0 }).generateBackstory(INPUT));
    expect(error.code).toBe("timeout");
    expect(error.message).toContain("300 ms");
    expect(Date.now() - started).toBeLessThan(2_000);
    expectNoKey(error);
  });

  it("retries a timed-out request once by default before giving up", async () => {
    fake.reply({ content: prose(900), delayMs: 3_000 }, { content: prose(900), delayMs: 3_000 });
    const error = await failure(generator({ timeoutMs: 300 }).generateBackstory(INPUT));
    expect(error.code).toBe("timeout");
    expect(fake.requests).toHaveLength(2);
  });

  it("maps the caller's abort to timeout", async () => {
    fake.reply({ content: prose(900), delayMs: 3_000 });
    const error = await failure(generator().generateBackstory(INPUT, { signal: AbortSignal.timeout(200) }));
    expect(error.code).toBe("timeout");
  });

  it("maps an empty, missing or unreadable answer to bad_response", async () => {
    fake.replyText("   \n  ");
    expect((await failure(generator().generateBackstory(INPUT))).code).toBe("bad_response");

    fake.reply({ content: null });
    expect((await failure(generator().generateBackstory(INPUT))).code).toBe("bad_response");

    fake.reply({ status: 200, raw: JSON.stringify({ id: "chatcmpl-1", object: "chat.completion", choices: [] }) });
    expect((await failure(generator().generateBackstory(INPUT))).code).toBe("bad_response");

    fake.reply({ status: 200, raw: "<html>gateway</html>", contentType: "text/html" });
    expect((await failure(generator().generateBackstory(INPUT))).code).toBe("bad_response");

    fake.reply({ status: 200, raw: "{not json" });
    expect((await failure(generator().generateBackstory(INPUT))).code).toBe("bad_response");
  });

  it("maps a model's refusal to refused", async () => {
    fake.reply({ content: null, refusal: "I can't help with that." });
    const error = await failure(generator().generateBackstory(INPUT));
    expect(error.code).toBe("refused");
    expect(error.message).toContain("I can't help with that.");
  });

  it("never puts the key in an error message, even when the endpoint echoes it", async () => {
    fake.reply(
      { status: 400, message: `Bad key ${fake.apiKey} for this project` },
      { status: 502, message: `upstream said Bearer ${fake.apiKey}`, headers: { "retry-after-ms": "10" } },
      { status: 502, message: `upstream said Bearer ${fake.apiKey}`, headers: { "retry-after-ms": "10" } },
    );
    const first = await failure(generator().generateBackstory(INPUT));
    expect(first.code).toBe("refused");
    expect(first.message).toContain("Bad key");
    expectNoKey(first);
    const second = await failure(generator().generateBackstory(INPUT));
    expect(second.code).toBe("unavailable");
    expectNoKey(second);
  });
});

describe("cleanProse", () => {
  it("unwraps a code fence and normalizes blank lines", () => {
    expect(cleanProse("```text\nOne.\r\n\r\n\r\nTwo.\n```")).toBe("One.\n\nTwo.");
    expect(cleanProse("## Title\nOne.   \n\nTwo.")).toBe("One.\n\nTwo.");
  });
});

describe("lore proposals through the OpenAI-compatible generator", () => {
  const LORE_INPUT = {
    name: "Yuna Park",
    backstory: "Yuna grew up in Seoul with her sister Mina. No one knows that she still draws every night.",
    extended: { birthplace: "Seoul, South Korea", currentResidence: "Lisbon, Portugal", socialCircle: { family: "Has an older sister" } },
    existing: [],
  };

  it("asks for JSON entries from the backstory and facts only, and keeps each entry that passes the entry schema", async () => {
    fake.replyText(
      "```json\n" +
        JSON.stringify({
          entries: [
            { name: "Mina", keys: ["Mina", "sister"], content: "Yuna grew up in Seoul with her sister Mina.", kind: "person" },
            { name: "Seoul", keys: ["Seoul"], content: "Born in Seoul, South Korea.", kind: "city" },
            { name: "No keys", keys: [], content: "Dropped." },
            { name: "", keys: ["x"], content: "Dropped: no title." },
            { name: "Too long", keys: ["long"], content: "x".repeat(2_001) },
            "not an entry",
          ],
        }) +
        "\n```",
    );
    const proposals = await generator().compileLore!(LORE_INPUT);
    expect(proposals.map((p) => [p.name, p.kind])).toEqual([
      ["Mina", "person"],
      ["Seoul", "thing"],
    ]);
    expect(proposals[0]).toMatchObject({ enabled: true, constant: false, comment: "Built from the backstory", insertion_order: 100 });
    const body = bodyOf(0);
    expect(body.model).toBe(MODEL);
    expect(body.messages[0]!.content).toContain("never invent");
    expect(body.messages[1]!.content).toContain("Birthplace: Seoul, South Korea");
    expect(body.messages[1]!.content).toContain("Yuna grew up in Seoul with her sister Mina.");
  });

  it("maps an answer that is not JSON to bad_response, and a 500 to unavailable", async () => {
    fake.replyText("Here are some ideas for your lorebook!");
    expect((await failure(generator().compileLore!(LORE_INPUT))).code).toBe("bad_response");
    const busy = { status: 500, message: "The server had an error", type: "server_error" };
    fake.reply(busy, busy);
    expect((await failure(generator().compileLore!(LORE_INPUT))).code).toBe("unavailable");
  });
});
