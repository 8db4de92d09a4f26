// The work one request may do on the main thread, run by tests/bench/bench.mjs (the "extra" group):
//
//   node_modules/.bin/tsx tests/bench/main-thread-embedded.ts --out <file.json> [--count 30] [--warmup 5]
//       [--max-seconds 60] [--ops loreMatch,loreMatchPlain,loreMatchOffThread,compile,cardCheck,cardCheckOffThread]
//
// Times, in this process, the three longest synchronous stretches a request makes, each at the
// largest input the product allows (docs/decisions/039-work-on-the-main-thread-has-a-ceiling.md):
//   - loreMatch: matchLore() (app/domain/lorebook.ts) of a 4,000-character chat message against
//     200 entries, each with 20 keys and 20 secondary keys of 100 characters, half of them
//     patterns ('Keys are patterns'), the message full of near-matches so that every key is tried;
//     the last key of each list matches, so every entry is a hit and the budget is filled.
//     loreMatchPlain: the same with every key plain, to tell the pattern engine's share apart.
//     loreMatchOffThread: the same match as a chat reply makes it, through matchLoreOffThread()
//     (app/infra/compute/lore-match.server.ts, the thread built by `npm run build`), the lorebook
//     sent to the thread every time (as when the persona was read again): the longest stretch this
//     thread was held meanwhile, read as the longest gap between ticks of a 1 ms timer.
//   - compile: compileLore() (app/domain/lore-compile.ts) of a 20,000-character backstory dense
//     with names, relations, years, events and secrets, a full fact sheet, and 200 existing
//     compiled entries at the largest size (the stale check reads each).
//   - cardCheck: what importing a card does before it stores anything: parseJsonWithinLimits()
//     of the card's text, parseCard() (app/domain/character-card.ts), whose lorebook is read
//     by lorebookFromCard() (app/domain/card-lorebook.ts), and the card check of the file,
//     checkCard() (app/domain/card-check.ts): 200 entries of 20 keys and 20
//     secondary keys of 100 characters, all patterns, 2,000 characters of content, a 100-character
//     name and a 500-character comment.
//     cardCheckOffThread: the same card's file as an import reads it, through readCardOffThread()
//     (app/infra/compute/card-read.server.ts, the thread built by `npm run build`): the longest
//     stretch this thread was held meanwhile (the card coming back included).
//   - chatImport: readChatJsonl() (app/domain/chat-transfer.ts) of the largest SillyTavern chat an
//     import takes: 2,000 messages filling its 5 MB, each with three swipes to choose from.
//   - replyCheck: checkReply() (app/domain/reply-checks.ts), the checks a chat reply gets after it
//     is stored: the longest reply (8,000 characters) full of first-person claims, against 200
//     secret lore entries, 5 catchphrases and the 3 longest replies before it (its own budget, 5 ms).
// Each operation runs `warmup` times uncounted, then `count` times, each on a new message, backstory
// or card (a new seed), so no answer is kept from one run to the next; an operation stops early,
// after one timed run at least, once it has taken --max-seconds. Writes JSON to --out.
import fs from "node:fs";
import { performance } from "node:perf_hooks";

import { checkCard } from "~/domain/card-check";
import { CHAT_IMPORT_LIMITS, readChatJsonl } from "~/domain/chat-transfer";
import { parseCard } from "~/domain/character-card";
import { parseJsonWithinLimits } from "~/domain/json-limits";
import { compileLore, COMPILED_COMMENT, type LoreFacts } from "~/domain/lore-compile";
import { LORE_LIMITS, matchLore, type LoreBook, type LoreEntry } from "~/domain/lorebook";
import { closeCardReadThread, readCardOffThread } from "~/infra/compute/card-read.server";
import { closeLoreThread, matchLoreOffThread } from "~/infra/compute/lore-match.server";
import { PERSONA_LIMITS } from "~/domain/persona";
import { checkReply, replyCheckContext } from "~/domain/reply-checks";
import { CHAT_REPLY_MAX_CHARS } from "~/infra/ai/types";
import { mulberry32 } from "~/domain/random";

