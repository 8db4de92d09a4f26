import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";

import { AGE_RANGES, GENDERS, INTERESTS, PERSONA_TYPES, TRAITS } from "./persona";
import {
  canGenerateBackstory,
  characterCount,
  continueLabel,
  descriptionCounter,
  draftSchema,
  EMPTY_PERSONA_FORM,
  firstStepWithError,
  localWizardMove,
  parseWizardIntent,
  stepFields,
  toFormValues,
  MAX_INTERESTS_TOAST,
  MISSING_INFORMATION,
  nextStep,
  parseStep,
  PERSONA_MESSAGES,
  personaFormValues,
  personaSchema,
  previousStep,
  reviewFallbacks,
  reviewSummary,
  stepState,
  STEPS,
  validatePersona,
  WIZARD_TEXT,
  WIZARD_TOASTS,
} from "./persona-form";

const valid = {
  name: "Nova Pixel",
  type: "vtuber",
  gender: "female",
  ageRange: "18-24",
  interests: ["gaming", "music"],
  description: "A cheerful virtual streamer.",
  personality: ["Outgoing", "Creative"],
  backstory: "Born in a pixel forest.",
};

/** The field errors of a complete persona with `patch` applied. */
function errorsOf(patch: Record<string, unknown>, mode: "create" | "draft" = "create") {
  const result = validatePersona({ ...valid, ...patch }, mode as "create");
  return result.success ? {} : result.errors;
}

function formData(entries: [string, string][]): FormData {
  const data = new FormData();
  for (const [key, value] of entries) data.append(key, value);
  return data;
}

describe("the spec's messages, verbatim", () => {
  it("are the documented texts", () => {
    expect(PERSONA_MESSAGES.nameMin).toBe("Name must be at least 2 characters");
    expect(PERSONA_MESSAGES.type).toBe("Invalid persona type");
    expect(PERSONA_MESSAGES.gender).toBe("Invalid gender");
    expect(PERSONA_MESSAGES.ageRange).toBe("Invalid age range");
    expect(PERSONA_MESSAGES.interestsMin).toBe("At least one interest is required");
    expect(PERSONA_MESSAGES.interestsMax).toBe("Maximum 3 interests allowed");
    expect(PERSONA_MESSAGES.descriptionMax).toBe("Description must be 150 characters or less");
    expect(MAX_INTERESTS_TOAST).toEqual({
      title: "Maximum Interests",
      description: "You can select up to 3 interests only.",
    });
    expect(MISSING_INFORMATION).toEqual({
      title: "Missing Information",
      description: "Please provide name, type, gender, and at least one personality trait.",
    });
  });
});

