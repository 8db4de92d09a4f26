// Chatting with a persona (docs/product.md, Chat and API overview): the history,
// sending a message and getting the persona's reply (streamed or whole), regenerating the
// last reply, and clearing the conversation. The persona page's actions and the JSON API call
// these same functions; every query runs through the RLS door as the user, so another user's
// persona is simply not there (404).
//
// Rules that live here once:
// - only active personas chat; a draft must be finished first, an archived one is read-only
//   (409 with the note the page shows);
// - a message is checked by the domain's rules (empty, 4,000 characters, control characters);
// - at most 20 replies a minute per user (429 with Retry-After), and one reply at a time per
//   persona (409): both counted in this process's memory, like the other abuse limits;
// - the user's message is stored before the reply is written; the reply is stored (with its
//   'Generated Content' entry) only once it is complete, so a failed or abandoned reply leaves
//   the user's message and no half-written or empty assistant message. Sending the same text
//   again right after a failure answers that message instead of storing it twice;
// - a reply reads only the last CHAT_HISTORY_WINDOW messages, whatever the history's length.
import { randomUUID } from "node:crypto";

import { parseWithZod } from "@conform-to/zod/v4";
import { and, asc, desc, eq, sql } from "drizzle-orm";

import {
  chatAvailability,
  checkChatMessage,
  CHAT_MESSAGES,
  CHAT_TOASTS,
  withAlternative,
  type ChatMessageView,
  type StoredAlternative,
} from "~/domain/chat";
import { chatMessageSchema } from "~/domain/chat-form";
import { chatTranscriptNotice } from "~/domain/ai-disclosure";
import { chatFile, ChatFileError, CHAT_IMPORT_MESSAGES, readChatJsonl, type ChatFormat } from "~/domain/chat-transfer";
import { AiError, generatorsInUse, textGenerator, type ChatTurn } from "~/infra/ai/ai.server";
import { CHAT_HISTORY_WINDOW } from "~/infra/ai/chat-prompt";
import { chatMessages, generations, personaVersions, type ChatMessage, type Persona } from "~/infra/db/schema.server";
import { withUser } from "~/infra/db/db.server";
import { consumeChatAllowance, RateLimitedError } from "~/infra/web/rate-limit.server";

import { type CurrentUser } from "./accounts.server";
import { checkReplyLater } from "./chat-checks.server";
import { takeModelCalls } from "./generation-quotas.server";
import { loreForReply } from "./lore.server";
import { getPersona, isUuid, personaExtended, personaVoice } from "./personas.server";
import { ServiceError } from "./service-error.server";

/** A chat message, reply or clearing that cannot be made. */
export class ChatError extends ServiceError {
  override name = "ChatError";
}

export const CHAT_FAILED = CHAT_TOASTS.sendFailed.description;

/** What a finished reply answers (docs/api.md: send replies carry messageId and response). */
export interface ChatReply {
  messageId: string;
  response: string;
  /** The ids of the lore entries the reply drew on (docs/product.md, Lore in chat). */
  lore: string[];
  /** The persona version the reply was written with. */
  version: number | null;
  /** After a Regenerate: every reply of this turn, oldest first, and the one shown (this one). */
  alternatives?: string[];
  chosen?: number;
}

type MessageRow = Pick<ChatMessage, "id" | "role" | "content" | "timestamp" | "lore" | "personaVersion" | "alternatives" | "chosen">;

function view(row: MessageRow): ChatMessageView {
  const alternatives = row.role === "assistant" && Array.isArray(row.alternatives) && row.alternatives.length > 1 ? row.alternatives : null;
  return {
    id: row.id,
    role: row.role === "assistant" ? "assistant" : "user",
    content: row.content,
    timestamp: new Date(row.timestamp).toISOString(),
    ...(row.role === "assistant" && Array.isArray(row.lore) && row.lore.length ? { lore: row.lore } : {}),
    ...(row.role === "assistant" && row.personaVersion ? { version: row.personaVersion } : {}),
    ...(alternatives ? { alternatives: alternatives.map((a) => a.content), chosen: row.chosen ?? alternatives.length - 1 } : {}),
  };
}

