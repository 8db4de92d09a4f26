// Text generation through any OpenAI-compatible endpoint (OPENAI_API_KEY, optionally
// OPENAI_BASE_URL and OPENAI_TEXT_MODEL), with the official `openai` package.
//
// A backstory is one chat completion. A reply under BACKSTORY_MIN_WORDS is never accepted
// silently: the model is asked once more, with its draft, to expand it; a reply that is still
// short is AiError "too_short". Lore proposals are one chat completion answered in JSON, every
// entry checked with loreEntrySchema (the rest dropped). Every failure becomes an AiError whose message names the
// endpoint's host and never contains the API key (the SDK's error is not attached as cause).
import type OpenAI from "openai";
import type { APIConnectionError } from "openai";
import type { ChatCompletion, ChatCompletionChunk, ChatCompletionMessageParam } from "openai/resources/chat/completions";

import { COMPILED_COMMENT, COMPILED_ORDER, type LoreCompileInput, type LoreFacts, type LoreProposal } from "~/domain/lore-compile";
import { LORE_KINDS, LORE_LIMITS, loreEntrySchema, type LoreKind } from "~/domain/lorebook";
import { GENDERS, PERSONA_LIMITS, PERSONA_TYPE_LABELS, type Gender } from "~/domain/persona";

import { chatPromptMessages } from "./chat-prompt";
import {
  AiError,
  BACKSTORY_MIN_WORDS,
  capText,
  CHAT_REPLY_MAX_CHARS,
  countWords,
  type BackstoryInput,
  type ChatInput,
  type ChatOptions,
  type GenerateOptions,
  type RubricInput,
  type TextGenerator,
} from "./types";

export interface OpenAiTextOptions {
  apiKey: string;
  /** An OpenAI-compatible API root such as https://api.openai.com/v1; the SDK's default when absent. */
  baseURL?: string;
  model: string;
  /** The model for chat replies (OPENAI_CHAT_MODEL); the text model when absent. */
  chatModel?: string;
  /** Per attempt; for a streamed chat reply, the longest wait for its next piece. */
  timeoutMs?: number;
  /** Retries the SDK makes on connection errors, timeouts, 408, 409, 429 and 5xx. */
  maxRetries?: number;
  temperature?: number;
}

export const BACKSTORY_SYSTEM_PROMPT = [
  "You write character backstories for PersonaForge, a tool where creators design AI character personas.",
  `Write the backstory of the persona the user describes: one coherent life story told in the third person, at least ${BACKSTORY_MIN_WORDS} words long (aim for 900 to 1,200 words).`,
  "Cover where and when they were born and grew up, their family, the formative years, how they came to the work their persona type describes, a turning point, who they are today and what they hope for next.",
  "Every detail given must visibly shape the story: the persona type, the age range (when they were born and which era they grew up in), each interest, and each personality trait (show each trait in action).",
  "Use the persona's name throughout and the pronouns given for their gender.",
  "Format: plain prose paragraphs separated by a blank line. No title, no headings, no lists, no markdown. Reply with the backstory only.",
].join("\n");

const PRONOUNS: Record<Gender, string> = {
  male: "he/him",
  female: "she/her",
  "non-binary": "they/them",
  other: "they/them",
};

/** The user message: the persona's fields, one per line. */
export function backstoryPrompt(input: BackstoryInput): string {
  const gender = GENDERS.includes(input.gender) ? input.gender : "other";
  const label = PERSONA_TYPE_LABELS[input.type] ?? input.type;
  const list = (items: readonly string[]) => (items.length > 0 ? items.join(", ") : "not specified");
  const description = (input.description ?? "").replace(/\s+/g, " ").trim();
  return [
    "Write the backstory for this persona.",
    `Name: ${input.name.replace(/\s+/g, " ").trim()}`,
    `Persona type: ${label}`,
    `Gender: ${gender} (pronouns: ${PRONOUNS[gender]})`,
    `Age range: ${input.ageRange ?? "not specified"}`,
    `Interests: ${list(input.interests)}`,
    `Personality traits: ${list(input.personality)}`,
    `Description: ${description || "not provided"}`,
    ...factLines(input),
  ].join("\n");
}

