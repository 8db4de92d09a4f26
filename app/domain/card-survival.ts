// What survives where (docs/cards.md, What survives where): for each chat front end, what it does
// with each field of a card — used, kept but ignored, dropped or changed — from the table in
// docs/cards.md, whose sources are there. A fact nobody has published (Chub's and JanitorAI's card
// handling is closed) is not in the table: those fields are listed as unsourced, never guessed.
// Pure and small: the card check's page and GET /api/personas/{id}/survival read it.
import { CARD_TARGETS, type CardTarget } from "./card-targets";

export const CARD_FATES = ["used", "kept", "dropped", "changed"] as const;
export type CardFate = (typeof CARD_FATES)[number];

export const CARD_FATE_LABELS: Record<CardFate, string> = { used: "Used", kept: "Kept, not used", dropped: "Dropped", changed: "Changed" };

type Cell = readonly [CardFate, string] | null;
type Row = Record<CardTarget, Cell>;

const row = (cells: Partial<Record<CardTarget, Cell>>): Row =>
  Object.fromEntries(CARD_TARGETS.map((target) => [target, cells[target] ?? null])) as Row;

/** The table of docs/cards.md, What survives where (null: unsourced). */
export const SURVIVAL_TABLE = {
  name: row({
    sillytavern: ["used", "The character's name, {{char}}."],
    risuai: ["used", "{{char}}, unless a nickname is set."],
    agnai: ["used", ""],
    backyard: ["used", "character.name."],
    chub: ["used", ""],
    janitorai: ["used", ""],
  }),
  description: row({
    sillytavern: ["used", "In every prompt."],
    risuai: ["used", "First part of the description block."],
    agnai: ["changed", "Merged with the personality into one persona text."],
    backyard: ["used", "The persona text."],
    chub: ["used", "Part of the character definitions."],
  }),
  personality: row({
    sillytavern: ["used", '"{{char}}\'s personality: …".'],
    risuai: ["used", "Appended to the description."],
    agnai: ["changed", "Merged into the description."],
    backyard: ["dropped", "The archive has no slot for it."],
    chub: ["used", "Part of the character definitions."],
    janitorai: ["used", "Its personality field."],
  }),
  scenario: row({
    sillytavern: ["used", '"Scenario: …".'],
    risuai: ["used", "Appended to the description."],
    agnai: ["used", ""],
    backyard: ["used", "The scenario's narrative."],
    chub: ["used", "Part of the character definitions."],
  }),
  first_mes: row({
    sillytavern: ["used", "The first message."],
    risuai: ["used", "The first message."],
    agnai: ["used", "The greeting."],
    backyard: ["used", "The scenario's first message."],
  }),
  alternate_greetings: row({
    sillytavern: ["used", "Swipes of the first message."],
    risuai: ["used", "A greeting to choose."],
    agnai: ["used", "Retries of the greeting."],
    backyard: ["changed", "One scenario each."],
  }),
  mes_example: row({
    sillytavern: ["used", "Split at <START>."],
    risuai: ["used", "Read into chat turns before the history."],
    agnai: ["used", "The sample chat."],
    backyard: ["changed", "Example messages."],
    chub: ["used", "Part of the character definitions."],
  }),
  system_prompt: row({
    sillytavern: ["used", "Replaces the main prompt; {{original}} keeps it."],
    risuai: ["used", "Replaces the main prompt, without a custom prompt template."],
    agnai: ["used", "Replaces the preset's system prompt."],
    backyard: ["used", "Formatting instructions."],
  }),
  post_history_instructions: row({
    sillytavern: ["used", "With chat completion; with text completion only when a setting is on."],
    risuai: ["changed", "Replaces the global note, which sits after the lorebook."],
    agnai: ["used", "The jailbreak after the history."],
    backyard: ["dropped", "The archive has no slot for it."],
  }),
  creator_notes: row({
    sillytavern: ["kept", "Shown to the user."],
    risuai: ["kept", ""],
    agnai: ["kept", "Its description field."],
    backyard: ["changed", "Written as the author's link."],
  }),
  tags: row({ sillytavern: ["kept", ""], risuai: ["kept", ""], agnai: ["kept", ""], backyard: ["dropped", ""] }),
  character_version: row({
    sillytavern: ["kept", ""],
    risuai: ["changed", 'The text "undefined" when absent.'],
    agnai: ["kept", ""],
    backyard: ["dropped", ""],
  }),
  nickname: row({
    sillytavern: ["kept", "Never read."],
    risuai: ["used", "{{char}} is the nickname."],
    agnai: ["dropped", "V3 fields are not read."],
    backyard: ["dropped", ""],
  }),
  creator_notes_multilingual: row({
    sillytavern: ["kept", "Never read."],
    risuai: ["dropped", ""],
    agnai: ["dropped", "V3 fields are not read."],
    backyard: ["dropped", ""],
  }),
  source: row({
    sillytavern: ["kept", "Never read."],
    risuai: ["kept", ""],
    agnai: ["dropped", "V3 fields are not read."],
    backyard: ["dropped", ""],
  }),
  group_only_greetings: row({
    sillytavern: ["dropped", "Emptied when the character is saved in the editor."],
    risuai: ["kept", ""],
    agnai: ["dropped", "V3 fields are not read."],
    backyard: ["dropped", ""],
  }),
  character_book: row({
    sillytavern: ["changed", "Used once imported as a World Info file."],
    risuai: ["changed", "Becomes the global lore; the book's name is dropped."],
    agnai: ["changed", "Becomes a memory book."],
    backyard: ["changed", "Key and value pairs only."],
    chub: ["used", "Case-insensitive, whole words."],
  }),
  "entries.secondary_keys": row({
    sillytavern: ["used", ""],
    risuai: ["used", "While the entry is selective."],
    agnai: ["kept", "Not used."],
    backyard: ["dropped", ""],
  }),
  "entries.constant": row({
    sillytavern: ["used", ""],
    risuai: ["used", ""],
    agnai: ["kept", "Not always on."],
    backyard: ["dropped", ""],
  }),
  "entries.enabled": row({
    sillytavern: ["used", ""],
    risuai: ["dropped", "Disabled entries become active."],
    agnai: ["used", ""],
    backyard: ["dropped", "Disabled entries become active."],
  }),
  "entries.use_regex": row({
    sillytavern: ["changed", "Keys written /…/ are patterns, whatever the flag."],
    risuai: ["changed", "Turned off when the first key is not /…/."],
    agnai: ["dropped", "No patterns."],
    backyard: ["dropped", ""],
  }),
  "entries.decorators": row({
    sillytavern: ["changed", "Removed; only @@activate and @@dont_activate act."],
    risuai: ["used", ""],
    agnai: ["changed", "Sent to the model as text."],
    backyard: ["changed", "Sent to the model as text."],
  }),
  "extensions.depth_prompt": row({
    sillytavern: ["used", "Inserted at its depth."],
    risuai: ["dropped", ""],
    agnai: ["changed", "Its role is dropped."],
    backyard: ["dropped", ""],
  }),
  "extensions.world": row({
    sillytavern: ["used", "The linked World Info file replaces the card's lorebook."],
    risuai: ["kept", ""],
    agnai: ["kept", ""],
    backyard: ["dropped", ""],
  }),
  "extensions.personaforge": row({
    sillytavern: ["kept", "This product's fields come back on re-import."],
    risuai: ["kept", "This product's fields come back on re-import."],
    agnai: ["kept", "This product's fields come back on re-import."],
    backyard: ["dropped", "This product's fields are lost."],
  }),
  "extensions (other)": row({ sillytavern: ["kept", ""], risuai: ["kept", ""], agnai: ["kept", ""], backyard: ["dropped", ""] }),
} as const satisfies Record<string, Row>;

