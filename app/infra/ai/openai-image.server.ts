// Reference images through any OpenAI-compatible endpoint (OPENAI_API_KEY, optionally
// OPENAI_BASE_URL and OPENAI_IMAGE_MODEL, default gpt-image-1), with the official `openai`
// package: one `images.generate` call per image, with a prompt built from the persona and the
// style. The answer may carry the image as base64 (`b64_json`, gpt-image-1) or as a URL
// (dall-e-3 and many compatible servers), which is then fetched. Either way the bytes are
// sniffed and decoded before anything is stored: a Content-Type is never trusted.
//
// A content-policy refusal keeps the provider's reason (shown in the failed toast); every
// failure is an AiError whose message never contains the API key.
import type OpenAI from "openai";

import { IMAGE_STYLE_LABELS } from "~/domain/images";
import { PERSONA_TYPE_LABELS, type PersonaType } from "~/domain/persona";

import { checkedImage, IMAGE_MAX_BYTES } from "./image-bytes.server";
import { endpointName, openAiClient, openAiSdk, scrubber, toAiError } from "./openai-text.server";
import { AiError, type GeneratedImage, type GenerateOptions, type ImageGenerator, type ImageInput } from "./types";

export interface OpenAiImageOptions {
  apiKey: string;
  baseURL?: string;
  model: string;
  /** Per image, including fetching a URL answer. */
  timeoutMs?: number;
  maxRetries?: number;
}

const STYLE_PROMPTS: Record<ImageInput["style"], string> = {
  photorealistic: "a photorealistic studio portrait photograph, natural skin texture, soft key light, shallow depth of field",
  anime: "an anime illustration, clean cel shading, expressive large eyes, crisp line art, vibrant colours",
  digital_art: "a digital painting in a modern concept-art style, stylised low-poly facets and neon rim light",
  cinematic: "a cinematic film still, dramatic side lighting, teal and orange grade, anamorphic framing, film grain",
  minimalist: "a minimalist flat illustration, simple geometric shapes, thin lines, a limited palette and plenty of negative space",
};

const GENDER_WORDS: Record<string, string> = { male: "man", female: "woman", "non-binary": "non-binary person", other: "person" };

/** The prompt for one image: who the persona is, how it looks, in which style and framing. */
export function imagePrompt(input: ImageInput): string {
  const clean = (text: string | null | undefined) => (text ?? "").replace(/\s+/g, " ").trim();
  const who = GENDER_WORDS[input.gender ?? ""] ?? "person";
  const age = input.ageRange ? `aged ${input.ageRange === "55+" ? "55 or older" : input.ageRange}` : "";
  const role = input.type ? (PERSONA_TYPE_LABELS[input.type as PersonaType] ?? input.type) : "";
  const lines = [
    `Reference image of ${clean(input.name)}, a ${[who, age].filter(Boolean).join(" ")}${role ? `, working as ${/^[aeiou]/i.test(role) ? "an" : "a"} ${role}` : ""}.`,
    `Style: ${IMAGE_STYLE_LABELS[input.style]}, ${STYLE_PROMPTS[input.style]}.`,
    input.slot === "primary"
      ? "Framing: head and shoulders, facing the viewer, centred."
      : "Framing: a second view of the same character, a closer crop, head turned slightly, a different background.",
  ];
  if (input.personality.length > 0) lines.push(`Personality that should show in the expression and pose: ${input.personality.join(", ")}.`);
  if (input.interests.length > 0) lines.push(`Background details hinting at their interests: ${input.interests.join(", ")}.`);
  const description = clean(input.description);
  if (description) lines.push(`About them: ${description}`);
  lines.push("One person only. No text, letters, watermarks or logos in the image.");
  return lines.join("\n");
}

/** Content-policy refusals as OpenAI and compatible servers name them. */
const POLICY_CODES = new Set(["content_policy_violation", "moderation_blocked", "content_filter", "safety_violation"]);

