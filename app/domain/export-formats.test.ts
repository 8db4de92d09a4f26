import { load } from "js-yaml";
import { describe, expect, it } from "vitest";

import {
  contentDisposition,
  EXPORT_EMPTY,
  EXPORT_FAILED_TOAST,
  EXPORT_FOOTER,
  EXPORT_FORMAT_IDS,
  EXPORT_FORMATS,
  exportFileName,
  exportJson,
  exportToast,
  exportYamlData,
  imageFileName,
  NO_IMAGE_TOAST,
  renderExport,
  toJson,
  toMarkdown,
  toText,
  toYaml,
  type ExportPersona,
} from "./export-formats";
import { EXTENDED_PROFILE_SECTIONS, extendedProfile, extendedProfileValue } from "./extended-profile";
import { EMPTY_VOICE, type PersonaVoice } from "./persona-voice";

const NOVA: ExportPersona = {
  id: "6f1c2a4e-1111-4c2b-9a77-0d5e3b2f9c10",
  name: "Nova Lumen",
  type: "educator",
  gender: "female",
  ageRange: "25-34",
  interests: ["science", "tech", "education"],
  personality: ["Curious", "Calm", "Empathetic"],
  description: "A patient science tutor who makes hard ideas feel simple.",
  backstory: "Nova grew up in a lighthouse.\n\nShe now teaches physics to night owls.",
  imageStyle: "photorealistic",
  status: "active",
  createdAt: new Date("2024-05-01T12:34:56.789Z"),
  updatedAt: new Date("2024-05-02T08:00:00.000Z"),
  imageUrl: null,
  cardMeta: null,
};
const NOVA_EXTENDED = extendedProfile(NOVA);

/** A draft with nothing but a name. */
const DRAFT: ExportPersona = {
  ...NOVA,
  name: "Draft Dot",
  type: null,
  gender: null,
  ageRange: null,
  interests: [],
  personality: [],
  description: null,
  backstory: "",
  status: "in_progress",
  createdAt: "2024-06-30T23:59:59.000Z",
};
const DRAFT_EXTENDED = extendedProfile(DRAFT);

const lastLine = (body: string) => body.trimEnd().split("\n").at(-1);

describe("the Download menu's formats and toasts", () => {
  it("offers Text, JSON, Markdown and YAML in that order, with their extensions and content types", () => {
    expect(EXPORT_FORMAT_IDS.map((f) => EXPORT_FORMATS[f].label)).toEqual(["Text .txt", "JSON .json", "Markdown .md", "YAML .yaml"]);
    expect(EXPORT_FORMAT_IDS.map((f) => EXPORT_FORMATS[f].extension)).toEqual(["txt", "json", "md", "yaml"]);
    expect(EXPORT_FORMAT_IDS.map((f) => EXPORT_FORMATS[f].contentType)).toEqual([
      "text/plain; charset=utf-8",
      "application/json",
      "text/markdown; charset=utf-8",
      "application/yaml",
    ]);
  });

  it("names the format in the success toast; failure and no-image toasts use the spec's words", () => {
    expect(exportToast("txt")).toEqual({
      title: "Export Successful",
      description: "Persona profile exported in TXT format.",
    });
    expect(exportToast("json").description).toBe("Persona profile exported in JSON format.");
    expect(exportToast("md").description).toBe("Persona profile exported in MARKDOWN format.");
    expect(exportToast("yaml").description).toBe("Persona profile exported in YAML format.");
    expect(EXPORT_FAILED_TOAST).toEqual({
      title: "Export Failed",
      description: "Failed to export persona data. Please try again.",
    });
    expect(NO_IMAGE_TOAST).toEqual({
      title: "No Image Available",
      description: "This persona doesn't have an image to download.",
    });
  });
});