function arg(name: string, fallback?: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

const out = arg("out");
if (!out) throw new Error("--out <file.json> is required");
const count = Number(arg("count", "30"));
const warmup = Number(arg("warmup", "5"));
/** Which operations to time (all by default): a quick look at one of them. */
const ops = new Set(
  (arg("ops") ?? "loreMatch,loreMatchPlain,loreMatchOffThread,compile,cardCheck,cardCheckOffThread,chatImport,replyCheck").split(","),
);
const maxSeconds = Number(arg("max-seconds", "60"));

const MESSAGE_CHARS = PERSONA_LIMITS.chatMessageMax;
const BACKSTORY_CHARS = PERSONA_LIMITS.backstoryMax;
const ENTRIES = LORE_LIMITS.entries;
const KEYS = LORE_LIMITS.keysMax;
const KEY_CHARS = LORE_LIMITS.keyMax;

const WORDS = ["lantern", "choir", "harbor", "ember", "kestrel", "northgate", "heron", "studio", "guild", "theatre", "valley", "mina"];
const NAMES = ["Mina", "Tomas", "Aiko", "Rafael", "Ines", "Oskar", "Priya", "Jun", "Selma", "Bruno", "Dana Reyes", "Omar Haddad"];
const PLACES = ["Busan", "Valparaíso", "Tromsø", "Port Elyn", "Kraków", "Hobart", "Ghent", "Oaxaca", "Mount Hood", "Lake Bled"];
const GROUPS = ["Lantern Choir", "Northgate Theatre Club", "Blue Heron Studio", "Kestrel Guild", "Harbor Lights Band", "Ember Academy"];

/** Exactly `n` characters of `text` repeated. */
const fill = (text: string, n: number) => text.repeat(Math.ceil(n / text.length)).slice(0, n);

/**
 * A pattern key of at most 100 characters that the engine runs over the whole text without
 * finding it: alternations and counted repeats make the most states for RE2's machine, and
 * each starts with words the text is full of. `hit` makes one that does match (the list's last).
 */
function patternKey(entry: number, key: number, hit: boolean): string {
  const a = WORDS[(entry + key) % WORDS.length]!;
  const b = WORDS[(entry + 3 * key + 1) % WORDS.length]!;
  const end = hit ? `(?:${b})` : `q${entry}x${key}z`;
  const shapes = [
    `\\b(?:${a}|${b}|${a}s|${b}s)[\\p{L}'-]{0,12}\\s+(?:\\w+\\s+){0,6}${end}`,
    `(?:${a}|${b})(?:[\\s,.;:!?-]+[\\p{L}]{1,20}){1,8}\\s*${end}`,
    `\\b${a}\\W+(?:of|the|and|a|in|on)?\\W*${b}[a-z]{0,30}${end}`,
  ];
  const source = shapes[(entry + key) % shapes.length]!;
  return source.length <= KEY_CHARS ? source : `${a}[\\p{L}]{0,20}${end}`.slice(0, KEY_CHARS);
}

/** A plain key of exactly 100 characters whose first 99 the text holds over and over; `hit` is one it holds whole. */
function plainKey(entry: number, key: number, hit: boolean): string {
  const words = fill(`${WORDS[(entry + key) % WORDS.length]} ${WORDS[(entry + 2 * key + 1) % WORDS.length]} `, KEY_CHARS - 1).trimEnd();
  return hit ? `${WORDS[entry % WORDS.length]}` : `${fill(words, KEY_CHARS - 1)}${String.fromCharCode(0x61 + ((entry + key) % 26))}`;
}

/** An entry's 20 keys and 20 secondary keys as plain keys of 100 characters, the last of each list a hit. */
function plainKeys(e: number): Pick<LoreEntry, "keys" | "secondary_keys"> {
  const keys = (offset: number) => Array.from({ length: KEYS }, (_, k) => plainKey(e, k + offset, k === KEYS - 1));
  return { keys: keys(0), secondary_keys: keys(KEYS) };
}

/** A lorebook of 200 entries at their largest: 20 keys and 20 secondary keys of 100 characters, half of the entries patterns. */
function heaviestBook(): LoreBook {
  const entries: LoreEntry[] = Array.from({ length: ENTRIES }, (_, e) => {
    const regex = e % 2 === 0;
    const keys = (offset: number) =>
      Array.from({ length: KEYS }, (_, k) => {
        const hit = k === KEYS - 1;
        return regex ? patternKey(e, k + offset, hit) : plainKey(e, k + offset, hit);
      });
    return {
      id: `entry-${e}`,
      name: fill(`Entry ${e} `, LORE_LIMITS.nameMax),
      keys: keys(0),
      secondary_keys: keys(KEYS),
      selective: true,
      content: fill(`What the persona knows about subject ${e}. `, LORE_LIMITS.contentMax),
      enabled: true,
      constant: false,
      insertion_order: e,
      case_sensitive: false,
      comment: "",
      use_regex: regex,
      kind: null,
      extensions: {},
      card: {},
    };
  });
  return { entries, book: {} };
}

/** A chat message of exactly 4,000 characters made of the keys' words: near-matches everywhere. */
function nearMatchMessage(seed: number, chars = MESSAGE_CHARS): string {
  const random = mulberry32(seed);
  const parts: string[] = [];
  let size = 0;
  while (size < chars) {
    const a = WORDS[Math.floor(random() * WORDS.length)]!;
    const b = WORDS[Math.floor(random() * WORDS.length)]!;
    const part = [`${a} ${b} ${a} ${b}`, `${a}s, the ${b}`, `${a}-${b}.`, `${a} of the ${b}`][Math.floor(random() * 4)]!;
    parts.push(part);
    size += part.length + 1;
  }
  return parts.join(" ").slice(0, chars);
}

// ---------------------------------------------------------------------------------------------
// The compile
// ---------------------------------------------------------------------------------------------

const FACTS: LoreFacts = {
  birthplace: "Busan, South Korea",
  currentResidence: "Valparaíso, Chile",
  occupation: "Lighting designer for the Northgate Theatre Club",
  education: "Degree in Stage Design from the Ember Academy of Arts",
  socialCircle: { family: "Her parents, an older brother Tomas, a younger sister Mina, two cousins and her grandmother Selma" },
  secretSkills: ["Lock picking", "Reading lips", "Forging signatures", "Whistling any tune after one hearing"],
  birthYear: 1994,
};

/** A 20,000-character backstory: every sentence names people, places, groups, relations, a year, an event or a secret. */
function densestBackstory(seed: number): string {
  const random = mulberry32(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const sentences = [
    () =>
      `In ${1990 + Math.floor(random() * 35)}, she moved to ${pick(PLACES)} with her ${pick(["older brother", "younger sister", "best friend", "mentor"])} ${pick(NAMES)}.`,
    () => `Her cousin ${pick(NAMES)} joined the ${pick(GROUPS)} the day she won the ${pick(["award", "prize", "scholarship", "cup"])}.`,
    () => `No one knows that ${pick(NAMES)} still hides a letter from ${pick(NAMES)} in ${pick(PLACES)}.`,
    () =>
      `After the ${pick(["accident", "storm", "divorce", "fire"])} in ${pick(PLACES)}, ${pick(NAMES)} and the ${pick(GROUPS)} took her in.`,
    () => `She met ${pick(NAMES)} at the ${pick(GROUPS)} near ${pick(PLACES)}, and her grandmother ${pick(NAMES)} approved.`,
    () => `${pick(NAMES)} taught her to sing on ${pick(PLACES)} Street during the hardest winter.`,
  ];
  let text = "";
  let paragraph = 0;
  while (text.length < BACKSTORY_CHARS) {
    text += `${pick(sentences)()}${++paragraph % 6 === 0 ? "\n\n" : " "}`;
  }
  return text.slice(0, BACKSTORY_CHARS);
}

/** 200 existing entries a compile made before, at the largest size: the stale check reads each. */
function compiledEntries(backstory: string): LoreEntry[] {
  const sentences = backstory.split(/(?<=\.)\s+/);
  return Array.from({ length: ENTRIES }, (_, e) => ({
    id: `compiled-${e}`,
    name: `Subject ${e}`,
    keys: Array.from({ length: KEYS }, (_, k) => fill(`${NAMES[(e + k) % NAMES.length]} of ${e}-${k} `, KEY_CHARS).trim()),
    secondary_keys: [],
    selective: false,
    content: fill(sentences.slice(e % 50, (e % 50) + 30).join(" ") + " ", LORE_LIMITS.contentMax).trim(),
    enabled: true,
    constant: false,
    insertion_order: 100,
    case_sensitive: false,
    comment: COMPILED_COMMENT,
    use_regex: false,
    kind: "person",
    extensions: {},
    card: {},
  }));
}

// ---------------------------------------------------------------------------------------------
// The card check
// ---------------------------------------------------------------------------------------------

/** A V2 card's text whose character_book holds 200 entries at the largest size, every key a pattern. */
function heaviestCard(seed: number): string {
  const entries = Array.from({ length: ENTRIES }, (_, e) => ({
    keys: Array.from({ length: KEYS }, (_, k) => patternKey(e + seed, k, false)),
    secondary_keys: Array.from({ length: KEYS }, (_, k) => patternKey(e + seed, k + KEYS, false)),
    content: fill(`Entry ${e} of card ${seed}: what the character knows, told at length. `, LORE_LIMITS.contentMax),
    extensions: { depth: 4, weight: 10 },
    enabled: true,
    insertion_order: e,
    case_sensitive: false,
    name: fill(`Entry ${e} `, LORE_LIMITS.nameMax),
    comment: fill(`A note on entry ${e}. `, LORE_LIMITS.commentMax),
    selective: true,
    constant: false,
    use_regex: true,
    id: e,
    priority: 10,
    position: "before_char",
  }));
  return JSON.stringify({
    spec: "chara_card_v2",
    spec_version: "2.0",
    data: {
      name: `Card ${seed}`,
      description: "A lighting designer who grew up in Busan.",
      personality: "Curious, patient, stubborn.",
      scenario: "",
      first_mes: "Hello.",
      mes_example: "",
      creator_notes: "",
      system_prompt: "",
      post_history_instructions: "",
      alternate_greetings: [],
      tags: [],
      creator: "",
      character_version: "",
      extensions: {},
      character_book: { name: "Book", extensions: {}, entries },
    },
  });
}

// ---------------------------------------------------------------------------------------------
// Timing
// ---------------------------------------------------------------------------------------------

/**
 * `count` timed runs after `warmup` untimed ones, stopping early (after at least one timed run)
 * once the operation has taken `--max-seconds`: an operation far over its ceiling is reported
 * from the runs it had time for, rather than holding the bench for hours.
 */
function time(op: string, make: (seed: number) => () => unknown): number[] {
  if (!ops.has(op)) return [];
  const deadline = performance.now() + maxSeconds * 1000;
  for (let i = 0; i < warmup && performance.now() < deadline; i++) make(1_000_000 + i)();
  const timingsMs: number[] = [];
  for (let i = 0; i < count && (i === 0 || performance.now() < deadline); i++) {
    const run = make(i);
    const started = performance.now();
    run();
    timingsMs.push(performance.now() - started);
  }
  return timingsMs;
}

const book = heaviestBook();
const kept: number[] = [];
const loreMatch = time("loreMatch", (seed) => {
  const message = nearMatchMessage(seed);
  return () => kept.push(matchLore(book, [message]).entries.length);
});
// The same lorebook with every key plain (no entry's keys are patterns): the engine's share apart.
const plainBook: LoreBook = { ...book, entries: book.entries.map((entry, e) => ({ ...entry, ...plainKeys(e), use_regex: false })) };
const loreMatchPlain = time("loreMatchPlain", (seed) => {
  const message = nearMatchMessage(seed);
  return () => matchLore(plainBook, [message]);
});

/**
 * The longest stretch the main thread was held while `run` was under way: the longest gap between
 * ticks of a 1 ms timer (a tick's own lateness included), `count` runs after `warmup`.
 */
async function timeMainThread(op: string, make: (seed: number) => () => Promise<unknown>): Promise<number[]> {
  if (!ops.has(op)) return [];
  const held = async (run: () => Promise<unknown>) => {
    let last = performance.now();
    let longest = 0;
    const ticker = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
    }, 1);
    try {
      await run();
    } finally {
      clearInterval(ticker);
    }
    return Math.max(longest, performance.now() - last);
  };
  const deadline = performance.now() + maxSeconds * 1000;
  for (let i = 0; i < warmup && performance.now() < deadline; i++) await held(make(1_000_000 + i));
  const timingsMs: number[] = [];
  for (let i = 0; i < count && (i === 0 || performance.now() < deadline); i++) timingsMs.push(await held(make(i)));
  return timingsMs;
}

