// The embedded image generator's drawing: a painted portrait of a persona as SVG, which
// local-image.server.ts renders with sharp. Deterministic: the same persona, style and slot
// always give the same picture. The look rules are in docs/product.md (Reference images).
//
// What the persona decides (its fields seed every draw; its appearance text, when it has one,
// overrides what it names):
//   - face: one of six shapes (oval, round, square, heart, long, diamond) with its own width,
//     jaw and chin; eye shape, size and spacing, brows, nose and mouth widths;
//   - skin: ten tones; hair: fifteen cuts in three lengths, natural or dyed colours, grey with
//     age; eyes: seven iris colours; beards and stubble; freckles; lines with age;
//   - expression (traits): calm, smile, grin, set or smirk; the second image another one;
//   - clothing (type and interests): hoodie, blazer, turtleneck, tee, sweater, track jacket,
//     lab coat, apron, field jacket, cardigan or blouse, in the persona's palette;
//   - palette (traits: warm or cool; bright or low-key backdrop) and a side the light comes from;
//   - accessories (type, appearance): glasses, cat-ear headphones, a beret, a tie, a scarf…
//
// What the style decides is how it is drawn, not just its colours:
//   - photorealistic: painted light: gradients on skin, hair and cloth, soft cast shadows,
//     highlights, shaded eyes with irises and catchlights, a lit backdrop;
//   - anime: flat cel shading with hard shadows, dark outlines, large shining eyes, pointed
//     fringe locks, speed lines and sparkles;
//   - digital_art: low-poly facets, neon glow outlines, a synthwave ground;
//   - cinematic: letterbox bars, a hard side light, teal and orange, vignette and film grain;
//   - minimalist: thin line art on a pale ground, one accent shape, no shading.
// The primary image is a head-and-shoulders portrait; the secondary one a half-body picture in
// another setting, the head turned, with arms, another expression and something in hand.
import type { ImageSlot, ImageStyle } from "~/domain/images";
import { hashString, mulberry32, type Random } from "~/domain/random";

export interface PortraitPersona {
  name: string;
  type?: string | null;
  gender?: string | null;
  ageRange?: string | null;
  interests: readonly string[];
  personality: readonly string[];
  /** What the persona looks like, in words (its voice's appearance): hair, eyes, glasses, clothes… */
  appearance?: string | null;
}

export const PORTRAIT_SIZE = 768;

export type FaceShape = "oval" | "round" | "square" | "heart" | "long" | "diamond";
export type HairStyle =
  | "buzz"
  | "crop"
  | "sidepart"
  | "quiff"
  | "curls"
  | "pixie"
  | "bald"
  | "bob"
  | "shoulder"
  | "afro"
  | "bun"
  | "ponytail"
  | "long"
  | "wavy"
  | "braids";
export type HairLength = "short" | "medium" | "long";
export type Expression = "calm" | "smile" | "grin" | "set" | "smirk";
export type Clothing =
  "hoodie" | "blazer" | "turtleneck" | "tee" | "sweater" | "athletic" | "labcoat" | "apron" | "jacket" | "cardigan" | "blouse";
export type FacialHair = "none" | "stubble" | "moustache" | "beard" | "goatee";
export type Accessory =
  "glasses" | "sunglasses" | "catEars" | "headphones" | "beret" | "beanie" | "tie" | "earrings" | "scarf" | "badge" | "mic" | "ring";
type EyeShape = "round" | "almond" | "narrow" | "hooded";
type Pose = "folded" | "prop";

export const HAIR_LENGTH: Record<HairStyle, HairLength> = {
  buzz: "short",
  crop: "short",
  sidepart: "short",
  quiff: "short",
  curls: "short",
  pixie: "short",
  bald: "short",
  bob: "medium",
  shoulder: "medium",
  afro: "medium",
  bun: "medium",
  ponytail: "long",
  long: "long",
  wavy: "long",
  braids: "long",
};

// ---------------------------------------------------------------------------------------
// Colours.

const SKIN = ["#fbe2d2", "#f4cfb4", "#ecbd98", "#dfa77d", "#cd9266", "#b77b52", "#9a6340", "#7d4d31", "#623b25", "#48291b"];
const HAIR_NATURAL = ["#15100e", "#2b1d15", "#4a3020", "#6b3e22", "#86391d", "#b0582a", "#97784a", "#d6b26c", "#ebdfbf"];
const HAIR_DYED = ["#e27aae", "#a68ad8", "#3e6fd6", "#27a39a", "#7ad2ab", "#c9ccd8", "#c42a3d"];
const HAIR_GREY = ["#8e8984", "#b6b1aa", "#d9d5cf"];
const IRIS = ["#3a2213", "#5a3418", "#77662c", "#a3701f", "#4e7a39", "#3f6ea8", "#6e7f8c"];
/** Garment colours that are not from the persona's hues: navy, charcoal, camel, cream, olive, burgundy, denim. */
const NEUTRAL_CLOTH = ["#243352", "#3a3d44", "#b58a5a", "#e9e0cc", "#5d6339", "#6e2533", "#4d6a8f"];

function mix(hex: string, other: string, t: number): string {
  const a = parseInt(hex.slice(1), 16);
  const b = parseInt(other.slice(1), 16);
  const channel = (shift: number) => Math.round(((a >> shift) & 255) * (1 - t) + ((b >> shift) & 255) * t);
  return `#${((channel(16) << 16) | (channel(8) << 8) | channel(0)).toString(16).padStart(6, "0")}`;
}

function luminance(hex: string): number {
  const v = parseInt(hex.slice(1), 16);
  return (0.299 * ((v >> 16) & 255) + 0.587 * ((v >> 8) & 255) + 0.114 * (v & 255)) / 255;
}

function hsl(h: number, s: number, l: number): string {
  const a = (s / 100) * Math.min(l / 100, 1 - l / 100);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    const c = l / 100 - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(255 * c)
      .toString(16)
      .padStart(2, "0");
  };
  return `#${f(0)}${f(8)}${f(4)}`;
}

function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.min(items.length - 1, Math.floor(random() * items.length))]!;
}

function weighted<T extends string>(u: number, weights: Partial<Record<T, number>>): T {
  const entries = Object.entries(weights) as [T, number][];
  const total = entries.reduce((s, [, w]) => s + w, 0);
  let at = u * total;
  for (const [item, w] of entries) {
    at -= w;
    if (at < 0) return item;
  }
  return entries[entries.length - 1]![0];
}

// ---------------------------------------------------------------------------------------
// The appearance text: simple cues, read as words (docs/product.md, Reference images).

export interface AppearanceCues {
  hairColour?: string;
  hairLength?: HairLength;
  hairStyle?: HairStyle;
  eyes?: string;
  /** A range of SKIN indices. */
  skin?: [number, number];
  facialHair?: FacialHair;
  freckles?: boolean;
  clothing?: Clothing;
  clothingColour?: string;
  accessories: Accessory[];
}

const COLOUR_WORDS: [RegExp, string][] = [
  [/\b(pink|rose|magenta|bubblegum)\b/, "#e27aae"],
  [/\b(purple|violet|lilac|lavender|plum)\b/, "#a68ad8"],
  [/\b(teal|turquoise|aqua|cyan)\b/, "#27a39a"],
  [/\b(blue|azure|cobalt|navy)\b/, "#3e6fd6"],
  [/\b(green|mint|emerald|olive)\b/, "#4f9a5a"],
  [/\bstrawberry\b/, "#c98a5a"],
  [/\b(platinum|white|snow|snowy)\b/, "#ece8e0"],
  [/\b(silver|grey|gray|greying|graying|salt)\b/, "#b6b1aa"],
  [/\b(dirty|dark|ash)[\s-]+blond/, "#97784a"],
  [/\b(blond|blonde|golden|flaxen|honey)\b/, "#d6b26c"],
  [/\b(auburn)\b/, "#86391d"],
  [/\b(red|ginger|copper|fiery|crimson|scarlet)\b/, "#b0582a"],
  [/\b(chestnut|caramel|light[\s-]+brown)\b/, "#6b3e22"],
  [/\b(dark[\s-]+brown|chocolate|espresso)\b/, "#2b1d15"],
  [/\b(brown|brunette|mousy)\b/, "#4a3020"],
  [/\b(black|raven|jet|ebony|inky|dark)\b/, "#15100e"],
];

const EYE_WORDS: [RegExp, string][] = [
  [/\b(hazel)\b/, "#77662c"],
  [/\b(amber|golden|gold|honey)\b/, "#a3701f"],
  [/\b(green|emerald|jade)\b/, "#4e7a39"],
  [/\b(blue|sapphire|azure|ice|icy)\b/, "#3f6ea8"],
  [/\b(grey|gray|silver|steel|steely)\b/, "#6e7f8c"],
  [/\b(violet|purple|lilac)\b/, "#7a4fb0"],
  [/\b(red|crimson|scarlet)\b/, "#a8283a"],
  [/\b(dark|black|brown|chocolate)\b/, "#3a2213"],
];

const GARMENT_WORDS: [RegExp, Clothing][] = [
  [/\bhood(ie|y|ed)\b/, "hoodie"],
  [/\blab[\s-]?coat\b/, "labcoat"],
  [/\bapron\b/, "apron"],
  [/\b(blazer|suit|tuxedo|waistcoat)\b/, "blazer"],
  [/\b(turtle[\s-]?neck|polo[\s-]neck|roll[\s-]neck)\b/, "turtleneck"],
  [/\b(track[\s-]?suit|track jacket|sportswear|athletic|gym|sports bra|jersey)\b/, "athletic"],
  [/\bcardigan\b/, "cardigan"],
  [/\b(sweater|jumper|knit|pullover|sweatshirt)\b/, "sweater"],
  [/\b(jacket|coat|bomber|parka|windbreaker|denim)\b/, "jacket"],
  [/\b(dress|blouse|gown|camisole)\b/, "blouse"],
  [/\b(t-shirt|tee|tshirt|shirt|top)\b/, "tee"],
];

const CLOTH_COLOUR_WORDS: [RegExp, string][] = [
  [/\b(red|crimson|scarlet)\b/, "#b8323f"],
  [/\b(orange|rust|amber)\b/, "#d9702c"],
  [/\b(yellow|mustard|gold)\b/, "#d9b43c"],
  [/\b(pink|rose|magenta)\b/, "#df7ea6"],
  [/\b(purple|violet|lilac|lavender)\b/, "#7b5bb0"],
  [/\b(teal|turquoise)\b/, "#24837c"],
  [/\b(navy)\b/, "#243352"],
  [/\b(blue|denim|cobalt)\b/, "#3a64b0"],
  [/\b(green|olive|khaki|sage)\b/, "#5d7a45"],
  [/\b(black)\b/, "#1e1e22"],
  [/\b(white|cream|ivory)\b/, "#eeeae0"],
  [/\b(grey|gray|charcoal|silver)\b/, "#6c6f76"],
  [/\b(brown|tan|camel|beige|leather)\b/, "#8a5d3b"],
];

function colourOf(phrase: string, words: readonly [RegExp, string][]): string | undefined {
  for (const [pattern, colour] of words) if (pattern.test(phrase)) return colour;
  return undefined;
}

/** The words just before `noun` in the same clause (up to four), for 'long wavy copper hair'. */
function before(text: string, noun: RegExp): string[] {
  const out: string[] = [];
  const re = new RegExp(`((?:[a-z]+[\\s-]+){0,4})${noun.source}`, "g");
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const words = m[1]!.split(/\b(?:and|with|or|but|eyes?|eyed|wears?|wearing|has|in)\b/);
    out.push(words[words.length - 1]!);
    if (m[0].length === 0) re.lastIndex += 1;
  }
  return out;
}

export function appearanceCues(appearance: string | null | undefined): AppearanceCues {
  const cues: AppearanceCues = { accessories: [] };
  const text = (appearance ?? "")
    .toLowerCase()
    .slice(0, 2_000)
    .replace(/[,;:()]/g, " ");
  if (!text.trim()) return cues;
  const has = (re: RegExp) => re.test(text);
  const no = (word: string) => new RegExp(`\\b(no|without|never)\\s+(\\w+\\s+)?${word}`).test(text);

  // Hair: the words before 'hair' / '-haired', and the cuts that name themselves.
  const hairWords = [...before(text, /hair(?:ed)?\b/), ...before(text, /locks\b/)].join(" ");
  const hairColourText = `${hairWords} ${(text.match(/\b(blond|blonde|brunette|redhead|ginger|platinum)\b/g) ?? []).join(" ")}`;
  cues.hairColour = colourOf(hairColourText, COLOUR_WORDS);
  if (!cues.hairColour && has(/\bredhead\b/)) cues.hairColour = "#b0582a";
  const lengthText = `${hairWords} ${text}`;
  if (/\b(shoulder[\s-]length|medium[\s-]length|chin[\s-]length|mid[\s-]length)\b/.test(lengthText)) cues.hairLength = "medium";
  else if (/\blong\b/.test(hairWords) || has(/\b(waist|hip)[\s-]length\b/)) cues.hairLength = "long";
  else if (/\b(short|cropped|close[\s-]cropped)\b/.test(hairWords)) cues.hairLength = "short";
  const style: [RegExp, HairStyle][] = [
    [/\b(bald|shaved head|shaven head|clean[\s-]shaven head)\b/, "bald"],
    [/\b(buzz[\s-]?cut|buzzed|shaved|crew[\s-]cut)\b/, "buzz"],
    [/\b(afro)\b/, "afro"],
    [/\b(braids?|braided|dreadlocks|dreads|locs|cornrows)\b/, "braids"],
    [/\b(ponytail|pony[\s-]tail)\b/, "ponytail"],
    [/\b(bun|topknot|top[\s-]knot|chignon)\b/, "bun"],
    [/\b(pixie)\b/, "pixie"],
    [/\b(bob|bobbed)\b/, "bob"],
    [/\b(quiff|pompadour|mohawk|spiky|spiked)\b/, "quiff"],
    [/\b(side[\s-]part(ed)?|slicked|swept)\b/, "sidepart"],
  ];
  for (const [pattern, cut] of style) {
    if (has(pattern)) {
      cues.hairStyle = cut;
      break;
    }
  }
  const curly = /\b(curly|curls|coily|kinky|ringlets)\b/.test(`${hairWords} ${text}`);
  const wavy = /\b(wavy|waves)\b/.test(hairWords);
  if (!cues.hairStyle && (curly || wavy)) {
    cues.hairStyle = cues.hairLength === "long" ? "wavy" : cues.hairLength === "short" ? "curls" : curly ? "afro" : "wavy";
  }
  if (!cues.hairStyle && cues.hairLength === "long" && /\bstraight\b/.test(hairWords)) cues.hairStyle = "long";

  // Eyes: the words before 'eyes' / '-eyed'.
  cues.eyes = colourOf(before(text, /eye(?:s|d)\b/).join(" "), EYE_WORDS);

  // Skin.
  const skinWords = before(text, /(?:skin(?:ned)?|complexion)\b/).join(" ");
  if (/\b(dark|deep|ebony|black)\b/.test(skinWords)) cues.skin = [7, 9];
  else if (/\b(brown|bronze|umber)\b/.test(skinWords)) cues.skin = [5, 7];
  else if (/\b(olive|tan|tanned|golden)\b/.test(skinWords) || has(/\b(tanned|sun[\s-]kissed)\b/)) cues.skin = [3, 5];
  else if (/\b(pale|fair|porcelain|light|ivory|rosy)\b/.test(skinWords) || has(/\b(pale|porcelain)\b/)) cues.skin = [0, 1];

  if (has(/\bfreckle(s|d)?\b/) && !no("freckles")) cues.freckles = true;
  if (has(/\bclean[\s-]shaven\b/) && !has(/\bhead\b/)) cues.facialHair = "none";
  else if (has(/\bgoatee\b/)) cues.facialHair = "goatee";
  else if (has(/\b(beard|bearded)\b/) && !no("beard")) cues.facialHair = "beard";
  else if (has(/\b(moustache|mustache)\b/)) cues.facialHair = "moustache";
  else if (has(/\bstubble\b/)) cues.facialHair = "stubble";

  // Clothes: the first garment named, and the colour before it.
  for (const [pattern, garment] of GARMENT_WORDS) {
    const m = pattern.exec(text);
    if (m) {
      cues.clothing = garment;
      const colour = colourOf(before(text, new RegExp(m[0].replace(/[-\s]/g, "[\\s-]?"))).join(" "), CLOTH_COLOUR_WORDS);
      if (colour) cues.clothingColour = colour;
      break;
    }
  }

  // Accessories.
  const add = (a: Accessory) => cues.accessories.includes(a) || cues.accessories.push(a);
  if (has(/\bcat[\s-]*ears?\b/)) add("catEars");
  else if (has(/\b(headphones|headset|earphones|cans)\b/)) add("headphones");
  if (has(/\b(sunglasses|shades)\b/)) add("sunglasses");
  else if (has(/\b(glasses|spectacles|specs|eyeglasses|frames|monocle)\b/) && !no("glasses")) add("glasses");
  if (has(/\bberet\b/)) add("beret");
  else if (has(/\b(beanie|toque|knit cap|woolly hat|hat|cap)\b/)) add("beanie");
  if (has(/\b(earrings?|hoops|piercings?|studs)\b/)) add("earrings");
  if (has(/\b(scarf|shawl)\b/)) add("scarf");
  if (has(/\b(tie|necktie|bow[\s-]tie)\b/)) add("tie");
  return cues;
}

