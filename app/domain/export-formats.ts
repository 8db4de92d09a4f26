// Exporting a persona as a file (docs/product.md, Exports and
// character cards: the Download menu, its toasts and file names): the Text, JSON, Markdown and YAML documents, their file
// names and content types, and the reference image's download name. Pure: the route loads
// the persona, resolves its Extended Profile and sends what renderExport returns.
//
// Two kinds of document:
// - JSON is data for programs. It has exactly the documented fields; choices keep their stored values
//   ("educator", not "AI Educator"), a missing choice or an empty text is null, an empty list
//   is [], createdAt is an ISO 8601 string, `extended` is the whole Extended Profile and `voice`
//   the whole voice (docs/product.md, Voice; a field not set is null or []).
//   It carries no footer: JSON has no comments, a line after the object would make the file
//   unparseable and an extra field would break the exact field set, so the product is named
//   by the three documents for people only.
// - Text, Markdown and YAML are for people: labels instead of stored values, the documented empty texts
//   ('None specified', 'No description provided.', 'No backstory provided.'), the Extended
//   Persona Profile in the page's sections and order, a Voice section with the voice's fields
//   that are set (none when no field is), and one last line naming the product
//   (EXPORT_FOOTER; in YAML a `#` comment, so the file still loads to the data that was dumped).
//   Before it, when parts of the persona were AI-generated, the line saying which and by what
//   (docs/product.md, AI disclosure; ai-disclosure.ts), a `#` comment in YAML too.
//
// File names (docs/product.md, Exports and character cards): the persona name lowercased with every character other than a-z and 0-9
// replaced by "_", then "_profile." and the extension. Letters with accents are folded to
// their base letter first (Zoë → zoe), so a name in a Latin script keeps its letters; other
// characters each become one "_". A name with no a-z or 0-9 left (ユキ) is named "persona", and
// the stem is cut at 80 characters, so the result is never empty, never hidden and always
// safe on every file system.
import { dump } from "js-yaml";

import { aiNotice, mergeAiParts } from "./ai-disclosure";
import { EXPORT_FAILED_TOAST, exportedToast, NO_IMAGE_TOAST } from "./export-toasts";
import { EXTENDED_PROFILE_SECTIONS, EXTENDED_PROFILE_TITLE, extendedProfileValue, type ExtendedProfile } from "./extended-profile";
import { PERSONA_TYPE_LABELS, type Gender, type Interest, type PersonaType } from "./persona";
import { statusBadge } from "./persona-display";
import { GENDER_LABELS, INTEREST_LABELS, PERSONA_FIELD_LABELS } from "./persona-form";
import type { ExportPersona } from "./persona-shapes";
import { PRODUCT_NAME } from "./site";
import { EMPTY_VOICE, parseVoice, VOICE_FIELDS, VOICE_LABELS, VOICE_TEXT, type PersonaVoice } from "./persona-voice";
import { LORE_TEXT } from "./lore-text";
import { exportedLorebook } from "./card-lorebook";
import { withCardGuidance } from "./character-card";
import { loreEntryJson, orderedEntries } from "./lorebook";

export type { ExportPersona } from "./persona-shapes";

export const EXPORT_FORMAT_IDS = ["txt", "json", "md", "yaml"] as const;
export type ExportFormat = (typeof EXPORT_FORMAT_IDS)[number];

export interface ExportFormatInfo {
  /** The Download menu's label, with the file's extension as docs/product.md lists it. */
  label: string;
  extension: string;
  contentType: string;
  /** How the 'Export Successful' toast names the format. */
  toastName: string;
}

/** The Download menu's formats, in menu order (docs/product.md, Exports and character cards). */
export const EXPORT_FORMATS: Record<ExportFormat, ExportFormatInfo> = {
  txt: { label: "Text .txt", extension: "txt", contentType: "text/plain; charset=utf-8", toastName: "TXT" },
  json: { label: "JSON .json", extension: "json", contentType: "application/json", toastName: "JSON" },
  md: { label: "Markdown .md", extension: "md", contentType: "text/markdown; charset=utf-8", toastName: "MARKDOWN" },
  yaml: { label: "YAML .yaml", extension: "yaml", contentType: "application/yaml", toastName: "YAML" },
};

export function isExportFormat(value: unknown): value is ExportFormat {
  return typeof value === "string" && (EXPORT_FORMAT_IDS as readonly string[]).includes(value);
}

