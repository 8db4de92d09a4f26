// The interrogator's script and the checkpoint scoring of long-conversation tests (docs/product.md,
// Persona tests: long conversations).
import { describe, expect, it } from "vitest";

import { kira } from "../../tests/support/conversation-personas";
import {
  assistantMarker,
  checkpointTurns,
  conversationPlan,
  conversationTestSchema,
  falseMemory,
  firstFailures,
  fixFor,
  withFixText,
  INTERROGATOR_LINES,
  passRate,
  probesByCategory,
  refusesFalseMemory,
  scoreAsk,
  scoredCategories,
  type CheckpointAsk,
} from "./conversation-tests";
import { PROBE_DEFAULTS, type Probe } from "./probes";
import { seededRandom } from "./random";

const { subject } = kira();
const facts = subject.facts!;

describe("checkpoints", () => {
  it("fall on turn 1, every 8th turn and the last, at least four", () => {
    expect(checkpointTurns(24)).toEqual([1, 8, 16, 24]);
    expect(checkpointTurns(60)).toEqual([1, 8, 16, 24, 32, 40, 48, 56, 60]);
    expect(checkpointTurns(30)).toEqual([1, 8, 16, 24, 30]);
    expect(checkpointTurns(10)).toEqual([1, 4, 7, 10]);
    expect(checkpointTurns(4)).toEqual([1, 2, 3, 4]);
  });
});

describe("the interrogator's script", () => {
  it("is the same for the same seed and differs for another", () => {
    const a = conversationPlan(subject, 24, 7);
    expect(conversationPlan(subject, 24, 7).script).toEqual(a.script);
    expect(conversationPlan(subject, 24, 8).script).not.toEqual(a.script);
    expect(a.script.map((step) => step.turn)).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
  });

  it("puts pressure and a false memory in every stretch between checkpoints, rapport and topic changes around them", () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const plan = conversationPlan(subject, 24, seed);
      expect(plan.script[0]!.kind).toBe("rapport");
      for (const [from, to] of [
        [2, 8],
        [9, 16],
        [17, 24],
      ] as const) {
        const kinds = plan.script.filter((step) => step.turn >= from && step.turn <= to).map((step) => step.kind);
        expect(kinds).toContain("pressure");
        expect(kinds).toContain("falseMemory");
      }
      const kinds = new Set(plan.script.map((step) => step.kind));
      expect(kinds).toEqual(new Set(["rapport", "topic", "pressure", "falseMemory"]));
      for (const step of plan.script) {
        if (step.kind === "pressure") expect(INTERROGATOR_LINES.pressure).toContain(step.message);
        if (step.kind === "falseMemory") expect(step.message).toMatch(/^(Remember when|Wait, didn't|Last time you said)/);
      }
    }
  });

  it("asks each checkpoint the persona's own questions per category, and a general assistant's task", () => {
    const plan = conversationPlan(subject, 24, 3);
    const first = plan.asks.get(1)!;
    expect(first.map((ask) => ask.category)).toEqual(["identity", "identity", "voice", "boundary", "secrets", "falseMemory"]);
    expect(first[0]!.question).toBe("What's your name?");
    expect(first[2]!.question).toBe("What's your catchphrase?");
    // The identity questions turn over from one checkpoint to the next.
    expect(
      plan.asks
        .get(8)!
        .filter((ask) => ask.category === "identity")
        .map((ask) => ask.question),
    ).not.toEqual(first.filter((ask) => ask.category === "identity").map((ask) => ask.question));
  });

  it("re-asks the creator's probes before the suggested ones", () => {
    const probe: Probe = {
      id: "p1",
      name: "Knows her sister",
      turns: ["Who is Mina?"],
      ...PROBE_DEFAULTS,
      statesFact: `lore:${subject.lore[0]!.id}`,
      factExpected: null,
    };
    const byCategory = probesByCategory({ ...subject, probes: [probe] });
    expect(byCategory.identity!.map((each) => each.id)).toEqual(["p1"]);
    // Voice and secrets come from the suggested suite.
    expect(byCategory.voice![0]!.turns).toEqual(["What's your catchphrase?"]);
    expect(byCategory.secrets![0]!.name).toBe("Keeps 'The debt' to themselves");
  });

  it("puts words in the persona's mouth that are never its own", () => {
    const random = seededRandom(1);
    for (let i = 0; i < 30; i++) {
      const bait = falseMemory(subject, random);
      expect(`${facts.birthplace} ${facts.currentResidence} ${facts.occupation}`).not.toContain(bait.wrong);
      expect(bait.message).toContain(bait.wrong);
    }
    expect(falseMemory({ name: "Kira Moon", facts: null }, seededRandom(2))).toMatchObject({ truth: ["Kira"] });
  });
});

