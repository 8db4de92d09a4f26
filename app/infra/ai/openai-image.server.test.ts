// The OpenAI-compatible image adapter against a fake endpoint speaking OpenAI's HTTP
// (tests/support/fake-openai.ts): the real `openai` package, real HTTP. Base64 and URL answers,
// a content-policy refusal with the provider's reason, a timeout, and answers that are not
// images (sniffed from the bytes, whatever their Content-Type says).
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { startFakeOpenAi, type FakeOpenAi } from "../../../tests/support/fake-openai";
import { createOpenAiImageGenerator, imagePrompt } from "./openai-image.server";
import type { ImageInput } from "./types";

const INPUT: ImageInput = {
  name: "Luna Starlight",
  type: "vtuber",
  gender: "non-binary",
  ageRange: "18-24",
  interests: ["gaming", "music"],
  personality: ["Outgoing", "Creative"],
  description: "A cozy night-owl streamer",
  style: "anime",
  slot: "primary",
};

let fake: FakeOpenAi;
let png: Buffer;
beforeAll(async () => {
  fake = await startFakeOpenAi();
  png = await sharp({ create: { width: 1024, height: 1024, channels: 3, background: "#a3c" } })
    .png()
    .toBuffer();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => fake.reset());

const generator = (timeoutMs = 5_000) =>
  createOpenAiImageGenerator({ apiKey: fake.apiKey, baseURL: fake.url, model: "gpt-image-1", timeoutMs, maxRetries: 0 });

describe("prompt builder", () => {
  it("describes the persona, the style and the framing", () => {
    const prompt = imagePrompt(INPUT);
    expect(prompt).toContain("Luna Starlight");
    expect(prompt).toContain("non-binary person aged 18-24");
    expect(prompt).toContain("working as an AIVTuber");
    expect(prompt).toContain("Style: Anime");
    expect(prompt).toContain("Outgoing, Creative");
    expect(prompt).toContain("gaming, music");
    expect(prompt).toContain("A cozy night-owl streamer");
    expect(prompt).toContain("head and shoulders");
    expect(imagePrompt({ ...INPUT, slot: "secondary" })).toContain("second view of the same character");
    expect(imagePrompt({ ...INPUT, style: "cinematic" })).toContain("cinematic film still");
    expect(imagePrompt({ ...INPUT, ageRange: "55+", gender: "female", type: "educator" })).toContain(
      "woman aged 55 or older, working as an AI Educator",
    );
  });

  it("is different for each style", () => {
    const prompts = new Set(
      (["photorealistic", "anime", "digital_art", "cinematic", "minimalist"] as const).map((style) => imagePrompt({ ...INPUT, style })),
    );
    expect(prompts.size).toBe(5);
  });
});

describe("OpenAI-compatible image generator", () => {
  it("asks images.generate with the model and prompt and takes a base64 answer", async () => {
    fake.reply({ status: 200, raw: JSON.stringify({ created: 1, data: [{ b64_json: png.toString("base64") }] }) });
    const image = await generator().generateImage(INPUT);
    expect(image).toMatchObject({ format: "png", width: 1024, height: 1024 });
    expect(fake.requests[0]).toMatchObject({
      method: "POST",
      path: "/v1/images/generations",
      body: { model: "gpt-image-1", n: 1, size: "1024x1024" },
    });
    expect((fake.requests[0]!.body as { prompt: string }).prompt).toContain("Luna Starlight");
    expect(fake.requests[0]!.headers.authorization).toBe(`Bearer ${fake.apiKey}`);
  });

  it("takes a URL answer and fetches the image, trusting its bytes rather than its Content-Type", async () => {
    const jpeg = await sharp(png).jpeg().toBuffer();
    fake.files.set("luna.bin", { body: jpeg, contentType: "application/octet-stream" });
    fake.reply({ status: 200, raw: JSON.stringify({ created: 1, data: [{ url: `${fake.url.replace(/\/v1$/, "")}/files/luna.bin` }] }) });
    expect(await generator().generateImage(INPUT)).toMatchObject({ format: "jpeg", width: 1024 });
  });

  it("a content-policy refusal is 'refused' with the provider's reason", async () => {
    fake.reply({
      status: 400,
      code: "moderation_blocked",
      type: "image_generation_user_error",
      message: "Your request was rejected as a result of our safety system.",
    });
    await expect(generator().generateImage(INPUT)).rejects.toMatchObject({
      code: "refused",
      message: "Your request was rejected as a result of our safety system.",
    });
  });

  it("a provider that does not answer in time is a timeout", async () => {
    fake.reply({ status: 200, raw: JSON.stringify({ data: [{ b64_json: png.toString("base64") }] }), delayMs: 1_500 });
    await expect(generator(300).generateImage(INPUT)).rejects.toMatchObject({ code: "timeout" });
  });

  it("an image URL that does not answer in time is a timeout", async () => {
    fake.files.set("slow.png", { body: png, contentType: "image/png", delayMs: 1_500 });
    fake.reply({ status: 200, raw: JSON.stringify({ data: [{ url: `${fake.url.replace(/\/v1$/, "")}/files/slow.png` }] }) });
    await expect(generator(300).generateImage(INPUT)).rejects.toMatchObject({ code: "timeout" });
  });

  it("an answer that is not an image is 'bad_response', whatever it claims", async () => {
    fake.files.set("page.png", { body: new TextEncoder().encode("<html>nope</html>"), contentType: "image/png" });
    const base = fake.url.replace(/\/v1$/, "");
    const cases = [
      JSON.stringify({ data: [{ b64_json: Buffer.from("<html>nope</html>").toString("base64") }] }),
      JSON.stringify({ data: [{ url: `${base}/files/page.png` }] }),
      JSON.stringify({ data: [] }),
      JSON.stringify({ data: [{ b64_json: "!!!not base64!!!" }] }),
      JSON.stringify({ data: [{ url: "javascript:alert(1)" }] }),
    ];
    for (const raw of cases) {
      fake.reply({ status: 200, raw });
      await expect(generator().generateImage(INPUT), raw).rejects.toMatchObject({ code: "bad_response" });
    }
  });

  it("an image URL answering more than 10 MB is refused, with or without a Content-Length", async () => {
    const big = new Uint8Array(10 * 1024 * 1024 + 1);
    big.set(png);
    const base = fake.url.replace(/\/v1$/, "");
    for (const [name, chunked] of [
      ["declared.png", false],
      ["chunked.png", true],
    ] as const) {
      fake.files.set(name, { body: big, contentType: "image/png", chunked });
      fake.reply({ status: 200, raw: JSON.stringify({ data: [{ url: `${base}/files/${name}` }] }) });
      await expect(generator().generateImage(INPUT), name).rejects.toMatchObject({
        code: "bad_response",
        message: expect.stringContaining("larger than"),
      });
    }
  });

  it("a wrong key is 'refused' and the key never appears in the message", async () => {
    const wrong = createOpenAiImageGenerator({
      apiKey: "sk-wrong-0123456789abcdef",
      baseURL: fake.url,
      model: "gpt-image-1",
      maxRetries: 0,
    });
    const error = await wrong.generateImage(INPUT).catch((e: Error) => e);
    expect(error).toMatchObject({ code: "refused" });
    expect((error as Error).message).not.toContain("sk-wrong-0123456789abcdef");
  });
});
