// Taking a persona out of the product and bringing character cards in (docs/product.md,
// Exports and character cards). Exports: Text, JSON, Markdown, YAML, and Character
// Card V3 as JSON or as a PNG (the persona's portrait with the card in `ccv3` and a V2 copy in
// `chara`). Imports: a V2 or V3 card as JSON or PNG becomes a new persona, subject to the
// Free plan's limit, keeping what the persona does not model for the next export. Every export
// says which parts of the persona AI generated and by what (docs/product.md, AI disclosure).
import { randomUUID } from "node:crypto";

import { parseWithZod } from "@conform-to/zod/v4";
import { and, asc, desc, eq } from "drizzle-orm";

import { aiGenerator, chatTranscriptNotice, type AiGeneratedPart } from "~/domain/ai-disclosure";
import type { CardContainer, CardFinding, CardRule } from "~/domain/card-check";
import { CARD_TARGET_LABELS } from "~/domain/card-targets";
import {
  cardImportSchema,
  finishImportSchema,
  guessMissingFields,
  type FinishImportGuess,
  type FinishImportInput,
} from "~/domain/card-import";
import {
  cardJson,
  cardMetaAfterFinishing,
  parseCard,
  parseCardMeta,
  toCardV2,
  toCardV3,
  type CharacterCardV2,
  type CharacterCardV3,
} from "~/domain/character-card";
import { CHARX_ICON_PATH, CHARX_ICON_URI, charxAssetPath, imageKind } from "~/domain/charx";
import {
  contentDisposition,
  EXPORT_FORMATS,
  exportFileName,
  exportToast,
  imageFileName,
  isExportFormat,
  renderExport,
  type ExportPersona,
} from "~/domain/export-formats";
import { exportedToast } from "~/domain/export-toasts";
import { fieldErrorsOf } from "~/domain/form-rules";
import { displayName } from "~/domain/account";
import { validatePersona } from "~/domain/persona-form";
import { generatorsInUse } from "~/infra/ai/ai.server";
import { loadSharp } from "~/infra/ai/sharp.server";
import { withUser, type Tx } from "~/infra/db/db.server";
import { generations, personas, personaVersions, type Persona } from "~/infra/db/schema.server";
import { cardPng, portraitPng } from "~/infra/formats/png.server";
import { writeZip } from "~/infra/formats/zip.server";
import { readCardOffThread } from "~/infra/compute/card-read.server";
import {
  CardFileError,
  checkReadCard,
  IMPORT_MESSAGES,
  MAX_CARD_BYTES,
  readCardFile,
  type ReadCard,
} from "~/infra/formats/card-file.server";

import { type CurrentUser } from "./accounts.server";
import { withGenerationQuota } from "./generation-quotas.server";
import { cardAssetBytes, referenceImagePng, removePersonaImages, storeCardAssets, storeImportedPicture } from "./images.server";
import { currentVersion } from "./persona-history.server";
import { importProbes, listProbes } from "./probes.server";
import { generatedTextDigest, getPersona, insertPersona, PERSONA_NOT_FOUND, personaExtended, personaVoice } from "./personas.server";
import { ServiceError } from "./service-error.server";

/** A persona that cannot be exported, or a card that cannot be imported. */
export class PersonaFileError extends ServiceError {
  override name = "PersonaFileError";
}

export { personaExtended, IMPORT_MESSAGES, MAX_CARD_BYTES, readCardFile };

export const CARD_FORMATS = {
  "card-json": { label: "Character Card .json", toastName: "CHARACTER CARD JSON" },
  "card-png": { label: "Character Card .png", toastName: "CHARACTER CARD PNG" },
  charx: { label: "CharX .charx", toastName: "CHARX" },
} as const;
export type CardFormat = keyof typeof CARD_FORMATS;
export type AnyExportFormat = keyof typeof EXPORT_FORMATS | CardFormat;

