// The AI adapters for this process, chosen once from the environment (ARCHITECTURE.md):
//   - local (default, no OPENAI_API_KEY): the embedded generator, deterministic and offline;
//   - openai (OPENAI_API_KEY set): any OpenAI-compatible endpoint (OPENAI_BASE_URL,
//     OPENAI_TEXT_MODEL for backstories, OPENAI_CHAT_MODEL for chat replies).
// Services call textGenerator(); routes never do. Images join here later.
import { createLocalTextGenerator } from "./ai/local-text.server";
import { createOpenAiTextGenerator } from "./ai/openai-text.server";
import type { TextGenerator } from "./ai/types";
import { getEnv, modes, type Env } from "./env.server";

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
  type TextGenerator,
} from "./ai/types";

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
