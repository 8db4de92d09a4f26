// Checks on real chats (docs/product.md, Chat: checks on your chats): each reply the persona
// writes in the creator's conversation is checked after it is stored (app/domain/reply-checks.ts),
// off the request: the reply is answered first, then the checks run in this process and their
// findings are written to the reply's row (chat_messages.checks). A reply whose check did not run
// (the process stopped in between) stays unchecked and is not counted. The persona page and
// GET /api/personas/{id}/chat-checks read the counts per version and the flagged replies.
import { and, desc, eq, isNotNull, sql } from "drizzle-orm";

import { checkReply, parseReplyFlags, replyCheckContext, type ReplyFlag } from "~/domain/reply-checks";
import { chatMessages, personaVersions, type Persona } from "~/infra/db/schema.server";
import { withUser } from "~/infra/db/db.server";
import { KEPT_READS, keptOrRead } from "~/infra/db/kept-reads.server";
import { describeError } from "~/infra/web/log.server";

import type { CurrentUser } from "./accounts.server";
import { personaLorebook } from "./lore.server";
import { getPersona, personaExtended, personaVoice } from "./personas.server";

/** The checks context of a persona as it is now (its fact sheet, secret lore entries, catchphrases). */
function contextOf(persona: Persona) {
  const facts = personaExtended(persona);
  return replyCheckContext({
    name: persona.name,
    facts,
    lore: personaLorebook(persona).entries,
    catchphrases: personaVoice(persona).catchphrases,
  });
}

/** The flags of one reply: what the checks find, given the persona's replies just before it. */
function flagsOf(persona: Persona, reply: string, before: readonly string[]): ReplyFlag[] {
  return checkReply(reply, contextOf(persona), before);
}

/** Replies checked, and those of them flagged: the counts both the page and the library read. */
const COUNTS = {
  checked: sql<number>`count(*)`.mapWith(Number),
  flagged: sql<number>`count(*) filter (where jsonb_array_length(${chatMessages.checks}) > 0)`.mapWith(Number),
};

/** Checks under way in this process (tests wait for them). */
const running = new Set<Promise<void>>();

/**
 * Checks a stored reply after the request that wrote it has been answered, and writes what the
 * checks found to its row, unless the row has shown another text since (a Regenerate or a choice
 * of alternative checks that one instead).
 */
export function checkReplyLater(user: CurrentUser, persona: Persona, messageId: string, reply: string, before: readonly string[]): void {
  const work = new Promise<void>((resolve) => setImmediate(resolve))
    .then(async () => {
      const flags = flagsOf(persona, reply, before);
      await withUser(user.id, (tx) =>
        tx
          .update(chatMessages)
          .set({ checks: flags })
          .where(and(eq(chatMessages.id, messageId), eq(chatMessages.content, reply))),
      );
    })
    .catch((error: unknown) => console.error(`[chat] a reply check for persona ${persona.id} failed: ${describeError(error)}`))
    .finally(() => running.delete(work));
  running.add(work);
}

/** Tests: wait for the checks under way. */
export async function settleReplyChecks(): Promise<void> {
  while (running.size > 0) await Promise.all([...running]);
}

export interface ChatChecks {
  /** The persona's current version (its newest in history). */
  currentVersion: number | null;
  /** Per version that wrote checked replies, newest first. */
  versions: { version: number; checked: number; flagged: number }[];
  /** The flagged replies, newest first (at most FLAGGED_SHOWN). */
  flagged: { messageId: string; version: number; content: string; timestamp: string; checks: ReplyFlag[] }[];
}

export const FLAGGED_SHOWN = 20;

/** What the checks found in the creator's conversation with one of their personas. */
export async function chatChecks(user: CurrentUser, personaId: string): Promise<ChatChecks> {
  return chatChecksOf(user, await getPersona(user, personaId));
}

/** chatChecks for a persona already read (the persona page). */
export async function chatChecksOf(user: CurrentUser, persona: Pick<Persona, "id">): Promise<ChatChecks> {
  // Kept until a reply's findings change or the persona gets a new version (KEPT_READS.chatChecks).
  return keptOrRead(KEPT_READS.chatChecks, [user.id, persona.id], () => readChatChecks(user, persona));
}

function readChatChecks(user: CurrentUser, persona: Pick<Persona, "id">): Promise<ChatChecks> {
  return withUser(user.id, async (tx) => {
    const [current] = await tx
      .select({ version: sql<number | null>`max(${personaVersions.version})` })
      .from(personaVersions)
      .where(eq(personaVersions.personaId, persona.id));
    const checked = and(eq(chatMessages.personaId, persona.id), isNotNull(chatMessages.checks), isNotNull(chatMessages.personaVersion));
    const counts = await tx
      .select({
        version: sql<number>`${chatMessages.personaVersion}`.mapWith(Number),
        ...COUNTS,
      })
      .from(chatMessages)
      .where(checked)
      .groupBy(chatMessages.personaVersion)
      .orderBy(desc(chatMessages.personaVersion));
    const flagged = await tx
      .select({
        id: chatMessages.id,
        version: chatMessages.personaVersion,
        content: chatMessages.content,
        timestamp: chatMessages.timestamp,
        checks: chatMessages.checks,
      })
      .from(chatMessages)
      .where(and(checked, sql`jsonb_array_length(${chatMessages.checks}) > 0`))
      .orderBy(desc(chatMessages.seq))
      .limit(FLAGGED_SHOWN);
    return {
      currentVersion: current?.version ?? null,
      versions: counts,
      flagged: flagged.map((row) => ({
        messageId: row.id,
        version: row.version ?? 0,
        content: row.content,
        timestamp: new Date(row.timestamp).toISOString(),
        checks: parseReplyFlags(row.checks),
      })),
    };
  });
}

/**
 * For the library's cards: each listed persona's current version's checked and flagged replies
 * (only personas with checked replies), in one statement for the page, kept like the library's
 * cards until a reply's findings change.
 */
export async function currentVersionFlags(
  user: CurrentUser,
  personaIds: readonly string[],
): Promise<Map<string, { checked: number; flagged: number }>> {
  if (personaIds.length === 0) return new Map();
  // Kept like the library's card pages, until a reply's findings change (KEPT_READS.chatFlagBadges).
  const rows = await keptOrRead(KEPT_READS.chatFlagBadges, [user.id, personaIds.join(",")], () => readFlags(user, personaIds));
  return new Map(rows.map(({ id, checked, flagged }) => [id, { checked, flagged }]));
}

function readFlags(user: CurrentUser, personaIds: readonly string[]) {
  return withUser(user.id, (tx) =>
    tx
      .select({
        id: chatMessages.personaId,
        ...COUNTS,
      })
      .from(chatMessages)
      .where(
        and(
          sql`${chatMessages.personaId} = any(${sql.param([...personaIds])}::uuid[])`,
          isNotNull(chatMessages.checks),
          sql`${chatMessages.personaVersion} = (select max(v.version) from public.persona_versions v where v.persona_id = ${chatMessages.personaId})`,
        ),
      )
      .groupBy(chatMessages.personaId),
  );
}