const loreMatchOffThread = await timeMainThread("loreMatchOffThread", (seed) => {
  const message = nearMatchMessage(seed);
  // A new identity each time: the lorebook is sent to the thread again, as when the persona is read again.
  return () => matchLoreOffThread(book, [message], {});
});
closeLoreThread();

const proposals: number[] = [];
const compile = time("compile", (seed) => {
  const backstory = densestBackstory(seed);
  const existing = compiledEntries(backstory);
  return () => proposals.push(compileLore({ name: "Kira Moon", backstory, extended: FACTS, existing }).proposals.length);
});

let cardBytes = 0;
const cardCheck = time("cardCheck", (seed) => {
  const text = heaviestCard(seed);
  cardBytes = Buffer.byteLength(text);
  return () => {
    const card = parseJsonWithinLimits(text);
    const parsed = parseCard(card);
    if (!parsed.ok || parsed.card.lore?.entries.length !== ENTRIES) throw new Error(`the card was not read: ${JSON.stringify(parsed)}`);
    // The card check of the file as it came (docs/cards.md, Card check), as the import runs it.
    checkCard({ card, container: { kind: "json" } });
  };
});

const cardCheckOffThread = await timeMainThread("cardCheckOffThread", (seed) => {
  const bytes = new TextEncoder().encode(heaviestCard(seed));
  return async () => {
    const read = await readCardOffThread(bytes);
    if (read.parsed.lore?.entries.length !== ENTRIES) throw new Error("the card was not read");
  };
});
closeCardReadThread();