const MESSAGE_COLUMNS = {
  id: chatMessages.id,
  role: chatMessages.role,
  content: chatMessages.content,
  timestamp: chatMessages.timestamp,
  lore: chatMessages.lore,
  personaVersion: chatMessages.personaVersion,
  alternatives: chatMessages.alternatives,
  chosen: chatMessages.chosen,
};

/** A stored reply as an alternative of its turn. */
function asAlternative(row: Pick<ChatMessage, "content" | "lore" | "personaVersion" | "timestamp">): StoredAlternative {
  return { content: row.content, lore: row.lore ?? null, version: row.personaVersion ?? null, at: new Date(row.timestamp).toISOString() };
}

/** The whole conversation with one of the user's personas, oldest first. */
export async function listMessages(user: CurrentUser, personaId: string): Promise<ChatMessageView[]> {
  await getPersona(user, personaId);
  const rows = await withUser(user.id, (tx) =>
    tx
      .select(MESSAGE_COLUMNS)
      .from(chatMessages)
      .where(and(eq(chatMessages.personaId, personaId), eq(chatMessages.isDeleted, false)))
      .orderBy(asc(chatMessages.seq)),
  );
  return rows.map(view);
}

/** A 409 unless the persona may chat: drafts must be finished, archived ones are read-only. */
function assertCanChat(persona: Pick<Persona, "status">): void {
  const availability = chatAvailability(persona.status);
  if (availability === "draft") throw new ChatError(409, CHAT_MESSAGES.draft, undefined, "persona_draft");
  if (availability === "archived") throw new ChatError(409, CHAT_MESSAGES.archived, undefined, "persona_archived");
}

/** Deletes the whole conversation (Clear). Returns how many messages went. */
export async function clearChat(user: CurrentUser, personaId: string): Promise<number> {
  const persona = await getPersona(user, personaId);
  assertCanChat(persona);
  const removed = await withUser(user.id, (tx) =>
    tx.delete(chatMessages).where(eq(chatMessages.personaId, personaId)).returning({ id: chatMessages.id }),
  );
  return removed.length;
}

// ---------------------------------------------------------------- export and import

/**
 * The conversation as a file (docs/product.md, Chat: export and import): text, Markdown or
 * SillyTavern's JSONL, each saying that the persona's replies are AI-generated and by what.
 */
export async function chatExport(user: CurrentUser, personaId: string, format: ChatFormat) {
  const persona = await getPersona(user, personaId);
  const messages = await listMessages(user, personaId);
  return chatFile(format, {
    personaName: persona.name,
    messages,
    notice: chatTranscriptNotice(persona.name, generatorsInUse().chat),
    exportedAt: new Date(),
  });
}

/**
 * A SillyTavern chat file becomes the persona's conversation, in one transaction: only into an
 * empty conversation (an import never replaces messages), and only where the persona can chat.
 * Returns how many messages it added.
 */