// ---------------------------------------------------------------------------------------
// The look: every choice about the persona's picture, made once from its fields.

const WARM_TRAITS = new Set([
  "Outgoing",
  "Social",
  "Passionate",
  "Entertaining",
  "Humorous",
  "Spontaneous",
  "Creative",
  "Inspirational",
  "Compassionate",
]);
const COOL_TRAITS = new Set(["Reserved", "Quiet", "Calm", "Reflective", "Cautious", "Organized", "Practical", "Disciplined", "Skeptical"]);
const BRIGHT_TRAITS = new Set([
  "Outgoing",
  "Social",
  "Humorous",
  "Entertaining",
  "Spontaneous",
  "Aspirational",
  "Inspirational",
  "Trusting",
]);
const LOW_KEY_TRAITS = new Set(["Reserved", "Quiet", "Reflective", "Cautious", "Skeptical", "Sensitive", "Focused"]);
const SMILING = new Set(["Outgoing", "Social", "Empathetic", "Trusting", "Compassionate", "Inspirational"]);
const GRINNING = new Set(["Humorous", "Entertaining", "Spontaneous"]);
const DETERMINED = new Set(["Assertive", "Competitive", "Direct", "Disciplined", "Focused"]);
const WRY = new Set(["Skeptical", "Imaginative"]);
/** The second image's expression: another mood of the same persona. */
const SECOND_EXPRESSION: Record<Expression, Expression> = { calm: "smile", smile: "grin", grin: "smile", set: "smirk", smirk: "set" };

const TYPE_ACCESSORY: Record<string, Accessory> = {
  influencer: "ring",
  vtuber: "catEars",
  content: "headphones",
  personality: "mic",
  educator: "glasses",
  artist: "beret",
  advisor: "tie",
  entertainer: "earrings",
  companion: "scarf",
  specialist: "badge",
};
const TYPE_CLOTHING: Record<string, Clothing[]> = {
  influencer: ["blouse", "jacket", "tee"],
  vtuber: ["hoodie", "tee"],
  content: ["hoodie", "tee", "jacket"],
  personality: ["tee", "sweater", "jacket"],
  educator: ["cardigan", "sweater", "blazer"],
  artist: ["turtleneck", "tee", "apron"],
  advisor: ["blazer"],
  entertainer: ["jacket", "blouse", "tee"],
  companion: ["sweater", "cardigan", "blouse"],
  specialist: ["blazer", "labcoat", "turtleneck"],
};
const INTEREST_CLOTHING: Record<string, Clothing> = {
  gaming: "hoodie",
  tech: "hoodie",
  fashion: "blouse",
  fitness: "athletic",
  science: "labcoat",
  cooking: "apron",
  travel: "jacket",
  business: "blazer",
  education: "cardigan",
  art: "turtleneck",
};
/** Hue of each interest, nudging the palette. */
const INTEREST_HUE: Record<string, number> = {
  gaming: 275,
  tech: 200,
  fashion: 330,
  music: 300,
  art: 20,
  fitness: 140,
  science: 185,
  cooking: 30,
  travel: 45,
  education: 220,
  business: 215,
  entertainment: 350,
};

const FACES: Record<FaceShape, { w: number; h: number; t: number; j: number; c: number }> = {
  oval: { w: 108, h: 142, t: 0.92, j: 0.78, c: 0.22 },
  round: { w: 121, h: 131, t: 0.93, j: 0.86, c: 0.36 },
  square: { w: 115, h: 138, t: 0.97, j: 0.94, c: 0.44 },
  heart: { w: 114, h: 140, t: 1.0, j: 0.68, c: 0.08 },
  long: { w: 97, h: 156, t: 0.94, j: 0.82, c: 0.28 },
  diamond: { w: 116, h: 146, t: 0.8, j: 0.7, c: 0.12 },
};
const FACE_NAMES = Object.keys(FACES) as FaceShape[];
const AGE_INDEX: Record<string, number> = { "18-24": 0, "25-34": 1, "35-44": 2, "45-54": 3, "55+": 4 };

interface Look {
  /** Seeded for the slot: scattered background things. */
  random: Random;
  secondary: boolean;
  /** The head's centre and shape, in figure coordinates (768 wide, before the framing). */
  cx: number;
  cy: number;
  W: number;
  H: number;
  T: number;
  J: number;
  C: number;
  face: FaceShape;
  /** −1…1: the head turned toward the viewer's left or right. */
  turn: number;
  /** The side the key light comes from: −1 the viewer's left, 1 the right. */
  light: -1 | 1;
  skin: string;
  skinLight: string;
  skinShade: string;
  skinDeep: string;
  skinIndex: number;
  hair: string;
  hairLight: string;
  hairDark: string;
  iris: string;
  lips: string;
  accent: string;
  accent2: string;
  hue: number;
  backdrop: string;
  bright: boolean;
  cloth: string;
  clothLight: string;
  clothShade: string;
  clothTrim: string;
  hairStyle: HairStyle;
  /** The side the hair parts or sweeps to. */
  part: -1 | 1;
  /** Long hair tucked behind one ear. */
  tucked: boolean;
  eyeShape: EyeShape;
  eyeSize: number;
  eyeGap: number;
  browWeight: number;
  noseW: number;
  mouthW: number;
  lipFull: number;
  expression: Expression;
  facialHair: FacialHair;
  freckles: boolean;
  older: boolean;
  oldest: boolean;
  clothing: Clothing;
  accessories: Set<Accessory>;
  interests: string[];
  pose: Pose;
  neckW: number;
  shoulderW: number;
  /** The figure's framing: offset, scale and lean. */
  frame: { x: number; y: number; scale: number; tilt: number };
}

function lookOf(persona: PortraitPersona, slot: ImageSlot): Look {
  const key = [
    persona.name.trim().toLowerCase(),
    persona.type,
    persona.gender,
    persona.ageRange,
    [...persona.interests].sort().join(","),
    [...persona.personality].sort().join(","),
  ].join("|");
  // Every draw happens in the same order whatever the appearance says, so a cue changes only
  // what it names.
  const random = mulberry32(hashString(`portrait|${key}`));
  const cues = appearanceCues(persona.appearance);
  const type = persona.type ?? "";
  const male = persona.gender === "male";
  const female = persona.gender === "female";
  const age = AGE_INDEX[persona.ageRange ?? ""] ?? 1;
  const traits = persona.personality;
  const count = (set: Set<string>) => traits.filter((t) => set.has(t)).length;
  const secondary = slot === "secondary";

  // Palette.
  const warmth = count(WARM_TRAITS) - count(COOL_TRAITS);
  const warm = warmth > 0 || (warmth === 0 && random() < 0.5);
  const interestHue = persona.interests.length > 0 ? INTEREST_HUE[persona.interests[0]!] : undefined;
  let hue = warm ? 345 + random() * 70 : 165 + random() * 90;
  if (interestHue !== undefined) hue = hue * 0.7 + (interestHue < hue - 180 ? interestHue + 360 : interestHue) * 0.3;
  hue %= 360;
  const brightness = count(BRIGHT_TRAITS) - count(LOW_KEY_TRAITS);
  const bright = random() < 0.5 + 0.2 * Math.sign(brightness);
  const accent = hsl(hue, 68, 55);
  const accent2 = hsl((hue + 140 + random() * 40) % 360, 58, 44);
  const backdrop = bright
    ? hsl((hue + 10) % 360, 45 + random() * 25, 68 + random() * 14)
    : hsl((hue + 200) % 360, 30 + random() * 25, 20 + random() * 14);

  // Face.
  const face = pick(random, FACE_NAMES);
  const shape = FACES[face];
  const W = shape.w + (male ? 5 : female ? -3 : 0) + (random() - 0.5) * 10;
  const H = shape.h + (male ? 3 : 0) + (random() - 0.5) * 8;
  const T = W * shape.t;
  const J = W * shape.j * (male ? 1.05 : female ? 0.96 : 1);
  const C = W * shape.c;

  // Skin, hair, eyes.
  let skinIndex = Math.floor(random() * SKIN.length);
  if (cues.skin) skinIndex = cues.skin[0] + (skinIndex % (cues.skin[1] - cues.skin[0] + 1));
  const skin = SKIN[skinIndex]!;
  const dark = skinIndex >= 6;
  const dyedChance =
    0.07 +
    (["vtuber", "entertainer", "artist", "influencer"].includes(type) ? 0.25 : 0) +
    (traits.some((t) => ["Creative", "Imaginative", "Spontaneous"].includes(t)) ? 0.1 : 0) -
    (age >= 3 ? 0.15 : 0);
  const dyed = random() < dyedChance;
  const naturalPick = random();
  const natural = dark && naturalPick < 0.8 ? HAIR_NATURAL[Math.floor(naturalPick * 5) % 4]! : pick(() => naturalPick, HAIR_NATURAL);
  let hair = dyed ? pick(random, HAIR_DYED) : natural;
  const greyPick = random();
  if (!dyed && age === 3) hair = mix(hair, "#b6b1aa", 0.3 + greyPick * 0.2);
  if (!dyed && age === 4) hair = greyPick < 0.3 ? mix(hair, "#b6b1aa", 0.6) : pick(() => greyPick / 0.99, HAIR_GREY);
  if (cues.hairColour) hair = cues.hairColour;

  const styleWeights: Partial<Record<HairStyle, number>> = male
    ? {
        buzz: 2,
        crop: 3,
        sidepart: 3,
        quiff: 2,
        curls: 2,
        afro: dark ? 2 : 0.6,
        shoulder: 1,
        ponytail: 0.6,
        bun: 0.6,
        long: 0.6,
        braids: dark ? 1 : 0.3,
        bald: age >= 3 ? 3 : 0.3,
      }
    : female
      ? {
          pixie: 1.2,
          bob: 2,
          shoulder: 2,
          long: 2.5,
          wavy: 2.5,
          ponytail: 2,
          bun: 1.6,
          braids: dark ? 2 : 0.6,
          curls: 0.8,
          afro: dark ? 2 : 0.5,
          sidepart: 0.4,
        }
      : {
          buzz: 1,
          crop: 1,
          sidepart: 1,
          quiff: 1.2,
          curls: 1,
          pixie: 1.2,
          bob: 1.2,
          shoulder: 1.2,
          afro: dark ? 1.5 : 0.6,
          bun: 1,
          ponytail: 1,
          long: 1,
          wavy: 1,
          braids: 1,
        };
  const styleU = random();
  let hairStyle = weighted(styleU, styleWeights);
  if (cues.hairStyle) hairStyle = cues.hairStyle;
  else if (cues.hairLength && HAIR_LENGTH[hairStyle] !== cues.hairLength) {
    const allowed = Object.fromEntries(
      (Object.keys(HAIR_LENGTH) as HairStyle[])
        .filter((s) => HAIR_LENGTH[s] === cues.hairLength && s !== "bald")
        .map((s) => [s, styleWeights[s] ?? 0.5]),
    ) as Partial<Record<HairStyle, number>>;
    hairStyle = weighted(styleU, allowed);
  }
  const part: -1 | 1 = random() < 0.5 ? -1 : 1;
  const tucked = random() < 0.35;

  const eyeShape = pick(random, ["round", "almond", "narrow", "hooded"] as const);
  const eyeSize = 17 + random() * 5 + (female ? 1 : 0);
  const eyeGap = W * (0.4 + random() * 0.07);
  const irisPick = random();
  let iris = dark && irisPick < 0.85 ? IRIS[Math.floor(irisPick * 3) % 2]! : pick(() => irisPick, IRIS);
  if (cues.eyes) iris = cues.eyes;
  const browWeight = male ? 8 + random() * 3 : female ? 5 + random() * 2.5 : 6 + random() * 3;
  const noseW = 14 + random() * 9;
  const mouthW = 26 + random() * 10;
  const lipFull = 0.7 + random() * 0.6 + (female ? 0.15 : 0);

  const beardU = random();
  let facialHair: FacialHair = "none";
  if (male) {
    if (age === 0) facialHair = beardU < 0.18 ? "stubble" : "none";
    else facialHair = beardU < 0.25 ? "beard" : beardU < 0.45 ? "stubble" : beardU < 0.53 ? "moustache" : beardU < 0.63 ? "goatee" : "none";
  }
  if (cues.facialHair) facialHair = cues.facialHair;
  const freckles = cues.freckles ?? (skinIndex <= 3 && random() < 0.15);

  // Expression.
  const primaryExpression: Expression = traits.some((t) => GRINNING.has(t))
    ? "grin"
    : traits.some((t) => SMILING.has(t))
      ? "smile"
      : traits.some((t) => DETERMINED.has(t))
        ? "set"
        : traits.some((t) => WRY.has(t))
          ? "smirk"
          : "calm";

  // Clothing.
  const clothU = random();
  const byType = TYPE_CLOTHING[type] ?? ["tee", "sweater", "jacket"];
  const byInterest = persona.interests.map((i) => INTEREST_CLOTHING[i]).filter((c): c is Clothing => Boolean(c));
  let clothing: Clothing =
    byInterest.length > 0 && clothU < 0.45
      ? byInterest[Math.floor(clothU * 10) % byInterest.length]!
      : byType[Math.floor(clothU * 97) % byType.length]!;
  if (type === "advisor" && clothing !== "blazer" && clothU < 0.8) clothing = "blazer";
  if (cues.clothing) clothing = cues.clothing;
  const clothPick = random();
  let cloth =
    clothPick < 0.4
      ? pick(() => clothPick / 0.4, NEUTRAL_CLOTH)
      : hsl((hue + 150 + clothPick * 120) % 360, 22 + clothPick * 30, 26 + ((clothPick * 7) % 1) * 42);
  if (cues.clothingColour) cloth = cues.clothingColour;

  // Accessories.
  const accessories = new Set<Accessory>();
  const typeAccessory = TYPE_ACCESSORY[type];
  if (typeAccessory) accessories.add(typeAccessory);
  if (traits.some((t) => ["Curious", "Organized", "Educational", "Cautious"].includes(t)) && random() < 0.3) accessories.add("glasses");
  if (random() < 0.15 && female) accessories.add("earrings");
  for (const a of cues.accessories) accessories.add(a);
  if (accessories.has("sunglasses")) accessories.delete("glasses");
  if (accessories.has("catEars")) accessories.delete("headphones");
  if (accessories.has("beanie")) accessories.delete("beret");
  if (accessories.has("tie") && clothing !== "blazer" && clothing !== "labcoat") clothing = "blazer";

  const pose: Pose = traits.some((t) => DETERMINED.has(t) || t === "Reserved" || t === "Stable") ? "folded" : "prop";
  const light: -1 | 1 = random() < 0.5 ? -1 : 1;
  const shoulderW = (male ? 232 : female ? 200 : 214) + random() * 30;
  const lean = (random() - 0.5) * 2;
  const size = 0.94 + random() * 0.1;

  const cx = 384;
  const cy = 318;
  // The half-body picture stands on the side away from the light, looking back across the frame.
  const side = -light;
  const frame = secondary
    ? { x: 384 + side * (70 + lean * 12) - cx * 0.6, y: 232 - cy * 0.6, scale: 0.6, tilt: side * -2 }
    : { x: lean * 20 + (cx - cx * size), y: 10 + (cy - cy * size) * 0.4, scale: size, tilt: lean * 2.5 };
  return {
    random: mulberry32(hashString(`portrait|${slot}|${key}`)),
    secondary,
    cx,
    cy,
    W,
    H,
    T,
    J,
    C,
    face,
    turn: secondary ? -side * 0.42 : lean * 0.08,
    light,
    skin,
    skinLight: mix(skin, "#fff6ee", 0.35),
    skinShade: mix(skin, dark ? "#1b0e08" : "#6b3423", 0.28),
    skinDeep: mix(skin, dark ? "#100704" : "#3e1c12", 0.5),
    skinIndex,
    hair,
    hairLight: mix(hair, "#fff4e0", luminance(hair) > 0.6 ? 0.5 : 0.32),
    hairDark: mix(hair, "#000000", 0.45),
    iris,
    lips: mix(skin, dark ? "#5a1f26" : "#b3475a", 0.42),
    accent,
    accent2,
    hue,
    backdrop,
    bright,
    cloth,
    clothLight: mix(cloth, "#ffffff", 0.28),
    clothShade: mix(cloth, "#000000", 0.38),
    clothTrim:
      clothing === "labcoat"
        ? mix(accent2, "#ffffff", 0.2)
        : luminance(cloth) > 0.55
          ? mix(accent2, "#000", 0.2)
          : mix(accent, "#ffffff", 0.35),
    hairStyle,
    part,
    tucked,
    eyeShape,
    eyeSize,
    eyeGap,
    browWeight,
    noseW,
    mouthW,
    lipFull,
    expression: secondary ? SECOND_EXPRESSION[primaryExpression] : primaryExpression,
    facialHair,
    freckles,
    older: age >= 3,
    oldest: age >= 4,
    clothing,
    accessories,
    interests: [...persona.interests],
    pose,
    neckW: J * (male ? 0.5 : 0.43),
    shoulderW,
    frame,
  };
}