/** The largest chat an import takes: its message count, its bytes filled, swipes on every reply. */
function largestChat(seed: number): Uint8Array {
  const lines = [JSON.stringify({ user_name: "Ana", character_name: "Kira Moon", create_date: "2026-12-07@20h00m00s", chat_metadata: {} })];
  const per = Math.floor((CHAT_IMPORT_LIMITS.bytes - 200) / CHAT_IMPORT_LIMITS.messages);
  for (let i = 0; i < CHAT_IMPORT_LIMITS.messages; i++) {
    const text = `Message ${seed}-${i}: ${"a quiet line about the harbor and the lanterns ".repeat(Math.ceil(per / 46))}`.slice(
      0,
      Math.floor((per - 200) / 4),
    );
    lines.push(
      JSON.stringify({
        name: i % 2 ? "Kira Moon" : "Ana",
        is_user: i % 2 === 0,
        send_date: "December 7, 2026 7:20pm",
        mes: text,
        swipes: [text, text, text],
        swipe_id: 2,
      }),
    );
  }
  const bytes = new TextEncoder().encode(lines.join("\n"));
  if (bytes.byteLength > CHAT_IMPORT_LIMITS.bytes) throw new Error(`the chat is ${bytes.byteLength} bytes, over the limit`);
  return bytes;
}