export async function importChat(user: CurrentUser, personaId: string, bytes: Uint8Array): Promise<number> {
  const persona = await getPersona(user, personaId);
  assertCanChat(persona);
  let imported;
  try {
    imported = readChatJsonl(bytes);
  } catch (error) {
    if (error instanceof ChatFileError) throw new ChatError(error.status, error.message, { file: [error.message] }, "invalid_chat_file");
    throw error;
  }
  if (inFlight.has(persona.id)) throw new ChatError(409, CHAT_MESSAGES.busy, undefined, "reply_in_progress");
  const now = Date.now();
  return withUser(user.id, async (tx) => {
    // Two imports at once: the second waits here, then finds the first one's messages.
    await tx.execute(sql`select 1 from public.personas where id = ${persona.id} for update`);
    const [existing] = await tx.select({ id: chatMessages.id }).from(chatMessages).where(eq(chatMessages.personaId, persona.id)).limit(1);
    if (existing)
      throw new ChatError(409, CHAT_IMPORT_MESSAGES.notEmpty, { file: [CHAT_IMPORT_MESSAGES.notEmpty] }, "conversation_not_empty");
    const rows = imported.map((message) => {
      // The file's own dates where they read, never later than now; the order is the file's.
      const timestamp = new Date(Math.min(message.sentAt?.getTime() ?? now, now));
      const at = timestamp.toISOString();
      return {
        personaId: persona.id,
        role: message.role,
        content: message.content,
        timestamp,
        // A reply's swipes come in as its alternatives.
        ...(message.alternatives
          ? {
              alternatives: message.alternatives.map((content) => ({ content, lore: null, version: null, at })),
              chosen: message.chosen ?? 0,
            }
          : {}),
      };
    });
    for (let at = 0; at < rows.length; at += 500) await tx.insert(chatMessages).values(rows.slice(at, at + 500));
    return rows.length;
  });
}

// ---------------------------------------------------------------- replies

interface InFlight {
  clientKey: string | null;
  settled: Promise<void>;
}

/** Replies being written, per persona (this process). */
const inFlight = new Map<string, InFlight>();

export interface ReplyRequest {
  /** The user's message (a send); absent for a regenerate. */
  message?: unknown;
  regenerate?: boolean;
  /** The no-JavaScript form's idempotency key: the same key twice stores one message. */
  clientKey?: string | null;
}

export interface CompleteOptions {
  /** Each piece of the reply as it is written. */
  onToken?: (text: string) => void;
  /** The caller went away: stop writing; nothing more is stored. */
  signal?: AbortSignal;
  /** The caller shows the reply as it arrives (the embedded responder then writes at a reading pace). */
  live?: boolean;
}

export type PreparedReply =
  | { duplicate: true; settled: Promise<void> }
  | {
      duplicate: false;
      /** Writes the reply and stores it. Call exactly once (or cancel()). */
      complete(options?: CompleteOptions): Promise<ChatReply>;
      /** Gives the persona back without writing a reply. */
      cancel(): void;
    };

function validMessage(raw: unknown): string {
  const checked = checkChatMessage(raw);
  if (!checked.ok) throw new ChatError(400, checked.error, { message: [checked.error] });
  return checked.message;
}

/**
 * Everything before a reply is written: the checks (message, persona, limits), the user's
 * message stored, and the conversation window read. A failure here is a ChatError with its
 * status; the persona is then free again.
 */