export const EXPORT_FORMAT_LIST: AnyExportFormat[] = ["txt", "json", "md", "yaml", "card-json", "card-png", "charx"];

export function isAnyExportFormat(value: unknown): value is AnyExportFormat {
  return isExportFormat(value) || (typeof value === "string" && Object.hasOwn(CARD_FORMATS, value));
}

/**
 * The front ends a card export can be made for (docs/cards.md, Exports for a front end), and the
 * card formats each is offered in; `any` is the Character Card V3 every reader of V3 takes.
 * Backyard AI's archive is left out (docs/cards.md says why).
 */
export const EXPORT_TARGETS = {
  any: { formats: ["card-json", "card-png", "charx"] },
  sillytavern: { formats: ["card-png", "card-json"] },
  risuai: { formats: ["card-png", "charx"] },
  chub: { formats: ["card-png"] },
  agnai: { formats: ["card-json", "card-png"] },
  janitorai: { formats: ["card-json"] },
} as const satisfies Record<string, { formats: readonly CardFormat[] }>;
export type ExportTarget = keyof typeof EXPORT_TARGETS;

export function isExportTarget(value: unknown): value is ExportTarget {
  return typeof value === "string" && Object.hasOwn(EXPORT_TARGETS, value);
}

export const EXPORT_TARGET_MESSAGES = {
  unknown: `Unknown export target. Use one of: ${Object.keys(EXPORT_TARGETS).join(", ")}.`,
  notOffered: (target: string, format: string) =>
    `A ${format} is not an export for ${target}: use ${EXPORT_TARGETS[target as ExportTarget].formats.join(" or ")}.`,
} as const;

/** The Download menu's cards for one front end: target, label, format. */
const FOR_FRONT_ENDS: readonly [Exclude<ExportTarget, "any">, string, CardFormat][] = [
  ["sillytavern", "For SillyTavern .png", "card-png"],
  ["risuai", "For RisuAI .png", "card-png"],
  ["chub", "For Chub .png", "card-png"],
  ["agnai", "For Agnai .json", "card-json"],
  ["janitorai", "For JanitorAI .json", "card-json"],
];

/** The note a JanitorAI export adds to creator_notes (docs/cards.md, Exports for a front end). */
export const JANITOR_NOTE =
  "Exported for JanitorAI: the system prompt and post-history instructions are at the top and the end of the description, as JanitorAI reads only the V1 fields.";

function exportPersona(persona: Persona): ExportPersona {
  return {
    id: persona.id,
    name: persona.name,
    type: persona.type,
    gender: persona.gender,
    ageRange: persona.ageRange,
    interests: persona.interests,
    personality: persona.personality,
    description: persona.description,
    backstory: persona.backstory,
    imageStyle: persona.imageStyle,
    status: persona.status,
    createdAt: persona.createdAt,
    updatedAt: persona.updatedAt,
    imageUrl: persona.imageUrl,
    cardMeta: parseCardMeta(persona.cardMeta),
    voice: personaVoice(persona),
    lore: persona.lore,
  };
}

/** The Download menu: plain links (they work without JavaScript), each with its toast. */
export function downloadItems(persona: Pick<Persona, "id" | "name" | "imageUrl">) {
  const items: { label: string; href: string; toast: { title: string; description: string }; filename?: string }[] = EXPORT_FORMAT_LIST.map(
    (format) => ({
      label: isExportFormat(format) ? EXPORT_FORMATS[format].label : CARD_FORMATS[format].label,
      href: `/api/personas/${persona.id}/export?format=${format}`,
      toast: isExportFormat(format) ? exportToast(format) : exportedToast(CARD_FORMATS[format].toastName),
    }),
  );
  // Cards made for one front end (docs/cards.md, Exports for a front end).
  for (const [target, label, format] of FOR_FRONT_ENDS) {
    items.push({
      label,
      href: `/api/personas/${persona.id}/export?format=${format}&target=${target}`,
      toast: exportedToast(`${CARD_FORMATS[format].toastName} FOR ${CARD_TARGET_LABELS[target].toUpperCase()}`),
    });
  }
  if (persona.imageUrl) {
    items.push({
      label: "Reference Image",
      href: `/api/personas/${persona.id}/export?format=image`,
      toast: exportedToast("IMAGE"),
      filename: imageFileName(persona.name),
    });
  }
  return items;
}

