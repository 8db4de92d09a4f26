// Taking a persona out of the product and bringing character cards in (docs/product.md,
// Exports and character cards). Exports: Text, JSON, Markdown, YAML, and Character
// Card V3 as JSON or as a PNG (the persona's portrait with the card in `ccv3` and a V2 copy in
// `chara`). Imports: a V2 or V3 card as JSON or PNG becomes a new persona, subject to the
// Free plan's limit, keeping what the persona does not model for the next export. Every export
// says which parts of the persona AI generated and by what (docs/product.md, AI disclosure).
import { parseWithZod } from "@conform-to/zod/v4";
import { and, asc, desc, eq } from "drizzle-orm";

import { aiGenerator, chatTranscriptNotice, type AiGeneratedPart } from "~/domain/ai-disclosure";
import { checkCard, type CardContainer, type CardFinding, type CardRule } from "~/domain/card-check";
import {
  CARD_IMPORT_MESSAGES,
  cardImportSchema,
  finishImportSchema,
  guessMissingFields,
  type FinishImportGuess,
  type FinishImportInput,
} from "~/domain/card-import";
import { cardJson, cardMetaAfterFinishing, parseCard, parseCardMeta, toCardV2, toCardV3 } from "~/domain/character-card";
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
import { JsonLimitError, parseJsonWithinLimits } from "~/domain/json-limits";
import { validatePersona } from "~/domain/persona-form";
import { generatorsInUse } from "~/infra/ai/ai.server";
import { withUser, type Tx } from "~/infra/db/db.server";
import { generations, personas, personaVersions, type Persona } from "~/infra/db/schema";
import {
  cardPng,
  portraitPng,
  PngError,
  readCardFromPng,
  readPngTextChunks,
  hasPngSignature,
  withoutCardChunks,
} from "~/infra/formats/png.server";

import { AccountError, type CurrentUser } from "./accounts.server";
import { withGenerationQuota } from "./generation-quotas.server";
import { referenceImagePng, removePersonaImages, storeImportedPicture } from "./images.server";
import { currentVersion } from "./persona-history.server";
import { importProbes, listProbes } from "./probes.server";
import { generatedTextDigest, getPersona, insertPersona, PERSONA_NOT_FOUND, personaExtended, personaVoice } from "./personas.server";

export { personaExtended };

export const CARD_FORMATS = {
  "card-json": { label: "Character Card .json", toastName: "CHARACTER CARD JSON" },
  "card-png": { label: "Character Card .png", toastName: "CHARACTER CARD PNG" },
} as const;
export type CardFormat = keyof typeof CARD_FORMATS;
export type AnyExportFormat = keyof typeof EXPORT_FORMATS | CardFormat;

export const EXPORT_FORMAT_LIST: AnyExportFormat[] = ["txt", "json", "md", "yaml", "card-json", "card-png"];

export function isAnyExportFormat(value: unknown): value is AnyExportFormat {
  return isExportFormat(value) || value === "card-json" || value === "card-png";
}

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
export async function exportFile(user: CurrentUser, id: string, format: AnyExportFormat): Promise<ExportFile> {
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
  const v3 = cardJson(toCardV3(persona, extended, options));
  if (format === "card-json") {
    return { filename: exportFileName(row.name, "card.json"), contentType: "application/json", body: v3 };
  }
  const v2 = cardJson(toCardV2(persona, extended, options));
  // The persona's reference image as the card's picture; a portrait from its id when it has none.
  const png = cardPng((await referenceImagePng(row)) ?? portraitPng(row.id), v3, v2);
  return { filename: exportFileName(row.name, "card.png"), contentType: "image/png", body: png };
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
export const MAX_CARD_BYTES = 8 * 1024 * 1024;

export const IMPORT_MESSAGES = {
  empty: CARD_IMPORT_MESSAGES.empty,
  tooLarge: `This file is too large. A character card can be at most ${MAX_CARD_BYTES / 1024 / 1024} MB.`,
  notJson: "This file is neither a PNG character card nor valid JSON.",
  notUtf8: "This JSON file is not valid UTF-8 text.",
} as const;

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
  if (!(entry instanceof File) || entry.size === 0) throw new AccountError(400, IMPORT_MESSAGES.empty, { file: [IMPORT_MESSAGES.empty] });
  return new Uint8Array(await entry.arrayBuffer());
}