export async function prepareReply(user: CurrentUser, personaId: string, request: ReplyRequest): Promise<PreparedReply> {
  const text = request.regenerate ? null : validMessage(request.message);
  const clientKey = request.clientKey && isUuid(request.clientKey) ? request.clientKey.toLowerCase() : null;
  const persona = await getPersona(user, personaId);
  assertCanChat(persona);

  const running = inFlight.get(persona.id);
  if (clientKey) {
    // A double submit of the no-JavaScript form: the first one is (or was) answered.
    if (running?.clientKey === clientKey) return { duplicate: true, settled: running.settled };
    const [seen] = await withUser(user.id, (tx) =>
      tx
        .select({ id: chatMessages.id })
        .from(chatMessages)
        .where(and(eq(chatMessages.personaId, persona.id), eq(chatMessages.clientKey, clientKey))),
    );
    if (seen) return { duplicate: true, settled: inFlight.get(persona.id)?.settled ?? Promise.resolve() };
  }
  const current = inFlight.get(persona.id);
  if (current) {
    if (clientKey && current.clientKey === clientKey) return { duplicate: true, settled: current.settled };
    throw new ChatError(409, CHAT_MESSAGES.busy, undefined, "reply_in_progress");
  }

  let release!: () => void;
  const settled = new Promise<void>((resolve) => (release = resolve));
  const mine: InFlight = { clientKey, settled };
  inFlight.set(persona.id, mine);
  const free = () => {
    if (inFlight.get(persona.id) === mine) inFlight.delete(persona.id);
    release();
  };

  try {
    try {
      await consumeChatAllowance(user.id);
      // With a model key, a reply is one call off the creator's daily ceiling.
      await takeModelCalls(user, 1);
    } catch (error) {
      if (error instanceof RateLimitedError) throw new ChatError(429, error.message, undefined, "rate_limited", error.retryAfterSeconds);
      throw error;
    }
    const turn = await withUser(user.id, async (tx) => {
      const recent = await tx
        .select({ ...MESSAGE_COLUMNS, clientKey: chatMessages.clientKey })
        .from(chatMessages)
        .where(and(eq(chatMessages.personaId, persona.id), eq(chatMessages.isDeleted, false)))
        .orderBy(desc(chatMessages.seq))
        .limit(CHAT_HISTORY_WINDOW);
      recent.reverse();
      const last = recent.at(-1);
      if (text === null) {
        // Regenerate: replace the last reply, or answer a message left without one.
        if (!last) throw new ChatError(409, CHAT_MESSAGES.nothingToRegenerate, undefined, "nothing_to_regenerate");
        const replacing = last.role === "assistant" ? last : null;
        const history = replacing ? recent.slice(0, -1) : recent;
        const anchor = [...history].reverse().find((m) => m.role === "user");
        if (!anchor) throw new ChatError(409, CHAT_MESSAGES.nothingToRegenerate, undefined, "nothing_to_regenerate");
        return { history, anchorId: anchor.id, replacing };
      }
      if (last?.role === "user" && last.content === text) {
        // The same message again right after a failed reply: answer it, do not store it twice.
        // A form's key moves to it, so a double submit of this retry is still one message.
        if (clientKey) await tx.update(chatMessages).set({ clientKey }).where(eq(chatMessages.id, last.id));
        return { history: recent, anchorId: last.id, replacing: null };
      }
      const [stored] = await tx
        .insert(chatMessages)
        .values({ personaId: persona.id, role: "user", content: text, clientKey })
        .onConflictDoNothing()
        .returning(MESSAGE_COLUMNS);
      if (!stored) return null; // the same form key, stored a moment ago by a double submit
      return { history: [...recent.slice(1 - CHAT_HISTORY_WINDOW), stored], anchorId: stored.id, replacing: null };
    });
    if (!turn) {
      free();
      return { duplicate: true, settled: Promise.resolve() };
    }

    const history: ChatTurn[] = turn.history.map((m) => ({ role: m.role === "assistant" ? "assistant" : "user", content: m.content }));
    // The lore entries this reply may draw on: keys in the last messages, and the constant ones.
    const lore = await loreForReply(
      persona,
      history.map((m) => m.content),
    );
    const input = {
      personaId: persona.id,
      persona: {
        name: persona.name,
        type: persona.type,
        gender: persona.gender,
        ageRange: persona.ageRange,
        interests: persona.interests,
        personality: persona.personality,
        description: persona.description,
        backstory: persona.backstory,
        extended: personaExtended(persona),
        voice: personaVoice(persona),
      },
      history,
      lore: lore.map(({ id, name, content, kind, keys }) => ({ id, name, content, kind, keys })),
      // A new alternative says something none of the kept ones said.
      avoid: turn.replacing ? (turn.replacing.alternatives?.map((a) => a.content) ?? [turn.replacing.content]) : [],
    };

    let used = false;
    return {
      duplicate: false,
      cancel: free,
      async complete({ onToken, signal, live }: CompleteOptions = {}) {
        if (used) throw new Error("A prepared reply is completed once.");
        used = true;
        let reply = "";
        try {
          for await (const piece of textGenerator().chatReply(input, { signal, live })) {
            if (signal?.aborted) break;
            reply += piece;
            onToken?.(piece);
          }
          if (signal?.aborted) throw new AiError("timeout", "The client went away before the reply was complete.");
          reply = reply.trim();
          if (reply === "") throw new AiError("bad_response", "The reply was empty.");
          const stored = await withUser(user.id, async (tx) => {
            // Clear may have run meanwhile: then the reply has nothing to answer.
            const [anchor] = await tx.select({ id: chatMessages.id }).from(chatMessages).where(eq(chatMessages.id, turn.anchorId));
            if (!anchor) return null;
            // The version the reply was written with: 'which version said this?' (docs/product.md, Persona tests).
            const [{ version } = { version: null }] = await tx
              .select({ version: sql<number | null>`max(${personaVersions.version})` })
              .from(personaVersions)
              .where(eq(personaVersions.personaId, persona.id));
            const written = {
              content: reply,
              lore: lore.length ? lore.map(({ id, name }) => ({ id, name })) : null,
              personaVersion: version,
            };
            await tx.insert(generations).values({ userId: user.id, kind: "chat" });
            // A Regenerate keeps the reply it replaces as an alternative (docs/product.md, Chat: alternatives).
            const [replaced] = turn.replacing
              ? await tx.select(MESSAGE_COLUMNS).from(chatMessages).where(eq(chatMessages.id, turn.replacing.id)).for("update")
              : [];
            if (replaced) {
              const now = new Date();
              const next = withAlternative(replaced.alternatives, asAlternative(replaced), {
                content: reply,
                lore: written.lore,
                version,
                at: now.toISOString(),
              });
              const [row] = await tx
                .update(chatMessages)
                .set({ ...written, timestamp: now, ...next, checks: null })
                .where(eq(chatMessages.id, replaced.id))
                .returning(MESSAGE_COLUMNS);
              return row!;
            }
            const [row] = await tx
              .insert(chatMessages)
              .values({ personaId: persona.id, role: "assistant", ...written })
              .returning(MESSAGE_COLUMNS);
            return row!;
          });
          if (!stored) throw new ChatError(409, CHAT_FAILED, undefined, "conversation_cleared");
          // The reply checks run once the reply is answered (docs/product.md, Chat: checks on your chats).
          checkReplyLater(
            user,
            persona,
            stored.id,
            reply,
            turn.history.filter((m) => m.role === "assistant").map((m) => m.content),
          );
          const shown = view(stored);
          return {
            messageId: stored.id,
            response: reply,
            lore: lore.map((entry) => entry.id),
            version: stored.personaVersion,
            ...(shown.alternatives ? { alternatives: shown.alternatives, chosen: shown.chosen } : {}),
          };
        } catch (error) {
          if (error instanceof AiError) {
            if (!signal?.aborted) console.error(`[ai] chat reply for persona ${persona.id} failed: ${error.code}: ${error.message}`);
            throw new ChatError(502, CHAT_FAILED, undefined, `ai_${error.code}`);
          }
          throw error;
        } finally {
          free();
        }
      },
    };
  } catch (error) {
    free();
    throw error;
  }
}