export interface ExportFile {
  filename: string;
  contentType: string;
  body: string | Uint8Array;
}

/**
 * The parts of a persona the product generated, and by what (docs/product.md, AI disclosure).
 * What is known without guessing: a persona made here has the Extended Persona Profile the
 * built-in generator drew (an imported one states only what its card said), and a reference
 * image that is not the picture its card brought was generated (images are never uploaded), by
 * the image generator this server uses. Which backstory came from 'Generate Backstory' is not
 * recorded, so the backstory is not claimed; what an imported card said it carried is (cardMeta).
 */
export async function generatedParts(user: CurrentUser, row: Persona): Promise<AiGeneratedPart[]> {
  const parts: AiGeneratedPart[] = [];
  const backstory = row.backstory?.trim() ? await backstoryGeneration(user, row.backstory) : undefined;
  if (backstory) parts.push({ part: "backstory", ...aiGenerator(backstory.model ? "model" : "built-in", backstory.model) });
  if (row.cardMeta === null) parts.push({ part: "extended_profile", ...aiGenerator("built-in", null) });
  if (row.imageUrl && (row.cardMeta === null || row.imageUrl !== (await importedPicture(user, row.id)))) {
    parts.push({ part: "reference_image", ...generatorsInUse().image });
  }
  return parts;
}

/** The creator's latest backstory generation that wrote exactly this text (line breaks and outer spaces aside), if any. */
async function backstoryGeneration(user: CurrentUser, text: string): Promise<{ model: string | null } | undefined> {
  const [found] = await withUser(
    user.id,
    (tx) =>
      tx
        .select({ model: generations.model })
        .from(generations)
        .where(
          and(eq(generations.userId, user.id), eq(generations.kind, "backstory"), eq(generations.outputDigest, generatedTextDigest(text))),
        )
        .orderBy(desc(generations.createdAt))
        .limit(1),
    { email: user.email },
  );
  return found;
}

/** The picture an imported persona's card brought: its image when imported (persona history), if any. */
async function importedPicture(user: CurrentUser, id: string): Promise<string | null> {
  const [first] = await withUser(
    user.id,
    (tx) =>
      tx
        .select({ imageUrl: personaVersions.imageUrl })
        .from(personaVersions)
        .where(and(eq(personaVersions.personaId, id), eq(personaVersions.kind, "imported")))
        .orderBy(asc(personaVersions.version))
        .limit(1),
    { email: user.email },
  );
  return first?.imageUrl ?? null;
}

/** The line a conversation's text export carries: the persona's replies are generated, and by what. */
export function chatExportNotice(name: string): string {
  return chatTranscriptNotice(name, generatorsInUse().chat);
}

