// The create-persona wizard, with JavaScript on (steps change without a reload) and off
// (every move is a form post that carries every field along).
import type { APIRequestContext, Page } from "@playwright/test";

import { createAccount, expect, expectNoA11yViolations, signIn, test, visit, type Account } from "./support";

const step = (page: Page, name: string) => page.getByRole("heading", { level: 2, name: new RegExp(`${name}$`) });
const toast = (page: Page) => page.getByTestId("toast").last();
const button = (page: Page, name: string | RegExp) => page.getByRole("button", { name, exact: typeof name === "string" });

async function expectStep(page: Page, name: string, number: number) {
  await expect(step(page, name)).toBeVisible();
  const progress = page.getByRole("navigation", { name: "Progress" });
  await expect(progress.locator("li[aria-current='step']")).toContainText(name);
  await expect(progress.locator("li[data-state='completed']")).toHaveCount(number - 1);
  await expect(progress.locator("li[data-state='pending']")).toHaveCount(4 - number);
}

/** A step opens at its top: the step indicator and the heading in view, below the sticky header. */
async function expectOpenedAtTop(page: Page, name: string) {
  const progress = page.getByRole("navigation", { name: "Progress" });
  await expect(progress).toBeInViewport({ ratio: 1 });
  await expect(step(page, name)).toBeInViewport({ ratio: 1 });
  const header = await page.getByRole("banner").boundingBox();
  const indicator = await progress.boundingBox();
  expect(indicator!.y).toBeGreaterThanOrEqual(header!.y + header!.height);
}

async function drafts(request: APIRequestContext, account: Account, n: number) {
  for (let i = 0; i < n; i++) {
    const res = await request.post("/api/personas/draft", {
      headers: { Authorization: `Bearer ${account.token}` },
      data: { name: `Draft ${i + 1}` },
    });
    expect(res.status()).toBe(201);
  }
}