/** What the picture of a persona shows, in words (for tests and the docs' look rules). */
export function portraitFeatures(persona: PortraitPersona, slot: ImageSlot = "primary") {
  const look = lookOf(persona, slot);
  return {
    face: look.face,
    skin: look.skin,
    hairStyle: look.hairStyle,
    hairLength: HAIR_LENGTH[look.hairStyle],
    hairColour: look.hair,
    eyes: look.iris,
    expression: look.expression,
    facialHair: look.facialHair,
    clothing: look.clothing,
    accessories: [...look.accessories].sort(),
  };
}

// ---------------------------------------------------------------------------------------
// Geometry, in figure coordinates. Every piece is a Part: a path and the role its colour
// plays; each style paints the roles its own way.

type Pt = [number, number];
type Role =
  | "skin"
  | "skinShade"
  | "hand"
  | "neck"
  | "hair"
  | "hairShade"
  | "cloth"
  | "clothShade"
  | "clothLight"
  | "trim"
  | "white"
  | "dark"
  | "accent"
  | "metal"
  | "lips"
  | "mouth"
  | "teeth";

interface Part {
  d: string;
  role: Role;
  /** A line of this width instead of a filled shape. */
  line?: number;
  opacity?: number;
  /** Left without an outline in the inked styles. */
  bare?: boolean;
  /** SVG content drawn in the role's colour (motifs), instead of d. */
  raw?: string;
}

const n1 = (v: number) => String(Math.round(v * 10) / 10);

/** Cubic segments through the points (Catmull–Rom), from the first point, which is the current one. */
function through(points: readonly Pt[], closed = false): string {
  let d = "";
  const count = points.length;
  const at = (i: number): Pt => (closed ? points[(i + count) % count]! : points[Math.max(0, Math.min(count - 1, i))]!);
  for (let i = 0; i < (closed ? count : count - 1); i++) {
    const p0 = at(i - 1);
    const p1 = at(i);
    const p2 = at(i + 1);
    const p3 = at(i + 2);
    d += `C${n1(p1[0] + (p2[0] - p0[0]) / 6)} ${n1(p1[1] + (p2[1] - p0[1]) / 6)} ${n1(p2[0] - (p3[0] - p1[0]) / 6)} ${n1(p2[1] - (p3[1] - p1[1]) / 6)} ${n1(p2[0])} ${n1(p2[1])}`;
  }
  return d;
}

const M = (p: Pt) => `M${n1(p[0])} ${n1(p[1])}`;
const L = (p: Pt) => `L${n1(p[0])} ${n1(p[1])}`;
const closedPath = (points: readonly Pt[]) => `${M(points[0]!)}${through(points, true)}Z`;
const openPath = (points: readonly Pt[]) => `${M(points[0]!)}${through(points)}`;
const circle = (x: number, y: number, r: number) =>
  `M${n1(x - r)} ${n1(y)}a${n1(r)} ${n1(r)} 0 1 0 ${n1(2 * r)} 0a${n1(r)} ${n1(r)} 0 1 0 ${n1(-2 * r)} 0Z`;
const ellipse = (x: number, y: number, rx: number, ry: number) =>
  `M${n1(x - rx)} ${n1(y)}a${n1(rx)} ${n1(ry)} 0 1 0 ${n1(2 * rx)} 0a${n1(rx)} ${n1(ry)} 0 1 0 ${n1(-2 * rx)} 0Z`;

/** The face outline, clockwise from the crown. */
function facePoints(l: Look): Pt[] {
  const { cx, cy, W, H, T, J, C } = l;
  const chin = l.turn * W * 0.14;
  const right: Pt[] = [
    [0.64 * T, -0.9 * H],
    [T, -0.42 * H],
    [W, 0.06 * H],
    [J, 0.56 * H],
    [C + 8, 0.93 * H],
  ];
  const shift = ([x, y]: Pt, side: number): Pt => [cx + side * x + (y > 0.3 * H ? (chin * y) / H : 0), cy + y];
  return [[cx, cy - H], ...right.map((p) => shift(p, 1)), [cx + chin, cy + H], ...[...right].reverse().map((p) => shift(p, -1))];
}

const faceD = (l: Look) => closedPath(facePoints(l));

/** Where the features sit: the centre line, moved by the turn. */
const fx = (l: Look) => l.cx + l.turn * 0.26 * l.W;
const eyeY = (l: Look) => l.cy - 0.05 * l.H;
const mouthY = (l: Look) => l.cy + 0.54 * l.H;
const neckBase = (l: Look) => l.cy + l.H + 42;

interface EyeGeometry {
  side: -1 | 1;
  x: number;
  y: number;
  rx: number;
  ry: number;
  /** The almond: upper lid then lower lid. */
  outline: string;
  upper: string;
  lower: string;
  crease: string;
  irisX: number;
  irisR: number;
}

function eyes(l: Look): EyeGeometry[] {
  const ratio = { round: 0.7, almond: 0.52, narrow: 0.4, hooded: 0.48 }[l.eyeShape];
  return ([-1, 1] as const).map((side) => {
    const far = Math.max(0, -side * l.turn);
    const rx = l.eyeSize * (1 - far * 0.35);
    const x = fx(l) + side * l.eyeGap * (1 - far * 0.25);
    const y = eyeY(l);
    const squint = l.expression === "grin" ? 0.72 : l.expression === "smirk" && side === l.part ? 0.82 : 1;
    const ry = l.eyeSize * ratio * squint;
    const lift = l.eyeShape === "almond" ? 3 : 0;
    const inner: Pt = [x - side * rx, y + 1];
    const outer: Pt = [x + side * rx, y - lift];
    const upperTop = y - ry * 2 * (l.eyeShape === "hooded" ? 0.85 : 1);
    const lowerBottom = y + ry * 1.6 * squint;
    const upper = `${M(inner)}Q${n1(x + side * rx * 0.1)} ${n1(upperTop)} ${n1(outer[0])} ${n1(outer[1])}`;
    const lower = `${M(outer)}Q${n1(x)} ${n1(lowerBottom)} ${n1(inner[0])} ${n1(inner[1])}`;
    const crease = `M${n1(inner[0] + side * 3)} ${n1(y - ry - 4)}Q${n1(x)} ${n1(upperTop - (l.eyeShape === "hooded" ? 2 : 9))} ${n1(outer[0] + side * 4)} ${n1(outer[1] - 6)}`;
    return {
      side,
      x,
      y,
      rx,
      ry,
      outline: `${upper}Q${n1(x)} ${n1(lowerBottom)} ${n1(inner[0])} ${n1(inner[1])}Z`,
      upper,
      lower,
      crease,
      irisX: x + l.turn * rx * 0.35,
      irisR: Math.max(ry * 1.05, rx * 0.48),
    };
  });
}

function brows(l: Look): Part[] {
  return eyes(l).map((e) => {
    const raise = l.expression === "smirk" && e.side === l.part ? -9 : l.expression === "smile" || l.expression === "grin" ? -3 : 0;
    const frown = l.expression === "set" ? 7 : 0;
    const y = e.y - l.eyeSize * 1.35 - 10 + raise;
    const inner: Pt = [e.x - e.side * e.rx * 0.95, y + 4 + frown];
    const outer: Pt = [e.x + e.side * e.rx * 1.25, y + 6 - frown * 0.3];
    return {
      d: `${M(inner)}Q${n1(e.x + e.side * e.rx * 0.2)} ${n1(y - 8)} ${n1(outer[0])} ${n1(outer[1])}`,
      role: "hairShade",
      line: l.browWeight,
    };
  });
}

interface MouthGeometry {
  line: string;
  upper: string;
  lower: string;
  open: string | null;
  teeth: string | null;
}

function mouthOf(l: Look): MouthGeometry {
  const x = fx(l) + l.turn * 4;
  const y = mouthY(l);
  const w = l.mouthW * (l.expression === "grin" ? 1.15 : 1) * (1 - Math.abs(l.turn) * 0.2);
  const lift = { calm: [2, 2], smile: [9, 9], grin: [11, 11], set: [0, 0], smirk: l.part > 0 ? [-1, 10] : [10, -1] }[l.expression];
  const dip = { calm: 3, smile: 8, grin: 12, set: 1, smirk: 3 }[l.expression];
  const left: Pt = [x - w, y - lift[0]!];
  const right: Pt = [x + w, y - lift[1]!];
  const f = l.lipFull;
  const line = `${M(left)}Q${n1(x)} ${n1(y + dip)} ${n1(right[0])} ${n1(right[1])}`;
  const bow = `${M(left)}Q${n1(x - w * 0.5)} ${n1(y - 9 * f - lift[0]! * 0.5)} ${n1(x - 4)} ${n1(y - 7 * f)}L${n1(x)} ${n1(y - 4.5 * f)}L${n1(x + 4)} ${n1(y - 7 * f)}Q${n1(x + w * 0.5)} ${n1(y - 9 * f - lift[1]! * 0.5)} ${n1(right[0])} ${n1(right[1])}`;
  const upper = `${bow}Q${n1(x)} ${n1(y + dip)} ${n1(left[0])} ${n1(left[1])}Z`;
  if (l.expression === "grin") {
    const openBottom = y + dip + 20;
    return {
      line,
      upper: `${bow}Q${n1(x)} ${n1(y + dip * 0.1)} ${n1(left[0])} ${n1(left[1])}Z`,
      lower: `${M(left)}Q${n1(x)} ${n1(openBottom + 18 * f)} ${n1(right[0])} ${n1(right[1])}Q${n1(x)} ${n1(openBottom)} ${n1(left[0])} ${n1(left[1])}Z`,
      open: `${M(left)}Q${n1(x)} ${n1(y + dip * 0.1)} ${n1(right[0])} ${n1(right[1])}Q${n1(x)} ${n1(openBottom)} ${n1(left[0])} ${n1(left[1])}Z`,
      teeth: `M${n1(left[0] + 6)} ${n1(left[1] + 1)}Q${n1(x)} ${n1(y + dip * 0.1)} ${n1(right[0] - 6)} ${n1(right[1] + 1)}Q${n1(x)} ${n1(y + dip * 0.1 + 14)} ${n1(left[0] + 6)} ${n1(left[1] + 1)}Z`,
    };
  }
  return {
    line,
    upper,
    lower: `${M(left)}Q${n1(x)} ${n1(y + dip + 24 * f)} ${n1(right[0])} ${n1(right[1])}Q${n1(x)} ${n1(y + dip)} ${n1(left[0])} ${n1(left[1])}Z`,
    open: null,
    teeth: null,
  };
}

function noseOf(l: Look): { bridge: string; tip: Pt; nostrils: string; shadowSide: -1 | 1 } {
  const x = fx(l) + l.turn * 10;
  const y = l.cy + 0.3 * l.H;
  const w = l.noseW;
  const away = (l.light === 1 ? -1 : 1) as -1 | 1;
  return {
    bridge: `M${n1(x + away * 8)} ${n1(eyeY(l) + 8)}Q${n1(x + away * 12)} ${n1(y - 18)} ${n1(x + away * (w * 0.5))} ${n1(y + 4)}`,
    tip: [x, y],
    nostrils: `M${n1(x - w)} ${n1(y + 2)}Q${n1(x - w * 0.6)} ${n1(y + 12)} ${n1(x - 4)} ${n1(y + 9)}M${n1(x + 4)} ${n1(y + 9)}Q${n1(x + w * 0.6)} ${n1(y + 12)} ${n1(x + w)} ${n1(y + 2)}`,
    shadowSide: away,
  };
}

function ageLines(l: Look): Part[] {
  if (!l.older) return [];
  const x = fx(l);
  const { cy, H } = l;
  const y = mouthY(l);
  const w = l.mouthW;
  const parts: Part[] = [
    {
      d: `M${n1(x - w - 8)} ${n1(cy + 0.34 * H)}Q${n1(x - w - 20)} ${n1(y - 4)} ${n1(x - w - 8)} ${n1(y + 12)}M${n1(x + w + 8)} ${n1(cy + 0.34 * H)}Q${n1(x + w + 20)} ${n1(y - 4)} ${n1(x + w + 8)} ${n1(y + 12)}`,
      role: "skinShade",
      line: 3,
      opacity: 0.7,
    },
  ];
  if (l.oldest) {
    parts.push({
      d: `M${n1(x - 34)} ${n1(cy - 0.5 * H)}Q${n1(x)} ${n1(cy - 0.54 * H)} ${n1(x + 34)} ${n1(cy - 0.5 * H)}M${n1(x - 26)} ${n1(cy - 0.43 * H)}Q${n1(x)} ${n1(cy - 0.46 * H)} ${n1(x + 26)} ${n1(cy - 0.43 * H)}`,
      role: "skinShade",
      line: 2.5,
      opacity: 0.6,
    });
    for (const e of eyes(l)) {
      const ox = e.x + e.side * (e.rx + 6);
      parts.push({
        d: `M${n1(ox)} ${n1(e.y - 6)}l${e.side * 10} -5M${n1(ox)} ${n1(e.y)}l${e.side * 11} 1M${n1(ox)} ${n1(e.y + 6)}l${e.side * 9} 6`,
        role: "skinShade",
        line: 2,
        opacity: 0.6,
      });
    }
  }
  return parts;
}

function facialHairParts(l: Look): Part[] {
  if (l.facialHair === "none") return [];
  const pts = facePoints(l);
  const x = fx(l);
  const y = mouthY(l);
  const w = l.mouthW;
  const moustache: Part = {
    d: `M${n1(x - w - 6)} ${n1(y + 2)}Q${n1(x - w * 0.7)} ${n1(y - 22)} ${n1(x)} ${n1(y - 16)}Q${n1(x + w * 0.7)} ${n1(y - 22)} ${n1(x + w + 6)} ${n1(y + 2)}Q${n1(x + w * 0.5)} ${n1(y - 8)} ${n1(x)} ${n1(y - 8)}Q${n1(x - w * 0.5)} ${n1(y - 8)} ${n1(x - w - 6)} ${n1(y + 2)}Z`,
    role: "hair",
    bare: true,
  };
  if (l.facialHair === "moustache") return [moustache];
  if (l.facialHair === "goatee") {
    return [
      moustache,
      {
        d: `M${n1(x - w * 0.7)} ${n1(y + 14)}Q${n1(x)} ${n1(y + 22)} ${n1(x + w * 0.7)} ${n1(y + 14)}Q${n1(x + w * 0.6)} ${n1(l.cy + l.H + 14)} ${n1(x)} ${n1(l.cy + l.H + 18)}Q${n1(x - w * 0.6)} ${n1(l.cy + l.H + 14)} ${n1(x - w * 0.7)} ${n1(y + 14)}Z`,
        role: "hair",
        bare: true,
      },
    ];
  }
  // Jaw: from the right cheek, round the chin, to the left cheek, then back above the mouth.
  const jaw = [pts[3]!, pts[4]!, pts[5]!, [pts[6]![0], pts[6]![1] + (l.facialHair === "beard" ? 22 : 2)] as Pt, pts[7]!, pts[8]!, pts[9]!];
  const inner: Pt[] = [
    [jaw[6]![0] + 12, jaw[6]![1] + 4],
    [x - w - 10, y - 6],
    [x, y - (l.facialHair === "beard" ? 22 : 14)],
    [x + w + 10, y - 6],
    [jaw[0]![0] - 12, jaw[0]![1] + 4],
  ];
  const d = `${M(jaw[0]!)}${through(jaw)}${L(inner[0]!)}${through(inner)}Z`;
  if (l.facialHair === "stubble") return [{ d, role: "hair", opacity: 0.28, bare: true }];
  return [
    { d, role: "hair", bare: true },
    { ...moustache, role: "hair" },
  ];
}

// Hair: what falls behind the head, the cap and fringe over it, and locks in front of the shoulders.
interface HairGeometry {
  back: string[];
  front: string[];
  over: string[];
  strands: string[];
}

