// Checks on real chats (docs/product.md, Chat: checks on your chats), with JavaScript and
// without: replies written in the creator's chat are checked after they are stored; the persona
// page counts them per version; the API answers the same; another creator gets 404.
import { createAccount, createPersona, expect, expectNoA11yViolations, signIn, test, visit, type Account } from "./support";

const auth = (account: Account) => ({ Authorization: `Bearer ${account.token}` });

test("the persona page counts the replies checked in chat, per version", async ({ page, request }) => {
  const account = await createAccount(request);
  const persona = await createPersona(request, account, "Kira Moon");
  await signIn(page, account);
  await visit(page, `/persona/${persona.id}`);
  const card = page.getByRole("region", { name: "Checks on your chats" });
  await expect(card).toContainText("No replies checked yet");

  for (const message of ["Where are you from?", "What do you do for fun?"]) {
    const sent = await request.post(`/api/personas/${persona.id}/chat`, { headers: auth(account), data: { message } });
    expect(sent.status()).toBe(201);
  }
  // The checks run after each reply is answered.
  await expect
    .poll(async () => (await (await request.get(`/api/personas/${persona.id}/chat-checks`, { headers: auth(account) })).json()).versions)
    .toEqual([{ version: 1, checked: 2, flagged: 0 }]);
  const answer = await (await request.get(`/api/personas/${persona.id}/chat-checks`, { headers: auth(account) })).json();
  expect(answer).toEqual({ currentVersion: 1, versions: [{ version: 1, checked: 2, flagged: 0 }], flagged: [] });

  await visit(page, `/persona/${persona.id}`);
  const table = card.getByTestId("chat-checks-versions");
  await expect(table.getByRole("row")).toHaveCount(2);
  await expect(table.getByRole("row").nth(1)).toHaveText(/v1\s*\(current\)\s*2\s*0/);
  await expect(card.getByTestId("chat-checks-flagged")).toHaveCount(0);
  await expectNoA11yViolations(page);
  await card.getByRole("link", { name: "Open the Chat" }).click();
  await expect(page).toHaveURL(new RegExp(`/persona/${persona.id}\\?tab=chat`));

  // Another creator: not there; a write method: 405.
  const stranger = await createAccount(request);
  expect((await request.get(`/api/personas/${persona.id}/chat-checks`, { headers: auth(stranger) })).status()).toBe(404);
  expect((await request.post(`/api/personas/${persona.id}/chat-checks`, { headers: auth(account) })).status()).toBe(405);
});
