// The embedded image generator's drawing: an illustrated head-and-shoulders portrait of a
// persona as SVG, which local-image.server.ts renders with sharp. Deterministic: the same
// persona, style and slot always give the same picture.
//
// What the persona decides: skin and hair colours and the background (seeded by its fields),
// the hair (gender: long, short, or a mid-length cut), grey hair and lines with age, the
// expression (traits: a wide smile for outgoing ones, a quiet one for reserved ones, set brows
// for assertive ones), warm or cool colours (traits), an accessory by persona type (glasses,
// headphones, a beret, a headset with ears, a collar and tie…) and motifs for its interests
// in the background.
//
// What the style decides is how it is drawn, not just its colours:
//   - photorealistic: soft gradients, blurred bokeh, shaded skin and eyes with irises;
//   - anime: flat cel shading with hard shadows, dark outlines, large shining eyes, spiky
//     hair, speed lines and sparkles;
//   - digital_art: low-poly facets over a triangle mesh, neon glow outlines;
//   - cinematic: letterbox bars, a hard side light leaving half the face in shade, teal and
//     orange, vignette and film grain;
//   - minimalist: thin line art on a pale ground, one accent shape, no shading.
// The secondary image frames the same persona differently (closer, turned, another backdrop).
import type { ImageSlot, ImageStyle } from "~/domain/images";
import { mulberry32, hashString, type Random } from "~/domain/random";

export interface PortraitPersona {
  name: string;
  type?: string | null;
  gender?: string | null;
  ageRange?: string | null;
  interests: readonly string[];
  personality: readonly string[];
}

export const PORTRAIT_SIZE = 768;

const SKIN = ["#f6d7c3", "#eec1a0", "#d9a27e", "#b97c57", "#8d5a3b", "#62402b"];
const HAIR_YOUNG = ["#2b1d16", "#4a2f1f", "#7b4a26", "#b8793a", "#e1b866", "#1d1d2b", "#8a2f3c"];
const HAIR_OLD = ["#b9b4ad", "#d8d4cf", "#8f8a85"];

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
const SMILING = new Set(["Outgoing", "Social", "Humorous", "Entertaining", "Empathetic", "Trusting", "Compassionate"]);
const DETERMINED = new Set(["Assertive", "Competitive", "Direct", "Disciplined", "Focused"]);

type Expression = "smile" | "calm" | "set";
type Hair = "long" | "short" | "bob";
type Accessory = "glasses" | "headphones" | "beret" | "headset" | "tie" | "earrings" | "scarf" | "badge" | "mic" | "ring";

const ACCESSORY: Record<string, Accessory> = {
  influencer: "ring",
  vtuber: "headset",
  content: "headphones",
  personality: "mic",
  educator: "glasses",
  artist: "beret",
  advisor: "tie",
  entertainer: "earrings",
  companion: "scarf",
  specialist: "badge",
};

interface Look {
  random: Random;
  skin: string;
  skinShade: string;
  hair: string;
  hairStyle: Hair;
  expression: Expression;
  warm: boolean;
  accent: string;
  accent2: string;
  older: boolean;
  oldest: boolean;
  accessory: Accessory | null;
  interests: string[];
  /** Head position and a turn (−1…1) for the secondary framing. */
  cx: number;
  cy: number;
  scale: number;
  turn: number;
}

function mix(hex: string, other: string, t: number): string {
  const a = parseInt(hex.slice(1), 16);
  const b = parseInt(other.slice(1), 16);
  const channel = (shift: number) => Math.round(((a >> shift) & 255) * (1 - t) + ((b >> shift) & 255) * t);
  return `#${((channel(16) << 16) | (channel(8) << 8) | channel(0)).toString(16).padStart(6, "0")}`;
}

function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length) % items.length]!;
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

function lookOf(persona: PortraitPersona, slot: ImageSlot): Look {
  const key = [
    persona.name.trim().toLowerCase(),
    persona.type,
    persona.gender,
    persona.ageRange,
    [...persona.interests].sort().join(","),
    [...persona.personality].sort().join(","),
  ].join("|");
  const random = mulberry32(hashString(`portrait|${key}`));
  const traits = persona.personality;
  const warmth = traits.filter((t) => WARM_TRAITS.has(t)).length - traits.filter((t) => COOL_TRAITS.has(t)).length;
  const warm = warmth > 0 || (warmth === 0 && random() < 0.5);
  const hue = warm ? 350 + random() * 60 : 170 + random() * 80;
  const older = persona.ageRange === "45-54" || persona.ageRange === "55+";
  const oldest = persona.ageRange === "55+";
  const skin = pick(random, SKIN);
  const youngHair = pick(random, HAIR_YOUNG);
  const hairStyle: Hair = persona.gender === "female" ? "long" : persona.gender === "male" ? "short" : "bob";
  const expression: Expression = traits.some((t) => SMILING.has(t)) ? "smile" : traits.some((t) => DETERMINED.has(t)) ? "set" : "calm";
  const secondary = slot === "secondary";
  return {
    random: mulberry32(hashString(`portrait|${slot}|${key}`)),
    skin,
    skinShade: mix(skin, "#3b2418", 0.28),
    hair: oldest ? pick(random, HAIR_OLD) : older ? mix(youngHair, "#b9b4ad", 0.35) : youngHair,
    hairStyle,
    expression,
    warm,
    accent: hsl(hue % 360, 70, 55),
    accent2: hsl((hue + 150) % 360, 60, 45),
    older,
    oldest,
    accessory: persona.type ? (ACCESSORY[persona.type] ?? null) : null,
    interests: [...persona.interests],
    cx: secondary ? 410 : 384,
    cy: secondary ? 350 : 318,
    scale: secondary ? 1.14 : 1,
    turn: secondary ? 0.45 : 0,
  };
}

