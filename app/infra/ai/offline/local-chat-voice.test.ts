// The embedded responder as a creator tries a voice with it (docs/product.md, Chat and Voice): a
// fixed set of 60 messages over 5 personas — questions about the fact sheet, hobbies, feelings,
// things the persona cannot help with, small talk and follow-ups — each persona in one running
// conversation. The set measures: fact questions answered with the sheet's fact (at least 90%),
// no echo of the user's words in quotes, no city but the sheet's, no two replies alike, and never
// out of character. Then the speech styles, catchphrases, example dialogue and Regenerate.
import { describe, expect, it } from "vitest";

import { CONTENT_BY_TYPE, extendedProfile } from "~/domain/extended-profile";

import { composeChatReply, OUT_OF_CHARACTER, replySimilarity, styleOf, topicOf } from "./local-chat.server";
import type { ChatPersona, ChatTurn } from "../types";

type Fact = "born" | "lives" | "work" | "family" | "languages" | "education" | "age" | "birthYear";
type Kind = Fact | "hobbies" | "feelings" | "offTopic" | "smallTalk" | "followUp";

interface Case {
  persona: string;
  id: string;
  sheet: ChatPersona;
  messages: [Kind, string][];
}

function persona(
  id: string,
  base: { name: string; type: string; gender: string; ageRange: string; interests: string[]; personality: string[] },
) {
  return { id, base, extended: extendedProfile({ id, ...base }) };
}

const kira = persona("voice-kira", {
  name: "Kira Moon",
  type: "vtuber",
  gender: "female",
  ageRange: "18-24",
  interests: ["gaming", "music"],
  personality: ["Outgoing", "Creative", "Entertaining"],
});
const theo = persona("voice-theo", {
  name: "Theo Park",
  type: "content",
  gender: "male",
  ageRange: "25-34",
  interests: ["entertainment", "tech"],
  personality: ["Direct", "Curious", "Skeptical"],
});
const clara = persona("voice-clara", {
  name: "Clara Hayes",
  type: "advisor",
  gender: "female",
  ageRange: "35-44",
  interests: ["business", "fitness"],
  personality: ["Organized", "Stable", "Empathetic"],
});
const neko = persona("voice-neko", {
  name: "Neko-chan",
  type: "companion",
  gender: "non-binary",
  ageRange: "18-24",
  interests: ["gaming", "art", "cooking"],
  personality: ["Spontaneous", "Imaginative", "Trusting"],
});
const ada = persona("voice-ada", {
  name: "Ada Okafor",
  type: "educator",
  gender: "female",
  ageRange: "45-54",
  interests: ["science", "education"],
  personality: ["Educational", "Calm", "Reflective"],
});

const PYTHON_ERROR = `Traceback (most recent call last):
  File "main.py", line 12, in <module>
    total = sum(values) / len(values)
ZeroDivisionError: division by zero`;

