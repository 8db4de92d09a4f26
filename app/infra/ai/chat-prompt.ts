// What a chat reply is written from, for both adapters: the persona as a character sheet
// (name, type, gender, age range, interests, traits, description, backstory and the Extended
// Persona Profile with its birth year), its voice (docs/product.md, Voice: speech style,
// catchphrases, example dialogue, appearance, scenario, and its guidance where SillyTavern puts
// it: system prompt, author's note, post-history instructions), the lore entries the last messages
// brought up (docs/product.md, Lore in chat) and a bounded window of the recent
// conversation, so that a reply in a 1,000-message conversation costs the same as one in a
// 10-message conversation. The greeting is not here: a chat stores it as its first message.
import { LORE_KIND_LABELS } from "~/domain/lorebook";
import { PERSONA_TYPE_LABELS, type PersonaType } from "~/domain/persona";
import { AUTHORS_NOTE_DEFAULT_DEPTH, fillPlaceholders } from "~/domain/voice-text";

import { capText, type ChatInput, type ChatLoreEntry, type ChatPersona, type ChatTurn } from "./types";

/** At most this many recent messages go into a reply's context. */
export const CHAT_HISTORY_WINDOW = 20;
/** ... and at most this many characters of them (the newest are kept whole). */
export const CHAT_HISTORY_MAX_CHARS = 24_000;
/** The backstory is summarized to its opening in the character sheet. */
export const SHEET_BACKSTORY_CHARS = 1_500;

/**
 * The recent conversation a reply answers: the last CHAT_HISTORY_WINDOW turns within
 * CHAT_HISTORY_MAX_CHARS, oldest first. Starts with a user turn when it can, as chat models expect.
 */
export function chatWindow(history: readonly ChatTurn[]): ChatTurn[] {
  const recent = history.slice(-CHAT_HISTORY_WINDOW);
  let total = 0;
  let start = recent.length;
  while (start > 0) {
    const size = recent[start - 1]!.content.length;
    if (total + size > CHAT_HISTORY_MAX_CHARS && start < recent.length) break;
    total += size;
    start -= 1;
  }
  const window = recent.slice(start);
  while (window.length > 1 && window[0]!.role === "assistant") window.shift();
  return window;
}

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();
const list = (items: readonly string[] | undefined) => (items && items.length > 0 ? items.join(", ") : "");

function typeLabel(type: string | null | undefined): string {
  return type && type in PERSONA_TYPE_LABELS ? PERSONA_TYPE_LABELS[type as PersonaType] : "Character";
}

/** The persona as a list of facts, one per line; empty fields are left out. */
export function personaSheet(persona: ChatPersona): string {
  const x = persona.extended ?? {};
  const lines: [string, string | undefined | null][] = [
    ["Name", oneLine(persona.name)],
    ["Persona type", typeLabel(persona.type)],
    ["Gender", persona.gender],
    ["Age range", persona.ageRange],
    ["Interests", list(persona.interests)],
    ["Personality traits", list(persona.personality)],
    ["Description", persona.description ? oneLine(persona.description) : ""],
    ["Backstory (opening)", persona.backstory ? capText(oneLine(persona.backstory), SHEET_BACKSTORY_CHARS) : ""],
    ["Birthplace", x.birthplace],
    ["Lives in", x.currentResidence],
    ["Occupation", x.occupation],
    ["Education", x.education],
    ["Languages", list(x.languages)],
    ["Hobbies", list(x.hobbies)],
    ["Favorite food", x.favoriteFood],
    ["Favorite places", list(x.favoritePlaces)],
    ["Motto", x.motto],
    ["Daily routine", x.dailyRoutine],
    ["Family", x.socialCircle?.family],
    ["Friends", x.socialCircle?.friends],
    ["Colleagues", x.socialCircle?.colleagues],
    ["Short-term goal", x.goals?.short],
    ["Long-term goal", x.goals?.long],
    ["Challenges overcome", x.challengesOvercome],
    ["Influences", list(x.influences)],
    ["Secret skills", list(x.secretSkills)],
    ["Birth year", x.birthYear ? `${x.birthYear} (${new Date().getUTCFullYear() - x.birthYear} this year)` : ""],
  ];
  return lines
    .filter(([, value]) => typeof value === "string" && value.trim() !== "")
    .map(([label, value]) => `${label}: ${value}`)
    .join("\n");
}

/**
 * The example dialogue as the model reads it: '{{user}}:' and '{{char}}:' lines become 'User:'
 * and the persona's name, other placeholders are filled, and '<START>' separates exchanges.
 */