/** The fact sheet's facts the story must state; a fact the sheet leaves empty (an imported card's) is not stated. */
function factLines(input: BackstoryInput): string[] {
  const facts = input.facts;
  if (!facts) return [];
  const year = input.ageRange && facts.birthYear > 0 ? String(facts.birthYear) : "";
  const born = [year, facts.birthplace.trim()].filter(Boolean).join(", in ");
  const lines = [
    ["Born", born],
    ["Lives in", facts.currentResidence],
    ["Family", facts.family],
    ["Occupation", facts.occupation],
    ["Education", facts.education],
  ]
    .filter(([, value]) => value!.trim() !== "")
    .map(([label, value]) => `${label}: ${value!.trim()}`);
  if (lines.length === 0) return [];
  return ["", "Facts the story must state as given, and never contradict (do not add another birthplace, home, family or job):", ...lines];
}

export const LORE_SYSTEM_PROMPT = [
  "You build lorebooks for PersonaForge, a tool where creators design AI character personas.",
  "A lorebook entry is what the persona knows about one subject: a person, place, group (organisation, band, school, team…), event or secret its backstory or facts name.",
  "Propose one entry for every person, place, group, event and secret the backstory and the facts name, using only what they state: never invent a detail, a name or a date.",
  "Each entry: name (the subject, at most 100 characters); keys (1 to 8 words or short phrases from the text that bring the subject up in a conversation: the name, short forms, the words used for it such as 'hometown' or 'her sister'); content (what the backstory and facts say about the subject, in their words, at most 2,000 characters); kind (one of: " +
    LORE_KINDS.join(", ") +
    ").",
  "Leave out subjects whose keys the existing entries listed already use.",
  'Reply with JSON only, no prose and no markdown: {"entries": [{"name": "…", "keys": ["…"], "content": "…", "kind": "person"}]}',
].join("\n");

/** The user message of a lore proposal: the persona's facts, the existing keys and the backstory. */
export function lorePrompt(input: LoreCompileInput): string {
  const facts = input.extended ?? ({} as LoreFacts);
  const line = (label: string, value: string | null | undefined) => (value && value.trim() ? [`${label}: ${value.trim()}`] : []);
  const existing = input.existing.map((entry) => `- ${entry.name}: ${entry.keys.join(", ")}`);
  return [
    `Persona: ${input.name.replace(/\s+/g, " ").trim()}`,
    "",
    "Facts:",
    ...line("Birthplace", facts.birthplace),
    ...line("Lives in", facts.currentResidence),
    ...line("Occupation", facts.occupation),
    ...line("Education", facts.education),
    ...line("Family", facts.socialCircle?.family),
    ...line("Secret skills", (facts.secretSkills ?? []).join("; ")),
    ...line("Birth year", facts.birthYear ? String(facts.birthYear) : ""),
    "",
    "Existing entries (title: keys):",
    ...(existing.length > 0 ? existing : ["none"]),
    "",
    "Backstory:",
    input.backstory.trim(),
  ].join("\n");
}

/**
 * The entries of a model's JSON answer, each checked like an entry a creator types (invalid ones
 * dropped), marked as built from the backstory, ordered by kind as the embedded compile orders them.
 */
export function loreProposalsOf(text: string): LoreProposal[] | null {
  const start = text.search(/[[{]/);
  if (start < 0) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.slice(start, Math.max(text.lastIndexOf("}"), text.lastIndexOf("]")) + 1));
  } catch {
    return null;
  }
  const list = Array.isArray(parsed) ? parsed : parsed && typeof parsed === "object" ? (parsed as { entries?: unknown }).entries : null;
  if (!Array.isArray(list)) return null;
  const schema = loreEntrySchema();
  const proposals: LoreProposal[] = [];
  for (const item of list.slice(0, LORE_LIMITS.entries)) {
    if (!item || typeof item !== "object") continue;
    const raw = item as Record<string, unknown>;
    const kind: LoreKind = (LORE_KINDS as readonly unknown[]).includes(raw.kind) ? (raw.kind as LoreKind) : "thing";
    const checked = schema.safeParse({
      name: raw.name,
      keys: raw.keys,
      content: raw.content,
      kind,
      insertion_order: COMPILED_ORDER[kind],
      enabled: true,
      constant: false,
      comment: COMPILED_COMMENT,
    });
    if (checked.success) proposals.push({ ...checked.data, kind });
  }
  return proposals;
}