const CASES: Case[] = [
  {
    persona: "Kira (VTuber; bubbly, exclamation marks, catchphrases, example dialogue)",
    id: kira.id,
    sheet: {
      ...kira.base,
      description: "A night-owl streamer who sings between boss fights.",
      extended: kira.extended,
      voice: {
        greeting: "*waves at the camera* Heyyy {{user}}! Welcome to the late-night stream!",
        speechStyle: "Bubbly and energetic, lots of exclamation marks.",
        catchphrases: ["Let's gooo!", "Stay cozy, chat!"],
        exampleDialogue: [
          "<START>",
          "{{user}}: Hi Kira!",
          "{{char}}: *adjusts headset* Oh hi hi! You made it, the chat is so much cozier now!",
          "<START>",
          "{{user}}: What games do you play?",
          "{{char}}: Rhythm games and cozy farming sims, and the occasional horror game when chat dares me!",
        ].join("\n"),
      },
    },
    messages: [
      ["born", "Where were you born?"],
      ["followUp", "Really? Tell me more."],
      ["lives", "Where do you live now?"],
      ["hobbies", "What games do you play?"],
      ["work", "What do you do for a living?"],
      ["feelings", "Nobody watches my streams and I want to quit"],
      ["followUp", "Why?"],
      ["offTopic", PYTHON_ERROR],
      ["smallTalk", "Lazy Sunday?"],
      ["age", "How old are you?"],
      ["languages", "What languages do you speak?"],
      ["family", "Tell me about your family."],
    ],
  },
  {
    persona: "Theo (content creator; short sentences)",
    id: theo.id,
    sheet: {
      ...theo.base,
      extended: { ...theo.extended, occupation: "Video essayist" },
      voice: { speechStyle: "Short sentences. Dry and to the point.", catchphrases: ["Context matters."] },
    },
    messages: [
      ["smallTalk", "Lazy Sunday?"],
      ["work", "So what do you do?"],
      ["followUp", "How come?"],
      ["born", "Where are you from originally?"],
      ["education", "Did you go to university?"],
      ["birthYear", "What year were you born?"],
      ["feelings", "I feel like nobody watches my videos and I want to give up."],
      ["hobbies", "What do you do for fun?"],
      ["offTopic", "Can you fix my Python code? It throws a KeyError on line 4."],
      ["lives", "Where are you based these days?"],
      ["languages", "Do you speak any other languages?"],
      ["family", "Do you have siblings?"],
    ],
  },
  {
    persona: "Clara (advisor; formal and polite)",
    id: clara.id,
    sheet: {
      ...clara.base,
      extended: clara.extended,
      voice: {
        speechStyle: "Formal and polite; never uses slang.",
        catchphrases: ["Steady wins the race."],
        exampleDialogue: "{{user}}: Any advice on money?\n{{char}}: Pay yourself first, then decide what the rest is for.",
      },
    },
    messages: [
      ["work", "What's your job?"],
      ["education", "Where did you study?"],
      ["born", "Where did you grow up?"],
      ["followUp", "Interesting, tell me more"],
      ["feelings", "I had a terrible day at work and my boss yelled at me."],
      ["offTopic", "What's 348 * 27?"],
      ["family", "Are you close to your parents?"],
      ["age", "What's your age?"],
      ["hobbies", "Any hobbies?"],
      ["lives", "Which city do you live in?"],
      ["birthYear", "When were you born?"],
      ["smallTalk", "Coffee or tea?"],
    ],
  },
  {
    persona: "Neko (companion; playful, says nya, lowercase)",
    id: neko.id,
    sheet: {
      ...neko.base,
      extended: neko.extended,
      voice: {
        speechStyle: 'Playful cyber-cat, ends sentences with "nya", writes in lowercase.',
        catchphrases: ["purr-fect!"],
        appearance: "Neko-chan has silver hair, glowing cat ears and a violet hoodie.",
      },
    },
    messages: [
      ["lives", "Where do you live?"],
      ["born", "And where were you born?"],
      ["languages", "What languages can you speak?"],
      ["feelings", "I'm so lonely lately."],
      ["followUp", "What do you mean?"],
      ["hobbies", "What are your hobbies?"],
      ["work", "What do you do all day?"],
      ["offTopic", "Write me an essay about the French Revolution."],
      ["education", "What was your education like?"],
      ["age", "How old are you, kitty?"],
      ["smallTalk", "Rainy weather today, huh?"],
      ["family", "Do you have family?"],
    ],
  },
  {
    persona: "Ada (educator; no voice set, traits only)",
    id: ada.id,
    sheet: { ...ada.base, extended: ada.extended },
    messages: [
      ["born", "Where were you born?"],
      ["lives", "Where do you live these days?"],
      ["work", "What's your profession?"],
      ["followUp", "Why?"],
      ["education", "What's your educational background?"],
      ["hobbies", "What do you like to do in your free time?"],
      ["feelings", "I failed my exam and I feel awful."],
      ["offTopic", "TypeError: Cannot read properties of undefined (reading 'map') at render (App.js:12:5)"],
      ["languages", "Which languages do you speak?"],
      ["birthYear", "What year were you born in?"],
      ["family", "Tell me about your family"],
      ["smallTalk", "What are you up to today?"],
    ],
  },
];

const city = (place: string) => place.split(",")[0]!.trim();
/** Every city the generators know: the profile's lists, and the hometowns earlier backstories named. */
const CITIES = [
  ...new Set([
    ...Object.values(CONTENT_BY_TYPE).flatMap((c) => c.cities.map(city)),
    ...["Maine", "Melbourne", "Lisbon", "Saskatchewan", "Osaka", "Manchester", "Nairobi", "Brittany", "Seoul", "Mexico City"],
    ...["North Carolina", "Cape Town", "Finland", "Toronto", "Amsterdam"],
  ]),
];

