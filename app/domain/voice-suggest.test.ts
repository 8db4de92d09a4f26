import { describe, expect, it } from "vitest";

import { extendedProfile } from "./extended-profile";
import { EMPTY_VOICE, voiceSchema } from "./persona-voice";
import { fillEmptyVoice, suggestVoice } from "./voice-suggest";

const source = {
  name: "Kira Moon",
  type: "vtuber",
  gender: "female",
  ageRange: "18-24",
  personality: ["Outgoing", "Humorous"],
  interests: ["gaming", "music"],
};
const facts = extendedProfile({ id: null, ...source });

describe("voice suggestions", () => {
  it("fill every field within its limits, from the persona's facts and traits", () => {
    for (let draw = 0; draw < 200; draw++) {
      const voice = suggestVoice(source, facts, draw);
      expect(voiceSchema.safeParse(voice).success, `draw ${draw}`).toBe(true);
      expect(voice.greeting).toContain("Kira");
      expect(voice.exampleDialogue).toContain(facts.currentResidence.split(",")[0]);
      expect(voice.exampleDialogue).toContain(facts.occupation.toLowerCase());
      expect(voice.catchphrases).toContain(facts.motto);
      expect(voice.speechStyle).not.toBeNull();
    }
  });

  it("each draw is another suggestion", () => {
    const voices = new Set(Array.from({ length: 10 }, (_, draw) => JSON.stringify(suggestVoice(source, facts, draw))));
    expect(voices.size).toBeGreaterThan(5);
  });

  it("only empty fields are filled: what the creator wrote stays", () => {
    const mine = { ...EMPTY_VOICE, greeting: "Yo.", catchphrases: ["GG"] };
    const filled = fillEmptyVoice(mine, suggestVoice(source, facts, 1));
    expect(filled.greeting).toBe("Yo.");
    expect(filled.catchphrases).toEqual(["GG"]);
    expect(filled.scenario).not.toBeNull();
  });

  it("the speech style speaks of the persona as she, he or they; without an occupation it introduces itself with its kind", () => {
    const candid = (gender: string) => {
      const who = { ...source, gender, personality: ["Direct"] };
      return suggestVoice(who, extendedProfile({ id: null, ...who }), 3).speechStyle;
    };
    expect(candid("female")).toContain("says what she thinks");
    expect(candid("male")).toContain("says what he thinks");
    expect(candid("non-binary")).toContain("says what they think");
    for (const gender of ["female", "male", "non-binary"]) expect(candid(gender)).not.toMatch(/\bit thinks\b/);

    const companion = { ...source, type: "companion" };
    const voice = suggestVoice(companion, { ...extendedProfile({ id: null, ...companion }), occupation: "" }, 1);
    expect(voice.exampleDialogue).toContain("{{char}}: I'm an AI companion");
    const vtuber = suggestVoice(source, { ...facts, occupation: "" }, 1);
    expect(vtuber.exampleDialogue).toContain("{{char}}: I'm a VTuber");
  });
});