/** The card inside a file: a PNG with a `ccv3`/`chara` chunk, or JSON. Anything else is a 400. */
export function cardFromBytes(bytes: Uint8Array): unknown {
  if (bytes.byteLength === 0) throw new AccountError(400, IMPORT_MESSAGES.empty);
  if (bytes.byteLength > MAX_CARD_BYTES) throw new AccountError(413, IMPORT_MESSAGES.tooLarge);
  if (hasPngSignature(bytes)) {
    try {
      return readCardFromPng(bytes, { maxBytes: MAX_CARD_BYTES });
    } catch (error) {
      if (error instanceof PngError) throw new AccountError(400, error.message, undefined, `png_${error.code}`);
      throw error;
    }
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new AccountError(400, IMPORT_MESSAGES.notUtf8);
  }
  try {
    return parseJsonWithinLimits(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    if (error instanceof JsonLimitError) throw new AccountError(400, error.message, undefined, "json_limits");
    throw new AccountError(400, IMPORT_MESSAGES.notJson);
  }
}

/**
 * A card file (PNG or JSON) as a new persona; a PNG card's picture becomes its reference image.
 * Counts against the creator's hourly import quota (429 beyond it); a card refused for what it
 * is (unreadable, too large, over the plan's persona limit) does not.
 */
export async function importCardFile(user: CurrentUser, bytes: Uint8Array): Promise<ImportedPersona> {
  return withGenerationQuota("cardImports", user, async () => {
    const card = cardFromBytes(bytes);
    const png = hasPngSignature(bytes);
    const container: CardContainer = png
      ? { kind: "png", chunks: readPngTextChunks(bytes, { maxBytes: MAX_CARD_BYTES }).map((chunk) => chunk.keyword) }
      : { kind: "json" };
    return importCard(user, card, png ? withoutCardChunks(bytes) : undefined, container);
  });
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
): Promise<ImportedPersona> {
  const parsed = parseCard(card);
  if (!parsed.ok) {
    throw parsed.tooLarge
      ? new AccountError(413, parsed.message, undefined, "card_too_large")
      : new AccountError(400, parsed.message, undefined, "invalid_card");
  }
  const findings = checkCard({ card, container });
  const fileFindings = findings.filter(
    (finding) => FILE_RULES.has(finding.rule) && (finding.field !== "spec" || container.kind !== "json"),
  );
  if (fileFindings.length) parsed.card.cardMeta.checkedAtImport = fileFindings.slice(0, 50);
  // The picture is stored first, so the persona's first version already carries it.
  const image = picture ? await storeImportedPicture(user.id, picture) : null;
  try {
    const persona = await insertImported(user, image, parsed.card);
    // The persona's tests a card of ours carried (docs/product.md, Persona tests), as they were.
    if (parsed.card.probes.length) await importProbes(user, persona.id, parsed.card.probes);
    return {
      ...persona,
      importNotes: parsed.card.notes,
      cardCheck: findings,
      ...(canFinishImport(persona) ? { finishImport: { guess: finishImportGuess(persona) } } : {}),
    };
  } catch (error) {
    if (image?.imageUrl) await removePersonaImages(user.id, image.personaId);
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
      ...(image?.imageUrl ? { id: image.personaId, imageUrl: image.imageUrl } : {}),
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
  if (!canFinishImport(persona)) throw new AccountError(409, FINISH_IMPORT_MESSAGES.notADraft, undefined, "not_a_draft");
  const choices = finishImportSchema.safeParse(values && typeof values === "object" ? values : {});
  if (!choices.success) {
    const errors = fieldErrorsOf(choices.error.issues, (field) => String(field ?? "type"));
    throw new AccountError(400, Object.values(errors)[0]![0]!, errors);
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
  if (!whole.success) throw new AccountError(400, FINISH_IMPORT_MESSAGES.otherFields, whole.errors);
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
  if (!row) throw new AccountError(404, PERSONA_NOT_FOUND);
  return row;
}
