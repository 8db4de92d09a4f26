import { describe, expect, it } from "vitest";

import { readFormData, readJson, readLimitedBody } from "./http.server";

async function statusOf(promise: Promise<unknown>) {
  try {
    await promise;
    return 200;
  } catch (thrown) {
    const response = thrown as Response;
    return { status: response.status, message: ((await response.json()) as { message?: string }).message };
  }
}

const post = (body: BodyInit, headers: Record<string, string>) =>
  new Request("http://localhost/x", { method: "POST", body, headers, duplex: "half" } as RequestInit);

describe("readFormData", () => {
  it("reads a url-encoded form", async () => {
    const form = await readFormData(post("name=Ada&email=a%40b.co", { "content-type": "application/x-www-form-urlencoded" }));
    expect(form.get("name")).toBe("Ada");
    expect(form.get("email")).toBe("a@b.co");
  });

  it("answers 413 when the declared length is over the limit", async () => {
    const req = post("a=1", { "content-type": "application/x-www-form-urlencoded", "content-length": "999999" });
    expect(await statusOf(readFormData(req, 1024))).toMatchObject({ status: 413 });
  });

  it("answers 413 when a streamed body without a length grows past the limit", async () => {
    const chunk = new TextEncoder().encode("a=".concat("x".repeat(1000)));
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 10; i++) controller.enqueue(chunk);
        controller.close();
      },
    });
    const req = post(stream, { "content-type": "application/x-www-form-urlencoded" });
    expect(await statusOf(readFormData(req, 4096))).toMatchObject({ status: 413 });
  });

  it("answers 415 for a body that is not a form", async () => {
    expect(await statusOf(readFormData(post("{}", { "content-type": "application/json" })))).toMatchObject({ status: 415 });
  });

  it("answers 400 for a multipart body that cannot be parsed", async () => {
    const req = post("garbage", { "content-type": "multipart/form-data; boundary=zzz" });
    expect(await statusOf(readFormData(req))).toMatchObject({ status: 400, message: "The form data could not be read." });
  });
});

describe("readJson", () => {
  it("reads JSON", async () => {
    expect(await readJson(post('{"a":1}', { "content-type": "application/json" }))).toEqual({ a: 1 });
  });
  it("answers 400 for malformed JSON and invalid UTF-8", async () => {
    expect(await statusOf(readJson(post("{a:", { "content-type": "application/json" })))).toMatchObject({
      status: 400,
      message: "Malformed JSON body.",
    });
    const badUtf8 = new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x7d]);
    expect(await statusOf(readJson(post(badUtf8, { "content-type": "application/json" })))).toMatchObject({ status: 400 });
  });
  it("answers 415 without a JSON content type and 413 when too large", async () => {
    expect(await statusOf(readJson(post("{}", { "content-type": "text/plain" })))).toMatchObject({ status: 415 });
    expect(
      await statusOf(readJson(post(JSON.stringify({ a: "x".repeat(5000) }), { "content-type": "application/json" }), 1024)),
    ).toMatchObject({ status: 413 });
  });
});

describe("hostile bodies", () => {
  /** An 8 MB body in 64 KB chunks that counts how many the reader pulled, and whether it was cancelled. */
  function counted(byte: number) {
    const chunk = new Uint8Array(64 * 1024).fill(byte);
    const seen = { pulled: 0, cancelled: false };
    const stream = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          if (seen.pulled === 128) return controller.close();
          seen.pulled++;
          controller.enqueue(chunk);
        },
        cancel() {
          seen.cancelled = true;
        },
      },
      { highWaterMark: 0 },
    );
    return { stream, seen };
  }

  it("refuses deeply nested JSON at its first chunk, before reading the rest", async () => {
    const { stream, seen } = counted(0x5b);
    const req = post(stream, { "content-type": "application/json" });
    expect(await statusOf(readLimitedBody(req, 8 * 1024 * 1024, { json: true }))).toMatchObject({
      status: 400,
      message: "The JSON is nested too deeply (at most 32 levels).",
    });
    expect(seen.pulled).toBe(1);
    // Released, not cancelled: cancelling would reset the connection before the answer goes out.
    expect(seen.cancelled).toBe(false);
  });

  it("stops reading an oversized body as soon as it passes the limit", async () => {
    const { stream, seen } = counted(0x61);
    const req = post(stream, { "content-type": "application/x-www-form-urlencoded" });
    expect(await statusOf(readFormData(req, 100 * 1024))).toMatchObject({ status: 413, message: "Request body too large (limit 100 KB)." });
    expect(seen.pulled).toBe(2);
    expect(seen.cancelled).toBe(false);
  });

  it("applies the shape limits to readJson too", async () => {
    const wide = `[${Array.from({ length: 100_002 }, () => "1").join(",")}]`;
    expect(await statusOf(readJson(post(wide, { "content-type": "application/json" }), 1024 * 1024))).toMatchObject({
      status: 400,
      message: "The JSON has too many items (at most 100,000).",
    });
  });
});
