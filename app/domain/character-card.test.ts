import { describe, expect, it } from "vitest";

import {
  CARD_EXTENSION_KEY,
  CARD_MESSAGES,
  cardJson,
  chatGreeting,
  cleanCardName,
  emptyProfile,
  parseCard,
  parseCardMeta,
  parseExtendedProfile,
  toCardV2,
  toCardV3,
  withCardGuidance,
  type CardMeta,
  type CharacterCardV2,
  type CharacterCardV3,
  type ParsedCard,
} from "./character-card";
import type { ExportPersona } from "./export-formats";
import { extendedProfile, type ExtendedProfile } from "./extended-profile";
import { validatePersona } from "./persona-form";
import { EMPTY_VOICE, voiceSchema, type PersonaVoice } from "./persona-voice";

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
  imageStyle: "anime",
  status: "active",
  createdAt: new Date("2024-05-01T12:34:56.789Z"),
  updatedAt: new Date("2024-05-02T08:00:00.000Z"),
  imageUrl: null,
  cardMeta: null,
};
const NOVA_EXTENDED = extendedProfile(NOVA);
const OPTIONS = { creator: "Alex Example" };

const V2_KEYS = [
  "name",
  "description",
  "personality",
  "scenario",
  "first_mes",
  "mes_example",
  "creator_notes",
  "system_prompt",
  "post_history_instructions",
  "alternate_greetings",
  "tags",
  "creator",
  "character_version",
  "extensions",
];
const V3_KEYS = [...V2_KEYS, "group_only_greetings", "creation_date", "modification_date"];

/** A SillyTavern-style V2 card written elsewhere. */
const FOREIGN_V2 = {
  spec: "chara_card_v2",
  spec_version: "2.0",
  data: {
    name: "Seraphina",
    description:
      "{{char}} is a guardian of the Eldoria forest. She is kind, calm and fiercely protective of travellers who lose their way among the ancient trees, and she heals {{user}} when they arrive wounded.",
    personality: "caring, calm, resilient, a little curious about humans",
    scenario: "{{user}} wakes up in {{char}}'s glade after an attack.",
    first_mes: "*Seraphina kneels beside you.* You're safe now, {{user}}.",
    mes_example: "<START>\n{{user}}: Who are you?\n{{char}}: I am Seraphina, keeper of this forest.",
    creator_notes: "Best with a warm model.",
    system_prompt: "",
    post_history_instructions: "Write in third person.",
    alternate_greetings: ["*The forest is quiet.* Hello again.", "You came back!"],
    character_book: {
      name: "Eldoria",
      extensions: {},
      entries: [{ keys: ["glade"], content: "A sunlit clearing.", extensions: {}, enabled: true, insertion_order: 100 }],
    },
    tags: ["Female", "Fantasy", "Healer", "music"],
    creator: "forestfan",
    character_version: "2.1",
    extensions: {
      talkativeness: "0.5",
      fav: false,
      world: "Eldoria",
      depth_prompt: { prompt: "Seraphina is gentle.", depth: 4, role: "system" },
      chub: { id: 12345, full_path: "forestfan/seraphina" },
    },
  },
};

/** What the app stores after an import (jsonb keeps the JSON, not its key order) and reads back for an export. */
function importedPersona(card: ParsedCard, at = "2025-02-02T10:00:00.000Z"): { persona: ExportPersona; extended: ExtendedProfile } {
  const stored = JSON.parse(JSON.stringify(reverseKeys(card.cardMeta))) as unknown;
  const persona: ExportPersona = {
    id: "0b7d4a10-2222-4e3f-8c11-7a9b0c1d2e3f",
    ...card.persona,
    description: card.persona.description || null,
    backstory: card.persona.backstory || null,
    status: card.status,
    createdAt: new Date(at),
    updatedAt: new Date(at),
    imageUrl: null,
    cardMeta: parseCardMeta(stored),
    voice: JSON.parse(JSON.stringify(reverseKeys(card.voice))) as PersonaVoice,
    // Stored as jsonb: key order is not kept.
    ...(card.lore ? { lore: JSON.parse(JSON.stringify(reverseKeys(card.lore))) as unknown } : {}),
  };
  const extended = card.extended ? parseExtendedProfile(reverseKeys(card.extended))! : extendedProfile(persona);
  return { persona, extended };
}

/** Objects with their keys in reverse order, at every level, like storage that does not keep key order. */
function reverseKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map(reverseKeys) as T;
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.keys(value)
        .reverse()
        .map((key) => [key, reverseKeys((value as Record<string, unknown>)[key])]),
    ) as T;
  }
  return value;
}

function parsed(input: unknown): ParsedCard {
  const result = parseCard(input);
  if (!result.ok) throw new Error(result.message);
  return result.card;
}

function failure(input: unknown): string {
  const result = parseCard(input);
  if (result.ok) throw new Error("expected the card to be refused");
  return result.message;
}

/** Export → read the file → import → export again. */
function roundTrip(card: CharacterCardV2 | CharacterCardV3, version: 2 | 3, options = OPTIONS) {
  const first = cardJson(card);
  const again = importedPersona(parsed(JSON.parse(first)));
  const second = cardJson(
    version === 3 ? toCardV3(again.persona, again.extended, options) : toCardV2(again.persona, again.extended, options),
  );
  return { first, second, again };
}

