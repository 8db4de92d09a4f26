// The voice's guidance in a model's chat prompt (docs/product.md, Voice: guidance), where
// SillyTavern puts it: the system prompt in place of the default instructions ('{{original}}'
// brings them back), the author's note N messages from the end, the post-history instructions last.
import { describe, expect, it } from "vitest";

import { EMPTY_VOICE } from "~/domain/persona-voice";

import { chatPromptMessages } from "./chat-prompt";
import { composeChatReply, styleOf } from "./offline/local-chat.server";

const history = [
  { role: "user" as const, content: "u1" },
  { role: "assistant" as const, content: "a1" },
  { role: "user" as const, content: "u2" },
  { role: "assistant" as const, content: "a2" },
  { role: "user" as const, content: "u3" },
];
const persona = (voice: Partial<typeof EMPTY_VOICE>) => ({
  name: "Kira Moon",
  interests: ["gaming"],
  personality: ["Calm"],
  extended: { birthplace: "Lisbon, Portugal" },
  voice: { ...EMPTY_VOICE, ...voice },
});
const ask = (voice: Partial<typeof EMPTY_VOICE>, avoid?: string[]) =>
  chatPromptMessages({ personaId: "p", persona: persona(voice), history, ...(avoid ? { avoid } : {}) });

describe("guidance in the chat prompt", () => {
  it("without guidance: the default instructions, then the window", () => {
    const messages = ask({});
    expect(messages.map((m) => m.content)).toEqual([
      expect.stringMatching(/^You are Kira Moon, a character designed/),
      "u1",
      "a1",
      "u2",
      "a2",
      "u3",
    ]);
  });

  it("the system prompt replaces the default instructions; {{original}} brings them back; the profile stays", () => {
    const [own] = ask({ systemPrompt: "Play {{char}} for {{user}}. Never narrate." });
    expect(own!.content).toMatch(/^Play Kira Moon for the user\. Never narrate\.\n\nYour profile:/);
    expect(own!.content).not.toContain("a character designed on PersonaForge");
    expect(own!.content).toContain("Birthplace: Lisbon, Portugal");
    const [wrapped] = ask({ systemPrompt: "{{original}}\nNever narrate." });
    expect(wrapped!.content).toMatch(/^You are Kira Moon, a character designed on PersonaForge\.[^]*\nNever narrate\.\n\nYour profile:/);
  });

  it("the author's note goes N messages from the end; 0 after the last; deeper than the window, first", () => {
    const at = (depth: number) => ask({ authorsNote: "{{char}} is tired.", authorsNoteDepth: depth }).map((m) => m.content);
    expect(at(2).slice(1)).toEqual(["u1", "a1", "u2", "Kira Moon is tired.", "a2", "u3"]);
    expect(at(0).slice(1)).toEqual(["u1", "a1", "u2", "a2", "u3", "Kira Moon is tired."]);
    expect(at(40).slice(1)).toEqual(["Kira Moon is tired.", "u1", "a1", "u2", "a2", "u3"]);
    expect(ask({ authorsNote: "x", authorsNoteDepth: 2 })[4]!.role).toBe("system");
  });

  it("the post-history instructions come right after the conversation, before a Regenerate's note", () => {
    const messages = ask({ postHistoryInstructions: "Stay {{char}}. {{original}}Keep it short." }, ["First try.", "Second try."]);
    expect(messages.slice(-2).map((m) => [m.role, m.content])).toEqual([
      ["system", "Stay Kira Moon. Keep it short."],
      ["system", "Write a different reply from these earlier ones (do not repeat them):\n- First try.\n- Second try."],
    ]);
  });

  it("the built-in generator follows the plain cues of the post-history instructions and author's note", () => {
    expect(styleOf(["Calm"], "Keep replies short. Write in lower case.")).toMatchObject({ short: true, lowercase: true });
    const reply = (voice: Partial<typeof EMPTY_VOICE>) =>
      composeChatReply({ personaId: "p", persona: persona(voice), history: [{ role: "user", content: "Where are you from?" }] });
    expect(reply({})).not.toBe(reply({}).toLowerCase());
    for (const voice of [{ postHistoryInstructions: "Always write in lower case." }, { authorsNote: "{{char}} types in lower case." }]) {
      const text = reply(voice);
      expect(text).toBe(text.toLowerCase());
      expect(text).toContain("lisbon");
    }
  });
});