describe("export file names", () => {
  it("lowercases the name, turns every other character into _ and adds _profile and the extension", () => {
    expect(exportFileName("Nova Lumen!", "txt")).toBe("nova_lumen__profile.txt");
    expect(exportFileName("Nova Lumen", "json")).toBe("nova_lumen_profile.json");
    expect(exportFileName("R2-D2 & C-3PO", "md")).toBe("r2_d2___c_3po_profile.md");
    expect(exportFileName("Ana 🚀", "yaml")).toBe("ana___profile.yaml");
  });

  it("takes an extension with inner dots, and nothing else, from the caller", () => {
    expect(exportFileName("Nova Lumen", "card.json")).toBe("nova_lumen_profile.card.json");
    expect(exportFileName("Nova Lumen", "../x/.PNG")).toBe("nova_lumen_profile.x.png");
    expect(exportFileName("Nova Lumen", "")).toBe("nova_lumen_profile.txt");
    expect(imageFileName("Nova Lumen", "/")).toBe("Nova_Lumen_image.jpg");
  });

  it("keeps accented letters as their base letter, letters of every script as they are, and names a name without letters or digits 'persona'", () => {
    expect(exportFileName("Zoë Ångström", "txt")).toBe("zoe_angstrom_profile.txt");
    expect(exportFileName("İlkay", "txt")).toBe("ilkay_profile.txt");
    expect(exportFileName("ユキ", "txt")).toBe("ユキ_profile.txt");
    expect(exportFileName("爱", "card.json")).toBe("爱_profile.card.json");
    expect(exportFileName("Лиза Ким", "md")).toBe("лиза_ким_profile.md");
    expect(exportFileName("!!", "md")).toBe("persona_profile.md");
  });

  it("is always a short, safe file name, whatever the name", () => {
    const names = ["../../etc/passwd", 'a"b\r\nc', "\u202Egpj.exe", "CON", "x".repeat(500), "ﷺ".repeat(80), "\uD800ab"];
    for (const name of names) {
      const file = exportFileName(name, "txt");
      expect(file).toMatch(/^[\p{L}\p{N}_]+_profile\.txt$/u);
      expect([...file].length).toBeLessThanOrEqual(80 + "_profile.txt".length);
    }
  });

  it("names the image download with underscores for spaces plus _image.jpg", () => {
    expect(imageFileName("Nova Lumen")).toBe("Nova_Lumen_image.jpg");
    expect(imageFileName("Zoë  Ray")).toBe("Zoë__Ray_image.jpg");
    expect(imageFileName("Nova Lumen", "png")).toBe("Nova_Lumen_image.png");
  });

  it("keeps quotes, slashes, control characters and hidden-file dots out of the image name", () => {
    expect(imageFileName('Bad "name"/\\x')).toBe("Bad__name___x_image.jpg");
    expect(imageFileName(".hidden")).toBe("_hidden_image.jpg");
    expect(imageFileName("a\r\nb")).toBe("a__b_image.jpg");
    expect(imageFileName("\u202Egpj.exe")).toBe("_gpj.exe_image.jpg");
    expect(imageFileName("..")).toBe("persona_image.jpg");
  });
});