describe("personaSchema (Create Persona)", () => {
  it("accepts a complete persona and trims its texts", () => {
    const result = validatePersona({ ...valid, name: "  Nova Pixel ", description: " hi ", backstory: "\n story \n" }, "create");
    expect(result).toEqual({
      success: true,
      data: { ...valid, name: "Nova Pixel", description: "hi", backstory: "story" },
    });
  });

  it("accepts every type, gender, age range, interest and trait of the enumerations", () => {
    for (const type of PERSONA_TYPES) expect(errorsOf({ type })).toEqual({});
    for (const gender of GENDERS) expect(errorsOf({ gender })).toEqual({});
    for (const ageRange of AGE_RANGES) expect(errorsOf({ ageRange })).toEqual({});
    for (const interest of INTERESTS) expect(errorsOf({ interests: [interest] })).toEqual({});
    for (const trait of TRAITS) expect(errorsOf({ personality: [trait] })).toEqual({});
  });

  it("gives every required field its message when nothing is sent", () => {
    expect(validatePersona({}, "create")).toEqual({
      success: false,
      errors: {
        name: ["Name must be at least 2 characters"],
        type: ["Invalid persona type"],
        gender: ["Invalid gender"],
        ageRange: ["Invalid age range"],
        interests: ["At least one interest is required"],
      },
    });
  });

  describe("name", () => {
    it.each(["", " ", "A", "  A  ", "👋", "\t\n", "é", "Я", "٣"])("rejects %j with 'Name must be at least 2 characters'", (name) => {
      expect(errorsOf({ name })).toEqual({ name: ["Name must be at least 2 characters"] });
    });

    it.each(["爱", "光", " 光 ", "ひ", "カ", "한", "𠀋"])("accepts %j: one character is a name in Chinese, Japanese and Korean", (name) => {
      expect(errorsOf({ name })).toEqual({});
    });

    it("accepts exactly 2 and 80 characters, counting code points", () => {
      expect(errorsOf({ name: "Al" })).toEqual({});
      expect(errorsOf({ name: "👋👋" })).toEqual({});
      expect(errorsOf({ name: "x".repeat(80) })).toEqual({});
      expect(errorsOf({ name: "é".repeat(80) })).toEqual({});
    });

    it("rejects 81 characters with its own message", () => {
      expect(errorsOf({ name: "x".repeat(81) })).toEqual({ name: ["Name must be 80 characters or less"] });
    });

    it("keeps quotes and ampersands as typed", () => {
      const name = `Nova & "friends"`;
      const result = validatePersona({ ...valid, name }, "create");
      expect(result.success && result.data.name).toBe(name);
    });

    it("refuses line breaks and direction overrides inside a name but keeps emoji sequences", () => {
      expect(errorsOf({ name: "Nova\nPixel" })).toEqual({ name: ["Name cannot contain control characters"] });
      expect(errorsOf({ name: "Nova\u202EPixel" })).toEqual({ name: ["Name cannot contain control characters"] });
      expect(errorsOf({ name: "Ada 👩‍💻" })).toEqual({});
    });

    it("refuses control characters in a description or backstory (PostgreSQL refuses NUL)", () => {
      expect(errorsOf({ description: "a\u0000b" })).toEqual({ description: ["Description cannot contain control characters"] });
      expect(errorsOf({ backstory: "x\u0007" })).toEqual({ backstory: ["Backstory cannot contain control characters"] });
      expect(errorsOf({ backstory: "line one\n\tline two" })).toEqual({});
    });

    it("counts a line break once, however the form sent it", () => {
      const description = `${"x".repeat(74)}\r\n${"y".repeat(75)}`;
      const result = validatePersona({ ...valid, description }, "create");
      expect(result.success && result.data.description).toBe(`${"x".repeat(74)}\n${"y".repeat(75)}`);
    });

    it("refuses markup in a name", () => {
      expect(errorsOf({ name: "<b>Nova</b>" })).toEqual({ name: ["Name cannot contain < or >"] });
      expect(errorsOf({ name: "Nova <script>alert(1)</script>" })).toEqual({ name: ["Name cannot contain < or >"] });
      expect(errorsOf({ name: "Nova & Co." })).toEqual({});
    });

    it.each([42, null, { first: "Nova" }, ["Nova"], true])("gives the name message for %j", (name) => {
      expect(errorsOf({ name })).toEqual({ name: ["Name must be at least 2 characters"] });
    });
  });

  describe.each([
    ["type", "Invalid persona type"],
    ["gender", "Invalid gender"],
    ["ageRange", "Invalid age range"],
  ])("%s", (field, message) => {
    it.each([undefined, "", "bogus", "Influencer", " male", 3, null, {}, ["vtuber"]])(`rejects %j with '${message}'`, (value) => {
      expect(errorsOf({ [field]: value })).toEqual({ [field]: [message] });
    });
  });

  it("rejects the gender and age range values the spec does not list", () => {
    expect(errorsOf({ gender: "Male" })).toEqual({ gender: ["Invalid gender"] });
    expect(errorsOf({ ageRange: "65+" })).toEqual({ ageRange: ["Invalid age range"] });
    expect(errorsOf({ ageRange: "55-64" })).toEqual({ ageRange: ["Invalid age range"] });
  });

  describe("interests", () => {
    it("needs at least one: 'At least one interest is required'", () => {
      for (const interests of [[], undefined, null, "", [""]]) {
        expect(errorsOf({ interests })).toEqual({ interests: ["At least one interest is required"] });
      }
    });

    it("allows 1 to 3", () => {
      expect(errorsOf({ interests: ["art"] })).toEqual({});
      expect(errorsOf({ interests: ["art", "tech", "music"] })).toEqual({});
    });

    it("refuses 4: 'Maximum 3 interests allowed'", () => {
      expect(errorsOf({ interests: ["art", "tech", "music", "travel"] })).toEqual({
        interests: ["Maximum 3 interests allowed"],
      });
      expect(errorsOf({ interests: [...INTERESTS] })).toEqual({ interests: ["Maximum 3 interests allowed"] });
    });

    it("refuses one that is not among the 12", () => {
      expect(errorsOf({ interests: ["art", "knitting"] })).toEqual({ interests: ["Invalid interest"] });
      expect(errorsOf({ interests: ["Art"] })).toEqual({ interests: ["Invalid interest"] });
    });

    it("refuses the same interest twice", () => {
      expect(errorsOf({ interests: ["art", "art"] })).toEqual({
        interests: ["Each interest can only be selected once"],
      });
    });

    it("takes a single string as a list of one (one checked box)", () => {
      const result = validatePersona({ ...valid, interests: "art" }, "create");
      expect(result.success && result.data.interests).toEqual(["art"]);
    });

    it.each([42, { 0: "art" }, true, [1, 2], [null]])("gives a field message, not a crash, for %j", (interests) => {
      expect(errorsOf({ interests })).toEqual({ interests: ["Invalid interest"] });
    });
  });

  describe("description", () => {
    it("allows 150 characters and refuses 151: 'Description must be 150 characters or less'", () => {
      expect(errorsOf({ description: "d".repeat(150) })).toEqual({});
      expect(errorsOf({ description: "d".repeat(151) })).toEqual({
        description: ["Description must be 150 characters or less"],
      });
    });

    it("counts characters, not UTF-16 units, and ignores surrounding spaces", () => {
      expect(errorsOf({ description: "🎮".repeat(150) })).toEqual({});
      expect(errorsOf({ description: ` ${"d".repeat(150)}  ` })).toEqual({});
    });

    it("treats a missing, null or empty description as no description, stored as ''", () => {
      for (const description of [undefined, null, "", "   "]) {
        const result = validatePersona({ ...valid, description }, "create");
        expect(result.success && result.data.description).toBe("");
      }
    });

    it.each([42, {}, ["text"]])("gives the description message for %j", (description) => {
      expect(errorsOf({ description })).toEqual({ description: ["Description must be 150 characters or less"] });
    });
  });

  describe("personality", () => {
    it("is optional", () => {
      for (const personality of [undefined, null, [], ""]) {
        const result = validatePersona({ ...valid, personality }, "create");
        expect(result.success && result.data.personality).toEqual([]);
      }
    });

    it("allows 7 traits and refuses 8", () => {
      expect(errorsOf({ personality: TRAITS.slice(0, 7) })).toEqual({});
      expect(errorsOf({ personality: TRAITS.slice(0, 8) })).toEqual({
        personality: ["Maximum 7 personality traits allowed"],
      });
    });

    it("refuses a trait from no category, and a wrong case", () => {
      expect(errorsOf({ personality: ["Creative", "Grumpy"] })).toEqual({ personality: ["Invalid personality trait"] });
      expect(errorsOf({ personality: ["creative"] })).toEqual({ personality: ["Invalid personality trait"] });
    });

    it("refuses duplicates", () => {
      expect(errorsOf({ personality: ["Calm", "Calm"] })).toEqual({
        personality: ["Each personality trait can only be selected once"],
      });
    });

    it("reports both an unknown trait and too many", () => {
      expect(errorsOf({ personality: [...TRAITS.slice(0, 7), "Grumpy"] })).toEqual({
        personality: ["Invalid personality trait", "Maximum 7 personality traits allowed"],
      });
    });

    it.each([7, { a: "Calm" }, [7]])("gives a field message, not a crash, for %j", (personality) => {
      expect(errorsOf({ personality })).toEqual({ personality: ["Invalid personality trait"] });
    });
  });

  describe("backstory", () => {
    it("is optional and stored as '' when missing", () => {
      for (const backstory of [undefined, null, ""]) {
        const result = validatePersona({ ...valid, backstory }, "create");
        expect(result.success && result.data.backstory).toBe("");
      }
    });

    it("allows 20000 characters and refuses 20001", () => {
      expect(errorsOf({ backstory: "b".repeat(20_000) })).toEqual({});
      expect(errorsOf({ backstory: "b".repeat(20_001) })).toEqual({
        backstory: ["Backstory must be 20,000 characters or less"],
      });
      expect(errorsOf({ backstory: 12 })).toEqual({ backstory: ["Backstory must be 20,000 characters or less"] });
    });
  });

  it("ignores fields it does not know (no userId or status from the client)", () => {
    const result = personaSchema.safeParse({ ...valid, userId: "someone-else", status: "active" });
    expect(result.success && Object.keys(result.data).sort()).toEqual(Object.keys(valid).sort());
  });

  it("reports every field at once", () => {
    expect(
      errorsOf({
        name: "N",
        type: "robot",
        gender: "x",
        ageRange: "1",
        interests: ["a", "b", "c", "d"],
        description: "d".repeat(151),
        personality: TRAITS.slice(0, 8),
        backstory: "b".repeat(20_001),
      }),
    ).toEqual({
      name: ["Name must be at least 2 characters"],
      type: ["Invalid persona type"],
      gender: ["Invalid gender"],
      ageRange: ["Invalid age range"],
      interests: ["Invalid interest", "Maximum 3 interests allowed"],
      description: ["Description must be 150 characters or less"],
      personality: ["Maximum 7 personality traits allowed"],
      backstory: ["Backstory must be 20,000 characters or less"],
    });
  });

  it.each([null, undefined, "text", 42, []])("validates a body that is no object (%j) as an empty form", (body) => {
    expect(validatePersona(body, "create")).toEqual(validatePersona({}, "create"));
    expect(validatePersona(body, "draft")).toEqual({
      success: false,
      errors: { name: ["Name must be at least 2 characters"] },
    });
  });
});