// ---------------------------------------------------------------------------------------
// Interest motifs: small shapes scattered in the background, centred on (0, 0), about 40 wide.

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
};

function motifs(look: Look, color: string, opacity: number, count = 7): string {
  const kinds = look.interests.length > 0 ? look.interests : ["art"];
  const r = look.random;
  let out = "";
  for (let i = 0; i < count; i++) {
    const kind = kinds[i % kinds.length]!;
    // Around the edges, where the head does not cover them.
    const side = i % 2 === 0 ? -1 : 1;
    const x = 384 + side * (230 + r() * 110);
    const y = 70 + ((i * 97 + r() * 60) % 520);
    const s = 0.9 + r() * 0.8;
    const rot = Math.round(r() * 50 - 25);
    out += `<g transform="translate(${x.toFixed(1)} ${y.toFixed(1)}) rotate(${rot}) scale(${s.toFixed(2)})" fill="${color}" color="${color}" opacity="${opacity}">${MOTIFS[kind] ?? MOTIFS.art}</g>`;
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// Shared geometry, in the 768 × 768 canvas before the framing transform.

const HEAD = { rx: 112, ry: 142 };

function hairBack(look: Look, fill: string, stroke = ""): string {
  const { cx, cy } = look;
  if (look.hairStyle === "long") {
    return `<path d="M${cx - 150} ${cy + 250} C${cx - 175} ${cy + 60} ${cx - 165} ${cy - 170} ${cx} ${cy - 178} C${cx + 165} ${cy - 170} ${cx + 175} ${cy + 60} ${cx + 150} ${cy + 250} Z" fill="${fill}" ${stroke}/>`;
  }
  if (look.hairStyle === "bob") {
    return `<path d="M${cx - 140} ${cy + 90} C${cx - 160} ${cy - 40} ${cx - 150} ${cy - 170} ${cx} ${cy - 176} C${cx + 150} ${cy - 170} ${cx + 160} ${cy - 40} ${cx + 140} ${cy + 90} Z" fill="${fill}" ${stroke}/>`;
  }
  return "";
}

function hairFront(look: Look, fill: string, stroke = "", spiky = false): string {
  const { cx, cy } = look;
  if (spiky) {
    // Anime: a fringe of sharp locks.
    const tips = look.hairStyle === "short" ? 7 : 9;
    let d = `M${cx - 128} ${cy - 10} C${cx - 140} ${cy - 150} ${cx - 70} ${cy - 190} ${cx} ${cy - 186} C${cx + 70} ${cy - 190} ${cx + 140} ${cy - 150} ${cx + 128} ${cy - 10}`;
    for (let i = tips; i >= 0; i--) {
      const x = cx - 124 + (248 * i) / tips;
      const y = cy - 70 + (i % 2 === 0 ? 40 : -10) + (i === 0 || i === tips ? 60 : 0);
      d += ` L${x.toFixed(1)} ${y.toFixed(1)}`;
    }
    return `<path d="${d} Z" fill="${fill}" ${stroke}/>`;
  }
  if (look.hairStyle === "short") {
    return `<path d="M${cx - 118} ${cy - 30} C${cx - 130} ${cy - 150} ${cx - 60} ${cy - 185} ${cx + 10} ${cy - 182} C${cx + 90} ${cy - 180} ${cx + 132} ${cy - 130} ${cx + 118} ${cy - 30} C${cx + 100} ${cy - 95} ${cx + 40} ${cy - 112} ${cx - 20} ${cy - 100} C${cx - 70} ${cy - 92} ${cx - 100} ${cy - 70} ${cx - 118} ${cy - 30} Z" fill="${fill}" ${stroke}/>`;
  }
  // A side-swept fringe (long and bob).
  return `<path d="M${cx - 124} ${cy + 10} C${cx - 140} ${cy - 140} ${cx - 60} ${cy - 188} ${cx + 10} ${cy - 184} C${cx + 100} ${cy - 180} ${cx + 140} ${cy - 120} ${cx + 124} ${cy + 10} C${cx + 110} ${cy - 70} ${cx + 70} ${cy - 100} ${cx + 20} ${cy - 96} C${cx - 40} ${cy - 90} ${cx - 90} ${cy - 60} ${cx - 124} ${cy + 10} Z" fill="${fill}" ${stroke}/>`;
}

function shoulders(look: Look, fill: string, stroke = ""): string {
  const { cx, cy } = look;
  return `<path d="M${cx - 300} 768 C${cx - 290} ${cy + 250} ${cx - 190} ${cy + 205} ${cx - 70} ${cy + 190} L${cx + 70} ${cy + 190} C${cx + 190} ${cy + 205} ${cx + 290} ${cy + 250} ${cx + 300} 768 Z" fill="${fill}" ${stroke}/>`;
}

function neck(look: Look, fill: string, stroke = ""): string {
  const { cx, cy } = look;
  return `<path d="M${cx - 46} ${cy + 110} L${cx - 50} ${cy + 205} Q${cx} ${cy + 240} ${cx + 50} ${cy + 205} L${cx + 46} ${cy + 110} Z" fill="${fill}" ${stroke}/>`;
}

function headShape(look: Look, fill: string, stroke = ""): string {
  const { cx, cy } = look;
  // A jaw narrower than the brow.
  return `<path d="M${cx} ${cy - HEAD.ry} C${cx + 80} ${cy - HEAD.ry} ${cx + HEAD.rx} ${cy - 70} ${cx + HEAD.rx} ${cy - 5} C${cx + HEAD.rx} ${cy + 70} ${cx + 60} ${cy + HEAD.ry} ${cx} ${cy + HEAD.ry} C${cx - 60} ${cy + HEAD.ry} ${cx - HEAD.rx} ${cy + 70} ${cx - HEAD.rx} ${cy - 5} C${cx - HEAD.rx} ${cy - 70} ${cx - 80} ${cy - HEAD.ry} ${cx} ${cy - HEAD.ry} Z" fill="${fill}" ${stroke}/>`;
}

function mouth(look: Look, color: string, width = 5): string {
  const { cx, cy } = look;
  const x = cx + look.turn * 20;
  const y = cy + 78;
  if (look.expression === "smile") {
    return `<path d="M${x - 36} ${y - 6} Q${x} ${y + 30} ${x + 36} ${y - 6} Q${x} ${y + 8} ${x - 36} ${y - 6} Z" fill="${color}" stroke="${color}" stroke-width="${width / 2}" stroke-linejoin="round"/>`;
  }
  if (look.expression === "set")
    return `<path d="M${x - 28} ${y + 4} L${x + 28} ${y + 2}" stroke="${color}" stroke-width="${width}" stroke-linecap="round"/>`;
  return `<path d="M${x - 26} ${y} Q${x} ${y + 12} ${x + 26} ${y}" stroke="${color}" stroke-width="${width}" fill="none" stroke-linecap="round"/>`;
}

function brows(look: Look, color: string, width = 7): string {
  const { cx, cy } = look;
  const x = cx + look.turn * 22;
  const tilt = look.expression === "set" ? 9 : look.expression === "smile" ? -5 : 0;
  return `<path d="M${x - 72} ${cy - 46 - tilt} Q${x - 46} ${cy - 62} ${x - 20} ${cy - 48 + tilt}" stroke="${color}" stroke-width="${width}" fill="none" stroke-linecap="round"/><path d="M${x + 20} ${cy - 48 + tilt} Q${x + 46} ${cy - 62} ${x + 72} ${cy - 46 - tilt}" stroke="${color}" stroke-width="${width}" fill="none" stroke-linecap="round"/>`;
}

function ageLines(look: Look, color: string): string {
  if (!look.older) return "";
  const { cx, cy } = look;
  const x = cx + look.turn * 20;
  const more = look.oldest
    ? `<path d="M${x - 30} ${cy - 84} Q${x} ${cy - 90} ${x + 30} ${cy - 84}" stroke="${color}" stroke-width="2.5" fill="none"/>`
    : "";
  return `<path d="M${x - 52} ${cy + 60} Q${x - 60} ${cy + 80} ${x - 48} ${cy + 96}M${x + 52} ${cy + 60} Q${x + 60} ${cy + 80} ${x + 48} ${cy + 96}" stroke="${color}" stroke-width="2.5" fill="none" opacity="0.6"/>${more}`;
}

function accessory(look: Look, color: string, stroke: string, line = 6): string {
  const { cx, cy } = look;
  const x = cx + look.turn * 22;
  switch (look.accessory) {
    case "glasses":
      return `<g fill="none" stroke="${stroke}" stroke-width="${line}"><circle cx="${x - 46}" cy="${cy - 10}" r="30"/><circle cx="${x + 46}" cy="${cy - 10}" r="30"/><path d="M${x - 16} ${cy - 12} Q${x} ${cy - 22} ${x + 16} ${cy - 12}"/></g>`;
    case "headphones":
      return `<path d="M${cx - 128} ${cy} C${cx - 140} ${cy - 220} ${cx + 140} ${cy - 220} ${cx + 128} ${cy}" stroke="${stroke}" stroke-width="${line * 2.4}" fill="none"/><rect x="${cx - 150}" y="${cy - 40}" width="44" height="86" rx="18" fill="${color}" stroke="${stroke}" stroke-width="${line / 2}"/><rect x="${cx + 106}" y="${cy - 40}" width="44" height="86" rx="18" fill="${color}" stroke="${stroke}" stroke-width="${line / 2}"/>`;
    case "beret":
      return `<ellipse cx="${cx - 10}" cy="${cy - 150}" rx="138" ry="46" transform="rotate(-8 ${cx} ${cy - 150})" fill="${color}" stroke="${stroke}" stroke-width="${line / 2}"/><circle cx="${cx - 6}" cy="${cy - 198}" r="9" fill="${color}"/>`;
    case "headset":
      return `<path d="M${cx - 96} ${cy - 150} l-20 -70 l62 40 z M${cx + 96} ${cy - 150} l20 -70 l-62 40 z" fill="${color}" stroke="${stroke}" stroke-width="${line / 2}"/><path d="M${cx - 118} ${cy + 20} Q${cx - 110} ${cy + 90} ${cx - 40} ${cy + 88}" stroke="${stroke}" stroke-width="${line}" fill="none"/><circle cx="${cx - 36}" cy="${cy + 88}" r="10" fill="${color}"/>`;
    case "tie":
      return `<path d="M${cx - 60} ${cy + 192} L${cx} ${cy + 240} L${cx + 60} ${cy + 192} L${cx + 40} ${cy + 260} L${cx} ${cy + 236} L${cx - 40} ${cy + 260} Z" fill="#fff" stroke="${stroke}" stroke-width="${line / 3}"/><path d="M${cx} ${cy + 240} l-18 22 l18 120 l18 -120 z" fill="${color}" stroke="${stroke}" stroke-width="${line / 3}"/>`;
    case "earrings":
      return `<path d="M${cx - 116} ${cy + 40} l8 24 l-8 24 l-8 -24 z M${cx + 116} ${cy + 40} l8 24 l-8 24 l-8 -24 z" fill="${color}" stroke="${stroke}" stroke-width="${line / 3}"/><path d="M${cx - 48} ${cy + 214} l48 18 l48 -18 l-10 34 l-38 -8 l-38 8 z" fill="${color}"/>`;
    case "scarf":
      return `<path d="M${cx - 110} ${cy + 190} Q${cx} ${cy + 250} ${cx + 110} ${cy + 190} L${cx + 120} ${cy + 230} Q${cx} ${cy + 300} ${cx - 120} ${cy + 230} Z" fill="${color}" stroke="${stroke}" stroke-width="${line / 3}"/><path d="M${cx + 40} ${cy + 250} l30 130 l-44 0 z" fill="${color}" stroke="${stroke}" stroke-width="${line / 3}"/>`;
    case "badge":
      return `<rect x="${cx + 110}" y="${cy + 290}" width="70" height="44" rx="6" fill="#fff" stroke="${stroke}" stroke-width="${line / 2}"/><rect x="${cx + 120}" y="${cy + 300}" width="20" height="24" fill="${color}"/><path d="M${cx + 148} ${cy + 306}h24M${cx + 148} ${cy + 318}h18" stroke="${stroke}" stroke-width="3"/>`;
    case "mic":
      return `<path d="M${cx + 170} 768 L${cx + 200} ${cy + 330}" stroke="${stroke}" stroke-width="${line * 2}"/><rect x="${cx + 176}" y="${cy + 250}" width="50" height="90" rx="25" fill="${color}" stroke="${stroke}" stroke-width="${line / 2}"/>`;
    case "ring":
      return `<circle cx="${cx}" cy="${cy - 10}" r="250" fill="none" stroke="${color}" stroke-width="${line * 3}" opacity="0.85"/>`;
    default:
      return "";
  }
}

// ---------------------------------------------------------------------------------------
// The five styles.

function eyesRound(look: Look, iris: string, lash: string, size: number, shine: boolean): string {
  const { cx, cy } = look;
  const x = cx + look.turn * 24;
  const eye = (ex: number) =>
    `<ellipse cx="${ex}" cy="${cy - 10}" rx="${size * 0.95}" ry="${size * 0.62}" fill="#fff"/>` +
    `<circle cx="${ex + look.turn * 6}" cy="${cy - 10}" r="${size * 0.5}" fill="${iris}"/>` +
    `<circle cx="${ex + look.turn * 6}" cy="${cy - 10}" r="${size * 0.24}" fill="#111"/>` +
    (shine ? `<circle cx="${ex + look.turn * 6 - size * 0.18}" cy="${cy - 10 - size * 0.2}" r="${size * 0.12}" fill="#fff"/>` : "") +
    `<path d="M${ex - size} ${cy - 12} Q${ex} ${cy - 10 - size * 1.05} ${ex + size} ${cy - 12}" stroke="${lash}" stroke-width="3" fill="none"/>`;
  return eye(x - 46) + eye(x + 46);
}

function photorealistic(look: Look): string {
  const { cx, cy } = look;
  const r = look.random;
  const bg1 = mix(look.accent, "#ffffff", 0.55);
  const bg2 = mix(look.accent2, "#101018", 0.45);
  // Out-of-focus lights: discs that fade out (gradients, far cheaper to render than a blur).
  let bokeh = "";
  for (let i = 0; i < 14; i++) {
    bokeh += `<circle cx="${(r() * 768).toFixed(0)}" cy="${(r() * 560).toFixed(0)}" r="${(30 + r() * 70).toFixed(0)}" fill="url(#${r() < 0.5 ? "bokehLight" : "bokehAccent"})" opacity="${(0.3 + r() * 0.5).toFixed(2)}"/>`;
  }
  const skinLight = mix(look.skin, "#ffffff", 0.22);
  return `
  <defs>
    <radialGradient id="bg" cx="40%" cy="35%" r="80%"><stop offset="0" stop-color="${bg1}"/><stop offset="1" stop-color="${bg2}"/></radialGradient>
    <radialGradient id="skin" cx="45%" cy="38%" r="70%"><stop offset="0" stop-color="${skinLight}"/><stop offset="0.7" stop-color="${look.skin}"/><stop offset="1" stop-color="${look.skinShade}"/></radialGradient>
    <linearGradient id="hair" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${mix(look.hair, "#ffffff", 0.18)}"/><stop offset="1" stop-color="${mix(look.hair, "#000000", 0.3)}"/></linearGradient>
    <linearGradient id="cloth" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${mix(look.accent2, "#ffffff", 0.2)}"/><stop offset="1" stop-color="${mix(look.accent2, "#000000", 0.35)}"/></linearGradient>
    <radialGradient id="bokehLight"><stop offset="0" stop-color="#fff" stop-opacity="0.9"/><stop offset="0.6" stop-color="#fff" stop-opacity="0.5"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient>
    <radialGradient id="bokehAccent"><stop offset="0" stop-color="${look.accent}" stop-opacity="0.9"/><stop offset="0.6" stop-color="${look.accent}" stop-opacity="0.45"/><stop offset="1" stop-color="${look.accent}" stop-opacity="0"/></radialGradient>
    <radialGradient id="shade"><stop offset="0" stop-color="#000" stop-opacity="0.35"/><stop offset="1" stop-color="#000" stop-opacity="0"/></radialGradient>
    <radialGradient id="blush"><stop offset="0" stop-color="#e88" stop-opacity="0.45"/><stop offset="1" stop-color="#e88" stop-opacity="0"/></radialGradient>
  </defs>
  <rect width="768" height="768" fill="url(#bg)"/>
  ${bokeh}<g opacity="0.5">${motifs(look, "#ffffff", 0.35)}</g>
  ${hairBack(look, "url(#hair)")}
  ${shoulders(look, "url(#cloth)")}
  ${neck(look, look.skinShade)}
  <ellipse cx="${cx}" cy="${cy + 150}" rx="84" ry="26" fill="url(#shade)"/>
  ${headShape(look, "url(#skin)")}
  <ellipse cx="${cx - 62 + look.turn * 20}" cy="${cy + 40}" rx="32" ry="18" fill="url(#blush)"/>
  <ellipse cx="${cx + 62 + look.turn * 20}" cy="${cy + 40}" rx="32" ry="18" fill="url(#blush)"/>
  ${eyesRound(look, mix(look.accent2, "#3a2a1a", 0.5), mix(look.hair, "#000", 0.5), 20, true)}
  <path d="M${cx + look.turn * 26} ${cy} Q${cx - 12 + look.turn * 26} ${cy + 40} ${cx + look.turn * 26} ${cy + 46}" stroke="${look.skinShade}" stroke-width="4" fill="none" opacity="0.6"/>
  ${brows(look, mix(look.hair, "#000", 0.25), 8)}
  ${mouth(look, "#b5535a", 6)}
  ${ageLines(look, look.skinShade)}
  ${hairFront(look, "url(#hair)")}
  ${accessory(look, look.accent, mix(look.accent, "#000", 0.5), 6)}
  <rect width="768" height="768" fill="url(#bg)" opacity="0.08"/>`;
}

function anime(look: Look): string {
  const { cx, cy } = look;
  const r = look.random;
  const ink = 'stroke="#2a1730" stroke-width="6" stroke-linejoin="round"';
  const bg = mix(look.accent, "#ffffff", 0.72);
  let lines = "";
  for (let i = 0; i < 28; i++) {
    const a = (i / 28) * Math.PI * 2 + r() * 0.1;
    const x1 = cx + Math.cos(a) * 280;
    const y1 = cy + Math.sin(a) * 280;
    const x2 = cx + Math.cos(a) * 560;
    const y2 = cy + Math.sin(a) * 560;
    lines += `<path d="M${x1.toFixed(0)} ${y1.toFixed(0)}L${x2.toFixed(0)} ${y2.toFixed(0)}" stroke="${mix(look.accent, "#ffffff", 0.4)}" stroke-width="${(3 + r() * 8).toFixed(1)}"/>`;
  }
  let sparkles = "";
  for (let i = 0; i < 8; i++) {
    const x = 60 + r() * 648;
    const y = 40 + r() * 300;
    const s = 10 + r() * 16;
    sparkles += `<path d="M${x.toFixed(0)} ${(y - s).toFixed(0)} Q${x.toFixed(0)} ${y.toFixed(0)} ${(x + s).toFixed(0)} ${y.toFixed(0)} Q${x.toFixed(0)} ${y.toFixed(0)} ${x.toFixed(0)} ${(y + s).toFixed(0)} Q${x.toFixed(0)} ${y.toFixed(0)} ${(x - s).toFixed(0)} ${y.toFixed(0)} Q${x.toFixed(0)} ${y.toFixed(0)} ${x.toFixed(0)} ${(y - s).toFixed(0)}Z" fill="#fff"/>`;
  }
  const shadow = look.skinShade;
  const eye = (ex: number) => {
    const x = ex + look.turn * 8;
    return (
      `<path d="M${x - 34} ${cy - 20} Q${x} ${cy - 52} ${x + 34} ${cy - 20} L${x + 30} ${cy + 32} Q${x} ${cy + 44} ${x - 30} ${cy + 32} Z" fill="#fff" stroke="#2a1730" stroke-width="4"/>` +
      `<ellipse cx="${x}" cy="${cy + 6}" rx="24" ry="34" fill="${look.accent2}"/>` +
      `<ellipse cx="${x}" cy="${cy + 14}" rx="24" ry="22" fill="${mix(look.accent2, "#000", 0.4)}"/>` +
      `<ellipse cx="${x}" cy="${cy + 8}" rx="11" ry="16" fill="#160a18"/>` +
      `<ellipse cx="${x - 9}" cy="${cy - 8}" rx="9" ry="12" fill="#fff"/><circle cx="${x + 10}" cy="${cy + 22}" r="5" fill="#fff"/>` +
      `<path d="M${x - 40} ${cy - 18} Q${x} ${cy - 60} ${x + 40} ${cy - 22}" stroke="#2a1730" stroke-width="9" fill="none" stroke-linecap="round"/>`
    );
  };
  const x = cx + look.turn * 24;
  return `
  <rect width="768" height="768" fill="${bg}"/>
  <g>${lines}</g>${sparkles}
  ${motifs(look, mix(look.accent, "#2a1730", 0.2), 0.55, 5)}
  ${hairBack(look, look.hair, ink)}
  ${shoulders(look, look.accent2, ink)}
  <path d="M${cx - 300} 768 C${cx - 290} ${cy + 250} ${cx - 190} ${cy + 205} ${cx - 70} ${cy + 190} L${cx - 40} ${cy + 230} C${cx - 150} ${cy + 260} ${cx - 230} ${cy + 330} ${cx - 240} 768 Z" fill="${mix(look.accent2, "#000", 0.35)}"/>
  ${neck(look, look.skin, ink)}
  <path d="M${cx - 46} ${cy + 120} L${cx + 46} ${cy + 120} L${cx + 46} ${cy + 150} Q${cx} ${cy + 175} ${cx - 46} ${cy + 150} Z" fill="${shadow}"/>
  ${headShape(look, look.skin, ink)}
  <path d="M${cx + 40} ${cy - HEAD.ry + 20} C${cx + 100} ${cy - 80} ${cx + 112} ${cy + 30} ${cx + 60} ${cy + HEAD.ry - 12} C${cx + 95} ${cy + 60} ${cx + 100} ${cy - 40} ${cx + 40} ${cy - HEAD.ry + 20} Z" fill="${shadow}" opacity="0.55"/>
  ${eye(cx - 50)}${eye(cx + 50)}
  <path d="M${x - 4} ${cy + 48} l6 8" stroke="#2a1730" stroke-width="3" stroke-linecap="round"/>
  <ellipse cx="${x - 70}" cy="${cy + 56}" rx="20" ry="8" fill="#ff8fa3" opacity="0.7"/><ellipse cx="${x + 70}" cy="${cy + 56}" rx="20" ry="8" fill="#ff8fa3" opacity="0.7"/>
  ${mouth(look, "#2a1730", 5)}
  ${look.older ? ageLines(look, "#2a1730") : ""}
  ${hairFront(look, look.hair, ink, true)}
  <path d="M${cx - 70} ${cy - 150} q30 -14 60 -4" stroke="#fff" stroke-width="8" fill="none" opacity="0.7" stroke-linecap="round"/>
  ${accessory(look, look.accent, "#2a1730", 6)}`;
}

function digitalArt(look: Look): string {
  const { cx, cy } = look;
  const r = look.random;
  const dark = mix(look.accent2, "#07061a", 0.8);
  // A jittered triangle mesh, each facet a shade between the two accents.
  let mesh = "";
  const step = 96;
  const pts: [number, number][][] = [];
  for (let j = 0; j <= 8; j++) {
    const row: [number, number][] = [];
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
      mesh += `<path d="M${a[0].toFixed(0)} ${a[1].toFixed(0)}L${b[0].toFixed(0)} ${b[1].toFixed(0)}L${d[0].toFixed(0)} ${d[1].toFixed(0)}Z" fill="${mix(dark, look.accent2, Math.min(1, t1 * 0.7))}"/>`;
      mesh += `<path d="M${a[0].toFixed(0)} ${a[1].toFixed(0)}L${d[0].toFixed(0)} ${d[1].toFixed(0)}L${c[0].toFixed(0)} ${c[1].toFixed(0)}Z" fill="${mix(dark, look.accent, Math.min(1, t1 * 0.5))}"/>`;
    }
  }
  // The face as facets: a polygon ring around the centre, lit from the upper left.
  const ring = 12;
  let face = "";
  for (let k = 0; k < ring; k++) {
    const a1 = (k / ring) * Math.PI * 2;
    const a2 = ((k + 1) / ring) * Math.PI * 2;
    const p1 = [cx + Math.cos(a1) * HEAD.rx, cy + Math.sin(a1) * HEAD.ry * (Math.sin(a1) > 0 ? 1 : 0.98)];
    const p2 = [cx + Math.cos(a2) * HEAD.rx, cy + Math.sin(a2) * HEAD.ry * (Math.sin(a2) > 0 ? 1 : 0.98)];
    const light = 0.5 + 0.5 * Math.cos(a1 + 2.4);
    face += `<path d="M${cx + look.turn * 20} ${cy + 10}L${p1[0]!.toFixed(1)} ${p1[1]!.toFixed(1)}L${p2[0]!.toFixed(1)} ${p2[1]!.toFixed(1)}Z" fill="${mix(look.skinShade, mix(look.skin, "#ffffff", 0.25), light)}"/>`;
  }
  const glow = look.accent;
  return `
  <g>${mesh}</g>
  <g>${motifs(look, glow, 0.8, 6)}</g>
  ${hairBack(look, mix(look.hair, look.accent2, 0.3))}
  <g>${shoulders(look, mix(look.accent2, "#000", 0.35))}
  <path d="M${cx - 300} 768 L${cx - 70} ${cy + 190} L${cx} ${cy + 330} Z" fill="${mix(look.accent2, "#fff", 0.15)}" opacity="0.6"/>
  <path d="M${cx + 300} 768 L${cx + 70} ${cy + 190} L${cx} ${cy + 330} Z" fill="${mix(look.accent2, "#000", 0.5)}" opacity="0.6"/></g>
  <path d="M${cx - 46} ${cy + 110} L${cx - 50} ${cy + 205} L${cx} ${cy + 236} L${cx + 50} ${cy + 205} L${cx + 46} ${cy + 110} Z" fill="${look.skinShade}"/>
  ${face}
  <g fill="none" stroke="${glow}" stroke-width="16" stroke-opacity="0.18">${headShape(look, "none")}${shoulders(look, "none")}</g>
  <g fill="none" stroke="${glow}" stroke-width="9" stroke-opacity="0.3">${headShape(look, "none")}${shoulders(look, "none")}</g>
  <g fill="none" stroke="${glow}" stroke-width="4">${headShape(look, "none")}${shoulders(look, "none")}</g>
  <g>${eyesRound(look, glow, "#0b0a1e", 19, true)}</g>
  <path d="M${cx + look.turn * 26 - 10} ${cy + 42} L${cx + look.turn * 26} ${cy + 4} L${cx + look.turn * 26 + 10} ${cy + 42} Z" fill="${look.skinShade}"/>
  ${brows(look, "#0b0a1e", 7)}
  ${mouth(look, mix("#b5535a", glow, 0.3), 5)}
  ${ageLines(look, "#0b0a1e")}
  ${hairFront(look, mix(look.hair, look.accent2, 0.3))}
  ${hairFront(look, "none", `stroke="${glow}" stroke-width="10" stroke-opacity="0.25"`)}
  ${hairFront(look, "none", `stroke="${glow}" stroke-width="3"`)}
  ${accessory(look, glow, "#0b0a1e", 5)}`;
}

/** Film grain: a tile of seeded specks, light and dark. */
function grain(r: Random): string {
  let out = "";
  for (let i = 0; i < 90; i++) {
    const light = r() < 0.5;
    out += `<rect x="${Math.floor(r() * 64)}" y="${Math.floor(r() * 64)}" width="1.5" height="1.5" fill="${light ? "#fff" : "#000"}" opacity="${(0.08 + r() * 0.14).toFixed(2)}"/>`;
  }
  return out;
}

function cinematic(look: Look): string {
  const { cx, cy } = look;
  const r = look.random;
  const teal = "#0f3b47";
  const orange = "#f0a35e";
  const y = 120 + r() * 120;
  const streak = `<ellipse cx="${(560 + r() * 140).toFixed(0)}" cy="${y.toFixed(0)}" rx="260" ry="5" fill="#ffd9a8" opacity="0.55"/><circle cx="${(600 + r() * 60).toFixed(0)}" cy="${y.toFixed(0)}" r="26" fill="#ffe2b8" opacity="0.5"/>`;
  return `
  <defs>
    <linearGradient id="sky" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#0a1f2a"/><stop offset="0.6" stop-color="${teal}"/><stop offset="1" stop-color="#1c5963"/></linearGradient>
    <linearGradient id="key" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="${orange}" stop-opacity="0.55"/><stop offset="0.5" stop-color="${orange}" stop-opacity="0.1"/><stop offset="0.56" stop-color="#021016" stop-opacity="0.55"/><stop offset="1" stop-color="#021016" stop-opacity="0.8"/></linearGradient>
    <radialGradient id="vignette" cx="50%" cy="45%" r="70%"><stop offset="0.55" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="0.85"/></radialGradient>
    <pattern id="grain" width="64" height="64" patternUnits="userSpaceOnUse">${grain(r)}</pattern>
    <linearGradient id="ground" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#04141a" stop-opacity="0"/><stop offset="0.3" stop-color="#04141a" stop-opacity="0.6"/><stop offset="1" stop-color="#04141a" stop-opacity="0.7"/></linearGradient>
  </defs>
  <rect width="768" height="768" fill="url(#sky)"/>
  <g opacity="0.3">${motifs(look, "#7fb3b8", 0.5, 5)}</g><rect x="0" y="470" width="768" height="298" fill="url(#ground)"/>
  ${streak}
  ${hairBack(look, mix(look.hair, "#000", 0.35))}
  ${shoulders(look, "#1b1f24")}
  <path d="M${cx - 300} 768 C${cx - 290} ${cy + 250} ${cx - 190} ${cy + 205} ${cx - 70} ${cy + 190} L${cx - 60} 768 Z" fill="${orange}" opacity="0.25"/>
  ${neck(look, look.skinShade)}
  ${headShape(look, mix(look.skin, orange, 0.18))}
  ${eyesRound(look, "#3b2a1a", "#120c08", 17, false)}
  ${brows(look, mix(look.hair, "#000", 0.5), 8)}
  ${mouth(look, "#6e2f2f", 5)}
  ${ageLines(look, "#3b2418")}
  ${hairFront(look, mix(look.hair, "#000", 0.25))}
  ${accessory(look, mix(look.accent, "#1b1f24", 0.4), "#0b0b0b", 6)}
  <g>${headShape(look, "url(#key)")}</g>
  <path d="M${cx - HEAD.rx} ${cy - 60} Q${cx - HEAD.rx - 10} ${cy + 40} ${cx - 70} ${cy + 130}" stroke="${orange}" stroke-width="5" fill="none" opacity="0.8"/>
  <rect width="768" height="768" fill="url(#vignette)"/>
  <rect width="768" height="768" fill="url(#grain)"/>
`;
}

function minimalist(look: Look): string {
  const { cx, cy } = look;
  const ground = mix(look.accent, "#ffffff", 0.9);
  const ink = 'stroke="#1f2430" stroke-width="3.5" stroke-linecap="round" stroke-linejoin="round"';
  const line = `${ink} fill="none"`;
  const x = cx + look.turn * 22;
  const eye = (ex: number) =>
    look.expression === "smile"
      ? `<path d="M${ex - 14} ${cy - 4} Q${ex} ${cy - 18} ${ex + 14} ${cy - 4}" ${line}/>`
      : `<circle cx="${ex}" cy="${cy - 8}" r="6" fill="#1f2430"/>`;
  const icon = look.interests[0] ?? "art";
  return `
  <rect width="768" height="768" fill="${ground}"/>
  <circle cx="${cx + 120}" cy="${cy - 60}" r="210" fill="${look.accent}" opacity="0.85"/>
  <g transform="translate(${cx - 250} ${cy + 300}) scale(1.6)" fill="#1f2430" color="#1f2430" opacity="0.9">${MOTIFS[icon] ?? MOTIFS.art}</g>
  ${hairBack(look, "none", ink)}
  ${shoulders(look, ground, ink)}
  ${neck(look, ground, ink)}
  ${headShape(look, ground, ink)}
  ${eye(x - 44)}${eye(x + 44)}
  <path d="M${x} ${cy + 10} L${x - 8} ${cy + 40} L${x + 4} ${cy + 42}" ${line}/>
  ${mouth(look, "#1f2430", 3.5).replace(/fill="#1f2430"/, 'fill="none"')}
  ${hairFront(look, look.hairStyle === "short" ? look.accent2 : "none", ink)}
  ${look.older ? ageLines(look, "#1f2430") : ""}
  ${accessory(look, "none", "#1f2430", 3.5)}`;
}

const STYLES: Record<ImageStyle, (look: Look) => string> = {
  photorealistic,
  anime,
  digital_art: digitalArt,
  cinematic,
  minimalist,
};

/** The portrait as an SVG document, PORTRAIT_SIZE square. */
export function portraitSvg(persona: PortraitPersona, style: ImageStyle, slot: ImageSlot): string {
  const look = lookOf(persona, slot);
  const body = STYLES[style](look);
  // The secondary image is a closer crop of a turned pose.
  const frame = look.scale === 1 ? "" : ` transform="translate(${384 - 384 * look.scale} ${300 - 300 * look.scale}) scale(${look.scale})"`;
  // Cinematic letterbox bars frame the whole picture, whatever the crop.
  const bars =
    style === "cinematic" ? '<rect width="768" height="92" fill="#000"/><rect y="676" width="768" height="92" fill="#000"/>' : "";
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${PORTRAIT_SIZE}" height="${PORTRAIT_SIZE}" viewBox="0 0 ${PORTRAIT_SIZE} ${PORTRAIT_SIZE}"><g${frame}>${body}</g>${bars}</svg>`;
}