function hairOf(l: Look): HairGeometry {
  const { cx, cy, W, H, T, part: p } = l;
  const style = l.hairStyle;
  const out: HairGeometry = { back: [], front: [], over: [], strands: [] };
  const vol = {
    buzz: 3,
    crop: 16,
    sidepart: 26,
    quiff: 22,
    curls: 26,
    pixie: 20,
    bald: 0,
    bob: 22,
    shoulder: 20,
    afro: 30,
    bun: 12,
    ponytail: 12,
    long: 18,
    wavy: 24,
    braids: 10,
  }[style];
  const m = {
    buzz: 2,
    crop: 7,
    sidepart: 9,
    quiff: 6,
    curls: 14,
    pixie: 9,
    bald: 0,
    bob: 16,
    shoulder: 14,
    afro: 16,
    bun: 6,
    ponytail: 6,
    long: 12,
    wavy: 16,
    braids: 6,
  }[style];
  const sideY =
    {
      buzz: -0.18,
      crop: -0.12,
      sidepart: -0.06,
      quiff: -0.12,
      curls: 0,
      pixie: 0.06,
      bald: 0,
      bob: 0.3,
      shoulder: 0.3,
      afro: 0.1,
      bun: -0.04,
      ponytail: -0.04,
      long: 0.3,
      wavy: 0.3,
      braids: 0,
    }[style] * H;
  const partX = style === "long" || style === "braids" || (style === "wavy" && !l.tucked) ? 0 : p * 0.32 * W;
  const hairline = style === "bob" || style === "braids" ? -0.62 : -0.64;

  const cap = (): string => {
    const outer: Pt[] = [
      [cx - W - m, cy + sideY],
      [cx - W - m * 0.8, cy - 0.42 * H],
      [cx - 0.7 * W - m * 0.5, cy - 0.88 * H - vol * 0.75],
      [cx + partX * 0.3, cy - H - vol],
      [cx + 0.7 * W + m * 0.5, cy - 0.88 * H - vol * 0.75],
      [cx + W + m * 0.8, cy - 0.42 * H],
      [cx + W + m, cy + sideY],
    ];
    const inner: Pt[] = [
      [cx + W - 8, cy + Math.min(sideY, 0.1 * H)],
      [cx + T * 0.93, cy - 0.36 * H],
      [cx + T * 0.5, cy - 0.58 * H],
      [cx + partX, cy + hairline * H - (partX === 0 ? 4 : 0)],
      [cx - T * 0.5, cy - 0.58 * H],
      [cx - T * 0.93, cy - 0.36 * H],
      [cx - W + 8, cy + Math.min(sideY, 0.1 * H)],
    ];
    return `${M(outer[0]!)}${through(outer)}${L(inner[0]!)}${through(inner)}Z`;
  };
  const sweep = (depth: number): string => {
    const a: Pt = [cx + p * 0.4 * W, cy - H - vol * 0.8];
    const b: Pt = [cx - p * 0.25 * W, cy - 0.86 * H];
    const tip: Pt = [cx - p * 0.97 * T, cy - depth * H];
    const d1: Pt = [cx - p * 0.5 * T, cy - 0.42 * H];
    const e: Pt = [cx + p * 0.05 * W, cy - 0.6 * H];
    const f: Pt = [cx + p * 0.45 * W, cy - 0.66 * H];
    return `${M(a)}${through([a, b, tip])}${through([tip, d1, e, f])}Z`;
  };
  const capStrands = () => {
    for (let k = 0; k < 12; k++) {
      const s = k % 2 === 0 ? -1 : 1;
      const reach = 0.3 + 0.06 * k;
      out.strands.push(
        openPath([
          [cx + partX, cy - H - vol + 4],
          [cx + partX + s * W * reach * 0.7, cy - H - vol * 0.6 + k * 3],
          [cx + s * (W + m * 0.5) * Math.min(1, reach + 0.15), cy - 0.5 * H + k * 4],
        ]),
      );
    }
  };
  const curtains = (length: number, wave: number) => {
    for (const s of [-1, 1] as const) {
      if (l.tucked && s === p) continue;
      const wob = (i: number) => (wave ? (i % 2 === 0 ? wave : -wave) : 0);
      const outer: Pt[] = [
        [cx + s * (T * 0.75), cy - 0.74 * H],
        [cx + s * (W + m), cy - 0.3 * H],
        [cx + s * (W + m + 8 + wob(1)), cy + 0.35 * H],
        [cx + s * (W + m + 18 + wob(2)), cy + H],
        [cx + s * (W + m + 30 + wob(3)), cy + H + length * 0.6],
        [cx + s * (W + m + 20), cy + H + length],
      ];
      const inner: Pt[] = [
        [cx + s * (W - 10 + wob(4)), cy + H + length * 0.55],
        [cx + s * (l.J + 6), cy + 0.75 * H],
        [cx + s * (W - 8), cy + 0.2 * H],
        [cx + s * (T * 0.86), cy - 0.36 * H],
        [cx + s * (T * 0.4), cy - 0.6 * H],
      ];
      out.over.push(`${M(outer[0]!)}${through(outer)}${L(inner[0]!)}${through(inner)}Z`);
      out.strands.push(
        openPath([
          outer[1]!,
          [outer[2]![0] - s * 10, outer[2]![1]],
          [outer[3]![0] - s * 14, outer[3]![1]],
          [outer[4]![0] - s * 18, outer[4]![1]],
        ]),
      );
    }
  };
  const backLayer = (bottom: number, width: number, flare: number, wave: number) => {
    const pts: Pt[] = [[cx, cy - H - vol - 4]];
    const rows = 5;
    for (let i = 1; i <= rows; i++) {
      const t = i / rows;
      const y = cy - H - vol + (bottom - (cy - H - vol)) * t;
      const w =
        (W + width) * Math.sin(Math.min(1, t * 2.2) * (Math.PI / 2)) + flare * t + (wave && i < rows ? (i % 2 === 0 ? wave : -wave) : 0);
      pts.push([cx + w, y]);
    }
    const left = pts
      .slice(1)
      .reverse()
      .map(([x, y]) => [2 * cx - x, y] as Pt);
    return closedPath([...pts, [cx, bottom + 10], ...left]);
  };

  switch (style) {
    case "bald":
      if (l.older) {
        for (const s of [-1, 1])
          out.front.push(
            `M${n1(cx + s * (W + 3))} ${n1(cy - 0.3 * H)}Q${n1(cx + s * (W + 10))} ${n1(cy - 0.02 * H)} ${n1(cx + s * (W - 2))} ${n1(cy + 0.12 * H)}L${n1(cx + s * (W - 16))} ${n1(cy - 0.18 * H)}Z`,
          );
      }
      return out;
    case "buzz":
      out.front.push(cap());
      return out;
    case "crop":
      out.front.push(cap());
      capStrands();
      return out;
    case "sidepart":
      out.front.push(cap(), sweep(0.45));
      capStrands();
      return out;
    case "quiff": {
      out.front.push(cap());
      out.front.push(
        `M${n1(cx - 0.7 * W)} ${n1(cy - 0.62 * H)}C${n1(cx - 0.75 * W)} ${n1(cy - H - vol * 2.4)} ${n1(cx + 0.8 * W)} ${n1(cy - H - vol * 2.6)} ${n1(cx + 0.82 * W)} ${n1(cy - 0.7 * H)}Q${n1(cx + 0.1 * W)} ${n1(cy - 0.86 * H)} ${n1(cx - 0.7 * W)} ${n1(cy - 0.62 * H)}Z`,
      );
      capStrands();
      return out;
    }
    case "curls":
    case "afro": {
      const big = style === "afro";
      if (big) out.back.push(bumpy(cx, cy - 0.25 * H, W + 62, 22, 16));
      out.front.push(cap());
      // Curls along the crown and the hairline.
      let curls = "";
      const count = big ? 11 : 13;
      for (let i = 0; i <= count; i++) {
        const a = Math.PI * (0.98 + (0.04 + 0.92 * i) / count);
        const r = big ? 0 : W + m * 0.5;
        if (!big) curls += circle(cx + Math.cos(a) * r, cy - 0.25 * H + Math.sin(a) * (H * 0.78 + vol * 0.6), 17 + ((i * 7) % 5));
        const hx = cx + Math.cos(a) * T * 0.82;
        const hy = cy - 0.3 * H + Math.sin(a) * 0.36 * H;
        curls += circle(hx, hy, 12 + ((i * 5) % 4));
      }
      out.front.push(curls);
      return out;
    }
    case "pixie":
      out.front.push(cap(), sweep(0.28));
      capStrands();
      return out;
    case "bob":
      out.back.push(
        `${M([cx - W - 34, cy + 0.64 * H])}${through([
          [cx - W - 34, cy + 0.64 * H],
          [cx - W - 40, cy - 0.2 * H],
          [cx - 0.7 * W - 22, cy - 0.9 * H - vol],
          [cx, cy - H - vol - 6],
          [cx + 0.7 * W + 22, cy - 0.9 * H - vol],
          [cx + W + 40, cy - 0.2 * H],
          [cx + W + 34, cy + 0.64 * H],
        ])}Q${n1(cx)} ${n1(cy + 0.64 * H + 14)} ${n1(cx - W - 34)} ${n1(cy + 0.64 * H)}Z`,
      );
      out.front.push(cap());
      if (p > 0) out.front.push(bangs(l, vol));
      else out.front.push(sweep(0.36));
      for (const s of [-1, 1])
        out.over.push(
          `M${n1(cx + s * (W + 16))} ${n1(cy - 0.4 * H)}Q${n1(cx + s * (W + 8))} ${n1(cy + 0.3 * H)} ${n1(cx + s * (W + 30))} ${n1(cy + 0.64 * H)}L${n1(cx + s * (W - 6))} ${n1(cy + 0.62 * H)}Q${n1(cx + s * (W - 14))} ${n1(cy)} ${n1(cx + s * (T * 0.86))} ${n1(cy - 0.4 * H)}Z`,
        );
      return out;
    case "shoulder":
      out.back.push(backLayer(cy + H + 70, 36, 16, 0));
      out.front.push(cap());
      if (p < 0) out.front.push(sweep(0.4));
      curtains(70, 0);
      capStrands();
      return out;
    case "long":
    case "wavy": {
      const wave = style === "wavy" ? 12 : 0;
      out.back.push(backLayer(cy + H + 290, 44, 30, wave));
      out.front.push(cap());
      if (style === "long" && l.part > 0 && l.tucked) out.front.push(bangs(l, vol));
      curtains(260, wave);
      capStrands();
      for (let k = 0; k < 4; k++) {
        const s = k % 2 === 0 ? -1 : 1;
        out.strands.push(
          openPath([
            [cx + s * (W + 20 + k * 4), cy - 0.1 * H],
            [cx + s * (W + 30 + k * 5 + wave), cy + 0.6 * H],
            [cx + s * (W + 34 + k * 6 - wave), cy + H + 140],
          ]),
        );
      }
      return out;
    }
    case "ponytail": {
      const tail: Pt[] = [
        [cx + p * (W - 30), cy - 0.85 * H],
        [cx + p * (W + 40), cy - 0.55 * H],
        [cx + p * (W + 64), cy + 0.2 * H],
        [cx + p * (W + 56), cy + H + 120],
        [cx + p * (W + 34), cy + H + 210],
        [cx + p * (W + 20), cy + H + 100],
        [cx + p * (W + 18), cy + 0.1 * H],
        [cx + p * (W - 10), cy - 0.55 * H],
      ];
      out.back.push(closedPath(tail));
      out.front.push(cap());
      out.strands.push(openPath([tail[1]!, [tail[2]![0] - p * 12, tail[2]![1]], [tail[3]![0] - p * 12, tail[3]![1]]]));
      capStrands();
      return out;
    }
    case "bun":
      out.back.push(circle(cx + p * 14, cy - H - vol - 26, 44));
      out.front.push(cap());
      out.strands.push(
        `M${n1(cx + p * 14 - 30)} ${n1(cy - H - vol - 30)}Q${n1(cx + p * 14)} ${n1(cy - H - vol - 60)} ${n1(cx + p * 14 + 30)} ${n1(cy - H - vol - 28)}`,
      );
      capStrands();
      return out;
    case "braids": {
      out.back.push(backLayer(cy + 0.8 * H, 22, 0, 0));
      out.front.push(cap());
      let chain = "";
      for (const s of [-1, 1]) {
        for (let i = 0; i < 11; i++) {
          const y = cy + 0.25 * H + i * 30;
          const x = cx + s * (W + 10 + i * 3.5);
          chain += ellipse(x, y, 17 - i * 0.5, 19);
        }
      }
      out.over.push(chain);
      capStrands();
      return out;
    }
  }
}

function bangs(l: Look, vol: number): string {
  const { cx, cy, W, H, T } = l;
  let d = `M${n1(cx - T * 0.97)} ${n1(cy - 0.3 * H)}C${n1(cx - W * 1.02)} ${n1(cy - 0.95 * H - vol)} ${n1(cx + W * 1.02)} ${n1(cy - 0.95 * H - vol)} ${n1(cx + T * 0.97)} ${n1(cy - 0.3 * H)}`;
  const n = 6;
  for (let i = n - 1; i >= 0; i--) {
    const x = cx - T * 0.97 + ((2 * T * 0.97) / n) * i;
    d += `Q${n1(x + (T * 0.97) / n)} ${n1(cy - 0.42 * H)} ${n1(x)} ${n1(cy - 0.3 * H + (i % 2) * 6)}`;
  }
  return `${d}Z`;
}

/** A circle with bumps: curly volume. */
function bumpy(x: number, y: number, r: number, bumps: number, depth: number): string {
  const pts: Pt[] = [];
  for (let i = 0; i < bumps * 2; i++) {
    const a = (i / (bumps * 2)) * Math.PI * 2;
    const rr = r + (i % 2 === 0 ? depth / 2 : -depth / 2);
    pts.push([x + Math.cos(a) * rr, y + Math.sin(a) * rr * 0.92]);
  }
  return closedPath(pts);
}

// Interest motifs: small shapes centred on (0, 0), about 40 wide.
const MOTIFS: Record<string, string> = {
  gaming:
    '<rect x="-22" y="-12" width="44" height="24" rx="12"/><circle cx="-10" cy="0" r="4" fill="#fff"/><circle cx="12" cy="-3" r="3" fill="#fff"/><circle cx="16" cy="4" r="3" fill="#fff"/>',
  tech: '<rect x="-14" y="-14" width="28" height="28" rx="3"/><path d="M-20-8h6M-20 0h6M-20 8h6M14-8h6M14 0h6M14 8h6" stroke="currentColor" stroke-width="3"/>',
  fashion: '<path d="M-18-14l10-6h16l10 6-6 10h-4v18h-16v-18h-4z"/>',
  music:
    '<ellipse cx="-8" cy="12" rx="8" ry="6"/><rect x="-2" y="-18" width="4" height="30"/><path d="M2-18q14 4 10 16" stroke="currentColor" stroke-width="4" fill="none"/>',
  art: '<path d="M0-18c14 0 22 10 20 20-2 8-10 4-14 8s2 10-8 10c-12 0-18-10-18-20s8-18 20-18z"/><circle cx="-8" cy="-6" r="3" fill="#fff"/><circle cx="4" cy="-9" r="3" fill="#fff"/>',
  fitness:
    '<rect x="-14" y="-3" width="28" height="6"/><rect x="-22" y="-10" width="8" height="20" rx="2"/><rect x="14" y="-10" width="8" height="20" rx="2"/>',
  science:
    '<circle r="4"/><ellipse rx="20" ry="7" fill="none" stroke="currentColor" stroke-width="2.5"/><ellipse rx="20" ry="7" fill="none" stroke="currentColor" stroke-width="2.5" transform="rotate(60)"/><ellipse rx="20" ry="7" fill="none" stroke="currentColor" stroke-width="2.5" transform="rotate(-60)"/>',
  cooking:
    '<path d="M-16 0h32a16 16 0 0 1-32 0z"/><path d="M-6-6q-4-8 0-14M4-6q-4-8 0-14" stroke="currentColor" stroke-width="3" fill="none"/>',
  travel: '<path d="M0-20l5 14 15 1-12 9 4 15-12-8-12 8 4-15-12-9 15-1z"/>',
  education: '<path d="M-22-4l22-10 22 10-22 10z"/><path d="M-12 2v10q12 8 24 0v-10" /><rect x="18" y="-4" width="2" height="14"/>',
  business:
    '<rect x="-18" y="-10" width="36" height="24" rx="3"/><rect x="-7" y="-16" width="14" height="8" rx="2" fill="none" stroke="currentColor" stroke-width="3"/>',
  entertainment: '<path d="M-18-14h36v28h-36z"/><path d="M-6-6l12 6-12 6z" fill="#fff"/>',
  mic: '<rect x="-9" y="-22" width="18" height="28" rx="9"/><rect x="-3" y="6" width="6" height="18"/>',
};

function motifs(look: Look, color: string, opacity: number, count = 7, spread = 1): string {
  const kinds = look.interests.length > 0 ? look.interests : ["art"];
  const r = look.random;
  let out = "";
  for (let i = 0; i < count; i++) {
    const kind = kinds[i % kinds.length]!;
    const side = i % 2 === 0 ? -1 : 1;
    const x = 384 + side * (230 + r() * 110) * spread;
    const y = 70 + ((i * 97 + r() * 60) % 520);
    const s = 0.9 + r() * 0.8;
    const rot = Math.round(r() * 50 - 25);
    out += `<g transform="translate(${n1(x)} ${n1(y)}) rotate(${rot}) scale(${s.toFixed(2)})" fill="${color}" color="${color}" opacity="${opacity}">${MOTIFS[kind] ?? MOTIFS.art}</g>`;
  }
  return out;
}

function torsoD(l: Look): string {
  const { cx } = l;
  const y0 = neckBase(l);
  const S = l.shoulderW;
  const nw = l.neckW;
  const half = (s: number): Pt[] => [
    [cx + s * (nw + 10), y0 - 6],
    [cx + s * (nw + 70), y0 + 16],
    [cx + s * (S - 30), y0 + 36],
    [cx + s * (S + 4), y0 + 90],
    [cx + s * (S + 6), y0 + 260],
    [cx + s * (S * 0.84), y0 + 600],
  ];
  const left = half(-1);
  const right = half(1).reverse();
  return `${M(left[0]!)}${through(left)}L${n1(cx - S * 0.84)} 1500L${n1(cx + S * 0.84)} 1500${L(right[0]!)}${through(right)}Z`;
}

function neckD(l: Look): string {
  const { cx, cy, H } = l;
  const w = l.neckW;
  return `M${n1(cx - w)} ${n1(cy + 0.45 * H)}L${n1(cx - w - 5)} ${n1(cy + H + 56)}Q${n1(cx)} ${n1(cy + H + 82)} ${n1(cx + w + 5)} ${n1(cy + H + 56)}L${n1(cx + w)} ${n1(cy + 0.45 * H)}Z`;
}

