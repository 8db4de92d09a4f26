// The persona as each front end's prompt carries it (docs/cards.md, Behaviour in each front end):
// what no text it reads states is taken out and named; its lorebook follows its rules.
import { describe, expect, it } from "vitest";

import { personaAsSeenBy, promptText, readsField } from "./card-behaviour";
import { parseLorebook } from "./lorebook";

const data = {
  name: "Kira Moon",
  description: "A late-night streamer.\n\nName: Kira Moon\nType: VTuber\nGender: Female\nAge: 25-34\nInterests: Gaming\nBorn in: Osaka",
  personality: 'Outgoing, Curious\n\nSpeech style: calls everyone chat\n\nCatchphrases: "Stay cozy"',
  scenario: "{{char}} is chatting with {{user}}.",
  first_mes: "Heya, chat!",
  mes_example: "<START>\n{{user}}: Hi\n{{char}}: Heya!",
  system_prompt: "You are {{char}}. Your personality is outgoing and curious.",
  post_history_instructions: "",
  creator_notes: "Only in the notes: Kyoto University",
  extensions: {},
};

const persona = {
  name: "Kira Moon",
  type: "vtuber",
  gender: "female",
  ageRange: "25-34",
  interests: ["gaming"],
  personality: ["Outgoing", "Curious"],
  description: "A late-night streamer.",
  backstory: "",
  extended: {
    birthplace: "Osaka",
    education: "Kyoto University",
    languages: ["English", "Japanese"],
    socialCircle: { family: "A sister", friends: "" },
  },
  voice: {
    greeting: "Heya, chat!",
    speechStyle: "calls everyone chat",
    catchphrases: ["Stay cozy"],
    exampleDialogue: "<START>",
    scenario: null,
  },
};

const book = parseLorebook({
  entries: [
    {
      id: "a",
      name: "Tower",
      keys: ["tower"],
      secondary_keys: ["east"],
      selective: true,
      content: "@@depth 4\nThe tower leans east.",
      constant: false,
    },
    { id: "b", name: "Rule", keys: ["rule"], content: "Always polite.", constant: true },
    { id: "c", name: "Old", keys: ["old"], content: "Switched off.", enabled: false },
    { id: "d", name: "Pattern", keys: ["harbou?r"], content: "The harbour.", use_regex: true },
  ],
});

describe("what a front end's model is given", () => {
  it("reads the fields the table marks used or changed, and those no source documents", () => {
    expect(readsField("backyard", "personality")).toBe(false);
    expect(readsField("sillytavern", "personality")).toBe(true);
    expect(readsField("agnai", "description")).toBe(true);
    // JanitorAI's description handling is unpublished: taken as read.
    expect(readsField("janitorai", "description")).toBe(true);
    expect(promptText("sillytavern", data)).toContain("born in: osaka");
    expect(promptText("sillytavern", data)).not.toContain("kyoto");
  });

  it("takes out of the persona what no text the front end reads states, and names it", () => {
    const st = personaAsSeenBy("sillytavern", data, persona, book);
    expect(st.persona.extended).toMatchObject({ birthplace: "Osaka", languages: [], socialCircle: { friends: "" } });
    expect(st.persona.extended).not.toHaveProperty("education");
    expect(st.persona.personality).toEqual(["Outgoing", "Curious"]);
    expect(st.persona.voice).toMatchObject({ speechStyle: "calls everyone chat", catchphrases: ["Stay cozy"], greeting: "Heya, chat!" });
    expect(st.losses).toContain("facts of the sheet (education, languages, family and friends)");

    // Backyard AI has no personality slot: the traits survive in the system prompt, the speech style and catchphrases do not.
    const by = personaAsSeenBy("backyard", data, persona, book);
    expect(by.persona.personality).toEqual(["Outgoing", "Curious"]);
    expect(by.persona.voice).toMatchObject({ speechStyle: null, catchphrases: [] });
    expect(by.losses).toEqual(expect.arrayContaining(["speech style", "catchphrases"]));
    // The persona itself is never changed.
    expect(persona.extended.education).toBe("Kyoto University");
  });

  it("matches the lorebook by each front end's rules", () => {
    const by = personaAsSeenBy("backyard", data, persona, book);
    expect(by.lorebook.entries.map((e) => [e.selective, e.secondary_keys.length, e.constant, e.enabled])).toEqual([
      [false, 0, false, true],
      [false, 0, false, true],
      [false, 0, false, true],
      [false, 0, false, true],
    ]);
    expect(by.losses).toEqual(
      expect.arrayContaining([
        "lorebook: 1 entry loses its secondary keys",
        "lorebook: 1 entry is no longer always on",
        "lorebook: 1 entry switched off here is on",
        "lorebook: 1 entry sends its @@ lines as text",
      ]),
    );
    expect(by.lorebook.entries[0]!.content).toContain("@@depth 4");

    const st = personaAsSeenBy("sillytavern", data, persona, book);
    expect(st.lorebook.entries[0]!.content).toBe("The tower leans east.");
    expect(st.losses.filter((loss) => loss.startsWith("lorebook"))).toEqual([]);

    const risu = personaAsSeenBy("risuai", data, persona, book);
    expect(risu.lorebook.entries[2]!.enabled).toBe(true);
    expect(risu.lorebook.entries[3]!.use_regex).toBe(false);
    expect(risu.losses).toEqual(expect.arrayContaining(["lorebook: 1 entry reads its patterns as plain words"]));

    const agnai = personaAsSeenBy("agnai", data, persona, book);
    expect(agnai.lorebook.entries[1]!.constant).toBe(false);
    expect(agnai.lorebook.entries[2]!.enabled).toBe(false);
  });
});
