// Building a lorebook from a backstory (docs/product.md, Lore): what is proposed, from what, and
// what an existing lorebook already covers or an edited backstory left behind.
import { describe, expect, it } from "vitest";

import { COMPILED_COMMENT, compileLore, type LoreFacts } from "./lore-compile";
import { LORE_LIMITS, loreEntrySchema, newLoreEntry, type LoreEntry } from "./lorebook";

const FACTS: LoreFacts = {
  birthplace: "Seoul, South Korea",
  currentResidence: "Lisbon, Portugal",
  occupation: "Illustrator",
  education: "Studied illustration at the Hongik Art Academy",
  socialCircle: { family: "Has an older sister who is also their toughest critic" },
  secretSkills: ["Can whistle any tune"],
  birthYear: 1996,
};

const STORY = [
  "Yuna Park was born in 1996 in Seoul, South Korea, the city she still calls her hometown.",
  "She grew up above a noodle shop with her sister Mina, who now runs Hanbit Studio in Busan.",
  "In 2014 she won a regional drawing award with a comic about her grandmother.",
  "Her mentor, Jae Kim, taught her at the Hongik Art Academy for four years.",
  "She moved to Lisbon in 2019 and joined the Tram 28 Sketch Club on her first weekend.",
  "No one knows that she still keeps her first rejection letter under her pillow.",
].join(" ");

const compile = (existing: LoreEntry[] = [], backstory = STORY, extended: LoreFacts | null = FACTS) =>
  compileLore({ name: "Yuna Park", backstory, extended, existing });
const byName = (name: string) => compile().proposals.find((p) => p.name === name);