/** The words of a sheet's text that matter (four letters or more), as the persona would say them. */
const keyWords = (text: string) =>
  text
    .toLowerCase()
    .replace(/\btheir\b/g, "my")
    .replace(/\bthem\b/g, "me")
    .split(/[^\p{L}\p{N}'-]+/u)
    .filter((w) => w.length >= 4);

/** Whether a reply gives the sheet's fact the question asks for. */
function givesFact(fact: Fact, reply: string, sheet: ChatPersona): boolean {
  const x = sheet.extended!;
  const text = reply.toLowerCase();
  const hasAll = (value: string, share = 0.8) => {
    const words = keyWords(value);
    return words.filter((w) => text.includes(w)).length >= Math.ceil(words.length * share);
  };
  switch (fact) {
    case "born":
      return text.includes(city(x.birthplace!).toLowerCase());
    case "lives":
      return text.includes(city(x.currentResidence!).toLowerCase());
    case "work":
      return text.includes(x.occupation!.toLowerCase());
    case "family":
      return hasAll(x.socialCircle!.family!);
    case "languages":
      return x.languages!.every((l) => text.includes(l.toLowerCase()));
    case "education":
      return hasAll(x.education!);
    case "birthYear":
      return text.includes(String(x.birthYear));
    case "age": {
      const age = new Date().getUTCFullYear() - x.birthYear!;
      return text.includes(String(x.birthYear)) || text.includes(String(age)) || text.includes(String(age - 1));
    }
  }
}

/** Quoted passages of the reply that repeat four or more words of the user's message in a row. */
function quotedEcho(reply: string, message: string): string | null {
  const norm = (t: string) =>
    t
      .toLowerCase()
      .replace(/[^\p{L}\p{N}' ]+/gu, " ")
      .replace(/\s+/g, " ")
      .trim();
  const said = norm(message).split(" ");
  for (const match of reply.matchAll(/["“”'‘’«»]([^"“”«»]{8,})["“”'‘’«»]/g)) {
    const quoted = ` ${norm(match[1]!)} `;
    for (let i = 0; i + 4 <= said.length; i++) if (quoted.includes(` ${said.slice(i, i + 4).join(" ")} `)) return match[0];
  }
  return null;
}

interface Reply {
  persona: string;
  kind: Kind;
  message: string;
  reply: string;
  sheet: ChatPersona;
}

export function runSet(): Reply[] {
  const replies: Reply[] = [];
  for (const c of CASES) {
    const history: ChatTurn[] = c.sheet.voice?.greeting ? [{ role: "assistant", content: c.sheet.voice.greeting }] : [];
    for (const [kind, message] of c.messages) {
      history.push({ role: "user", content: message });
      const reply = composeChatReply({ personaId: c.id, persona: c.sheet, history: [...history] });
      history.push({ role: "assistant", content: reply });
      replies.push({ persona: c.persona, kind, message, reply, sheet: c.sheet });
    }
  }
  return replies;
}

const FACTS: readonly Kind[] = ["born", "lives", "work", "family", "languages", "education", "age", "birthYear"];

describe("the embedded responder over a fixed set of 60 messages", () => {
  const replies = runSet();
  const facts = replies.filter((r) => FACTS.includes(r.kind));

  it("is the set: 60 messages, 5 personas, every kind of message", () => {
    expect(replies).toHaveLength(60);
    expect(new Set(replies.map((r) => r.persona)).size).toBe(5);
    expect(new Set(facts.map((r) => r.kind)).size).toBe(8);
    expect(facts.length).toBeGreaterThanOrEqual(25);
  });

  it("answers at least 90% of the questions about the fact sheet with the sheet's fact", () => {
    const missed = facts.filter((r) => !givesFact(r.kind as Fact, r.reply, r.sheet));
    const rate = (facts.length - missed.length) / facts.length;
    console.info(
      `fact questions answered with the sheet's fact: ${facts.length - missed.length}/${facts.length} (${Math.round(rate * 100)}%)`,
    );
    expect(missed.map((r) => `${r.persona} · ${r.message} → ${r.reply}`)).toEqual([]);
    expect(rate).toBeGreaterThanOrEqual(0.9);
  });

  it("never repeats the user's words back in quotes", () => {
    const echoes = replies.map((r) => quotedEcho(r.reply, r.message)).filter((e) => e !== null);
    expect(echoes).toEqual([]);
    for (const r of replies) expect(r.reply).not.toMatch(/I'd love to hear more about/);
  });

  it("names no city but the sheet's birthplace and residence", () => {
    const contradictions: string[] = [];
    for (const r of replies) {
      const own = [city(r.sheet.extended!.birthplace!), city(r.sheet.extended!.currentResidence!)];
      for (const other of CITIES) {
        if (!own.includes(other) && new RegExp(`\\b${other}\\b`).test(r.reply))
          contradictions.push(`${r.persona} · ${r.message} → ${other}`);
      }
      if (r.sheet.extended!.birthYear) {
        for (const year of r.reply.match(/\b(19|20)\d\d\b/g) ?? []) expect(Number(year)).toBe(r.sheet.extended!.birthYear);
      }
    }
    expect(contradictions).toEqual([]);
  });

  it("gives 60 different replies, all in character", () => {
    expect(new Set(replies.map((r) => r.reply)).size).toBe(60);
    for (const r of replies) {
      expect(r.reply).not.toMatch(OUT_OF_CHARACTER);
      expect(r.reply).not.toMatch(/undefined|null|NaN|\{\{|\}\}/);
      expect(r.reply.trim().length).toBeGreaterThan(0);
    }
  });

  it("answers feelings with empathy, not a template echo", () => {
    for (const r of replies.filter((r) => r.kind === "feelings")) {
      expect(r.reply).toMatch(/sorry|hard|heavy|rough|oh no|been there|not alone|makes sense/i);
      expect(r.reply).not.toMatch(/interesting|got it|fair enough|reminds me/i);
    }
  });

  it("says in character what it cannot help with, naming what it is instead", () => {
    for (const r of replies.filter((r) => r.kind === "offTopic")) {
      expect(r.reply).not.toMatch(/reminds me of something/i);
      const work = r.sheet.extended!.occupation!.toLowerCase();
      const code = topicOf(r.message) === "offTopic" && /error|code|traceback/i.test(r.message);
      const knows = (code && r.sheet.interests.includes("tech")) || (!code && r.sheet.type === "educator");
      if (!knows) {
        expect(r.reply.toLowerCase()).toContain(work);
        expect(r.reply).toMatch(/not my world/i);
      } else {
        expect(r.reply).toMatch(/can't run or check|only help with in theory/i);
      }
    }
    const kiraCode = replies.find((r) => r.persona.startsWith("Kira") && r.kind === "offTopic")!;
    expect(kiraCode.reply).toMatch(/^Code errors\? (Honestly, )?not my world/i);
  });

  it("meets small talk with small talk", () => {
    for (const r of replies.filter((r) => r.kind === "smallTalk")) {
      expect(r.reply).not.toMatch(/^I'?m an? /i);
      expect(r.reply).not.toMatch(/I (work as|am) an? (video essayist|virtual)/i);
    }
  });

  it("answers a follow-up with more about what was just said, not the same again", () => {
    replies.forEach((r, i) => {
      if (r.kind !== "followUp") return;
      const before = replies[i - 1]!;
      expect(replySimilarity(r.reply, before.reply)).toBeLessThan(0.5);
    });
  });

  it("reads the set's messages as the kinds they are", () => {
    for (const r of replies) {
      const topic = topicOf(r.message);
      if (r.kind === "feelings") expect(topic).toBe("feelingDown");
      if (r.kind === "offTopic") expect(topic).toBe("offTopic");
    }
  });
});

describe("the voice in the embedded responder", () => {
  const replies = runSet();
  const of = (name: string) => replies.filter((r) => r.persona.startsWith(name)).map((r) => r.reply);

  it("reads the speech style's cues", () => {
    expect(styleOf([], "Short sentences. Dry and to the point.")).toMatchObject({ short: true, formal: false });
    expect(styleOf([], "Bubbly, lots of exclamation marks")).toMatchObject({ exclaims: true, energy: "outgoing" });
    expect(styleOf(["Outgoing"], "No exclamation marks, ever.")).toMatchObject({ exclaims: false, calm: true });
    expect(styleOf([], "Formal and polite")).toMatchObject({ formal: true });
    expect(styleOf([], "Casual, never formal")).toMatchObject({ formal: false });
    expect(styleOf([], "uses nya a lot")).toMatchObject({ tic: "nya" });
    expect(styleOf([], 'ends every sentence with "desu"')).toMatchObject({ tic: "desu" });
    expect(styleOf([], "writes in lowercase with ellipses and emoji")).toMatchObject({ lowercase: true, trailing: true, emoji: true });
    expect(styleOf(["Reserved"], null)).toMatchObject({ energy: "reserved", calm: true, short: false });
  });

  it("'lots of exclamation marks' ends statements with '!'", () => {
    for (const reply of of("Kira")) {
      const statements = reply.split(/(?<=[.!?…])\s+/).filter((s) => !/[?*"”]$/.test(s));
      for (const statement of statements) expect(statement, reply).toMatch(/!$/);
    }
  });

  it("'short sentences' keeps replies to three short sentences", () => {
    for (const reply of of("Theo")) {
      const sentences = reply.split(/(?<=[.!?…])\s+/);
      expect(sentences.length).toBeLessThanOrEqual(4); // three, and a catchphrase now and then
      for (const s of sentences) expect(s.split(" ").length).toBeLessThanOrEqual(16);
    }
  });

  it("'formal' drops contractions and slang", () => {
    for (const reply of of("Clara")) {
      expect(reply).not.toMatch(/\b(I'm|I've|I'd|don't|can't|it's|that's|you're|gonna|yeah|hey)\b/i);
      expect(reply).not.toContain("!");
    }
  });

  it("'ends sentences with nya, lowercase' does both", () => {
    const neko = of("Neko");
    for (const reply of neko) {
      expect(reply).toBe(reply.toLowerCase());
      expect(reply).toMatch(/, nya[.!?]|purr-fect/);
    }
  });

  it("weaves a catchphrase in now and then, not in every reply and never twice in a row", () => {
    for (const [name, phrases] of [
      ["Kira", ["let's gooo", "stay cozy, chat"]],
      ["Theo", ["context matters"]],
      ["Clara", ["steady wins the race"]],
    ] as const) {
      const said = of(name).map((reply) => phrases.some((p) => reply.toLowerCase().includes(p)));
      const count = said.filter(Boolean).length;
      expect(count, name).toBeGreaterThan(0);
      expect(count, name).toBeLessThan(said.length / 2);
      for (let i = 1; i < said.length; i++) expect(said[i] && said[i - 1], `${name} ${i}`).toBe(false);
    }
  });

  it("uses the example dialogue's lines where they fit", () => {
    const kira = CASES[0]!;
    const games = composeChatReply({
      personaId: kira.id,
      persona: kira.sheet,
      history: [{ role: "user", content: "What games do you play?" }],
    });
    expect(games).toContain("Rhythm games and cozy farming sims");
    const hello = composeChatReply({
      personaId: kira.id,
      persona: kira.sheet,
      history: [
        { role: "assistant", content: "Welcome!" },
        { role: "user", content: "Hi Kira!" },
      ],
    });
    expect(hello).toMatch(/cozier|Hey|Hi|Hello/);
  });

  it("opens with the greeting when a conversation starts without it", () => {
    const kira = CASES[0]!;
    const reply = composeChatReply({ personaId: kira.id, persona: kira.sheet, history: [{ role: "user", content: "Hello!" }] });
    expect(reply).toBe("*waves at the camera* Heyyy you! Welcome to the late-night stream!");
  });

  it("describes its appearance from the voice", () => {
    const neko = CASES[3]!;
    const reply = composeChatReply({
      personaId: neko.id,
      persona: neko.sheet,
      history: [{ role: "user", content: "What do you look like?" }],
    });
    expect(reply).toContain("silver hair");
    expect(reply).not.toContain("neko-chan has");
  });
});

describe("Regenerate", () => {
  const messages = [
    "Is pineapple on pizza okay?",
    "Lazy Sunday?",
    "Nobody watches my streams and I want to quit",
    "Where were you born?",
    "Why?",
  ];

  it("gives a genuinely different reply each time, never a variant of the one before", () => {
    for (const c of CASES) {
      for (const message of messages) {
        const history: ChatTurn[] = [
          { role: "user", content: "Hi!" },
          { role: "assistant", content: "Hello there!" },
          { role: "user", content: message },
        ];
        const first = composeChatReply({ personaId: c.id, persona: c.sheet, history });
        const second = composeChatReply({ personaId: c.id, persona: c.sheet, history, avoid: [first] });
        const third = composeChatReply({ personaId: c.id, persona: c.sheet, history, avoid: [second] });
        expect(second).not.toBe(first);
        expect(third).not.toBe(second);
        expect(replySimilarity(first, second), `${c.persona} · ${message}\n${first}\n${second}`).toBeLessThan(0.6);
        expect(replySimilarity(second, third), `${c.persona} · ${message}\n${second}\n${third}`).toBeLessThan(0.6);
        for (const reply of [first, second, third]) expect(reply).not.toMatch(/perfect answer/i);
        // Deterministic: the same regenerate gives the same reply.
        expect(composeChatReply({ personaId: c.id, persona: c.sheet, history, avoid: [first] })).toBe(second);
      }
    }
  });
});