test.describe("create-persona wizard", () => {
  test("the whole wizard: auto-fill, Back and Continue keep values, auto-select, a generated backstory, review, create", async ({
    page,
    request,
    jsEnabled,
  }) => {
    // Four steps, each audited for accessibility, with and without JavaScript.
    test.setTimeout(90_000);
    const account = await createAccount(request);
    await signIn(page, account);
    await visit(page, "/create-persona");
    await expect(page.getByRole("heading", { level: 1, name: "Create New Persona" })).toBeVisible();
    await expectStep(page, "Basic Info", 1);
    await expect(button(page, "Back")).toHaveCount(0);
    await expectNoA11yViolations(page);

    // Continue validates the whole form and stays when it is not valid.
    await button(page, /^Continue/).click();
    await expect(page.getByText("Name must be at least 2 characters")).toBeVisible();
    await expect(page.getByText("Invalid persona type")).toBeVisible();
    await expect(page.getByText("At least one interest is required")).toBeVisible();
    await expectStep(page, "Basic Info", 1);
    await expectNoA11yViolations(page);

    await page.getByLabel("Name", { exact: true }).fill("Nova Lumen");
    await page.getByLabel("Short description").fill("A cheerful late-night streamer.");
    await expect(page.getByTestId("description-counter")).toHaveText(jsEnabled ? "31/150" : "0/150");
    await button(page, /Auto-fill Empty Fields/).click();
    await expect(toast(page)).toContainText("Auto-Fill Complete");
    await expect(toast(page)).toContainText("Filled 4 fields with AI-suggested content!");
    // Only the empty fields were filled.
    await expect(page.getByLabel("Name", { exact: true })).toHaveValue("Nova Lumen");
    await expect(page.getByLabel("Short description")).toHaveValue("A cheerful late-night streamer.");
    await expect(page.getByTestId("description-counter")).toHaveText("31/150");
    const type = await page.getByLabel("Type").inputValue();
    expect(type).not.toBe("");
    expect(["18-24", "25-34", "35-44"]).toContain(await page.getByLabel("Age Range").inputValue());
    const interests = page.getByRole("group", { name: "Interests" }).getByRole("checkbox", { checked: true });
    expect(await interests.count()).toBeGreaterThanOrEqual(2);
    await page.getByRole("radio", { name: "Non-binary" }).check();

    const url = page.url();
    await button(page, /^Continue/).click();
    await expectStep(page, "Personality", 2);
    if (jsEnabled) expect(page.url()).toBe(url);
    await expectNoA11yViolations(page);

    // Back keeps everything typed.
    await button(page, /Back/).click();
    await expectStep(page, "Basic Info", 1);
    await expect(page.getByLabel("Name", { exact: true })).toHaveValue("Nova Lumen");
    await expect(page.getByRole("radio", { name: "Non-binary" })).toBeChecked();
    await expect(page.getByLabel("Type")).toHaveValue(type);
    await button(page, /^Continue/).click();

    await expectStep(page, "Personality", 2);
    await page.getByRole("checkbox", { name: "Curious" }).check();
    await button(page, /Auto-select Traits/).click();
    await expect(page.getByText("Selected 7/7 traits")).toBeVisible();
    await expect(page.getByRole("checkbox", { checked: true })).toHaveCount(7);
    for (const category of ["Extroversion", "Emotional", "Openness", "Agreeableness", "Conscientiousness", "Content Style"]) {
      expect(await page.getByRole("group", { name: category }).getByRole("checkbox", { checked: true }).count()).toBeGreaterThanOrEqual(1);
    }
    const traits = await page
      .getByRole("checkbox", { checked: true })
      .evaluateAll((boxes) => boxes.map((b) => (b as HTMLInputElement).value));
    await button(page, /^Continue/).click();

    await expectStep(page, "Backstory", 3);
    await button(page, /Generate Backstory/).click();
    await expect(toast(page)).toContainText("Backstory Generation Complete");
    // Without JavaScript the answer is a new page, still streaming in when the toast shows.
    const words = async () => (await page.getByLabel(/^Backstory/).inputValue()).split(/\s+/).filter(Boolean).length;
    await expect.poll(words).toBeGreaterThanOrEqual(800);
    await page.waitForLoadState("load");
    const backstory = await page.getByLabel(/^Backstory/).inputValue();
    expect(backstory).toContain("Nova");
    await expectNoA11yViolations(page);
    await button(page, /^Continue/).click();

    await expectStep(page, "Review", 4);
    const review = page.getByTestId("review");
    await expect(review).toContainText("Nova Lumen");
    await expect(review).toContainText("Non-binary");
    await expect(review).toContainText("A cheerful late-night streamer.");
    for (const trait of traits) await expect(review).toContainText(trait);
    await expect(button(page, "Continue")).toHaveCount(0);
    await expectNoA11yViolations(page);
    await button(page, /Create Persona/).click();

    await expect(page).toHaveURL(/\/persona\/[0-9a-f-]{36}$/);
    await expect(toast(page)).toContainText("Your AI character persona has been created successfully!");
    await expect(page.getByRole("heading", { level: 1, name: "Nova Lumen" })).toBeVisible();
    await expect(page.getByText("Active", { exact: true }).first()).toBeVisible();
    await expect(page.getByRole("region", { name: "Backstory" })).toContainText(backstory.slice(0, 60));
    await expect(page.getByRole("region", { name: "Personality Traits" })).toContainText(traits[0]!);
  });

  test("interests stop at 3 and the description at 150 characters", async ({ page, request, jsEnabled }) => {
    const account = await createAccount(request);
    await signIn(page, account);
    await visit(page, "/create-persona");
    const group = page.getByRole("group", { name: "Interests" });
    for (const name of ["Gaming", "Music", "Art"]) await group.getByRole("checkbox", { name }).check();
    await group.getByRole("checkbox", { name: "Travel" }).click();
    if (jsEnabled) {
      // A fourth is refused on the spot.
      await expect(toast(page)).toContainText("Maximum Interests");
      await expect(toast(page)).toContainText("You can select up to 3 interests only.");
      await expect(group.getByRole("checkbox", { name: "Travel" })).not.toBeChecked();
    } else {
      // Without JavaScript the server refuses it.
      await page.getByLabel("Name", { exact: true }).fill("Four Interests");
      await button(page, /^Continue/).click();
      await expect(page.getByText("Maximum 3 interests allowed")).toBeVisible();
      await expect(toast(page)).toContainText("Maximum Interests");
      await expect(group.getByRole("checkbox", { checked: true })).toHaveCount(4);
    }
    const description = page.getByLabel("Short description");
    await description.fill("x".repeat(160));
    await expect(description).toHaveValue("x".repeat(150));
    if (jsEnabled) await expect(page.getByTestId("description-counter")).toHaveText("150/150");
  });

  test("Missing Information: a backstory needs name, type, gender and a trait", async ({ page, request }) => {
    const account = await createAccount(request);
    await signIn(page, account);
    await visit(page, "/create-persona");
    await page.getByLabel("Name", { exact: true }).fill("Quiet One");
    await button(page, /Auto-fill Empty Fields/).click();
    await expect(toast(page)).toContainText("Auto-Fill Complete");
    await button(page, /^Continue/).click();
    await expectStep(page, "Personality", 2);
    await button(page, /^Continue/).click();
    await expectStep(page, "Backstory", 3);
    await page.getByLabel(/^Backstory/).fill("My own words.");
    await button(page, /Generate Backstory/).click();
    await expect(toast(page)).toContainText("Missing Information");
    await expect(toast(page)).toContainText("Please provide name, type, gender, and at least one personality trait.");
    await expect(page.getByLabel(/^Backstory/)).toHaveValue("My own words.");
  });

  test("Save Draft, then Continue Creating finishes the same persona", async ({ page, request }) => {
    const account = await createAccount(request);
    await signIn(page, account);
    await visit(page, "/create-persona");
    await page.getByLabel("Name", { exact: true }).fill("Sketchbook");
    await button(page, "Save Draft").click();
    await expect(page).toHaveURL(/\/persona\/[0-9a-f-]{36}$/);
    const draftUrl = page.url();
    await expect(toast(page)).toContainText("Draft Saved");
    await expect(page.getByText("In Progress", { exact: true }).first()).toBeVisible();

    await page.getByRole("link", { name: "Continue Creating" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Continue Creating" })).toBeVisible();
    await expect(page.getByLabel("Name", { exact: true })).toHaveValue("Sketchbook");
    await button(page, /Auto-fill Empty Fields/).click();
    await expect(toast(page)).toContainText("Filled 5 fields");
    await button(page, /^Continue/).click();
    await expectStep(page, "Personality", 2);
    await page.getByRole("checkbox", { name: "Curious" }).check();
    // A draft saved again stays the same record.
    await button(page, "Save Draft").click();
    await expect(page).toHaveURL(draftUrl);
    await expect(page.getByRole("region", { name: "Personality Traits" })).toContainText("Curious");

    await page.getByRole("link", { name: "Continue Creating" }).click();
    await expect(page.getByLabel("Name", { exact: true })).toHaveValue("Sketchbook");
    for (const name of ["Personality", "Backstory", "Review"]) {
      await button(page, /^Continue/).click();
      await expectStep(page, name, ["Basic Info", "Personality", "Backstory", "Review"].indexOf(name) + 1);
    }
    await button(page, /Create Persona/).click();
    await expect(page).toHaveURL(draftUrl);
    await expect(toast(page)).toContainText("Success");
    await expect(page.getByText("Active", { exact: true }).first()).toBeVisible();
    await expect(page.getByRole("link", { name: "Continue Creating" })).toHaveCount(0);

    // One persona, not two.
    const usage = await request.get("/api/user/usage", { headers: { Authorization: `Bearer ${account.token}` } });
    expect(await usage.json()).toEqual({ subscriptionStatus: "free", canCreateMore: true });
    const id = draftUrl.split("/").pop();
    const persona = await request.get(`/api/personas/${id}`, { headers: { Authorization: `Bearer ${account.token}` } });
    expect(await persona.json()).toMatchObject({ id, name: "Sketchbook", status: "active", personality: ["Curious"] });
  });

  test("the 11th persona meets the Free Plan limit at every entry point", async ({ page, request, jsEnabled }) => {
    const account = await createAccount(request);
    await drafts(request, account, 10);
    await signIn(page, account);
    await visit(page, "/dashboard");

    const limitText =
      "You've reached the maximum of 10 personas for the Free Plan. Upgrade to Premium for unlimited persona creation and additional features.";
    for (const entry of ["sidebar", "dashboard"] as const) {
      const trigger =
        entry === "sidebar"
          ? page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Create New Persona" })
          : page.getByRole("main").getByRole("button", { name: "Create New Persona" }).first();
      await trigger.click();
      if (jsEnabled) {
        const dialog = page.getByRole("dialog", { name: "Free Plan Limit Reached" });
        await expect(dialog).toBeVisible();
        await expect(dialog).toContainText(limitText);
        await expect(page).toHaveURL(/\/dashboard$/);
        await expectNoA11yViolations(page);
        await dialog.getByRole("button", { name: "Cancel" }).click();
        await expect(dialog).toBeHidden();
      } else {
        await expect(page).toHaveURL(/\/create-persona/);
        const notice = page.getByTestId("limit-page");
        await expect(notice.getByRole("heading", { name: "Free Plan Limit Reached" })).toBeVisible();
        await expect(notice).toContainText(limitText);
        await expect(notice.getByRole("link", { name: "Upgrade to Premium" })).toHaveAttribute("href", "/subscription");
        await expectNoA11yViolations(page);
        await notice.getByRole("link", { name: "Cancel" }).click();
        await expect(page).toHaveURL(/\/dashboard$/);
      }
    }
    if (jsEnabled) {
      await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Create New Persona" }).click();
      await page.getByRole("dialog").getByRole("link", { name: "Upgrade to Premium" }).click();
      await expect(page).toHaveURL(/\/subscription$/);
    }
  });

  test("a creation refused at the limit (reached in another tab) opens the limit dialog or page", async ({ page, request, jsEnabled }) => {
    const account = await createAccount(request);
    await drafts(request, account, 9);
    await signIn(page, account);
    await visit(page, "/create-persona");
    await page.getByLabel("Name", { exact: true }).fill("One Too Many");
    await drafts(request, account, 1);
    await button(page, "Save Draft").click();
    if (jsEnabled) {
      await expect(page.getByRole("dialog", { name: "Free Plan Limit Reached" })).toBeVisible();
      // What was typed is still there behind the dialog.
      await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
      await expect(page.getByLabel("Name", { exact: true })).toHaveValue("One Too Many");
    } else {
      await expect(page.getByTestId("limit-page").getByRole("heading", { name: "Free Plan Limit Reached" })).toBeVisible();
    }
    const usage = await request.get("/api/user/usage", { headers: { Authorization: `Bearer ${account.token}` } });
    expect(await usage.json()).toEqual({ subscriptionStatus: "free", canCreateMore: false });
  });
});

test("each wizard step opens at its top, step indicator and heading in view, at both sizes; at 7 traits a line says why the others are unavailable", async ({
  page,
  request,
  jsEnabled,
}) => {
  const account = await createAccount(request);
  const draft = await request.post("/api/personas/draft", {
    headers: { Authorization: `Bearer ${account.token}` },
    data: {
      name: "Kira Moon",
      type: "vtuber",
      gender: "female",
      ageRange: "18-24",
      interests: ["gaming"],
      description: "Streams at night.",
      personality: ["Outgoing", "Creative", "Calm", "Curious", "Direct", "Focused", "Humorous"],
    },
  });
  const { id } = (await draft.json()) as { id: string };
  await signIn(page, account);
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(viewport);
    await visit(page, `/create-persona?id=${id}`);
    await expectStep(page, "Basic Info", 1);
    // Continue is at the bottom of a long step: the next step's heading still opens in view.
    await button(page, /^Continue/).click();
    await expectStep(page, "Personality", 2);
    await expectOpenedAtTop(page, "Personality");
    if (jsEnabled) await expect(step(page, "Personality")).toBeFocused();
    await expect(page.getByText("That's the maximum: deselect a trait to choose another.")).toBeVisible();
    await button(page, /^Continue/).click();
    await expectStep(page, "Backstory", 3);
    await expectOpenedAtTop(page, "Backstory");
  }
});