/** Sends a message and waits for the whole reply; null for a double submit of the same form. */
export async function sendMessage(
  user: CurrentUser,
  personaId: string,
  message: unknown,
  options: { clientKey?: string | null; signal?: AbortSignal } = {},
): Promise<ChatReply | null> {
  const prepared = await prepareReply(user, personaId, { message, clientKey: options.clientKey });
  if (prepared.duplicate) {
    await prepared.settled;
    return null;
  }
  return prepared.complete({ signal: options.signal });
}

/** Writes the last reply again (the old one is replaced), or answers a message left without one. */
export async function regenerateReply(user: CurrentUser, personaId: string, options: { signal?: AbortSignal } = {}): Promise<ChatReply> {
  const prepared = await prepareReply(user, personaId, { regenerate: true });
  if (prepared.duplicate) throw new Error("A regenerate has no form key.");
  return prepared.complete({ signal: options.signal });
}

/**
 * Shows another of the last reply's alternatives (docs/product.md, Chat: alternatives): the one
 * chosen is the one the conversation continues from. `index` counts from 0. Only the last
 * message of the conversation, a reply, can change; never while a reply is being written.
 */
export async function chooseAlternative(user: CurrentUser, personaId: string, messageId: string, index: unknown): Promise<ChatMessageView> {
  const persona = await getPersona(user, personaId);
  if (!isUuid(messageId)) throw new ChatError(404, CHAT_MESSAGES.noSuchMessage, undefined, "message_not_found");
  assertCanChat(persona);
  if (inFlight.has(persona.id)) throw new ChatError(409, CHAT_MESSAGES.busy, undefined, "reply_in_progress");
  const chosen = await withUser(user.id, async (tx) => {
    const [row] = await tx
      .select({ ...MESSAGE_COLUMNS, personaId: chatMessages.personaId, seq: chatMessages.seq })
      .from(chatMessages)
      .where(and(eq(chatMessages.id, messageId), eq(chatMessages.personaId, persona.id), eq(chatMessages.isDeleted, false)))
      .for("update");
    if (!row) throw new ChatError(404, CHAT_MESSAGES.noSuchMessage, undefined, "message_not_found");
    const count = row.alternatives?.length ?? 1;
    const at = typeof index === "string" && /^\d{1,3}$/.test(index.trim()) ? Number(index) : index;
    if (typeof at !== "number" || !Number.isInteger(at) || at < 0 || at >= count) {
      const message = CHAT_MESSAGES.noSuchAlternative(count);
      throw new ChatError(400, message, { index: [message] }, "no_such_alternative");
    }
    const [newer] = await tx
      .select({ id: chatMessages.id })
      .from(chatMessages)
      .where(and(eq(chatMessages.personaId, persona.id), eq(chatMessages.isDeleted, false), sql`${chatMessages.seq} > ${row.seq}`))
      .limit(1);
    if (row.role !== "assistant" || newer) throw new ChatError(409, CHAT_MESSAGES.notLastReply, undefined, "not_last_reply");
    if (!row.alternatives || at === row.chosen) return { shown: view(row), check: null };
    const picked = row.alternatives[at]!;
    const [updated] = await tx
      .update(chatMessages)
      // The reply shown is checked again (checks null until then).
      .set({
        content: picked.content,
        lore: picked.lore,
        personaVersion: picked.version,
        timestamp: new Date(picked.at),
        chosen: at,
        checks: null,
      })
      .where(eq(chatMessages.id, row.id))
      .returning(MESSAGE_COLUMNS);
    const before = await tx
      .select({ content: chatMessages.content })
      .from(chatMessages)
      .where(and(eq(chatMessages.personaId, persona.id), eq(chatMessages.role, "assistant"), sql`${chatMessages.seq} < ${row.seq}`))
      .orderBy(desc(chatMessages.seq))
      .limit(3);
    return { shown: view(updated!), check: { before: before.map((m) => m.content).reverse() } };
  });
  if (chosen.check) checkReplyLater(user, persona, chosen.shown.id, chosen.shown.content, chosen.check.before);
  return chosen.shown;
}

/**
 * The chat form's post without JavaScript, checked by the message schema as conform submits it:
 * a refused message comes back as the submission's reply, with what was typed.
 */
export function parseChatPost(formData: FormData) {
  return parseWithZod(formData, { schema: chatMessageSchema });
}

/** The idempotency key of one rendering of the no-JavaScript send form. */
export function newFormKey(): string {
  return randomUUID();
}

/** Tests: forget replies in flight. */
export function resetChatState(): void {
  inFlight.clear();
}