/** The garment's details over the torso (collars, lapels, zips, pockets), by clothing. */
function clothingParts(l: Look): { behindNeck: Part[]; over: Part[] } {
  const { cx } = l;
  const y0 = neckBase(l);
  const nw = l.neckW;
  const S = l.shoulderW;
  const behindNeck: Part[] = [];
  const over: Part[] = [];
  const crew = (width: number, role: Role = "clothShade"): Part => ({
    d: `M${n1(cx - nw - 14)} ${n1(y0 - 8)}Q${n1(cx)} ${n1(y0 + 44)} ${n1(cx + nw + 14)} ${n1(y0 - 8)}`,
    role,
    line: width,
  });
  const vNeck = (depth: number, role: Role): Part => ({
    d: `M${n1(cx - nw - 10)} ${n1(y0 - 8)}L${n1(cx)} ${n1(y0 + depth)}L${n1(cx + nw + 10)} ${n1(y0 - 8)}Z`,
    role,
  });
  switch (l.clothing) {
    case "tee":
      over.push(crew(10));
      if (l.interests[0])
        over.push({
          d: "",
          role: "clothLight",
          raw: `<g transform="translate(${cx} ${n1(y0 + 190)}) scale(2.4)">${MOTIFS[l.interests[0]] ?? MOTIFS.art}</g>`,
          opacity: 0.85,
        });
      break;
    case "sweater":
      over.push(crew(18));
      over.push({
        d: `M${n1(cx - S - 12)} ${n1(y0 + 130)}Q${n1(cx)} ${n1(y0 + 150)} ${n1(cx + S + 12)} ${n1(y0 + 130)}`,
        role: "clothLight",
        line: 22,
        bare: true,
      });
      over.push({
        d: `M${n1(cx - S - 12)} ${n1(y0 + 162)}Q${n1(cx)} ${n1(y0 + 182)} ${n1(cx + S + 12)} ${n1(y0 + 162)}`,
        role: "trim",
        line: 8,
        bare: true,
      });
      break;
    case "hoodie":
      behindNeck.push({
        d: `M${n1(cx - nw - 70)} ${n1(y0 + 40)}C${n1(cx - nw - 80)} ${n1(y0 - 70)} ${n1(cx + nw + 80)} ${n1(y0 - 70)} ${n1(cx + nw + 70)} ${n1(y0 + 40)}Z`,
        role: "clothShade",
      });
      over.push({
        d: `M${n1(cx - nw - 40)} ${n1(y0 - 10)}Q${n1(cx - 20)} ${n1(y0 + 40)} ${n1(cx + 6)} ${n1(y0 + 70)}Q${n1(cx + 30)} ${n1(y0 + 30)} ${n1(cx + nw + 40)} ${n1(y0 - 10)}Q${n1(cx + nw + 50)} ${n1(y0 + 40)} ${n1(cx + 6)} ${n1(y0 + 92)}Q${n1(cx - nw - 52)} ${n1(y0 + 40)} ${n1(cx - nw - 40)} ${n1(y0 - 10)}Z`,
        role: "clothShade",
      });
      over.push({ d: `M${n1(cx - 18)} ${n1(y0 + 80)}l-4 120M${n1(cx + 26)} ${n1(y0 + 80)}l4 120`, role: "trim", line: 6, bare: true });
      over.push({
        d: `M${n1(cx - 130)} ${n1(y0 + 470)}L${n1(cx - 100)} ${n1(y0 + 380)}L${n1(cx + 100)} ${n1(y0 + 380)}L${n1(cx + 130)} ${n1(y0 + 470)}`,
        role: "clothShade",
        line: 6,
        bare: true,
      });
      break;
    case "turtleneck":
      break;
    case "athletic":
      over.push({
        d: `M${n1(cx - nw - 16)} ${n1(y0 - 30)}L${n1(cx - nw - 18)} ${n1(y0 + 14)}Q${n1(cx)} ${n1(y0 + 40)} ${n1(cx + nw + 18)} ${n1(y0 + 14)}L${n1(cx + nw + 16)} ${n1(y0 - 30)}Q${n1(cx)} ${n1(y0 - 6)} ${n1(cx - nw - 16)} ${n1(y0 - 30)}Z`,
        role: "clothShade",
      });
      over.push({ d: `M${n1(cx + 4)} ${n1(y0 + 26)}L${n1(cx + 4)} 1500`, role: "dark", line: 4, bare: true });
      for (const s of [-1, 1])
        over.push({
          d: `M${n1(cx + s * (nw + 40))} ${n1(y0 + 10)}Q${n1(cx + s * (S - 20))} ${n1(y0 + 30)} ${n1(cx + s * (S + 12))} ${n1(y0 + 150)}L${n1(cx + s * (S + 16))} ${n1(y0 + 600)}`,
          role: "trim",
          line: 12,
          bare: true,
        });
      break;
    case "labcoat":
      over.push(vNeck(190, "cloth"));
      over.push(crew(8, "trim"));
      for (const s of [-1, 1])
        over.push({
          d: `M${n1(cx + s * (nw + 10))} ${n1(y0 - 10)}L${n1(cx + s * (nw + 46))} ${n1(y0 + 50)}L${n1(cx + s * (nw + 24))} ${n1(y0 + 80)}L${n1(cx + s * 4)} ${n1(y0 + 260)}L${n1(cx + s * 2)} ${n1(y0 + 190)}Z`,
          role: "white",
        });
      over.push({ d: `M${n1(cx + 60)} ${n1(y0 + 250)}h70v60h-70z`, role: "white" });
      over.push({ d: `M${n1(cx + 76)} ${n1(y0 + 228)}v40`, role: "accent", line: 6, bare: true });
      break;
    case "apron":
      over.push(crew(10));
      over.push({
        d: `M${n1(cx - 96)} ${n1(y0 + 130)}L${n1(cx + 96)} ${n1(y0 + 130)}L${n1(cx + 110)} 1500L${n1(cx - 110)} 1500Z`,
        role: "trim",
      });
      over.push({
        d: `M${n1(cx - 90)} ${n1(y0 + 134)}L${n1(cx - nw - 4)} ${n1(y0 - 4)}M${n1(cx + 90)} ${n1(y0 + 134)}L${n1(cx + nw + 4)} ${n1(y0 - 4)}`,
        role: "trim",
        line: 10,
        bare: true,
      });
      over.push({ d: `M${n1(cx - 60)} ${n1(y0 + 330)}h120v70h-120z`, role: "clothShade", opacity: 0.35, bare: true });
      break;
    case "jacket":
      over.push(crew(8, "trim"));
      for (const s of [-1, 1]) {
        over.push({
          d: `M${n1(cx + s * (nw + 8))} ${n1(y0 - 14)}L${n1(cx + s * (nw + 64))} ${n1(y0 + 40)}L${n1(cx + s * (nw + 30))} ${n1(y0 + 96)}L${n1(cx + s * 12)} ${n1(y0 + 60)}Z`,
          role: "clothShade",
        });
        over.push({ d: `M${n1(cx + s * 50)} ${n1(y0 + 170)}h${s * 90}v80h${-s * 90}z`, role: "clothShade", line: 5, bare: true });
      }
      over.push({ d: `M${n1(cx + 2)} ${n1(y0 + 60)}L${n1(cx + 2)} 1500`, role: "clothShade", line: 5, bare: true });
      break;
    case "cardigan":
      over.push(vNeck(230, "trim"));
      over.push(crew(8, "trim"));
      for (let i = 0; i < 5; i++) over.push({ d: circle(cx + 14, y0 + 250 + i * 70, 7), role: "clothShade" });
      over.push({
        d: `M${n1(cx - nw - 10)} ${n1(y0 - 8)}L${n1(cx)} ${n1(y0 + 230)}L${n1(cx + nw + 10)} ${n1(y0 - 8)}`,
        role: "clothShade",
        line: 10,
        bare: true,
      });
      break;
    case "blouse":
      over.push({ d: `M${n1(cx - nw - 34)} ${n1(y0 - 10)}Q${n1(cx)} ${n1(y0 + 100)} ${n1(cx + nw + 34)} ${n1(y0 - 10)}Z`, role: "skin" });
      over.push({
        d: `M${n1(cx - nw - 20)} ${n1(y0 + 2)}Q${n1(cx)} ${n1(y0 + 74)} ${n1(cx + nw + 20)} ${n1(y0 + 2)}`,
        role: "metal",
        line: 3,
        bare: true,
      });
      over.push({ d: circle(cx, y0 + 70, 7), role: "accent" });
      break;
    case "blazer": {
      const tie = l.accessories.has("tie");
      over.push(vNeck(250, "white"));
      for (const s of [-1, 1])
        over.push({
          d: `M${n1(cx + s * (nw + 4))} ${n1(y0 - 14)}L${n1(cx + s * (nw + 22))} ${n1(y0 + 40)}L${n1(cx + s * 10)} ${n1(y0 + 40)}Z`,
          role: "white",
        });
      if (tie)
        over.push({
          d: `M${n1(cx - 14)} ${n1(y0 + 30)}L${n1(cx + 14)} ${n1(y0 + 30)}L${n1(cx + 22)} ${n1(y0 + 250)}L${n1(cx)} ${n1(y0 + 280)}L${n1(cx - 22)} ${n1(y0 + 250)}Z`,
          role: "accent",
        });
      for (const s of [-1, 1])
        over.push({
          d: `M${n1(cx + s * (nw + 12))} ${n1(y0 - 12)}L${n1(cx + s * (nw + 60))} ${n1(y0 + 50)}L${n1(cx + s * (nw + 40))} ${n1(y0 + 86)}L${n1(cx + s * 2)} ${n1(y0 + 300)}L${n1(cx + s * 4)} ${n1(y0 + 250)}Z`,
          role: "clothShade",
        });
      over.push({ d: circle(cx, y0 + 340, 8), role: "dark" });
      break;
    }
  }
  return { behindNeck, over };
}

/** Arms for the half-body picture: folded, or holding something of the persona's first interest. */
function armParts(l: Look): Part[] {
  if (!l.secondary) return [];
  const { cx } = l;
  const y0 = neckBase(l);
  const S = l.shoulderW;
  const parts: Part[] = [];
  const sleeve: Role = l.clothing === "labcoat" ? "white" : "cloth";
  const elbow = (s: number): Pt => [cx + s * (S + 12), y0 + 380];
  const shoulder = (s: number): Pt => [cx + s * (S - 26), y0 + 90];
  // Each sleeve over a darker edge, so the arm reads against the body.
  const arm = (from: Pt, to: Pt, width: number) => {
    const d = `${M(from)}L${n1(to[0])} ${n1(to[1])}`;
    parts.push({ d, role: "clothShade", line: width + 12, bare: true }, { d, role: sleeve, line: width });
  };
  for (const s of [-1, 1]) arm(shoulder(s), elbow(s), 92);
  if (l.pose === "folded") {
    // Forearms across the chest, one over the other; hands tucked at the far elbows.
    const a: Pt = [cx + l.light * (S - 40), y0 + 440];
    const b: Pt = [cx - l.light * (S - 40), y0 + 470];
    arm(elbow(-l.light), a, 84);
    parts.push({ d: ellipse(a[0] + l.light * 12, a[1] - 6, 34, 28), role: "hand" });
    arm(elbow(l.light), b, 86);
    parts.push({ d: ellipse(b[0] - l.light * 10, b[1] - 4, 34, 28), role: "hand" });
    return parts;
  }
  const hold: Pt = [cx + l.light * 20, y0 + 440];
  for (const s of [-1, 1]) {
    arm(elbow(s), [hold[0] + s * 58, hold[1] + 20], 80);
  }
  const kind = l.accessories.has("mic") ? "mic" : (l.interests[0] ?? "art");
  parts.push({
    d: "",
    role: "accent",
    raw: `<g transform="translate(${n1(hold[0])} ${n1(hold[1] - 40)}) rotate(${l.light * -8}) scale(3.4)">${MOTIFS[kind] ?? MOTIFS.art}</g>`,
  });
  for (const s of [-1, 1]) parts.push({ d: ellipse(hold[0] + s * 60, hold[1] + 14, 32, 27), role: "hand" });
  return parts;
}

function earParts(l: Look): Part[] {
  const { cx, cy, W, H } = l;
  const parts: Part[] = [];
  for (const s of [-1, 1]) {
    const far = Math.max(0, -s * l.turn);
    const x = cx + s * (W - 4 - far * 16);
    parts.push({ d: ellipse(x, cy + 0.04 * H, 15, 28), role: "skin" });
    parts.push({ d: `M${n1(x - s * 2)} ${n1(cy - 0.04 * H)}q${s * 8} 12 0 26`, role: "skinShade", line: 3, bare: true });
    if (l.accessories.has("earrings"))
      parts.push({ d: `${circle(x, cy + 0.04 * H + 32, 6)}M${n1(x)} ${n1(cy + 0.04 * H + 40)}l7 16l-7 16l-7 -16z`, role: "metal" });
  }
  return parts;
}

/** Accessories over the head and face. */
function accessoryParts(l: Look): Part[] {
  const { cx, cy, W, H } = l;
  const parts: Part[] = [];
  const a = l.accessories;
  const vol = HAIR_LENGTH[l.hairStyle] === "short" ? 16 : 24;
  if (a.has("glasses") || a.has("sunglasses")) {
    const sun = a.has("sunglasses");
    const [left, right] = eyes(l);
    let lenses = "";
    for (const e of [left!, right!]) {
      const w = e.rx + 12;
      lenses += `M${n1(e.x - w)} ${n1(e.y - 16)}h${n1(2 * w)}q2 0 0 10q-4 26 -${n1(w)} 28q-${n1(w - 6)} 0 -${n1(w)} -28q-2 -10 0 -10z`;
    }
    if (sun) parts.push({ d: lenses, role: "dark", opacity: 0.88, bare: true });
    parts.push({ d: lenses, role: "dark", line: 5 });
    const bridgeY = left!.y - 10;
    parts.push({
      d: `M${n1(left!.x + left!.rx + 12)} ${n1(bridgeY)}Q${n1((left!.x + right!.x) / 2)} ${n1(bridgeY - 8)} ${n1(right!.x - right!.rx - 12)} ${n1(bridgeY)}`,
      role: "dark",
      line: 5,
    });
  }
  if (a.has("catEars") || a.has("headphones")) {
    const top = cy - H - vol - 8;
    parts.push({
      d: `M${n1(cx - W - 16)} ${n1(cy - 0.1 * H)}C${n1(cx - W - 30)} ${n1(top - 40)} ${n1(cx + W + 30)} ${n1(top - 40)} ${n1(cx + W + 16)} ${n1(cy - 0.1 * H)}`,
      role: "dark",
      line: 16,
    });
    if (a.has("catEars")) {
      for (const s of [-1, 1]) {
        const bx = cx + s * 0.55 * W;
        const by = top + 2;
        parts.push({ d: `M${n1(bx - 34)} ${n1(by + 14)}L${n1(bx + s * 6)} ${n1(by - 66)}L${n1(bx + 36)} ${n1(by + 10)}Z`, role: "accent" });
        parts.push({
          d: `M${n1(bx - 18)} ${n1(by + 6)}L${n1(bx + s * 4)} ${n1(by - 40)}L${n1(bx + 20)} ${n1(by + 4)}Z`,
          role: "white",
          opacity: 0.8,
          bare: true,
        });
      }
    }
    for (const s of [-1, 1])
      parts.push({
        d: `M${n1(cx + s * (W + 4) - 26)} ${n1(cy - 0.3 * H + 20)}a26 20 0 0 1 52 0v${n1(0.5 * H - 40)}a26 20 0 0 1 -52 0z`,
        role: "accent",
      });
  }
  if (a.has("beanie")) {
    const top = cy - H - vol - 30;
    parts.push({
      d: `M${n1(cx - W - 18)} ${n1(cy - 0.42 * H)}C${n1(cx - W - 20)} ${n1(top)} ${n1(cx + W + 20)} ${n1(top)} ${n1(cx + W + 18)} ${n1(cy - 0.42 * H)}Z`,
      role: "accent",
    });
    parts.push({
      d: `M${n1(cx - W - 22)} ${n1(cy - 0.6 * H)}Q${n1(cx)} ${n1(cy - 0.72 * H)} ${n1(cx + W + 22)} ${n1(cy - 0.6 * H)}L${n1(cx + W + 20)} ${n1(cy - 0.4 * H)}Q${n1(cx)} ${n1(cy - 0.52 * H)} ${n1(cx - W - 20)} ${n1(cy - 0.4 * H)}Z`,
      role: "trim",
    });
    parts.push({ d: circle(cx, top + 14, 22), role: "white" });
  } else if (a.has("beret")) {
    const y = cy - H - vol + 12;
    parts.push({ d: `${ellipse(cx - l.part * 16, y, 132, 44)}`, role: "accent" });
    parts.push({ d: circle(cx - l.part * 10, y - 44, 9), role: "accent" });
  }
  if (a.has("scarf")) {
    const y0 = neckBase(l);
    parts.push({
      d: `M${n1(cx - l.neckW - 44)} ${n1(y0 - 30)}Q${n1(cx)} ${n1(y0 + 20)} ${n1(cx + l.neckW + 44)} ${n1(y0 - 30)}L${n1(cx + l.neckW + 56)} ${n1(y0 + 14)}Q${n1(cx)} ${n1(y0 + 76)} ${n1(cx - l.neckW - 56)} ${n1(y0 + 14)}Z`,
      role: "accent",
    });
    parts.push({ d: `M${n1(cx + 30)} ${n1(y0 + 30)}l34 190l-52 6z`, role: "accent" });
  }
  if (a.has("badge")) {
    const y0 = neckBase(l);
    const x = cx - l.light * (l.shoulderW * 0.55);
    parts.push({ d: `M${n1(x - 36)} ${n1(y0 + 110)}h72v46h-72z`, role: "white" });
    parts.push({ d: `M${n1(x - 28)} ${n1(y0 + 118)}h20v28h-20z`, role: "accent", bare: true });
    parts.push({ d: `M${n1(x - 2)} ${n1(y0 + 126)}h24M${n1(x - 2)} ${n1(y0 + 138)}h18`, role: "dark", line: 3, bare: true });
  }
  if (a.has("mic") && !l.secondary) {
    const x = cx + l.light * -(l.shoulderW * 0.75);
    const y0 = neckBase(l);
    parts.push({ d: `M${n1(x)} 1500L${n1(x + 10)} ${n1(y0 + 120)}`, role: "dark", line: 12 });
    parts.push({ d: "", role: "metal", raw: `<g transform="translate(${n1(x + 12)} ${n1(y0 + 100)}) scale(2.6)">${MOTIFS.mic}</g>` });
  }
  return parts;
}