describe("a persona as Character Card V3 and V2", () => {
  const v3 = toCardV3(NOVA, NOVA_EXTENDED, OPTIONS);
  const v2 = toCardV2(NOVA, NOVA_EXTENDED, OPTIONS);

  it("has the fields each spec requires, and no others", () => {
    expect(v3.spec).toBe("chara_card_v3");
    expect(v3.spec_version).toBe("3.0");
    expect(Object.keys(v3.data)).toEqual(V3_KEYS);
    expect(v2.spec).toBe("chara_card_v2");
    expect(v2.spec_version).toBe("2.0");
    expect(Object.keys(v2.data)).toEqual(V2_KEYS);
    expect(Object.keys(v3)).toEqual(["spec", "spec_version", "data"]);
  });

  it("writes texts a chat front end can use", () => {
    const d = v3.data;
    expect(d.name).toBe("Nova Lumen");
    expect(d.first_mes).toBe("Hi there! I'm Nova Lumen. How can I help you today?");
    expect(d.first_mes).toBe(chatGreeting("Nova Lumen"));
    expect(d.description.startsWith(`${NOVA.description}\n\n`)).toBe(true);
    expect(d.description).toContain("Type: AI Educator\nGender: Female\nAge: 25-34\nInterests: Science, Tech, Education");
    expect(d.description).toContain(`Occupation: ${NOVA_EXTENDED.occupation}`);
    expect(d.description.endsWith(`Backstory:\n${NOVA.backstory}`)).toBe(true);
    expect(d.personality).toBe("Curious, Calm, Empathetic");
    expect(d.scenario).toBe("{{char}} is an AI Educator chatting with {{user}} about science, tech and education.");
    expect(d.mes_example).toBe(
      "<START>\n{{user}}: Tell me a little about yourself.\n{{char}}: I'm {{char}}, an AI Educator. I love talking about science, tech and education. People say I'm curious, calm and empathetic.",
    );
    expect(d.system_prompt).toMatch(/^You are \{\{char\}\}, an AI Educator\. Your personality is curious, calm and empathetic\. /);
    expect(d.creator_notes).toContain("PersonaForge");
    expect(d.post_history_instructions).toBe("");
    expect(d.tags).toEqual(["AI Educator", "Science", "Tech", "Education"]);
    expect(d.creator).toBe("Alex Example");
    expect(d.character_version).toBe("1.0");
    expect(d.alternate_greetings).toEqual([]);
    expect(d.group_only_greetings).toEqual([]);
  });

  it("dates the V3 card in unix seconds from createdAt and updatedAt", () => {
    expect(v3.data.creation_date).toBe(Math.floor(Date.parse("2024-05-01T12:34:56.789Z") / 1000));
    expect(v3.data.modification_date).toBe(Date.parse("2024-05-02T08:00:00.000Z") / 1000);
  });

  it("carries all of our fields in extensions.personaforge", () => {
    for (const card of [v3, v2]) {
      expect(card.data.extensions).toEqual({
        [CARD_EXTENSION_KEY]: {
          version: 1,
          type: "educator",
          gender: "female",
          ageRange: "25-34",
          interests: ["science", "tech", "education"],
          personality: ["Curious", "Calm", "Empathetic"],
          description: NOVA.description,
          backstory: NOVA.backstory,
          imageStyle: "anime",
          status: "active",
          extended: NOVA_EXTENDED,
          voice: EMPTY_VOICE,
        },
      });
    }
  });

  it("writes a draft with missing fields without empty labels", () => {
    const draft = {
      ...NOVA,
      type: null,
      gender: null,
      ageRange: null,
      interests: [],
      personality: [],
      description: null,
      backstory: null,
    };
    const d = toCardV3(draft, NOVA_EXTENDED).data;
    expect(d.scenario).toBe("{{char}} is chatting with {{user}}.");
    expect(d.personality).toBe("");
    expect(d.tags).toEqual([]);
    expect(d.creator).toBe("");
    expect(d.description).not.toMatch(/Type:|Gender:|Age:|Interests:|Backstory:|null|undefined/);
    expect(d.description.startsWith("Name: Nova Lumen\n")).toBe(true);
  });
});

describe("reading a card of ours back", () => {
  it("gives back every field of the persona, its Extended Profile and its status", () => {
    const card = parsed(JSON.parse(cardJson(toCardV3(NOVA, NOVA_EXTENDED, OPTIONS))));
    expect(card.version).toBe(3);
    expect(card.persona).toEqual({
      name: "Nova Lumen",
      type: "educator",
      gender: "female",
      ageRange: "25-34",
      interests: ["science", "tech", "education"],
      description: NOVA.description,
      personality: ["Curious", "Calm", "Empathetic"],
      backstory: NOVA.backstory,
      imageStyle: "anime",
    });
    expect(card.extended).toEqual(NOVA_EXTENDED);
    expect(card.complete).toBe(true);
    expect(card.status).toBe("active");
  });

  it("keeps only the card's creator and dates: its texts are what the persona gives anyway", () => {
    const card = parsed(toCardV3(NOVA, NOVA_EXTENDED, OPTIONS));
    expect(Object.keys(card.cardMeta).sort()).toEqual([
      "creation_date",
      "creator",
      "fields",
      "importedAs",
      "modification_date",
      "version",
      "voiced",
    ]);
  });

  it("keeps a draft a draft, and an archived persona archived", () => {
    const draft = { ...NOVA, type: null, status: "in_progress" };
    expect(parsed(toCardV3(draft, NOVA_EXTENDED))).toMatchObject({ complete: false, status: "in_progress" });
    const completeDraft = { ...NOVA, status: "in_progress" };
    expect(parsed(toCardV3(completeDraft, NOVA_EXTENDED))).toMatchObject({ complete: true, status: "in_progress" });
    expect(parsed(toCardV3({ ...NOVA, status: "archived" }, NOVA_EXTENDED)).status).toBe("archived");
    // An 'active' card that is not complete can only be a draft here.
    expect(parsed(toCardV3({ ...NOVA, interests: [] }, NOVA_EXTENDED)).status).toBe("in_progress");
  });

  it("drops values our enumerations and limits refuse", () => {
    const card = toCardV3(NOVA, NOVA_EXTENDED);
    card.data.extensions[CARD_EXTENSION_KEY] = {
      version: 1,
      type: "wizard",
      gender: 7,
      ageRange: "99+",
      interests: ["gaming", "gaming", "bogus", "music", "art", "tech"],
      personality: ["Calm", "calm", "Evil", "Curious", "Quiet", "Stable", "Direct", "Focused", "Humorous", "Practical"],
      description: "d".repeat(400),
      backstory: "b".repeat(30_000),
      imageStyle: "oil painting",
      status: "deleted",
      extended: { birthplace: 5 },
    };
    const result = parsed(card);
    expect(result.persona).toMatchObject({
      type: null,
      gender: null,
      ageRange: null,
      interests: ["gaming", "music", "art"],
      personality: ["Calm", "Curious", "Quiet", "Stable", "Direct", "Focused", "Humorous"],
      imageStyle: "photorealistic",
    });
    expect([...result.persona.description]).toHaveLength(150);
    expect([...result.persona.backstory]).toHaveLength(20_000);
    expect(result.extended).toBeNull();
    expect(result.status).toBe("in_progress");
    expect(validatePersona(result.persona, "draft").success).toBe(true);
  });
});