describe("draftSchema (Save Draft)", () => {
  it("needs only a valid name", () => {
    expect(validatePersona({ name: "Nova" }, "draft")).toEqual({
      success: true,
      data: {
        name: "Nova",
        type: undefined,
        gender: undefined,
        ageRange: undefined,
        interests: [],
        description: "",
        personality: [],
        backstory: "",
      },
    });
    expect(validatePersona({ name: "N" }, "draft")).toEqual({
      success: false,
      errors: { name: ["Name must be at least 2 characters"] },
    });
    expect(validatePersona({}, "draft")).toEqual({
      success: false,
      errors: { name: ["Name must be at least 2 characters"] },
    });
  });

  it("treats empty choices as not chosen yet", () => {
    const result = draftSchema.safeParse({ name: "Nova", type: "", gender: null, ageRange: "", interests: "" });
    expect(result.success).toBe(true);
  });

  it("still checks every field that is given", () => {
    expect(
      errorsOf(
        {
          type: "robot",
          gender: "x",
          ageRange: 30,
          interests: ["art", "tech", "music", "travel"],
          description: "d".repeat(151),
          personality: ["Grumpy"],
          backstory: "b".repeat(20_001),
        },
        "draft",
      ),
    ).toEqual({
      type: ["Invalid persona type"],
      gender: ["Invalid gender"],
      ageRange: ["Invalid age range"],
      interests: ["Maximum 3 interests allowed"],
      description: ["Description must be 150 characters or less"],
      personality: ["Invalid personality trait"],
      backstory: ["Backstory must be 20,000 characters or less"],
    });
  });

  it("accepts a complete persona too", () => {
    expect(validatePersona(valid, "draft").success).toBe(true);
  });
});

