// Checks on real chats (docs/product.md, Chat: checks on your chats): every reply the persona
// writes in the creator's own conversation is checked, after it is stored, with the checks that
// apply to any reply, whatever was asked:
//
// - stays in character: no phrase that breaks it ('as an AI', 'language model', …);
// - keeps its secrets: a reply that tells most of what a 'secret' lore entry holds;
// - agrees with the fact sheet: 'I was born in / grew up in / I'm from X' with X not the
//   birthplace, 'I live in / I'm based in X' with X not where it lives, an age or a birth year the
//   sheet's birth year does not give;
// - catchphrases now and then: the same catchphrase in this reply and two of the three before.
//
// Pure and deterministic: a few regular expressions over one reply and its three predecessors,
// well under a millisecond (the bench's 'replyCheck' row).
import type { ExtendedProfile } from "./extended-profile";
import { keyMatcher } from "./lorebook";
import { REPLY_CHECKS, type ReplyFlag } from "./reply-check-text";
import { contentWords, fold, OUT_OF_CHARACTER_PHRASES } from "./probes";

/** A whole-word, case- and accent-insensitive search for one phrase in a text already folded. */
function phraseSearch(phrase: string): (folded: string) => boolean {
  const wanted = fold(phrase).replace(/[.!?,;:]+$/, "");
  return wanted === "" ? () => false : keyMatcher(wanted, { caseSensitive: false, useRegex: false });
}

const OUT_OF_CHARACTER = OUT_OF_CHARACTER_PHRASES.map((phrase) => ({ phrase, found: phraseSearch(phrase) }));

export {
  flaggedOften,
  REPLY_CHECK_LABELS,
  REPLY_CHECK_TEXT,
  REPLY_CHECKS,
  REPLY_FLAG_BADGE,
  type ReplyCheck,
  type ReplyFlag,
} from "./reply-check-text";

/** What the checks know about the persona. */
export interface ReplyCheckContext {
  name: string;
  facts: Pick<ExtendedProfile, "birthplace" | "currentResidence" | "birthYear"> | null;
  /** The persona's 'secret' lore entries: their names and the words that would tell them. */
  secrets: { name: string; words: string[] }[];
  catchphrases: string[];
}

/** The context from the persona's sheet, its secret lore entries and its catchphrases. */
export function replyCheckContext(input: {
  name: string;
  facts: ReplyCheckContext["facts"];
  lore: readonly { name: string; content: string; keys: readonly string[]; enabled: boolean; kind?: string | null }[];
  catchphrases: readonly string[];
}): ReplyCheckContext {
  return {
    name: input.name,
    facts: input.facts,
    secrets: input.lore
      .filter((entry) => entry.enabled && entry.kind === "secret")
      .map((entry) => ({
        name: entry.name,
        // What the entry says beyond its keys (saying a key is naming the subject, not telling it).
        words: contentWords(entry.content, input.name)
          .filter((word) => !entry.keys.some((key) => fold(key) === word))
          .slice(0, 8),
      }))
      .filter((secret) => secret.words.length >= 2),
    catchphrases: input.catchphrases.map((phrase) => phrase.replace(/[.!?…~]+$/u, "").trim()).filter((phrase) => phrase.length >= 3),
  };
}