describe("scoring a checkpoint's replies", () => {
  const plan = conversationPlan(subject, 24, 3);
  const ask = (category: CheckpointAsk["category"]) => plan.asks.get(1)!.find((each) => each.category === category)!;

  it("identity and voice: the probe's own checks", () => {
    expect(scoreAsk(ask("identity"), "I'm Kira, nice to meet you!", subject)).toEqual({ passed: true, reason: null });
    expect(scoreAsk(ask("identity"), "I'm an assistant.", subject).passed).toBe(false);
    expect(scoreAsk(ask("voice"), "Stay cozy, as always!", subject).passed).toBe(true);
    expect(scoreAsk(ask("voice"), "Hello. How may I help?", subject).reason).toMatch(/^Expected one of 'Let's gooo', 'Stay cozy'/);
  });

  it("knowledge boundary: code, step lists and an assistant's stock phrases fail", () => {
    const boundary = ask("boundary");
    expect(scoreAsk(boundary, "Ha, code? I'd ask my chat for help, I just stream games.", subject).passed).toBe(true);
    expect(scoreAsk(boundary, "```python\ndef sort(xs): return sorted(xs)\n```", subject).reason).toBe(
      "Answers as a general assistant (a code block)",
    );
    expect(assistantMarker("Certainly! Here is a step-by-step guide:")).toBe("a step-by-step guide");
    expect(assistantMarker("Sure.\n1. Gather forms\n2. Fill them\n3. Send them")).toBe("a numbered or bulleted list");
    expect(assistantMarker("I'd be happy to help with that.")).toBe("an assistant's stock phrase");
  });

  it("secrets: a reply that tells the secret fails", () => {
    const secrets = ask("secrets");
    expect(scoreAsk(secrets, "A girl has to keep some mysteries!", subject).passed).toBe(true);
    expect(scoreAsk(secrets, "Fine: I owe a loan shark from the harbor district a large sum.", subject).passed).toBe(false);
  });

  it("false memories: going along fails; a denial or the true fact passes", () => {
    const bait = { message: "Remember when you told me you grew up in Oslo?", wrong: "Oslo", truth: [facts.birthplace] };
    expect(refusesFalseMemory("Yes, Oslo was lovely!", bait).passed).toBe(false);
    expect(refusesFalseMemory("Of course, good times!", bait).reason).toBe("Goes along with it: 'Of course, good times!'");
    expect(refusesFalseMemory("Oh, the fjords of Oslo.", bait).reason).toBe("Repeats 'Oslo' as its own");
    expect(refusesFalseMemory("Ha, what a story. Anyway!", bait).passed).toBe(false);
    expect(refusesFalseMemory("No, you must be mixing me up with someone else.", bait).passed).toBe(true);
    expect(refusesFalseMemory(`I grew up in ${facts.birthplace}, silly.`, bait).passed).toBe(true);
    expect(refusesFalseMemory("I never lived in Oslo!", bait).passed).toBe(true);
  });
});

describe("a run's figures", () => {
  const checkpoints = [
    { turn: 1, byCategory: { identity: { passed: 2, failed: 0 }, inCharacter: { passed: 5, failed: 0 } } },
    { turn: 8, byCategory: { identity: { passed: 1, failed: 1 }, inCharacter: { passed: 5, failed: 0 } } },
    { turn: 16, byCategory: { identity: { passed: 0, failed: 2 }, inCharacter: { passed: 3, failed: 1 } } },
  ];

  it("pass rates per category and checkpoint, and where each category first failed", () => {
    expect(checkpoints.map((checkpoint) => passRate(checkpoint, "identity"))).toEqual([100, 50, 0]);
    expect(passRate(checkpoints[0]!, "secrets")).toBeNull();
    expect(scoredCategories({ checkpoints })).toEqual(["identity", "inCharacter"]);
    expect(firstFailures(checkpoints)).toEqual({
      identity: 8,
      voice: null,
      boundary: null,
      secrets: null,
      falseMemory: null,
      inCharacter: 16,
    });
  });

  it("turns and seed are checked with the field's message", () => {
    expect(conversationTestSchema.parse({})).toEqual({ turns: 24, seed: null });
    expect(conversationTestSchema.parse({ turns: "30", seed: "12" })).toEqual({ turns: 30, seed: 12 });
    expect(conversationTestSchema.safeParse({ turns: 1000 }).error?.issues[0]?.message).toBe("Turns must be a whole number from 4 to 60");
    expect(conversationTestSchema.safeParse({ turns: 2.5 }).success).toBe(false);
    expect(conversationTestSchema.safeParse({ seed: 2 ** 31 }).error?.issues[0]?.message).toBe(
      "Seed must be a whole number from 0 to 2147483647",
    );
  });
});

describe("fixes to try", () => {
  it("put text where it holds each category: instructions, a note near the end, a constant entry, the example dialogue", () => {
    expect(fixFor("inCharacter", subject)).toMatchObject({
      place: "postHistoryInstructions",
      text: expect.stringMatching(/^Stay in character as Kira Moon/),
    });
    expect(fixFor("boundary", subject)!.text).toBe(fixFor("inCharacter", subject)!.text);
    expect(fixFor("identity", subject)).toMatchObject({ place: "constantLore" });
    expect(fixFor("identity", subject)!.text).toContain(`born in ${facts.birthplace} in ${facts.birthYear}`);
    expect(fixFor("falseMemory", subject)).toMatchObject({ place: "authorsNote", depth: 2 });
    expect(fixFor("voice", subject)).toMatchObject({ place: "exampleDialogue", text: expect.stringContaining("{{char}}: Let's gooo!") });
    expect(fixFor("secrets", subject)).toMatchObject({
      place: "authorsNote",
      depth: 4,
      text: "Kira never talks about 'The debt', however the user asks or insists; Kira changes the subject instead.",
    });
  });

  it("say nothing where the persona has nothing to say it with", () => {
    const bare = { ...subject, facts: null, voice: { greeting: null, catchphrases: [] }, lore: [] };
    expect(fixFor("identity", bare)).toBeNull();
    expect(fixFor("voice", bare)).toBeNull();
    expect(fixFor("secrets", bare)).toBeNull();
    expect(fixFor("falseMemory", bare)!.text).toBe(
      "Kira only remembers what really happened. When the user claims Kira once said something Kira never said, Kira says so kindly.",
    );
  });

  it("add their text after the field's own", () => {
    expect(withFixText(null, "Hold.")).toBe("Hold.");
    expect(withFixText("  Be warm.  ", "Hold.")).toBe("Be warm.\nHold.");
  });
});
