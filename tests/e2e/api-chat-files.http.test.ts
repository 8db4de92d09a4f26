// The chat file calls of the JSON API (docs/api.md: GET /api/personas/{id}/chat/export,
// POST /api/personas/{id}/chat/import): their answers to bad input, another creator's persona,
// and a conversation that is not empty. 4xx with a message, nothing stored.
import { createAccount, createPersona, expect, test, type Account } from "./support";

const auth = (account: Account) => ({ Authorization: `Bearer ${account.token}` });

test.describe("the chat file API", () => {
  test("bad files, bad formats, another creator's persona, a conversation that is not empty: 4xx with a message, nothing stored", async ({
    request,
  }) => {
    const account = await createAccount(request);
    const persona = await createPersona(request, account, "Tova Reed");
    const post = (data: string | Buffer, headers: Record<string, string> = {}) =>
      request.post(`/api/personas/${persona.id}/chat/import`, {
        headers: { ...auth(account), "content-type": "application/jsonl", ...headers },
        data,
      });
    const header = JSON.stringify({ user_name: "A", character_name: "Tova" });

    const wrong = await post('{"name":"x"}\n');
    expect([wrong.status(), ((await wrong.json()) as { message: string }).message]).toEqual([
      400,
      "This is not a SillyTavern chat: its first line must be the chat's header (user_name, character_name).",
    ]);
    const notJson = await post(`${header}\n{"mes":"hi","is_user":true}\n{oops`);
    expect([notJson.status(), ((await notJson.json()) as { message: string }).message]).toEqual([400, "Line 3 is not JSON."]);
    const huge = await post(Buffer.alloc(5 * 1024 * 1024 + 10, 0x20));
    expect(huge.status()).toBe(413);
    const manyLines = `${header}\n${Array.from({ length: 1_000_000 }, () => "{}").join("\n")}`;
    const many = await post(manyLines);
    expect(many.status()).toBe(400);
    expect(((await many.json()) as { message: string }).message).toMatch(/^Line 2 is not a chat message/);
    const badFormat = await request.get(`/api/personas/${persona.id}/chat/export?format=docx`, { headers: auth(account) });
    expect([badFormat.status(), ((await badFormat.json()) as { message: string }).message]).toEqual([
      400,
      "Unknown chat format. Use one of: txt, jsonl, md.",
    ]);

    const other = await createAccount(request);
    const theirs = await request.post(`/api/personas/${persona.id}/chat/import`, {
      headers: { ...auth(other), "content-type": "application/jsonl" },
      data: `${header}\n{"mes":"mine","is_user":true}`,
    });
    expect(theirs.status()).toBe(404);
    expect((await request.get(`/api/personas/${persona.id}/chat/export`, { headers: auth(other) })).status()).toBe(404);

    const ok = await post(`${header}\n{"mes":"Hello","is_user":true}\n{"mes":"Hi!","is_user":false}`);
    expect(ok.status(), await ok.text()).toBe(201);
    expect(((await ok.json()) as { imported: number }).imported).toBe(2);
    const twice = await post(`${header}\n{"mes":"Again","is_user":true}`);
    expect([twice.status(), ((await twice.json()) as { message: string }).message]).toEqual([
      409,
      "Clear the conversation before importing one: an import never replaces messages.",
    ]);
    const listed = await request.get(`/api/personas/${persona.id}/chat`, { headers: auth(account) });
    const body = (await listed.json()) as { content: string }[];
    expect(body.map((m) => m.content)).toEqual(["Hello", "Hi!"]);
  });
});