describe("export → import → export", () => {
  it("says what AI generated once, in creator_notes and in our extension, and gives the same bytes (docs/product.md, AI disclosure)", () => {
    const persona: ExportPersona = {
      ...NOVA,
      aiGenerated: [
        { part: "reference_image", generator: "model", model: "gpt-image-1" },
        { part: "extended_profile", generator: "built-in", model: null },
      ],
    };
    const line =
      "Parts of this character were generated by AI (PersonaForge): Extended Persona Profile (built-in generator), reference image (gpt-image-1).";
    for (const version of [2, 3] as const) {
      const card = version === 3 ? toCardV3(persona, NOVA_EXTENDED, OPTIONS) : toCardV2(persona, NOVA_EXTENDED, OPTIONS);
      expect(card.data.creator_notes).toBe(`${NOVA.description}\n\nCreated with PersonaForge.\n\n${line}`);
      expect((card.data.extensions[CARD_EXTENSION_KEY] as Record<string, unknown>).ai_generated).toEqual({
        by: "PersonaForge",
        parts: [
          { part: "extended_profile", generator: "built-in", model: null },
          { part: "reference_image", generator: "model", model: "gpt-image-1" },
        ],
      });
      const { first, second, again } = roundTrip(card, version);
      expect(second).toBe(first);
      expect(second.split(line).length - 1).toBe(1);
      // The line is not kept as the card's own notes; the record is.
      expect(again.persona.cardMeta?.creator_notes).toBeUndefined();
      expect(again.persona.cardMeta?.aiGenerated).toHaveLength(2);
    }
    // Without generated parts: no line, no record.
    const plain = toCardV3(NOVA, NOVA_EXTENDED, OPTIONS);
    expect(plain.data.creator_notes).not.toContain("generated by AI");
    expect(plain.data.extensions[CARD_EXTENSION_KEY]).not.toHaveProperty("ai_generated");
  });

  it("gives the same bytes for a persona of ours, as V3 and as V2", () => {
    const v3 = roundTrip(toCardV3(NOVA, NOVA_EXTENDED, OPTIONS), 3);
    expect(v3.second).toBe(v3.first);
    const v2 = roundTrip(toCardV2(NOVA, NOVA_EXTENDED, OPTIONS), 2);
    expect(v2.second).toBe(v2.first);
  });

  it("gives the same bytes for drafts and archived personas", () => {
    for (const persona of [
      {
        ...NOVA,
        type: null,
        gender: null,
        interests: [],
        personality: [],
        description: null,
        backstory: null,
        status: "in_progress",
      },
      { ...NOVA, status: "archived" },
      { ...NOVA, status: "in_progress" },
    ]) {
      const { first, second } = roundTrip(toCardV3(persona, extendedProfile(persona), OPTIONS), 3);
      expect(second).toBe(first);
    }
  });

  it("gives the same bytes for a foreign card, as V3 and as V2, even when another user exports it", () => {
    const imported = importedPersona(parsed(FOREIGN_V2));
    for (const version of [2, 3] as const) {
      const card =
        version === 3 ? toCardV3(imported.persona, imported.extended, OPTIONS) : toCardV2(imported.persona, imported.extended, OPTIONS);
      const { first, second } = roundTrip(card, version, { creator: "Someone Else" });
      expect(second).toBe(first);
    }
  });

  it("follows an edit of an imported persona of ours, and keeps the card's creation date", () => {
    const { again } = roundTrip(toCardV3(NOVA, NOVA_EXTENDED, OPTIONS), 3);
    const edited = {
      ...again.persona,
      backstory: "A brand new backstory.",
      updatedAt: new Date("2025-03-03T00:00:00Z"),
    };
    const d = toCardV3(edited, again.extended, OPTIONS).data;
    expect(d.description.endsWith("Backstory:\nA brand new backstory.")).toBe(true);
    expect(d.creation_date).toBe(Math.floor((NOVA.createdAt.valueOf() as number) / 1000));
    expect(d.modification_date).toBe(Date.parse("2025-03-03T00:00:00Z") / 1000);
  });

  it("a new image, style or status is no edit: the imported card is written as it came", () => {
    for (const source of [toCardV3(NOVA, NOVA_EXTENDED, OPTIONS), FOREIGN_V2]) {
      const imported = importedPersona(parsed(source));
      const first = cardJson(toCardV3(imported.persona, imported.extended));
      const { persona, extended } = importedPersona(parsed(JSON.parse(first)));
      const later = {
        ...persona,
        imageStyle: "cinematic",
        imageUrl: "/images/x.png",
        status: "archived",
        updatedAt: new Date("2026-01-01T00:00:00Z"),
      };
      const after = JSON.parse(cardJson(toCardV3(later, extended))) as CharacterCardV3;
      const before = JSON.parse(first) as CharacterCardV3;
      expect({ ...after.data, extensions: {} }).toEqual({ ...before.data, extensions: {} });
      expect(after.data.extensions[CARD_EXTENSION_KEY]).toMatchObject({ imageStyle: "cinematic", status: "archived" });
    }
  });
});