/** Freckles over the nose and cheeks. */
function freckleParts(l: Look): Part[] {
  if (!l.freckles) return [];
  let d = "";
  const x = fx(l);
  const y = l.cy + 0.18 * l.H;
  for (let i = 0; i < 16; i++) {
    const s = i % 2 === 0 ? -1 : 1;
    const dx = 20 + ((i * 37) % 60);
    const dy = ((i * 23) % 26) - 10;
    d += circle(x + s * dx, y + dy, 2.4);
  }
  return [{ d, role: "skinShade", opacity: 0.8, bare: true }];
}

interface Figure {
  /** Behind the figure: the ring light. */
  halo: Part[];
  hairBack: Part[];
  body: Part[];
  neck: Part[];
  head: Part[];
  /** Beard, freckles: on the skin, under the features. */
  skinMarks: Part[];
  features: Part[];
  hairFront: Part[];
  front: Part[];
  hair: HairGeometry;
}

function figureOf(l: Look): Figure {
  const hair = hairOf(l);
  const clothes = clothingParts(l);
  const mouth = mouthOf(l);
  const nose = noseOf(l);
  const halo: Part[] = l.accessories.has("ring")
    ? [{ d: circle(l.cx, l.cy - 10, 250), role: "accent", line: 16, opacity: 0.85, bare: true }]
    : [];
  const turtleneck: Part[] =
    l.clothing === "turtleneck"
      ? [
          {
            d: `M${n1(l.cx - l.neckW - 6)} ${n1(l.cy + l.H - 8)}L${n1(l.cx - l.neckW - 14)} ${n1(neckBase(l) + 24)}Q${n1(l.cx)} ${n1(neckBase(l) + 48)} ${n1(l.cx + l.neckW + 14)} ${n1(neckBase(l) + 24)}L${n1(l.cx + l.neckW + 6)} ${n1(l.cy + l.H - 8)}Q${n1(l.cx)} ${n1(l.cy + l.H + 10)} ${n1(l.cx - l.neckW - 6)} ${n1(l.cy + l.H - 8)}Z`,
            role: "cloth",
          },
          {
            d: `M${n1(l.cx - l.neckW - 8)} ${n1(l.cy + l.H + 16)}Q${n1(l.cx)} ${n1(l.cy + l.H + 34)} ${n1(l.cx + l.neckW + 8)} ${n1(l.cy + l.H + 16)}M${n1(l.cx - l.neckW - 10)} ${n1(l.cy + l.H + 40)}Q${n1(l.cx)} ${n1(l.cy + l.H + 58)} ${n1(l.cx + l.neckW + 10)} ${n1(l.cy + l.H + 40)}`,
            role: "clothShade",
            line: 4,
            bare: true,
          },
        ]
      : [];
  const features: Part[] = [
    ...brows(l),
    { d: nose.nostrils, role: "skinShade", line: 3.5, bare: true },
    { d: mouth.upper, role: "lips", bare: true },
    { d: mouth.lower, role: "lips", bare: true },
    ...(mouth.open ? [{ d: mouth.open, role: "mouth" as const, bare: true }] : []),
    ...(mouth.teeth ? [{ d: mouth.teeth, role: "teeth" as const, bare: true }] : []),
    { d: mouth.line, role: "mouth", line: 3, bare: true },
    ...ageLines(l),
  ];
  return {
    halo,
    hairBack: hair.back.map((d) => ({ d, role: "hair" })),
    body: [...clothes.behindNeck, { d: torsoD(l), role: l.clothing === "labcoat" ? "white" : "cloth" }, ...clothes.over, ...armParts(l)],
    neck: [{ d: neckD(l), role: "neck" }, ...turtleneck, ...earParts(l)],
    head: [{ d: faceD(l), role: "skin" }],
    skinMarks: [...freckleParts(l), ...facialHairParts(l)],
    features,
    hairFront: [...hair.front.map((d): Part => ({ d, role: "hair" })), ...hair.over.map((d): Part => ({ d, role: "hair" }))],
    front: accessoryParts(l),
    hair,
  };
}

// ---------------------------------------------------------------------------------------
// Painting: a style gives every role a colour (or a gradient) and, when inked, an outline.

type Palette = Record<Role, string>;

interface Ink {
  colour: string;
  width: number;
}

function paint(parts: readonly Part[], palette: Palette, ink?: Ink): string {
  let out = "";
  for (const part of parts) {
    const colour = palette[part.role];
    const opacity = part.opacity !== undefined ? ` opacity="${part.opacity}"` : "";
    if (part.raw) {
      out += `<g fill="${colour}" color="${colour}"${opacity}>${part.raw}</g>`;
    } else if (part.line) {
      if (ink && !part.bare)
        out += `<path d="${part.d}" fill="none" stroke="${ink.colour}" stroke-width="${n1(part.line + ink.width * 1.6)}" stroke-linecap="round" stroke-linejoin="round"${opacity}/>`;
      out += `<path d="${part.d}" fill="none" stroke="${colour}" stroke-width="${n1(part.line)}" stroke-linecap="round" stroke-linejoin="round"${opacity}/>`;
    } else {
      const stroke = ink && !part.bare ? ` stroke="${ink.colour}" stroke-width="${ink.width}" stroke-linejoin="round"` : "";
      out += `<path d="${part.d}" fill="${colour}"${stroke}${opacity}/>`;
    }
  }
  return out;
}

/** The figure in layers, with a style's own drawing slotted in between. */
function drawFigure(
  l: Look,
  fig: Figure,
  palette: Palette,
  ink: Ink | undefined,
  hooks: {
    afterBody?: string;
    afterNeck?: string;
    afterHead?: string;
    eyes: string;
    afterFeatures?: string;
    afterHair?: string;
    nose?: string;
  },
): string {
  return [
    paint(fig.halo, palette),
    paint(fig.hairBack, palette, ink),
    paint(fig.body, palette, ink),
    hooks.afterBody ?? "",
    paint(fig.neck, palette, ink),
    hooks.afterNeck ?? "",
    paint(fig.head, palette, ink),
    hooks.afterHead ?? "",
    paint(fig.skinMarks, palette),
    hooks.eyes,
    hooks.nose ?? "",
    paint(fig.features, palette),
    hooks.afterFeatures ?? "",
    paint(fig.hairFront, palette, ink),
    hooks.afterHair ?? "",
    paint(fig.front, palette, ink),
  ].join("");
}

function translated(d: string, dx: number, dy: number): string {
  return `<g transform="translate(${n1(dx)} ${n1(dy)})"><path d="${d}"/></g>`;
}

// ---------------------------------------------------------------------------------------
// Photorealistic: painted light and shade.

function photorealistic(l: Look): { back: string; figure: string; over: string } {
  const fig = figureOf(l);
  const r = l.random;
  const L = l.light;
  const far = -L;
  const { cx, cy, W, H } = l;
  const y0 = neckBase(l);
  const lit = mix(l.backdrop, "#ffffff", l.bright ? 0.45 : 0.25);
  const deep = mix(l.backdrop, "#05050a", l.bright ? 0.35 : 0.6);
  const eyeList = eyes(l);
  const nose = noseOf(l);
  const mouth = mouthOf(l);

  const defs = `<defs>
    <radialGradient id="pBg" cx="${L < 0 ? 22 : 78}%" cy="${l.secondary ? 40 : 28}%" r="95%"><stop offset="0" stop-color="${lit}"/><stop offset="0.45" stop-color="${l.backdrop}"/><stop offset="1" stop-color="${deep}"/></radialGradient>
    <radialGradient id="pGlowA"><stop offset="0" stop-color="${l.accent}" stop-opacity="0.55"/><stop offset="1" stop-color="${l.accent}" stop-opacity="0"/></radialGradient>
    <radialGradient id="pGlowW"><stop offset="0" stop-color="#fff8ec" stop-opacity="0.8"/><stop offset="0.5" stop-color="#fff8ec" stop-opacity="0.3"/><stop offset="1" stop-color="#fff8ec" stop-opacity="0"/></radialGradient>
    <radialGradient id="pSkin" gradientUnits="userSpaceOnUse" cx="${n1(cx + L * 0.38 * W)}" cy="${n1(cy - 0.3 * H)}" r="${n1(1.75 * H)}"><stop offset="0" stop-color="${l.skinLight}"/><stop offset="0.38" stop-color="${l.skin}"/><stop offset="0.7" stop-color="${l.skinShade}"/><stop offset="1" stop-color="${l.skinDeep}"/></radialGradient>
    <linearGradient id="pHand" x1="${L < 0 ? 0 : 1}" y1="0" x2="${L < 0 ? 1 : 0}" y2="1"><stop offset="0" stop-color="${l.skinLight}"/><stop offset="0.5" stop-color="${l.skin}"/><stop offset="1" stop-color="${l.skinShade}"/></linearGradient>
    <linearGradient id="pNeck" x1="${L < 0 ? 0 : 1}" y1="0" x2="${L < 0 ? 1 : 0}" y2="0"><stop offset="0" stop-color="${l.skin}"/><stop offset="1" stop-color="${l.skinShade}"/></linearGradient>
    <linearGradient id="pHair" gradientUnits="userSpaceOnUse" x1="${n1(cx + L * W)}" y1="${n1(cy - H - 60)}" x2="${n1(cx - L * W * 0.6)}" y2="${n1(cy + H + 260)}"><stop offset="0" stop-color="${l.hairLight}"/><stop offset="0.35" stop-color="${l.hair}"/><stop offset="1" stop-color="${l.hairDark}"/></linearGradient>
    <linearGradient id="pCloth" gradientUnits="userSpaceOnUse" x1="${n1(cx + L * l.shoulderW)}" y1="${n1(y0)}" x2="${n1(cx - L * l.shoulderW)}" y2="${n1(y0 + 560)}"><stop offset="0" stop-color="${l.clothLight}"/><stop offset="0.45" stop-color="${l.cloth}"/><stop offset="1" stop-color="${l.clothShade}"/></linearGradient>
    <linearGradient id="pWhite" gradientUnits="userSpaceOnUse" x1="${n1(cx + L * l.shoulderW)}" y1="${n1(y0)}" x2="${n1(cx - L * l.shoulderW)}" y2="${n1(y0 + 560)}"><stop offset="0" stop-color="#ffffff"/><stop offset="0.5" stop-color="#eeece6"/><stop offset="1" stop-color="#b9b8b4"/></linearGradient>
    <linearGradient id="pLips" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${mix(l.lips, "#000", 0.18)}"/><stop offset="0.6" stop-color="${l.lips}"/><stop offset="1" stop-color="${mix(l.lips, "#fff", 0.18)}"/></linearGradient>
    <radialGradient id="pIris"><stop offset="0" stop-color="${mix(l.iris, "#ffffff", 0.3)}"/><stop offset="0.55" stop-color="${l.iris}"/><stop offset="0.86" stop-color="${mix(l.iris, "#000", 0.45)}"/><stop offset="1" stop-color="#150d08"/></radialGradient>
    <radialGradient id="pSclera"><stop offset="0.3" stop-color="#fbf8f3"/><stop offset="1" stop-color="#cfc4bb"/></radialGradient>
    <radialGradient id="pBlush"><stop offset="0" stop-color="#e0707a" stop-opacity="0.32"/><stop offset="1" stop-color="#e0707a" stop-opacity="0"/></radialGradient>
    <radialGradient id="pVignette" cx="50%" cy="46%" r="72%"><stop offset="0.6" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="0.42"/></radialGradient>
    <radialGradient id="pShade"><stop offset="0" stop-color="${l.skinDeep}"/><stop offset="0.55" stop-color="${l.skinDeep}" stop-opacity="0.55"/><stop offset="1" stop-color="${l.skinDeep}" stop-opacity="0"/></radialGradient>
    <radialGradient id="pLight"><stop offset="0" stop-color="#fff"/><stop offset="0.5" stop-color="#fff" stop-opacity="0.45"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient>
    <radialGradient id="pDark"><stop offset="0" stop-color="#000"/><stop offset="0.5" stop-color="#000" stop-opacity="0.5"/><stop offset="1" stop-color="#000" stop-opacity="0"/></radialGradient>
    <linearGradient id="pTurn" gradientUnits="userSpaceOnUse" x1="${n1(cx + L * W)}" y1="${n1(cy - H)}" x2="${n1(cx - L * W)}" y2="${n1(cy + H * 0.6)}"><stop offset="0" stop-color="#fff" stop-opacity="0.14"/><stop offset="0.45" stop-color="${l.skinDeep}" stop-opacity="0"/><stop offset="1" stop-color="${l.skinDeep}" stop-opacity="0.5"/></linearGradient>
    <linearGradient id="pBody" gradientUnits="userSpaceOnUse" x1="${n1(cx + L * l.shoulderW)}" y1="0" x2="${n1(cx - L * l.shoulderW * 1.05)}" y2="0"><stop offset="0" stop-color="#fff" stop-opacity="0.16"/><stop offset="0.45" stop-color="#000" stop-opacity="0"/><stop offset="0.8" stop-color="#000" stop-opacity="0.3"/><stop offset="1" stop-color="#000" stop-opacity="0.5"/></linearGradient>
    <clipPath id="pFace"><path d="${faceD(l)}"/></clipPath>
    ${eyeList.map((e, i) => `<clipPath id="pEye${i}"><path d="${e.outline}"/></clipPath>`).join("")}
  </defs>`;

  // The backdrop: a lit studio wall, or for the half-body picture a room with a window.
  let back = `${defs}<rect width="768" height="768" fill="url(#pBg)"/>`;
  if (l.secondary) {
    const wx = L < 0 ? 40 + r() * 60 : 560 + r() * 60;
    const wy = 70 + r() * 40;
    back += `<rect x="${n1(wx)}" y="${n1(wy)}" width="170" height="270" rx="4" fill="${mix(lit, "#fffaf0", 0.6)}" opacity="0.9"/><path d="M${n1(wx + 85)} ${n1(wy)}v270M${n1(wx)} ${n1(wy + 135)}h170" stroke="${mix(l.backdrop, "#3a2a20", 0.5)}" stroke-width="10"/><rect x="${n1(wx - 6)}" y="${n1(wy - 6)}" width="182" height="282" rx="6" fill="none" stroke="${mix(l.backdrop, "#3a2a20", 0.45)}" stroke-width="12"/>`;
    back += `<path d="M${n1(wx)} ${n1(wy + 270)}L${n1(wx + 170)} ${n1(wy + 270)}L${n1(wx + 170 - L * 260)} 768L${n1(wx - L * 160)} 768Z" fill="#fff6e0" opacity="0.16"/>`;
    const sx = L < 0 ? 470 + r() * 80 : 60 + r() * 80;
    back += `<rect x="${n1(sx)}" y="430" width="240" height="14" fill="${mix(l.backdrop, "#2a1c14", 0.55)}"/>`;
    const kinds = l.interests.length > 0 ? l.interests : ["art"];
    kinds.forEach((kind, i) => {
      back += `<g transform="translate(${n1(sx + 50 + i * 70)} ${n1(404 - i * 4)}) scale(${(1.1 + r() * 0.3).toFixed(2)})" fill="${mix(i % 2 ? l.accent : l.accent2, "#000", 0.15)}" color="${mix(l.accent, "#000", 0.3)}">${MOTIFS[kind] ?? MOTIFS.art}</g>`;
    });
    back += `<ellipse cx="${n1(sx + 200)}" cy="392" rx="22" ry="40" fill="#3f6b3a"/><ellipse cx="${n1(sx + 186)}" cy="380" rx="14" ry="30" fill="#4f8a48" transform="rotate(-20 ${n1(sx + 186)} 380)"/><rect x="${n1(sx + 186)}" y="404" width="28" height="26" rx="3" fill="${mix(l.accent, "#6b4a30", 0.6)}"/>`;
    back += `<rect x="0" y="640" width="768" height="128" fill="${mix(l.backdrop, "#1a120c", 0.55)}" opacity="0.55"/>`;
  } else {
    for (let i = 0; i < 5; i++) {
      back += `<circle cx="${n1(r() * 768)}" cy="${n1(r() * 600)}" r="${n1(90 + r() * 140)}" fill="url(#${i % 2 === 0 ? "pGlowA" : "pGlowW"})" opacity="${(0.25 + r() * 0.35).toFixed(2)}"/>`;
    }
    for (let i = 0; i < 9; i++) {
      back += `<circle cx="${n1(r() * 768)}" cy="${n1(r() * 520)}" r="${n1(14 + r() * 34)}" fill="url(#pGlowW)" opacity="${(0.2 + r() * 0.4).toFixed(2)}"/>`;
    }
  }

  const palette: Palette = {
    skin: "url(#pSkin)",
    skinShade: l.skinDeep,
    hand: "url(#pHand)",
    neck: "url(#pNeck)",
    hair: "url(#pHair)",
    hairShade: mix(l.hairDark, l.skinDeep, 0.2),
    cloth: "url(#pCloth)",
    clothShade: l.clothShade,
    clothLight: l.clothLight,
    trim: l.clothTrim,
    white: "url(#pWhite)",
    dark: "#1c1816",
    accent: l.accent,
    metal: "#d8bf78",
    lips: "url(#pLips)",
    mouth: mix(l.lips, "#2a0c0c", 0.6),
    teeth: "#f3ede2",
  };

  // Cast shadows and light on the figure.
  const castShadow =
    `<ellipse cx="${n1(cx + far * 60)}" cy="${n1(cy + 40)}" rx="${n1(W * 1.7)}" ry="${n1(H * 1.5)}" fill="url(#pDark)" opacity="0.32"/>` +
    `<ellipse cx="${n1(cx + far * 70)}" cy="${n1(y0 + 260)}" rx="${n1(l.shoulderW * 1.35)}" ry="340" fill="url(#pDark)" opacity="0.3"/>`;
  // Light falls on the near shoulder; the far side of the body turns into shade.
  const afterBody = `<path d="${torsoD(l)}" fill="url(#pBody)"/>`;
  const afterNeck = `<ellipse cx="${n1(cx + far * 8)}" cy="${n1(cy + H + 16)}" rx="${n1(l.neckW * 1.7)}" ry="46" fill="url(#pShade)" opacity="0.85"/>`;
  const hairline = l.hairStyle === "bald" || l.hairStyle === "buzz" ? null : cy - 0.58 * H;
  const afterHead = `<g clip-path="url(#pFace)">
    <ellipse cx="${n1(cx + far * W * 1.02)}" cy="${n1(cy + 0.1 * H)}" rx="${n1(W * 0.62)}" ry="${n1(H * 1.3)}" fill="url(#pShade)" opacity="0.8"/>
    <ellipse cx="${n1(cx + far * 0.42 * W)}" cy="${n1(cy + 0.32 * H)}" rx="${n1(0.26 * W)}" ry="${n1(0.26 * H)}" fill="url(#pShade)" opacity="0.4"/>
    <path d="${faceD(l)}" fill="url(#pTurn)"/>
    <ellipse cx="${n1(cx + L * 0.42 * W)}" cy="${n1(cy + 0.14 * H)}" rx="${n1(0.28 * W)}" ry="${n1(0.17 * H)}" fill="url(#pLight)" opacity="0.32"/>
    <ellipse cx="${n1(cx + L * 0.18 * W)}" cy="${n1(cy - 0.5 * H)}" rx="${n1(0.45 * W)}" ry="${n1(0.2 * H)}" fill="url(#pLight)" opacity="0.3"/>
    <ellipse cx="${n1(fx(l) + l.turn * 6)}" cy="${n1(cy + 0.86 * H)}" rx="${n1(0.2 * W)}" ry="${n1(0.07 * H)}" fill="url(#pLight)" opacity="0.18"/>
    ${hairline === null ? "" : `<ellipse cx="${n1(cx + far * 10)}" cy="${n1(hairline + 4)}" rx="${n1(W * 1.05)}" ry="${n1(0.16 * H)}" fill="url(#pShade)" opacity="0.75"/>`}
    ${eyeList.map((e) => `<ellipse cx="${n1(e.x)}" cy="${n1(e.y - 5)}" rx="${n1(e.rx * 1.6)}" ry="${n1(e.ry * 2 + 10)}" fill="url(#pShade)" opacity="0.45"/>`).join("")}
    <path d="${nose.bridge}" stroke="${l.skinDeep}" stroke-width="14" fill="none" opacity="0.12" stroke-linecap="round"/>
    <path d="${nose.bridge}" stroke="${l.skinDeep}" stroke-width="6" fill="none" opacity="0.22" stroke-linecap="round"/>
    <path d="M${n1(nose.tip[0] + L * 3)} ${n1(eyeY(l) + 16)}L${n1(nose.tip[0] + L * 4)} ${n1(nose.tip[1] - 10)}" stroke="#fff" stroke-width="7" opacity="0.14" stroke-linecap="round"/>
    <ellipse cx="${n1(nose.tip[0])}" cy="${n1(nose.tip[1] + 14)}" rx="${n1(l.noseW * 1.3)}" ry="12" fill="url(#pShade)" opacity="0.6"/>
    <ellipse cx="${n1(nose.tip[0] + L * 4)}" cy="${n1(nose.tip[1] - 2)}" rx="9" ry="7" fill="url(#pLight)" opacity="0.45"/>
    <ellipse cx="${n1(fx(l))}" cy="${n1(mouthY(l) + 26 * l.lipFull + 12)}" rx="${n1(l.mouthW * 0.8)}" ry="11" fill="url(#pShade)" opacity="0.5"/>
    ${eyeList.map((e) => `<ellipse cx="${n1(e.x + e.side * 34)}" cy="${n1(cy + 0.22 * H)}" rx="34" ry="20" fill="url(#pBlush)"/>`).join("")}
    <path d="${faceD(l)}" transform="translate(${n1(L * 6)} 0)" fill="none" stroke="${mix(lit, "#ffffff", 0.3)}" stroke-width="6" opacity="0.16"/>
  </g>`;

  const eyesSvg = eyeList
    .map((e, i) => {
      const catch_ = e.irisX + L * e.irisR * 0.35;
      return (
        `<path d="${e.outline}" fill="url(#pSclera)"/>` +
        `<g clip-path="url(#pEye${i})"><circle cx="${n1(e.irisX)}" cy="${n1(e.y)}" r="${n1(e.irisR)}" fill="url(#pIris)"/><circle cx="${n1(e.irisX)}" cy="${n1(e.y)}" r="${n1(e.irisR * 0.42)}" fill="#0c0806"/>` +
        `<path d="${e.upper}" stroke="#1a0c06" stroke-width="${n1(e.ry * 1.2)}" fill="none" opacity="0.28"/></g>` +
        `<circle cx="${n1(catch_)}" cy="${n1(e.y - e.irisR * 0.35)}" r="${n1(Math.max(2.2, e.irisR * 0.2))}" fill="#fff" opacity="0.92"/>` +
        `<path d="${e.upper}" stroke="${mix(l.hairDark, "#000", 0.5)}" stroke-width="3.6" fill="none" stroke-linecap="round"/>` +
        `<path d="M${n1(e.x + e.side * e.rx)} ${n1(e.y - (l.eyeShape === "almond" ? 3 : 0))}l${e.side * 7} -5" stroke="${mix(l.hairDark, "#000", 0.5)}" stroke-width="2.6" stroke-linecap="round"/>` +
        `<path d="${e.crease}" stroke="${l.skinDeep}" stroke-width="2" fill="none" opacity="0.5"/>` +
        `<path d="${e.lower}" stroke="${l.skinDeep}" stroke-width="1.6" fill="none" opacity="0.45"/>`
      );
    })
    .join("");

  const lipShine = `<ellipse cx="${n1(fx(l) + L * 6)}" cy="${n1(mouthY(l) + (mouth.open ? 28 : 12) * l.lipFull)}" rx="${n1(l.mouthW * 0.4)}" ry="5" fill="url(#pLight)" opacity="0.4"/>`;
  const strands = fig.hair.strands
    .map(
      (d, i) =>
        `<path d="${d}" stroke="${i % 2 === 0 ? l.hairLight : l.hairDark}" stroke-width="${i % 2 === 0 ? 3 : 2.5}" fill="none" opacity="${i % 2 === 0 ? 0.45 : 0.4}" stroke-linecap="round"/>`,
    )
    .join("");
  const sheen =
    l.hairStyle !== "bald" && l.hairStyle !== "buzz"
      ? `<ellipse cx="${n1(cx + L * 0.5 * W)}" cy="${n1(cy - 0.86 * H)}" rx="${n1(0.4 * W)}" ry="${n1(0.16 * H)}" transform="rotate(${L * 30} ${n1(cx + L * 0.5 * W)} ${n1(cy - 0.86 * H)})" fill="url(#pLight)" opacity="0.3"/>`
      : "";
  const figure =
    castShadow +
    drawFigure(l, fig, palette, undefined, {
      afterBody,
      afterNeck,
      afterHead,
      eyes: eyesSvg,
      afterFeatures: lipShine,
      afterHair: strands + sheen,
    });
  const over = `<rect width="768" height="768" fill="url(#pVignette)"/><rect width="768" height="768" fill="${l.accent}" opacity="0.05"/>`;
  return { back, figure, over };
}

