// Lore in chat (docs/product.md, Lore; Lore in chat), measured on generated personas: the compile
// covers what a backstory and its sheet name, and the embedded responder answers questions about
// an entry's subject from the entry, in the first person.
import { describe, expect, it } from "vitest";

import { matchLore } from "~/domain/lorebook";

import {
  askedEntries,
  chatPersona,
  compiledBook,
  covers,
  loreQuestions,
  lorePersonas,
  statesEntry,
} from "../../../../tests/support/lore-personas";
import { composeChatReply, loreAsked } from "./local-chat.server";
import type { ChatInput, ChatLoreEntry } from "../types";

const personas = lorePersonas(50);
const asLore = (entries: { id: string; name: string; content: string; kind: ChatLoreEntry["kind"]; keys: string[] }[]) =>
  entries.map(({ id, name, content, kind, keys }) => ({ id, name, content, kind, keys }));

describe("building a lorebook from 50 generated backstories", () => {
  it("covers at least 95% of the people and places they and their sheets name", () => {
    let named = 0;
    const missed: string[] = [];
    for (const persona of personas) {
      const { compiled } = compiledBook(persona);
      for (const thing of persona.named.filter((t) => t.kind !== "group")) {
        named += 1;
        if (!compiled.proposals.some((p) => covers(p.keys, thing))) missed.push(`${persona.input.name}: ${thing.kind} ${thing.name}`);
      }
    }
    const rate = 1 - missed.length / named;
    console.log(`lore coverage: ${(rate * 100).toFixed(1)}% of ${named} named people and places`);
    expect(named).toBeGreaterThan(250);
    expect(missed.slice(0, 10), `${missed.length} missed`).toEqual(missed.length / named <= 0.05 ? missed.slice(0, 10) : []);
    expect(rate).toBeGreaterThanOrEqual(0.95);
  });

  it("also covers the groups a creator's paragraph names", () => {
    for (const persona of personas.filter((p) => p.added)) {
      const { compiled } = compiledBook(persona);
      const group = compiled.proposals.find((p) => covers(p.keys, { name: persona.added!.group, kind: "group" }));
      expect(group?.kind, persona.added!.group).toBe("group");
    }
  });
});

describe("the embedded responder with a lorebook", () => {
  const questions = loreQuestions(personas, 100);

  function reply(q: (typeof questions)[number], withLore: boolean): string {
    const input: ChatInput = {
      personaId: q.persona.id,
      persona: chatPersona(q.persona),
      history: [{ role: "user", content: q.question }],
      ...(withLore ? { lore: asLore(matchLore(q.book, [q.question]).entries) } : {}),
    };
    return composeChatReply(input);
  }

  it("answers at least 90 of 100 questions about its entries with the entry's fact, more often than without the lorebook", () => {
    expect(questions).toHaveLength(100);
    let withLore = 0;
    let without = 0;
    const misses: string[] = [];
    for (const q of questions) {
      const answer = reply(q, true);
      const states = (text: string) => askedEntries(q).some((entry) => statesEntry(text, entry, q.persona, q.question));
      if (states(answer)) withLore += 1;
      else misses.push(`${q.question} → ${answer}`);
      if (states(reply(q, false))) without += 1;
    }
    console.log(`lore answers: ${withLore}/100 with the lorebook, ${without}/100 without`);
    expect(withLore, misses.slice(0, 5).join("\n")).toBeGreaterThanOrEqual(90);
    expect(withLore).toBeGreaterThanOrEqual(without);
  });

  it("tells a relative from the lorebook in the first person", () => {
    const persona = personas.find((p) => p.added && p.input.gender === "female")!;
    const { book } = compiledBook(persona);
    const question = `Who is your ${persona.added!.relative}?`;
    const answer = composeChatReply({
      personaId: persona.id,
      persona: chatPersona(persona),
      history: [{ role: "user", content: question }],
      lore: asLore(matchLore(book, [question]).entries),
    });
    expect(answer).toContain(persona.added!.given);
    expect(answer).toMatch(new RegExp(`\\bmy ${persona.added!.relative} ${persona.added!.given}\\b`, "i"));
    expect(answer).not.toContain(persona.input.name.split(" ")[0]!);
  });

  it("answers from an entry only when asked about its subject", () => {
    const lore = [
      {
        id: "1",
        name: "Mina",
        content: "Mina is Kira's older sister, a nurse in Busan.",
        kind: "person" as const,
        keys: ["Mina", "sister"],
      },
    ];
    expect(loreAsked("Tell me about Mina", lore)?.entry.id).toBe("1");
    expect(loreAsked("Who is your sister?", lore)?.key).toBe("sister");
    expect(loreAsked("I had lunch with my sister today.", lore)).toBeNull();
    expect(loreAsked("What's your favorite food?", lore)).toBeNull();
    const answer = composeChatReply({
      personaId: "p1",
      persona: { name: "Kira Moon", interests: [], personality: ["Calm"], gender: "female" },
      history: [{ role: "user", content: "Who is Mina?" }],
      lore,
    });
    expect(answer).toContain("Mina is my older sister, a nurse in Busan.");
  });
});
