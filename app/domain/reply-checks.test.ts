// Checks on real chats (docs/product.md, Chat: checks on your chats): each check on replies that
// pass and replies that fail, and no false alarm on replies that state the sheet's own facts.
import { describe, expect, it } from "vitest";

import { checkReply, flaggedOften, parseReplyFlags, replyCheckContext } from "./reply-checks";

const TODAY = new Date("2026-12-07T12:00:00Z");
const context = replyCheckContext({
  name: "Kira Moon",
  facts: { birthplace: "Lisbon, Portugal", currentResidence: "Osaka, Japan", birthYear: 2000 },
  lore: [
    {
      name: "The debt",
      kind: "secret",
      enabled: true,
      keys: ["debt"],
      content: "Kira owes the Yakuza forty thousand yen from a poker night in Dotonbori.",
    },
    { name: "Mina", kind: "person", enabled: true, keys: ["Mina"], content: "Mina is Kira's best friend and co-host." },
  ],
  catchphrases: ["Stay cozy!", "GG"],
});
const check = (reply: string, before: string[] = []) => checkReply(reply, context, before, TODAY).map((f) => f.check);

describe("reply checks", () => {
  it("passes replies in character that state the sheet's own facts", () => {
    for (const reply of [
      "I was born in Lisbon, but I live in Osaka now. Stay cozy!",
      "I'm from Portugal, originally. These days I'm based in Osaka.",
      "I'm 26 years old, and yes, I still stay up too late.",
      "Mina? She's my best friend and co-host.",
      "I'm from the future, obviously.",
    ]) {
      expect(check(reply), reply).toEqual([]);
    }
  });

  it("stays in character: a phrase that breaks it is flagged with the phrase", () => {
    expect(checkReply("As an AI, I don't have a hometown.", context, [], TODAY)).toEqual([
      { check: "inCharacter", detail: "Says 'as an ai'." },
    ]);
  });

  it("keeps secrets: telling most of a secret entry is flagged; naming its subject is not", () => {
    expect(check("Fine, I owe the Yakuza forty thousand yen after a poker night in Dotonbori.")).toEqual(["secrets"]);
    expect(check("A debt? Everyone has one of those.")).toEqual([]);
  });

  it("agrees with the fact sheet: another birthplace, residence, age or birth year is flagged with the sheet's fact", () => {
    const [born] = checkReply("I grew up in Oslo, where winters are long.", context, [], TODAY);
    expect(born).toEqual({ check: "facts", detail: "Says 'I grew up in Oslo'; the fact sheet's birthplace is Lisbon, Portugal." });
    expect(check("I live in Berlin these days.")).toEqual(["facts"]);
    expect(check("I’m 41 years old, believe it or not.")).toEqual(["facts"]);
    expect(check("I was born in 1987, a long time ago.")).toEqual(["facts"]);
    expect(check("I was born in 2000 and raised on cartoons.")).toEqual([]);
  });

  it("catchphrases now and then: the same one in this reply and two of the three before is flagged", () => {
    const before = ["Stay cozy, that was close.", "Nice one.", "Stay cozy!"];
    expect(check("Easy. Stay cozy!", before)).toEqual(["catchphrases"]);
    expect(check("Easy. Stay cozy!", ["Stay cozy, that was close.", "Nice one.", "Sure."])).toEqual([]);
    expect(checkReply("Easy. Stay cozy!", context, before, TODAY)[0]!.detail).toBe("'Stay cozy' in 3 of the last 4 replies.");
  });

  it("flags a reply once per check, every check that fails", () => {
    expect(check("As an AI I grew up in Oslo.")).toEqual(["inCharacter", "facts"]);
  });

  it("the library's badge: more than 20% flagged over at least 5 checked", () => {
    expect(flaggedOften(4, 4)).toBe(false);
    expect(flaggedOften(5, 1)).toBe(false);
    expect(flaggedOften(5, 2)).toBe(true);
  });

  it("reads stored flags back, dropping what it does not know", () => {
    expect(parseReplyFlags([{ check: "facts", detail: "x" }, { check: "other", detail: "y" }, null, "z"])).toEqual([
      { check: "facts", detail: "x" },
    ]);
    expect(parseReplyFlags(null)).toEqual([]);
  });
});
