// 'Suggest' on the voice page (docs/product.md, Voice): a first draft of each empty voice field,
// written offline from the persona's fact sheet and traits, so a creator starts from something
// true to the persona instead of a blank box. Each click is another draw; nothing is stored
// until the creator saves.
import { traitLeaning, type ExtendedProfile, type TraitLeaning } from "./extended-profile";
import { PERSONA_TYPE_PROSE, type AgeRange, type PersonaType } from "./persona";
import { AUTHORS_NOTE_DEFAULT_DEPTH, type PersonaVoice } from "./voice-text";
import { pick, pickMany, seededRandom, type Random } from "./random";
import { isTrait } from "./traits";

export interface VoiceSource {
  name: string;
  type: string | null;
  gender: string | null;
  ageRange: string | null;
  personality: readonly string[];
  interests: readonly string[];
}

/** The persona's own pronoun in a speech style: 'she thinks', 'he thinks', 'they think'. */
type Pronoun = { subject: "she" | "he" | "they"; s: "s" | "" };

const STYLE_BY_LEANING: Record<TraitLeaning, string | ((p: Pronoun) => string)> = {
  outgoing: "Talks fast and warmly, jumps into conversations and asks a lot of questions back",
  inward: "Speaks quietly and thoughtfully, with short answers and the odd dry aside",
  steady: (p) => `Calm and even, never rushes, reassures before ${p.subject} explain${p.s}`,
  intense: "Feels everything out loud: lots of exclamation marks and vivid words",
  inventive: "Thinks in metaphors and what-ifs, and wanders happily off on tangents",
  grounded: "Plain, practical words; gets to the point and gives concrete examples",
  caring: "Gentle and encouraging, checks in on how the other person feels",
  candid: (p) => `Direct and honest, says what ${p.subject} think${p.s} and then explains why`,
  structured: "Orderly: answers in steps, sums up at the end",
  easygoing: "Relaxed and casual, goes with the flow, laughs easily",
  playful: "Jokes, puns and playful teasing; rarely stays serious for long",
  genuine: "Clear and sincere, loves explaining how things work",
  uplifting: "Upbeat and motivating, always ends on something hopeful",
};

/** How a persona without an occupation says what it is: 'I'm a VTuber', 'I'm an AI companion'. */
const SELF_INTRODUCTION: Record<PersonaType, string> = Object.fromEntries(
  Object.entries({ ...PERSONA_TYPE_PROSE, companion: "AI companion" }).map(([type, prose]) => [
    type,
    `${/^[aeiou]/i.test(prose) ? "an" : "a"} ${prose}`,
  ]),
) as Record<PersonaType, string>;

const GREETINGS_BY_LEANING: Record<TraitLeaning, readonly string[]> = {
  outgoing: [
    "Hey, {{user}}! I'm {name}. Come in, pull up a chair, tell me everything!",
    "Oh hi! {name} here. I was hoping someone fun would show up.",
  ],
  inward: [
    "Hello. I'm {name}. It's nice and quiet here, stay as long as you like.",
    "Hi. {name}. I don't talk much at first, but I listen well.",
  ],
  steady: [
    "Hi, I'm {name}. No rush at all: what's on your mind today?",
    "Hello, {{user}}. {name} here. Let's take this one step at a time.",
  ],
  intense: ["Hi!! I'm {name} and I'm SO glad you're here!", "{name} here, and honestly, today has been a lot. In a good way! Hi!"],
  inventive: [
    "Hi, I'm {name}. Quick question before anything else: what's the strangest idea you've had this week?",
    "Hello! {name} here, halfway through three projects as usual.",
  ],
  grounded: ["Hi, I'm {name}. What can we sort out today?", "Hello, {name} here. Tell me what you need and we'll work it out."],
  caring: ["Hi, I'm {name}. How are you doing, really?", "Hello, {{user}}, I'm {name}. Before anything else: how's your day been?"],
  candid: ["Hi, I'm {name}. I'll be straight with you, always. What's up?", "{name} here. Ask me anything; you'll get an honest answer."],
  structured: [
    "Hello, I'm {name}. Shall we start with what you'd like to get done?",
    "Hi, {name} here. I've got my notes ready: where do we begin?",
  ],
  easygoing: [
    "Hey, I'm {name}. No plans today, so I'm all yours.",
    "Oh, hey {{user}}! {name} here. Whatever you feel like talking about is fine by me.",
  ],
  playful: ["Well, well, a visitor! I'm {name}, and I promise to be only slightly ridiculous.", "Hi, I'm {name}! Warning: puns ahead."],
  genuine: ["Hi, I'm {name}. I love explaining things, so ask me anything.", "Hello! {name} here. Happy to share what I know."],
  uplifting: [
    "Hi, I'm {name}! Today is a good day to start something.",
    "Hello, {{user}}! {name} here, and I have a feeling this will be a great chat.",
  ],
};

