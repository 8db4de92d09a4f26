// Proposals for a lorebook through the configured generator (docs/product.md, Lore): the model's
// first, the embedded compile's for what it left out, and the embedded ones alone when it fails.
import { describe, expect, it } from "vitest";

import { compileLore, type LoreProposal } from "~/domain/lore-compile";
import { loreEntrySchema } from "~/domain/lorebook";

import { proposeLore } from "./lore.server";
import { AiError, type TextGenerator } from "./types";

const INPUT = {
  name: "Yuna Park",
  backstory: "Yuna grew up in Seoul with her sister Mina. She moved to Lisbon in 2019 and joined the Tram Sketch Club.",
  extended: { birthplace: "Seoul, South Korea", currentResidence: "Lisbon, Portugal" },
  existing: [],
};

const proposal = (name: string, keys: string[], kind: LoreProposal["kind"]): LoreProposal => ({
  ...loreEntrySchema().parse({ name, keys, content: `About ${name}.`, kind, comment: "Built from the backstory" }),
  kind,
});

function generator(compile?: TextGenerator["compileLore"]): TextGenerator {
  return {
    kind: compile ? "openai" : "local",
    generateBackstory: () => Promise.reject(new Error("not used")),
    chatReply: () => (async function* () {})(),
    ...(compile ? { compileLore: compile } : {}),
  };
}

describe("proposeLore", () => {
  it("is the embedded compile when the generator proposes no entries", async () => {
    const result = await proposeLore(INPUT, { generator: generator() });
    expect(result).toEqual({ ...compileLore(INPUT), source: "embedded" });
  });

  it("puts the model's proposals first and adds the embedded ones for subjects it left out, coverage pointing at the merged list", async () => {
    const result = await proposeLore(INPUT, {
      generator: generator(async () => [proposal("Mina Park", ["Mina", "little sister"], "person")]),
    });
    expect(result.source).toBe("both");
    expect(result.proposals[0]!.name).toBe("Mina Park");
    expect(result.proposals.filter((p) => p.keys.includes("Mina"))).toHaveLength(1);
    expect(result.proposals.map((p) => p.name)).toEqual(expect.arrayContaining(["Seoul", "Lisbon", "Tram Sketch Club"]));
    const mina = result.coverage.find((c) => c.name === "Mina")!;
    expect(mina.proposalIndex).toBe(0);
    const lisbon = result.coverage.find((c) => c.name === "Lisbon")!;
    expect(result.proposals[lisbon.proposalIndex!]!.name).toBe("Lisbon");
  });

  it("falls back to the embedded proposals when the model fails, saying why", async () => {
    const result = await proposeLore(INPUT, {
      generator: generator(() => Promise.reject(new AiError("unavailable", "The AI endpoint example.com is unavailable (500)."))),
    });
    expect(result.source).toBe("embedded");
    expect(result.modelError).toContain("unavailable");
    expect(result.proposals).toEqual(compileLore(INPUT).proposals);
  });

  it("never proposes from the model what an existing entry already holds", async () => {
    const existing = [{ ...proposal("Mina", ["Mina"], "person"), id: "e1", extensions: {}, card: {} }];
    const result = await proposeLore(
      { ...INPUT, existing },
      { generator: generator(async () => [proposal("Mina Park", ["Mina"], "person"), proposal("Sketch club", ["sketch club"], "group")]) },
    );
    expect(result.proposals.some((p) => p.keys.includes("Mina"))).toBe(false);
    expect(result.proposals[0]!.name).toBe("Sketch club");
    expect(result.coverage.find((c) => c.name === "Mina")?.entryId).toBe("e1");
  });
});
