// A conversation leaving the app and coming back (docs/product.md, Chat: export and import):
// plain text, Markdown, and SillyTavern's chat file (JSONL: a header line, then one line per
// message), written from the stored messages and read back into them. Pure and isomorphic.
import { CHAT_ALTERNATIVES_MAX } from "./chat";

/** One message as the exports write it and an import reads it. */
export interface TransferMessage {
  role: "user" | "assistant";
  content: string;
  /** ISO 8601 (UTC). */
  timestamp: string;
  /** The persona version a reply was written with. */
  version?: number;
  /** A reply's alternatives when it has more than one (content is alternatives[chosen]). */
  alternatives?: readonly string[];
  chosen?: number;
}

export const CHAT_FORMATS = ["txt", "jsonl", "md"] as const;
export type ChatFormat = (typeof CHAT_FORMATS)[number];

export function isChatFormat(value: unknown): value is ChatFormat {
  return typeof value === "string" && (CHAT_FORMATS as readonly string[]).includes(value);
}

export const CHAT_FORMAT_LABELS: Record<ChatFormat, string> = {
  txt: "Text (.txt)",
  jsonl: "SillyTavern chat (.jsonl)",
  md: "Markdown (.md)",
};

const CONTENT_TYPES: Record<ChatFormat, string> = {
  txt: "text/plain; charset=utf-8",
  jsonl: "application/jsonl; charset=utf-8",
  md: "text/markdown; charset=utf-8",
};

/** An imported chat's limits: the file, its messages, one message (the stored column's limit). */
export const CHAT_IMPORT_LIMITS = {
  bytes: 5 * 1024 * 1024,
  messages: 2_000,
  messageChars: 16_000,
} as const;

export const CHAT_IMPORT_MESSAGES = {
  empty: "Choose a SillyTavern chat file (.jsonl) to import.",
  tooLarge: `The chat file is larger than ${CHAT_IMPORT_LIMITS.bytes / 1024 / 1024} MB.`,
  notText: "The chat file is not text (UTF-8).",
  header: "This is not a SillyTavern chat: its first line must be the chat's header (user_name, character_name).",
  noMessages: "The chat file holds no messages.",
  tooMany: `The chat holds more than ${CHAT_IMPORT_LIMITS.messages.toLocaleString("en-US")} messages.`,
  notJson: (line: number) => `Line ${line} is not JSON.`,
  notMessage: (line: number) => `Line ${line} is not a chat message (it needs "mes" as text and "is_user" as true or false).`,
  messageTooLong: (line: number) =>
    `Line ${line}: a message may be at most ${CHAT_IMPORT_LIMITS.messageChars.toLocaleString("en-US")} characters.`,
  notEmpty: "Clear the conversation before importing one: an import never replaces messages.",
} as const;

export const CHAT_IMPORT_TEXT = {
  label: "Import a SillyTavern chat (.jsonl)",
  button: "Import chat",
  imported: (count: number) => ({
    title: "Chat Imported",
    description: `${count.toLocaleString("en-US")} ${count === 1 ? "message was" : "messages were"} added to the conversation.`,
  }),
  failed: { title: "Chat Not Imported" },
} as const;

/** A chat import the file itself refuses: a status (400 or 413) and the message a creator reads. */
export class ChatFileError extends Error {
  override name = "ChatFileError";
  constructor(
    public readonly status: 400 | 413,
    message: string,
  ) {
    super(message);
  }
}

export interface ChatFileInput {
  personaName: string;
  messages: readonly TransferMessage[];
  /** The line saying the persona's replies are AI-generated, and by what. */
  notice: string;
  exportedAt: Date;
}

const utc = (iso: string) => `${iso.slice(0, 16).replace("T", " ")} UTC`;

function fileStem(name: string): string {
  return name.replace(/[^\p{L}\p{N}]+/gu, "-").replace(/^-+|-+$/g, "") || "persona";
}

/** The conversation as a file: its text, content type and file name. */
export function chatFile(format: ChatFormat, input: ChatFileInput): { text: string; contentType: string; filename: string } {
  const text = format === "jsonl" ? chatJsonl(input) : format === "md" ? chatMarkdown(input) : chatText(input);
  return { text, contentType: CONTENT_TYPES[format], filename: `${fileStem(input.personaName)}-chat.${format}` };
}

