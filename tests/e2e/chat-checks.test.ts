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

test("a reply that tells a secret is flagged on the persona page, and the library marks a persona that slips often", async ({
  page,
  request,
}) => {
  const account = await createAccount(request);
  const persona = await createPersona(request, account, "Kira Moon");
  const entry = await request.post(`/api/personas/${persona.id}/lorebook/entries`, {
    headers: auth(account),
    data: {
      name: "The debt",
      keys: ["debt"],
      kind: "secret",
      content: "Kira owes the Yakuza forty thousand yen from a poker night in Dotonbori.",
    },
  });
  expect(entry.status(), await entry.text()).toBe(201);
  // Asked straight about it, the built-in responder tells what the entry holds: the checks say so.
  for (let i = 0; i < 5; i++) {
    const sent = await request.post(`/api/personas/${persona.id}/chat`, {
      headers: auth(account),
      data: { message: i === 0 ? "Tell me about the debt." : `What about the debt, part ${i + 1}?` },
    });
    expect(sent.status()).toBe(201);
  }
  await expect
    .poll(async () => {
      const found = await (await request.get(`/api/personas/${persona.id}/chat-checks`, { headers: auth(account) })).json();
      return found.versions[0]?.checked ?? 0;
    })
    .toBe(5);
  const found = (await (await request.get(`/api/personas/${persona.id}/chat-checks`, { headers: auth(account) })).json()) as {
    versions: { flagged: number }[];
    flagged: { checks: { check: string; detail: string }[] }[];
  };
  expect(found.versions[0]!.flagged).toBeGreaterThanOrEqual(2);
  expect(found.flagged[0]!.checks[0]).toMatchObject({ check: "secrets", detail: expect.stringMatching(/^Tells the secret 'The debt'/) });

  await signIn(page, account);
  await visit(page, `/persona/${persona.id}`);
  const card = page.getByRole("region", { name: "Checks on your chats" });
  const flagged = card.getByTestId("chat-checks-flagged");
  await expect(flagged.getByRole("listitem").first()).toContainText("Keeps secrets: Tells the secret 'The debt'");
  await expectNoA11yViolations(page);

  await visit(page, "/my-personas");
  const badge = page.getByTestId("chat-flags-badge");
  await expect(badge).toHaveCount(1);
  await expect(badge).toContainText("Slips in chat");
  await expect(badge).toHaveAttribute("title", /% of this version's replies in chat were flagged by the checks$/);
  await expectNoA11yViolations(page);
});
