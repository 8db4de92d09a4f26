// The embedded chat responder and the context both adapters build: in character, from the
// profile's facts, styled by the traits, deterministic, never the same reply twice in a row,
// a bounded window, and fast.
import { describe, expect, it } from "vitest";

import { extendedProfile } from "~/domain/extended-profile";

import {
  CHAT_HISTORY_MAX_CHARS,
  CHAT_HISTORY_WINDOW,
  chatPromptMessages,
  chatSystemPrompt,
  chatWindow,
  exampleDialogueText,
  personaSheet,
} from "../chat-prompt";
import { composeChatReply, replyPieces, topicOf } from "./local-chat.server";
import { createLocalTextGenerator } from "./local-text.server";
import { AiError, type ChatInput, type ChatPersona, type ChatTurn } from "../types";

const base = {
  name: "Nova Lumen",
  type: "vtuber",
  ageRange: "18-24",
  interests: ["gaming", "music"],
  personality: ["Outgoing", "Creative"],
};
const extended = extendedProfile({ id: "persona-1", ...base });
const NOVA: ChatPersona = {
  ...base,
  gender: "female",
  description: "A cheerful late-night streamer.",
  backstory: "Nova Lumen was born in 2003 in Vancouver. She streamed her first game at fifteen.",
  extended,
};

const ask = (message: string, persona: ChatPersona = NOVA, history: ChatTurn[] = []): ChatInput => ({
  personaId: "persona-1",
  persona,
  history: [...history, { role: "user", content: message }],
});

describe("the context builder", () => {
  it("keeps the last 20 turns within the character budget, starting with a user turn", () => {
    const long = Array.from({ length: 1000 }, (_, i): ChatTurn => ({ role: i % 2 ? "assistant" : "user", content: `m${i}` }));
    const window = chatWindow(long);
    expect(window.length).toBeLessThanOrEqual(CHAT_HISTORY_WINDOW);
    expect(window.at(-1)!.content).toBe("m999");
    expect(window[0]!.role).toBe("user");
    const big = Array.from({ length: 10 }, (_, i): ChatTurn => ({ role: "user", content: `${i}`.repeat(4000) }));
    const capped = chatWindow(big);
    expect(capped.reduce((n, t) => n + t.content.length, 0)).toBeLessThanOrEqual(CHAT_HISTORY_MAX_CHARS);
    expect(capped.at(-1)!.content).toBe(big.at(-1)!.content);
  });

  it("describes the persona with every field it has, and only those", () => {
    const sheet = personaSheet(NOVA);
    for (const fact of [
      "Nova Lumen",
      "AIVTuber",
      "female",
      "18-24",
      "gaming, music",
      "Outgoing, Creative",
      "late-night streamer",
      "born in 2003",
    ]) {
      expect(sheet).toContain(fact);
    }
    for (const fact of [extended.birthplace, extended.occupation, extended.motto, extended.goals.short, extended.favoriteFood]) {
      expect(sheet).toContain(fact);
    }
    expect(sheet).toContain(`Birth year: ${extended.birthYear} (${new Date().getUTCFullYear() - extended.birthYear} this year)`);
    const bare = personaSheet({ name: "Blank", interests: [], personality: [] });
    expect(bare).toBe("Name: Blank\nPersona type: Character");
  });

  it("gives the model the voice, placeholders filled, and asks it to speak so and never contradict the facts", () => {
    const voiced: ChatPersona = {
      ...NOVA,
      voice: {
        greeting: "Hi {{user}}!",
        speechStyle: "Bubbly, lots of exclamation marks.",
        catchphrases: ["Let's gooo!", "Stay cozy, {{user}}!"],
        exampleDialogue:
          "<START>\n{{user}}: Hi!\n{{char}}: Oh hi, {{user}}! *waves*\n<START>\n<USER>: Games?\n<BOT>: Rhythm games, always.",
        appearance: "{{char}} has violet hair and a star hairpin.",
        scenario: "{{char}} is streaming late at night when {{user}} drops into the chat.",
      },
    };
    const prompt = chatSystemPrompt(voiced);
    expect(prompt).toContain("Speech style: Bubbly, lots of exclamation marks.");
    expect(prompt).toContain('Catchphrases: "Let\'s gooo!", "Stay cozy, you!"');
    expect(prompt).toContain(
      "Example dialogue:\nUser: Hi!\nNova Lumen: Oh hi, you! *waves*\n\nUser: Games?\nNova Lumen: Rhythm games, always.",
    );
    expect(prompt).toContain("Appearance: Nova Lumen has violet hair and a star hairpin.");
    expect(prompt).toContain("Scenario: Nova Lumen is streaming late at night when the user drops into the chat.");
    expect(prompt).toMatch(/Speak in the speech style below/);
    expect(prompt).toMatch(/catchphrases now and then/);
    expect(prompt).toMatch(/do not copy its lines word for word/);
    expect(prompt).toMatch(/never contradict them/);
    expect(prompt).toContain(
      `You are born in ${extended.birthplace}, living in ${extended.currentResidence}, born in ${extended.birthYear}.`,
    );
    expect(prompt).not.toMatch(/\{\{|\}\}|<START>|<BOT>|<USER>/);
    // The greeting is the chat's first message, not part of the prompt.
    expect(prompt).not.toContain("Hi you!");
    // Without a voice, no voice section and no style instructions.
    expect(chatSystemPrompt(NOVA)).not.toContain("Your voice:");
    expect(chatSystemPrompt(NOVA)).not.toMatch(/speech style|catchphrase/i);
    expect(exampleDialogueText("{{user}}: a\r\n{{char}}: b", "X")).toBe("User: a\nX: b");
  });

  it("asks the model to stay in character, then sends the window, then what not to repeat", () => {
    expect(chatSystemPrompt(NOVA)).toMatch(/^You are Nova Lumen/);
    const messages = chatPromptMessages({ ...ask("Hi"), avoid: ["An old reply."] });
    expect(messages.map((m) => m.role)).toEqual(["system", "user", "system"]);
    expect(messages[1]!.content).toBe("Hi");
    expect(messages[2]!.content).toContain("An old reply.");
  });
});