function chatText({ personaName, messages, notice, exportedAt }: ChatFileInput): string {
  const lines = [
    `Chat with ${personaName}, exported ${utc(exportedAt.toISOString())}`,
    notice,
    "",
    ...messages.flatMap((message) => [
      message.role === "user"
        ? `You (${utc(message.timestamp)}):`
        : `${personaName} (${utc(message.timestamp)}${message.version ? `, version ${message.version}` : ""}):`,
      message.content,
      "",
    ]),
  ];
  if (messages.length === 0) lines.push("No messages yet.");
  return lines.join("\n");
}

function chatMarkdown({ personaName, messages, notice, exportedAt }: ChatFileInput): string {
  const lines = [`# Chat with ${personaName}`, "", `_Exported ${utc(exportedAt.toISOString())}. ${notice}_`, ""];
  for (const message of messages) {
    const who = message.role === "user" ? "You" : personaName;
    const meta = `${utc(message.timestamp)}${message.role === "assistant" && message.version ? `, version ${message.version}` : ""}`;
    lines.push(`**${who}** (${meta}):`, "", message.content, "");
  }
  if (messages.length === 0) lines.push("No messages yet.", "");
  return lines.join("\n");
}

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** SillyTavern's own way of writing a message's date ("December 7, 2026 7:20pm"), in UTC. */
export function sillyTavernDate(iso: string): string {
  const d = new Date(iso);
  const hour = d.getUTCHours() % 12 || 12;
  const minutes = String(d.getUTCMinutes()).padStart(2, "0");
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()} ${hour}:${minutes}${d.getUTCHours() < 12 ? "am" : "pm"}`;
}

/**
 * SillyTavern's chat file: the header line, then each message; a reply's alternatives are its
 * swipes (`swipe_id` the one shown), any other message is its own one swipe.
 */
function chatJsonl({ personaName, messages, notice, exportedAt }: ChatFileInput): string {
  const iso = exportedAt.toISOString();
  const header = {
    user_name: "You",
    character_name: personaName,
    create_date: `${iso.slice(0, 10)}@${iso.slice(11, 13)}h${iso.slice(14, 16)}m${iso.slice(17, 19)}s`,
    chat_metadata: { personaforge: { exported_at: iso, notice } },
  };
  const lines = messages.map((message) => {
    const user = message.role === "user";
    return {
      name: user ? "You" : personaName,
      is_user: user,
      is_system: false,
      send_date: sillyTavernDate(message.timestamp),
      mes: message.content,
      swipes: message.alternatives && message.alternatives.length > 1 ? message.alternatives : [message.content],
      swipe_id: message.alternatives && message.alternatives.length > 1 ? (message.chosen ?? 0) : 0,
      extra: user || !message.version ? {} : { personaforge_version: message.version },
    };
  });
  return [header, ...lines].map((line) => JSON.stringify(line)).join("\n") + "\n";
}

/** A message of an imported chat: who said it, what, and when (the file's date when it has one that reads). */
export interface ImportedMessage {
  role: "user" | "assistant";
  content: string;
  sentAt: Date | null;
  /** A reply's swipes when it has more than one that reads (content is alternatives[chosen]). */
  alternatives?: string[];
  chosen?: number;
}

const cleanText = (text: string) => text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, "").trim();

/**
 * A reply's swipes as alternatives: the ones that are text, not empty and not too long, at
 * most CHAT_ALTERNATIVES_MAX (the chosen one and those nearest before it are kept).
 */
function swipesOf(swipes: readonly unknown[], chosenAt: number): { alternatives: string[]; chosen: number } | null {
  const kept: string[] = [];
  let chosen = -1;
  swipes.forEach((swipe, i) => {
    if (typeof swipe !== "string") return;
    const text = cleanText(swipe);
    if (text === "" || text.length > CHAT_IMPORT_LIMITS.messageChars) return;
    if (i === chosenAt) chosen = kept.length;
    kept.push(text);
  });
  if (kept.length < 2 || chosen < 0) return null;
  const from = Math.max(0, Math.min(chosen - CHAT_ALTERNATIVES_MAX + 1, kept.length - CHAT_ALTERNATIVES_MAX));
  return { alternatives: kept.slice(from, from + CHAT_ALTERNATIVES_MAX), chosen: chosen - from };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

function sentAt(value: unknown): Date | null {
  if (typeof value === "number" && Number.isFinite(value)) return new Date(value);
  if (typeof value !== "string" || value.trim() === "") return null;
  // SillyTavern writes "December 7, 2026 7:20pm", older files an ISO date, newer ones epoch milliseconds.
  const st = /^([A-Z][a-z]+) (\d{1,2}), (\d{4}) (\d{1,2}):(\d{2}) ?(am|pm)$/i.exec(value.trim());
  if (st) {
    const month = MONTHS.findIndex((m) => m.toLowerCase() === st[1]!.toLowerCase());
    if (month < 0) return null;
    const hour = (Number(st[4]) % 12) + (st[6]!.toLowerCase() === "pm" ? 12 : 0);
    return new Date(Date.UTC(Number(st[3]), month, Number(st[2]), hour, Number(st[5])));
  }
  const parsed = Date.parse(value);
  return Number.isNaN(parsed) ? null : new Date(parsed);
}

/**
 * Reads a SillyTavern chat file. The chosen swipe of each message is its text; system and
 * narrator lines (`is_system`) are left out. Refuses, with the line it stopped at, anything that
 * is not such a file. Control characters other than tab and line breaks are dropped.
 */
export function readChatJsonl(bytes: Uint8Array): ImportedMessage[] {
  if (bytes.byteLength === 0) throw new ChatFileError(400, CHAT_IMPORT_MESSAGES.empty);
  if (bytes.byteLength > CHAT_IMPORT_LIMITS.bytes) throw new ChatFileError(413, CHAT_IMPORT_MESSAGES.tooLarge);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new ChatFileError(400, CHAT_IMPORT_MESSAGES.notText);
  }
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  let headerSeen = false;
  const messages: ImportedMessage[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new ChatFileError(400, headerSeen ? CHAT_IMPORT_MESSAGES.notJson(i + 1) : CHAT_IMPORT_MESSAGES.header);
    }
    if (!headerSeen) {
      const header =
        isObject(value) && !("mes" in value) && (typeof value.user_name === "string" || typeof value.character_name === "string");
      if (!header) throw new ChatFileError(400, CHAT_IMPORT_MESSAGES.header);
      headerSeen = true;
      continue;
    }
    if (!isObject(value) || typeof value.is_user !== "boolean") throw new ChatFileError(400, CHAT_IMPORT_MESSAGES.notMessage(i + 1));
    if (value.is_system === true) continue;
    const swipes = Array.isArray(value.swipes) ? value.swipes : null;
    const chosen = swipes && typeof value.swipe_id === "number" ? swipes[value.swipe_id] : undefined;
    const mes = typeof chosen === "string" ? chosen : value.mes;
    if (typeof mes !== "string") throw new ChatFileError(400, CHAT_IMPORT_MESSAGES.notMessage(i + 1));
    const content = cleanText(mes);
    if (content === "") continue;
    if (content.length > CHAT_IMPORT_LIMITS.messageChars) throw new ChatFileError(400, CHAT_IMPORT_MESSAGES.messageTooLong(i + 1));
    if (messages.length >= CHAT_IMPORT_LIMITS.messages) throw new ChatFileError(400, CHAT_IMPORT_MESSAGES.tooMany);
    const alternatives = !value.is_user && swipes && typeof chosen === "string" ? swipesOf(swipes, value.swipe_id as number) : null;
    messages.push({ role: value.is_user ? "user" : "assistant", content, sentAt: sentAt(value.send_date), ...alternatives });
  }
  if (!headerSeen) throw new ChatFileError(400, CHAT_IMPORT_MESSAGES.header);
  if (messages.length === 0) throw new ChatFileError(400, CHAT_IMPORT_MESSAGES.noMessages);
  return messages;
}
