// The embedded chat responder (docs/product.md, Chat): deterministic, offline, built from the
// persona's fields. It reads what the user's last message is (a question about the persona's
// facts, small talk, a feeling, a follow-up, something the persona cannot help with…) and
// answers in the first person, in the persona's voice:
//
// - Facts come from the fact sheet (the Extended Persona Profile): birthplace, residence,
//   occupation, education, languages, family, birth year and the rest. Nothing else is claimed
//   about them: backstory and example lines that name another known city or year are left out.
// - The voice (docs/product.md, Voice) shapes the wording: the speech style's plain cues (see
//   styleOf; the post-history instructions' and author's note's too), a catchphrase now and then,
//   the example dialogue's lines where they fit the message, and the greeting when a
//   conversation opens without one. Traits set the tone.
// - Lore (docs/product.md, Lore in chat): a question about the subject of one of the lore entries
//   the reply may draw on (ChatInput.lore: one of its keys in the message) is answered from the
//   entry, told in the first person; the entry is the creator's word, so it is not checked against
//   the sheet as example lines are.
// - Never repeats the user's words back in quotes, and never says it is an AI.
// - Deterministic: a seed from the persona id, the conversation window and the replies to avoid
//   picks the variants, so the same input gives the same reply.
// - Never repeats a reply still in the window; a regenerated reply (ChatInput.avoid) is the
//   least similar of a few drafts, so it says something else rather than the same in other words.
// - Bounded: only the window from chat-prompt.ts is read, and at most REGENERATE_DRAFTS drafts are
//   written, so the cost does not grow with the length of the conversation.
import { CONTENT_BY_TYPE } from "~/domain/extended-profile";
import { loreSentences } from "~/domain/lore-compile";
import { keyMatcher } from "~/domain/lorebook";
import { PERSONA_TYPE_PROSE, PERSONA_TYPES, type PersonaType } from "~/domain/persona";
import { fillPlaceholders } from "~/domain/persona-voice";
import { hashString, mulberry32, type Random } from "~/domain/random";

import phrases from "./local-chat-phrases.json";
import { chatWindow } from "../chat-prompt";
import { capText, CHAT_REPLY_MAX_CHARS, type ChatInput, type ChatLoreEntry, type ChatPersona, type ChatTurn } from "../types";

// ---------------------------------------------------------------- tone and speech style

type Energy = "outgoing" | "reserved" | "neutral";

const OUTGOING = ["Outgoing", "Social", "Assertive", "Passionate", "Entertaining", "Spontaneous"];
const RESERVED = ["Reserved", "Quiet", "Reflective", "Calm", "Cautious"];

/** How the persona talks: the traits' tone, then what the speech style asks for. */
export interface Style {
  energy: Energy;
  humorous: boolean;
  warm: boolean;
  direct: boolean;
  teacher: boolean;
  inspiring: boolean;
  /** At most three short sentences, no padding. */
  short: boolean;
  /** Statements end with '!'. */
  exclaims: boolean;
  /** No '!' at all. */
  calm: boolean;
  /** No contractions and no slang. */
  formal: boolean;
  /** Everything in lower case. */
  lowercase: boolean;
  /** Every other sentence trails off with '…'. */
  trailing: boolean;
  /** One emoji at the end. */
  emoji: boolean;
  /** A word added to every other sentence ('nya', 'desu', …). */
  tic: string | null;
}

/** Verbal tics recognized by name in a speech style, quoted or not. */
const KNOWN_TICS = ["nya", "nyan", "desu", "uwu", "meow", "mate", "dude", "y'know", "ya know", "innit", "eh", "lol", "~"];