describe("form data", () => {
  const entries: [string, string][] = [
    ["name", "Nova Pixel"],
    ["type", "vtuber"],
    ["gender", "female"],
    ["ageRange", "18-24"],
    ["interests", "gaming"],
    ["interests", "music"],
    ["description", "A cheerful virtual streamer."],
    ["personality", "Outgoing"],
    ["personality", "Creative"],
    ["backstory", "Born in a pixel forest."],
  ];

  it("personaFormValues reads repeated keys as lists", () => {
    expect(personaFormValues(formData(entries))).toEqual(valid);
    expect(personaFormValues(new FormData())).toEqual({
      name: undefined,
      type: undefined,
      gender: undefined,
      ageRange: undefined,
      interests: [],
      description: undefined,
      personality: [],
      backstory: undefined,
    });
  });

  it("validates through personaFormValues", () => {
    expect(validatePersona(personaFormValues(formData(entries)), "create")).toEqual({ success: true, data: valid });
    const tooMany = formData([...entries, ["interests", "art"], ["interests", "tech"]]);
    expect(validatePersona(personaFormValues(tooMany), "create")).toEqual({
      success: false,
      errors: { interests: ["Maximum 3 interests allowed"] },
    });
  });

  it("a file upload in place of a field gets the field's message", () => {
    const data = formData(entries.filter(([key]) => key !== "name"));
    data.append("name", new Blob(["x"]), "name.txt");
    expect(validatePersona(personaFormValues(data), "create")).toEqual({
      success: false,
      errors: { name: ["Name must be at least 2 characters"] },
    });
  });

  it("a draft from an untouched wizard form (empty select, no checkboxes) saves with just a name", () => {
    const data = formData([
      ["name", "Nova"],
      ["type", ""],
      ["gender", ""],
      ["ageRange", ""],
      ["description", ""],
      ["backstory", ""],
    ]);
    expect(validatePersona(personaFormValues(data), "draft").success).toBe(true);
  });

  it("works with conform's parseWithZod, one checkbox or many, with the spec's messages", () => {
    const one = parseWithZod(formData(entries.filter(([, v]) => v !== "music")), { schema: personaSchema });
    expect(one.status).toBe("success");
    expect(one.status === "success" && one.value.interests).toEqual(["gaming"]);

    const empty = parseWithZod(
      formData([
        ["name", ""],
        ["description", ""],
        ["type", ""],
      ]),
      { schema: personaSchema },
    );
    expect(empty.status).toBe("error");
    expect(empty.reply().error).toEqual({
      name: ["Name must be at least 2 characters"],
      type: ["Invalid persona type"],
      gender: ["Invalid gender"],
      ageRange: ["Invalid age range"],
      interests: ["At least one interest is required"],
    });

    const draft = parseWithZod(
      formData([
        ["name", "Nova"],
        ["type", ""],
        ["description", ""],
      ]),
      { schema: draftSchema },
    );
    expect(draft.status).toBe("success");
    expect(draft.status === "success" && draft.value.description).toBe("");

    const long = parseWithZod(formData([...entries.filter(([k]) => k !== "description"), ["description", "d".repeat(151)]]), {
      schema: personaSchema,
    });
    expect(long.reply().error).toEqual({ description: ["Description must be 150 characters or less"] });
  });
});