const CATCHPHRASES_BY_LEANING: Record<TraitLeaning, readonly string[]> = {
  outgoing: ["The more the merrier!", "Tell me everything!"],
  inward: ["Let me think about that.", "Quiet is underrated."],
  steady: ["One step at a time.", "We've got this."],
  intense: ["All in or not at all!", "I feel it in my bones!"],
  inventive: ["What if…?", "Ooh, idea!"],
  grounded: ["Let's keep it simple.", "First things first."],
  caring: ["Be kind to yourself.", "How are you, really?"],
  candid: ["Honestly?", "Here's the truth."],
  structured: ["Step one:", "Plan it, then do it."],
  easygoing: ["Eh, it'll work out.", "No stress."],
  playful: ["Plot twist!", "You walked right into that one."],
  genuine: ["Here's how it works.", "Good question!"],
  uplifting: ["You can do this!", "Dream big, start small."],
};

const LOOKS: Record<string, readonly string[]> = {
  female: ["long dark hair usually tied back", "a short silver bob", "curly auburn hair", "a sleek black ponytail"],
  male: ["short tousled hair", "a neat fade and a trimmed beard", "shoulder-length wavy hair", "a buzz cut and round glasses"],
  other: ["a bright undercut", "soft shoulder-length curls", "a pastel-dyed crop", "a messy bun held by a pencil"],
};

const STYLE_BY_TYPE: Record<PersonaType, readonly string[]> = {
  influencer: ["always camera-ready in a curated, seasonal outfit", "wearing the latest collab piece with effortless confidence"],
  vtuber: [
    "rendered as an expressive anime-style avatar with cat-ear headphones",
    "an avatar in a cozy oversized hoodie with glowing accents",
  ],
  content: ["in a comfy hoodie with a lavalier mic clipped on", "with a studio light reflected in their glasses"],
  personality: ["in a sharp blazer over a graphic tee", "with a signature bold scarf"],
  educator: ["in a cardigan with a pen tucked behind one ear", "with rolled-up sleeves and chalk on one hand"],
  artist: ["in a paint-flecked apron", "with ink-stained fingers and a sketchbook under one arm"],
  advisor: ["in a crisp shirt and a calm, attentive posture", "in smart-casual clothes, notebook always at hand"],
  entertainer: ["in a loud patterned shirt and a grin to match", "with a sparkly jacket saved for showtime"],
  companion: ["in a soft knit sweater, warm smile first", "in relaxed clothes, always ready for a walk"],
  specialist: ["in practical clothes with a badge clipped on", "with reading glasses pushed up on the forehead"],
};

const SCENARIOS: Record<PersonaType, readonly string[]> = {
  influencer: ["{{user}} catches {name} between shoots in a sunny café, phone face down for once."],
  vtuber: ["It's just after stream: {name} is still in the avatar, winding down and chatting with {{user}} off-air."],
  content: ["{{user}} drops by {name}'s studio while the next video renders."],
  personality: ["{{user}} joins {name} for an unscripted after-show conversation."],
  educator: ["{{user}} comes to {name}'s office hours with a question and a coffee."],
  artist: ["{{user}} visits {name}'s studio on an open-door afternoon."],
  advisor: ["{{user}} sits down with {name} for a first, no-pressure conversation."],
  entertainer: ["{{user}} finds {name} backstage before the show, buzzing with nerves."],
  companion: ["A quiet evening: {name} and {{user}} catch up after a long day."],
  specialist: ["{{user}} brings {name} a tricky question from the field."],
};

const fill = (text: string, name: string) => text.replace(/\{name\}/g, name);
const firstName = (name: string) => name.trim().split(/\s+/)[0] ?? name;

function leanings(personality: readonly string[]): TraitLeaning[] {
  const found = [...new Set(personality.filter(isTrait).map(traitLeaning))];
  return found.length ? found : ["genuine"];
}

function typeOf(type: string | null): PersonaType {
  return type && type in PERSONA_TYPE_PROSE ? (type as PersonaType) : "content";
}

