// A stand-in for an OpenAI-compatible API at the HTTP boundary, for tests of the AI adapters
// with the real `openai` package. It listens on 127.0.0.1 (random port) and speaks the same HTTP
// as api.openai.com for what the adapters call:
//
// - POST /v1/chat/completions answers `{ id, object: "chat.completion", created, model,
//   choices: [{ index, message: { role: "assistant", content, refusal, annotations }, logprobs,
//   finish_reason }], usage, system_fingerprint }` with `x-request-id` and
//   `openai-processing-ms` headers;
// - errors are `{ error: { message, type, param, code } }` with the status: a missing bearer
//   token is 401 (code null), a wrong one 401 `invalid_api_key` with the key masked the way
//   OpenAI masks it, a body that is not JSON or lacks model/messages 400, another path 404
//   "Invalid URL (METHOD /path)";
// - every request is recorded (method, path, lower-cased headers, parsed JSON body) before it
//   is answered, including those answered with an error.
// - POST /v1/images/generations (model and prompt required) answers what the test queued: a
//   raw body such as `{ created, data: [{ b64_json }] }` or `{ data: [{ url }] }`, or an error
//   (a content-policy refusal is 400 with code `moderation_blocked`); `files` holds bodies the
//   fake serves at GET /files/<name> (for URL answers), with the content type the test chose;
//
// - with `"stream": true` a text reply is sent as server-sent events, as OpenAI streams: one
//   `chat.completion.chunk` per piece (`delta.content`), a last chunk with `finish_reason`, then
//   `data: [DONE]`; a reply can pause between pieces, fail after some pieces (an `error` event,
//   or the connection dropped), and the fake counts streams the client abandoned;
//
// Tests program the answers: `reply(...)` queues one answer per request, in order (text, an
// error with a status, a raw body, each optionally delayed beyond the client's timeout); when
// the queue is empty the fallback answer is used (by default a 500, so a test that forgot to
// queue something fails loudly).
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  /** Path without the query, e.g. `/v1/chat/completions`. */
  path: string;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  /** Parsed JSON body, or the raw text when it is not JSON, or null when empty. */
  body: unknown;
}

interface Delayed {
  /** Wait this long before answering (e.g. longer than the client's timeout). */
  delayMs?: number;
}

/** A completion with this text (null content is allowed, to test bad answers). */
export interface TextReply extends Delayed {
  content: string | null;
  finishReason?: "stop" | "length" | "content_filter" | "tool_calls";
  refusal?: string | null;
  /** Streamed: the pieces to send (default: the content word by word). */
  chunks?: string[];
  /** Streamed: wait this long before each piece after the first. */
  chunkDelayMs?: number;
  /** Streamed: after this many pieces, fail: an `error` event, or drop the connection. */
  failAfter?: { chunks: number; how: "error-event" | "drop" };
}

/** An error in OpenAI's shape. */
export interface ErrorReply extends Delayed {
  status: number;
  message: string;
  type?: string;
  code?: string | null;
  param?: string | null;
  /** Extra response headers, e.g. `retry-after-ms` (which the SDK honors between retries). */
  headers?: Record<string, string>;
}

/** Any body, as-is (for malformed answers). */
export interface RawReply extends Delayed {
  status: number;
  raw: string;
  contentType?: string;
}

export type FakeReply = TextReply | ErrorReply | RawReply;

export interface FakeOpenAi {
  /** The API root to give the client as baseURL (ends in /v1). */
  url: string;
  /** The key the fake accepts. */
  apiKey: string;
  requests: RecordedRequest[];
  /** Queue answers, one per request, in order. */
  reply(...replies: FakeReply[]): void;
  /** Queue completions with these texts. */
  replyText(...contents: string[]): void;
  /** The answer used when the queue is empty. */
  fallback: FakeReply;
  /**
   * A scripted model: when the queue is empty, the answer it computes from the request's JSON body
   * (null: the fallback). E.g. a model that drifts after some turns, counted from the messages.
   */
  responder: ((request: Record<string, unknown>) => FakeReply | null) | null;
  /** Requests that found the queue empty. */
  unexpected: number;
  /** Streams the client closed before the last event. */
  abandonedStreams: number;
  /** Bodies served at GET /files/<name> (image URL answers), with their Content-Type. */
  /** Files under /files/…; `chunked` sends the body in pieces without a Content-Length. */
  files: Map<string, { body: Uint8Array; contentType: string; delayMs?: number; chunked?: boolean }>;
  /** Forget requests and queued answers (the fallback is reset too). */
  reset(): void;
  close(): Promise<void>;
}