/** The file for a Download menu item; another user's id or an unknown one is 404. */
export async function exportFile(
  user: CurrentUser,
  id: string,
  format: AnyExportFormat,
  target: ExportTarget = "any",
): Promise<ExportFile> {
  if (!isExportFormat(format) && !(EXPORT_TARGETS[target].formats as readonly string[]).includes(format))
    throw new PersonaFileError(400, EXPORT_TARGET_MESSAGES.notOffered(target, format), {
      target: [EXPORT_TARGET_MESSAGES.notOffered(target, format)],
    });
  const row = await getPersona(user, id);
  const persona = exportPersona(row);
  persona.aiGenerated = await generatedParts(user, row);
  // A card carries the persona's tests (docs/product.md, Persona tests).
  if (!isExportFormat(format)) persona.probes = (await listProbes(user, id)).map(({ id: _id, ...probe }) => probe);
  const extended = personaExtended(row);
  if (isExportFormat(format)) {
    const rendered = renderExport(format, persona, extended);
    return { filename: rendered.filename, contentType: rendered.contentType, body: rendered.body };
  }
  // The card says which version of the persona it carries (persona history).
  const current = await currentVersion(user, id);
  const options = {
    creator: displayName(user.firstName, user.lastName),
    version: current ? { number: current.version, at: current.createdAt } : undefined,
  };
  const ending = (extension: string) => (target === "any" ? extension : `${target}.${extension}`);
  const v3Card = toCardV3(persona, extended, options);
  if (format === "card-json") {
    // Agnai reads V2 JSON only; JanitorAI the V1 fields (docs/cards.md, What survives where).
    const card =
      target === "agnai"
        ? toCardV2(persona, extended, options)
        : target === "janitorai"
          ? janitorCard(toCardV2(persona, extended, options))
          : v3Card;
    return { filename: exportFileName(row.name, ending("card.json")), contentType: "application/json", body: cardJson(card) };
  }
  // The persona's reference image as the card's picture; a portrait from its id when it has none.
  const picture = (await referenceImagePng(row)) ?? portraitPng(row.id);
  if (format === "charx")
    return {
      filename: exportFileName(row.name, ending("charx")),
      contentType: "application/zip",
      body: await charxOf(row, v3Card, picture),
    };
  const png = cardPng(picture, cardJson(v3Card), cardJson(toCardV2(persona, extended, options)));
  return { filename: exportFileName(row.name, ending("card.png")), contentType: "image/png", body: png };
}

/**
 * A V2 card as JanitorAI reads it (docs/cards.md, Exports for a front end): the V1 fields at the
 * top as well as in `data`, with the system prompt before the description and the post-history
 * instructions after it (JanitorAI has no field for either), and a note saying so.
 */
function janitorCard(card: CharacterCardV2): CharacterCardV2 & Record<string, unknown> {
  const d = card.data;
  const merged = [d.system_prompt.trim(), d.description, d.post_history_instructions.trim()].filter(Boolean).join("\n\n");
  const moved = d.system_prompt.trim() !== "" || d.post_history_instructions.trim() !== "";
  const data = {
    ...d,
    description: merged,
    ...(moved
      ? {
          system_prompt: "",
          post_history_instructions: "",
          creator_notes: [d.creator_notes.trim(), JANITOR_NOTE].filter(Boolean).join("\n\n"),
        }
      : {}),
  };
  return {
    name: data.name,
    description: data.description,
    personality: data.personality,
    scenario: data.scenario,
    first_mes: data.first_mes,
    mes_example: data.mes_example,
    ...card,
    data,
  };
}

/**
 * The persona as a CharX (docs/cards.md, CharX): card.json (V3) and its assets — the reference
 * image as the main icon, and the images an imported CharX carried, at the paths their URIs name.
 */
async function charxOf(row: Persona, card: CharacterCardV3, picture: Uint8Array): Promise<Buffer> {
  const meta = parseCardMeta(row.cardMeta);
  const listed = card.data.assets ?? [];
  const icon = listed.find((asset) => asset.type === "icon" && asset.name === "main" && charxAssetPath(asset.uri));
  const iconPath = icon ? charxAssetPath(icon.uri)! : CHARX_ICON_PATH;
  const assets = icon ? listed : [{ type: "icon", uri: CHARX_ICON_URI, name: "main", ext: "png" }, ...listed];
  const files: { name: string; bytes: Uint8Array }[] = [{ name: iconPath, bytes: await pictureAs(picture, icon?.ext ?? "png") }];
  for (const asset of listed) {
    const at = charxAssetPath(asset.uri);
    const file = meta?.assetFiles?.[asset.uri];
    if (!at || at === iconPath || !file || files.some((entry) => entry.name === at)) continue;
    const bytes = await cardAssetBytes(row, file);
    if (bytes) files.push({ name: at, bytes });
  }
  const json = cardJson({ ...card, data: { ...card.data, assets } });
  return writeZip([{ name: "card.json", bytes: Buffer.from(json, "utf8") }, ...files]);
}

