// The embedded chat responder (ARCHITECTURE.md: "local generator: deterministic, offline, built
// from the persona's fields"). It reads what the user's last message asks about (where the
// persona is from, what they do, what they like, their goals or motto, family, routine…) and
// answers in the first person with the facts of the persona's profile; greetings and small talk
// are styled by the traits, so a Reserved persona talks differently from an Outgoing one.
//
// - Deterministic: a seed from the persona id and the conversation window picks the variants,
//   so the same history gives the same reply.
// - Never repeats its previous reply (or one being regenerated) verbatim: other variants are
//   tried, then a fresh closing line is added.
// - Bounded: only the window from chat-prompt.ts is read, so the cost does not grow with the
//   length of the conversation.
import { PERSONA_TYPE_LABELS, type PersonaType } from "~/domain/persona";
import { hashString, mulberry32, type Random } from "~/domain/random";

import { chatWindow } from "../chat-prompt";
import { capText, CHAT_REPLY_MAX_CHARS, type ChatInput, type ChatPersona } from "../types";

// ---------------------------------------------------------------- voice

type Energy = "outgoing" | "reserved" | "neutral";

const OUTGOING = ["Outgoing", "Social", "Assertive", "Passionate", "Entertaining", "Spontaneous"];
const RESERVED = ["Reserved", "Quiet", "Reflective", "Calm", "Cautious"];

interface Voice {
  energy: Energy;
  humorous: boolean;
  warm: boolean;
  direct: boolean;
  teacher: boolean;
  inspiring: boolean;
}

function voiceOf(traits: readonly string[]): Voice {
  const score = traits.reduce((n, t) => n + (OUTGOING.includes(t) ? 1 : 0) - (RESERVED.includes(t) ? 1 : 0), 0);
  return {
    energy: score > 0 ? "outgoing" : score < 0 ? "reserved" : "neutral",
    humorous: traits.includes("Humorous") || traits.includes("Entertaining"),
    warm: traits.some((t) => ["Empathetic", "Compassionate", "Sensitive", "Trusting"].includes(t)),
    direct: traits.some((t) => ["Direct", "Practical", "Focused"].includes(t)),
    teacher: traits.includes("Educational"),
    inspiring: traits.some((t) => ["Inspirational", "Aspirational"].includes(t)),
  };
}

const OPENERS: Record<Energy, string[]> = {
  outgoing: ["Oh, I love this question!", "Ha, great question!", "Ooh, okay, let me tell you!", "Yes! Finally someone asks!"],
  reserved: ["Hm, let me think.", "Well.", "That's a fair question.", "Let me see."],
  neutral: ["Good question.", "Sure.", "Happy to share.", "Glad you asked."],
};

const FOLLOW_UPS: Record<Energy, string[]> = {
  outgoing: ["What about you?!", "Your turn, tell me everything!", "Now I want to hear yours!", "How about you? Spill!"],
  reserved: ["And you?", "What about you, if you don't mind me asking?", "I'd be curious to hear yours.", "How about you?"],
  neutral: ["What about you?", "How about you?", "I'd love to hear yours.", "Does that sound like you too?"],
};

const GREETINGS: Record<Energy, string[]> = {
  outgoing: [
    "Hey hey! So good to see you!",
    "Hi! Oh, this just made my day!",
    "Hello there! I was hoping you'd drop by!",
    "Hey! Welcome, come on in!",
  ],
  reserved: ["Hello.", "Hi. It's nice to see you.", "Oh, hello. Good to hear from you.", "Hi there."],
  neutral: ["Hi there!", "Hello! Nice to see you.", "Hey, good to hear from you.", "Hi! Welcome back."],
};

const HOW_ARE_YOU: Record<Energy, string[]> = {
  outgoing: [
    "I'm fantastic, honestly buzzing today!",
    "Doing great, I've had way too much energy since this morning!",
    "Amazing, thanks for asking! Today's been a good one.",
  ],
  reserved: [
    "I'm well, thank you. It's been a quiet day, which suits me.",
    "Fine, thanks. A calm sort of day.",
    "I'm doing alright. Thank you for asking.",
  ],
  neutral: ["I'm doing well, thanks for asking!", "Pretty good, thank you!", "All good here, thanks."],
};

