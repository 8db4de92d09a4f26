// The Extended Persona Profile is the persona's fact sheet, and the creator's to edit
// (docs/product.md, Extended Persona Profile and Fact sheet): a section at a time, checked with
// each field's message, told by the next backstory; 'Regenerate' asks before replacing an edit —
// a dialog with JavaScript, a confirmation step without.
import { createAccount, expect, expectNoA11yViolations, personaBody, signIn, test, visit } from "./support";

const toast = (page: import("@playwright/test").Page) => page.getByTestId("toast").last();

test("edit a section, see it told by the next backstory, regenerate it only after confirming", async ({ page, request, jsEnabled }) => {
  const account = await createAccount(request);
  const auth = { Authorization: `Bearer ${account.token}` };
  const created = await request.post("/api/personas", {
    headers: auth,
    data: personaBody("Kira Moon", { backstory: "Kira grew up above a noodle shop.\n\nShe streams every night." }),
  });
  const persona = (await created.json()) as { id: string };
  await signIn(page, account);
  await visit(page, `/persona/${persona.id}`);

  const profile = page.getByRole("region", { name: "Extended Persona Profile" });
  await profile.getByRole("link", { name: "Edit Background" }).click();
  await expect(page).toHaveURL(new RegExp(`/persona/${persona.id}/profile\\?section=background$`));
  await expect(page.getByRole("heading", { level: 1, name: "Kira Moon: Background" })).toBeVisible();
  await expectNoA11yViolations(page);

  await page.getByLabel(/^Birthplace/).fill("Reykjavik, Iceland");
  await page.getByLabel(/^Education/).fill("");
  await page.getByLabel(/^Occupation/).fill("x".repeat(301));
  await page.getByRole("button", { name: "Save Section" }).click();
  await expect(page.getByText("Occupation must be 300 characters or less")).toBeVisible();
  await expect(page.getByLabel(/^Birthplace/)).toHaveValue("Reykjavik, Iceland");
  await page.getByLabel(/^Occupation/).fill("Night-shift VTuber");
  await page.getByRole("button", { name: "Save Section" }).click();

  await expect(page).toHaveURL(new RegExp(`/persona/${persona.id}(#extended-profile)?$`));
  await expect(toast(page)).toContainText("Profile Updated");
  const background = profile.getByRole("region", { name: "Background" });
  await expect(background).toContainText("Reykjavik, Iceland");
  await expect(background).toContainText("Night-shift VTuber");
  await expect(background).toContainText("Not stated");

  // The next backstory tells the edited facts.
  const generated = await request.post("/api/generate-backstory", {
    headers: auth,
    data: { ...personaBody("Kira Moon"), personaId: persona.id },
  });
  expect(generated.status()).toBe(200);
  expect(((await generated.json()) as { backstory: string }).backstory).toContain("Reykjavik, Iceland");

  // Regenerate asks first, since the section was edited; keeping the text changes nothing.
  await background.getByRole("button", { name: "Regenerate Background" }).click();
  if (jsEnabled) {
    const dialog = page.getByRole("dialog", { name: "Regenerate Background?" });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Keep My Text" }).click();
    await expect(dialog).toBeHidden();
    await expect(background).toContainText("Reykjavik, Iceland");
    await background.getByRole("button", { name: "Regenerate Background" }).click();
    await expectNoA11yViolations(page);
    await dialog.getByRole("button", { name: "Regenerate", exact: true }).click();
  } else {
    await expect(page).toHaveURL(new RegExp(`/persona/${persona.id}/profile\\?section=background&confirm=regenerate$`));
    await expect(page.getByRole("heading", { name: "Regenerate Background?" })).toBeVisible();
    await expectNoA11yViolations(page);
    await page.getByRole("button", { name: "Regenerate", exact: true }).click();
  }
  await expect(toast(page)).toContainText("Profile RegeneratedThe backstory still tells the earlier facts");
  await expect(background).not.toContainText("Reykjavik, Iceland");
  await expect(background).not.toContainText("Not stated");

  // A section not edited since regenerates at once.
  const personal = profile.getByRole("region", { name: "Personal" });
  const before = await personal.innerText();
  await personal.getByRole("button", { name: "Regenerate Personal" }).click();
  await expect(toast(page)).toContainText("Profile Regenerated");
  await expect.poll(() => personal.innerText()).not.toBe(before);
});

