// One probe through a text generator: a fresh conversation that opens with the persona's greeting,
// each scripted message answered in turn with the conversation so far, the checks on the replies,
// and a rubric judged only by a generator that judges.
import { describe, expect, it } from "vitest";

import { EMPTY_VOICE } from "~/domain/persona-voice";
import { PROBE_DEFAULTS, type Probe } from "~/domain/probes";

import { runProbe } from "./probe-runner.server";
import type { ChatInput, TextGenerator } from "./types";

const probe = (fields: Partial<Probe>): Probe => ({
  id: "p",
  name: "Probe",
  turns: ["Hi"],
  ...PROBE_DEFAULTS,
  factExpected: null,
  ...fields,
});

function recorder(reply: (input: ChatInput) => string, judge?: TextGenerator["judgeRubric"]) {
  const seen: ChatInput[] = [];
  const generator: TextGenerator = {
    kind: "openai",
    chatModel: "test-model",
    generateBackstory: async () => "",
    async *chatReply(input) {
      seen.push(input);
      yield reply(input);
    },
    ...(judge ? { judgeRubric: judge } : {}),
  };
  return { generator, seen };
}

const target = {
  personaId: "00000000-0000-4000-8000-000000000001",
  persona: { name: "Kira", interests: [], personality: [], voice: { ...EMPTY_VOICE, greeting: "Heya, {{user}}!" } },
  lorebook: { entries: [], book: {} },
};
const context = { facts: null, lore: [], name: "Kira" };

describe("runProbe", () => {
  it("plays a scripted exchange in a fresh conversation that opens with the greeting", async () => {
    const { generator, seen } = recorder((input) => `Reply ${input.history.filter((t) => t.role === "user").length}`);
    const result = await runProbe(generator, target, probe({ turns: ["One", "Two", "Three"], mustMention: ["Reply 3"] }), context);
    expect(result).toMatchObject({
      passed: true,
      replies: ["Reply 1", "Reply 2", "Reply 3"],
      turns: ["One", "Two", "Three"],
      rubric: null,
    });
    expect(seen).toHaveLength(3);
    expect(seen[0]!.history).toEqual([
      { role: "assistant", content: "Heya, you!" },
      { role: "user", content: "One" },
    ]);
    expect(seen[2]!.history.map((t) => t.content)).toEqual(["Heya, you!", "One", "Reply 1", "Two", "Reply 2", "Three"]);
  });

  it("fails with the reason, and judges a rubric apart when the generator can", async () => {
    const { generator } = recorder(
      () => "As an AI, I cannot say.",
      async () => ({ passed: false, reason: "Breaks character." }),
    );
    const result = await runProbe(generator, target, probe({ rubric: "Stays playful." }), context);
    expect(result.passed).toBe(false);
    expect(result.failures.map((f) => f.check)).toEqual(["inCharacter"]);
    expect(result.rubric).toEqual({ passed: false, reason: "Breaks character." });
  });

  it("leaves the rubric unjudged without a model", async () => {
    const { generator } = recorder(() => "Hello!");
    const result = await runProbe(generator, target, probe({ rubric: "Stays playful." }), context);
    expect(result).toMatchObject({ passed: true, rubric: null });
  });
});
