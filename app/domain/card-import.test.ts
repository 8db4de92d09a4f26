import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";

import { CARD_IMPORT_MESSAGES, cardImportSchema, guessMissingFields } from "./card-import";

const post = (file?: File) => {
  const data = new FormData();
  data.set("intent", "import");
  if (file) data.set("file", file);
  return parseWithZod(data, { schema: cardImportSchema });
};

describe("the card import form", () => {
  it("takes a chosen file", () => {
    const result = post(new File(['{"spec":"chara_card_v3"}'], "card.json", { type: "application/json" }));
    expect(result.status).toBe("success");
  });

  it("asks for a file when none was chosen (or an empty one)", () => {
    expect(post().reply().error).toEqual({ file: [CARD_IMPORT_MESSAGES.empty] });
    expect(post(new File([], "")).reply().error).toEqual({ file: [CARD_IMPORT_MESSAGES.empty] });
    expect(post(new File([], "empty.json")).reply().error).toEqual({ file: [CARD_IMPORT_MESSAGES.empty] });
  });
});

describe("guessing what a card does not say", () => {
  it("keeps stored choices and guesses the rest from the card's words and tags", () => {
    expect(
      guessMissingFields({
        type: null,
        gender: null,
        ageRange: null,
        interests: [],
        texts: ["Aiko is a 19-year-old streamer. She plays rhythm games and sings on Twitch.", null],
        tags: ["music"],
      }),
    ).toEqual({ type: "vtuber", gender: "female", ageRange: "18-24", interests: ["music", "gaming"] });
    expect(
      guessMissingFields({
        type: "educator",
        gender: "male",
        ageRange: "45-54",
        interests: ["science"],
        texts: ["She streams."],
        tags: [],
      }),
    ).toEqual({ type: "educator", gender: "male", ageRange: "45-54", interests: ["science"] });
  });

  it("falls back to AI Companion, 25-34 and entertainment, and leaves an unclear gender to choose", () => {
    expect(guessMissingFields({ type: null, gender: null, ageRange: null, interests: [], texts: ["They hum quietly."], tags: [] })).toEqual(
      {
        type: "companion",
        gender: null,
        ageRange: "25-34",
        interests: ["entertainment"],
      },
    );
  });
});