describe("a foreign card", () => {
  const card = parsed(FOREIGN_V2);

  it("becomes a draft persona with what can be derived from it", () => {
    expect(card.version).toBe(2);
    expect(card.persona.name).toBe("Seraphina");
    expect(card.persona.type).toBeNull();
    expect(card.persona.ageRange).toBeNull();
    expect(card.persona.gender).toBe("female");
    expect(card.persona.interests).toEqual(["music"]);
    // Named in the personality text, in order of appearance.
    expect(card.persona.personality).toEqual(["Calm", "Resilient", "Curious"]);
    expect(card.persona.description).toBe(
      "Seraphina is a guardian of the Eldoria forest. She is kind, calm and fiercely protective of travellers who lose their way among the ancient trees, ...",
    );
    expect([...card.persona.description]).toHaveLength(150);
    expect(card.persona.backstory).toBe(
      [
        FOREIGN_V2.data.description.replaceAll("{{char}}", "Seraphina").replaceAll("{{user}}", "the user"),
        "Personality: caring, calm, resilient, a little curious about humans",
      ].join("\n\n"),
    );
    // The card states no facts: the profile states none either.
    expect(card.extended).toEqual(emptyProfile());
    expect(card.complete).toBe(false);
    expect(card.status).toBe("in_progress");
    expect(validatePersona(card.persona, "draft").success).toBe(true);
  });

  it("is written back with its own texts, greetings, lorebook, tags, creator, version and extensions", () => {
    // The book is the persona's lorebook now, not card data (card-lorebook.ts).
    expect(card.cardMeta).not.toHaveProperty("character_book");
    expect(card.lore?.entries.map((entry) => [entry.name, entry.keys, entry.content])).toEqual([
      ["glade", ["glade"], "A sunlit clearing."],
    ]);
    const { persona, extended } = importedPersona(card);
    const d = toCardV3(persona, extended, OPTIONS).data;
    const source = FOREIGN_V2.data;
    for (const key of [
      "description",
      "personality",
      "scenario",
      "first_mes",
      "mes_example",
      "creator_notes",
      "system_prompt",
      "post_history_instructions",
      "alternate_greetings",
      "character_book",
      "tags",
      "creator",
      "character_version",
    ] as const) {
      expect(d[key], key).toEqual(source[key]);
    }
    const { [CARD_EXTENSION_KEY]: ours, ...theirs } = d.extensions;
    expect(theirs).toEqual(source.extensions);
    expect(ours).toMatchObject({ version: 1, gender: "female", interests: ["music"] });
    expect(toCardV2(persona, extended, OPTIONS).data.extensions).toEqual(d.extensions);
  });

  it("keeps unknown extensions after the persona is edited, and adds our tags to its own", () => {
    const { persona, extended } = importedPersona(card);
    const edited = {
      ...persona,
      type: "companion",
      interests: ["music", "travel"],
      updatedAt: new Date("2025-05-05T00:00:00Z"),
    };
    const d = toCardV3(edited, extended, OPTIONS).data;
    expect(d.extensions.chub).toEqual(FOREIGN_V2.data.extensions.chub);
    expect(d.extensions.depth_prompt).toEqual(FOREIGN_V2.data.extensions.depth_prompt);
    expect(d.first_mes).toBe(FOREIGN_V2.data.first_mes);
    expect(d.tags).toEqual(["AI Companion", "Music", "Travel", "Female", "Fantasy", "Healer"]);
    // Each text is the card's own until the creator edits what it is made from (docs/cards.md, Round trips).
    expect(d.description).toBe(FOREIGN_V2.data.description);
    expect(d.personality).toBe(FOREIGN_V2.data.personality);
    const rewritten = toCardV3({ ...edited, backstory: "She left the forest for the city." }, extended, OPTIONS).data;
    expect(rewritten.description).toContain("Type: AI Companion");
    expect(rewritten.description).toContain("She left the forest for the city.");
    expect(rewritten.personality).toBe(FOREIGN_V2.data.personality);
    const retraited = toCardV3({ ...edited, personality: ["Calm"] }, extended, OPTIONS).data;
    expect(retraited.personality).toBe("Calm");
    expect(retraited.description).toBe(FOREIGN_V2.data.description);
  });

  it("keeps a V3 card's dates, assets, nickname, multilingual notes and sources", () => {
    const v3 = {
      spec: "chara_card_v3",
      spec_version: "3.0",
      data: {
        ...FOREIGN_V2.data,
        group_only_greetings: ["Hello, everyone."],
        creation_date: 1_700_000_000,
        modification_date: 1_700_100_000,
        assets: [{ type: "icon", uri: "ccdefault:", name: "main", ext: "png" }],
        nickname: "Sera",
        creator_notes_multilingual: { ja: "温かいモデルで", en: "Best with a warm model." },
        source: ["https://example.com/seraphina"],
      },
    };
    const result = parsed(v3);
    expect(result.version).toBe(3);
    const { persona, extended } = importedPersona(result);
    const d = toCardV3(persona, extended).data;
    expect(d).toMatchObject({
      group_only_greetings: ["Hello, everyone."],
      creation_date: 1_700_000_000,
      modification_date: 1_700_100_000,
      assets: [{ type: "icon", uri: "ccdefault:", name: "main", ext: "png" }],
      nickname: "Sera",
      creator_notes_multilingual: { en: "Best with a warm model.", ja: "温かいモデルで" },
      source: ["https://example.com/seraphina"],
    });
    const edited = toCardV3({ ...persona, name: "Sera Phina", updatedAt: new Date("2025-06-01T00:00:00Z") }, extended).data;
    expect(edited.creation_date).toBe(1_700_000_000);
    expect(edited.modification_date).toBe(Date.parse("2025-06-01T00:00:00Z") / 1000);
    expect(toCardV2(persona, extended).data).not.toHaveProperty("nickname");
  });

  it("reads an old flat card (no spec)", () => {
    const v1 = parsed({
      name: "Old Timer",
      description: "A grumpy but direct sailor.",
      personality: "Direct, skeptical",
      scenario: "",
      first_mes: "Ahoy.",
      mes_example: "",
    });
    expect(v1.version).toBe(1);
    expect(v1.persona).toMatchObject({
      name: "Old Timer",
      description: "A grumpy but direct sailor.",
      personality: ["Direct", "Skeptical"],
    });
    const { persona, extended } = importedPersona(v1);
    expect(toCardV3(persona, extended).data.first_mes).toBe("Ahoy.");
  });
});