// ---------------------------------------------------------------------------------------
// Anime: flat cel shading, ink outlines, large shining eyes.

function anime(l: Look): { back: string; figure: string; over: string } {
  const fig = figureOf(l);
  const r = l.random;
  const { cx, cy, W, H } = l;
  const inkColour = "#2a1730";
  const ink: Ink = { colour: inkColour, width: 5 };
  const bg = mix(l.accent, "#ffffff", 0.72);
  let back = `<rect width="768" height="768" fill="${bg}"/>`;
  if (l.secondary) {
    // Diagonal bands and a slanted ground.
    let bands = "";
    for (let i = -4; i < 12; i++) bands += `M${i * 90} 0l60 0l-300 768l-60 0z`;
    back += `<path d="${bands}" fill="${mix(l.accent, "#ffffff", 0.45)}" opacity="0.6"/><path d="M0 ${n1(520 + r() * 80)}L768 ${n1(300 + r() * 80)}L768 768L0 768Z" fill="${mix(l.accent2, "#ffffff", 0.55)}"/>`;
    back += motifs(l, mix(l.accent2, inkColour, 0.2), 0.8, 4, 1.1);
  } else {
    for (let i = 0; i < 28; i++) {
      const a = (i / 28) * Math.PI * 2 + r() * 0.1;
      back += `<path d="M${n1(cx + Math.cos(a) * 280)} ${n1(cy + Math.sin(a) * 280)}L${n1(cx + Math.cos(a) * 560)} ${n1(cy + Math.sin(a) * 560)}" stroke="${mix(l.accent, "#ffffff", 0.4)}" stroke-width="${(3 + r() * 8).toFixed(1)}"/>`;
    }
    for (let i = 0; i < 8; i++) {
      const x = 60 + r() * 648;
      const y = 40 + r() * 300;
      const s = 10 + r() * 16;
      back += `<path d="M${n1(x)} ${n1(y - s)}Q${n1(x)} ${n1(y)} ${n1(x + s)} ${n1(y)}Q${n1(x)} ${n1(y)} ${n1(x)} ${n1(y + s)}Q${n1(x)} ${n1(y)} ${n1(x - s)} ${n1(y)}Q${n1(x)} ${n1(y)} ${n1(x)} ${n1(y - s)}Z" fill="#fff"/>`;
    }
    back += motifs(l, mix(l.accent, inkColour, 0.2), 0.55, 5);
  }
  const palette: Palette = {
    skin: l.skinLight,
    skinShade: l.skinShade,
    hand: l.skinLight,
    neck: l.skinLight,
    hair: l.hair,
    hairShade: mix(l.hairDark, inkColour, 0.5),
    cloth: l.cloth,
    clothShade: l.clothShade,
    clothLight: l.clothLight,
    trim: l.clothTrim,
    white: "#fbfaf7",
    dark: inkColour,
    accent: l.accent,
    metal: "#f0c94a",
    lips: l.skinLight,
    mouth: "#8a2b3b",
    teeth: "#ffffff",
  };
  const far = -l.light;
  const afterHead =
    `<defs><clipPath id="aFace"><path d="${faceD(l)}"/></clipPath></defs><g clip-path="url(#aFace)" fill="${l.skinShade}">` +
    `<ellipse cx="${n1(cx + far * W * 1.15)}" cy="${n1(cy + 0.1 * H)}" rx="${n1(W * 0.55)}" ry="${n1(H * 1.3)}"/>` +
    fig.hair.front.map((d) => translated(d, far * 4, 18)).join("") +
    `</g>` +
    eyes(l)
      .map((e) => `<ellipse cx="${n1(e.x + e.side * 30)}" cy="${n1(cy + 0.26 * H)}" rx="20" ry="8" fill="#ff8fa3" opacity="0.7"/>`)
      .join("");
  const eyeSvg = eyes(l)
    .map((e) => {
      const w = e.rx * 1.55;
      const h = Math.max(e.ry * 2.6, 34);
      const x = e.x;
      const y = e.y + 4;
      return (
        `<path d="M${n1(x - w)} ${n1(y - h * 0.4)}Q${n1(x)} ${n1(y - h * 0.95)} ${n1(x + w)} ${n1(y - h * 0.4)}L${n1(x + w * 0.88)} ${n1(y + h * 0.55)}Q${n1(x)} ${n1(y + h * 0.75)} ${n1(x - w * 0.88)} ${n1(y + h * 0.55)}Z" fill="#fff" stroke="${inkColour}" stroke-width="3"/>` +
        `<ellipse cx="${n1(e.irisX)}" cy="${n1(y + h * 0.08)}" rx="${n1(w * 0.68)}" ry="${n1(h * 0.58)}" fill="${l.iris}"/>` +
        `<ellipse cx="${n1(e.irisX)}" cy="${n1(y + h * 0.22)}" rx="${n1(w * 0.68)}" ry="${n1(h * 0.36)}" fill="${mix(l.iris, "#000", 0.4)}"/>` +
        `<ellipse cx="${n1(e.irisX)}" cy="${n1(y + h * 0.1)}" rx="${n1(w * 0.3)}" ry="${n1(h * 0.3)}" fill="#160a18"/>` +
        `<ellipse cx="${n1(e.irisX - w * 0.25)}" cy="${n1(y - h * 0.12)}" rx="${n1(w * 0.24)}" ry="${n1(h * 0.2)}" fill="#fff"/><circle cx="${n1(e.irisX + w * 0.28)}" cy="${n1(y + h * 0.34)}" r="${n1(w * 0.12)}" fill="#fff"/>` +
        `<path d="M${n1(x - w * 1.15)} ${n1(y - h * 0.36)}Q${n1(x)} ${n1(y - h * 1.05)} ${n1(x + w * 1.15)} ${n1(y - h * 0.42)}" stroke="${inkColour}" stroke-width="9" fill="none" stroke-linecap="round"/>`
      );
    })
    .join("");
  // Pointed fringe locks over the forehead.
  let locks = "";
  if (!["bald", "buzz", "afro", "curls"].includes(l.hairStyle)) {
    for (let i = 0; i < 5; i++) {
      const x = cx - l.T * 0.8 + (l.T * 1.6 * i) / 4 + l.part * 6;
      const top = cy - 0.72 * H;
      const tip = cy - 0.32 * H + (i % 2) * 14 - (i === 0 || i === 4 ? 20 : 0);
      locks += `<path d="M${n1(x - 26)} ${n1(top)}Q${n1(x - 6)} ${n1(tip - 30)} ${n1(x + l.part * 10)} ${n1(tip)}Q${n1(x + 8)} ${n1(tip - 40)} ${n1(x + 28)} ${n1(top)}Z" fill="${l.hair}" stroke="${inkColour}" stroke-width="4" stroke-linejoin="round"/>`;
    }
  }
  const shine =
    l.hairStyle === "bald"
      ? ""
      : `<path d="M${n1(cx - 0.7 * W)} ${n1(cy - 0.86 * H)}q${n1(0.35 * W)} -22 ${n1(0.7 * W)} -10" stroke="#fff" stroke-width="9" fill="none" opacity="0.75" stroke-linecap="round"/>`;
  const figure = drawFigure(l, fig, palette, ink, {
    afterHead,
    eyes: eyeSvg,
    nose: `<path d="M${n1(noseOf(l).tip[0] - 3)} ${n1(noseOf(l).tip[1] - 2)}l6 8" stroke="${inkColour}" stroke-width="3" stroke-linecap="round"/>`,
    afterHair: locks + shine,
  });
  return { back, figure, over: "" };
}

// ---------------------------------------------------------------------------------------
// Digital art: low-poly facets and neon glow.