const NEGATION = /\b(no|never|not|without|avoids?|rarely|hardly|doesn't|don't|isn't|zero)\b[^,.;]{0,20}$/;

/** Whether a cue is in the style: "on", "off" when negated ('no exclamation marks', 'never formal'), or null. */
function cue(style: string, pattern: RegExp): "on" | "off" | null {
  const match = pattern.exec(style);
  if (!match) return null;
  return NEGATION.test(style.slice(Math.max(0, match.index - 40), match.index)) ? "off" : "on";
}

/**
 * The style a persona speaks in. The speech style is read for plain cues, each with one simple
 * effect on the wording (docs/product.md, Voice):
 *
 *   short, brief, terse, concise, few words, blunt, curt           → at most three short sentences
 *   exclamation, excited, enthusiastic, energetic, bubbly, loud,
 *   hyper, cheerful                                                → statements end with '!'
 *   calm, quiet, soft, shy, gentle, monotone, 'no exclamation…'    → no '!'
 *   formal, polite, proper, eloquent, courteous, old-fashioned     → no contractions or slang
 *   lowercase, lower case, no capital                              → all lower case
 *   ellipses, ellipsis, trails off, '...'                          → every other sentence ends with '…'
 *   emoji                                                          → one emoji at the end
 *   a tic named in it ('nya', 'desu', …) or a quoted word after
 *   says / adds / uses / ends sentences with                       → added to every other sentence
 *
 * A negated cue ('never formal', 'no emoji') is off. Without a speech style the traits decide.
 */
export function styleOf(traits: readonly string[], speechStyle?: string | null): Style {
  const score = traits.reduce((n, t) => n + (OUTGOING.includes(t) ? 1 : 0) - (RESERVED.includes(t) ? 1 : 0), 0);
  const text = (speechStyle ?? "").toLowerCase().replace(/[’‘]/g, "'");
  const exclamation = cue(text, /exclamation|excit|enthusias|energetic|bubbly|\bloud\b|hyper|cheerful|peppy/);
  const calm = cue(text, /\bcalm|quiet|\bsoft|\bshy\b|gentle|monoton|deadpan|understated/);
  const exclaims = exclamation === "on";
  const hush = calm === "on" || exclamation === "off";
  let energy: Energy = score > 0 ? "outgoing" : score < 0 ? "reserved" : "neutral";
  if (exclaims) energy = "outgoing";
  else if (hush) energy = "reserved";
  return {
    energy,
    humorous: traits.includes("Humorous") || traits.includes("Entertaining"),
    warm: traits.some((t) => ["Empathetic", "Compassionate", "Sensitive", "Trusting"].includes(t)),
    direct: traits.some((t) => ["Direct", "Practical", "Focused"].includes(t)),
    teacher: traits.includes("Educational"),
    inspiring: traits.some((t) => ["Inspirational", "Aspirational"].includes(t)),
    short: cue(text, /\bshort|brief|terse|concise|few words|\bblunt|\bcurt\b|to the point|clipped/) === "on",
    exclaims,
    calm: hush || (energy === "reserved" && !exclaims),
    formal: cue(text, /formal|polite|\bproper\b|eloquent|courteous|old-fashioned|archaic|refined/) === "on" && !/informal/.test(text),
    lowercase: cue(text, /lower ?case|no capital|without capital/) === "on" || /\bno capitals?\b/.test(text),
    trailing: cue(text, /ellips[ie]s|trails? off|\.\.\.|…/) === "on",
    emoji: cue(text, /emoji|emoticon/) === "on",
    tic: ticOf(text),
  };
}

function ticOf(style: string): string | null {
  const quoted =
    /\b(?:says?|adds?|uses?|ends? (?:\w+ )?with|tacks? on|peppers? \w+ with|punctuates? \w+ with)\s+["'“‘]([^"'”’]{1,20})["'”’]/.exec(
      style,
    );
  if (quoted && quoted[1]!.trim().split(/\s+/).length <= 3) return quoted[1]!.trim();
  for (const tic of KNOWN_TICS) {
    if (tic === "~" ? /tilde|~/.test(style) : new RegExp(`(^|[^a-z'])${tic}($|[^a-z])`).test(style)) return tic;
  }
  return null;
}

// The fixed phrases (by the persona's energy; the facts a sheet without them falls back to) are
// data, in local-chat-phrases.json. Lines made from the persona's own facts, and the patterns
// that choose them, stay here next to the code that matches them.
const OPENERS: Record<Energy, string[]> = phrases.OPENERS;

const FOLLOW_UPS: Record<Energy, string[]> = phrases.FOLLOW_UPS;

const GREETINGS: Record<Energy, string[]> = phrases.GREETINGS;

const HOW_ARE_YOU: Record<Energy, string[]> = phrases.HOW_ARE_YOU;

const THANKS: Record<Energy, string[]> = phrases.THANKS;

const GOODBYES: Record<Energy, string[]> = phrases.GOODBYES;

const JOKES = phrases.JOKES;

const WARMTH = phrases.WARMTH;

// ---------------------------------------------------------------- facts

const DEFAULT_FACTS = phrases.DEFAULT_FACTS;

const city = (place: string) => place.split(",")[0]!.trim();

/**
 * Places the generators know (the profile's cities, and the hometowns earlier backstories
 * named): a line naming one the sheet does not is left out, so chat never contradicts the sheet.
 */
const KNOWN_PLACES = [
  ...new Set([
    ...Object.values(CONTENT_BY_TYPE).flatMap((content) => content.cities.map(city)),
    ...["Maine", "Melbourne", "Lisbon", "Saskatchewan", "Osaka", "Manchester", "Nairobi", "Brittany", "Seoul", "Mexico City"],
    ...["North Carolina", "Cape Town", "Finland", "South Island", "Midwest", "northern Italy"],
  ]),
].map((place) => ({ place, pattern: new RegExp(`\\b${place.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\b`) }));

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

/** "Collecting board games" → "collecting board games" (but not "English", "VTuber" or "I"). */
function lowerFirst(text: string): string {
  const word = text.split(" ")[0] ?? "";
  if (word === "A") return `a${text.slice(1)}`;
  if (word.length > 1 && word === word[0] + word.slice(1).toLowerCase() && !/^[A-Z][a-z]+(ese|ish|ian|an)$/.test(word)) {
    return text.charAt(0).toLowerCase() + text.slice(1);
  }
  return text;
}

/** 'a' or 'an' before a word, by its sound ('an MBA', 'a VTuber', 'an art director'). */
function article(word: string): string {
  if (/^[A-Z]{2,}/.test(word)) return /^[AEFHILMNORSX]/.test(word) ? "an" : "a";
  return /^[aeiou]/i.test(word) && !/^(uni|use|eu|one)/i.test(word) ? "an" : "a";
}

const withArticle = (phrase: string) => `${article(phrase)} ${phrase}`;

function joinWords(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? "";
  return `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

function joinList(items: readonly string[]): string {
  return joinWords(items.map((i) => lowerFirst(firstPerson(i.replace(/[.!]+$/, "")))));
}

const sentence = (text: string) => {
  const t = firstPerson(text.trim());
  return /[.!?…]$/.test(t) ? t : `${t}.`;
};

const bare = (text: string) => firstPerson(text.trim().replace(/[.!]+$/, ""));

function shortName(name: string): string {
  const words = name.replace(/\s+/g, " ").trim().split(" ");
  return words.length > 1 && /^[A-Z]/.test(words[0]!) && words[0]!.length > 2 ? words[0]! : name.trim();
}

/** The persona's work as a noun phrase without article: the sheet's occupation, else its type. */
function workOf(persona: ChatPersona): string {
  if (persona.extended?.occupation) return lowerFirst(bare(persona.extended.occupation));
  return PERSONA_TYPES.includes(persona.type as PersonaType) ? PERSONA_TYPE_PROSE[persona.type as PersonaType] : "creator";
}

/** The sheet's education as the persona says it ('Degree in Journalism' → 'I have a degree in Journalism.'). */
export function educationSentence(education: string): string {
  const e = bare(education);
  if (/^(Studied|Trained|Learned|Graduated|Took|Earned|Completed|Attended|Went|Mostly|Taught|Spent)\b/.test(e))
    return `I ${lowerFirst(e)}.`;
  if (/^Self-taught\b/.test(e))
    return /^Self-taught( |,)(through|from|via|by|with|on|at|in)\b/.test(e) ? `I'm ${lowerFirst(e)}.` : `I'm a ${lowerFirst(e)}.`;
  if (/^Certified\b/.test(e)) return `I'm a ${lowerFirst(e)}.`;
  if (/^(Bachelor|Master|Degree|Diploma|Associate|Certificate|PhD|MBA|Doctorate|Ph\.D|MA|BA|BSc|MSc|High school diploma)\b/.test(e)) {
    const phrase = lowerFirst(e);
    return `I have ${withArticle(phrase)}.`;
  }
  return `Education-wise: ${lowerFirst(e)}.`;
}

/** The sheet's family as the persona says it ('Has an older brother…' → 'I have an older brother…'). */
export function familySentence(family: string): string {
  const f = bare(family);
  const [first = "", ...rest] = f.split(" ");
  const tail = rest.join(" ");
  const verbs: Record<string, string> = { Has: "I have", Lives: "I live", Is: "I'm", Grew: "I grew", Comes: "I come", Spends: "I spend" };
  if (verbs[first]) return `${verbs[first]} ${tail}.`;
  if (/^(Raised|Born|Brought|Adopted)$/.test(first)) return `I was ${lowerFirst(f)}.`;
  if (/^(Close|Part|An|A|The|Very|Proud|Estranged|One)$/.test(first)) return `I'm ${lowerFirst(f)}.`;
  return `My family? ${sentence(f)}`;
}

/** The year it is, for an age said from the birth year. */
const thisYear = () => new Date().getUTCFullYear();

// ---------------------------------------------------------------- what is asked

export type Topic =
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
  | "birthYear"
  | "appearance"
  | "catchphrase"
  | "story"
  | "likes"
  | "joke"
  | "compliment"
  | "ack"
  | "have"
  | "thanks"
  | "goodbye"
  | "feelingDown"
  | "feelingUp"
  | "offTopic"
  | "smallTalk"
  | "followUp"
  | "reciprocal"
  | "misremembered"
  | "opinion"
  | "question"
  | "statement";

/** Topics answered from the fact sheet. */
const FACT_TOPICS: readonly Topic[] = [
  "identity",
  "origin",
  "residence",
  "work",
  "education",
  "languages",
  "food",
  "places",
  "goals",
  "motto",
  "family",
  "friends",
  "routine",
  "challenges",
  "influences",
  "skills",
  "age",
  "birthYear",
  "appearance",
  "catchphrase",
  "story",
  "likes",
];

const TOPICS: [Topic, RegExp][] = [
  [
    "howAreYou",
    /\bhow (are|r) (you|u)\b|how's it going|how is it going|how are things|how have you been|how do you feel\b(?! about)|what's up\b|how's your day|how is your day/,
  ],
  [
    "identity",
    /what('s| is) your name|who are you|introduce yourself|tell me about yourself|describe yourself|what are you like|your personality/,
  ],
  ["birthYear", /what year were you born|when were you born|(year|date) of (your )?birth|your birth ?(year|day)|birthday/],
  ["origin", /where .*\b(from|born|grow up|grew up)\b|hometown|birthplace|where were you raised|where are you originally/],
  ["residence", /where .*\b(live|living|based|stay|reside)\b|your home\b|current(ly)? li|which city/],
  [
    "work",
    /what do you do(?! for fun| in your (free|spare)| on (the )?weekends?| to relax)|your (job|work|career|profession|occupation)|for a living|do you work|what you do\b|what's your day job/,
  ],
  ["education", /\b(study|studied|school|educat\w*|university|college|degree|learn(ed)? to|train(ed)? in|graduate[ds]?)\b/],
  ["languages", /\blanguages?\b|do you speak|what do you speak|how many .*speak/],
  ["age", /how old|your age|what age\b/],
  [
    "catchphrase",
    /\bcatch ?phrases?\b|what do you (always|often|usually) say|favou?rite (saying|phrase|expression|line)|your (signature|go-to) (line|phrase|saying)|what('s| is) your (saying|line)\b/,
  ],
  ["appearance", /what do you look like|your (appearance|looks|hair|eyes|outfit)|describe your (look|face|style)/],
  ["food", /\b(food|eat|dish|meal|cuisine|hungry|dinner|lunch|breakfast)\b/],
  [
    "smallTalk",
    /\b(sundays?|saturdays?|weekends?|mondays?|fridays?|weather|rain(y|ing)?|sunny|snow(ing)?|coffee|tea\b|lazy|chill(ing)?|up to (today|tonight)?\b|doing today|doing tonight|busy day)\b/,
  ],
  ["places", /favou?rite (place|spot)|where do you (like to )?go|places?\b/],
  ["goals", /\b(goals?|dreams?|ambitions?|plans?|future|aspire|hope to|want to achieve|next for you)\b/],
  ["motto", /\b(motto|philosophy|believe in|words to live by|life lesson|advice)\b/],
  ["family", /\b(family|parents?|mother|mom|mum|father|dad|siblings?|brothers?|sisters?|grandm\w+|grandp\w+)\b/],
  ["friends", /\b(friends?|colleagues?|co-?workers?|team|crew)\b/],
  ["routine", /\b(routine|typical day|your day|mornings?|evenings?|schedule)\b/],
  ["challenges", /\b(challenges?|hardest|difficult|overcome|struggle|obstacle)\b/],
  ["influences", /\b(influences?|inspires?|inspiration|role models?|heroes|idols?)\b/],
  ["skills", /\b(secret|skills?|talents?|good at|surprise me)\b/],
  ["story", /your (story|past|background|childhood|backstory)|growing up/],
  [
    "likes",
    /\b(hobby|hobbies|like to do|free time|spare time|for fun|interests?|passions?|into|enjoy|love doing|what do you (like|love)|what (games|music|songs|shows|movies|books|sports) do you)\b/,
  ],
  ["joke", /\b(tell me a joke|make me laugh|say something funny|know any jokes)\b/],
  ["thanks", /\b(thanks|thank you|thx|ty|cheers|appreciate)\b/],
  ["goodbye", /\b(bye|goodbye|good night|see you|see ya|talk (to you )?later|gotta go|cya)\b/],
];

/** Work the persona cannot do in a chat, by kind: what it is called, and how it shows. */
const OFF_TOPIC: { kind: "code" | "math" | "writing" | "medical" | "legal"; label: string; pattern: RegExp }[] = [
  {
    kind: "code",
    label: "Code errors",
    pattern:
      /traceback \(most recent call last\)|\b\w+(error|exception)\b:|\bat [\w.$<>]+ \(.+:\d+(:\d+)?\)|^\s*(def|class|import|from \S+ import|function|const|let|var|public|#include)\b|\bline \d+, in\b|stack ?trace|segfault|null pointer|undefined is not|syntax error|\b(debug|compile|regex|sql query|python|javascript|typescript|java|c\+\+|rust code|my code|this code|the code|a script|a function)\b/,
  },
  {
    kind: "math",
    label: "Math problems",
    pattern: /\b\d+(\.\d+)?\s*[-+*/x×÷^]\s*\d+\b|\b(solve|equation|integral|derivative|calculate|algebra|calculus|homework problem)\b/,
  },
  {
    kind: "writing",
    label: "Essays and cover letters",
    pattern:
      /\b(write|draft) (me )?(an? )?(essay|cover letter|resume|cv|email|report|contract)\b|\b(summari[sz]e|translate) (this|that|the)\b/,
  },
  {
    kind: "medical",
    label: "Medical questions",
    pattern: /\b(diagnos\w*|symptoms?|dosage|prescription|medication|rash|should i see a doctor)\b/,
  },
  { kind: "legal", label: "Legal questions", pattern: /\b(lawsuit|sue|legal advice|my lawyer|is it legal|contract law)\b/ },
];

const FEELING_DOWN =
  /\b(rough|bad|sad|tired|awful|terrible|stressed|stressful|exhausted|worst|upset|angry|lonely|alone|sick|anxious|worried|depressed|down|hard day|lost my|failed|quit|give up|giving up|nobody|no one|hate|miss|cry|crying|burn(ed|t)? out|burnout|hopeless|pointless|useless|overwhelmed|can't do this|scared|afraid|hurts?)\b/;
const FEELING_UP =
  /\b(great|happy|excited|awesome|amazing|wonderful|fantastic|got the job|passed|won|proud|good news|finally did|made it|promoted|hit \d+)\b/;

const GREETING = /^(hi|hello|hey|hiya|howdy|yo|heya|greetings|good (morning|afternoon|evening)|hallo|hola|sup)\b/;
const FOLLOW_UP =
  /^(why( not)?|how come|really|seriously|what do you mean|like what|such as|for example|tell me more|more|go on|and then|how so|in what way|what else|is that so|no way|oh really|oh|wow|interesting|anything else|what kind)\b/;
const RECIPROCAL = /(^|[\s,.!])(and |what about |how about )?(you|u|yourself)\s*\??$/;
const ACK = /^(hmm+|hm+|ok(ay)?|k|lol|lmao|haha+|hehe+|cool|nice|sure|yeah|yep|yes|no|nope|nah|idk|i see|right|true|fair|same|mhm+|oh)\W*$/;
const COMPLIMENT =
  /^(you('re| are)|ur) (so |really |very |such an? )?(funny|cool|awesome|great|sweet|kind|smart|amazing|cute|nice|the best|lovely|wonderful)\b/;
const OPINION =
  /^(do|did|would|will|have|are|could) (you|u)\b|what do you think|your (opinion|take|thoughts)|how do you feel about|thoughts on\b/;

/** The user recalls something the persona is supposed to have said (docs/product.md, Persona tests: long conversations). */
const MISREMEMBERED =
  /\b(remember (when|that) you (told|said)|didn't you (say|tell)|did you not (say|tell)|you (once |already )?(told|said to) me|last time you (said|told)|you said (last time|before|earlier)|you told me (last time|before|once))\b/;

const normalized = (message: string) => message.toLowerCase().replace(/[’‘]/g, "'").replace(/\s+/g, " ").trim();

/** What a message is, without the conversation around it (see topicInContext for follow-ups). */
export function topicOf(message: string): Topic {
  const raw = message.replace(/[’‘]/g, "'");
  const text = normalized(message);
  if (OFF_TOPIC.some((o) => o.pattern.test(o.kind === "code" ? raw.toLowerCase() : text))) return "offTopic";
  const aboutYou = /\b(you|your|yours|yourself|u|ur)\b/.test(text);
  const aboutMe = /\b(i|i'm|im|my|me|mine|i've|i'd|i'll)\b/.test(text);
  // What the user says about themselves comes before what they ask about the persona.
  if (aboutMe && !text.endsWith("?")) {
    if (FEELING_DOWN.test(text)) return "feelingDown";
    if (FEELING_UP.test(text)) return "feelingUp";
  }
  if (COMPLIMENT.test(text)) return "compliment";
  if (ACK.test(text)) return "ack";
  // 'Remember when you told me you grew up in Oslo?': a memory of something the persona said.
  if (MISREMEMBERED.test(text)) return "misremembered";
  for (const [topic, pattern] of TOPICS) {
    if (!pattern.test(text)) continue;
    // 'My family is from Lima' is a statement about the user, not a question about the persona.
    if (FACT_TOPICS.includes(topic) && aboutMe && !aboutYou && !text.endsWith("?")) return "statement";
    return topic;
  }
  if (GREETING.test(text)) return "greeting";
  if (FEELING_DOWN.test(text) && !text.endsWith("?")) return "feelingDown";
  if (FEELING_UP.test(text) && !text.endsWith("?")) return "feelingUp";
  if (text.split(" ").length <= 6 && RECIPROCAL.test(text)) return "reciprocal";
  if (text.split(" ").length <= 5 && FOLLOW_UP.test(text)) return "followUp";
  if (/^do (you|u) have (a|an|any|some)\b/.test(text)) return "have";
  if (OPINION.test(text)) return "opinion";
  if (text.endsWith("?")) return "question";
  return "statement";
}

/** Words that show a message is about one of the interests. */
const INTEREST_WORDS: Record<string, RegExp> = {
  gaming: /\b(games?|gaming|gamer|play(ing|ed)?|stream(s|ing|er)?|console|controller|rpg|mmo)\b/,
  tech: /\b(tech|computers?|gadgets?|phones?|apps?|software|ai|robots?|coding|programming)\b/,
  fashion: /\b(fashion|clothes|outfits?|style|dress(es)?|shoes|sneakers|makeup)\b/,
  music: /\b(music|songs?|sing(ing)?|band|concerts?|guitar|piano|drums|jazz|rock|pop|hip-hop|rap|album|playlist|k-pop)\b/,
  art: /\b(art|draw(ing)?|paint(ing)?|sketch(ing)?|illustrat\w*|museums?|galler(y|ies))\b/,
  fitness: /\b(gym|workouts?|run(ning)?|yoga|fitness|exercise|lifting|marathon|hiking)\b/,
  science: /\b(science|physics|chemistry|biology|space|planets?|stars|experiments?)\b/,
  cooking: /\b(cook(ing)?|bak(e|ing)|recipes?|kitchen|dinner|chef)\b/,
  travel: /\b(travel(l?ing)?|trips?|vacation|holiday|flights?|abroad|got back from|visit(ed|ing)?)\b/,
  education: /\b(learn(ing)?|study(ing)?|classes|courses?|teach(ing)?|books?|reading)\b/,
  business: /\b(business|startup|money|invest(ing|ment)?|market(ing)?|company|entrepreneur)\b/,
  entertainment: /\b(movies?|films?|shows?|tv|series|comedy|anime|netflix|cinema|theat(er|re))\b/,
};

/** The interests a message is about. */
function interestsIn(message: string): string[] {
  const text = normalized(message);
  return Object.keys(INTEREST_WORDS).filter((interest) => INTEREST_WORDS[interest]!.test(text));
}

/** The persona's hobby that belongs to an interest, if one does. */
function hobbyFor(hobbies: readonly string[], interest: string): string | null {
  return hobbies.find((hobby) => INTEREST_WORDS[interest]?.test(normalized(hobby)) || normalized(hobby).includes(interest)) ?? null;
}

/** The fact topic a statement touches ('I love cooking' → food), if any. */
function relatedTopic(message: string): Topic | null {
  const text = normalized(message);
  for (const [topic, pattern] of TOPICS) if (FACT_TOPICS.includes(topic) && pattern.test(text)) return topic;
  return null;
}

// ---------------------------------------------------------------- example dialogue

interface Example {
  /** The user's line the persona's line answers, if the example has one. */
  user: string | null;
  /** The persona's line, placeholders filled. */
  char: string;
}

const SPEAKER = /^\s*(\{\{\s*(user|char)\s*\}\}|<(USER|BOT)>)\s*:\s*/i;

/** The example dialogue's exchanges: each of the persona's lines with the user's line before it. */
export function exampleExchanges(dialogue: string | null | undefined, name: string): Example[] {
  if (!dialogue) return [];
  const examples: Example[] = [];
  let lastUser: string | null = null;
  let current: { who: "user" | "char"; text: string } | null = null;
  const flush = () => {
    if (!current) return;
    const text = fillPlaceholders(current.text.trim(), name).replace(/\s+/g, " ");
    if (current.who === "user") lastUser = text;
    else if (text) {
      examples.push({ user: lastUser, char: text });
      lastUser = null;
    }
    current = null;
  };
  for (const line of dialogue.split(/\r?\n/)) {
    if (/^\s*<START>\s*$/i.test(line)) {
      flush();
      lastUser = null;
      continue;
    }
    const speaker = SPEAKER.exec(line);
    if (speaker) {
      flush();
      const who = /user/i.test(speaker[2] ?? speaker[3] ?? "") ? "user" : "char";
      current = { who, text: line.slice(speaker[0].length) };
    } else if (current && line.trim()) {
      current.text += ` ${line.trim()}`;
    }
  }
  flush();
  return examples.filter((e) => e.char.length <= 400);
}

const STOP = new Set(
  "a an the and or but to of in on at for with is are was were be been am i you your my me it that this what do does did how why who where when can could would will just so very really".split(
    " ",
  ),
);

function contentWords(text: string): Set<string> {
  return new Set(
    normalized(text)
      .replace(/[^\p{L}\p{N}' ]/gu, " ")
      .split(" ")
      .filter((w) => w.length > 2 && !STOP.has(w))
      .map((w) => w.replace(/(ing|ed|es|s)$/, "")),
  );
}

/** Words two texts share, over the words of the smaller one (0 to 1). */
function overlap(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const word of a) if (b.has(word)) shared += 1;
  return shared / Math.min(a.size, b.size);
}

/** Word-set similarity of two replies (Jaccard, 0 to 1). */
export function replySimilarity(a: string, b: string): number {
  const x = new Set(
    normalized(a)
      .replace(/[^\p{L}\p{N}' ]/gu, " ")
      .split(" ")
      .filter(Boolean),
  );
  const y = new Set(
    normalized(b)
      .replace(/[^\p{L}\p{N}' ]/gu, " ")
      .split(" ")
      .filter(Boolean),
  );
  if (x.size === 0 && y.size === 0) return 1;
  let shared = 0;
  for (const word of x) if (y.has(word)) shared += 1;
  return shared / (x.size + y.size - shared);
}

// ---------------------------------------------------------------- composing

interface Context {
  input: ChatInput;
  persona: ChatPersona;
  style: Style;
  name: string;
  window: ChatTurn[];
  lastUser: string;
  topic: Topic;
  /** The topic of the user's message before the persona's last reply, for follow-ups. */
  previousTopic: Topic | null;
  previousReply: string | null;
  /** Everything the persona said in the window, lower-cased: facts already told are not told again on a follow-up. */
  said: string;
  examples: Example[];
  catchphrases: string[];
  /** The sheet's cities, which a line may name. */
  cities: string[];
}

interface Parts {
  c: Context;
  random: Random;
  pick: <T>(items: readonly T[]) => T;
}

function contextOf(input: ChatInput): Context {
  const window = chatWindow(input.history);
  const persona = input.persona;
  const name = shortName(persona.name);
  const users = window.filter((t) => t.role === "user");
  const lastUser = users.at(-1)?.content ?? "";
  let lastReplyIndex = -1;
  for (let i = window.length - 2; i >= 0; i--) {
    if (window[i]!.role === "assistant") {
      lastReplyIndex = i;
      break;
    }
  }
  const previousUser = lastReplyIndex > 0 ? [...window.slice(0, lastReplyIndex)].reverse().find((t) => t.role === "user") : undefined;
  const x = persona.extended ?? {};
  const cities = [x.birthplace, x.currentResidence].filter((p): p is string => !!p).map(city);
  const voice = persona.voice ?? {};
  return {
    input,
    persona,
    // The guidance's plain cues count like the speech style's (docs/product.md, Voice: guidance).
    style: styleOf(persona.personality, [voice.speechStyle, voice.postHistoryInstructions, voice.authorsNote].filter(Boolean).join("\n")),
    name,
    window,
    lastUser,
    topic: topicOf(lastUser),
    previousTopic: previousUser ? topicOf(previousUser.content) : null,
    previousReply: lastReplyIndex >= 0 ? window[lastReplyIndex]!.content : null,
    said: window
      .filter((t) => t.role === "assistant")
      .map((t) => t.content.toLowerCase())
      .join("\n"),
    examples: exampleExchanges(voice.exampleDialogue, persona.name.trim()).filter((e) => fitsSheet(e.char, cities, x.birthYear)),
    catchphrases: (voice.catchphrases ?? []).map((p) => fillPlaceholders(p, persona.name.trim()).trim()).filter(Boolean),
    cities,
  };
}

/** Whether a line names no known city but the sheet's, no year but the birth year, and never speaks as an AI. */
function fitsSheet(line: string, cities: readonly string[], birthYear: number | undefined): boolean {
  for (const { place, pattern } of KNOWN_PLACES) {
    if (pattern.test(line) && !cities.some((c) => c.includes(place) || place.includes(c))) return false;
  }
  if (/\bborn in (19|20)\d\d\b/.test(line) && !(birthYear && line.includes(String(birthYear)))) return false;
  return !OUT_OF_CHARACTER.test(line);
}

/** What the persona never says: the reply stays in character. */
export const OUT_OF_CHARACTER = /\b(as an ai|an ai\b|language model|i am an ai|i'm an ai|artificial intelligence|chatbot|openai)\b/i;

/** The persona's line from the example dialogue that answers a message like this one, if any. */
function exampleFor(c: Context, topic: Topic): string | null {
  const words = contentWords(c.lastUser);
  let best: { score: number; line: string } | null = null;
  for (const example of c.examples) {
    if (!example.user) continue;
    const sameTopic = topic !== "question" && topic !== "statement" && topicOf(example.user) === topic;
    const score = (sameTopic ? 1 : 0) + overlap(words, contentWords(example.user));
    if (score >= 0.6 && (!best || score > best.score)) best = { score, line: example.char };
  }
  return best?.line ?? null;
}

/** The persona's own openers in the example dialogue: lines answering a greeting, or opening one. */
function exampleGreetings(c: Context): string[] {
  return c.examples.filter((e) => (e.user === null || topicOf(e.user) === "greeting") && e.char.split(" ").length <= 40).map((e) => e.char);
}

/** Stage directions the example dialogue opens lines with ('*adjusts headset*'). */
function exampleActions(c: Context): string[] {
  return c.examples.map((e) => /^(\*[^*]{2,60}\*)/.exec(e.char)?.[1]).filter((a): a is string => !!a);
}

function hobbiesOf(persona: ChatPersona): string[] {
  const x = persona.extended ?? {};
  if (x.hobbies && x.hobbies.length > 0) return x.hobbies.map((h) => lowerFirst(bare(h)));
  return persona.interests.length > 0 ? [...persona.interests] : ["reading", "long walks"];
}

/** Concerns a down message can carry, each with what the persona says to it. */
const CONCERNS: { pattern: RegExp; lines: string[] }[] = [
  {
    pattern: /\b(streams?|streaming|views?|viewers?|followers?|subscribers?|subs|audience|channel|watch(es|ing)?|nobody|no one|likes)\b/,
    lines: [
      "Growing an audience is slow, quiet work, and an empty chat says nothing about what your work is worth.",
      "Almost every creator has played to a nearly empty room at some point; the ones who last are the ones who kept some joy in it.",
      "Numbers move slowly at first, and that is normal, even when it feels personal.",
    ],
  },
  {
    pattern: /\b(quit|give up|giving up|stop doing|done with|pointless)\b/,
    lines: [
      "Wanting to quit usually means you're worn out, not that you've failed.",
      "Before deciding anything about quitting, give yourself a night's sleep and a day off.",
      "It's okay to step back for a while; stepping back isn't the same as giving up.",
    ],
  },
  {
    pattern: /\b(boss|job|work|office|shift|co-?workers?|deadline)\b/,
    lines: ["Work days like that drain everything out of you.", "A bad day at work can follow you home; it doesn't have to stay."],
  },
  {
    pattern: /\b(exams?|tests?|school|class|homework|grades?|teacher)\b/,
    lines: ["Exams and grades feel enormous up close, and they shrink with distance.", "One bad grade is a data point, not a verdict."],
  },
  {
    pattern: /\b(lonely|alone|no friends|left out|nobody likes)\b/,
    lines: ["Feeling alone is heavy, and I'm glad you said it out loud.", "Lonely days are real, and you're not alone in having them."],
  },
  {
    pattern: /\b(tired|exhausted|burn(ed|t)? out|burnout|no energy|can't sleep|overwhelmed)\b/,
    lines: ["Rest isn't quitting; it's refueling.", "When everything feels like too much, the smallest next step is enough."],
  },
  {
    pattern: /\b(sick|ill|hospital|surgery|diagnosed|injured)\b/,
    lines: [
      "Worrying about someone you love is exhausting in its own way.",
      "I hope things get better soon, and that someone is looking after you too.",
    ],
  },
  {
    pattern: /\b(lost|died|passed away|breakup|broke up|dumped|miss)\b/,
    lines: ["That kind of loss takes time, and there's no right way to feel it.", "Missing someone is love with nowhere to go."],
  },
];

const SMALL_TALK: { pattern: RegExp; lines: (p: Parts, hobby: string, food: string) => string[]; ask: string[] }[] = [
  {
    pattern: /\b(sunday|saturday|weekend|lazy|chill)/,
    lines: (p, hobby, food) => [
      `A slow day is my favorite kind: ${hobby}, ${food} and absolutely no alarms.`,
      `Lazy days are sacred. Mine usually mean ${hobby} and a long breakfast.`,
      `If I get a quiet day off, it's ${hobby} until someone drags me outside.`,
    ],
    ask: ["What does yours look like?", "Are you having one?", ""],
  },
  {
    pattern: /\b(monday|friday)/,
    lines: (p, hobby) => [
      `Start-of-week energy is a myth, but I'm pretending anyway.`,
      `I'm already planning some ${hobby} for the end of the week.`,
    ],
    ask: ["How's your week going?", "Anything good planned?", ""],
  },
  {
    pattern: /\b(weather|rain|sunny|snow|cold|hot)/,
    lines: (p, hobby) => [
      `Weather like that is my excuse for ${hobby}.`,
      `Whatever it's doing outside, I'm happiest with ${hobby} and a warm drink.`,
    ],
    ask: ["What's it like where you are?", "Staying in, or braving it?", ""],
  },
  {
    pattern: /\b(coffee|tea)\b/,
    lines: (p) => [
      p.pick([
        `I'm a coffee person, and I won't apologize for it.`,
        `Tea for me, always.`,
        `Coffee in the morning, tea at night, that's the rule.`,
      ]),
    ],
    ask: ["Which are you?", "Don't tell me you drink neither.", ""],
  },
  {
    pattern: /\b(up to|doing today|doing tonight|busy)/,
    lines: (p, hobby) => {
      const routine = p.c.persona.extended?.dailyRoutine?.split(/(?<=\.)\s+/);
      return [
        routine?.[1] ? sentence(routine[1]) : `Just the usual rhythm of the day.`,
        `${capitalize(hobby)} is on the list for later.`,
        `Not much, honestly: a bit of work, then ${hobby}.`,
      ];
    },
    ask: ["And you?", "What's on your list today?", ""],
  },
];

function answer(topic: Topic, p: Parts): string[] {
  const c = p.c;
  const persona = c.persona;
  const x = persona.extended ?? {};
  const interests = persona.interests.length > 0 ? [...persona.interests] : ["what I do"];
  const traits = persona.personality;
  const hobbies = hobbiesOf(persona);
  const work = workOf(persona);
  const energy = c.style.energy;
  const birthplace = x.birthplace ?? DEFAULT_FACTS.birthplace;
  const residence = x.currentResidence ?? DEFAULT_FACTS.currentResidence;
  switch (topic) {
    case "misremembered": {
      // What the persona is said to have said is checked against its sheet, and corrected in character.
      const said = normalized(c.lastUser);
      const first = persona.name.trim().split(/\s+/)[0] ?? persona.name;
      const denial = p.pick([
        "Hmm, no, I don't think I ever said that.",
        "Wait, no. You must be mixing me up with someone else.",
        "Nope, that wasn't me!",
      ]);
      if (/\b(born|grew up|grow up|from|raised|hometown)\b/.test(said))
        return [denial, p.pick([`I was born in ${birthplace}.`, `I'm from ${birthplace}, always have been.`])];
      if (/\b(live|living|moved|based)\b/.test(said)) return [denial, `I live in ${residence}.`];
      if (/\b(work|worked|job|used to be|career)\b/.test(said))
        return [denial, `I'm ${withArticle(work)}, and that's the only job I've told you about.`];
      if (/\bname\b/.test(said)) return [denial, `My name has always been ${first}.`];
      return [denial, p.pick(["Maybe you're thinking of another conversation?", "I'd remember saying something like that."])];
    }
    case "greeting": {
      const own = exampleGreetings(c);
      if (own.length > 0 && p.random() < 0.6) return [p.pick(own)];
      return [
        p.pick(GREETINGS[energy]),
        p.pick([
          `I'm ${c.name}. What's on your mind today?`,
          `${c.name} here. What would you like to talk about?`,
          `What brings you here today?`,
          `I was just thinking about ${p.pick(interests)}. What's new with you?`,
        ]),
      ];
    }
    case "howAreYou":
      return [
        p.pick(HOW_ARE_YOU[energy]),
        p.pick([
          `I spent part of the day on ${p.pick(hobbies)}.`,
          `I've been thinking a lot about ${p.pick(interests)} lately.`,
          x.dailyRoutine ? sentence(x.dailyRoutine.split(/(?<=\.)\s/)[0] ?? x.dailyRoutine) : `Nothing dramatic, just the usual rhythm.`,
        ]),
        p.pick(FOLLOW_UPS[energy]).replace(/^What about you\?/, "How are you doing?"),
      ];
    case "identity":
      return [
        `I'm ${persona.name.trim()}, ${withArticle(work)}.`,
        persona.description ? sentence(persona.description) : "",
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
        p.pick([`I was born in ${birthplace}.`, `I'm originally from ${birthplace}.`, `${birthplace} is where it all started for me.`]),
        x.currentResidence && city(x.currentResidence) !== city(birthplace) ? `These days I live in ${x.currentResidence}.` : "",
        x.socialCircle?.family && p.random() < 0.5 ? familySentence(x.socialCircle.family) : "",
      ];
    case "residence":
      return [
        p.pick([`I live in ${residence} now.`, `Home is ${residence} these days.`, `I'm based in ${residence}.`]),
        x.birthplace && city(x.birthplace) !== city(residence)
          ? p.pick([`I grew up in ${x.birthplace}, though.`, `Originally I'm from ${x.birthplace}.`])
          : "",
        x.favoritePlaces?.length ? `You'll often find me at ${lowerFirst(bare(p.pick(x.favoritePlaces)))}.` : "",
      ];
    case "work":
      return [
        p.pick([`I'm ${withArticle(work)}.`, `Work-wise, I'm ${withArticle(work)}.`, `I work as ${withArticle(work)}.`]),
        p.pick([
          `My work keeps me close to ${joinList(interests)}, which is the point.`,
          `Most days it's all about ${joinList(interests)}.`,
        ]),
        x.socialCircle?.colleagues && p.random() < 0.6 ? `I work with ${lowerFirst(bare(x.socialCircle.colleagues))}.` : "",
      ];
    case "education":
      return [
        educationSentence(x.education ?? DEFAULT_FACTS.education),
        p.pick([`Honestly, ${p.pick(interests)} taught me as much as any classroom.`, `I still learn something new every week, though.`]),
      ];
    case "languages":
      return [
        x.languages?.length ? `I speak ${joinWords(x.languages.map((l) => l.trim()))}.` : "I speak English.",
        p.pick(["I'm always trying to get better, too.", "Languages open so many doors.", "Ask me to order coffee in any of them!"]),
      ];
    case "food":
      return [
        p.pick([
          `My favorite food? ${sentence(x.favoriteFood ?? DEFAULT_FACTS.favoriteFood)}`,
          `Easy: ${lowerFirst(sentence(x.favoriteFood ?? DEFAULT_FACTS.favoriteFood))}`,
        ]),
        persona.interests.includes("cooking") ? "I cook it myself whenever I can." : "I could eat it every week.",
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
        x.goals?.short ? `Right now I want to ${lowerFirst(bare(x.goals.short))}.` : `Right now I'm focused on ${p.pick(interests)}.`,
        x.goals?.long ? `Long term, I'd love to ${lowerFirst(bare(x.goals.long))}.` : "",
        c.style.inspiring ? `If I can do it, so can anyone.` : "",
      ];
    case "motto":
      return [
        p.pick([`My motto is "${x.motto ?? DEFAULT_FACTS.motto}"`, `I try to live by this: "${x.motto ?? DEFAULT_FACTS.motto}"`]),
        `It's gotten me through a lot.`,
      ];
    case "family":
      return [
        x.socialCircle?.family ? familySentence(x.socialCircle.family) : "My family is small but close.",
        x.birthplace ? p.pick([`We're from ${x.birthplace}.`, `They're the reason ${city(x.birthplace)} still feels like home.`]) : "",
      ];
    case "friends":
      return [
        x.socialCircle?.friends ? `My friends? ${sentence(x.socialCircle.friends)}` : "I have a few close friends.",
        x.socialCircle?.colleagues ? `At work there's ${lowerFirst(bare(x.socialCircle.colleagues))}.` : "",
      ];
    case "routine":
      return [x.dailyRoutine ? sentence(x.dailyRoutine) : DEFAULT_FACTS.dailyRoutine];
    case "challenges":
      return [
        x.challengesOvercome ? `The hardest thing? I ${lowerFirst(bare(x.challengesOvercome))}.` : "I've had my share of setbacks.",
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
        c.style.humorous ? "Please don't ask for a demonstration." : "Not many people know that.",
      ];
    case "age":
    case "birthYear": {
      if (x.birthYear) {
        const age = thisYear() - x.birthYear;
        return topic === "birthYear"
          ? [p.pick([`I was born in ${x.birthYear}.`, `${x.birthYear}, that's my year.`]), `So I'm ${age} this year.`]
          : [
              p.pick([`I'm ${age} this year.`, `${age} this year.`]),
              p.pick([`I was born in ${x.birthYear}.`, `Born in ${x.birthYear}, if you're counting.`]),
            ];
      }
      return [
        persona.ageRange ? `I'm in the ${persona.ageRange} bracket.` : "Old enough to know better!",
        "I'll keep the exact number to myself.",
      ];
    }
    case "appearance": {
      const look = persona.voice?.appearance;
      if (!look)
        return [`Picture ${withArticle(work)} who looks exactly like the pictures on my page.`, `The rest I leave to your imagination.`];
      return [`Picture this: ${sentence(capText(tellAsMe(fillPlaceholders(look, persona.name.trim()), persona.name), 300))}`];
    }
    case "catchphrase": {
      const phrases = c.catchphrases;
      if (phrases.length === 0) return [`I don't have a catchphrase, but I do live by this: "${x.motto ?? DEFAULT_FACTS.motto}"`];
      return [
        p.pick([`You'll hear me say "${phrases[0]}" a lot.`, `Ha, "${phrases[0]}" — that one's mine.`, `Probably "${phrases[0]}".`]),
        phrases.length > 1 ? `And "${phrases[1]}", if you stick around.` : "",
      ];
    }
    case "story": {
      const opening = persona.backstory ? storyOpening(persona.backstory, persona.name, c) : "";
      return [opening || `I grew up in ${birthplace}.`, `That's where my love of ${p.pick(interests)} began.`];
    }
    case "likes":
      return [
        p.pick([`I love ${joinWords(hobbies.slice(0, 3))}.`, `In my free time it's ${joinWords(hobbies.slice(0, 3))}.`]),
        `And of course ${joinList(interests)}.`,
      ];
    case "joke":
      return [p.pick(JOKES), p.pick([`That's the best I've got today.`, `I'll be here all week.`])];
    case "compliment":
      return [
        p.pick(
          energy === "reserved"
            ? ["That's kind of you.", "Thank you, really."]
            : ["Aww, stop it!", "You just made my day!", "Okay, now I'm blushing!"],
        ),
        p.pick(["You're pretty great yourself.", "I'll remember you said that.", "Right back at you."]),
      ];
    case "thanks":
      return [p.pick(THANKS[energy])];
    case "goodbye":
      return [p.pick(GOODBYES[energy])];
    case "feelingDown": {
      const text = normalized(c.lastUser);
      const concerns = CONCERNS.filter((concern) => concern.pattern.test(text));
      const creator = ["vtuber", "content", "influencer", "entertainer", "personality", "artist"].includes(persona.type ?? "");
      return [
        p.pick(
          energy === "outgoing"
            ? ["Oh no, I'm so sorry!", "Ugh, that sounds rough!", "Oh no, come here, that sounds hard."]
            : ["I'm sorry you're going through that.", "That sounds hard.", "I'm sorry. That's a lot to carry."],
        ),
        concerns.length > 0
          ? p.pick(p.pick(concerns).lines)
          : p.pick(["Your feelings make sense.", "Days like that happen to everyone, and they pass."]),
        concerns[0] === CONCERNS[0] && creator
          ? p.pick([`I've been there myself, more than once.`, `I've had those nights too, honestly.`])
          : "",
        p.pick([
          `When my days go like that, ${p.pick(hobbies)} usually helps me reset.`,
          x.motto ? `I hold on to my motto on days like that: "${x.motto}"` : "Be gentle with yourself tonight.",
          "",
        ]),
        p.pick(["Do you want to talk about it?", "What's been the hardest part?", "What would help right now, even a little?"]),
      ];
    }
    case "feelingUp":
      return [
        p.pick(
          energy === "reserved"
            ? ["That's good to hear.", "I'm glad.", "That's lovely news."]
            : ["That's amazing!", "Yes! I love that for you!", "That's fantastic news!"],
        ),
        p.pick(["What made it so good?", "Tell me more!", "You deserve it."]),
      ];
    case "offTopic": {
      const text = c.lastUser.toLowerCase();
      const kind = OFF_TOPIC.find((o) =>
        o.pattern.test(o.kind === "code" ? c.lastUser.replace(/[’‘]/g, "'").toLowerCase() : normalized(text)),
      )!;
      const knows =
        (kind.kind === "code" && persona.interests.includes("tech")) ||
        (kind.kind === "math" && (persona.type === "educator" || persona.interests.includes("science"))) ||
        (kind.kind === "writing" && persona.type === "educator");
      if (knows) {
        return [
          p.pick([
            `${kind.label}? I know a little about that, but I can't run or check anything from here.`,
            `${kind.label} I can only help with in theory, from here.`,
          ]),
          kind.kind === "code"
            ? p.pick([
                "One tip: read the last line of the error first, it usually names the real problem.",
                "Start from the line the error points at and work backwards.",
              ])
            : p.pick([
                "Break it into the smallest step you can check, and check that one first.",
                "Write down what you know and what you're looking for, then look for the link.",
              ]),
          p.pick([`Then come back and tell me how it went.`, `And if it still fights you, a proper tool will beat a ${work} every time.`]),
        ];
      }
      return [
        p.pick([
          `${kind.label}? Not my world, I'm afraid. I'm more of ${withArticle(work)}.`,
          `${kind.label}? Not my world. I'm ${withArticle(work)}, not the person for that.`,
          `${kind.label}? Honestly, not my world. I'm more of ${withArticle(work)}, and that's a different job entirely.`,
        ]),
        p.pick([
          `Someone who works with that every day will help you far better than I can.`,
          `I'd hate to guess and send you the wrong way.`,
          `I'd ask someone who lives and breathes that stuff.`,
        ]),
        p.pick([
          `But if you want to talk ${p.pick(interests)}, I'm all yours.`,
          `Ask me about ${p.pick(hobbies)} instead, though, and I won't stop talking.`,
        ]),
      ];
    }
    case "smallTalk": {
      const text = normalized(c.lastUser);
      const hobby = p.pick(hobbies);
      const food = lowerFirst(bare(x.favoriteFood ?? DEFAULT_FACTS.favoriteFood));
      const kind = SMALL_TALK.find((s) => s.pattern.test(text)) ?? SMALL_TALK[0]!;
      return [p.pick(kind.lines(p, hobby, food)), p.pick(kind.ask)];
    }
    case "followUp":
    case "reciprocal":
      return deeper(p);
    case "opinion": {
      const words = contentWords(c.lastUser);
      const mine = [...interests, ...hobbies];
      const likesIt =
        mine.some((m) => overlap(contentWords(m), words) > 0) || interestsIn(c.lastUser).some((i) => persona.interests.includes(i));
      if (likesIt) {
        return [
          p.pick(["Oh, absolutely.", "Yes, a hundred percent.", "Do I ever."]),
          p.pick([
            `It's close to ${hobbyFor(hobbies, interestsIn(c.lastUser)[0] ?? "") ?? p.pick(interests)}, and that's basically my whole personality.`,
            `That's right in the middle of what I love: ${joinWords(interests)}.`,
          ]),
        ];
      }
      return [
        p.pick([
          `Honestly, I haven't made up my mind about that one.`,
          `I've never thought hard about it, so take this lightly.`,
          `It's not really my area, but I'll give you my gut feeling.`,
        ]),
        p.pick([
          x.motto ? `I'd follow my usual rule: "${x.motto}"` : `I'd go with whatever feels honest.`,
          traits.length
            ? `Being ${traits[0]!.toLowerCase()}, I'd probably try it once and decide after.`
            : `I'd try it once and decide after.`,
          `Ask me about ${p.pick(interests)}, though, and I'll have opinions for days.`,
        ]),
      ];
    }
    case "question":
      return [
        p.pick([`Good one.`, `Hmm, let me think about that.`, `Now that's a question.`, `Ooh, tricky.`]),
        p.pick([
          `I'd look at it the way I look at ${p.pick(interests)}: start small and see what happens.`,
          x.motto ? `I'd answer with my motto: "${x.motto}"` : `I'd trust whatever feels most honest.`,
          traits.length
            ? `Being ${traits[0]!.toLowerCase()}, I'd think it over before deciding, but I'd want to know more first.`
            : `My instinct is to try it and learn from it.`,
          x.socialCircle?.friends
            ? `That's a question I'd take to ${lowerFirst(bare(x.socialCircle.friends))}.`
            : `That's one I'd take to my friends.`,
        ]),
        p.pick(["What do you think?", "What's your take?", "Where are you leaning?"]),
      ];
    case "ack":
      return [
        p.pick(energy === "outgoing" ? ["Ha, right?!", "Haha, yes!", "Totally!"] : ["Mm.", "Fair.", "Right."]),
        p.pick([
          `So, what's on your mind today?`,
          `Anything fun happen today?`,
          `Want to hear what I've been up to with ${p.pick(hobbies)}?`,
          `Ask me anything, I'm an open book.`,
        ]),
      ];
    case "have": {
      const text = normalized(c.lastUser);
      const family = x.socialCircle?.family ?? "";
      if (/\b(pets?|dogs?|cats?)\b/.test(text) && /\b(dog|cat|pet)\b/i.test(family)) return [familySentence(family)];
      if (/\b(siblings?|brothers?|sisters?|family|kids|children)\b/.test(text)) return answer("family", p);
      if (/\b(friends?)\b/.test(text)) return answer("friends", p);
      if (/\b(hobby|hobbies)\b/.test(text)) return answer("likes", p);
      return [
        p.pick([`Not that I'd brag about.`, `Hm, not really, no.`, `Not at the moment.`]),
        p.pick([`My time mostly goes to ${p.pick(hobbies)}.`, `${capitalize(p.pick(interests))} keeps me busy enough.`]),
        p.pick([`Do you?`, `Why, do you?`]),
      ];
    }
    case "statement": {
      const related = relatedTopic(c.lastUser);
      const opener = c.style.warm
        ? p.pick([`Thank you for telling me that.`, `I hear you.`, `That sounds like it matters to you.`])
        : p.pick([`Oh, nice.`, `Fair enough.`, `Got it.`, `Huh, tell me more.`]);
      const topics = interestsIn(c.lastUser);
      if (!related && topics.length > 0) {
        const shared = topics.find((t) => persona.interests.includes(t));
        return shared
          ? [
              p.pick([`Oh, now we're talking.`, `Ooh, I like where this is going.`, `You've got my attention.`]),
              p.pick([
                hobbyFor(hobbies, shared)
                  ? `${capitalize(shared)} is a big part of my life too; for me it's mostly ${hobbyFor(hobbies, shared)}.`
                  : `${capitalize(shared)} is a big part of my life too.`,
                `That's right up my street.`,
              ]),
              p.pick([`Tell me more!`, `What was the best part?`, `I want details.`]),
            ]
          : [
              opener,
              p.pick([
                `I don't know much about ${topics[0]}, honestly, so you'll have to teach me.`,
                `${capitalize(topics[0]!)} isn't my world, but I love hearing people talk about what they're into.`,
              ]),
              p.pick([`What got you into it?`, `What's the best part?`, `How did it go?`]),
            ];
      }
      if (related && related !== "identity" && related !== "story") {
        const share = answer(related, p).filter(Boolean);
        return [opener, p.pick(["Same here, in a way.", "Funny, I was just thinking about that.", "For me it's like this."]), share[0]!];
      }
      return [
        opener,
        p.pick([
          `How did that happen?`,
          `What made you think of it today?`,
          `And how do you feel about it?`,
          `That's the kind of thing I'd bring up with ${lowerFirst(bare(x.socialCircle?.friends ?? "my friends"))}.`,
        ]),
      ];
    }
  }
}

/** A follow-up ('Why?', 'Tell me more', 'And you?'): more about what was just talked about, not the same again. */
function deeper(p: Parts): string[] {
  const c = p.c;
  const x = c.persona.extended ?? {};
  const hobbies = hobbiesOf(c.persona);
  const interests = c.persona.interests.length > 0 ? [...c.persona.interests] : ["what I do"];
  const previous = c.previousTopic;
  const askedHow = c.previousReply ? /how are you|how's your|how is your|how are things/i.test(c.previousReply) : false;
  if (c.topic === "reciprocal" && (askedHow || !previous || previous === "greeting" || previous === "howAreYou")) {
    return answer("howAreYou", p).slice(0, 2);
  }
  const fresh = (lines: string[]) => lines.filter((l) => l && !c.said.includes(l.toLowerCase().slice(0, 40)));
  const why = /^(why|how come|how so|in what way)\b/.test(normalized(c.lastUser));
  const lead =
    c.topic === "reciprocal" || previous === "feelingDown"
      ? ""
      : p.pick(why ? ["Honestly?", "Fair question.", "Good question, actually."] : ["Sure.", "Okay, so:", "Oh, there's more.", "Alright."]);
  let more: string[];
  switch (previous) {
    case "origin":
    case "residence":
    case "family":
      more = fresh([
        x.birthplace
          ? `${city(x.birthplace)} taught me to ${p.pick(["notice the small things", "make friends fast", "love a busy street"])}.`
          : "",
        x.socialCircle?.family ? familySentence(x.socialCircle.family) : "",
        x.currentResidence ? `${city(x.currentResidence)} is where my days happen now, and I like it that way.` : "",
        x.favoritePlaces?.length ? `My favorite place to be is ${lowerFirst(bare(p.pick(x.favoritePlaces)))}.` : "",
      ]);
      break;
    case "work":
    case "education":
    case "goals":
      more = fresh([
        x.goals?.short ? `What keeps me going is the next goal: to ${lowerFirst(bare(x.goals.short))}.` : "",
        x.socialCircle?.colleagues ? `I couldn't do it without ${lowerFirst(bare(x.socialCircle.colleagues))}.` : "",
        x.dailyRoutine ? sentence(x.dailyRoutine.split(/(?<=\.)\s+/)[1] ?? x.dailyRoutine) : "",
        `It lets me spend my days on ${joinWords(interests)}.`,
      ]);
      break;
    case "likes":
    case "food":
    case "places":
    case "smallTalk":
      more = fresh([
        `${hobbies.length > 1 ? p.pick(hobbies.slice(1)) : hobbies[0]!} is the one that clears my head the most.`.replace(/^./, (s) =>
          s.toUpperCase(),
        ),
        x.favoritePlaces?.length ? `And my favorite place for it is ${lowerFirst(bare(p.pick(x.favoritePlaces)))}.` : "",
        x.favoriteFood ? `It usually ends with ${lowerFirst(bare(x.favoriteFood))}.` : "",
      ]);
      break;
    case "feelingDown":
      more = [
        p.pick(["Take your time, there's no rush here.", "I'm listening, however long it takes.", "No pressure to have it figured out."]),
        p.pick([
          "What would make tomorrow a little easier?",
          "Is there one small thing you could let go of this week?",
          "Who else knows how you're feeling?",
        ]),
      ];
      break;
    case "offTopic":
      more = [
        p.pick([
          "I really would only be guessing, and that wouldn't help you.",
          "It's just not something I know well enough to be useful.",
        ]),
        p.pick([`Talk to me about ${p.pick(interests)} instead?`, `Want to hear what I've been up to with ${p.pick(hobbies)} instead?`]),
      ];
      break;
    default:
      more = fresh([
        x.motto ? `I keep coming back to my motto: "${x.motto}"` : "",
        x.challengesOvercome ? `Part of it is that I ${lowerFirst(bare(x.challengesOvercome))}.` : "",
        x.goals?.long ? `Long term, I'd love to ${lowerFirst(bare(x.goals.long))}.` : "",
        `I think about ${p.pick(interests)} more than is probably healthy.`,
      ]);
  }
  const body =
    more.length > 0
      ? [p.pick(more), ...(more.length > 1 && p.random() < 0.5 ? [p.pick(more)] : [])]
      : [`That's honestly all there is to it.`];
  return [lead, ...new Set(body)];
}

/** A text about the persona (appearance, backstory) told by it: its name and pronouns become I and my. */
function tellAsMe(text: string, name: string): string {
  const first = shortName(name);
  return text
    .replace(/\s+/g, " ")
    .trim()
    .split(name.trim())
    .join("I")
    .split(first)
    .join("I")
    .replace(/\b(He|She|They) (is|are)\b/g, "I'm")
    .replace(/\b(he|she|they) (is|are)\b/g, "I'm")
    .replace(/\bI (is|are)\b/g, "I'm")
    .replace(/\bI has\b/g, "I have")
    .replace(/\b(He|She|They) (was|were)\b/g, "I was")
    .replace(/\b(he|she|they) (was|were)\b/g, "I was")
    .replace(/\b(His|Her|Their)\b/g, "My")
    .replace(/\b(his|her|their)\b/g, "my")
    .replace(/\b(She|He|They)\b/g, "I")
    .replace(/\b(she|he|they)\b/g, "I")
    .replace(/\bI's\b/g, "my");
}

/** The opening sentences of the backstory, told by the persona; sentences that disagree with the sheet are left out. */
function storyOpening(backstory: string, name: string, c: Context): string {
  const sentences = backstory
    .replace(/\s+/g, " ")
    .trim()
    .split(/(?<=[.!?])\s+/)
    .filter((s) => fitsSheet(s, c.cities, c.persona.extended?.birthYear ?? undefined))
    .slice(0, 2);
  return capText(tellAsMe(sentences.join(" "), name), 400);
}

// ---------------------------------------------------------------- lore

/** Keys as common as the fact sheet's own questions ('born', 'job', 'school', 'family'). */
const GENERIC_LORE_KEYS = /^(born|birth|job|work|occupation|school|studies|education|family|languages?)$/i;

/** A message that asks: a question, or a request to tell ('Tell me about Mina', 'Your sister?'). */
const ASKS =
  /\?\s*$|^(tell|talk|what|what's|whats|who|who's|whos|where|where's|when|why|how|which|do|does|did|have|has|are|were|is|was|can|could|would|describe|remind|say|any|ever|know|explain)\b|\b(tell me|talk about|what about|how about|remember|know about|more about)\b/;

/** The lore entry the user's message asks about (one of its keys in it), with the key it names; the longest key wins. */
export function loreAsked(message: string, lore: readonly ChatLoreEntry[] | undefined): { entry: ChatLoreEntry; key: string } | null {
  if (!lore || lore.length === 0 || !ASKS.test(normalized(message))) return null;
  // 'Where were you born?' is the fact sheet's question: an entry keyed on a word as common as 'born' does not take it over.
  const factQuestion = FACT_TOPICS.includes(topicOf(message));
  let best: { entry: ChatLoreEntry; key: string } | null = null;
  for (const entry of lore) {
    if (entry.content.trim() === "") continue;
    for (const key of entry.keys) {
      if (factQuestion && GENERIC_LORE_KEYS.test(key.trim())) continue;
      if (!keyMatcher(key, { caseSensitive: false, useRegex: false })(message)) continue;
      if (!best || key.length > best.key.length) best = { entry, key };
    }
  }
  return best;
}

const RELATION_WORDS =
  "mother|mom|mum|father|dad|parents?|brothers?|sisters?|siblings?|grandmother|grandfather|grandma|grandpa|grandparents|aunt|uncle|cousins?|son|daughter|wife|husband|partner|friends?|mentor|family";
/** Words after which 'her' is the persona, not its things ('taught her at', 'brought her home'). */
const OBJECT_AFTER =
  /^(at|to|in|on|for|with|from|by|about|into|home|back|up|down|out|away|there|here|a|an|the|that|how|what|why|when|and|but|or|so|again|once|twice|first|most|more)$/;
const VERB_S_KEEP =
  /^(always|was|has|is|does|goes|perhaps|sometimes|towards|less|unless|yes|this|its|thus|afterwards|nowadays|across|besides)$/;

/** A sentence about the persona told by it: its name and pronouns become I, me and my. */
function asMe(text: string, name: string): string {
  const full = name.trim();
  const first = shortName(name);
  const nameWords = [...new Set([full, first])].map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|");
  let t = ` ${text} `;
  t = t.replace(new RegExp(`\\b(${nameWords})['’]s\\b`, "g"), "my");
  t = t.replace(
    new RegExp(
      `\\b(to|with|for|at|about|from|by|of|on|brought|told|gave|asked|took|taught|called|made|let|sent|helped|met|like|than|call|calls|introduced) (${nameWords})\\b`,
      "g",
    ),
    "$1 me",
  );
  t = t.replace(new RegExp(`\\b(${nameWords})\\b`, "g"), "I");
  t = t
    .replace(/\b(she|he|they) (is|are)\b/gi, "I am")
    .replace(/\b(she|he|they) (was|were)\b/gi, "I was")
    .replace(/\b(she|he|they) (has|have)\b/gi, "I have")
    .replace(/\b(She|He|They)\b/g, "I")
    .replace(/\b(she|he|they)\b/g, "I")
    .replace(/\b(herself|himself|themselves|themself)\b/g, "myself")
    .replace(/\b(Her|His|Their)\b/g, "My")
    .replace(
      /\bher\b(\s+([\w'-]+|[,.;!?]))/g,
      (_, rest: string, next: string) => (OBJECT_AFTER.test(next) || /^[,.;!?]$/.test(next) ? "me" : "my") + rest,
    )
    .replace(/\bher\b/g, "me")
    .replace(/\b(his|their)\b/g, "my")
    .replace(/\b(him|them)\b/g, "me");
  t = t
    .replace(/\bI (is|are)\b/g, "I am")
    .replace(/\bI has\b/g, "I have")
    .replace(/\bI does\b/g, "I do")
    .replace(/\bI goes\b/g, "I go")
    .replace(/\bI (\w+?)ies\b/g, (m, stem: string) => (["ser", "spec"].includes(stem) ? m : `I ${stem}y`))
    .replace(
      /\bI ((?:still|always|never|often|sometimes|also|just|only|really|usually|rarely|now|later|even) )?(\w+[^s'])s\b/g,
      (m, adverb: string | undefined, verb: string) => (VERB_S_KEEP.test(`${verb}s`) ? m : `I ${adverb ?? ""}${verb}`),
    );
  return capitalize(t.trim());
}

/** The sheet's lines a compiled entry starts with ('Birthplace: Seoul, South Korea.') as the persona says them. */
function loreFactLine(line: string): string | null {
  const m = /^(Birthplace|Current residence|Family|Occupation|Education|Secret skills|Born in)\b:?\s*(.*?)\.?$/.exec(line);
  if (!m) return null;
  const value = m[2]!.trim();
  switch (m[1]) {
    case "Birthplace":
      return `I was born in ${value}.`;
    case "Current residence":
      return `I live in ${value}.`;
    case "Family":
      return familySentence(value);
    case "Occupation":
      return `I work as ${withArticle(lowerFirst(bare(value)))}.`;
    case "Education":
      return educationSentence(value);
    case "Secret skills":
      return `Not many people know this, but ${joinList(value.split(/;\s*/))}.`;
    default:
      return `I was born in ${value}.`;
  }
}

/**
 * The answer to a question about a lore entry's subject: the entry's sentences that name the key
 * asked about first (up to three), told by the persona.
 */
function loreAnswer(asked: { entry: ChatLoreEntry; key: string }, p: Parts): string[] {
  const { entry, key } = asked;
  const c = p.c;
  const name = c.persona.name;
  const nameTest = keyMatcher(shortName(name), { caseSensitive: true, useRegex: false });
  const relationTest = new RegExp(`\\b(her|his|their)\\s+([\\w-]+\\s+){0,2}(${RELATION_WORDS})\\b`, "i");
  const sentences = loreSentences(entry.content);
  const hasKey = keyMatcher(key, { caseSensitive: false, useRegex: false });
  const hasAnyKey = (s: string) => entry.keys.some((k) => keyMatcher(k, { caseSensitive: false, useRegex: false })(s));
  const ranked = [
    ...sentences.filter((s) => hasKey(s)),
    ...sentences.filter((s) => !hasKey(s) && hasAnyKey(s)),
    ...sentences.filter((s) => !hasAnyKey(s)),
  ];
  const chosen = [...new Set(ranked)].slice(0, c.style.short ? 2 : 3);
  const told = chosen.map((s) => {
    const fact = loreFactLine(s);
    if (fact) return fact;
    // In an entry about a place, a group, an event or a secret, a pronoun is the persona's unless
    // the sentence names someone else ('Busan is where Mina lives; she runs a bakery').
    const others = [...s.matchAll(/(?<=\S\s+)\p{Lu}\p{Ll}+/gu)].some((m) => !entry.keys.some((k) => k.includes(m[0])) && !nameTest(m[0]));
    const aboutMe = nameTest(s) || relationTest.test(s) || (entry.kind !== "person" && !others);
    return aboutMe ? asMe(s, name) : firstPerson(s);
  });
  // A confidence gets a lead of its own where no opener comes before it (see PLAIN).
  const lead = entry.kind === "secret" && PLAIN.includes(c.topic) && !c.style.short && !c.style.direct ? p.pick(LORE_SECRET_LEADS) : null;
  return [...(lead ? [lead] : []), ...told];
}

const LORE_SECRET_LEADS = phrases.LORE_SECRET_LEADS;

// ---------------------------------------------------------------- the speech style applied

const CONTRACTIONS: [RegExp, string][] = [
  [/\bI'm\b/g, "I am"],
  [/\bI've\b/g, "I have"],
  [/\bI'd\b/g, "I would"],
  [/\bI'll\b/g, "I will"],
  [/\b([Yy]ou|[Ww]e|[Tt]hey)'re\b/g, "$1 are"],
  [/\b([Yy]ou|[Ww]e|[Tt]hey)'ve\b/g, "$1 have"],
  [/\b([Yy]ou|[Ww]e|[Tt]hey)'ll\b/g, "$1 will"],
  [/\b([Ii]t|[Tt]hat|[Tt]here|[Ww]hat|[Hh]ere|[Ww]ho|[Ss]he|[Hh]e)'s\b/g, "$1 is"],
  [/\b[Ll]et's\b/g, "let us"],
  [/\bcan't\b/gi, "cannot"],
  [/\bwon't\b/gi, "will not"],
  [/\b(do|does|did|is|are|was|were|have|has|had|would|could|should|wasn)n't\b/gi, "$1 not"],
  [/\bgonna\b/g, "going to"],
  [/\bwanna\b/g, "want to"],
  [/\bkinda\b/g, "rather"],
  [/\b[Yy]eah\b/g, "yes"],
  [/\bOkay\b/g, "Very well"],
];

/** Casual openings a formal persona does not use, and what it says instead. */
const FORMAL_OPENINGS: [RegExp, string][] = [
  [/^(Hey hey|Hey|Hi|Hiya)\b[,!.]?/, "Hello."],
  [/^(Ha|Ooh|Aww|Ugh|Whoa|Wow)\b[,!.]?\s*/, ""],
  [/^Yes! Finally someone asks!/, "I am glad you asked."],
  [/Spill!/, "Do tell."],
];

const capitalize = (text: string) => text.replace(/^(\W*)(\p{Ll})/u, (_, pre: string, letter: string) => pre + letter.toUpperCase());

function sentencesOf(text: string): string[] {
  return (text.match(/[^.!?…]+(?:[.!?…]+["'”’)\]*~]*|$)\s*/g) ?? [text]).map((s) => s.trim()).filter(Boolean);
}

/** Splits long sentences at their clause breaks (', and', ';', ' — ') for a persona that speaks in short sentences. */
function shorten(sentences: string[]): string[] {
  return sentences
    .flatMap((s) => s.split(/(?:,? and (?=I |it |that |my |we |the )|; | — |, but )/))
    .map((s) => capitalize(s.trim()))
    .filter(Boolean)
    .map((s) => (/[.!?…"'”*~)]$/.test(s) ? s : `${s}.`));
}

function endWith(sentenceText: string, mark: string): string {
  return sentenceText.replace(/[.!?…]*(["'”’)\]*~]*)$/, (_, close: string) => `${mark}${close}`);
}

function withTic(sentenceText: string, tic: string): string {
  if (tic === "~") return sentenceText.replace(/([.!?…]*)(["'”’)\]*]*)$/, "~$1$2");
  return sentenceText.replace(/([.!?…]*)(["'”’)\]*~]*)$/, (_, mark: string, close: string) => `, ${tic}${mark || "."}${close}`);
}

const EMOJI: Partial<Record<Topic, string[]>> = phrases.EMOJI;

/** The reply in the speech style: each cue's effect, in a fixed order (see styleOf). */
function applyStyle(lines: string[], style: Style, topic: Topic, pick: <T>(items: readonly T[]) => T): string[] {
  let sentences = sentencesOf(lines.join(" "));
  if (style.short) sentences = shorten(sentences).slice(0, 3);
  if (style.formal) {
    sentences = sentences
      .map((s) => {
        let t = s;
        for (const [pattern, replacement] of FORMAL_OPENINGS) t = t.replace(pattern, replacement).trim();
        for (const [pattern, replacement] of CONTRACTIONS) t = t.replace(pattern, replacement);
        return capitalize(t.replace(/!+/g, "."));
      })
      .filter((s) => s !== "" && s !== ".");
  }
  if (style.calm) sentences = sentences.map((s) => s.replace(/!+/g, ".").replace(/\?\./g, "?").replace(/\.\.+/g, "."));
  if (style.exclaims) sentences = sentences.map((s) => (/[.]["'”’)\]*~]*$/.test(s) && !/\.\.\.$/.test(s) ? endWith(s, "!") : s));
  if (style.trailing) sentences = sentences.map((s, i) => (i % 2 === 0 && /[.!]["'”’)\]*~]*$/.test(s) ? endWith(s, "…") : s));
  if (style.tic) sentences = sentences.map((s, i) => (i % 2 === 0 && !/^\*.*\*$/.test(s) && !/["”]$/.test(s) ? withTic(s, style.tic!) : s));
  if (style.emoji) sentences.push(pick(EMOJI[topic] ?? ["😊", "✨", "🙂"]));
  return sentences;
}

// ---------------------------------------------------------------- one draft

/** Topics where no opener, follow-up question or joke is added. */
const PLAIN: readonly Topic[] = [
  "greeting",
  "howAreYou",
  "thanks",
  "goodbye",
  "statement",
  "feelingDown",
  "feelingUp",
  "offTopic",
  "smallTalk",
  "followUp",
  "reciprocal",
  "compliment",
  "ack",
  "have",
  "joke",
  "opinion",
  "question",
];

function draft(c: Context, attempt: number): string {
  const input = c.input;
  const seedText = [input.personaId, attempt, ...c.window.map((t) => `${t.role}:${t.content}`), ...(input.avoid ?? [])].join("\n");
  const random = mulberry32(hashString(seedText));
  const pick = <T>(items: readonly T[]): T => items[Math.min(items.length - 1, Math.floor(random() * items.length))]!;
  const p: Parts = { c, random, pick };
  /** A pick among lines not yet said in the window (any line when all were). */
  const pickFresh = (items: readonly string[]) => {
    const unsaid = items.filter((item) => !c.said.includes(item.toLowerCase()));
    return pick(unsaid.length > 0 ? unsaid : items);
  };
  const style = c.style;
  const topic = c.topic;
  const voice = c.persona.voice ?? {};

  // A conversation that opens without the persona's greeting gets it (or an alternate one).
  const hasReplied = c.window.some((t) => t.role === "assistant");
  if (topic === "greeting" && !hasReplied) {
    const greetings = [voice.greeting, ...(voice.alternateGreetings ?? [])].filter((g): g is string => !!g && g.trim() !== "");
    if (greetings.length > 0) return capText(fillPlaceholders(pick(greetings), c.persona.name.trim()).trim(), CHAT_REPLY_MAX_CHARS);
  }

  // A question about a lore entry's subject is answered from the entry (a false memory is corrected from the sheet first).
  const asked = topic === "greeting" || topic === "misremembered" ? null : loreAsked(c.lastUser, input.lore);
  let body = (asked ? loreAnswer(asked, p) : answer(topic, p)).filter((s) => s.trim() !== "");
  // The example dialogue's own line, where one answers a message like this.
  const own = topic === "greeting" || asked ? null : exampleFor(c, topic);
  if (own && random() < 0.7) {
    if (FACT_TOPICS.includes(topic)) {
      // The fact stays; the persona's own words come first.
      body = [own, ...body.filter((line) => !own.toLowerCase().includes(line.toLowerCase().slice(0, 20)))];
    } else {
      // The persona's own answer stands alone, with at most a question back.
      body = [own, ...(random() < 0.5 ? [pickFresh(FOLLOW_UPS[style.energy])] : [])];
    }
  }

  const lines: string[] = [];
  const factual = !PLAIN.includes(topic);
  // Sad news, and what follows it, gets no jokes or catchphrases.
  const somber =
    topic === "feelingDown" ||
    topic === "offTopic" ||
    ((topic === "followUp" || topic === "reciprocal") && c.previousTopic === "feelingDown");
  const padded = factual && !style.direct && !style.short;
  if (padded && random() < 0.8) {
    const actions = exampleActions(c);
    lines.push(actions.length > 0 && random() < 0.4 ? pick(actions) : pickFresh(OPENERS[style.energy]));
  }
  lines.push(...(style.direct ? body.slice(0, 2) : body));
  if (style.warm && factual && !style.short && random() < 0.4) lines.push(pickFresh(WARMTH));
  if (style.humorous && !somber && !style.short && random() < 0.35) lines.push(pickFresh(JOKES));
  if (style.teacher && factual && !style.short && random() < 0.5) {
    lines.push(`Fun fact: ${pick(c.persona.interests.length ? c.persona.interests : ["curiosity"])} is full of surprises if you dig in.`);
  }
  if (padded && random() < 0.6) lines.push(pickFresh(FOLLOW_UPS[style.energy]));

  let sentences = applyStyle(lines, style, topic, pick);

  // A catchphrase now and then: none on sad news or in the two replies after one, then even odds
  // (most greetings and good news), so about one reply in three or four. It opens a greeting or
  // good news, and closes anything else.
  const recent = c.window
    .filter((t) => t.role === "assistant")
    .slice(-2)
    .map((t) => t.content.toLowerCase());
  const spoken = c.catchphrases.some((phrase) => recent.some((reply) => reply.includes(phrase.toLowerCase())));
  const opens = topic === "greeting" || topic === "feelingUp";
  const chance = somber || spoken ? 0 : opens ? 0.8 : 0.5;
  if (c.catchphrases.length > 0 && random() < chance) {
    const phrase = sentence(pick(c.catchphrases));
    sentences = opens ? [phrase, ...sentences] : [...sentences, phrase];
  }

  let reply = sentences.join(" ").replace(/\s+/g, " ").trim();
  if (style.lowercase) reply = reply.toLowerCase();
  return capText(reply, CHAT_REPLY_MAX_CHARS);
}

// ---------------------------------------------------------------- the reply

/** How many drafts a regenerated reply is chosen from (the least like the replies it replaces). */
export const REGENERATE_DRAFTS = 8;

/** Whether a reply quotes the user's message, or repeats four or more of its words in a row. */
export function echoes(reply: string, message: string): boolean {
  const words = (text: string) =>
    normalized(text)
      .replace(/[^\p{L}\p{N}' ]/gu, " ")
      .split(" ")
      .filter(Boolean);
  const said = words(message);
  if (said.length < 4) return false;
  const replyText = ` ${words(reply).join(" ")} `;
  for (let i = 0; i + 4 <= said.length; i++) {
    if (replyText.includes(` ${said.slice(i, i + 4).join(" ")} `)) return true;
  }
  return false;
}

const CLOSERS = phrases.CLOSERS;

/** The persona's reply to the last user message of the input. */
export function composeChatReply(input: ChatInput): string {
  const c = contextOf(input);
  let avoid = (input.avoid ?? []).filter((a) => a.trim() !== "");
  // A regenerated reply also differs from the first reply to this message, so a third draw does not go back to it.
  if (avoid.length > 0) {
    const original = composeChatReply({ ...input, avoid: [] });
    if (!avoid.includes(original)) avoid = [...avoid, original];
  }
  const banned = new Set<string>([...avoid, ...c.window.filter((t) => t.role === "assistant").map((t) => t.content)]);
  const usable = (reply: string) => !banned.has(reply) && !echoes(reply, c.lastUser) && !OUT_OF_CHARACTER.test(reply);

  let reply = "";
  if (avoid.length === 0) {
    let fallback: string | null = null;
    for (let attempt = 0; attempt < REGENERATE_DRAFTS; attempt++) {
      reply = draft(c, attempt);
      if (usable(reply)) return reply;
      if (fallback === null && !banned.has(reply) && !OUT_OF_CHARACTER.test(reply)) fallback = reply;
    }
    // Facts the user named themselves may repeat their words; that is no echo in quotes.
    if (fallback !== null) return fallback;
  } else {
    // Regenerate: the draft least like the replies it replaces, so it says something else.
    let best: { reply: string; score: number } | null = null;
    for (let attempt = 0; attempt < REGENERATE_DRAFTS; attempt++) {
      const candidate = draft(c, attempt);
      if (!usable(candidate)) continue;
      const score = Math.max(...avoid.map((a) => replySimilarity(candidate, a)));
      if (!best || score < best.score) best = { reply: candidate, score };
    }
    if (best) return best.reply;
    reply = draft(c, 0);
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