/** The picture in the format an icon's extension names (PNG unless it says jpg, jpeg or webp). */
async function pictureAs(png: Uint8Array, ext: string): Promise<Uint8Array> {
  const kind = ext.toLowerCase() === "jpeg" ? "jpg" : ext.toLowerCase();
  if (kind !== "jpg" && kind !== "webp") return png;
  if (imageKind(png) === kind) return png;
  const sharp = await loadSharp();
  const out =
    kind === "jpg"
      ? await sharp(png).flatten({ background: "#ffffff" }).jpeg({ quality: 90 }).toBuffer()
      : await sharp(png).webp({ quality: 90 }).toBuffer();
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}

/**
 * The Character Card V3 this persona exports (what the card check reads) and the version it
 * carries; `within` reads inside the caller's transaction. Without the probes and the AI line:
 * neither is a field the check looks at.
 */
export async function cardOfPersona(
  user: CurrentUser,
  row: Persona,
  within?: Tx,
): Promise<{ card: { data: Record<string, unknown> }; version: number }> {
  const current = await currentVersion(user, row.id, within);
  const card = toCardV3(exportPersona(row), personaExtended(row), {
    creator: displayName(user.firstName, user.lastName),
    version: current ? { number: current.version, at: current.createdAt } : undefined,
  });
  return { card: card as unknown as { data: Record<string, unknown> }, version: current?.version ?? 0 };
}

export function downloadHeaders(file: ExportFile): HeadersInit {
  return {
    "Content-Type": file.contentType,
    "Content-Disposition": contentDisposition(file.filename),
    "Cache-Control": "private, no-store",
    // X-Content-Type-Options: nosniff comes with every answer (app/server.mjs).
  };
}

export { imageFileName };

// ---------------------------------------------------------------------------------------
// Import.

/** The library's import form post, checked by the form's schema as conform submits it (a file was chosen). */
export function parseCardImportPost(formData: FormData) {
  return parseWithZod(formData, { schema: cardImportSchema });
}

/** The largest card file taken (a PNG portrait with its two card chunks fits easily). */
export const IMPORT_TOASTS = {
  imported: { title: "Character Imported", description: "The character card is now one of your personas." },
  importedDraft: {
    title: "Character Imported",
    description: "The card does not say everything a persona needs: check these details to start chatting.",
  },
  failed: { title: "Import Failed" },
} as const;

/** The toast after an import: what had to change for the card's texts to fit the voice is said too. */
export function importToast(toast: { title: string; description: string }, notes: readonly string[]) {
  return { type: "success" as const, title: toast.title, description: [toast.description, ...notes].join(" ") };
}

/** The multipart form's size cap for an upload: the card plus room for the form around it. */
export const MAX_CARD_FORM_BYTES = MAX_CARD_BYTES + 64 * 1024;

/** The bytes of an uploaded card file (the form's `file` field); none, or an empty one, is a 400. */
export async function uploadedCardBytes(entry: FormDataEntryValue | null): Promise<Uint8Array> {
  if (!(entry instanceof File) || entry.size === 0)
    throw new PersonaFileError(400, IMPORT_MESSAGES.empty, { file: [IMPORT_MESSAGES.empty] });
  return new Uint8Array(await entry.arrayBuffer());
}

/** A card file's refusal as the API and the forms answer it. */
async function refusedAsFileError<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof CardFileError) throw new PersonaFileError(error.status, error.message, undefined, error.code);
    throw error;
  }
}

/**
 * A card file (PNG, CharX or JSON) as a new persona; a PNG card's picture, or a CharX's icon,
 * becomes its reference image. Counts against the creator's hourly import quota (429 beyond it); a
 * card refused for what it is (unreadable, too large, over the plan's persona limit) does not. A
 * large file is read and checked on a thread of its own (infra/compute/card-read.server.ts).
 */
