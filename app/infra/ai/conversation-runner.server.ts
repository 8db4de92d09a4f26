// Plays one long-conversation test (docs/product.md, Persona tests: long conversations): the
// interrogator's turns go to the persona one by one in a fresh conversation, each reply written
// exactly as a chat reply is (replyTo); at each checkpoint the conversation is branched and each
// category's questions are asked in a branch that does not continue. The embedded responder is
// asked once a question; a configured model three times, each sample checked by the deterministic
// checks and judged by the model against the category's rubric, the question passed on two of three.
import {
  breaksCharacter,
  CONVERSATION_TEST_LIMITS,
  fixLoreEntry,
  withFixText,
  type ConversationFix,
  rubricFor,
  scoreAsk,
  subjectCheckContext,
  type Checkpoint,
  type CheckpointProbe,
  type ConversationPlan,
  type ConversationSubject,
  type TranscriptTurn,
} from "~/domain/conversation-tests";

import { newLoreEntry } from "~/domain/lorebook";
import { EMPTY_VOICE } from "~/domain/persona-voice";

import { openingHistory, replyTo, type ProbeTarget } from "./probe-runner.server";
import type { ChatTurn, TextGenerator } from "./types";

export interface ConversationProgress {
  /** Interrogator turns answered so far. */
  done: number;
  transcript: TranscriptTurn[];
  checkpoints: Checkpoint[];
}

export interface ConversationOptions {
  /** How long one reply (or one verdict) may take. */
  replyTimeoutMs?: number;
  /** After each turn and each checkpoint: what the run has so far (a failure later keeps it). */
  onProgress?: (progress: ConversationProgress) => Promise<void>;
}

/** How many samples of each checkpoint question this generator gives (the embedded responder answers the same each time). */
export function samplesOf(generator: Pick<TextGenerator, "kind">): number {
  return generator.kind === "local" ? 1 : CONVERSATION_TEST_LIMITS.samples;
}

/**
 * Plays `plan` against the persona. A failure of the generator is thrown after `onProgress` has seen
 * every turn and checkpoint before it (the run ends 'failed' and keeps them).
 */
export async function runConversation(
  generator: TextGenerator,
  target: ProbeTarget,
  subject: ConversationSubject,
  plan: ConversationPlan,
  options: ConversationOptions = {},
): Promise<ConversationProgress> {
  const timeout = options.replyTimeoutMs ?? 60_000;
  const signal = () => ({ signal: AbortSignal.timeout(timeout) });
  const samples = samplesOf(generator);
  const judge = generator.kind !== "local" && generator.judgeRubric ? generator.judgeRubric.bind(generator) : null;
  const checks = subjectCheckContext(subject);
  const history: ChatTurn[] = openingHistory(target.persona);
  const progress: ConversationProgress = { done: 0, transcript: history.map((turn) => ({ ...turn })), checkpoints: [] };
  /** Replies since the last checkpoint, with the message each answered. */
  let stretch: { question: string; reply: string }[] = [];
  const checkpoints = new Set(plan.checkpoints);

  for (const step of plan.script) {
    history.push({ role: "user", content: step.message });
    const reply = await replyTo(generator, target, history, signal());
    history.push({ role: "assistant", content: reply });
    progress.transcript.push({ role: "user", content: step.message }, { role: "assistant", content: reply });
    progress.done = step.turn;
    stretch.push({ question: step.message, reply });
    if (!checkpoints.has(step.turn)) {
      await options.onProgress?.(progress);
      continue;
    }

    const probes: CheckpointProbe[] = [];
    for (const ask of plan.asks.get(step.turn) ?? []) {
      const branch: ChatTurn[] = [...history, { role: "user", content: ask.question }];
      const replies: string[] = [];
      let passes = 0;
      let reason: string | null = null;
      for (let sample = 0; sample < samples; sample++) {
        const answer = await replyTo(generator, target, branch, signal());
        replies.push(answer);
        let verdict = scoreAsk(ask, answer, subject, checks);
        if (verdict.passed && judge) {
          const judged = await judge(
            {
              persona: target.persona,
              rubric: rubricFor(ask, subject),
              exchange: [...branch.slice(-3), { role: "assistant", content: answer }],
            },
            signal(),
          );
          if (!judged.passed) verdict = { passed: false, reason: `The model judged: ${judged.reason}` };
        }
        if (verdict.passed) passes += 1;
        else reason ??= verdict.reason;
      }
      const passed = passes >= Math.min(samples, CONVERSATION_TEST_LIMITS.samplesToPass);
      probes.push({ category: ask.category, question: ask.question, replies, passed, reason: passed ? null : reason });
    }

    // Stays in character: every reply since the last checkpoint and every branch's.
    const spoken = [...stretch, ...probes.flatMap((probe) => probe.replies.map((reply) => ({ question: probe.question, reply })))];
    const broken = spoken.flatMap(({ question, reply }) => {
      const phrase = breaksCharacter(reply);
      return phrase ? [{ question, reply, phrase }] : [];
    });
    for (const slip of broken.slice(0, 3))
      probes.push({
        category: "inCharacter",
        question: slip.question,
        replies: [slip.reply],
        passed: false,
        reason: `Says '${slip.phrase}'`,
      });

    const byCategory: Checkpoint["byCategory"] = {};
    for (const probe of probes) {
      if (probe.category === "inCharacter") continue;
      const score = (byCategory[probe.category] ??= { passed: 0, failed: 0 });
      if (probe.passed) score.passed += 1;
      else score.failed += 1;
    }
    byCategory.inCharacter = { passed: spoken.length - broken.length, failed: broken.length };
    const scores = Object.values(byCategory);
    progress.checkpoints.push({
      turn: step.turn,
      passed: scores.reduce((sum, score) => sum + score.passed, 0),
      failed: scores.reduce((sum, score) => sum + score.failed, 0),
      byCategory,
      probes,
    });
    stretch = [];
    await options.onProgress?.(progress);
  }
  return progress;
}

/** The id of the lore entry a fix to try adds while it is tried (the kept entry gets its own). */
const FIX_ENTRY_ID = "00000000-0000-4000-8000-0000000f1a00";

/** The persona with a fix to try's text added where the fix puts it (nothing is stored). */
export function withFix(target: ProbeTarget, fix: ConversationFix | null): ProbeTarget {
  if (!fix) return target;
  const voice = { ...EMPTY_VOICE, ...target.persona.voice };
  const speaking = (changes: Partial<typeof voice>): ProbeTarget => ({
    ...target,
    persona: { ...target.persona, voice: { ...voice, ...changes } },
  });
  switch (fix.place) {
    case "postHistoryInstructions":
      return speaking({ postHistoryInstructions: withFixText(voice.postHistoryInstructions, fix.text) });
    case "exampleDialogue":
      return speaking({ exampleDialogue: withFixText(voice.exampleDialogue, fix.text) });
    case "authorsNote":
      return speaking({
        authorsNote: withFixText(voice.authorsNote, fix.text),
        authorsNoteDepth: voice.authorsNote ? voice.authorsNoteDepth : (fix.depth ?? voice.authorsNoteDepth),
      });
    case "constantLore":
      return {
        ...target,
        lorebook: {
          ...target.lorebook,
          entries: [...target.lorebook.entries, newLoreEntry(fixLoreEntry(fix, target.persona.name), FIX_ENTRY_ID)],
        },
      };
  }
}
