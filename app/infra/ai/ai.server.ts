// The AI adapters for this process, chosen once from the environment (docs/architecture.md, Adapters):
//   - local (default, no OPENAI_API_KEY): the embedded generator, deterministic and offline;
//   - openai (OPENAI_API_KEY set): any OpenAI-compatible endpoint (OPENAI_BASE_URL,
//     OPENAI_TEXT_MODEL for backstories, OPENAI_CHAT_MODEL for chat replies).
//   - images: the embedded portrait generator (local) or OPENAI_IMAGE_MODEL (openai).
// Services call textGenerator() and imageGenerator(); routes never do.
import { aiGenerator, type AiGenerator } from "~/domain/ai-disclosure";

import { createLocalImageGenerator } from "./offline/local-image.server";
import { createOpenAiImageGenerator } from "./openai-image.server";
import { createLocalTextGenerator } from "./offline/local-text.server";
import { createOpenAiTextGenerator } from "./openai-text.server";
import type { ImageGenerator, TextGenerator } from "./types";
import { getEnv, modes, type Env } from "../setup/env.server";

export {
  AiError,
  BACKSTORY_MIN_WORDS,
  countWords,
  type AiErrorCode,
  CHAT_REPLY_MAX_CHARS,
  type BackstoryInput,
  type ChatInput,
  type ChatOptions,
  type ChatPersona,
  type ChatTurn,
  type GenerateOptions,
  type GeneratedImage,
  type ImageGenerator,
  type ImageInput,
  type TextGenerator,
} from "./types";

export type AiEnv = Pick<Env, "OPENAI_API_KEY" | "OPENAI_BASE_URL" | "OPENAI_TEXT_MODEL"> & Partial<Pick<Env, "OPENAI_CHAT_MODEL">>;

export function createTextGenerator(env: AiEnv): TextGenerator {
  if (modes.ai(env as Env) === "openai" && env.OPENAI_API_KEY) {
    return createOpenAiTextGenerator({
      apiKey: env.OPENAI_API_KEY,
      baseURL: env.OPENAI_BASE_URL,
      model: env.OPENAI_TEXT_MODEL,
      chatModel: env.OPENAI_CHAT_MODEL ?? env.OPENAI_TEXT_MODEL,
    });
  }
  return createLocalTextGenerator();
}

let current: TextGenerator | undefined;

/** The configured text generator, created on first use from the environment. */
export function textGenerator(): TextGenerator {
  current ??= createTextGenerator(getEnv());
  return current;
}

/** Tests and tools install their own generator (or reset to the configured one with undefined). */
export function useTextGenerator(next: TextGenerator | undefined): void {
  current = next;
}

export function createImageGenerator(env: Pick<Env, "OPENAI_API_KEY" | "OPENAI_BASE_URL" | "OPENAI_IMAGE_MODEL">): ImageGenerator {
  if (env.OPENAI_API_KEY) {
    return createOpenAiImageGenerator({ apiKey: env.OPENAI_API_KEY, baseURL: env.OPENAI_BASE_URL, model: env.OPENAI_IMAGE_MODEL });
  }
  return createLocalImageGenerator();
}

let currentImages: ImageGenerator | undefined;

/** The configured image generator, created on first use from the environment. */
export function imageGenerator(): ImageGenerator {
  currentImages ??= createImageGenerator(getEnv());
  return currentImages;
}

/** Tests and tools install their own image generator (or reset with undefined). */
export function useImageGenerator(next: ImageGenerator | undefined): void {
  currentImages = next;
}

/**
 * What this process generates with, as exports and the chat disclose it (docs/product.md, AI
 * disclosure): the built-in generator, or the configured model by name.
 */
export function generatorsInUse(): { backstory: AiGenerator; chat: AiGenerator; image: AiGenerator } {
  const env = getEnv();
  const text = textGenerator().kind === "openai";
  return {
    backstory: text ? aiGenerator("model", env.OPENAI_TEXT_MODEL) : aiGenerator("built-in", null),
    chat: text ? aiGenerator("model", env.OPENAI_CHAT_MODEL ?? env.OPENAI_TEXT_MODEL) : aiGenerator("built-in", null),
    image: imageGenerator().kind === "openai" ? aiGenerator("model", env.OPENAI_IMAGE_MODEL) : aiGenerator("built-in", null),
  };
}