export async function importCardFile(user: CurrentUser, bytes: Uint8Array): Promise<ImportedPersona> {
  return withGenerationQuota("cardImports", user, async () =>
    storeReadCard(user, await refusedAsFileError(() => readCardOffThread(bytes))),
  );
}

/** The card check's rules about the file itself (its container, its types): the export writes these right. */
const FILE_RULES = new Set<CardRule>(["png-chunk-order", "v3-without-v2", "type-alternate-greetings", "type-character-book"]);

/**
 * A new persona from a card, and what had to change for the card's texts to fit its voice
 * (docs/product.md, Exports and character cards): the API answers them as `importNotes`.
 */
export type ImportedPersona = Persona & {
  importNotes: string[];
  /** The card check of the file as it came (docs/cards.md, Card check). */
  cardCheck: CardFinding[];
  /** For a draft: the finishing step's guesses, so an API client can finish it in one call. */
  finishImport?: { guess: FinishImportGuess };
};

/** A card (already read from its file) as a new persona of the user's, with the card's picture when given. */
export async function importCard(
  user: CurrentUser,
  card: unknown,
  picture?: Uint8Array,
  container: CardContainer = { kind: "json" },
  assets: readonly { uri: string; bytes: Uint8Array }[] = [],
): Promise<ImportedPersona> {
  const read = await refusedAsFileError(async () => checkReadCard({ card, picture, container, assets: [...assets] }));
  return storeReadCard(user, read);
}

/** A card read, parsed and checked, stored as a new persona with its picture and images. */
async function storeReadCard(user: CurrentUser, { file, parsed: card, findings }: ReadCard): Promise<ImportedPersona> {
  const { picture, container } = file;
  const assets = file.assets ?? [];
  const fileFindings = findings.filter(
    (finding) => FILE_RULES.has(finding.rule) && (finding.field !== "spec" || container.kind !== "json"),
  );
  if (fileFindings.length) card.cardMeta.checkedAtImport = fileFindings.slice(0, 50);
  // The picture is stored first, so the persona's first version already carries it.
  const personaId = randomUUID();
  const image = picture ? await storeImportedPicture(user.id, picture, personaId) : assets.length ? { personaId, imageUrl: null } : null;
  try {
    // A CharX's other images, kept for its next CharX export.
    const assetFiles = assets.length ? await storeCardAssets(user.id, personaId, assets) : {};
    if (Object.keys(assetFiles).length) card.cardMeta.assetFiles = assetFiles;
    const persona = await insertImported(user, image, card);
    // The persona's tests a card of ours carried (docs/product.md, Persona tests), as they were.
    if (card.probes.length) await importProbes(user, persona.id, card.probes);
    return {
      ...persona,
      importNotes: card.notes,
      cardCheck: findings,
      ...(canFinishImport(persona) ? { finishImport: { guess: finishImportGuess(persona) } } : {}),
    };
  } catch (error) {
    if (image) await removePersonaImages(user.id, image.personaId);
    throw error;
  }
}

type ParsedCard = Extract<ReturnType<typeof parseCard>, { ok: true }>["card"];

function insertImported(
  user: CurrentUser,
  image: { personaId: string; imageUrl: string | null } | null,
  card: ParsedCard,
): Promise<Persona> {
  const { persona, extended, voice, cardMeta, status, complete, lore } = card;
  return insertPersona(
    user,
    {
      ...(image ? { id: image.personaId } : {}),
      ...(image?.imageUrl ? { imageUrl: image.imageUrl } : {}),
      userId: user.id,
      name: persona.name,
      type: persona.type,
      gender: persona.gender,
      ageRange: persona.ageRange,
      interests: persona.interests,
      description: persona.description || (complete ? "" : null),
      personality: persona.personality,
      backstory: persona.backstory || null,
      imageStyle: persona.imageStyle,
      status,
      statusBeforeArchive: status === "archived" ? (complete ? "active" : "in_progress") : null,
      extended: extended as unknown as Record<string, unknown> | null,
      cardMeta: cardMeta as unknown as Record<string, unknown>,
      voice: voice as unknown as Record<string, unknown>,
      ...(lore ? { lore: lore as unknown as Record<string, unknown> } : {}),
    },
    "imported",
  );
}

