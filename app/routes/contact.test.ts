// The contact action called with real requests, as the browser sends them without JavaScript.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { describe, expect, it } from "vitest";

process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), "pf-contact-"));
const { action } = await import("./contact");

type Result = {
  data: { values: Record<string, string>; errors: Record<string, string[]> | null; mailto: string | null };
  init: { status?: number } | null;
};

const submit = (body: string, type = "application/x-www-form-urlencoded") =>
  action({
    request: new Request("http://localhost/contact", { method: "POST", body, headers: { "content-type": type } }),
    params: {},
    context: {},
  }) as unknown as Promise<Result>;

describe("POST /contact", () => {
  it("missing fields: 400 with the field errors, and what was typed comes back", async () => {
    const result = await submit("name=&email=&subject=Hello&message=");
    expect(result.init?.status).toBe(400);
    expect(result.data.errors).toMatchObject({ name: ["This field is required"], message: ["This field is required"] });
    expect(result.data.values.subject).toBe("Hello");
    expect(result.data.mailto).toBeNull();
  });

  it("valid: answers with the mailto: link that opens the mail client", async () => {
    const result = await submit(new URLSearchParams({ name: "Ada", email: "ada@example.com", message: "Hi" }).toString());
    expect(result.init?.status ?? 200).toBe(200);
    expect(result.data.mailto).toMatch(/^mailto:hello@personaforge\.app\?subject=Message%20from%20Ada&body=Hi/);
  });

  it("HTML in a field stays text in the link", async () => {
    const result = await submit(
      new URLSearchParams({ name: "<img src=x onerror=alert(1)>", email: "a@b.co", message: "<b>hi</b>" }).toString(),
    );
    expect(result.data.mailto).not.toContain("<");
  });

  it("oversized: 413, wrong type: 415", async () => {
    await expect(submit(`message=${"x".repeat(40_000)}`)).rejects.toMatchObject({ status: 413 });
    await expect(submit('{"name":"Ada"}', "application/json")).rejects.toMatchObject({ status: 415 });
  });
});