describe("a hostile or broken card", () => {
  it("is refused when it is no card at all", () => {
    for (const input of [null, undefined, "card", 42, [], {}, { spec: "chara_card_v9", data: {} }, { name: 5, description: "x" }]) {
      expect(failure(input)).toBe(CARD_MESSAGES.notACard);
    }
  });

  it("names the field that has the wrong type", () => {
    expect(failure({ spec: "chara_card_v2", spec_version: "2.0" })).toBe(
      "This file is not a valid character card: data must be an object.",
    );
    expect(failure({ spec: "chara_card_v2", data: { name: 5 } })).toBe("This file is not a valid character card: data.name must be text.");
    expect(failure({ spec: "chara_card_v3", data: { name: "Ann", tags: ["a", "b", 3] } })).toBe(
      "This file is not a valid character card: data.tags[2] must be text.",
    );
    expect(failure({ spec: "chara_card_v3", data: { name: "Ann", alternate_greetings: 5 } })).toBe(
      "This file is not a valid character card: data.alternate_greetings must be a list of text.",
    );
    // One greeting written as text is read as a list of one (the card check says so: docs/cards.md).
    const one = parseCard({ spec: "chara_card_v3", data: { name: "Ann", alternate_greetings: "Hello again." } });
    expect(one.ok && one.card.voice.alternateGreetings).toEqual(["Hello again."]);
    expect(failure({ spec: "chara_card_v3", data: { name: "Ann", extensions: [] } })).toBe(
      "This file is not a valid character card: data.extensions must be an object.",
    );
  });

  it("caps texts, lists and foreign JSON", () => {
    const card = (data: Record<string, unknown>) => ({ spec: "chara_card_v3", data: { name: "Ann", ...data } });
    expect(failure(card({ description: "x".repeat(100_001) }))).toBe(
      "This file is not a valid character card: data.description is too long (over 100,000 characters).",
    );
    expect(failure(card({ alternate_greetings: Array(101).fill("hi") }))).toBe(
      "This file is not a valid character card: data.alternate_greetings has too many entries (over 100).",
    );
    let deep: unknown = "bottom";
    for (let i = 0; i < 5_000; i++) deep = { deeper: deep };
    expect(failure(card({ extensions: { deep } }))).toMatch(/nested too deeply\.$/);
    expect(failure(card({ extensions: { big: Array(30).fill("x".repeat(99_000)) } }))).toMatch(/too large\.$/);
    expect(failure(card({ character_book: { entries: Array(300_000).fill(1) } }))).toMatch(/too large\.$/);
    expect(parseCard(card({ extensions: { fine: Array(10).fill("x".repeat(99_000)) } })).ok).toBe(true);
  });

  it("measures what it keeps in bytes, as the database does: multi-byte text counts more", () => {
    const card = (data: Record<string, unknown>) => ({ spec: "chara_card_v3", data: { name: "Ann", ...data } });
    // 1.1 million characters (under any character budget), 2.2 MB of UTF-8.
    const tooLarge = parseCard(card({ extensions: { lore: "é".repeat(1_100_000) } }));
    expect(tooLarge).toEqual({ ok: false, message: CARD_MESSAGES.tooLarge, tooLarge: true });
    expect(parseCard(card({ extensions: { lore: "e".repeat(1_100_000) } })).ok).toBe(true);
    // Greetings add up past the limit although each is within its own cap.
    expect(parseCard(card({ alternate_greetings: Array(30).fill("ü".repeat(40_000)) }))).toMatchObject({ ok: false, tooLarge: true });
    expect(parseCard(card({ extensions: { big: Array(30).fill("x".repeat(99_000)) } }))).toMatchObject({ ok: false, tooLarge: true });
  });

  it("cleans a name to our rule, or refuses a card whose name cannot be used", () => {
    expect(cleanCardName("<b>Ann</b> <i>Lee</i>")).toBe("Ann Lee");
    expect(cleanCardName("<script>alert(1)</script>Eve")).toBe("alert(1) Eve");
    expect(cleanCardName("Mia <3")).toBe("Mia 3");
    expect(cleanCardName("Line\nbreak\u202E\u0000 name")).toBe("Line break name");
    expect(cleanCardName("n".repeat(500))).toBe("n".repeat(80));
    expect(cleanCardName("<b></b>")).toBeNull();
    expect(cleanCardName(" A ")).toBeNull();
    expect(failure({ spec: "chara_card_v2", data: { name: "<img src=x>" } })).toBe(CARD_MESSAGES.name);
    const card = parsed({ spec: "chara_card_v2", data: { name: "<img src=x onerror=alert(1)>Zed" } });
    expect(card.persona.name).toBe("Zed");
    expect(validatePersona(card.persona, "draft").success).toBe(true);
  });

  it("removes what PostgreSQL cannot store and keeps markup as plain text", () => {
    const card = parsed({
      spec: "chara_card_v2",
      data: {
        name: "Nul\u0000l Lee",
        description: "Half \uD800 pair and NUL\u0000 and <img src=x onerror=alert(1)>",
        extensions: { "k\u0000ey": "v\u0000alue" },
      },
    });
    const stored = JSON.stringify(card);
    expect(stored).not.toContain("\\u0000");
    expect(stored).not.toMatch(/\\ud800/i);
    expect(card.persona.name).toBe("Null Lee");
    expect(card.cardMeta.description).toBe("Half \uFFFD pair and NUL and <img src=x onerror=alert(1)>");
    expect(card.cardMeta.extensions).toEqual({ key: "value" });
  });

  it("keeps a __proto__ key as data without touching any prototype", () => {
    const input = JSON.parse('{"spec":"chara_card_v2","data":{"name":"Ann","extensions":{"__proto__":{"polluted":true}}}}') as unknown;
    const card = parsed(input);
    expect(Object.hasOwn(card.cardMeta.extensions!, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const { persona, extended } = importedPersona(card);
    const written = JSON.parse(cardJson(toCardV3(persona, extended))) as CharacterCardV3;
    expect(Object.hasOwn(written.data.extensions, "__proto__")).toBe(true);
    expect(written.data.extensions["__proto__"]).toEqual({ polluted: true });
  });

  it("always gives a persona that a draft may store", () => {
    const weird: unknown[] = [
      { name: "Ab", description: "" },
      {
        spec: "chara_card_v2",
        data: { name: "Ab", tags: ["male", "female", "gaming", "games", "art", "music", "tech"] },
      },
      { spec: "chara_card_v3", data: { name: "  Two  Spaces  ", personality: TRAITS_IN_TEXT } },
      { spec: "chara_card_v3", data: { name: "Ab", extensions: { personaforge: "not an object" } } },
      {
        spec: "chara_card_v3",
        data: { name: "Ab", extensions: { personaforge: { interests: "gaming", personality: null } } },
      },
    ];
    for (const input of weird) {
      const card = parsed(input);
      expect(validatePersona(card.persona, "draft").success, JSON.stringify(input)).toBe(true);
      expect(card.persona.interests.length).toBeLessThanOrEqual(3);
      expect(card.persona.personality.length).toBeLessThanOrEqual(7);
    }
    expect(parsed(weird[1]).persona).toMatchObject({ gender: null, interests: ["gaming", "art", "music"] });
    expect(parsed(weird[2]).persona.name).toBe("Two Spaces");
  });
});

const TRAITS_IN_TEXT = "Outgoing, reserved, SOCIAL, quiet, assertive, reflective, stable, reactive, calm. Not calmly organized-ish.";

describe("stored card meta", () => {
  it("reads back what was stored and refuses what it does not understand", () => {
    const meta = parsed(FOREIGN_V2).cardMeta;
    expect(parseCardMeta(JSON.parse(JSON.stringify(meta)))).toEqual(meta);
    expect(parseCardMeta(null)).toBeNull();
    expect(parseCardMeta({ version: 99, importedAs: "x" })).toBeNull();
    expect(parseCardMeta({ version: 1, importedAs: "x", tags: "not a list" })).toBeNull();
    expect(parseCardMeta("text")).toBeNull();
    const minimal: CardMeta = { version: 1, importedAs: "abc" };
    expect(parseCardMeta(minimal)).toEqual(minimal);
  });

  it("reads the traits named in a foreign card's personality, at most 7, whole words only", () => {
    const card = parsed({ spec: "chara_card_v2", data: { name: "Ab", personality: TRAITS_IN_TEXT } });
    expect(card.persona.personality).toEqual(["Outgoing", "Reserved", "Social", "Quiet", "Assertive", "Reflective", "Stable"]);
    const calmly = parsed({ spec: "chara_card_v2", data: { name: "Ab", personality: "calmly, disorganized" } });
    expect(calmly.persona.personality).toEqual([]);
  });
});

describe("the persona's version on the card (persona history)", () => {
  it("character_version is the version number and modification_date its time, in V3 and V2", () => {
    const at = new Date("2026-03-04T05:06:07Z");
    const options = { ...OPTIONS, version: { number: 7, at } };
    const v3 = toCardV3(NOVA, NOVA_EXTENDED, options);
    expect(v3.data.character_version).toBe("7");
    expect(v3.data.modification_date).toBe(Math.floor(at.getTime() / 1000));
    expect(toCardV2(NOVA, NOVA_EXTENDED, options).data.character_version).toBe("7");
  });

  it("a card of ours does not keep its version number: the import starts its own history", () => {
    const card = toCardV3(NOVA, NOVA_EXTENDED, { ...OPTIONS, version: { number: 7, at: new Date() } });
    const back = parsed(JSON.parse(cardJson(card)));
    expect(back.cardMeta.character_version).toBeUndefined();
    const copy = importedPersona(back);
    expect(toCardV3(copy.persona, copy.extended, { ...OPTIONS, version: { number: 1, at: new Date() } }).data.character_version).toBe("1");
  });

  it("a foreign card's own version text is kept in the card meta", () => {
    const foreign = {
      spec: "chara_card_v2",
      spec_version: "2.0",
      data: { name: "Elsewhere", description: "From another tool.", character_version: "2.1-beta" },
    };
    expect(parsed(foreign).cardMeta.character_version).toBe("2.1-beta");
  });
});

describe("the voice on a card (docs/product.md, Exports and character cards)", () => {
  const VOICE: PersonaVoice = {
    greeting: "*Nova looks up from her notes.* Oh! Hi, {{user}}.",
    alternateGreetings: ["Back for more physics?", "Pop quiz, {{user}}!"],
    exampleDialogue: "<START>\n{{user}}: Why is the sky blue?\n{{char}}: Scattering! Let me draw it.",
    speechStyle: "Patient and warm, with small jokes.",
    catchphrases: ["Let's find out!", "Physics is everywhere."],
    appearance: "Short silver hair, round glasses, a chalk-dusted cardigan.",
    scenario: "{{user}} drops into {{char}}'s late-night study stream.",
    systemPrompt: null,
    postHistoryInstructions: null,
    authorsNote: null,
    authorsNoteDepth: 4,
  };
  const voiced: ExportPersona = { ...NOVA, voice: VOICE };

  it("writes the greeting, alternate greetings, example dialogue and scenario to their fields, in V3 and V2", () => {
    for (const d of [toCardV3(voiced, NOVA_EXTENDED, OPTIONS).data, toCardV2(voiced, NOVA_EXTENDED, OPTIONS).data]) {
      expect(d.first_mes).toBe(VOICE.greeting);
      expect(d.alternate_greetings).toEqual(VOICE.alternateGreetings);
      expect(d.mes_example).toBe(VOICE.exampleDialogue);
      expect(d.scenario).toBe(VOICE.scenario);
      expect(d.personality).toBe(
        'Curious, Calm, Empathetic\n\nSpeech style: Patient and warm, with small jokes.\n\nCatchphrases: "Let\'s find out!", "Physics is everywhere."',
      );
      expect(d.description).toContain(`Appearance:\n${VOICE.appearance}\n\nBackstory:\n`);
      expect(d.extensions[CARD_EXTENSION_KEY]).toMatchObject({ voice: VOICE });
    }
  });

  it("falls back to the chat's greeting and the derived texts when no voice is set", () => {
    const d = toCardV3(NOVA, NOVA_EXTENDED).data;
    expect(d.first_mes).toBe(chatGreeting("Nova Lumen"));
    expect(d.alternate_greetings).toEqual([]);
    expect(d.mes_example.startsWith("<START>\n{{user}}: Tell me a little about yourself.")).toBe(true);
    expect(d.personality).toBe("Curious, Calm, Empathetic");
    expect(d.description).not.toContain("Appearance:");
  });

  it("round-trips: export then import gives the same voice, and export again the same bytes", () => {
    for (const version of [2, 3] as const) {
      const card = version === 3 ? toCardV3(voiced, NOVA_EXTENDED, OPTIONS) : toCardV2(voiced, NOVA_EXTENDED, OPTIONS);
      const { first, second, again } = roundTrip(card, version);
      expect(again.persona.voice).toEqual(VOICE);
      expect(second).toBe(first);
      expect(parsed(JSON.parse(first)).notes).toEqual([]);
    }
  });

  it("a card of ours whose greeting was edited in another front end brings that greeting", () => {
    const card = toCardV3(voiced, NOVA_EXTENDED, OPTIONS);
    card.data.first_mes = "Edited elsewhere, hi!";
    const result = parsed(JSON.parse(cardJson(card)));
    expect(result.voice).toEqual({ ...VOICE, greeting: "Edited elsewhere, hi!" });
  });

  it("a foreign card's first_mes, alternate greetings, example dialogue, scenario and guidance become the voice", () => {
    const card = parsed(FOREIGN_V2);
    expect(card.voice).toEqual({
      greeting: FOREIGN_V2.data.first_mes,
      alternateGreetings: FOREIGN_V2.data.alternate_greetings,
      exampleDialogue: FOREIGN_V2.data.mes_example,
      speechStyle: null,
      catchphrases: [],
      appearance: null,
      scenario: FOREIGN_V2.data.scenario,
      // Its system prompt is empty; its post-history instructions and author's note (depth_prompt) are the voice's guidance.
      systemPrompt: null,
      postHistoryInstructions: "Write in third person.",
      authorsNote: "Seraphina is gentle.",
      authorsNoteDepth: 4,
    });
    expect(card.notes).toEqual([]);
    // Held by the voice, so not kept twice.
    for (const key of ["first_mes", "mes_example", "scenario", "alternate_greetings", "post_history_instructions"] as const)
      expect(card.cardMeta).not.toHaveProperty(key);
    // The personality text is kept whole, and its trait names are selected.
    expect(card.persona.backstory).toContain("Personality: caring, calm, resilient, a little curious about humans");
    expect(card.persona.personality).toEqual(["Calm", "Resilient", "Curious"]);
  });

  it("the persona's voice wins over the card's own texts once the creator changes it", () => {
    const { persona, extended } = importedPersona(parsed(FOREIGN_V2));
    const edited = { ...persona, voice: { ...persona.voice!, greeting: "New hello.", alternateGreetings: [], scenario: null } };
    const d = toCardV3(edited, extended).data;
    expect(d.first_mes).toBe("New hello.");
    expect(d.alternate_greetings).toEqual([]);
    expect(d.scenario).toBe("{{char}} is chatting with {{user}} about music.");
    expect(d.mes_example).toBe(FOREIGN_V2.data.mes_example);
  });

  it("a card imported before voices keeps its texts where the voice is empty, and the voice wins where set", () => {
    const { persona, extended } = importedPersona(parsed(FOREIGN_V2));
    const legacyMeta = { ...persona.cardMeta!, voiced: undefined, first_mes: "Old hello.", mes_example: "Old example." };
    const legacy = { ...persona, cardMeta: legacyMeta, voice: EMPTY_VOICE };
    expect(toCardV3(legacy, extended).data).toMatchObject({ first_mes: "Old hello.", mes_example: "Old example." });
    const withGreeting = { ...legacy, voice: { ...EMPTY_VOICE, greeting: "Fresh hello." } };
    expect(toCardV3(withGreeting, extended).data).toMatchObject({ first_mes: "Fresh hello.", mes_example: "Old example." });
  });

  it("HTML, control characters and overlong texts become plain text within the voice's limits, with notes; the export gives the card's own text back until edited", () => {
    const hostile = {
      spec: "chara_card_v2",
      spec_version: "2.0",
      data: {
        name: "Glitch",
        first_mes: '<div style="color:red"><p>Hello&nbsp;<b>there</b>,\u0007 {{user}}!</p><script>alert(1)</script></div><br>*waves* <3',
        mes_example: `<START>\n{{user}}: Hi\n{{char}}: ${"la ".repeat(33_300)}`,
        scenario: "x".repeat(100_000),
        alternate_greetings: Array.from({ length: 7 }, (_, i) => `Hi #${i + 1}\n<i>again</i>`),
      },
    };
    const card = parsed(hostile);
    expect(card.voice.greeting).toBe("Hello there, {{user}}!\n\n*waves* <3");
    expect([...card.voice.exampleDialogue!]).toHaveLength(4_000);
    expect(card.voice.exampleDialogue!.startsWith("<START>\n{{user}}: Hi\n{{char}}: la la")).toBe(true);
    expect(card.voice.exampleDialogue!.endsWith("…")).toBe(true);
    expect([...card.voice.scenario!]).toHaveLength(2_000);
    expect(card.voice.alternateGreetings).toEqual(["Hi #1 again", "Hi #2 again", "Hi #3 again", "Hi #4 again", "Hi #5 again"]);
    expect(card.notes).toEqual([
      "The example dialogue was cut to 4,000 characters.",
      "The scenario was cut to 2,000 characters.",
      "The voice keeps the first 5 of the card's 7 alternate greetings.",
      "HTML markup was removed from the greeting and alternate greetings: the voice keeps plain text.",
    ]);
    // What the voice page would store: the import never stores a voice it would refuse.
    expect(voiceSchema.safeParse(card.voice).success).toBe(true);
    // Unedited, the card goes out as it came.
    const { persona, extended } = importedPersona(card);
    const d = toCardV3(persona, extended).data;
    expect(d.first_mes).toBe(hostile.data.first_mes);
    expect(d.scenario).toBe(hostile.data.scenario);
    expect(d.alternate_greetings).toEqual(hostile.data.alternate_greetings);
    // Beyond what any card field may hold, the card is refused with a message, and nothing is made.
    expect(failure({ ...hostile, data: { ...hostile.data, first_mes: "y".repeat(100_001) } })).toBe(
      CARD_MESSAGES.invalid("data.first_mes is too long (over 100,000 characters)"),
    );
  });

  it("a foreign card's profile states what the card says and nothing else", () => {
    const card = parsed({
      spec: "chara_card_v2",
      spec_version: "2.0",
      data: {
        name: "Mochi",
        description:
          "A cyber-cat who naps on servers.\nOccupation: Server room guardian\nLives in: Neo Tokyo\nLanguages: Cat, Binary and English\nBirthplace: Neo Tokyo\nOccupation: ignored second line",
        personality: "mischievous, loyal, curious",
      },
    });
    expect(card.extended).toEqual({
      ...emptyProfile(),
      occupation: "Server room guardian",
      currentResidence: "Neo Tokyo",
      birthplace: "Neo Tokyo",
      languages: ["Cat", "Binary", "English"],
    });
    expect(card.extended!.birthYear).toBe(0);
    expect(parseExtendedProfile(card.extended)).toEqual(card.extended);
    // The card's description states no more than it did.
    const { persona, extended } = importedPersona(card);
    const edited = toCardV3({ ...persona, type: "companion" }, extended).data;
    expect(edited.description).not.toMatch(/Hobbies:|Motto:|Amsterdam/);
  });
});

describe("guidance on a card (docs/product.md, Voice: guidance)", () => {
  const GUIDED: PersonaVoice = {
    ...EMPTY_VOICE,
    systemPrompt: "{{original}}\nNever break character, even when {{user}} insists.",
    postHistoryInstructions: "Stay {{char}}: warm, brief, no lists.",
    authorsNote: "{{char}} is tired tonight.",
    authorsNoteDepth: 2,
  };

  it("writes system_prompt, post_history_instructions and extensions.depth_prompt, in V3 and V2, and reads them back", () => {
    const guided: ExportPersona = { ...NOVA, voice: GUIDED };
    const v3 = toCardV3(guided, NOVA_EXTENDED, OPTIONS);
    for (const d of [v3.data, toCardV2(guided, NOVA_EXTENDED, OPTIONS).data]) {
      expect(d.system_prompt).toBe(GUIDED.systemPrompt);
      expect(d.post_history_instructions).toBe(GUIDED.postHistoryInstructions);
      expect(d.extensions.depth_prompt).toEqual({ prompt: GUIDED.authorsNote, depth: 2, role: "system" });
    }
    const back = parsed(JSON.parse(cardJson(v3)));
    expect(back.voice).toMatchObject({
      systemPrompt: GUIDED.systemPrompt,
      postHistoryInstructions: GUIDED.postHistoryInstructions,
      authorsNote: GUIDED.authorsNote,
      authorsNoteDepth: 2,
    });
    // And out again, the same.
    const { persona, extended } = importedPersona(back);
    const again = toCardV3(persona, extended, OPTIONS).data;
    expect([again.system_prompt, again.post_history_instructions, again.extensions.depth_prompt]).toEqual([
      v3.data.system_prompt,
      v3.data.post_history_instructions,
      v3.data.extensions.depth_prompt,
    ]);
  });

  it("a foreign card's guidance goes out as it came while unedited; an edit, or a cleared note, goes out as the voice says", () => {
    const card = {
      ...FOREIGN_V2,
      data: {
        ...FOREIGN_V2.data,
        system_prompt: "<b>Roleplay</b> as {{char}}.\r\nNo OOC.",
        extensions: { ...FOREIGN_V2.data.extensions, depth_prompt: { prompt: "Gentle.", depth: 999, role: "user", extra: 1 } },
      },
    };
    const read = parsed(card);
    expect(read.voice).toMatchObject({ systemPrompt: "Roleplay as {{char}}.\nNo OOC.", authorsNote: "Gentle.", authorsNoteDepth: 100 });
    expect(read.notes).toContain("The author's note's depth became 100: the voice keeps a whole number from 0 to 100.");
    expect(read.notes).toContain("HTML markup was removed from the system prompt: the voice keeps plain text.");
    const { persona, extended } = importedPersona(read);
    const out = toCardV3(persona, extended, OPTIONS).data;
    expect(out.system_prompt).toBe(card.data.system_prompt);
    expect(out.post_history_instructions).toBe("Write in third person.");
    // The depth was changed to fit the voice; unedited, the card's own note goes out whole, as came.
    expect(out.extensions.depth_prompt).toEqual({ prompt: "Gentle.", depth: 999, role: "user", extra: 1 });
    // A new depth: the voice's note, with the card's role and other keys.
    const deeper = toCardV3({ ...persona, voice: { ...(persona.voice as PersonaVoice), authorsNoteDepth: 3 } }, extended, OPTIONS).data;
    expect(deeper.extensions.depth_prompt).toEqual({ prompt: "Gentle.", depth: 3, role: "user", extra: 1 });

    const edited = toCardV3(
      { ...persona, voice: { ...(persona.voice as PersonaVoice), systemPrompt: "Be {{char}}.", authorsNote: null } },
      extended,
      OPTIONS,
    ).data;
    expect(edited.system_prompt).toBe("Be {{char}}.");
    expect(edited.extensions).not.toHaveProperty("depth_prompt");
  });

  it("a persona imported before the voice held guidance reads it from the card data kept with it", () => {
    const meta = {
      ...parseCardMeta({ version: 1, importedAs: "x", voiced: true })!,
      system_prompt: "Old prompt for {{char}}.",
      post_history_instructions: "",
      extensions: { depth_prompt: { prompt: "Old note.", depth: 6, role: "system" } },
    } as CardMeta;
    const stored = { greeting: "Hi" }; // no 'systemPrompt': written before guidance
    const voice = withCardGuidance(voiceSchema.parse(stored), stored, meta);
    expect(voice).toMatchObject({
      greeting: "Hi",
      systemPrompt: "Old prompt for {{char}}.",
      postHistoryInstructions: null,
      authorsNote: "Old note.",
      authorsNoteDepth: 6,
    });
    // As the row holds it: without the guidance keys.
    const out = toCardV3({ ...NOVA, cardMeta: meta, voice: stored as unknown as PersonaVoice }, NOVA_EXTENDED, OPTIONS).data;
    expect(out.system_prompt).toBe("Old prompt for {{char}}.");
    expect(out.post_history_instructions).toBe("");
    expect(out.extensions.depth_prompt).toEqual({ prompt: "Old note.", depth: 6, role: "system" });
    // Once saved with guidance, the stored voice is the word: a cleared field stays cleared.
    const saved = { ...voice, systemPrompt: null };
    expect(withCardGuidance(voiceSchema.parse(saved), saved, meta).systemPrompt).toBeNull();
  });
});