// ---------------------------------------------------------------------------------------
// Finishing an imported card: one short step for the choices a card does not state.

/** Whether the persona is a draft that came from a character card: what the finishing step serves. */
export function canFinishImport(persona: Pick<Persona, "status" | "cardMeta">): boolean {
  return persona.status === "in_progress" && persona.cardMeta !== null;
}

/** The step's starting values: the persona's stored choices, the rest guessed from the card's texts and tags. */
export function finishImportGuess(persona: Persona): FinishImportGuess {
  const meta = parseCardMeta(persona.cardMeta);
  const voice = personaVoice(persona);
  return guessMissingFields({
    type: persona.type,
    gender: persona.gender,
    ageRange: persona.ageRange,
    interests: persona.interests,
    texts: [
      persona.description,
      persona.backstory,
      meta?.description,
      meta?.personality,
      meta?.creator_notes,
      voice.scenario,
      voice.greeting,
    ],
    tags: meta?.tags ?? [],
  });
}

export const FINISH_IMPORT_MESSAGES = {
  notADraft: "This persona is ready already.",
  otherFields: "This persona needs more than these details: use Continue Creating to finish it in the wizard.",
} as const;

/**
 * 'Start Chatting' on an imported draft: its type, gender, age range and interests checked like
 * 'Create Persona', and the draft becomes active in one write (history: 'Draft completed'). The
 * card's texts, voice and profile are not touched. Another creator's persona or an unknown id
 * is 404; a persona that is no imported draft, 409.
 */
export async function finishImport(user: CurrentUser, id: string, values: FinishImportInput | unknown): Promise<Persona> {
  const persona = await getPersona(user, id);
  if (!canFinishImport(persona)) throw new PersonaFileError(409, FINISH_IMPORT_MESSAGES.notADraft, undefined, "not_a_draft");
  const choices = finishImportSchema.safeParse(values && typeof values === "object" ? values : {});
  if (!choices.success) {
    const errors = fieldErrorsOf(choices.error.issues, (field) => String(field ?? "type"));
    throw new PersonaFileError(400, Object.values(errors)[0]![0]!, errors);
  }
  const whole = validatePersona(
    {
      name: persona.name,
      description: persona.description ?? "",
      personality: persona.personality,
      backstory: persona.backstory ?? "",
      ...choices.data,
    },
    "create",
  );
  if (!whole.success) throw new PersonaFileError(400, FINISH_IMPORT_MESSAGES.otherFields, whole.errors);
  const { type, gender, ageRange, interests } = whole.data;
  const finished = { ...persona, type, gender, ageRange, interests, description: whole.data.description };
  // Finishing is no edit of the card: its texts, tags, version and dates still go out as they came.
  const meta = parseCardMeta(persona.cardMeta);
  const cardMeta = meta ? cardMetaAfterFinishing(meta, finished, persona.voice) : persona.cardMeta;
  const [row] = await withUser(
    user.id,
    (tx) =>
      tx
        .update(personas)
        .set({
          type,
          gender,
          ageRange,
          interests,
          description: whole.data.description,
          cardMeta: cardMeta as unknown as Record<string, unknown> | null,
          status: "active",
        })
        .where(and(eq(personas.id, id), eq(personas.status, "in_progress")))
        .returning(),
    { email: user.email },
  );
  if (!row) throw new PersonaFileError(404, PERSONA_NOT_FOUND);
  return row;
}