function expandPrompt(words: number): string {
  return (
    `That draft has ${words} words, fewer than the ${BACKSTORY_MIN_WORDS} required. ` +
    `Expand it to at least ${BACKSTORY_MIN_WORDS} words (aim for 1,000): keep what works, add scenes, detail and depth, ` +
    "and keep the same plain prose paragraphs. Reply with the complete backstory, not only the additions."
  );
}

/** The `openai` package, once a call has loaded it: a server without OPENAI_API_KEY never holds it (about 2 MB of heap, docs/decisions/033). */
let sdk: typeof import("openai") | undefined;
export async function openAiSdk(): Promise<typeof import("openai")> {
  sdk ??= await import("openai");
  return sdk;
}

/** A client made at its first use, with the SDK loaded then: what each generator calls. */
export function openAiClient(options: ConstructorParameters<typeof OpenAI>[0]): () => Promise<OpenAI> {
  let client: OpenAI | undefined;
  return async () => {
    const { default: OpenAIClient } = await openAiSdk();
    client ??= new OpenAIClient(options);
    return client;
  };
}

export function createOpenAiTextGenerator({
  apiKey,
  baseURL,
  model,
  chatModel = model,
  timeoutMs = 60_000,
  maxRetries = 1,
  temperature = 0.9,
}: OpenAiTextOptions): TextGenerator {
  const connect = openAiClient({ apiKey, baseURL, timeout: timeoutMs, maxRetries });
  const where = endpointName(baseURL);
  const scrub = scrubber(apiKey);

  async function complete(messages: ChatCompletionMessageParam[], signal?: AbortSignal, temp = temperature): Promise<string> {
    let completion: ChatCompletion;
    try {
      completion = await (await connect()).chat.completions.create({ model, messages, temperature: temp }, { signal });
    } catch (error) {
      throw toAiError(error, where, timeoutMs, scrub);
    }
    return textOf(completion, where, scrub);
  }

  return {
    kind: "openai",
    chatModel,
    async generateBackstory(input: BackstoryInput, options: GenerateOptions = {}) {
      const messages: ChatCompletionMessageParam[] = [
        { role: "system", content: BACKSTORY_SYSTEM_PROMPT },
        { role: "user", content: backstoryPrompt(input) },
      ];
      const draft = await complete(messages, options.signal);
      let text = draft;
      if (countWords(draft) < BACKSTORY_MIN_WORDS) {
        const reply = await complete(
          [...messages, { role: "assistant", content: draft }, { role: "user", content: expandPrompt(countWords(draft)) }],
          options.signal,
        );
        text = reply;
        // Some models answer with the continuation only: then the story is the draft plus it.
        if (countWords(reply) < BACKSTORY_MIN_WORDS && !startsAlike(reply, draft)) text = `${draft}\n\n${reply}`;
        const words = countWords(text);
        if (words < BACKSTORY_MIN_WORDS) {
          throw new AiError(
            "too_short",
            `${where} wrote a backstory of ${words} words even after being asked to expand it (at least ${BACKSTORY_MIN_WORDS} are needed).`,
          );
        }
      }
      return capText(text, PERSONA_LIMITS.backstoryMax);
    },

    /** Lore entries from the backstory and facts only; an answer that is not the JSON asked for is bad_response. */
    async compileLore(input: LoreCompileInput, options: GenerateOptions = {}) {
      const text = await complete(
        [
          { role: "system", content: LORE_SYSTEM_PROMPT },
          { role: "user", content: lorePrompt(input) },
        ],
        options.signal,
        0.2,
      );
      const proposals = loreProposalsOf(text);
      if (!proposals) throw new AiError("bad_response", `${where} answered without the lore entries asked for (not JSON with "entries").`);
      return proposals;
    },

    /**
     * A persona test's rubric judged by the chat model (docs/product.md, Persona tests): the answer must
     * be JSON { "passed": boolean, "reason": string }; anything else is bad_response.
     */
    async judgeRubric(input: RubricInput, options: GenerateOptions = {}) {
      const exchange = input.exchange.map((turn) => `${turn.role === "user" ? "User" : input.persona.name}: ${turn.content}`).join("\n");
      let text: string;
      try {
        const completion = await (
          await connect()
        ).chat.completions.create(
          {
            model: chatModel,
            temperature: 0,
            messages: [
              {
                role: "system",
                content:
                  "You judge a role-play persona's replies against a rubric. Answer only with JSON: " +
                  '{"passed": true or false, "reason": "one sentence"}.',
              },
              { role: "user", content: `Persona: ${input.persona.name}\nRubric: ${input.rubric}\n\nExchange:\n${exchange}` },
            ],
          },
          { signal: options.signal },
        );
        text = textOf(completion, where, scrub);
      } catch (error) {
        throw toAiError(error, where, timeoutMs, scrub);
      }
      const verdict = rubricVerdict(text);
      if (!verdict) throw new AiError("bad_response", `${where} answered the rubric without the verdict asked for (JSON with "passed").`);
      return verdict;
    },

    /**
     * A streamed chat completion: each piece of text as the endpoint sends it. Leaving the loop
     * early (the caller went away) or aborting the signal cancels the HTTP request.
     */
    async *chatReply(input: ChatInput, options: ChatOptions = {}) {
      const controller = new AbortController();
      const abort = () => controller.abort();
      if (options.signal?.aborted) throw new AiError("timeout", `The request to ${lower(where)} was cancelled before it answered.`);
      options.signal?.addEventListener("abort", abort, { once: true });
      let timedOut = false;
      let timer = setTimeout(() => ((timedOut = true), abort()), timeoutMs);
      const rearm = () => {
        clearTimeout(timer);
        timer = setTimeout(() => ((timedOut = true), abort()), timeoutMs);
      };
      let length = 0;
      try {
        const stream = await (
          await connect()
        ).chat.completions.create(
          { model: chatModel, messages: chatPromptMessages(input), temperature: 0.8, stream: true },
          { signal: controller.signal, timeout: timeoutMs },
        );
        for await (const chunk of stream as AsyncIterable<ChatCompletionChunk>) {
          rearm();
          const choice = Array.isArray(chunk?.choices) ? chunk.choices[0] : undefined;
          const refusal = choice?.delta?.refusal;
          if (typeof refusal === "string" && refusal.trim() !== "") {
            throw new AiError("refused", `The model at ${where} declined to reply: ${scrub(refusal).slice(0, 200)}`);
          }
          if (choice?.finish_reason === "content_filter") {
            throw new AiError("refused", `The model at ${where} stopped: its content filter blocked the reply.`);
          }
          let text = choice?.delta?.content;
          if (typeof text !== "string" || text === "") continue;
          if (length === 0) text = text.replace(/^\s+/, "");
          if (text === "") continue;
          if (length + text.length > CHAT_REPLY_MAX_CHARS) {
            const rest = text.slice(0, CHAT_REPLY_MAX_CHARS - length);
            if (rest) yield rest;
            length = CHAT_REPLY_MAX_CHARS;
            break;
          }
          length += text.length;
          yield text;
        }
        // The SDK ends a stream quietly when its signal aborts: say why it ended.
        if (controller.signal.aborted && length < CHAT_REPLY_MAX_CHARS) throw new (await openAiSdk()).APIUserAbortError();
      } catch (error) {
        if (timedOut && !options.signal?.aborted) throw new AiError("timeout", `${where} did not answer within ${timeoutMs} ms.`);
        throw toAiError(error, where, timeoutMs, scrub);
      } finally {
        clearTimeout(timer);
        options.signal?.removeEventListener("abort", abort);
      }
      if (length === 0) throw new AiError("bad_response", `${where} answered with an empty reply.`);
    },
  };
}