export function createOpenAiImageGenerator({
  apiKey,
  baseURL,
  model,
  timeoutMs = 60_000,
  maxRetries = 1,
}: OpenAiImageOptions): ImageGenerator {
  const connect = openAiClient({ apiKey, baseURL, timeout: timeoutMs, maxRetries });
  const where = endpointName(baseURL);
  const scrub = scrubber(apiKey);

  async function fetchImage(url: string, signal?: AbortSignal): Promise<Uint8Array> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new AiError("bad_response", `${where} answered with an image address that is not a URL.`);
    }
    if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
      throw new AiError("bad_response", `${where} answered with an image address that is not a web address.`);
    }
    const deadline = AbortSignal.timeout(timeoutMs);
    const response = await fetch(parsed, { signal: signal ? AbortSignal.any([signal, deadline]) : deadline, redirect: "follow" }).catch(
      (error: unknown) => {
        if (deadline.aborted || signal?.aborted)
          throw new AiError("timeout", `The image at ${where} could not be downloaded within ${timeoutMs} ms.`);
        throw new AiError(
          "unavailable",
          scrub(`The image at ${where} could not be downloaded (${error instanceof Error ? error.message : String(error)}).`),
        );
      },
    );
    if (!response.ok)
      throw new AiError("unavailable", `The image at ${where} could not be downloaded (HTTP ${response.status}).`, response.status);
    const declared = Number(response.headers.get("content-length") ?? "0");
    if (declared > IMAGE_MAX_BYTES) throw new AiError("bad_response", `${where} offered an image larger than ${IMAGE_MAX_BYTES} bytes.`);
    // Read with a cap: an answer without Content-Length (or with a false one) stops at the limit.
    const tooLarge = new AiError("bad_response", `${where} offered an image larger than ${IMAGE_MAX_BYTES} bytes.`);
    const parts: Uint8Array[] = [];
    let size = 0;
    try {
      const reader = response.body?.getReader();
      for (let read = await reader?.read(); read && !read.done; read = await reader!.read()) {
        size += read.value.byteLength;
        if (size > IMAGE_MAX_BYTES) {
          await reader!.cancel().catch(() => {});
          throw tooLarge;
        }
        parts.push(read.value);
      }
    } catch (error) {
      if (error === tooLarge) throw error;
      if (deadline.aborted || signal?.aborted)
        throw new AiError("timeout", `The image at ${where} could not be downloaded within ${timeoutMs} ms.`);
      throw new AiError("unavailable", `The image at ${where} could not be downloaded.`);
    }
    return new Uint8Array(Buffer.concat(parts));
  }

  return {
    kind: "openai",
    async generateImage(input: ImageInput, options: GenerateOptions = {}): Promise<GeneratedImage> {
      let answer: Awaited<ReturnType<OpenAI["images"]["generate"]>>;
      try {
        answer = await (
          await connect()
        ).images.generate({ model, prompt: imagePrompt(input), n: 1, size: "1024x1024" }, { signal: options.signal });
      } catch (error) {
        const { APIError } = await openAiSdk();
        if (error instanceof APIError && error.status === 400) {
          const code = String((error.error as { code?: unknown } | undefined)?.code ?? error.code ?? "");
          const reason = (error.error as { message?: unknown } | undefined)?.message;
          if (POLICY_CODES.has(code)) {
            throw new AiError("refused", scrub(typeof reason === "string" && reason ? reason : error.message).slice(0, 300), 400);
          }
        }
        throw toAiError(error, where, timeoutMs, scrub);
      }
      const first = Array.isArray(answer?.data) ? answer.data[0] : undefined;
      let bytes: Uint8Array;
      if (first && typeof first.b64_json === "string" && first.b64_json !== "") {
        if (!/^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(first.b64_json))
          throw new AiError("bad_response", `${where} answered with an image that is not base64.`);
        bytes = new Uint8Array(Buffer.from(first.b64_json, "base64"));
      } else if (first && typeof first.url === "string" && first.url !== "") {
        bytes = await fetchImage(first.url, options.signal);
      } else {
        throw new AiError("bad_response", `${where} answered without an image.`);
      }
      return checkedImage(bytes);
    },
  };
}