describe("counters", () => {
  it("count characters as the database does", () => {
    expect(characterCount("héllo")).toBe(5);
    expect(characterCount("👋👋")).toBe(2);
    expect(descriptionCounter("")).toBe("0/150");
    expect(descriptionCounter("🎮 game")).toBe("6/150");
  });
});

describe("wizard steps", () => {
  it("are Basic Info, Personality, Backstory, Review", () => {
    expect(STEPS).toEqual([
      { number: 1, name: "Basic Info" },
      { number: 2, name: "Personality" },
      { number: 3, name: "Backstory" },
      { number: 4, name: "Review" },
    ]);
  });

  it("are completed when passed, active when current, pending otherwise", () => {
    expect(STEPS.map((s) => stepState(s.number, 1))).toEqual(["active", "pending", "pending", "pending"]);
    expect(STEPS.map((s) => stepState(s.number, 3))).toEqual(["completed", "completed", "active", "pending"]);
    expect(STEPS.map((s) => stepState(s.number, 4))).toEqual(["completed", "completed", "completed", "active"]);
  });

  it("parse a step from a form field and move within 1 to 4", () => {
    expect([parseStep("3"), parseStep(2), parseStep("9"), parseStep("x"), parseStep(undefined), parseStep("1.5")]).toEqual([
      3, 2, 1, 1, 1, 1,
    ]);
    expect([previousStep(1), previousStep(2), previousStep(4)]).toEqual([1, 1, 3]);
    expect([nextStep(1), nextStep(3), nextStep(4)]).toEqual([2, 4, 4]);
  });

  it("turn Continue into 'Create Persona' ('Creating...') on step 4 only", () => {
    expect(continueLabel(1)).toBe("Continue");
    expect(continueLabel(3, true)).toBe("Continue");
    expect(continueLabel(4)).toBe("Create Persona");
    expect(continueLabel(4, true)).toBe("Creating...");
    expect(WIZARD_TEXT.autoFill).toBe("Auto-fill Empty Fields");
    expect(WIZARD_TEXT.generating).toBe("Generating...");
    expect(WIZARD_TEXT.saveDraft).toBe("Save Draft");
  });
});