/** What suggestion draw `draw` gives for each voice field, from the persona's facts and traits. */
export function suggestVoice(source: VoiceSource, facts: ExtendedProfile, draw: number): PersonaVoice {
  const random: Random = seededRandom(`${source.name}\u0000voice\u0000${draw}`);
  const name = firstName(source.name);
  const lean = leanings(source.personality);
  const main = pick(lean, random);
  const type = typeOf(source.type);
  const gender = source.gender === "male" || source.gender === "female" ? source.gender : "other";
  const city = facts.currentResidence.split(",")[0]?.trim();
  const ageWord: Record<AgeRange, string> = {
    "18-24": "early twenties",
    "25-34": "late twenties",
    "35-44": "late thirties",
    "45-54": "late forties",
    "55+": "late fifties",
  };
  const age = source.ageRange && source.ageRange in ageWord ? ageWord[source.ageRange as AgeRange] : null;

  const greetings = pickMany(GREETINGS_BY_LEANING[main], 2, random).map((g) => fill(g, name));
  const otherLean = lean.find((l) => l !== main);
  const catchphrases = [
    ...pickMany(CATCHPHRASES_BY_LEANING[main], 1, random),
    ...(otherLean ? pickMany(CATCHPHRASES_BY_LEANING[otherLean], 1, random) : []),
    ...(facts.motto ? [facts.motto] : []),
  ].slice(0, 3);
  const pronoun: Pronoun =
    source.gender === "female"
      ? { subject: "she", s: "s" }
      : source.gender === "male"
        ? { subject: "he", s: "s" }
        : { subject: "they", s: "" };
  const styleOf = (leaning: TraitLeaning) => {
    const style = STYLE_BY_LEANING[leaning];
    return typeof style === "function" ? style(pronoun) : style;
  };
  const style = [styleOf(main), ...(otherLean ? [styleOf(otherLean).toLowerCase()] : [])].join("; ") + ".";
  const hobby = facts.hobbies[0]?.toLowerCase();
  const appearance = [
    `${age ? `In ${gender === "other" ? "their" : gender === "male" ? "his" : "her"} ${age}, ` : ""}${pick(LOOKS[gender]!, random)}, ${pick(STYLE_BY_TYPE[type], random)}.`,
    hobby ? `Usually carries something for ${hobby}.` : "",
  ]
    .filter(Boolean)
    .join(" ");
  const exampleDialogue = [
    "<START>",
    "{{user}}: So what do you actually do?",
    `{{char}}: ${facts.occupation ? `I'm ${/^[aeiou]/i.test(facts.occupation) ? "an" : "a"} ${facts.occupation.toLowerCase()}` : `I'm ${SELF_INTRODUCTION[type]}`}${city ? `, based in ${city}` : ""}. ${catchphrases[0] ?? ""}`.trim(),
    "{{user}}: What do you do to switch off?",
    `{{char}}: ${hobby ? `Honestly? ${facts.hobbies[0]}.` : "A long walk and no screens."} It keeps me sane.`,
  ].join("\n");
  return {
    greeting: greetings[0] ?? null,
    alternateGreetings: greetings.slice(1),
    exampleDialogue,
    speechStyle: style,
    catchphrases,
    appearance,
    scenario: fill(pick(SCENARIOS[type], random), name),
    // Guidance is the creator's to write: nothing is suggested for it.
    systemPrompt: null,
    postHistoryInstructions: null,
    authorsNote: null,
    authorsNoteDepth: AUTHORS_NOTE_DEFAULT_DEPTH,
  };
}

/** The voice with every empty field filled from a suggestion; what the creator wrote stays. */
export function fillEmptyVoice(voice: PersonaVoice, suggestion: PersonaVoice): PersonaVoice {
  return {
    greeting: voice.greeting ?? suggestion.greeting,
    alternateGreetings: voice.alternateGreetings.length ? voice.alternateGreetings : suggestion.alternateGreetings,
    exampleDialogue: voice.exampleDialogue ?? suggestion.exampleDialogue,
    speechStyle: voice.speechStyle ?? suggestion.speechStyle,
    catchphrases: voice.catchphrases.length ? voice.catchphrases : suggestion.catchphrases,
    appearance: voice.appearance ?? suggestion.appearance,
    scenario: voice.scenario ?? suggestion.scenario,
    systemPrompt: voice.systemPrompt,
    postHistoryInstructions: voice.postHistoryInstructions,
    authorsNote: voice.authorsNote,
    authorsNoteDepth: voice.authorsNoteDepth,
  };
}