test("someone else's persona: the profile cannot be read or changed", async ({ page, request }) => {
  const owner = await createAccount(request);
  const created = await request.post("/api/personas", {
    headers: { Authorization: `Bearer ${owner.token}` },
    data: personaBody("Private Kira"),
  });
  const persona = (await created.json()) as { id: string };
  const stranger = await createAccount(request);
  await signIn(page, stranger);
  const response = await visit(page, `/persona/${persona.id}/profile?section=background`);
  expect(response?.status()).toBe(404);
  const origin = new URL(page.url()).origin;
  const forms: Record<string, string>[] = [
    { intent: "save", section: "background", birthplace: "Hijacked" },
    { intent: "regenerate", section: "all", confirm: "yes" },
  ];
  for (const form of forms) {
    const post = await page.request.post(`/persona/${persona.id}/profile`, { form, headers: { Origin: origin } });
    expect(post.status()).toBe(404);
  }
  const read = await request.get(`/api/personas/${persona.id}`, { headers: { Authorization: `Bearer ${owner.token}` } });
  expect(JSON.stringify(await read.json())).not.toContain("Hijacked");
});

test("every section saves: unchanged it makes no version; Personal and Additional Info fields are the creator's to edit", async ({
  page,
  request,
}) => {
  const account = await createAccount(request);
  const auth = { Authorization: `Bearer ${account.token}` };
  const created = await request.post("/api/personas", { headers: auth, data: personaBody("Kira Moon") });
  const persona = (await created.json()) as { id: string };
  const versions = async () =>
    Number((await request.get(`/api/personas/${persona.id}/versions`, { headers: auth })).headers()["x-total-count"]);
  const before = await versions();
  await signIn(page, account);
  await visit(page, `/persona/${persona.id}`);
  const profile = page.getByRole("region", { name: "Extended Persona Profile" });

  for (const title of ["Background", "Personal", "Social Circle", "Goals & Philosophy", "Additional Info"]) {
    await profile.getByRole("link", { name: `Edit ${title}` }).click();
    await expect(page.getByRole("heading", { level: 1, name: `Kira Moon: ${title}` })).toBeVisible();
    await page.getByRole("button", { name: "Save Section" }).click();
    await expect(page).toHaveURL(new RegExp(`/persona/${persona.id}(#extended-profile)?$`));
    await expect(toast(page)).toContainText("Nothing to Save");
  }
  expect(await versions()).toBe(before);

  await profile.getByRole("link", { name: "Edit Personal" }).click();
  await page.getByLabel(/^Languages/).fill("English\nPortuguese");
  await page.getByLabel(/^Favorite Food/).fill("Pastéis de nata");
  await page.getByLabel(/^Hobbies/).fill("Surfing\nFado singing");
  await page.getByLabel(/^Favorite Places/).fill("Alfama");
  await expectNoA11yViolations(page);
  await page.getByRole("button", { name: "Save Section" }).click();
  await expect(toast(page)).toContainText("Profile Updated");
  const personal = profile.getByRole("region", { name: "Personal" });
  for (const fact of ["Portuguese", "Pastéis de nata", "Fado singing", "Alfama"]) await expect(personal).toContainText(fact);

  await profile.getByRole("link", { name: "Edit Additional Info" }).click();
  await page.getByLabel(/^Daily Routine/).fill("She wakes at six. She cooks. She sleeps.");
  await page.getByLabel(/^Secret Skills/).fill("Knife juggling\nLatte art");
  await page.getByRole("button", { name: "Save Section" }).click();
  await expect(toast(page)).toContainText("Profile Updated");
  const additional = profile.getByRole("region", { name: "Additional Info" });
  await expect(additional).toContainText("She wakes at six. She cooks. She sleeps.");
  await expect(additional).toContainText("Latte art");
  expect(await versions()).toBe(before + 2);
});