describe("compileLore", () => {
  it("proposes the people, places, groups, events and secrets the backstory and the sheet name", () => {
    const { proposals } = compile();
    const kinds = Object.fromEntries(proposals.map((p) => [p.name, p.kind]));
    expect(kinds).toMatchObject({
      Seoul: "place",
      Lisbon: "place",
      Busan: "place",
      Mina: "person",
      "Jae Kim": "person",
      "Hanbit Studio": "group",
      "Hongik Art Academy": "group",
      "Tram 28 Sketch Club": "group",
      Grandmother: "person",
      "Born in 1996": "event",
      "Secret skills": "secret",
    });
    expect(proposals.find((p) => p.keys.includes("2014"))?.kind).toBe("event");
    expect(proposals.some((p) => p.kind === "secret" && p.content.includes("rejection letter"))).toBe(true);
    // The persona is no entry of its own.
    expect(proposals.some((p) => /Yuna|Park/.test(p.name))).toBe(false);
  });

  it("keys each proposal with the words the text uses for it", () => {
    expect(byName("Seoul")!.keys).toEqual(expect.arrayContaining(["Seoul", "South Korea", "hometown"]));
    // The sheet's 'older sister' is the sister the story names.
    expect(byName("Mina")!.keys).toEqual(expect.arrayContaining(["Mina", "sister", "her sister", "older sister"]));
    expect(byName("Hanbit Studio")!.keys).toEqual(expect.arrayContaining(["Hanbit Studio", "Hanbit"]));
  });

  it("draws the content only from the backstory's sentences and the sheet's lines", () => {
    const sentences = STORY.split(/(?<=\.)\s+/);
    for (const proposal of compile().proposals) {
      const parts = proposal.content.split(/(?<=\.)\s+(?=[A-Z\d])/);
      for (const part of parts) {
        const fromSheet = /^(Birthplace|Current residence|Family|Occupation|Education|Secret skills|Born in)\b/.test(part);
        expect(fromSheet || sentences.includes(part), `${proposal.name}: ${part}`).toBe(true);
      }
    }
    expect(byName("Mina")!.content).toContain("She grew up above a noodle shop with her sister Mina");
    expect(byName("Seoul")!.content.startsWith("Birthplace: Seoul, South Korea.")).toBe(true);
  });

  it("gives proposals that pass the entry schema, enabled, not constant, ordered by kind and marked as built from the backstory", () => {
    for (const proposal of compile().proposals) {
      expect(loreEntrySchema().safeParse(proposal).success, proposal.name).toBe(true);
      expect(proposal).toMatchObject({ enabled: true, constant: false, comment: COMPILED_COMMENT });
    }
    expect(byName("Mina")!.insertion_order).toBeLessThan(byName("Seoul")!.insertion_order);
    expect(byName("Seoul")!.insertion_order).toBeLessThan(byName("Hanbit Studio")!.insertion_order);
  });

  it("keeps within the limits for a long backstory that names one place in every sentence", () => {
    const long = Array.from({ length: 200 }, (_, i) => `On day ${i + 1} she walked through Seoul again and counted ${i} bridges.`).join(
      " ",
    );
    const seoul = compile([], long).proposals.find((p) => p.name === "Seoul")!;
    expect([...seoul.content].length).toBeLessThanOrEqual(LORE_LIMITS.contentMax);
    expect(seoul.content.endsWith(".")).toBe(true);
  });

  it("does not propose what an existing entry covers, and points the coverage at it", () => {
    const existing = newLoreEntry(loreEntrySchema().parse({ name: "Little sis", keys: ["mina"], content: "My sister." }), "entry-1");
    const { proposals, coverage } = compile([existing]);
    expect(proposals.some((p) => p.keys.some((k) => k.toLowerCase() === "mina"))).toBe(false);
    expect(coverage.find((c) => c.name === "Mina")).toEqual({ name: "Mina", kind: "person", entryId: "entry-1", proposalIndex: null });
    const lisbon = coverage.find((c) => c.name === "Lisbon")!;
    expect(proposals[lisbon.proposalIndex!]!.name).toBe("Lisbon");
  });

  it("is the same for the same input, and works without a sheet", () => {
    expect(compile()).toEqual(compile());
    const bare = compile([], STORY, null);
    expect(bare.proposals.map((p) => p.name)).toEqual(expect.arrayContaining(["Seoul", "Lisbon", "Mina", "Hanbit Studio"]));
    expect(compileLore({ name: "X", backstory: "", extended: null, existing: [] })).toEqual({ proposals: [], coverage: [], stale: [] });
  });

  it("reports entries built from the backstory that an edit left behind, and leaves the creator's own entries alone", () => {
    const kept = compile().proposals.map((p, i) => newLoreEntry(p, `e${i}`));
    const mine = newLoreEntry(loreEntrySchema().parse({ name: "Dragons", keys: ["dragon"], content: "She fears them." }), "mine");
    const edited = STORY.replace("with her sister Mina, who now runs Hanbit Studio in Busan", "with her cousins").replace(
      "No one knows that she still keeps her first rejection letter under her pillow.",
      "",
    );
    const { stale } = compile([...kept, mine], edited);
    const reasons = Object.fromEntries(stale.map((s) => [kept.find((e) => e.id === s.entryId)?.name ?? s.entryId, s.reason]));
    expect(reasons["Mina"]).toBe('"Mina" is no longer in the backstory');
    expect(reasons["Busan"]).toBe('"Busan" is no longer in the backstory');
    expect(Object.keys(reasons).some((name) => name.startsWith("Secret: No one knows"))).toBe(true);
    expect(reasons["Lisbon"]).toBeUndefined();
    expect(reasons["mine"]).toBeUndefined();
    expect(compile(kept).stale).toEqual([]);
  });

  it("reports an entry whose sheet line the sheet no longer states", () => {
    const kept = compile().proposals.map((p, i) => newLoreEntry(p, `e${i}`));
    const { stale } = compile(kept, STORY.replace("She moved to Lisbon in 2019", "She moved to Porto in 2019"), {
      ...FACTS,
      currentResidence: "Porto, Portugal",
    });
    const lisbon = kept.find((e) => e.name === "Lisbon")!;
    expect(stale.find((s) => s.entryId === lisbon.id)?.reason).toBe('"Lisbon" is no longer in the backstory');
  });
});