describe("wizard toasts", () => {
  it("carry the spec's texts", () => {
    expect(WIZARD_TOASTS.draftSaved).toEqual({
      title: "Draft Saved",
      description: "Your persona draft has been saved successfully.",
    });
    expect(WIZARD_TOASTS.draftFailed.description).toBe("Failed to save draft. Please try again.");
    expect(WIZARD_TOASTS.created).toEqual({
      title: "Success",
      description: "Your AI character persona has been created successfully!",
    });
    expect(WIZARD_TOASTS.createFailed.description).toBe("Failed to create persona. Please try again.");
    expect(WIZARD_TOASTS.backstoryGenerated).toEqual({
      title: "Backstory Generation Complete",
      description: "AI has created a backstory based on your character's traits.",
    });
    expect(WIZARD_TOASTS.backstoryFailed).toEqual({
      title: "Generation Failed",
      description: "Failed to generate backstory. Please try again or write your own.",
    });
    expect(WIZARD_TOASTS.autoFillFailed).toEqual({
      title: "Auto-Fill Error",
      description: "There was a problem generating content. Please try again.",
    });
  });
});

describe("canGenerateBackstory", () => {
  const ready = { name: "Nova", type: "vtuber", gender: "female", personality: ["Calm"] };

  it("needs name, type, gender and at least one trait", () => {
    expect(canGenerateBackstory(ready)).toBe(true);
    expect(canGenerateBackstory({ ...ready, name: "  " })).toBe(false);
    expect(canGenerateBackstory({ ...ready, type: "" })).toBe(false);
    expect(canGenerateBackstory({ ...ready, gender: undefined })).toBe(false);
    expect(canGenerateBackstory({ ...ready, personality: [] })).toBe(false);
    expect(canGenerateBackstory({ ...ready, personality: ["Grumpy"] })).toBe(false);
    expect(canGenerateBackstory({ ...ready, personality: "Calm" })).toBe(false);
    expect(canGenerateBackstory(EMPTY_PERSONA_FORM)).toBe(false);
  });

  it("does not need age range, interests or a description", () => {
    expect(canGenerateBackstory({ ...EMPTY_PERSONA_FORM, ...ready })).toBe(true);
  });
});

describe("reviewSummary", () => {
  it("shows every fallback for an empty form", () => {
    const summary = reviewSummary(EMPTY_PERSONA_FORM);
    expect(Object.fromEntries(Object.entries(summary).map(([k, v]) => [k, v.text]))).toEqual({
      name: "Not specified",
      type: "Not specified",
      gender: "Not specified",
      ageRange: "Not specified",
      description: "No description provided",
      interests: "No interests selected",
      personality: "No personality traits selected",
      backstory: "No backstory provided",
    });
    expect(Object.values(summary).every((entry) => entry.empty)).toBe(true);
    expect(reviewFallbacks).toEqual({
      notSpecified: "Not specified",
      description: "No description provided",
      interests: "No interests selected",
      personality: "No personality traits selected",
      backstory: "No backstory provided",
    });
  });

  it("treats missing and blank values alike", () => {
    const summary = reviewSummary({ name: "   ", interests: undefined, backstory: "\n" });
    expect([summary.name.text, summary.interests.text, summary.backstory.text]).toEqual([
      "Not specified",
      "No interests selected",
      "No backstory provided",
    ]);
  });

  it("shows labels for a filled form", () => {
    const summary = reviewSummary({ ...valid, gender: "non-binary" });
    expect(summary.name).toEqual({ label: "Name", text: "Nova Pixel", items: [], empty: false });
    expect(summary.type.text).toBe("AIVTuber");
    expect(summary.gender.text).toBe("Non-binary");
    expect(summary.ageRange.text).toBe("18-24");
    expect(summary.interests).toEqual({
      label: "Interests",
      text: "Gaming, Music",
      items: ["Gaming", "Music"],
      empty: false,
    });
    expect(summary.personality.items).toEqual(["Outgoing", "Creative"]);
    expect(summary.description.text).toBe("A cheerful virtual streamer.");
    expect(summary.backstory.text).toBe("Born in a pixel forest.");
  });

  it("shows an unknown value as typed rather than inventing a label", () => {
    expect(reviewSummary({ type: "constructor", gender: "toString" })).toMatchObject({
      type: { text: "constructor" },
      gender: { text: "toString" },
    });
  });
});

