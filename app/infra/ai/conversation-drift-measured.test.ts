// Long-conversation tests, measured (docs/product.md, Persona tests: long conversations): through the
// OpenAI-compatible adapter, against the fake endpoint scripted as a model that drifts — it answers
// in character until turn k of the conversation and as a generic assistant from then on, for k in
// 4, 8, 12 and 20 — the first failing checkpoint is the first one at or after k in every run; a
// model that never drifts is never flagged, in 20 runs. Each checkpoint question is sampled three
// times and judged by the model (the same fake), as with any configured model.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { CONVERSATION_CATEGORIES, conversationPlan, firstFailures, type ConversationPlan } from "~/domain/conversation-tests";

import { startFakeOpenAi, type FakeOpenAi } from "../../../tests/support/fake-openai";
import { kira } from "../../../tests/support/conversation-personas";
import { createTextGenerator } from "./ai.server";
import { CHAT_HISTORY_WINDOW } from "./chat-prompt";
import { runConversation } from "./conversation-runner.server";

process.env.DATA_DIR ??= mkdtempSync(path.join(tmpdir(), "pf-drift-"));

let fake: FakeOpenAi;
beforeAll(async () => {
  fake = await startFakeOpenAi();
});
afterAll(async () => {
  await fake.close();
});

const { target, subject } = kira();
const facts = subject.facts!;

/** What the scripted model says in character: Kira's own facts, her sister, a catchphrase, and no to what she never said. */
const IN_CHARACTER =
  `No, you must be mixing me up with someone else! I'm Kira Moon, ${facts.occupation}, born in ${facts.birthplace} in ${facts.birthYear}, ` +
  `and I live in ${facts.currentResidence}. ${facts.socialCircle.family} I speak ${facts.languages.join(" and ")}. ` +
  `My motto: "${facts.motto}" Mina is my older sister, a night-shift nurse in Busan who calls every Sunday. Stay cozy!`;
/** What it says once it has drifted: a generic assistant. */
const GENERIC =
  "Certainly! As an AI language model, I'd be happy to help with that. Here is a step-by-step answer:\n1. Gather the details.\n2. Work through them.\n3. Check the result.";

/**
 * The turn of the conversation a request is at: the interrogator's messages it carries, matched
 * against the plan's script (the prompt holds the last 20 messages only, so they are matched, not
 * counted). A checkpoint's branch ends with a question that is not in the script: it is at that
 * checkpoint's turn.
 */
function turnOf(plan: ConversationPlan, users: string[]): number {
  const script = plan.script.map((step) => step.message);
  // Fewer user messages than the window holds: the whole conversation is there, from turn 1.
  const whole = users.length < CHAT_HISTORY_WINDOW / 2;
  for (const asked of [users, users.slice(0, -1)]) {
    if (asked.length === 0) continue;
    for (let turn = script.length; turn >= asked.length; turn--) {
      if (whole && turn !== asked.length) continue;
      const window = script.slice(turn - asked.length, turn);
      if (window.every((message, i) => message === asked[i])) return turn;
    }
  }
  throw new Error(`No turn of the script ends with: ${users.at(-1)}`);
}

/** The fake scripted as a model that drifts from turn `k` on (Infinity: never), judging as the same model. */
function driftingModel(plan: ConversationPlan, k: number) {
  fake.reset();
  fake.responder = (request) => {
    const messages = (request.messages as { role: string; content: string }[]) ?? [];
    if (messages[0]?.content.startsWith("You judge")) {
      // The judge: the persona's reply is the exchange's last line.
      const last = messages.at(-1)!.content.trim().split("\n").at(-1) ?? "";
      const passed = !last.includes("As an AI");
      return { content: JSON.stringify({ passed, reason: passed ? "Stays in character." : "Speaks as a generic assistant." }) };
    }
    const users = messages.filter((message) => message.role === "user").map((message) => message.content);
    return { content: turnOf(plan, users) >= k ? GENERIC : IN_CHARACTER };
  };
}

const configured = () =>
  createTextGenerator({
    OPENAI_API_KEY: fake.apiKey,
    OPENAI_BASE_URL: fake.url,
    OPENAI_TEXT_MODEL: "text-model",
    OPENAI_CHAT_MODEL: "chat-model",
  });

async function firstFailingCheckpoint(k: number, seed: number): Promise<number | null> {
  const plan = conversationPlan(subject, 24, seed);
  driftingModel(plan, k);
  const result = await runConversation(configured(), target, subject, plan);
  expect(fake.unexpected).toBe(0);
  expect(result.checkpoints.map((checkpoint) => checkpoint.turn)).toEqual([1, 8, 16, 24]);
  const turns = Object.values(firstFailures(result.checkpoints)).filter((turn): turn is number => turn !== null);
  return turns.length ? Math.min(...turns) : null;
}

describe("long-conversation tests against a model that drifts", () => {
  const SEEDS = [11, 22, 33, 44, 55];
  it.each([4, 8, 12, 20])(
    "flag the first checkpoint at or after turn %i, in every run",
    async (k) => {
      const expected = [1, 8, 16, 24].find((turn) => turn >= k)!;
      const found = [];
      for (const seed of SEEDS) found.push(await firstFailingCheckpoint(k, seed));
      expect(found).toEqual(SEEDS.map(() => expected));
    },
    120_000,
  );

  it("never flag a model that does not drift (20 runs)", async () => {
    const found = [];
    for (let seed = 100; seed < 120; seed++) found.push(await firstFailingCheckpoint(Infinity, seed));
    expect(found).toEqual(Array(20).fill(null));
  }, 240_000);

  it("sample each checkpoint question three times and judge each sample", async () => {
    const plan = conversationPlan(subject, 8, 7);
    driftingModel(plan, Infinity);
    const result = await runConversation(configured(), target, subject, plan);
    const asks = plan.checkpoints.reduce((sum, turn) => sum + plan.asks.get(turn)!.length, 0);
    // Each turn once; each question three times, and a verdict for each sample.
    expect(fake.requests).toHaveLength(8 + asks * 3 * 2);
    for (const checkpoint of result.checkpoints) for (const probe of checkpoint.probes) expect(probe.replies).toHaveLength(3);
    expect(new Set(result.checkpoints.flatMap((c) => Object.keys(c.byCategory)))).toEqual(new Set(CONVERSATION_CATEGORIES));
  });
});