function digitalArt(l: Look): { back: string; figure: string; over: string } {
  const fig = figureOf(l);
  const r = l.random;
  const dark = mix(l.accent2, "#07061a", 0.8);
  const glow = l.accent;
  let back = "";
  if (l.secondary) {
    // A synthwave horizon: a striped sun over a perspective grid.
    back += `<defs><linearGradient id="dSky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${dark}"/><stop offset="1" stop-color="${mix(l.accent2, "#07061a", 0.35)}"/></linearGradient><linearGradient id="dSun" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${mix(glow, "#fff6a0", 0.4)}"/><stop offset="1" stop-color="${glow}"/></linearGradient></defs>`;
    back += `<rect width="768" height="768" fill="url(#dSky)"/>`;
    const sx = 384 + l.light * 170;
    back += `<circle cx="${n1(sx)}" cy="420" r="150" fill="url(#dSun)"/>`;
    for (let i = 0; i < 6; i++)
      back += `<rect x="${n1(sx - 160)}" y="${n1(380 + i * 18)}" width="320" height="${n1(3 + i * 1.6)}" fill="${dark}"/>`;
    back += `<rect y="470" width="768" height="298" fill="#07061a"/>`;
    for (let i = 0; i <= 16; i++)
      back += `<path d="M${n1(384 + (i - 8) * 22)} 470L${n1(384 + (i - 8) * 150)} 768" stroke="${glow}" stroke-width="2" opacity="0.8"/>`;
    for (let j = 0; j < 7; j++) {
      const y = 470 + Math.pow(j / 6, 1.8) * 298;
      back += `<path d="M0 ${n1(y)}H768" stroke="${glow}" stroke-width="2" opacity="0.8"/>`;
    }
  } else {
    const step = 96;
    const pts: Pt[][] = [];
    for (let j = 0; j <= 8; j++) {
      const row: Pt[] = [];
      for (let i = 0; i <= 8; i++) {
        const jitter = i === 0 || i === 8 || j === 0 || j === 8 ? 0 : 30;
        row.push([i * step + (r() - 0.5) * jitter, j * step + (r() - 0.5) * jitter]);
      }
      pts.push(row);
    }
    for (let j = 0; j < 8; j++) {
      for (let i = 0; i < 8; i++) {
        const a = pts[j]![i]!;
        const b = pts[j]![i + 1]!;
        const c = pts[j + 1]![i]!;
        const d = pts[j + 1]![i + 1]!;
        const t1 = (i + j) / 16 + r() * 0.15;
        back += `<path d="${M(a)}${L(b)}${L(d)}Z" fill="${mix(dark, l.accent2, Math.min(1, t1 * 0.7))}"/><path d="${M(a)}${L(d)}${L(c)}Z" fill="${mix(dark, l.accent, Math.min(1, t1 * 0.5))}"/>`;
      }
    }
    back += motifs(l, glow, 0.8, 6);
  }
  const palette: Palette = {
    skin: l.skinShade,
    skinShade: mix(l.skinDeep, dark, 0.3),
    hand: l.skinShade,
    neck: l.skinShade,
    hair: mix(l.hair, l.accent2, 0.3),
    hairShade: "#0b0a1e",
    cloth: mix(l.cloth, dark, 0.35),
    clothShade: mix(l.clothShade, dark, 0.4),
    clothLight: mix(l.clothLight, glow, 0.3),
    trim: glow,
    white: mix("#dfe6ff", l.accent2, 0.15),
    dark: "#0b0a1e",
    accent: glow,
    metal: mix(glow, "#fff", 0.4),
    lips: mix(l.lips, glow, 0.25),
    mouth: "#0b0a1e",
    teeth: "#eef",
  };
  // The face as facets, lit from the light's side.
  const pts = facePoints(l);
  const centre: Pt = [fx(l), l.cy + 0.05 * l.H];
  let facets = "";
  const ring: Pt[] = [];
  for (let i = 0; i < pts.length; i++) {
    const a = pts[i]!;
    const b = pts[(i + 1) % pts.length]!;
    ring.push(a, [(a[0] + b[0]) / 2 + (b[1] - a[1]) * 0.08, (a[1] + b[1]) / 2 - (b[0] - a[0]) * 0.08]);
  }
  for (let i = 0; i < ring.length; i++) {
    const a = ring[i]!;
    const b = ring[(i + 1) % ring.length]!;
    const angle = Math.atan2((a[1] + b[1]) / 2 - centre[1], (a[0] + b[0]) / 2 - centre[0]);
    const light = 0.5 + 0.5 * Math.cos(angle - (l.light < 0 ? Math.PI * 1.2 : -Math.PI * 0.2));
    const shade = mix(l.skinDeep, mix(l.skin, "#ffffff", 0.25), light);
    facets += `<path d="${M(centre)}${L(a)}${L(b)}Z" fill="${shade}" stroke="${shade}" stroke-width="0.8"/>`;
  }
  const outline = (width: number, opacity: number) =>
    `<g fill="none" stroke="${glow}" stroke-width="${width}" stroke-opacity="${opacity}" stroke-linejoin="round"><path d="${faceD(l)}"/><path d="${torsoD(l)}"/>${fig.hair.front.map((d) => `<path d="${d}"/>`).join("")}</g>`;
  const eyeSvg = eyes(l)
    .map(
      (e) =>
        `<path d="${e.outline}" fill="#e8f0ff"/><circle cx="${n1(e.irisX)}" cy="${n1(e.y)}" r="${n1(e.irisR * 0.9)}" fill="${glow}"/><circle cx="${n1(e.irisX)}" cy="${n1(e.y)}" r="${n1(e.irisR * 0.4)}" fill="#0b0a1e"/><path d="${e.upper}" stroke="#0b0a1e" stroke-width="3" fill="none"/>`,
    )
    .join("");
  const nose = noseOf(l);
  const figure = drawFigure(l, fig, palette, undefined, {
    afterHead: facets,
    eyes: eyeSvg,
    nose: `<path d="M${n1(nose.tip[0] - 10)} ${n1(nose.tip[1] + 8)}L${n1(nose.tip[0])} ${n1(eyeY(l) + 20)}L${n1(nose.tip[0] + 10)} ${n1(nose.tip[1] + 8)}Z" fill="${l.skinDeep}" opacity="0.7"/>`,
    afterHair: outline(16, 0.18) + outline(9, 0.3) + outline(3.5, 1),
  });
  return { back, figure, over: "" };
}

// ---------------------------------------------------------------------------------------
// Cinematic: teal and orange, a hard side light, letterbox, grain.

function grain(r: Random): string {
  let out = "";
  for (let i = 0; i < 90; i++) {
    const light = r() < 0.5;
    out += `<rect x="${Math.floor(r() * 64)}" y="${Math.floor(r() * 64)}" width="1.5" height="1.5" fill="${light ? "#fff" : "#000"}" opacity="${(0.08 + r() * 0.14).toFixed(2)}"/>`;
  }
  return out;
}

function cinematic(l: Look): { back: string; figure: string; over: string } {
  const fig = figureOf(l);
  const r = l.random;
  const teal = mix("#0f3b47", l.accent2, 0.45);
  const orange = mix("#f0a35e", l.accent, 0.15);
  const L = l.light;
  let back = `<defs>
    <linearGradient id="cSky" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#0a1f2a"/><stop offset="0.6" stop-color="${teal}"/><stop offset="1" stop-color="${mix("#1c5963", l.accent, 0.3)}"/></linearGradient>
    <linearGradient id="cKey" gradientUnits="userSpaceOnUse" x1="${n1(l.cx + L * l.W)}" y1="0" x2="${n1(l.cx - L * l.W)}" y2="0"><stop offset="0" stop-color="${orange}" stop-opacity="0.5"/><stop offset="0.45" stop-color="${orange}" stop-opacity="0.08"/><stop offset="0.55" stop-color="#021016" stop-opacity="0.55"/><stop offset="1" stop-color="#021016" stop-opacity="0.8"/></linearGradient>
    <radialGradient id="cVignette" cx="50%" cy="45%" r="70%"><stop offset="0.55" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="0.85"/></radialGradient>
    <radialGradient id="cGlow"><stop offset="0" stop-color="#ffe2b8" stop-opacity="0.85"/><stop offset="0.3" stop-color="${orange}" stop-opacity="0.45"/><stop offset="1" stop-color="${orange}" stop-opacity="0"/></radialGradient>
    <pattern id="cGrain" width="64" height="64" patternUnits="userSpaceOnUse">${grain(r)}</pattern>
    <linearGradient id="cGround" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#04141a" stop-opacity="0"/><stop offset="0.3" stop-color="#04141a" stop-opacity="0.6"/><stop offset="1" stop-color="#04141a" stop-opacity="0.7"/></linearGradient>
  </defs><rect width="768" height="768" fill="url(#cSky)"/>`;
  if (l.secondary) {
    // A night street: a skyline with lit windows and streetlight glows.
    let x = 0;
    while (x < 768) {
      const w = 50 + r() * 70;
      const h = 160 + r() * 240;
      back += `<rect x="${n1(x)}" y="${n1(600 - h)}" width="${n1(w - 4)}" height="${n1(h + 200)}" fill="#061820"/>`;
      for (let k = 0; k < 6; k++) {
        if (r() < 0.5)
          back += `<rect x="${n1(x + 8 + r() * (w - 24))}" y="${n1(600 - h + 16 + r() * (h - 40))}" width="7" height="10" fill="${orange}" opacity="0.8"/>`;
      }
      x += w;
    }
    back += `<circle cx="${n1(384 + L * 250)}" cy="160" r="90" fill="${orange}" opacity="0.25"/><circle cx="${n1(384 + L * 250)}" cy="160" r="20" fill="#ffe2b8" opacity="0.8"/>`;
  } else {
    const y = 120 + r() * 120;
    back += `<g opacity="0.3">${motifs(l, "#7fb3b8", 0.5, 5)}</g><rect x="0" y="${n1(380 + r() * 160)}" width="768" height="400" fill="url(#cGround)"/>`;
    // Out-of-focus practical lights behind the persona.
    for (let i = 0; i < 3; i++)
      back += `<circle cx="${n1(r() * 768)}" cy="${n1(120 + r() * 420)}" r="${n1(40 + r() * 90)}" fill="url(#cGlow)" opacity="${(0.35 + r() * 0.5).toFixed(2)}"/>`;
    back += `<ellipse cx="${n1(384 + L * (180 + r() * 70))}" cy="${n1(y)}" rx="260" ry="5" fill="#ffd9a8" opacity="0.55"/><circle cx="${n1(384 + L * (220 + r() * 30))}" cy="${n1(y)}" r="26" fill="#ffe2b8" opacity="0.5"/>`;
  }
  const palette: Palette = {
    skin: mix(l.skin, orange, 0.18),
    skinShade: l.skinDeep,
    hand: mix(l.skin, orange, 0.1),
    neck: mix(l.skin, orange, 0.1),
    hair: mix(l.hair, "#000", 0.3),
    hairShade: mix(l.hair, "#000", 0.6),
    cloth: mix(l.cloth, "#10161c", 0.55),
    clothShade: mix(l.clothShade, "#05080a", 0.5),
    clothLight: mix(l.clothLight, "#10161c", 0.4),
    trim: mix(l.clothTrim, "#10161c", 0.4),
    white: "#c9cfd2",
    dark: "#0b0b0b",
    accent: mix(l.accent, "#1b1f24", 0.4),
    metal: orange,
    lips: mix(l.lips, "#3a1414", 0.3),
    mouth: "#3a1010",
    teeth: "#d8d2c8",
  };
  const eyeSvg = eyes(l)
    .map(
      (e) =>
        `<path d="${e.outline}" fill="#d9d2c8"/><circle cx="${n1(e.irisX)}" cy="${n1(e.y)}" r="${n1(Math.min(e.irisR, e.ry * 1.1))}" fill="${mix(l.iris, "#1a120c", 0.3)}"/><circle cx="${n1(e.irisX)}" cy="${n1(e.y)}" r="${n1(e.irisR * 0.38)}" fill="#0a0706"/><path d="${e.upper}" stroke="#120c08" stroke-width="3.5" fill="none"/>`,
    )
    .join("");
  const key = `<g>${paint(fig.head, { ...palette, skin: "url(#cKey)" })}</g><path d="M${n1(l.cx + L * l.W)} ${n1(l.cy - 0.4 * l.H)}Q${n1(l.cx + L * (l.W + 8))} ${n1(l.cy + 0.3 * l.H)} ${n1(l.cx + L * l.J)} ${n1(l.cy + 0.8 * l.H)}" stroke="${orange}" stroke-width="5" fill="none" opacity="0.8"/>`;
  const figure = drawFigure(l, fig, palette, undefined, {
    eyes: eyeSvg,
    nose: `<path d="${noseOf(l).bridge}" stroke="${l.skinDeep}" stroke-width="4" fill="none" opacity="0.6"/>`,
    afterHair: key,
  });
  const over = `<rect width="768" height="768" fill="url(#cVignette)"/><rect width="768" height="768" fill="url(#cGrain)"/><rect width="768" height="92" fill="#000"/><rect y="676" width="768" height="92" fill="#000"/>`;
  return { back, figure, over };
}

// ---------------------------------------------------------------------------------------
// Minimalist: line art on a pale ground, one accent shape.

function minimalist(l: Look): { back: string; figure: string; over: string } {
  const fig = figureOf(l);
  const ground = mix(l.accent, "#ffffff", 0.9);
  const inkColour = "#1f2430";
  const ink: Ink = { colour: inkColour, width: 3.5 };
  const icon = l.interests[0] ?? "art";
  let back = `<rect width="768" height="768" fill="${ground}"/>`;
  if (l.secondary) {
    const x = l.light < 0 ? 70 : 430;
    back += `<path d="M${x} 700V330a134 134 0 0 1 268 0V700Z" fill="${l.accent}" opacity="0.85"/><path d="M40 700H728" stroke="${inkColour}" stroke-width="3.5"/>`;
    back += `<g transform="translate(${n1(l.light < 0 ? 620 : 140)} 130) scale(1.4)" fill="${inkColour}" color="${inkColour}" opacity="0.9">${MOTIFS[icon] ?? MOTIFS.art}</g>`;
  } else {
    const r = l.random;
    back += `<circle cx="${n1(384 - l.light * (90 + r() * 80))}" cy="${n1(190 + r() * 140)}" r="${n1(160 + r() * 90)}" fill="${l.accent}" opacity="0.85"/>`;
    back += `<g transform="translate(${n1(384 + l.light * 250)} 618) scale(1.6)" fill="${inkColour}" color="${inkColour}" opacity="0.9">${MOTIFS[icon] ?? MOTIFS.art}</g>`;
  }
  const hairTint = mix(l.hair, ground, 0.55);
  const palette: Palette = {
    skin: ground,
    skinShade: inkColour,
    hand: ground,
    neck: ground,
    hair: hairTint,
    hairShade: inkColour,
    cloth: ground,
    clothShade: inkColour,
    clothLight: ground,
    trim: ground,
    white: ground,
    dark: inkColour,
    accent: l.accent2,
    metal: inkColour,
    lips: ground,
    mouth: inkColour,
    teeth: ground,
  };
  // Line art: every shape outlined, dark shapes left hollow.
  const hollow = new Set<Role>(["clothShade", "skinShade", "hairShade", "dark"]);
  const lineParts = (parts: Part[]) =>
    parts.map((p): Part => (p.line || p.raw ? p : { ...p, bare: false, role: hollow.has(p.role) ? "cloth" : p.role, opacity: undefined }));
  const eyeSvg = eyes(l)
    .map((e) =>
      l.expression === "smile" || l.expression === "grin"
        ? `<path d="M${n1(e.x - 14)} ${n1(e.y + 4)}Q${n1(e.x)} ${n1(e.y - 10)} ${n1(e.x + 14)} ${n1(e.y + 4)}" stroke="${inkColour}" stroke-width="3.5" fill="none" stroke-linecap="round"/>`
        : `<circle cx="${n1(e.irisX)}" cy="${n1(e.y)}" r="6" fill="${inkColour}"/>`,
    )
    .join("");
  const nose = noseOf(l);
  const mouth = mouthOf(l);
  const figure = drawFigure(
    l,
    {
      ...fig,
      skinMarks: fig.skinMarks.map((p) => (p.role === "hair" ? { ...p, role: "hair" as const, opacity: 0.5 } : p)),
      features: [...brows(l).map((p) => ({ ...p, line: 3.5 })), { d: mouth.line, role: "mouth", line: 3.5, bare: true }, ...ageLines(l)],
      body: lineParts(fig.body),
      hairBack: lineParts(fig.hairBack),
      hairFront: lineParts(fig.hairFront),
      front: lineParts(fig.front),
    },
    palette,
    ink,
    {
      eyes: eyeSvg,
      nose: `<path d="M${n1(nose.tip[0])} ${n1(eyeY(l) + 20)}L${n1(nose.tip[0] - 8)} ${n1(nose.tip[1] + 6)}L${n1(nose.tip[0] + 4)} ${n1(nose.tip[1] + 8)}" stroke="${inkColour}" stroke-width="3.5" fill="none" stroke-linecap="round" stroke-linejoin="round"/>`,
    },
  );
  return { back, figure, over: "" };
}

const STYLES: Record<ImageStyle, (look: Look) => { back: string; figure: string; over: string }> = {
  photorealistic,
  anime,
  digital_art: digitalArt,
  cinematic,
  minimalist,
};

/** The portrait as an SVG document, PORTRAIT_SIZE square. */
export function portraitSvg(persona: PortraitPersona, style: ImageStyle, slot: ImageSlot): string {
  const look = lookOf(persona, slot);
  const { back, figure, over } = STYLES[style](look);
  const { x, y, scale, tilt } = look.frame;
  const frame = `translate(${n1(x)} ${n1(y)}) scale(${scale.toFixed(3)}) rotate(${tilt.toFixed(2)} ${look.cx} ${look.cy + 300})`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${PORTRAIT_SIZE}" height="${PORTRAIT_SIZE}" viewBox="0 0 ${PORTRAIT_SIZE} ${PORTRAIT_SIZE}">${back}<g transform="${frame}">${figure}</g>${over}</svg>`;
}