describe("wizard moves (the same in the browser and the action)", () => {
  const form = { ...EMPTY_PERSONA_FORM, ...valid };
  const sequence = (values: number[]) => {
    let i = 0;
    return () => values[i++ % values.length]!;
  };

  it("every field is edited on exactly one step", () => {
    expect(stepFields(1)).toEqual(["name", "type", "gender", "ageRange", "interests", "description"]);
    expect(stepFields(2)).toEqual(["personality"]);
    expect(stepFields(3)).toEqual(["backstory"]);
    expect(stepFields(4)).toEqual([]);
  });

  it("Continue advances only when the whole form is valid, up to Review", () => {
    expect(localWizardMove("continue", { step: 1, values: form })).toEqual({ step: 2, values: form, errors: null, toast: null });
    expect(localWizardMove("continue", { step: 4, values: form }).step).toBe(4);
    const invalid = localWizardMove("continue", { step: 1, values: { ...form, name: "N" } });
    expect(invalid.step).toBe(1);
    expect(invalid.errors).toEqual({ name: ["Name must be at least 2 characters"] });
  });

  it("Continue goes back to the earliest step with an error", () => {
    const state = localWizardMove("continue", { step: 3, values: { ...form, type: "" } });
    expect(state.step).toBe(1);
    const traits = localWizardMove("continue", { step: 3, values: { ...form, personality: ["Outgoing", "Nope"] } });
    expect(traits.step).toBe(2);
    expect(firstStepWithError({ backstory: ["x"], personality: ["y"] })).toBe(2);
    expect(firstStepWithError(null)).toBe(1);
  });

  it("four interests on Continue get the field's message and the 'Maximum Interests' toast", () => {
    const state = localWizardMove("continue", { step: 1, values: { ...form, interests: ["gaming", "music", "art", "travel"] } });
    expect(state.errors?.interests).toEqual(["Maximum 3 interests allowed"]);
    expect(state.toast).toEqual({ type: "error", ...MAX_INTERESTS_TOAST });
  });

  it("Back goes down to step 1 without validating and keeps every value", () => {
    const values = { ...EMPTY_PERSONA_FORM, name: "x" };
    expect(localWizardMove("back", { step: 3, values })).toEqual({ step: 2, values, errors: null, toast: null });
    expect(localWizardMove("back", { step: 1, values }).step).toBe(1);
  });

  it("Auto-fill fills only the empty fields and says how many", () => {
    const state = localWizardMove(
      "auto-fill",
      { step: 1, values: { ...EMPTY_PERSONA_FORM, name: "Kept Name" } },
      sequence([0.1, 0.5, 0.9]),
    );
    expect(state.values.name).toBe("Kept Name");
    expect(state.values.type).not.toBe("");
    expect(state.toast).toEqual({
      type: "success",
      title: "Auto-Fill Complete",
      description: "Filled 5 fields with AI-suggested content!",
    });
    expect(state.step).toBe(1);
  });

  it("Auto-select picks 7 traits covering all six categories", () => {
    const state = localWizardMove("auto-select-traits", { step: 2, values: form }, sequence([0.3, 0.7, 0.99, 0.01]));
    expect(state.values.personality).toHaveLength(7);
    expect(state.values.name).toBe(form.name);
  });

  it("toFormValues gives every field as the wizard holds it", () => {
    expect(toFormValues({})).toEqual(EMPTY_PERSONA_FORM);
    expect(toFormValues({ name: "A", type: null, interests: ["art", 3, ""], personality: "Calm" })).toEqual({
      ...EMPTY_PERSONA_FORM,
      name: "A",
      interests: ["art"],
    });
  });

  it("knows its buttons' intents and nothing else", () => {
    expect(parseWizardIntent("continue")).toBe("continue");
    expect(parseWizardIntent("create")).toBe("create");
    expect(parseWizardIntent("delete")).toBeUndefined();
    expect(parseWizardIntent(null)).toBeUndefined();
  });
});