const THANKS: Record<Energy, string[]> = {
  outgoing: ["Aww, anytime!", "Of course! That's what I'm here for!", "You're so welcome!"],
  reserved: ["You're welcome.", "Of course.", "Glad I could help."],
  neutral: ["You're welcome!", "Anytime.", "Happy to help!"],
};

const GOODBYES: Record<Energy, string[]> = {
  outgoing: ["Bye for now! Come back soon, okay?!", "See you! This was so much fun!", "Take care! Talk soon!"],
  reserved: ["Goodbye. Take care.", "Until next time.", "Take care of yourself."],
  neutral: ["Bye! Talk soon.", "Take care!", "See you next time!"],
};

const JOKES = [
  "(I'd tell you a joke about it, but I'm still workshopping the punchline.)",
  "Don't tell anyone, but I practice my answers in the mirror.",
  "If that sounded rehearsed, it's because it absolutely was.",
  "I promise I'm more interesting than my browser history suggests.",
];

const WARMTH = ["I really appreciate you asking.", "It means a lot that you're curious.", "Thanks for taking the time to ask me that."];

// ---------------------------------------------------------------- facts

const DEFAULT_FACTS = {
  birthplace: "a small town I still think about",
  currentResidence: "a city that keeps me busy",
  occupation: "a creator",
  education: "Mostly learned by doing",
  favoriteFood: "a good homemade meal",
  motto: "Keep going and stay curious.",
  dailyRoutine: "Every day looks a little different.",
};

/** A profile phrase written about the persona, turned toward the first person. */
function firstPerson(text: string): string {
  return (
    text
      .replace(/\bthemselves\b/g, "myself")
      .replace(/\btheirs\b/g, "mine")
      .replace(/\btheir\b/g, "my")
      // "them" is the persona only after a verb done to it; "keeping them in a notebook" is not.
      .replace(/\b(taught|told|helped|gave|made|raised|showed|pushed|encouraged|inspired|let|sent|took) them\b/g, "$1 me")
      .replace(/\bthey are\b/gi, "I am")
  );
}

/** "Collecting board games" → "collecting board games" (but not "English" or "I"). */
function lowerFirst(text: string): string {
  const word = text.split(" ")[0] ?? "";
  if (word === "A") return `a${text.slice(1)}`;
  if (word.length > 1 && word === word[0] + word.slice(1).toLowerCase() && !/^[A-Z][a-z]+(ese|ish|ian|an)$/.test(word)) {
    return text.charAt(0).toLowerCase() + text.slice(1);
  }
  return text;
}

function joinList(items: readonly string[]): string {
  const clean = items.map((i) => lowerFirst(firstPerson(i.replace(/[.!]+$/, ""))));
  if (clean.length <= 1) return clean[0] ?? "";
  return `${clean.slice(0, -1).join(", ")} and ${clean.at(-1)}`;
}

const sentence = (text: string) => {
  const t = firstPerson(text.trim());
  return /[.!?…]$/.test(t) ? t : `${t}.`;
};

function shortName(name: string): string {
  const words = name.replace(/\s+/g, " ").trim().split(" ");
  return words.length > 1 && /^[A-Z]/.test(words[0]!) && words[0]!.length > 2 ? words[0]! : name.trim();
}

function typeWork(type: string | null | undefined): string {
  return type && type in PERSONA_TYPE_LABELS ? PERSONA_TYPE_LABELS[type as PersonaType] : "creator";
}

// ---------------------------------------------------------------- what is asked

type Topic =
  | "greeting"
  | "howAreYou"
  | "identity"
  | "origin"
  | "residence"
  | "work"
  | "education"
  | "languages"
  | "food"
  | "places"
  | "goals"
  | "motto"
  | "family"
  | "friends"
  | "routine"
  | "challenges"
  | "influences"
  | "skills"
  | "age"
  | "story"
  | "likes"
  | "thanks"
  | "goodbye"
  | "feelingDown"
  | "feelingUp"
  | "question"
  | "statement";