/** docs/product.md, Exports and character cards: 'Export Successful' / 'Persona profile exported in {FORMAT} format.' */
export function exportToast(format: ExportFormat): { title: string; description: string } {
  return exportedToast(EXPORT_FORMATS[format].toastName);
}

export { EXPORT_FAILED_TOAST, NO_IMAGE_TOAST };

/** The last line of the Text and Markdown documents (the YAML one has it as a comment). */
export const EXPORT_FOOTER = `Exported from ${PRODUCT_NAME}`;

/** The texts for empty values (docs/product.md, Exports and character cards). */
export const EXPORT_EMPTY = {
  notSpecified: "None specified",
  description: "No description provided.",
  backstory: "No backstory provided.",
} as const;

// ---------------------------------------------------------------------------------------
// File names and the Content-Disposition header.

const FILE_STEM_MAX = 80;
const FALLBACK_STEM = "persona";
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Accented Latin letters to their base letter (é → e); what has no base letter is kept. */
function foldAccents(text: string): string {
  return text.replace(LONE_SURROGATE, "_").normalize("NFKD").replace(/\p{M}/gu, "");
}

/** An extension of a-z, 0-9 and inner dots ("txt", "card.json"), or the fallback. */
function safeExtension(extension: string, fallback: string): string {
  const ext = extension
    .toLowerCase()
    .replace(/[^a-z0-9.]/g, "")
    .replace(/\.{2,}/g, ".")
    .replace(/^\.|\.$/g, "");
  return ext || fallback;
}

/** docs/product.md, Exports and character cards: 'Nova Lumen!' → 'nova_lumen__profile.txt'. See the header for non-ASCII names. */
export function exportFileName(name: string, extension: string): string {
  // Letters and digits of every script count as alphanumeric (爱 → 爱_profile.card.json).
  const stem = [
    ...foldAccents(name)
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]/gu, "_"),
  ]
    .slice(0, FILE_STEM_MAX)
    .join("");
  return `${/[\p{L}\p{N}]/u.test(stem) ? stem : FALLBACK_STEM}_profile.${safeExtension(extension, "txt")}`;
}

// Characters no file system or header should get: controls, path separators, the ones
// Windows refuses, quotes and bidirectional overrides that could disguise the extension.
const UNSAFE_IN_FILE_NAME = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069/\\:*?"<>|]/gu;

/**
 * docs/product.md, Exports and character cards: the name with spaces as underscores plus '_image.jpg' ('Nova Lumen' →
 * 'Nova_Lumen_image.jpg'). Letters of any script are kept; characters that are unsafe in
 * a file name or a header become "_" too, a leading dot is replaced (no hidden files) and
 * a name with no letter or digit left is named "persona".
 */
export function imageFileName(name: string, extension = "jpg"): string {
  const stem = [...name.replace(LONE_SURROGATE, "_").trim()]
    .slice(0, FILE_STEM_MAX)
    .join("")
    .replace(/\s/gu, "_")
    .replace(UNSAFE_IN_FILE_NAME, "_")
    .replace(/^\./, "_");
  return `${/[\p{L}\p{N}]/u.test(stem) ? stem : FALLBACK_STEM}_image.${safeExtension(extension, "jpg")}`;
}

/**
 * `attachment; filename="…"; filename*=UTF-8''…` (RFC 6266 with RFC 5987 encoding): old
 * clients read the ASCII fallback, the rest the exact UTF-8 name. Safe for any input:
 * quotes, backslashes, path separators and control characters never reach the header.
 */
