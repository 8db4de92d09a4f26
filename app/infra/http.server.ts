// Reading request bodies safely: a size cap (413), the right content type (415) and
// malformed bodies (400) become clear 4xx answers, never a 500.
export const MAX_FORM_BYTES = 64 * 1024;
export const MAX_JSON_BYTES = 64 * 1024;

/** Throws a JSON answer: a thrown Response keeps its status in document and resource routes alike. */
export function httpError(status: number, message: string): never {
  throw Response.json({ message }, { status });
}

async function readLimited(request: Request, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) httpError(413, `Request body too large (limit ${Math.round(maxBytes / 1024)} KB).`);
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      httpError(413, `Request body too large (limit ${Math.round(maxBytes / 1024)} KB).`);
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
export async function readLimitedBody(request: Request, maxBytes: number): Promise<Uint8Array> {
  return readLimited(request, maxBytes);
}

/** The form data of a POST, at most maxBytes, url-encoded or multipart. */
export async function readFormData(request: Request, maxBytes = MAX_FORM_BYTES): Promise<FormData> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/x-www-form-urlencoded\b|^multipart\/form-data\b/i.test(type)) {
    httpError(415, "Send the form as application/x-www-form-urlencoded or multipart/form-data.");
  }
  const body = await readLimited(request, maxBytes);
  try {
    return await new Request(request.url, { method: "POST", headers: { "content-type": type }, body: body as unknown as BodyInit }).formData();
  } catch {
    return httpError(400, "The form data could not be read.");
  }
}

/** The JSON body of an API call, at most maxBytes. */
export async function readJson(request: Request, maxBytes = MAX_JSON_BYTES): Promise<unknown> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/json\b/i.test(type)) httpError(415, "Send the body as application/json.");
  const body = await readLimited(request, maxBytes);
  try {
    return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body));
  } catch {
    return httpError(400, "Malformed JSON body.");
  }
}