export type SurvivalField = keyof typeof SURVIVAL_TABLE;

const isObject = (value: unknown): value is Record<string, unknown> => !!value && typeof value === "object" && !Array.isArray(value);
const filled = (value: unknown) =>
  typeof value === "string"
    ? value.trim() !== ""
    : Array.isArray(value)
      ? value.length > 0
      : isObject(value)
        ? Object.keys(value).length > 0
        : false;

/** The fields of the table a card's data uses, in the table's order. */
export function fieldsInUse(data: Record<string, unknown>): SurvivalField[] {
  const book = isObject(data.character_book) ? data.character_book : null;
  const entries = (book && Array.isArray(book.entries) ? book.entries : []).filter(isObject);
  const extensions = isObject(data.extensions) ? data.extensions : {};
  const other = Object.keys(extensions).filter((key) => !["personaforge", "world", "depth_prompt"].includes(key));
  const uses: Record<SurvivalField, boolean> = {
    name: filled(data.name),
    description: filled(data.description),
    personality: filled(data.personality),
    scenario: filled(data.scenario),
    first_mes: filled(data.first_mes),
    alternate_greetings: filled(data.alternate_greetings),
    mes_example: filled(data.mes_example),
    system_prompt: filled(data.system_prompt),
    post_history_instructions: filled(data.post_history_instructions),
    creator_notes: filled(data.creator_notes),
    tags: filled(data.tags),
    character_version: filled(data.character_version),
    nickname: filled(data.nickname),
    creator_notes_multilingual: filled(data.creator_notes_multilingual),
    source: filled(data.source),
    group_only_greetings: filled(data.group_only_greetings),
    character_book: entries.length > 0,
    "entries.secondary_keys": entries.some((entry) => filled(entry.secondary_keys)),
    "entries.constant": entries.some((entry) => entry.constant === true),
    "entries.enabled": entries.some((entry) => entry.enabled === false),
    "entries.use_regex": entries.some((entry) => entry.use_regex === true),
    "entries.decorators": entries.some((entry) => typeof entry.content === "string" && /^\s*@@/.test(entry.content)),
    "extensions.depth_prompt": isObject(extensions.depth_prompt) && filled(extensions.depth_prompt.prompt),
    "extensions.world": filled(extensions.world),
    "extensions.personaforge": isObject(extensions.personaforge),
    "extensions (other)": other.length > 0,
  };
  return (Object.keys(SURVIVAL_TABLE) as SurvivalField[]).filter((field) => uses[field]);
}

export interface TargetSurvival {
  target: CardTarget;
  fields: { field: SurvivalField; fate: CardFate; note: string }[];
  /** Fields this card uses whose fate in that front end no public source states. */
  unsourced: SurvivalField[];
}

/** For each front end, the fate of each field the card uses. */
export function survivalOf(data: Record<string, unknown>): TargetSurvival[] {
  const used = fieldsInUse(data);
  return CARD_TARGETS.map((target) => {
    const fields: TargetSurvival["fields"] = [];
    const unsourced: SurvivalField[] = [];
    for (const field of used) {
      const cell = SURVIVAL_TABLE[field][target] as Cell;
      if (cell) fields.push({ field, fate: cell[0], note: cell[1] });
      else unsourced.push(field);
    }
    return { target, fields, unsourced };
  });
}