export interface FakeOpenAiOptions {
  /** The key to accept (default a random `sk-test-…`). Other bearer tokens get 401 invalid_api_key. */
  apiKey?: string;
}

const NO_REPLY: ErrorReply = {
  status: 500,
  message: "The fake OpenAI server has no reply queued for this request.",
  type: "server_error",
};

function maskKey(key: string): string {
  // OpenAI: "Incorrect API key provided: sk-abc1*********************wxyz."
  return key.length <= 8 ? "*".repeat(key.length) : `${key.slice(0, 6)}${"*".repeat(key.length - 10)}${key.slice(-4)}`;
}

function words(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

export async function startFakeOpenAi(options: FakeOpenAiOptions = {}): Promise<FakeOpenAi> {
  const apiKey = options.apiKey ?? `sk-test-${randomBytes(18).toString("hex")}`;
  const queue: FakeReply[] = [];
  const timers = new Set<NodeJS.Timeout>();

  const fake: FakeOpenAi = {
    url: "",
    apiKey,
    requests: [],
    fallback: NO_REPLY,
    responder: null,
    unexpected: 0,
    abandonedStreams: 0,
    files: new Map(),
    reply: (...replies) => void queue.push(...replies),
    replyText: (...contents) => void queue.push(...contents.map((content) => ({ content }))),
    reset() {
      queue.length = 0;
      fake.requests.length = 0;
      fake.fallback = NO_REPLY;
      fake.responder = null;
      fake.unexpected = 0;
      fake.abandonedStreams = 0;
    },
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  const send = (res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}) => {
    if (res.destroyed || res.writableEnded) return; // the client gave up (timeout, abort)
    res.writeHead(status, {
      "content-type": "application/json",
      "x-request-id": `req_${randomBytes(12).toString("hex")}`,
      "openai-processing-ms": "42",
      ...headers,
    });
    res.end(body);
  };
  const sendError = (res: ServerResponse, e: ErrorReply) =>
    send(
      res,
      e.status,
      JSON.stringify({
        error: { message: e.message, type: e.type ?? "invalid_request_error", param: e.param ?? null, code: e.code ?? null },
      }),
      e.headers,
    );

  const stream = async (res: ServerResponse, reply: TextReply, body: Record<string, unknown>) => {
    const id = `chatcmpl-${randomBytes(14).toString("base64url")}`;
    const model = typeof body.model === "string" ? body.model : "unknown";
    const chunk = (delta: Record<string, unknown>, finish: string | null) =>
      `data: ${JSON.stringify({
        id,
        object: "chat.completion.chunk",
        created: Math.floor(Date.now() / 1000),
        model,
        system_fingerprint: "fp_fake",
        choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      })}\n\n`;
    let finished = false;
    res.on("close", () => {
      if (!finished) fake.abandonedStreams += 1;
    });
    res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "x-request-id": `req_${randomBytes(12).toString("hex")}` });
    res.write(chunk({ role: "assistant", content: "", refusal: null }, null));
    const pieces = reply.chunks ?? (reply.content ?? "").match(/\S+\s*/g) ?? [];
    for (const [i, piece] of pieces.entries()) {
      if (reply.failAfter && i === reply.failAfter.chunks) break;
      if (i > 0 && reply.chunkDelayMs) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(() => (timers.delete(timer), resolve()), reply.chunkDelayMs);
          timers.add(timer);
        });
      }
      if (res.destroyed) return;
      res.write(chunk({ content: piece }, null));
    }
    if (reply.failAfter) {
      if (reply.failAfter.how === "drop") {
        finished = true;
        // Let the pieces already written reach the client, then cut the connection.
        const timer = setTimeout(() => (timers.delete(timer), res.destroy()), 50);
        timers.add(timer);
        return;
      }
      finished = true;
      res.end(
        `data: ${JSON.stringify({ error: { message: "The server had an error while processing your request.", type: "server_error", param: null, code: null } })}\n\n`,
      );
      return;
    }
    if (reply.refusal) res.write(chunk({ refusal: reply.refusal }, null));
    res.write(chunk({}, reply.finishReason ?? "stop"));
    finished = true;
    res.end("data: [DONE]\n\n");
  };

  const answer = (res: ServerResponse, reply: FakeReply, body: Record<string, unknown>) => {
    if (body.stream === true && !("raw" in reply) && !("status" in reply)) {
      void stream(res, reply, body);
      return;
    }
    if ("raw" in reply) {
      send(res, reply.status, reply.raw, { "content-type": reply.contentType ?? "application/json" });
    } else if ("status" in reply) {
      sendError(res, reply);
    } else {
      const prompt = JSON.stringify(body.messages ?? "");
      const completion = reply.content === null ? 0 : words(reply.content);
      send(
        res,
        200,
        JSON.stringify({
          id: `chatcmpl-${randomBytes(14).toString("base64url")}`,
          object: "chat.completion",
          created: Math.floor(Date.now() / 1000),
          model: typeof body.model === "string" ? body.model : "unknown",
          choices: [
            {
              index: 0,
              message: { role: "assistant", content: reply.content, refusal: reply.refusal ?? null, annotations: [] },
              logprobs: null,
              finish_reason: reply.finishReason ?? "stop",
            },
          ],
          usage: { prompt_tokens: words(prompt), completion_tokens: completion, total_tokens: words(prompt) + completion },
          system_fingerprint: "fp_fake",
        }),
      );
    }
  };

  const handle = (req: IncomingMessage, res: ServerResponse, raw: string) => {
    const path = new URL(req.url ?? "/", "http://fake").pathname;
    const headers = Object.fromEntries(
      Object.entries(req.headers).map(([k, v]) => [k.toLowerCase(), Array.isArray(v) ? v.join(", ") : (v ?? "")]),
    );
    let body: unknown = null;
    let json = false;
    if (raw !== "") {
      try {
        body = JSON.parse(raw);
        json = true;
      } catch {
        body = raw;
      }
    }
    fake.requests.push({ method: req.method ?? "GET", path, headers, body });

    if (req.method === "GET" && path.startsWith("/files/")) {
      const file = fake.files.get(decodeURIComponent(path.slice("/files/".length)));
      if (!file) return sendError(res, { status: 404, message: `No file at ${path}` });
      const send = () => {
        if (file.chunked) {
          res.writeHead(200, { "content-type": file.contentType });
          const body = Buffer.from(file.body);
          for (let at = 0; at < body.byteLength; at += 1 << 20) res.write(body.subarray(at, at + (1 << 20)));
          res.end();
          return;
        }
        res.writeHead(200, { "content-type": file.contentType, "content-length": String(file.body.byteLength) });
        res.end(Buffer.from(file.body));
      };
      if (file.delayMs) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          send();
        }, file.delayMs);
        timers.add(timer);
      } else send();
      return;
    }
    const images = path === "/v1/images/generations";
    if (req.method !== "POST" || (path !== "/v1/chat/completions" && !images)) {
      return sendError(res, { status: 404, message: `Invalid URL (${req.method} ${path})` });
    }
    const bearer = /^Bearer (.+)$/i.exec(headers.authorization ?? "")?.[1];
    if (!bearer) {
      return sendError(res, {
        status: 401,
        message:
          "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
      });
    }
    if (bearer !== apiKey) {
      return sendError(res, {
        status: 401,
        code: "invalid_api_key",
        message: `Incorrect API key provided: ${maskKey(bearer)}. You can find your API key at https://platform.openai.com/account/api-keys.`,
      });
    }
    if (!json || typeof body !== "object" || body === null || Array.isArray(body)) {
      return sendError(res, {
        status: 400,
        message:
          "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly.)",
      });
    }
    const request = body as Record<string, unknown>;
    if (typeof request.model !== "string" || request.model === "") {
      return sendError(res, { status: 400, message: "you must provide a model parameter" });
    }
    if (images && (typeof request.prompt !== "string" || request.prompt === "")) {
      return sendError(res, { status: 400, param: "prompt", message: "you must provide a prompt parameter" });
    }
    if (!images && (!Array.isArray(request.messages) || request.messages.length === 0)) {
      return sendError(res, { status: 400, param: "messages", message: "[] is too short - 'messages'" });
    }

    let reply = queue.shift() ?? fake.responder?.(request) ?? undefined;
    if (!reply) {
      fake.unexpected += 1;
      reply = fake.fallback;
    }
    const chosen = reply;
    if (chosen.delayMs && chosen.delayMs > 0) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        answer(res, chosen, request);
      }, chosen.delayMs);
      timers.add(timer);
    } else {
      answer(res, chosen, request);
    }
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => handle(req, res, Buffer.concat(chunks).toString("utf8")));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return fake;
}