describe("Content-Disposition", () => {
  it("gives an ASCII fallback and the exact UTF-8 name", () => {
    expect(contentDisposition("nova_lumen_profile.txt")).toBe(
      `attachment; filename="nova_lumen_profile.txt"; filename*=UTF-8''nova_lumen_profile.txt`,
    );
    expect(contentDisposition("Zoë_image.jpg")).toBe(`attachment; filename="Zoe_image.jpg"; filename*=UTF-8''Zo%C3%AB_image.jpg`);
    expect(contentDisposition("ユキ_image.jpg")).toBe(`attachment; filename="___image.jpg"; filename*=UTF-8''%E3%83%A6%E3%82%AD_image.jpg`);
  });

  it("is a valid header for any name, and never carries a quote, a slash or a line break", () => {
    for (const name of ['a"b\r\nSet-Cookie: x=1', "..\\..\\x", "it's (fine)*", "\u0000\uD800", ""]) {
      const header = contentDisposition(imageFileName(name));
      expect(() => new Headers({ "Content-Disposition": header })).not.toThrow();
      const fallback = /filename="([^"]*)"/.exec(header)![1]!;
      expect(fallback).toMatch(/^[\x20-\x7e]+$/);
      expect(fallback).not.toMatch(/["\\/]/);
      const encoded = /filename\*=UTF-8''(\S+)$/.exec(header)![1]!;
      expect(encoded).toMatch(/^[A-Za-z0-9!#$&+\-.^_`|~%]+$/);
      expect(decodeURIComponent(encoded)).toBe(imageFileName(name));
    }
    expect(contentDisposition('a"b/c')).not.toMatch(/filename="[^"]*["/][^"]*"/);
  });
});

describe("JSON export", () => {
  it("has exactly the spec's fields, in its order, with stored values", () => {
    const json = exportJson(NOVA, NOVA_EXTENDED);
    expect(Object.keys(json)).toEqual([
      "name",
      "type",
      "gender",
      "ageRange",
      "interests",
      "personality",
      "description",
      "backstory",
      "extended",
      "voice",
      "createdAt",
      "status",
    ]);
    expect(json).toEqual({
      name: "Nova Lumen",
      type: "educator",
      gender: "female",
      ageRange: "25-34",
      interests: ["science", "tech", "education"],
      personality: ["Curious", "Calm", "Empathetic"],
      description: NOVA.description,
      backstory: NOVA.backstory,
      extended: NOVA_EXTENDED,
      voice: EMPTY_VOICE,
      createdAt: "2024-05-01T12:34:56.789Z",
      status: "active",
    });
  });

  it("gives null for missing choices and empty texts, [] for empty lists", () => {
    const json = exportJson(DRAFT, DRAFT_EXTENDED);
    expect(json).toMatchObject({
      type: null,
      gender: null,
      ageRange: null,
      interests: [],
      personality: [],
      description: null,
      backstory: null,
      createdAt: "2024-06-30T23:59:59.000Z",
      status: "in_progress",
    });
  });

  it("is pretty-printed with two spaces, parses back to the same data and carries no footer", () => {
    const body = toJson(NOVA, NOVA_EXTENDED);
    expect(body.startsWith('{\n  "name": "Nova Lumen",\n')).toBe(true);
    expect(body.endsWith("}\n")).toBe(true);
    expect(JSON.parse(body)).toEqual(exportJson(NOVA, NOVA_EXTENDED));
  });
});

describe("Text export", () => {
  const body = toText(NOVA, NOVA_EXTENDED);

  it("shows every field with labels", () => {
    expect(body.startsWith("Nova Lumen\n==========\n")).toBe(true);
    for (const line of [
      "Type: AI Educator",
      "Gender: Female",
      "Age Range: 25-34",
      "Interests: Science, Tech, Education",
      "Personality Traits: Curious, Calm, Empathetic",
      "Created: 2024-05-01 12:34 UTC",
      "Status: Active",
    ]) {
      expect(body.split("\n")).toContain(line);
    }
    expect(body).toContain(`Description\n-----------\n${NOVA.description}\n`);
    expect(body).toContain(`Backstory\n---------\n${NOVA.backstory}\n`);
  });

  it("has the Extended Persona Profile in the page's sections and order", () => {
    expect(body).toContain("Extended Persona Profile\n");
    let from = body.indexOf("Extended Persona Profile");
    for (const section of EXTENDED_PROFILE_SECTIONS) {
      const at = body.indexOf(`\n${section.title}\n`, from);
      expect(at, section.title).toBeGreaterThan(from);
      from = at;
      for (const field of section.fields) {
        const value = extendedProfileValue(NOVA_EXTENDED, field.key);
        expect(body).toContain(`  ${field.label}: ${Array.isArray(value) ? value.join(", ") : value}\n`);
      }
    }
  });

  it("ends with one footer line naming the product", () => {
    expect(EXPORT_FOOTER).toBe("Exported from PersonaForge");
    expect(lastLine(body)).toBe(EXPORT_FOOTER);
    expect(body.endsWith(`\n${EXPORT_FOOTER}\n`)).toBe(true);
    expect(body.split(EXPORT_FOOTER)).toHaveLength(2);
  });

  it("shows the spec's texts for empty values", () => {
    const draft = toText(DRAFT, DRAFT_EXTENDED);
    for (const line of [
      "Type: None specified",
      "Gender: None specified",
      "Age Range: None specified",
      "Interests: None specified",
      "Personality Traits: None specified",
      "Status: In Progress",
    ]) {
      expect(draft.split("\n")).toContain(line);
    }
    expect(draft).toContain("Description\n-----------\nNo description provided.\n");
    expect(draft).toContain("Backstory\n---------\nNo backstory provided.\n");
  });
});

describe("Markdown export", () => {
  it("shows every field under headings and ends with the footer line", () => {
    const body = toMarkdown(NOVA, NOVA_EXTENDED);
    expect(body.startsWith("# Nova Lumen\n")).toBe(true);
    expect(body).toContain("- **Type:** AI Educator\n");
    expect(body).toContain("- **Gender:** Female\n");
    expect(body).toContain("- **Age Range:** 25-34\n");
    expect(body).toContain("## Interests\n\n- Science\n- Tech\n- Education\n");
    expect(body).toContain("## Personality Traits\n\n- Curious\n- Calm\n- Empathetic\n");
    expect(body).toContain(`## Description\n\n${NOVA.description}\n`);
    expect(body).toContain("## Backstory\n\nNova grew up in a lighthouse.\n\nShe now teaches physics to night owls.\n");
    expect(body).toContain("## Extended Persona Profile\n");
    for (const section of EXTENDED_PROFILE_SECTIONS) expect(body).toContain(`### ${section.title}\n`);
    expect(body).toContain(`- **Occupation:** ${NOVA_EXTENDED.occupation}`);
    expect(lastLine(body)).toBe(EXPORT_FOOTER);
  });

  it("shows the spec's texts for empty values", () => {
    const body = toMarkdown(DRAFT, DRAFT_EXTENDED);
    expect(body).toContain("- **Type:** None specified\n");
    expect(body).toContain("## Interests\n\nNone specified\n");
    expect(body).toContain("## Description\n\nNo description provided.\n");
    expect(body).toContain("## Backstory\n\nNo backstory provided.\n");
  });

  it("keeps the user's text as text: no HTML, headings, lists or links come from it", () => {
    const body = toMarkdown(
      {
        ...NOVA,
        description: "<img src=x onerror=alert(1)> *bold* [link](javascript:alert(1))",
        backstory: "# Not a heading\n- not a list\n    not code\n1. not numbered\n<script>alert(1)</script> &amp;",
      },
      NOVA_EXTENDED,
    );
    // Every < comes escaped, so no tag is ever parsed as HTML.
    expect(body).not.toMatch(/(^|[^\\])</m);
    expect(body).toContain("\\<script\\>alert(1)\\</script\\>");
    expect(body).toContain("\\*bold\\*");
    expect(body).toContain("\\[link\\](javascript:alert(1))");
    expect(body).toContain("\n\\# Not a heading\n\\- not a list\nnot code\n1\\. not numbered\n");
    expect(body).toContain("\\&amp;");
    const headings = body.split("\n").filter((line) => line.startsWith("#"));
    expect(headings.every((line) => /^#{1,3} [A-Z]/.test(line))).toBe(true);
  });
});

describe("YAML export", () => {
  it("loads back to exactly the data that was dumped, with labels and the spec's empty texts", () => {
    for (const [persona, extended] of [
      [NOVA, NOVA_EXTENDED],
      [DRAFT, DRAFT_EXTENDED],
    ] as const) {
      expect(load(toYaml(persona, extended))).toEqual(exportYamlData(persona, extended));
    }
    const data = exportYamlData(NOVA, NOVA_EXTENDED);
    expect(data).toMatchObject({
      name: "Nova Lumen",
      type: "AI Educator",
      gender: "Female",
      ageRange: "25-34",
      interests: ["Science", "Tech", "Education"],
      personality: ["Curious", "Calm", "Empathetic"],
      createdAt: "2024-05-01T12:34:56.789Z",
      status: "Active",
    });
    expect(Object.keys(data.extended)).toEqual(EXTENDED_PROFILE_SECTIONS.map((s) => s.title));
    expect(data.extended["Goals & Philosophy"]!["Motto"]).toBe(NOVA_EXTENDED.motto);
    expect(exportYamlData(DRAFT, DRAFT_EXTENDED)).toMatchObject({
      type: EXPORT_EMPTY.notSpecified,
      interests: EXPORT_EMPTY.notSpecified,
      description: "No description provided.",
      backstory: "No backstory provided.",
    });
  });

  it("keeps text that looks like YAML, dates, numbers or booleans as the exact text", () => {
    const tricky = [
      "yes",
      "null",
      "2024-05-01",
      "0x1F",
      "key: value\n- item\n  indented",
      "'single' and \"double\" quotes",
      "  leading spaces",
      "# hash",
      "emoji 🚀 and ユキ",
      "tab\tand\u0007bell",
      "a".repeat(500),
    ];
    for (const backstory of tricky) {
      const persona = { ...NOVA, backstory, description: backstory.slice(0, 150) };
      const loaded = load(toYaml(persona, NOVA_EXTENDED)) as { backstory: string; createdAt: unknown };
      expect(loaded.backstory).toBe(backstory.trim());
      expect(loaded.createdAt).toBe("2024-05-01T12:34:56.789Z");
    }
  });

  it("ends with the footer as a comment line", () => {
    const body = toYaml(NOVA, NOVA_EXTENDED);
    expect(lastLine(body)).toBe(`# ${EXPORT_FOOTER}`);
    expect(body.endsWith("\n")).toBe(true);
  });
});

describe("renderExport", () => {
  it("gives the file name, content type and body of each format", () => {
    expect(renderExport("txt", NOVA, NOVA_EXTENDED)).toEqual({
      filename: "nova_lumen_profile.txt",
      contentType: "text/plain; charset=utf-8",
      body: toText(NOVA, NOVA_EXTENDED),
    });
    expect(renderExport("json", NOVA, NOVA_EXTENDED).body).toBe(toJson(NOVA, NOVA_EXTENDED));
    expect(renderExport("md", NOVA, NOVA_EXTENDED).filename).toBe("nova_lumen_profile.md");
    expect(renderExport("yaml", NOVA, NOVA_EXTENDED)).toMatchObject({
      filename: "nova_lumen_profile.yaml",
      contentType: "application/yaml",
      body: toYaml(NOVA, NOVA_EXTENDED),
    });
  });
});

describe("the voice in the documents", () => {
  const VOICE: PersonaVoice = {
    greeting: "Hello, {{user}}! Ready for <physics>?",
    alternateGreetings: ["Back again?", "Pop quiz time."],
    exampleDialogue: "{{user}}: Why is the sky blue?\n{{char}}: Scattering! Let me draw it.",
    speechStyle: "Patient, with small jokes.",
    catchphrases: ["Let's find out!"],
    appearance: null,
    scenario: null,
    systemPrompt: null,
    postHistoryInstructions: null,
    authorsNote: null,
    authorsNoteDepth: 4,
  };
  const voiced: ExportPersona = { ...NOVA, voice: VOICE };

  it("JSON carries the whole voice, with null and [] for what is not set", () => {
    expect(exportJson(voiced, NOVA_EXTENDED).voice).toEqual(VOICE);
    expect(JSON.parse(toJson(NOVA, NOVA_EXTENDED)).voice).toEqual(EMPTY_VOICE);
  });

  it("Text, Markdown and YAML have a Voice section with the fields that are set, and none without a voice", () => {
    const text = toText(voiced, NOVA_EXTENDED);
    expect(text).toContain(
      "Voice\n-----\nGreeting: Hello, {{user}}! Ready for <physics>?\nAlternate Greetings:\n  - Back again?\n  - Pop quiz time.\n",
    );
    expect(text).toContain("Example Dialogue:\n  {{user}}: Why is the sky blue?\n  {{char}}: Scattering! Let me draw it.\n");
    expect(text).toContain("Speech Style: Patient, with small jokes.\nCatchphrases:\n  - Let's find out!\n");
    expect(text).not.toMatch(/Appearance|Scenario/);
    expect(text.indexOf("Voice\n")).toBeGreaterThan(text.indexOf("Backstory"));
    expect(text.indexOf("Voice\n")).toBeLessThan(text.indexOf("Extended Persona Profile"));

    const md = toMarkdown(voiced, NOVA_EXTENDED);
    expect(md).toContain("## Voice\n\n### Greeting\n\nHello, {{user}}! Ready for \\<physics\\>?\n");
    expect(md).toContain("### Alternate Greetings\n\n- Back again?\n- Pop quiz time.\n");
    expect(md).not.toContain("### Scenario");

    const yaml = load(toYaml(voiced, NOVA_EXTENDED)) as Record<string, unknown>;
    expect(yaml.voice).toEqual({
      Greeting: VOICE.greeting,
      "Alternate Greetings": VOICE.alternateGreetings,
      "Example Dialogue": VOICE.exampleDialogue,
      "Speech Style": VOICE.speechStyle,
      Catchphrases: VOICE.catchphrases,
    });

    for (const body of [toText(NOVA, NOVA_EXTENDED), toMarkdown(NOVA, NOVA_EXTENDED)]) expect(body).not.toMatch(/^#* ?Voice$/m);
    expect(exportYamlData(NOVA, NOVA_EXTENDED)).not.toHaveProperty("voice");
  });
});

describe("the lorebook in the documents", () => {
  const entry = (over: Record<string, unknown>) => ({
    id: "e1",
    name: "The lighthouse",
    keys: ["lighthouse", "lamp"],
    secondary_keys: [],
    selective: false,
    content: "Where Nova grew up.\n# Not a heading <b>",
    enabled: true,
    constant: false,
    insertion_order: 20,
    case_sensitive: false,
    comment: "",
    use_regex: false,
    kind: "place",
    extensions: { depth: 4 },
    card: { id: 7 },
    ...over,
  });
  const lore = {
    entries: [
      entry({}),
      entry({ id: "e2", name: "Night class", keys: ["class"], content: "Physics at 2 a.m.", enabled: false, insertion_order: 10 }),
    ],
    book: {},
  };
  const withLore: ExportPersona = { ...NOVA, lore };

  it("Text and Markdown list each entry (name, keys, content) in insertion order, disabled ones marked; Markdown keeps text as text", () => {
    const text = toText(withLore, NOVA_EXTENDED);
    expect(text).toContain(
      "Lore\n----\nNight class (disabled)\n  Keys: class\n  Physics at 2 a.m.\n\nThe lighthouse\n  Keys: lighthouse, lamp\n",
    );
    expect(text.indexOf("Lore\n")).toBeLessThan(text.indexOf("Extended Persona Profile"));
    const md = toMarkdown(withLore, NOVA_EXTENDED);
    expect(md).toContain("### Night class (disabled)");
    expect(md).toContain("- **Keys:** lighthouse, lamp");
    expect(md).toContain("\\# Not a heading \\<b\\>");
  });

  it("JSON and YAML carry a lore list with the API's field names, never the card's kept extras", () => {
    const json = exportJson(withLore, NOVA_EXTENDED);
    expect(json.lore!.map((e) => e.name)).toEqual(["Night class", "The lighthouse"]);
    expect(json.lore![1]).toEqual({ ...entry({}), card: undefined, cardAbsent: undefined });
    expect(JSON.parse(toJson(withLore, NOVA_EXTENDED)).lore[1]).not.toHaveProperty("card");
    const yaml = load(toYaml(withLore, NOVA_EXTENDED)) as { lore: Record<string, unknown>[] };
    expect(yaml.lore[0]).toEqual({ name: "Night class", keys: ["class"], content: "Physics at 2 a.m.", enabled: false, constant: false });
  });

  it("a persona imported before lorebooks were read lists the book its card data kept; none at all, no Lore anywhere", () => {
    const legacy: ExportPersona = {
      ...NOVA,
      lore: {},
      cardMeta: { version: 1, importedAs: "x", character_book: { entries: [{ keys: ["tide"], content: "The tide comes at six." }] } },
    };
    expect(toText(legacy, NOVA_EXTENDED)).toContain("Lore\n----\ntide\n  Keys: tide\n  The tide comes at six.");
    expect(exportJson(legacy, NOVA_EXTENDED).lore!.map((e) => e.content)).toEqual(["The tide comes at six."]);
    for (const body of [toText(NOVA, NOVA_EXTENDED), toMarkdown(NOVA, NOVA_EXTENDED)]) expect(body).not.toMatch(/^#* ?Lore$/m);
    expect(exportJson(NOVA, NOVA_EXTENDED)).not.toHaveProperty("lore");
    expect(exportYamlData(NOVA, NOVA_EXTENDED)).not.toHaveProperty("lore");
  });
});

describe("AI disclosure (docs/product.md, AI disclosure)", () => {
  const line =
    "Parts of this character were generated by AI (PersonaForge): Extended Persona Profile (built-in generator), reference image (gpt_image*1).";
  const persona: ExportPersona = {
    ...NOVA,
    aiGenerated: [
      { part: "extended_profile", generator: "built-in", model: null },
      { part: "reference_image", generator: "model", model: "gpt_image*1" },
    ],
  };

  it("Text, Markdown and YAML say which parts AI generated once, just above the footer; YAML loads to the same data", () => {
    const text = toText(persona, NOVA_EXTENDED).split("\n");
    expect(text.slice(-4)).toEqual([line, "", EXPORT_FOOTER, ""]);
    const md = toMarkdown(persona, NOVA_EXTENDED);
    expect(md.endsWith(`${line.replace("gpt_image*1", "gpt\\_image\\*1")}\n\n${EXPORT_FOOTER}\n`)).toBe(true);
    const yaml = toYaml(persona, NOVA_EXTENDED);
    expect(yaml.endsWith(`# ${line}\n# ${EXPORT_FOOTER}\n`)).toBe(true);
    expect(load(yaml)).toEqual(load(toYaml(NOVA, NOVA_EXTENDED)));
    for (const body of [text.join("\n"), md, yaml]) expect(body.match(/generated by AI/g)).toHaveLength(1);
  });

  it("says nothing when nothing was generated, and JSON keeps its field set", () => {
    for (const body of [toText(NOVA, NOVA_EXTENDED), toMarkdown(NOVA, NOVA_EXTENDED), toYaml(NOVA, NOVA_EXTENDED)]) {
      expect(body).not.toContain("generated by AI");
    }
    expect(exportJson(persona, NOVA_EXTENDED)).toEqual(exportJson(NOVA, NOVA_EXTENDED));
  });
});
