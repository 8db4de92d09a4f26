// Sends one probe (docs/product.md, Persona tests) to a persona in a fresh conversation: the
// persona's greeting first when it has one (as every new chat opens), then each of the probe's
// messages in turn, each answered by the text generator with the lore entries the conversation
// brings up, exactly as a chat reply is written. The replies are checked by the domain's checks;
// a rubric is judged by a configured model only (TextGenerator.judgeRubric), apart from them.
import { checkReplies, type Probe, type ProbeContext, type ProbeResult } from "~/domain/probes";
import { fillPlaceholders } from "~/domain/persona-voice";
import type { LoreBook } from "~/domain/lorebook";
import { matchLoreOffThread } from "~/infra/compute/lore-match.server";

import type { ChatPersona, ChatTurn, GenerateOptions, TextGenerator } from "./types";

export interface ProbeTarget {
  /** Seeds the embedded responder, as in chat. */
  personaId: string;
  persona: ChatPersona;
  lorebook: LoreBook;
}

/**
 * The persona's next reply to `history` (which ends with the user's message), with the lore entries
 * the conversation brings up, exactly as a chat reply is written.
 */
export async function replyTo(
  generator: TextGenerator,
  target: ProbeTarget,
  history: readonly ChatTurn[],
  options: GenerateOptions = {},
): Promise<string> {
  const lore = target.lorebook.entries.length
    ? (
        await matchLoreOffThread(
          target.lorebook,
          history.map((message) => message.content),
        )
      ).entries
    : [];
  let reply = "";
  for await (const piece of generator.chatReply(
    {
      personaId: target.personaId,
      persona: target.persona,
      history: [...history],
      lore: lore.map(({ id, name, content, kind, keys }) => ({ id, name, content, kind, keys })),
    },
    { signal: options.signal },
  )) {
    reply += piece;
  }
  return reply.trim();
}

/** The conversation a fresh chat opens with: the persona's greeting, when it has one. */
export function openingHistory(persona: ChatPersona): ChatTurn[] {
  const greeting = persona.voice?.greeting?.trim();
  return greeting ? [{ role: "assistant", content: fillPlaceholders(greeting, persona.name) }] : [];
}

/** One probe through `generator`; a failure of the generator is thrown (the run ends 'failed' and keeps what it has). */
export async function runProbe(
  generator: TextGenerator,
  target: ProbeTarget,
  probe: Probe,
  context: ProbeContext,
  options: GenerateOptions = {},
): Promise<ProbeResult> {
  const history: ChatTurn[] = openingHistory(target.persona);
  const replies: string[] = [];
  for (const turn of probe.turns) {
    history.push({ role: "user", content: turn });
    const reply = await replyTo(generator, target, history, options);
    replies.push(reply);
    history.push({ role: "assistant", content: reply });
  }
  const failures = checkReplies(probe, replies, context);
  let rubric: ProbeResult["rubric"] = null;
  if (probe.rubric && generator.judgeRubric) {
    rubric = await generator.judgeRubric({ persona: target.persona, rubric: probe.rubric, exchange: history }, options);
  }
  return {
    probeId: probe.id,
    name: probe.name,
    passed: failures.length === 0 && (rubric === null || rubric.passed),
    turns: [...probe.turns],
    replies,
    failures,
    rubric,
  };
}