const TOPICS: [Topic, RegExp][] = [
  [
    "howAreYou",
    /\bhow (are|r) (you|u)\b|how's it going|how is it going|how are things|how have you been|how do you feel|what's up\b|how's your day/,
  ],
  [
    "identity",
    /what('s| is) your name|who are you|introduce yourself|tell me about yourself|describe yourself|what are you like|your personality/,
  ],
  ["origin", /where .*\b(from|born|grow up|grew up)\b|hometown|birthplace|where were you raised/],
  ["residence", /where .*\b(live|living|based|stay)\b|your home\b|current(ly)? li/],
  ["work", /what do you do|your (job|work|career|profession|occupation)|for a living|do you work|what you do\b/],
  ["education", /\b(study|studied|school|education|university|college|degree|learn(ed)? to)\b/],
  ["languages", /\blanguages?\b|do you speak|what do you speak/],
  ["food", /\b(food|eat|dish|meal|cuisine|hungry|dinner|lunch|breakfast)\b/],
  ["places", /favou?rite (place|spot)|where do you (like to )?go|places?\b/],
  ["goals", /\b(goals?|dreams?|ambitions?|plans?|future|aspire|hope to|want to achieve|next for you)\b/],
  ["motto", /\b(motto|philosophy|believe in|words to live by|life lesson|advice)\b/],
  ["family", /\b(family|parents?|mother|mom|father|dad|siblings?|brothers?|sisters?)\b/],
  ["friends", /\b(friends?|colleagues?|co-?workers?|team|crew)\b/],
  ["routine", /\b(routine|typical day|your day|mornings?|evenings?|schedule)\b/],
  ["challenges", /\b(challenges?|hardest|difficult|overcome|struggle|obstacle)\b/],
  ["influences", /\b(influences?|inspires?|inspiration|role models?|heroes|idols?)\b/],
  ["skills", /\b(secret|skills?|talents?|good at|surprise me)\b/],
  ["age", /how old|your age|when were you born|what year/],
  ["story", /your (story|past|background|childhood|backstory)|growing up/],
  [
    "likes",
    /\b(hobby|hobbies|like to do|free time|spare time|for fun|interests?|passions?|into\b|enjoy|love doing|what do you (like|love))/,
  ],
  ["thanks", /\b(thanks|thank you|thx|ty|cheers|appreciate)\b/],
  ["goodbye", /\b(bye|goodbye|good night|see you|see ya|talk (to you )?later|gotta go|cya)\b/],
];

const FEELING_DOWN =
  /\b(rough|bad|sad|tired|awful|terrible|stressed|stressful|exhausted|worst|upset|angry|lonely|sick|anxious|worried|depressed|down|hard day|lost my|failed)\b/;
const FEELING_UP = /\b(great|happy|excited|awesome|amazing|wonderful|fantastic|got the job|passed|won|proud|good news)\b/;

const GREETING = /^(hi|hello|hey|hiya|howdy|yo|heya|greetings|good (morning|afternoon|evening)|hallo|hola|sup)\b/;

export function topicOf(message: string): Topic {
  const text = message.toLowerCase().replace(/[’‘]/g, "'").replace(/\s+/g, " ").trim();
  for (const [topic, pattern] of TOPICS) if (pattern.test(text)) return topic;
  if (GREETING.test(text)) return "greeting";
  if (text.endsWith("?")) return "question";
  if (FEELING_DOWN.test(text)) return "feelingDown";
  if (FEELING_UP.test(text)) return "feelingUp";
  return "statement";
}

// ---------------------------------------------------------------- composing

interface Parts {
  persona: ChatPersona;
  voice: Voice;
  random: Random;
  pick: <T>(items: readonly T[]) => T;
  name: string;
}

function answer(topic: Topic, p: Parts, lastUser: string): string[] {
  const x = p.persona.extended ?? {};
  const interests = p.persona.interests.length > 0 ? [...p.persona.interests] : ["what I do"];
  const traits = p.persona.personality;
  const hobbies = x.hobbies && x.hobbies.length > 0 ? x.hobbies : interests;
  const occupation = lowerFirst(x.occupation ?? DEFAULT_FACTS.occupation);
  switch (topic) {
    case "greeting":
      return [
        p.pick(GREETINGS[p.voice.energy]),
        p.pick([
          `I'm ${p.name}. What's on your mind today?`,
          `${p.name} here. What would you like to talk about?`,
          `What brings you here today?`,
          `I was just thinking about ${p.pick(interests)}. What's new with you?`,
        ]),
      ];
    case "howAreYou":
      return [
        p.pick(HOW_ARE_YOU[p.voice.energy]),
        p.pick([
          `I spent part of it on ${lowerFirst(p.pick(hobbies))}.`,
          `I've been thinking a lot about ${p.pick(interests)} lately.`,
          x.dailyRoutine
            ? `${sentence(x.dailyRoutine.split(/(?<=\.)\s/)[0] ?? x.dailyRoutine)}`
            : `Nothing dramatic, just the usual rhythm.`,
        ]),
        p.pick(FOLLOW_UPS[p.voice.energy]).replace(/^What about you\?/, "How are you doing?"),
      ];
    case "identity":
      return [
        `I'm ${p.persona.name.trim()}, ${/^[aeiou]/i.test(typeWork(p.persona.type)) ? "an" : "a"} ${typeWork(p.persona.type)}.`,
        p.persona.description ? sentence(p.persona.description) : `I work as ${/^[aeiou]/i.test(occupation) ? "an" : "a"} ${occupation}.`,
        traits.length > 0
          ? p.pick([
              `People usually describe me as ${joinList(traits.slice(0, 3).map((t) => t.toLowerCase()))}.`,
              `If you had to sum me up: ${joinList(traits.slice(0, 3).map((t) => t.toLowerCase()))}.`,
            ])
          : `I'm still figuring out how to describe myself, honestly.`,
        `I'm really into ${joinList(interests)}.`,
      ];
    case "origin":
      return [
        p.pick([
          `I was born in ${x.birthplace ?? DEFAULT_FACTS.birthplace}.`,
          `I'm originally from ${x.birthplace ?? DEFAULT_FACTS.birthplace}.`,
          `${x.birthplace ?? DEFAULT_FACTS.birthplace} is where it all started for me.`,
        ]),
        x.currentResidence ? `These days I live in ${x.currentResidence}.` : "",
        x.socialCircle?.family ? `My family? ${sentence(x.socialCircle.family)}` : "",
      ];
    case "residence":
      return [
        p.pick([
          `I live in ${x.currentResidence ?? DEFAULT_FACTS.currentResidence} now.`,
          `Home is ${x.currentResidence ?? DEFAULT_FACTS.currentResidence} these days.`,
        ]),
        x.birthplace ? `I grew up in ${x.birthplace}, though.` : "",
        x.favoritePlaces?.length ? `One of my favorite spots is ${lowerFirst(p.pick(x.favoritePlaces))}.` : "",
      ];
    case "work":
      return [
        p.pick([
          `I'm ${/^[aeiou]/i.test(occupation) ? "an" : "a"} ${occupation}.`,
          `Work-wise, I'm ${/^[aeiou]/i.test(occupation) ? "an" : "a"} ${occupation}.`,
        ]),
        `Most of what I make is about ${joinList(interests)}.`,
        x.socialCircle?.colleagues ? `I work with ${lowerFirst(firstPerson(x.socialCircle.colleagues.replace(/\.$/, "")))}.` : "",
      ];
    case "education":
      return [sentence(x.education ?? DEFAULT_FACTS.education), `Honestly, ${p.pick(interests)} taught me as much as any classroom.`];
    case "languages":
      return [
        x.languages?.length ? `I speak ${joinList(x.languages)}.` : "I speak English.",
        p.pick(["I'm always trying to get better, too.", "Languages open so many doors.", "Ask me to order coffee in any of them!"]),
      ];
    case "food":
      return [
        p.pick([
          `My favorite food? ${sentence(x.favoriteFood ?? DEFAULT_FACTS.favoriteFood)}`,
          `Easy: ${lowerFirst(sentence(x.favoriteFood ?? DEFAULT_FACTS.favoriteFood))}`,
        ]),
        p.persona.interests.includes("cooking") ? "I cook it myself whenever I can." : "I could eat it every week.",
      ];
    case "places":
      return [
        x.favoritePlaces?.length
          ? `My favorite places are ${joinList(x.favoritePlaces)}.`
          : `Anywhere I can think about ${p.pick(interests)}.`,
        x.currentResidence ? `Living in ${x.currentResidence} helps with that.` : "",
      ];
    case "goals":
      return [
        x.goals?.short
          ? `Right now I want to ${lowerFirst(x.goals.short.replace(/\.$/, ""))}.`
          : `Right now I'm focused on ${p.pick(interests)}.`,
        x.goals?.long ? `Long term, I'd love to ${lowerFirst(x.goals.long.replace(/\.$/, ""))}.` : "",
        p.voice.inspiring ? `If I can do it, so can anyone.` : "",
      ];
    case "motto":
      return [
        p.pick([`My motto is "${x.motto ?? DEFAULT_FACTS.motto}"`, `I try to live by this: "${x.motto ?? DEFAULT_FACTS.motto}"`]),
        `It's gotten me through a lot.`,
      ];
    case "family":
      return [
        x.socialCircle?.family ? `My family? ${sentence(x.socialCircle.family)}` : "My family is small but close.",
        x.birthplace ? `We're from ${x.birthplace}.` : "",
      ];
    case "friends":
      return [
        x.socialCircle?.friends ? `My friends? ${sentence(x.socialCircle.friends)}` : "I have a few close friends.",
        x.socialCircle?.colleagues ? `At work there's ${lowerFirst(firstPerson(x.socialCircle.colleagues.replace(/\.$/, "")))}.` : "",
      ];
    case "routine":
      return [x.dailyRoutine ? sentence(x.dailyRoutine) : DEFAULT_FACTS.dailyRoutine];
    case "challenges":
      return [
        x.challengesOvercome
          ? `The hardest thing? I ${lowerFirst(firstPerson(x.challengesOvercome.replace(/\.$/, "")))}.`
          : "I've had my share of setbacks.",
        p.pick(["It taught me a lot.", "I'm proud of that one.", "I wouldn't change it, looking back."]),
      ];
    case "influences":
      return [
        x.influences?.length ? `I'd say ${joinList(x.influences)} shaped me the most.` : `Everyone I've met in ${p.pick(interests)}.`,
      ];
    case "skills":
      return [
        x.secretSkills?.length
          ? `Okay, secret skills: ${joinList(x.secretSkills.map((s) => s.replace(/^(Has|Can|Is) /, "")))}.`
          : "I can't reveal all my secrets!",
        p.voice.humorous ? "Please don't ask for a demonstration." : "Not many people know that.",
      ];
    case "age":
      return [
        p.persona.ageRange ? `I'm in the ${p.persona.ageRange} bracket.` : "Old enough to know better!",
        "I'll keep the exact number to myself.",
      ];
    case "story":
      return [
        p.persona.backstory
          ? capText(firstPersonStory(p.persona.backstory, p.persona.name), 400)
          : `I grew up in ${x.birthplace ?? DEFAULT_FACTS.birthplace}.`,
        `That's where my love of ${p.pick(interests)} began.`,
      ];
    case "likes":
      return [
        p.pick([`I love ${joinList(hobbies.slice(0, 3))}.`, `In my free time it's ${joinList(hobbies.slice(0, 3))}.`]),
        `And of course ${joinList(interests)}.`,
      ];
    case "thanks":
      return [p.pick(THANKS[p.voice.energy])];
    case "goodbye":
      return [p.pick(GOODBYES[p.voice.energy])];
    case "feelingDown":
      return [
        p.pick(
          p.voice.energy === "outgoing"
            ? ["Oh no, I'm so sorry!", "Ugh, that sounds rough!", "Oh no, come here, tell me everything!"]
            : ["I'm sorry to hear that.", "That sounds hard.", "I'm sorry. That's a lot."],
        ),
        p.pick([
          `When my days go like that, ${lowerFirst(p.pick(hobbies))} usually helps me reset.`,
          x.motto ? `I try to remember my motto on days like that: "${x.motto}"` : "Be gentle with yourself tonight.",
          "Do you want to talk about it?",
        ]),
      ];
    case "feelingUp":
      return [
        p.pick(
          p.voice.energy === "reserved"
            ? ["That's good to hear.", "I'm glad.", "That's lovely news."]
            : ["That's amazing!", "Yes! I love that for you!", "That's fantastic news!"],
        ),
        p.pick(["What made it so good?", "Tell me more!", "You deserve it."]),
      ];
    case "question":
      return [
        p.pick([`That's a good one to think about.`, `Hmm, I'd have to think about that.`, `I don't have a perfect answer for that.`]),
        p.pick([
          `As someone into ${joinList(interests)}, I'd look at it through that lens.`,
          `My gut says to trust what feels honest, which is also how I approach ${p.pick(interests)}.`,
          x.motto ? `I usually come back to my motto: "${x.motto}"` : `I'd start small and see where it goes.`,
        ]),
      ];
    case "statement":
      return [
        p.voice.warm
          ? p.pick([`Thank you for telling me that.`, `I hear you.`, `That sounds like it matters to you.`])
          : p.pick([`Interesting.`, `Got it.`, `Oh, nice.`, `Fair enough.`]),
        p.pick([
          `It reminds me of something from ${p.pick(interests)}.`,
          `That's the kind of thing I'd bring up with ${lowerFirst(firstPerson((x.socialCircle?.friends ?? "my friends").replace(/\.$/, "")))}.`,
          `I'd love to hear more about "${capText(lastUser.replace(/\s+/g, " "), 60)}".`,
        ]),
      ];
  }
}

/** The opening sentences of the backstory, told by the persona. */
function firstPersonStory(backstory: string, name: string): string {
  const first = shortName(name);
  const opening = backstory
    .replace(/\s+/g, " ")
    .trim()
    .split(/(?<=[.!?])\s+/)
    .slice(0, 2)
    .join(" ");
  return opening
    .split(name.trim())
    .join("I")
    .split(first)
    .join("I")
    .replace(/\b(He|She|They) (was|were)\b/g, "I was")
    .replace(/\b(he|she|they) (was|were)\b/g, "I was")
    .replace(/\b(His|Her|Their)\b/g, "My")
    .replace(/\b(his|her|their)\b/g, "my")
    .replace(/\b(She|He|They)\b/g, "I")
    .replace(/\b(she|he|they)\b/g, "I")
    .replace(/\bI's\b/g, "my");
}

function compose(input: ChatInput, attempt: number): string {
  const window = chatWindow(input.history);
  const lastUser = [...window].reverse().find((t) => t.role === "user")?.content ?? "";
  const seedText = [input.personaId, attempt, ...window.map((t) => `${t.role}:${t.content}`), ...(input.avoid ?? [])].join("\n");
  const random = mulberry32(hashString(seedText));
  const pick = <T>(items: readonly T[]): T => items[Math.min(items.length - 1, Math.floor(random() * items.length))]!;
  const voice = voiceOf(input.persona.personality);
  const parts: Parts = { persona: input.persona, voice, random, pick, name: shortName(input.persona.name) };
  const topic = topicOf(lastUser);
  const body = answer(topic, parts, lastUser).filter((s) => s.trim() !== "");
  const lines: string[] = [];
  const factual = !["greeting", "howAreYou", "thanks", "goodbye", "statement", "feelingDown", "feelingUp"].includes(topic);
  if (factual && !voice.direct && random() < 0.8) lines.push(pick(OPENERS[voice.energy]));
  lines.push(...(voice.direct ? body.slice(0, 2) : body));
  if (voice.warm && factual && random() < 0.5) lines.push(pick(WARMTH));
  if (voice.humorous && topic !== "feelingDown" && random() < 0.6) lines.push(pick(JOKES));
  if (voice.teacher && factual && random() < 0.5)
    lines.push(
      `Fun fact: ${pick(input.persona.interests.length ? input.persona.interests : ["curiosity"])} is full of surprises if you dig in.`,
    );
  if (factual && !voice.direct && random() < 0.6) lines.push(pick(FOLLOW_UPS[voice.energy]));
  let reply = lines.join(" ").replace(/\s+/g, " ").trim();
  // Calm personas do not shout.
  if (voice.energy === "reserved") reply = reply.replace(/!+/g, ".").replace(/\.\.+/g, ".").replace(/\?\./g, "?");
  return capText(reply, CHAT_REPLY_MAX_CHARS);
}

const CLOSERS = ["Anyway, that's me.", "Ask me anything else.", "I could go on.", "Where were we?", "Tell me more about you."];

/** The persona's reply to the last user message of the input. */
export function composeChatReply(input: ChatInput): string {
  const banned = new Set<string>([...(input.avoid ?? [])]);
  const lastReply = [...input.history].reverse().find((t) => t.role === "assistant");
  if (lastReply) banned.add(lastReply.content);
  let reply = "";
  for (let attempt = 0; attempt < 6; attempt++) {
    reply = compose(input, attempt);
    if (!banned.has(reply)) return reply;
  }
  for (const closer of CLOSERS) {
    const extended = `${reply} ${closer}`;
    if (!banned.has(extended)) return extended;
  }
  return `${reply} (${banned.size + 1})`;
}

// ---------------------------------------------------------------- streaming

/** Splits a reply into word-sized pieces whose concatenation is the reply. */
export function replyPieces(reply: string): string[] {
  return reply.match(/\S+\s*/g) ?? [reply];
}
