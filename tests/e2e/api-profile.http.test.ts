// PATCH /api/personas/{id}/profile/{section} (docs/api.md): a section of the Extended Persona
// Profile over HTTP, lists as arrays; each bad field is answered with its message and nothing is
// stored; another creator's persona is 404.
import { createAccount, expect, personaBody, test } from "./support";

test("a profile section over the API: lists as arrays, each bad field answered with its message, nothing stored", async ({ request }) => {
  const account = await createAccount(request);
  const auth = { Authorization: `Bearer ${account.token}` };
  const persona = (await (await request.post("/api/personas", { headers: auth, data: personaBody("Kira Moon") })).json()) as { id: string };
  const patch = (section: string, data: unknown, headers = auth) =>
    request.patch(`/api/personas/${persona.id}/profile/${section}`, { headers, data });

  const saved = await patch("personal", { languages: ["English", "Portuguese"], favoriteFood: "Pastéis de nata" });
  expect(saved.status()).toBe(200);
  expect(await saved.json()).toMatchObject({
    changed: true,
    extended: { languages: ["English", "Portuguese"], favoriteFood: "Pastéis de nata" },
  });
  expect(await (await patch("personal", { languages: ["English", "Portuguese"] })).json()).toMatchObject({ changed: false });

  const refused: [string, unknown, Record<string, string[]>][] = [
    ["personal", { languages: "English, Portuguese" }, { languages: ["Languages must be a list of text"] }],
    ["personal", { favoriteFood: ["Ramen"] }, { favoriteFood: ["Must be text"] }],
    ["personal", { hobbies: Array.from({ length: 1000 }, (_, i) => `Hobby ${i}`) }, { hobbies: ["Hobbies: at most 8 items"] }],
  ];
  for (const [section, body, errors] of refused) {
    const answer = await patch(section, body);
    expect(answer.status()).toBe(400);
    expect(await answer.json()).toMatchObject({ errors });
  }
  const malformed = await request.patch(`/api/personas/${persona.id}/profile/personal`, {
    headers: { ...auth, "Content-Type": "application/json" },
    data: "{ not json",
  });
  expect(malformed.status()).toBe(400);
  expect((await patch("hobbies", {})).status()).toBe(404);
  const stranger = await createAccount(request);
  expect((await patch("background", { birthplace: "Hijacked" }, { Authorization: `Bearer ${stranger.token}` })).status()).toBe(404);
  const read = (await (await request.get(`/api/personas/${persona.id}`, { headers: auth })).json()) as {
    extended: Record<string, unknown>;
  };
  expect(read.extended).toMatchObject({ languages: ["English", "Portuguese"], favoriteFood: "Pastéis de nata" });
  expect(JSON.stringify(read)).not.toContain("Hijacked");
  expect(JSON.stringify(read)).not.toContain("Hobby 999");
});