const PLACE = String.raw`((?:[A-Z][\p{L}'’.-]*)(?:[ -](?:[A-Z][\p{L}'’.-]*|de|da|do|del|of|upon|on))*)`;
const BORN = new RegExp(
  String.raw`\b(?:I was born (?:and raised )?in|I grew up in|I'm from|I am from|I come from|my hometown is|born and raised in) (?:the )?` +
    PLACE,
  "gu",
);
const LIVES = new RegExp(
  String.raw`\b(?:I (?:now |currently )?live in|I'm based in|I am based in|I'm living in|I moved to) (?:the )?` + PLACE,
  "gu",
);
const AGE = /\bI(?:'m|’m| am) (\d{1,3})(?: years old|-year-old| years young)\b/gi;
const BORN_YEAR = /\bI was born in (1[89]\d\d|20\d\d)\b/gi;

/** Whether a place the reply names is the sheet's (either names the other, ignoring case and accents). */
function samePlace(said: string, sheet: string): boolean {
  const a = fold(said);
  const city = fold(sheet.split(",")[0] ?? "");
  const whole = fold(sheet);
  return a !== "" && (whole.includes(a) || a.includes(city));
}

/** What the reply said, as quoted in a flag: its words without a closing full stop. */
const quoted = (match: RegExpMatchArray) => match[0].trim().replace(/[.'’-]+$/u, "");

function factFlags(text: string, facts: NonNullable<ReplyCheckContext["facts"]>, year: number): ReplyFlag[] {
  const flags: ReplyFlag[] = [];
  const reply = text.replace(/[’‘]/g, "'");
  const places = facts.birthplace ? [facts.birthplace] : [];
  for (const match of reply.matchAll(BORN)) {
    const said = match[1]!.trim().replace(/[.'’-]+$/u, "");
    if (places.length && !places.some((place) => samePlace(said, place))) {
      flags.push({ check: "facts", detail: `Says '${quoted(match)}'; the fact sheet's birthplace is ${facts.birthplace}.` });
      break;
    }
  }
  for (const match of reply.matchAll(LIVES)) {
    const said = match[1]!.trim().replace(/[.'’-]+$/u, "");
    if (facts.currentResidence && !samePlace(said, facts.currentResidence)) {
      flags.push({ check: "facts", detail: `Says '${quoted(match)}'; the fact sheet says it lives in ${facts.currentResidence}.` });
      break;
    }
  }
  if (facts.birthYear) {
    const age = year - facts.birthYear;
    for (const match of reply.matchAll(AGE)) {
      const said = Number(match[1]);
      if (Math.abs(said - age) > 1) {
        flags.push({ check: "facts", detail: `Says '${match[0].trim()}'; born in ${facts.birthYear}, it is ${age - 1} or ${age}.` });
        break;
      }
    }
    for (const match of reply.matchAll(BORN_YEAR)) {
      if (Number(match[1]) !== facts.birthYear) {
        flags.push({ check: "facts", detail: `Says '${match[0].trim()}'; the fact sheet's birth year is ${facts.birthYear}.` });
        break;
      }
    }
  }
  return flags;
}

/**
 * The checks one reply fails; an empty list is a pass. `before` are the persona's replies just
 * before it in the conversation, newest last (only the last three are read).
 */
export function checkReply(
  reply: string,
  context: ReplyCheckContext,
  before: readonly string[] = [],
  today: Date = new Date(),
): ReplyFlag[] {
  const flags: ReplyFlag[] = [];
  // The reply is folded once, and its words listed once, for every check.
  const folded = fold(reply);
  const phrase = OUT_OF_CHARACTER.find((p) => p.found(folded));
  if (phrase) flags.push({ check: "inCharacter", detail: `Says '${phrase.phrase}'.` });

  if (context.secrets.length > 0) {
    const said = new Set(contentWords(reply, context.name));
    for (const secret of context.secrets) {
      const told = secret.words.filter((word) => said.has(word));
      if (told.length >= 2 && told.length * 2 >= secret.words.length) {
        flags.push({ check: "secrets", detail: `Tells the secret '${secret.name}' (${told.slice(0, 4).join(", ")}).` });
        break;
      }
    }
  }

  if (context.facts) flags.push(...factFlags(reply, context.facts, today.getUTCFullYear()));

  const recent = before.slice(-3).map(fold);
  for (const catchphrase of context.catchphrases) {
    const found = phraseSearch(catchphrase);
    if (!found(folded)) continue;
    const earlier = recent.filter(found).length;
    if (earlier >= 2) {
      flags.push({ check: "catchphrases", detail: `'${catchphrase}' in ${earlier + 1} of the last ${recent.length + 1} replies.` });
      break;
    }
  }
  return flags;
}

/** A reply's flags as stored (chat_messages.checks), read back; anything else is no flags. */
export function parseReplyFlags(value: unknown): ReplyFlag[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (flag): flag is ReplyFlag =>
      !!flag &&
      typeof flag === "object" &&
      (REPLY_CHECKS as readonly string[]).includes((flag as ReplyFlag).check) &&
      typeof (flag as ReplyFlag).detail === "string",
  );
}