export function contentDisposition(filename: string): string {
  const safe = filename.replace(LONE_SURROGATE, "_").replace(UNSAFE_IN_FILE_NAME, "_") || "download";
  const ascii = foldAccents(safe).replace(/[^\x20-\x7e]/g, "_");
  const encoded = encodeURIComponent(safe).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

// ---------------------------------------------------------------------------------------
// The JSON document (docs/product.md's field set, exactly).

export interface PersonaJsonExport {
  name: string;
  type: string | null;
  gender: string | null;
  ageRange: string | null;
  interests: string[];
  personality: string[];
  description: string | null;
  backstory: string | null;
  extended: ExtendedProfile;
  voice: PersonaVoice;
  /** The lorebook's entries in insertion order, with the API's field names (docs/api.md, Lore); absent when it has none. */
  lore?: ReturnType<typeof loreEntryJson>[];
  createdAt: string;
  status: string;
}

/** The lorebook's entries as the exports read them, in insertion order (a card's book kept before lorebooks were read counts). */
function exportLore(persona: ExportPersona) {
  return orderedEntries(exportedLorebook(persona.lore, persona.cardMeta?.character_book).entries);
}

/** The persona's voice as the exports read it: checked, every field present, a card's guidance with it. */
function exportVoice(persona: ExportPersona): PersonaVoice {
  return withCardGuidance(persona.voice ? parseVoice(persona.voice) : EMPTY_VOICE, persona.voice, persona.cardMeta);
}

const blankToNull = (value: string | null | undefined) => (value && value.trim() !== "" ? value : null);

export function isoDate(value: Date | string): string {
  return new Date(value).toISOString();
}

export function exportJson(persona: ExportPersona, extended: ExtendedProfile): PersonaJsonExport {
  return {
    name: persona.name,
    type: blankToNull(persona.type),
    gender: blankToNull(persona.gender),
    ageRange: blankToNull(persona.ageRange),
    interests: [...persona.interests],
    personality: [...persona.personality],
    description: blankToNull(persona.description),
    backstory: blankToNull(persona.backstory),
    extended,
    voice: exportVoice(persona),
    ...(exportLore(persona).length ? { lore: exportLore(persona).map(loreEntryJson) } : {}),
    createdAt: isoDate(persona.createdAt),
    status: persona.status,
  };
}

/** Pretty JSON (two spaces) with a final newline. */
export function toJson(persona: ExportPersona, extended: ExtendedProfile): string {
  return `${JSON.stringify(exportJson(persona, extended), null, 2)}\n`;
}

// ---------------------------------------------------------------------------------------
// The documents for people: one readable model, three layouts.

type Shown = string | string[];

export interface ReadableExport {
  name: string;
  type: string;
  gender: string;
  ageRange: string;
  /** Labels, or 'None specified'. */
  interests: Shown;
  personality: Shown;
  description: string;
  backstory: string;
  extended: { title: string; fields: { label: string; value: Shown }[] }[];
  /** The voice's fields that are set, in the page's order (none: no Voice section). */
  voice: { label: string; value: Shown }[];
  /** The lorebook's entries in insertion order (none: no Lore section). */
  lore: { name: string; keys: string[]; content: string; enabled: boolean; constant: boolean }[];
  /** "2024-05-01 12:00 UTC" */
  created: string;
  status: string;
  /** Which parts AI generated, and by what (docs/product.md, AI disclosure); null when none. */
  aiNotice: string | null;
}

function label<K extends string>(labels: Record<K, string>, value: string | null): string {
  if (!value || value.trim() === "") return EXPORT_EMPTY.notSpecified;
  return Object.hasOwn(labels, value) ? labels[value as K] : value;
}

function shownList(items: readonly string[]): Shown {
  const present = items.filter((item) => item.trim() !== "");
  return present.length ? present : EXPORT_EMPTY.notSpecified;
}

/** A date people read the same anywhere: UTC, to the minute. */
export function readableDate(value: Date | string): string {
  return `${isoDate(value).slice(0, 16).replace("T", " ")} UTC`;
}

export function readableExport(persona: ExportPersona, extended: ExtendedProfile): ReadableExport {
  return {
    name: persona.name,
    type: label<PersonaType>(PERSONA_TYPE_LABELS, persona.type),
    gender: label<Gender>(GENDER_LABELS, persona.gender),
    ageRange: blankToNull(persona.ageRange) ?? EXPORT_EMPTY.notSpecified,
    interests: shownList(persona.interests.map((interest) => label<Interest>(INTEREST_LABELS, interest))),
    personality: shownList(persona.personality),
    description: blankToNull(persona.description)?.trim() ?? EXPORT_EMPTY.description,
    backstory: blankToNull(persona.backstory)?.trim() ?? EXPORT_EMPTY.backstory,
    extended: EXTENDED_PROFILE_SECTIONS.map((section) => ({
      title: section.title,
      fields: section.fields.map((field) => {
        const value = extendedProfileValue(extended, field.key);
        return {
          label: field.label,
          value: Array.isArray(value) ? shownList(value) : value.trim() ? value : EXPORT_EMPTY.notSpecified,
        };
      }),
    })),
    voice: readableVoice(exportVoice(persona)),
    lore: exportLore(persona).map(({ name, keys, content, enabled, constant }) => ({ name, keys, content, enabled, constant })),
    created: readableDate(persona.createdAt),
    status: statusBadge(persona.status).label,
    aiNotice: aiNotice(mergeAiParts(persona.cardMeta?.aiGenerated, persona.aiGenerated)),
  };
}

function readableVoice(voice: PersonaVoice): { label: string; value: Shown }[] {
  return VOICE_FIELDS.flatMap((field): { label: string; value: Shown }[] => {
    const value = voice[field];
    if (Array.isArray(value)) return value.length > 0 ? [{ label: VOICE_LABELS[field], value: [...value] }] : [];
    return value === null ? [] : [{ label: VOICE_LABELS[field], value }];
  });
}

/** ' (disabled)', ' (always included)' or nothing, after an entry's name. */
function loreFlags(entry: { enabled: boolean; constant: boolean }): string {
  return !entry.enabled ? " (disabled)" : entry.constant ? " (always included)" : "";
}

/** A field of several lines in the Text document: the first after the label, the rest indented under it. */
function textField(label: string, value: Shown, indent: string): string[] {
  const lines = (Array.isArray(value) ? value.map((item) => `- ${item}`) : value.split("\n")).map((line) => `${indent}  ${line}`.trimEnd());
  return Array.isArray(value) || lines.length > 1 ? [`${indent}${label}:`, ...lines] : [`${indent}${label}: ${value}`];
}

const CREATED_LABEL = "Created";
const STATUS_LABEL = "Status";
const joined = (value: Shown) => (Array.isArray(value) ? value.join(", ") : value);
const underline = (title: string, char: string) => char.repeat(Math.max(3, [...title].length));

export function toText(persona: ExportPersona, extended: ExtendedProfile): string {
  const doc = readableExport(persona, extended);
  const L = PERSONA_FIELD_LABELS;
  const section = (title: string, body: string) => [title, underline(title, "-"), body, ""];
  return [
    doc.name,
    underline(doc.name, "="),
    "",
    `${L.type}: ${doc.type}`,
    `${L.gender}: ${doc.gender}`,
    `${L.ageRange}: ${doc.ageRange}`,
    `${L.interests}: ${joined(doc.interests)}`,
    `${L.personality}: ${joined(doc.personality)}`,
    `${CREATED_LABEL}: ${doc.created}`,
    `${STATUS_LABEL}: ${doc.status}`,
    "",
    ...section(L.description, doc.description),
    ...section(L.backstory, doc.backstory),
    ...(doc.voice.length ? section(VOICE_TEXT.title, doc.voice.flatMap((f) => textField(f.label, f.value, "")).join("\n")) : []),
    ...(doc.lore.length
      ? section(
          LORE_TEXT.title,
          doc.lore
            .map((e) =>
              [
                `${e.name}${loreFlags(e)}`,
                `  Keys: ${e.keys.join(", ")}`,
                ...e.content.split("\n").map((line) => `  ${line}`.trimEnd()),
              ].join("\n"),
            )
            .join("\n\n"),
        )
      : []),
    EXTENDED_PROFILE_TITLE,
    underline(EXTENDED_PROFILE_TITLE, "-"),
    ...doc.extended.flatMap((s) => ["", s.title, ...s.fields.map((f) => `  ${f.label}: ${joined(f.value)}`)]),
    "",
    ...(doc.aiNotice ? [doc.aiNotice, ""] : []),
    EXPORT_FOOTER,
    "",
  ].join("\n");
}

// Markdown: user text stays text. Inline markup, HTML and entities are backslash-escaped
// (CommonMark lets any ASCII punctuation be escaped), and a line may not start a heading,
// quote, list, rule or code block, so a backstory with "<script>" or "# Title" reads as typed.
function markdownText(text: string): string {
  return text
    .split("\n")
    .map((line) =>
      line
        .trimStart()
        .replace(/[\\`*_[\]<>|~]/g, "\\$&")
        .replace(/&(?=#?[a-z0-9]+;)/gi, "\\&")
        .replace(/^([#+=-])/, "\\$1")
        .replace(/^(\d+)([.)])/, "$1\\$2"),
    )
    .join("\n");
}

export function toMarkdown(persona: ExportPersona, extended: ExtendedProfile): string {
  const doc = readableExport(persona, extended);
  const L = PERSONA_FIELD_LABELS;
  const item = (name: string, value: string) => `- **${name}:** ${markdownText(value)}`;
  const list = (value: Shown) => (Array.isArray(value) ? value.map((v) => `- ${markdownText(v)}`) : [markdownText(value)]);
  return [
    `# ${markdownText(doc.name)}`,
    "",
    item(L.type, doc.type),
    item(L.gender, doc.gender),
    item(L.ageRange, doc.ageRange),
    item(CREATED_LABEL, doc.created),
    item(STATUS_LABEL, doc.status),
    "",
    `## ${L.interests}`,
    "",
    ...list(doc.interests),
    "",
    `## ${L.personality}`,
    "",
    ...list(doc.personality),
    "",
    `## ${L.description}`,
    "",
    markdownText(doc.description),
    "",
    `## ${L.backstory}`,
    "",
    markdownText(doc.backstory),
    "",
    ...(doc.voice.length ? [`## ${VOICE_TEXT.title}`, ...doc.voice.flatMap((f) => ["", `### ${f.label}`, "", ...list(f.value)]), ""] : []),
    ...(doc.lore.length
      ? [
          `## ${LORE_TEXT.title}`,
          ...doc.lore.flatMap((e) => [
            "",
            `### ${markdownText(e.name)}${loreFlags(e)}`,
            "",
            item("Keys", e.keys.join(", ")),
            "",
            markdownText(e.content),
          ]),
          "",
        ]
      : []),
    `## ${EXTENDED_PROFILE_TITLE}`,
    ...doc.extended.flatMap((s) => ["", `### ${markdownText(s.title)}`, "", ...s.fields.map((f) => item(f.label, joined(f.value)))]),
    "",
    "---",
    "",
    ...(doc.aiNotice ? [markdownText(doc.aiNotice), ""] : []),
    EXPORT_FOOTER,
    "",
  ].join("\n");
}

/** The data the YAML document holds: the JSON document's keys with the readable values. */
export interface YamlExport {
  name: string;
  type: string;
  gender: string;
  ageRange: string;
  interests: Shown;
  personality: Shown;
  description: string;
  backstory: string;
  /** Section title → field label → value, in the page's order. */
  extended: Record<string, Record<string, Shown>>;
  /** Field label → value, the voice's fields that are set; absent when none is. */
  voice?: Record<string, Shown>;
  /** The lorebook's entries in insertion order; absent when it has none. */
  lore?: { name: string; keys: string[]; content: string; enabled: boolean; constant: boolean }[];
  createdAt: string;
  status: string;
}

export function exportYamlData(persona: ExportPersona, extended: ExtendedProfile): YamlExport {
  const doc = readableExport(persona, extended);
  return {
    name: doc.name,
    type: doc.type,
    gender: doc.gender,
    ageRange: doc.ageRange,
    interests: doc.interests,
    personality: doc.personality,
    description: doc.description,
    backstory: doc.backstory,
    extended: Object.fromEntries(doc.extended.map((s) => [s.title, Object.fromEntries(s.fields.map((f) => [f.label, f.value]))])),
    ...(doc.voice.length ? { voice: Object.fromEntries(doc.voice.map((f) => [f.label, f.value])) } : {}),
    ...(doc.lore.length ? { lore: doc.lore.map((e) => ({ ...e, keys: [...e.keys] })) } : {}),
    createdAt: isoDate(persona.createdAt),
    status: doc.status,
  };
}

export function toYaml(persona: ExportPersona, extended: ExtendedProfile): string {
  // noRefs: the same list twice must be written twice, not as an anchor and an alias;
  // lineWidth -1: paragraphs stay as typed instead of being folded at 80 columns.
  const body = dump(exportYamlData(persona, extended), { noRefs: true, lineWidth: -1 });
  const notice = aiNotice(mergeAiParts(persona.cardMeta?.aiGenerated, persona.aiGenerated));
  return `${body}${notice ? `# ${notice}\n` : ""}# ${EXPORT_FOOTER}\n`;
}

export interface RenderedExport {
  filename: string;
  contentType: string;
  body: string;
}

const RENDERERS: Record<ExportFormat, (persona: ExportPersona, extended: ExtendedProfile) => string> = {
  txt: toText,
  json: toJson,
  md: toMarkdown,
  yaml: toYaml,
};

/** Everything a download response needs for one format. */
export function renderExport(format: ExportFormat, persona: ExportPersona, extended: ExtendedProfile): RenderedExport {
  const info = EXPORT_FORMATS[format];
  return {
    filename: exportFileName(persona.name, info.extension),
    contentType: info.contentType,
    body: RENDERERS[format](persona, extended),
  };
}
