// Embedded chat reply timing, run by tests/bench/bench.mjs (the "extra" group):
//
//   node_modules/.bin/tsx tests/bench/chat-embedded.ts --out <file.json> [--count 200] [--warmup 20]
//
// Times composeChatReply() of the embedded responder (app/infra/ai/offline/local-chat.server.ts) in
// this process, once per input: varied personas (every type, traits from every category, with
// the extended profile the persona page shows) each with a 19-message history and one of a
// dozen questions and small-talk lines, so every input is a full context window. `warmup`
// replies on other inputs run first and are not counted. Writes JSON to --out.
import fs from "node:fs";
import { performance } from "node:perf_hooks";

import { extendedProfile } from "~/domain/extended-profile";
import { INTERESTS, PERSONA_TYPES, TRAITS } from "~/domain/persona";
import { mulberry32, pickMany } from "~/domain/random";
import { CHAT_HISTORY_WINDOW } from "~/infra/ai/chat-prompt";
import { composeChatReply } from "~/infra/ai/offline/local-chat.server";
import type { ChatInput, ChatTurn } from "~/infra/ai/types";

const MESSAGES = [
  "Hi!",
  "How are you today?",
  "Where are you from?",
  "What do you do for a living?",
  "What are your hobbies?",
  "What's your motto?",
  "What are your goals for this year?",
  "Tell me about your family.",
  "I had a rough day at work.",
  "Should I start a podcast?",
  "Tell me your story",
  "Thanks, that helps!",
];

function inputs(count: number, seed: number): ChatInput[] {
  const random = mulberry32(seed);
  return Array.from({ length: count }, (_, i) => {
    const base = {
      id: `bench-${seed}-${i}`,
      name: `Bench Persona ${i}`,
      type: PERSONA_TYPES[i % PERSONA_TYPES.length]!,
      ageRange: "25-34",
      interests: pickMany(INTERESTS, 1 + (i % 3), random),
      personality: pickMany(TRAITS, 1 + (i % 7), random),
    };
    const history: ChatTurn[] = Array.from({ length: CHAT_HISTORY_WINDOW - 1 }, (_, t) => ({
      role: t % 2 === 0 ? "user" : "assistant",
      content: `${MESSAGES[(i + t) % MESSAGES.length]} (earlier turn ${t})`,
    }));
    history.push({ role: "user", content: MESSAGES[i % MESSAGES.length]! });
    return {
      personaId: base.id,
      persona: { ...base, gender: "female", description: "A persona for the bench.", backstory: null, extended: extendedProfile(base) },
      history,
    };
  });
}

function arg(name: string, fallback?: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

const out = arg("out");
if (!out) throw new Error("--out <file.json> is required");
const count = Number(arg("count", "200"));
const warmup = Number(arg("warmup", "20"));

for (const input of inputs(warmup, 0xbeef)) composeChatReply(input);
const timingsMs: number[] = [];
const chars: number[] = [];
for (const input of inputs(count, 0xc4a7)) {
  const started = performance.now();
  const reply = composeChatReply(input);
  timingsMs.push(performance.now() - started);
  chars.push(reply.length);
}
fs.writeFileSync(out, JSON.stringify({ timingsMs, chars, warmup, node: process.version }));