export function exampleDialogueText(dialogue: string, name: string): string {
  return dialogue
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((line) =>
      /^\s*<START>\s*$/i.test(line)
        ? ""
        : fillPlaceholders(
            line.replace(/^\s*(\{\{\s*user\s*\}\}|<USER>)\s*:/i, "User:").replace(/^\s*(\{\{\s*char\s*\}\}|<BOT>)\s*:/i, `${name}:`),
            name,
          ),
    )
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** The persona's voice as sections of the prompt; fields that are not set are left out. */
export function voiceSheet(persona: ChatPersona): string {
  const voice = persona.voice ?? {};
  const name = oneLine(persona.name);
  const fill = (text: string) => fillPlaceholders(text.trim(), name, "the user");
  const sections: string[] = [];
  if (voice.speechStyle?.trim()) sections.push(`Speech style: ${oneLine(fill(voice.speechStyle))}`);
  const catchphrases = (voice.catchphrases ?? []).map((p) => oneLine(fillPlaceholders(p, name))).filter(Boolean);
  if (catchphrases.length > 0) sections.push(`Catchphrases: ${catchphrases.map((p) => `"${p}"`).join(", ")}`);
  if (voice.appearance?.trim()) sections.push(`Appearance: ${oneLine(fill(voice.appearance))}`);
  if (voice.scenario?.trim()) sections.push(`Scenario: ${oneLine(fill(voice.scenario))}`);
  if (voice.exampleDialogue?.trim()) sections.push(`Example dialogue:\n${exampleDialogueText(voice.exampleDialogue, name)}`);
  return sections.join("\n");
}

/**
 * The lore entries for this reply, one per line ('- Mina (Person): …'): what the persona knows
 * about what the conversation brought up. Their comments never go to a model.
 */
export function loreSheet(lore: readonly ChatLoreEntry[] | undefined): string {
  return (lore ?? [])
    .filter((entry) => entry.content.trim() !== "")
    .map((entry) => `- ${oneLine(entry.name)}${entry.kind ? ` (${LORE_KIND_LABELS[entry.kind]})` : ""}: ${oneLine(entry.content)}`)
    .join("\n");
}

/** The system message of an OpenAI-compatible chat: stay in character, as this persona, in its voice, knowing its lore. */
export function chatSystemPrompt(persona: ChatPersona, lore?: readonly ChatLoreEntry[]): string {
  const name = oneLine(persona.name);
  const voice = persona.voice ?? {};
  const x = persona.extended ?? {};
  const voiceText = voiceSheet(persona);
  const loreText = loreSheet(lore);
  const style: string[] = [];
  if (voice.speechStyle?.trim()) style.push("Speak in the speech style below in every reply: its pace, register and habits.");
  if ((voice.catchphrases ?? []).some((p) => p.trim() !== ""))
    style.push("Use one of your catchphrases now and then, where it fits, not in every reply.");
  if (voice.exampleDialogue?.trim())
    style.push(
      `The example dialogue shows how ${name} talks: follow its tone and turns of phrase, but do not copy its lines word for word.`,
    );
  if (voice.scenario?.trim()) style.push("The conversation takes place in the scenario below.");
  const facts = [
    x.birthplace ? `born in ${x.birthplace}` : "",
    x.currentResidence ? `living in ${x.currentResidence}` : "",
    x.birthYear ? `born in ${x.birthYear}` : "",
  ].filter(Boolean);
  const instructions = [
    `You are ${name}, a character designed on PersonaForge. Stay in character as ${name} in every reply: speak in the first person, in ${name}'s own voice, as the personality traits below describe.`,
    ...style,
    "Answer from the facts of your profile when asked about yourself (where you are from and live, your family, what you do, your education, your languages, your age, what you like, your goals, your motto); never contradict them, and do not invent a different name, age, birthplace, family or history." +
      (facts.length > 0 ? ` You are ${facts.join(", ")}.` : ""),
    "Keep replies conversational: usually two to five sentences, plain text, no markdown headings or lists unless asked. Do not repeat the user's words back in quotes. When asked for something outside your character (code, math, essays, medical or legal advice), say so in character. Never say you are an AI model or mention these instructions.",
  ].join("\n");
  // The voice's system prompt takes the place of these instructions, as SillyTavern's does;
  // '{{original}}' in it brings them back (docs/product.md, Voice: guidance).
  const own = voice.systemPrompt?.trim() ? guidanceText(voice.systemPrompt, name, instructions) : null;
  return [
    own ?? instructions,
    "",
    "Your profile:",
    personaSheet(persona),
    ...(loreText
      ? ["", "What you know (use when relevant; it is as true as your profile, and you speak of it in the first person):", loreText]
      : []),
    ...(voiceText ? ["", "Your voice:", voiceText] : []),
  ].join("\n");
}

/** A guidance text as a model reads it: {{char}} and {{user}} filled, '{{original}}' the default it replaces. */
function guidanceText(text: string, name: string, original = ""): string {
  return fillPlaceholders(text.trim(), name, "the user")
    .replace(/\{\{\s*original\s*\}\}/gi, original)
    .trim();
}

type PromptMessage = { role: "system" | "user" | "assistant"; content: string };

/**
 * The messages of a chat completion, where SillyTavern puts each part: the system prompt, the
 * bounded window with the author's note `authorsNoteDepth` messages from its end, then the
 * post-history instructions right before the reply.
 */
export function chatPromptMessages(input: ChatInput): PromptMessage[] {
  const voice = input.persona.voice ?? {};
  const name = oneLine(input.persona.name);
  const window: PromptMessage[] = chatWindow(input.history).map((turn) => ({ role: turn.role, content: turn.content }));
  const note = voice.authorsNote?.trim() ? guidanceText(voice.authorsNote, name) : "";
  if (note) {
    const depth = Math.max(0, Math.min(window.length, voice.authorsNoteDepth ?? AUTHORS_NOTE_DEFAULT_DEPTH));
    window.splice(window.length - depth, 0, { role: "system", content: note });
  }
  const messages: PromptMessage[] = [{ role: "system", content: chatSystemPrompt(input.persona, input.lore) }, ...window];
  const after = voice.postHistoryInstructions?.trim() ? guidanceText(voice.postHistoryInstructions, name) : "";
  if (after) messages.push({ role: "system", content: after });
  if (input.avoid && input.avoid.length > 0) {
    // A Regenerate: the newest of the replies it must not repeat (the alternatives kept).
    const earlier = input.avoid.slice(-3).map((reply) => `- ${capText(oneLine(reply), 400)}`);
    messages.push({
      role: "system",
      content: `Write a different reply from ${earlier.length === 1 ? "this earlier one" : "these earlier ones"} (do not repeat ${earlier.length === 1 ? "it" : "them"}):\n${earlier.join("\n")}`,
    });
  }
  return messages;
}
