// Chatting with a persona (docs/product.md, Chat: the panel, messages, states, rules and
// toasts): the panel's texts, the message rules shared by the browser, the page's
// action and the JSON API, and which personas can chat. Pure and isomorphic.
import { PERSONA_LIMITS } from "./persona";

export const CHAT_TEXT = {
  tabProfile: "Full Profile",
  tabChat: "Chat",
  loreUsed: "Lore used",
  writtenWith: (version: number) => `Written with version ${version}`,
  downloadShort: "Download",
  download: (name: string) => `Download the chat with ${name} as text`,
  loading: "Loading conversation history...",
  placeholder: "Type a message...",
  inputLabel: "Message",
  send: "Send",
  clear: "Clear",
  regenerate: "Regenerate response",
  replyToLast: "Get a reply",
  conversationLabel: (name: string) => `Conversation with ${name}`,
  greeting: (name: string) => `Hi there! I'm ${name}. How can I help you today?`,
  typing: (name: string) => `${name} is typing…`,
  you: "You",
  hint: "Enter sends, Shift+Enter makes a new line.",
  clearTitle: "Clear this conversation?",
  clearText: (name: string) => `This deletes your whole conversation with ${name}. It cannot be undone.`,
  clearConfirm: "Clear chat",
  cancel: "Cancel",
  draftNote: "Finish creating this persona to start chatting",
  continueCreating: "Continue Creating",
  archivedNote: "This persona is archived: its conversation is read-only. Restore it to keep chatting.",
} as const;

/** "1 message", "12 messages": the footer. */
export function messageCount(count: number): string {
  return `${count.toLocaleString("en-US")} ${count === 1 ? "message" : "messages"}`;
}

export const CHAT_TOASTS = {
  historyFailed: { title: "Error", description: "Failed to load chat history. Starting a new conversation." },
  sendFailed: { title: "Error", description: "Failed to get a response. Please try again." },
  clearFailed: { title: "Error", description: "Failed to clear chat history. Please try again." },
  cleared: { title: "Chat Cleared", description: "Your conversation history has been cleared." },
} as const;

export const CHAT_MESSAGES = {
  empty: "Message cannot be empty",
  tooLong: `Message must be ${PERSONA_LIMITS.chatMessageMax.toLocaleString("en-US")} characters or less`,
  notText: "Message must be text",
  controlCharacters: "Message cannot contain control characters",
  busy: "Please wait for the reply to your last message.",
  nothingToRegenerate: "There is no reply to regenerate yet.",
  draft: CHAT_TEXT.draftNote,
  archived: CHAT_TEXT.archivedNote,
} as const;

// Control characters other than tab and line breaks (PostgreSQL refuses NUL outright).
const TEXT_CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/** Characters as a person counts them (an emoji is one), like the persona form's counters. */
export function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

export type MessageCheck = { ok: true; message: string } | { ok: false; error: string };

/**
 * A message as it will be stored: line breaks normalized, outer whitespace trimmed. Empty or
 * whitespace-only messages are not sent (docs/product.md, Chat); at most 4,000 characters; no control characters.
 */
export function checkChatMessage(raw: unknown): MessageCheck {
  if (raw === undefined || raw === null) return { ok: false, error: CHAT_MESSAGES.empty };
  if (typeof raw !== "string") return { ok: false, error: CHAT_MESSAGES.notText };
  const message = raw.replace(/\r\n?/g, "\n").trim();
  if (message === "") return { ok: false, error: CHAT_MESSAGES.empty };
  if (characterCount(message) > PERSONA_LIMITS.chatMessageMax) return { ok: false, error: CHAT_MESSAGES.tooLong };
  if (TEXT_CONTROL.test(message)) return { ok: false, error: CHAT_MESSAGES.controlCharacters };
  return { ok: true, message };
}

export type ChatAvailability = "open" | "draft" | "archived";

/** Active personas chat; a draft must be finished first; an archived one is read-only. */
export function chatAvailability(status: string): ChatAvailability {
  if (status === "active") return "open";
  if (status === "in_progress") return "draft";
  return "archived";
}

export interface ChatMessageView {
  id: string;
  role: "user" | "assistant";
  content: string;
  timestamp: string;
  /** A reply's lore entries (docs/product.md, Lore in chat), their names as they were: 'Lore used'. */
  lore?: { id: string; name: string }[];
  /** The persona version a reply was written with (docs/product.md, Persona tests); absent for the creator's messages and older replies. */
  version?: number;
}

/** The persona page's tabs, in the address as ?tab=chat (Full Profile is the default). */
export type PersonaTab = "profile" | "chat";

export function personaTab(search: string | URLSearchParams): PersonaTab {
  const params = typeof search === "string" ? new URLSearchParams(search) : search;
  return params.get("tab") === "chat" ? "chat" : "profile";
}

/** The anchor of the newest message: a no-JavaScript answer lands there. */
export const NEWEST_ANCHOR = "newest";

export function chatHref(personaId: string): string {
  return `/persona/${personaId}?tab=chat#${NEWEST_ANCHOR}`;
}
