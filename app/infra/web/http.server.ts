// Reading request bodies safely: a size cap (413), the right content type (415), a JSON
// shape cap and malformed bodies (400) become clear 4xx answers, never a 500. Bodies are
// checked while they stream in, so an oversized or hostile body is refused after its first
// bytes over the line, whether it declared a length or came chunked.
import { jsonShapeScanner, JsonLimitError } from "~/domain/json-limits";

export const MAX_FORM_BYTES = 64 * 1024;
export const MAX_JSON_BYTES = 64 * 1024;

/** Throws a JSON answer: a thrown Response keeps its status in document and resource routes alike. */
export function httpError(status: number, message: string): never {
  throw Response.json({ message }, { status });
}

const tooLarge = (maxBytes: number) =>
  httpError(
    413,
    `Request body too large (limit ${maxBytes >= 1024 * 1024 ? `${Math.round(maxBytes / (1024 * 1024))} MB` : `${Math.round(maxBytes / 1024)} KB`}).`,
  );

interface ReadOptions {
  /** Also checks the JSON shape (nesting, item count) of each chunk as it arrives. */
  json?: boolean;
}

async function readLimited(request: Request, maxBytes: number, options: ReadOptions = {}): Promise<Uint8Array> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) tooLarge(maxBytes);
  if (!request.body) return new Uint8Array();
  const inspect = options.json ? jsonShapeScanner() : undefined;
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  // On a refusal the reader is released, not cancelled: cancelling would destroy the
  // connection before the answer is sent. The server discards the rest of the body
  // (app/server.mjs), so the client reads the 4xx and can reuse the connection.
  const refuse = (answer: () => never): never => {
    reader.releaseLock();
    return answer();
  };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) refuse(() => tooLarge(maxBytes));
    if (inspect) {
      try {
        inspect(value);
      } catch (error) {
        if (error instanceof JsonLimitError) refuse(() => httpError(400, error.message));
        throw error;
      }
    }
    chunks.push(value);
  }
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/** A raw request body of at most maxBytes (413 beyond), whatever its type. */
export async function readLimitedBody(request: Request, maxBytes: number, options?: ReadOptions): Promise<Uint8Array> {
  return readLimited(request, maxBytes, options);
}

/** The form data of a POST, at most maxBytes, url-encoded or multipart. */
export async function readFormData(request: Request, maxBytes = MAX_FORM_BYTES): Promise<FormData> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/x-www-form-urlencoded\b|^multipart\/form-data\b/i.test(type)) {
    httpError(415, "Send the form as application/x-www-form-urlencoded or multipart/form-data.");
  }
  const body = await readLimited(request, maxBytes);
  try {
    return await new Request(request.url, {
      method: "POST",
      headers: { "content-type": type },
      body: body as unknown as BodyInit,
    }).formData();
  } catch {
    return httpError(400, "The form data could not be read.");
  }
}

/** The JSON body of an API call, at most maxBytes, within the JSON shape limits. */
export async function readJson(request: Request, maxBytes = MAX_JSON_BYTES): Promise<unknown> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/json\b/i.test(type)) httpError(415, "Send the body as application/json.");
  const body = await readLimited(request, maxBytes, { json: true });
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(body);
  } catch {
    return httpError(400, "Malformed JSON body.");
  }
  try {
    // The shape was checked while the body streamed in.
    return JSON.parse(text) as unknown;
  } catch {
    return httpError(400, "Malformed JSON body.");
  }
}
