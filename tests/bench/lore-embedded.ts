// Lore matching timing and the lore figures, run by tests/bench/bench.mjs (the "extra" group):
//
//   node_modules/.bin/tsx tests/bench/lore-embedded.ts --out <file.json> [--count 500] [--warmup 50]
//
// Times matchLore() (app/domain/lorebook.ts) in this process: a lorebook of 200 entries (the
// entries compiled from generated backstories, tests/support/lore-personas.ts) against a
// 20-message window whose last 4 messages name a few of their keys, once per input, after
// `warmup` runs that are not counted. Also measures, untimed, what lore-chat.test.ts asserts: the
// share of named people and places the compile covers over 50 personas, and how many of 100
// questions about entries the embedded responder answers with the entry's fact, with the
// lorebook and without. Writes JSON to --out.
import fs from "node:fs";
import { performance } from "node:perf_hooks";

import { LORE_LIMITS, matchLore, type LoreBook, type LoreEntry } from "~/domain/lorebook";
import { mulberry32 } from "~/domain/random";
import { CHAT_HISTORY_WINDOW } from "~/infra/ai/chat-prompt";
import { composeChatReply } from "~/infra/ai/offline/local-chat.server";

import { askedEntries, chatPersona, compiledBook, covers, loreQuestions, lorePersonas, statesEntry } from "../support/lore-personas";

function arg(name: string, fallback?: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

const out = arg("out");
if (!out) throw new Error("--out <file.json> is required");
const count = Number(arg("count", "500"));
const warmup = Number(arg("warmup", "50"));

// A full lorebook: compiled entries of generated personas, up to the limit of 200.
const personas = lorePersonas(60, 0x10be);
const entries: LoreEntry[] = [];
for (const persona of personas) {
  for (const entry of compiledBook(persona).book.entries) if (entries.length < LORE_LIMITS.entries) entries.push(entry);
}
const book: LoreBook = { entries, book: {} };
const keys = entries.flatMap((entry) => entry.keys);

function window(seed: number): string[] {
  const random = mulberry32(seed);
  return Array.from({ length: CHAT_HISTORY_WINDOW }, (_, t) => {
    const key = keys[Math.floor(random() * keys.length)]!;
    return t % 2 === 0
      ? `Tell me more about ${key}, and what you were doing back then in the evenings? (turn ${t})`
      : `Well, ${key} is a long story: it started on a wet spring day, and I still think about it often. (turn ${t})`;
  });
}

for (let i = 0; i < warmup; i++) matchLore(book, window(1_000_000 + i));
const timingsMs: number[] = [];
const matched: number[] = [];
for (let i = 0; i < count; i++) {
  const messages = window(i);
  const started = performance.now();
  const match = matchLore(book, messages);
  timingsMs.push(performance.now() - started);
  matched.push(match.entries.length);
}

// Coverage: named people and places of 50 personas with a proposal covering them.
const sample = lorePersonas(50);
let named = 0;
let covered = 0;
for (const persona of sample) {
  const { compiled } = compiledBook(persona);
  for (const thing of persona.named.filter((t) => t.kind !== "group")) {
    named += 1;
    if (compiled.proposals.some((p) => covers(p.keys, thing))) covered += 1;
  }
}

// Answers: 100 questions about entries, with the lorebook and without.
let withLore = 0;
let without = 0;
const questions = loreQuestions(sample, 100);
for (const q of questions) {
  const states = (text: string) => askedEntries(q).some((entry) => statesEntry(text, entry, q.persona, q.question));
  const base = { personaId: q.persona.id, persona: chatPersona(q.persona), history: [{ role: "user" as const, content: q.question }] };
  const lore = matchLore(q.book, [q.question]).entries.map(({ id, name, content, kind, keys: k }) => ({
    id,
    name,
    content,
    kind,
    keys: k,
  }));
  if (states(composeChatReply({ ...base, lore }))) withLore += 1;
  if (states(composeChatReply(base))) without += 1;
}

fs.writeFileSync(
  out,
  JSON.stringify({
    timingsMs,
    entries: entries.length,
    windowMessages: CHAT_HISTORY_WINDOW,
    matchedMean: matched.reduce((a, b) => a + b, 0) / matched.length,
    warmup,
    coverage: { named, covered },
    answers: { questions: questions.length, withLore, without },
    node: process.version,
  }),
);