let chatBytes = 0;
const chatImport = time("chatImport", (seed) => {
  const bytes = largestChat(seed);
  chatBytes = bytes.byteLength;
  return () => {
    if (readChatJsonl(bytes).length !== CHAT_IMPORT_LIMITS.messages) throw new Error("the chat was not read");
  };
});

const SECRETS = ENTRIES;
const replyCheck = time("replyCheck", (seed) => {
  const random = mulberry32(seed + 77);
  const word = () => WORDS[Math.floor(random() * WORDS.length)]!;
  const context = replyCheckContext({
    name: "Kira Moon",
    facts: { birthplace: "Lisbon, Portugal", currentResidence: "Osaka, Japan", birthYear: 2000 },
    lore: Array.from({ length: SECRETS }, (_, i) => ({
      name: `Secret ${i}`,
      kind: "secret",
      enabled: true,
      keys: [`key${i}`],
      content: Array.from({ length: 40 }, () => `${word()}${i}`).join(" "),
    })),
    catchphrases: ["Stay cozy!", "Let's go!", "Hydrate, chat!", "One more round!", "GG, everyone!"],
  });
  const claims = [
    "I was born in Lisbon.",
    "I grew up in Porto Alegre.",
    "I live in Osaka.",
    "I'm 26 years old.",
    "Stay cozy!",
    "As a streamer I play a lot.",
  ];
  const long = () => {
    let text = "";
    while (text.length < CHAT_REPLY_MAX_CHARS - 200)
      text += `${claims[Math.floor(random() * claims.length)]} ${word()} ${NAMES[Math.floor(random() * NAMES.length)]}. `;
    return text;
  };
  const reply = long();
  const before = [long(), long(), long()];
  return () => checkReply(reply, context, before);
});

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
fs.writeFileSync(
  out,
  JSON.stringify({
    loreMatch: { timingsMs: loreMatch, messageChars: MESSAGE_CHARS, entries: ENTRIES, keysPerEntry: 2 * KEYS, keptMean: mean(kept) },
    loreMatchPlain: { timingsMs: loreMatchPlain },
    loreMatchOffThread: { timingsMs: loreMatchOffThread },
    compile: { timingsMs: compile, backstoryChars: BACKSTORY_CHARS, existing: ENTRIES, proposalsMean: mean(proposals) },
    cardCheck: { timingsMs: cardCheck, entries: ENTRIES, keysPerEntry: 2 * KEYS, cardBytes },
    cardCheckOffThread: { timingsMs: cardCheckOffThread },
    chatImport: { timingsMs: chatImport, messages: CHAT_IMPORT_LIMITS.messages, chatBytes },
    replyCheck: { timingsMs: replyCheck, replyChars: CHAT_REPLY_MAX_CHARS, secrets: SECRETS },
    count,
    warmup,
    node: process.version,
  }),
);
