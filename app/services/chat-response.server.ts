// The answer to a chat call that writes a reply (POST /api/personas/{id}/chat and
// …/chat/regenerate): the whole reply as JSON (201 { messageId, response }), or, when the
// request sends `Accept: text/event-stream`, the reply as server-sent events while it is
// written: `event: token` with `{ text }` for each piece, then `event: done` with
// `{ messageId, response }`, or `event: error` with `{ message }`. The client going away
// aborts the reply (nothing more is stored).
import { describeError } from "~/infra/web/log.server";

import { CHAT_FAILED, type PreparedReply } from "./chat.server";
import { ServiceError } from "./service-error.server";

type Ready = Extract<PreparedReply, { duplicate: false }>;

export function wantsEventStream(request: Request): boolean {
  return /\btext\/event-stream\b/i.test(request.headers.get("accept") ?? "");
}

function event(name: string, data: unknown): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

export async function replyResponse(request: Request, prepared: Ready, headers: Headers): Promise<Response> {
  if (!wantsEventStream(request)) {
    const reply = await prepared.complete({ signal: request.signal });
    return Response.json(reply, { status: 201, headers });
  }
  const encoder = new TextEncoder();
  const stop = new AbortController();
  const signal = AbortSignal.any([request.signal, stop.signal]);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (chunk: string) => {
        try {
          controller.enqueue(encoder.encode(chunk));
        } catch {
          // The stream was cancelled: the client is gone.
        }
      };
      const end = () => {
        try {
          controller.close();
        } catch {
          // Already closed.
        }
      };
      prepared
        .complete({ live: true, signal, onToken: (text) => send(event("token", { text })) })
        .then((reply) => send(event("done", reply)))
        .catch((error: unknown) => {
          if (!(error instanceof ServiceError)) console.error(`[chat] reply failed: ${describeError(error)}`);
          send(event("error", { message: error instanceof ServiceError ? error.message : CHAT_FAILED }));
        })
        .finally(end);
    },
    cancel() {
      stop.abort();
    },
  });
  headers.set("Content-Type", "text/event-stream; charset=utf-8");
  // no-transform keeps the compression middleware from buffering the events.
  headers.set("Cache-Control", "no-cache, no-transform");
  headers.set("X-Accel-Buffering", "no");
  return new Response(body, { status: 200, headers });
}
