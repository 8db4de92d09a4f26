// A fix to try is played on the persona with its text added where the fix puts it, nothing stored:
// the voice's guidance fields after their own text, a new author's note at the fix's depth, a
// constant lore entry the model always sees.
import { describe, expect, it } from "vitest";

import { fixFor } from "~/domain/conversation-tests";

import { kira } from "../../../tests/support/conversation-personas";
import { withFix } from "./conversation-runner.server";

describe("withFix", () => {
  const { target, subject } = kira();

  it("adds post-history instructions and an author's note at the fix's depth", () => {
    const held = withFix(target, fixFor("inCharacter", subject));
    expect(held.persona.voice!.postHistoryInstructions).toMatch(/^Stay in character as Kira Moon/);
    const noted = withFix(target, fixFor("falseMemory", subject));
    expect(noted.persona.voice).toMatchObject({ authorsNote: expect.stringMatching(/^Kira only remembers/), authorsNoteDepth: 2 });
    // A note of the creator's keeps its depth; the fix's text comes after it.
    const own = {
      ...target,
      persona: { ...target.persona, voice: { ...target.persona.voice, authorsNote: "Be warm.", authorsNoteDepth: 6 } },
    };
    expect(withFix(own, fixFor("falseMemory", subject)).persona.voice).toMatchObject({
      authorsNote: expect.stringMatching(/^Be warm\.\nKira only remembers/),
      authorsNoteDepth: 6,
    });
    expect(target.persona.voice!.postHistoryInstructions).toBeNull();
  });

  it("adds a constant lore entry with the facts", () => {
    const facts = withFix(target, fixFor("identity", subject));
    const added = facts.lorebook.entries.at(-1)!;
    expect(facts.lorebook.entries).toHaveLength(target.lorebook.entries.length + 1);
    expect(added).toMatchObject({ name: "Kira's facts", constant: true, enabled: true, keys: ["Kira"] });
    expect(added.content).toContain(subject.facts!.birthplace);
  });

  it("leaves the persona as it is without a fix", () => {
    expect(withFix(target, null)).toBe(target);
  });
});