// ---------------------------------------------------------------- answers

function textOf(completion: ChatCompletion, where: string, scrub: (text: string) => string): string {
  const choice = Array.isArray(completion?.choices) ? completion.choices[0] : undefined;
  if (!choice || typeof choice !== "object") {
    throw new AiError("bad_response", `${where} answered without a completion choice.`);
  }
  const refusal = choice.message?.refusal;
  if (typeof refusal === "string" && refusal.trim() !== "") {
    throw new AiError("refused", `The model at ${where} declined to write the backstory: ${scrub(refusal).slice(0, 200)}`);
  }
  if (choice.finish_reason === "content_filter") {
    throw new AiError("refused", `The model at ${where} stopped: its content filter blocked the backstory.`);
  }
  const content = choice.message?.content;
  if (typeof content !== "string") {
    throw new AiError("bad_response", `${where} answered without text.`);
  }
  const text = cleanProse(content);
  if (text === "") throw new AiError("bad_response", `${where} answered with empty text.`);
  return text;
}

/** Plain prose: no code fences or markdown headings, paragraphs separated by one blank line. */
export function cleanProse(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .replace(/^\s*```[a-z]*\n([\s\S]*?)\n```\s*$/i, "$1")
    .split("\n")
    .filter((line) => !/^\s*#{1,6}\s/.test(line))
    .map((line) => line.trimEnd())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

function startsAlike(a: string, b: string): boolean {
  const head = (s: string) => s.replace(/\s+/g, " ").trim().slice(0, 60).toLowerCase();
  return head(a) === head(b);
}

// ---------------------------------------------------------------- errors

/** The endpoint as named in messages: its host (no credentials, path or query). */
export function endpointName(baseURL: string | undefined): string {
  if (!baseURL) return "The OpenAI API";
  try {
    return `The AI endpoint ${new URL(baseURL).host}`;
  } catch {
    return "The AI endpoint";
  }
}

export function scrubber(apiKey: string): (text: string) => string {
  return (text) => {
    let out = apiKey ? text.split(apiKey).join("***") : text;
    // Keys the endpoint may echo back in any form (OpenAI masks them, proxies may not).
    out = out.replace(/\b(sk|rk)-[A-Za-z0-9_*-]{6,}/g, "$1-***");
    return out;
  };
}

export function toAiError(error: unknown, where: string, timeoutMs: number, scrub: (text: string) => string): AiError {
  if (error instanceof AiError) return error;
  // The SDK's errors can only come from calls that loaded it.
  const { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError, OpenAIError } = sdk ?? {};
  if (APIUserAbortError && error instanceof APIUserAbortError) {
    return new AiError("timeout", `The request to ${lower(where)} was cancelled before it answered.`);
  }
  if (APIConnectionTimeoutError && error instanceof APIConnectionTimeoutError) {
    return new AiError("timeout", `${where} did not answer within ${timeoutMs} ms.`);
  }
  if (APIConnectionError && error instanceof APIConnectionError) {
    return new AiError("unavailable", scrub(`Could not reach ${lower(where)} (${connectionProblem(error)}).`));
  }
  if (APIError && error instanceof APIError && typeof error.status === "number") {
    const status = error.status;
    const detail = scrub(error.message);
    if (status === 401 || status === 403) {
      return new AiError("refused", `${where} refused the credentials (${detail}). Check OPENAI_API_KEY.`, status);
    }
    if (status === 408) return new AiError("timeout", `${where} timed out (${detail}).`, status);
    if (status === 429 || status >= 500) {
      return new AiError("unavailable", `${where} is unavailable (${detail}).`, status);
    }
    return new AiError("refused", `${where} rejected the request (${detail}).`, status);
  }
  if ((OpenAIError && error instanceof OpenAIError) || error instanceof SyntaxError) {
    return new AiError("bad_response", scrub(`${where} sent an answer that could not be read (${error.message}).`));
  }
  const message = error instanceof Error ? error.message : String(error);
  return new AiError("unavailable", scrub(`The request to ${lower(where)} failed (${message}).`));
}

/** "Connection error: fetch failed (ECONNREFUSED)" from the SDK's error and its causes. */
function connectionProblem(error: APIConnectionError): string {
  const parts = [error.message.replace(/\.$/, "")];
  const cause = error.cause as (Error & { cause?: { code?: unknown } }) | undefined;
  if (cause instanceof Error) {
    parts.push(`: ${cause.message}`);
    if (typeof cause.cause?.code === "string") parts.push(` (${cause.cause.code})`);
  }
  return parts.join("");
}

function lower(where: string): string {
  return where.charAt(0).toLowerCase() + where.slice(1);
}

/** {"passed": boolean, "reason": string} from a model's answer (a JSON object, possibly fenced); null otherwise. */
export function rubricVerdict(text: string): { passed: boolean; reason: string } | null {
  const body = /\{[\s\S]*\}/.exec(text)?.[0];
  if (!body) return null;
  try {
    const value = JSON.parse(body) as { passed?: unknown; reason?: unknown };
    if (typeof value.passed !== "boolean") return null;
    const reason = typeof value.reason === "string" ? value.reason.trim().slice(0, 500) : "";
    return { passed: value.passed, reason: reason || (value.passed ? "Meets the rubric." : "Does not meet the rubric.") };
  } catch {
    return null;
  }
}
