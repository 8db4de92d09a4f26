// A page on another site posts a form to ours with the creator's browser: refused before
// anything happens, and the creator is still signed in with their personas untouched.
import { createAccount, expect, expectNoA11yViolations, personaBody, signIn, test, visit } from "./support";

test("a form on another site cannot sign a creator out or archive their persona", async ({ page, request, baseURL }) => {
  const account = await createAccount(request);
  const persona = await (
    await request.post("/api/personas", {
      headers: { Authorization: `Bearer ${account.token}` },
      data: personaBody("Sentinel"),
    })
  ).json();
  await signIn(page, account);

  // The other site, served to the browser as it would be from its own host.
  await page.route("http://evil.example/**", (route) =>
    route.fulfill({
      contentType: "text/html",
      body: `<!doctype html><html lang="en"><title>Prize</title><main>
        <form method="post" action="${baseURL}/logout"><button>Claim your prize</button></form>
        <form method="post" action="${baseURL}/persona/${persona.id}/status"><input type="hidden" name="intent" value="archive"><button>Spin the wheel</button></form>
      </main></html>`,
    }),
  );

  for (const button of ["Claim your prize", "Spin the wheel"]) {
    await page.goto("http://evil.example/prize");
    await page.getByRole("button", { name: button }).click();
    await expect(page.getByRole("heading", { name: "Request refused" })).toBeVisible();
    await expect(page.getByText("This request came from another site and was refused.")).toBeVisible();
    await expectNoA11yViolations(page);
  }

  await visit(page, `/persona/${persona.id}`);
  await expect(page.getByRole("heading", { name: "Sentinel", level: 1 })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/persona/${persona.id}$`));
  await expect(page.getByText("Archived", { exact: true })).toHaveCount(0);
});