describe("the embedded responder", () => {
  it("does not go along with a memory of something it never said, and corrects it from the sheet", () => {
    expect(topicOf("Remember when you told me you grew up in Oslo?")).toBe("misremembered");
    expect(topicOf("Wait, didn't you say you were born in Tallinn?")).toBe("misremembered");
    expect(topicOf("Where were you born?")).toBe("origin");
    const born = composeChatReply(ask("Remember when you told me you grew up in Oslo?"));
    expect(born).toMatch(/\b(no|nope|never|don't think)\b/i);
    expect(born).toContain(extended.birthplace);
    expect(born).not.toMatch(/^yes/i);
    const job = composeChatReply(ask("Last time you said you used to work as a dentist. How was that?"));
    expect(job.toLowerCase()).toContain(extended.occupation.toLowerCase().split(/\s+(?:and|&)\s+|,\s*/)[0]!);
    expect(composeChatReply(ask("Remember when you told me your real name was Ingrid?"))).toContain("Nova");
  });

  it("answers questions about itself from the profile", () => {
    expect(composeChatReply(ask("Where are you from?"))).toContain(extended.birthplace);
    expect(composeChatReply(ask("Where do you live these days?"))).toContain(extended.currentResidence);
    expect(composeChatReply(ask("What do you do for a living?")).toLowerCase()).toContain(extended.occupation.toLowerCase());
    expect(composeChatReply(ask("What's your motto?"))).toContain(extended.motto);
    expect(composeChatReply(ask("What are your goals?")).toLowerCase()).toContain(extended.goals.short.toLowerCase());
    expect(composeChatReply(ask("What's your favorite food?")).toLowerCase()).toContain(extended.favoriteFood.toLowerCase());
    expect(composeChatReply(ask("What languages do you speak?"))).toContain("English");
    const likes = composeChatReply(ask("What are your hobbies?")).toLowerCase();
    expect(extended.hobbies.some((h) => likes.includes(h.toLowerCase()))).toBe(true);
    expect(composeChatReply(ask("Who are you?"))).toContain("Nova Lumen");
  });

  it("never quotes the user's words back, and answers feelings with empathy", () => {
    const message = "I feel like nobody watches my streams and I want to quit.";
    const reply = composeChatReply(ask(message));
    expect(reply).not.toContain("nobody watches my streams");
    expect(reply).not.toMatch(/"I feel|I.d love to hear more about/);
    expect(reply).toMatch(/sorry|hard|rough|oh no/i);
    expect(composeChatReply(ask("Traceback (most recent call last):\nValueError: bad"))).toMatch(/^Code errors\? .*not my world/i);
    expect(composeChatReply(ask("Lazy Sunday?"))).not.toMatch(/^I'm an? /);
  });

  it("tells its age and birth year from the sheet", () => {
    expect(composeChatReply(ask("What year were you born?"))).toContain(String(extended.birthYear));
    expect(composeChatReply(ask("How old are you?"))).toContain(String(new Date().getUTCFullYear() - extended.birthYear));
  });

  it("reads what is asked", () => {
    expect(topicOf("hey there")).toBe("greeting");
    expect(topicOf("How are you?")).toBe("howAreYou");
    expect(topicOf("where did you grow up?")).toBe("origin");
    expect(topicOf("Thanks a lot")).toBe("thanks");
    expect(topicOf("Is the sky blue?")).toBe("question");
    expect(topicOf("I had a long day.")).toBe("statement");
    expect(topicOf("I had a rough day.")).toBe("feelingDown");
    expect(composeChatReply(ask("I had a rough day."))).toMatch(/sorry|rough|hard|oh no/i);
    expect(composeChatReply(ask("I got the job!"))).toMatch(/amazing|love that|fantastic/i);
  });

  it("small talk follows the traits: an Outgoing persona talks differently from a Reserved one", () => {
    const outgoing = { ...NOVA, personality: ["Outgoing", "Social", "Passionate"] };
    const reserved = { ...NOVA, personality: ["Reserved", "Quiet", "Calm"] };
    for (const message of ["Hi!", "How are you?", "Thanks!", "Bye!"]) {
      const loud = composeChatReply(ask(message, outgoing));
      const quiet = composeChatReply(ask(message, reserved));
      expect(loud).not.toBe(quiet);
      expect(loud).toContain("!");
      expect(quiet).not.toContain("!");
    }
  });

  it("is deterministic, and never repeats its previous reply verbatim", () => {
    const input = ask("Hi!");
    const reply = composeChatReply(input);
    expect(composeChatReply(input)).toBe(reply);
    // The same greeting again, right after that reply: another answer.
    const history: ChatTurn[] = [
      { role: "user", content: "Hi!" },
      { role: "assistant", content: reply },
    ];
    let next = composeChatReply(ask("Hi!", NOVA, history));
    expect(next).not.toBe(reply);
    // Even in a long run of the same question, no two consecutive replies are equal.
    const turns: ChatTurn[] = [];
    let previous = "";
    for (let i = 0; i < 30; i++) {
      next = composeChatReply(ask("Thanks", NOVA, turns));
      expect(next).not.toBe(previous);
      turns.push({ role: "user", content: "Thanks" }, { role: "assistant", content: next });
      previous = next;
    }
    // A regenerate avoids the reply it replaces.
    expect(composeChatReply({ ...input, avoid: [reply] })).not.toBe(reply);
  });

  it("costs the same for a 1,000-message history as for its last 20 messages", () => {
    const long = Array.from({ length: 1000 }, (_, i): ChatTurn => ({ role: i % 2 ? "assistant" : "user", content: `Message number ${i}` }));
    const input = ask("What inspires you?", NOVA, long);
    expect(composeChatReply(input)).toBe(composeChatReply({ ...input, history: input.history.slice(-CHAT_HISTORY_WINDOW) }));
  });

  it("answers in well under 20 ms (p95) in-process", () => {
    const questions = ["Hi", "Where are you from?", "What do you do?", "Tell me about yourself", "What's your motto?", "I had a long day."];
    const history = Array.from({ length: 19 }, (_, i): ChatTurn => ({
      role: i % 2 ? "assistant" : "user",
      content: `Earlier message ${i} `.repeat(20),
    }));
    const times: number[] = [];
    for (let i = 0; i < 300; i++) {
      const started = performance.now();
      composeChatReply({
        personaId: `p${i}`,
        persona: NOVA,
        history: [...history, { role: "user", content: questions[i % questions.length]! }],
      });
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    expect(times[Math.floor(times.length * 0.95)]!).toBeLessThan(20);
  });

  it("works for a persona with only a name", () => {
    const bare: ChatPersona = { name: "Blank", interests: [], personality: [] };
    for (const message of [
      "Hi",
      "Where are you from?",
      "What do you do?",
      "What are your hobbies?",
      "Goals?",
      "Tell me your story",
      "Hmm.",
    ]) {
      const reply = composeChatReply(ask(message, bare));
      expect(reply.length).toBeGreaterThan(0);
      expect(reply).not.toMatch(/undefined|null|\{|\}/);
    }
  });
});

describe("the local generator's chatReply", () => {
  it("answers at once, or word by word when the caller shows it live", async () => {
    const generator = createLocalTextGenerator({ chatPaceMs: 1 });
    const input = ask("Tell me about yourself");
    const whole: string[] = [];
    for await (const piece of generator.chatReply(input)) whole.push(piece);
    expect(whole).toHaveLength(1);
    const live: string[] = [];
    for await (const piece of generator.chatReply(input, { live: true })) live.push(piece);
    expect(live.length).toBe(replyPieces(whole[0]!).length);
    expect(live.join("")).toBe(whole[0]);
  });

  it("stops with AiError timeout when the caller aborts", async () => {
    const generator = createLocalTextGenerator({ chatPaceMs: 5 });
    const controller = new AbortController();
    const pieces: string[] = [];
    const run = async () => {
      for await (const piece of generator.chatReply(ask("Tell me about yourself"), { live: true, signal: controller.signal })) {
        pieces.push(piece);
        if (pieces.length === 2) controller.abort();
      }
    };
    await expect(run()).rejects.toBeInstanceOf(AiError);
    expect(pieces).toHaveLength(2);
  });
});
