// The card check of a persona (docs/cards.md, Card check): the findings for the card this persona
// would export, plus what the file it was imported from had that the export writes right, and the
// one-click fixes, each a new version with a history note. Another creator's persona, an unknown
// or a malformed id is 'Persona Not Found' (404).
import { eq, sql } from "drizzle-orm";

import { CARD_RULES, checkCard, FIXABLE_RULES, type CardFinding, type FixableRule } from "~/domain/card-check";
import { applyCardFix, CARD_FIX_MESSAGES } from "~/domain/card-check-fix";
import { parseCardMeta } from "~/domain/character-card";
import { withoutAiNotice } from "~/domain/ai-disclosure";
import { survivalOf, type TargetSurvival } from "~/domain/card-survival";
import { parseLorebook } from "~/domain/lorebook";
import { withUser } from "~/infra/db/db.server";
import { KEPT_READS, keptOrRead } from "~/infra/db/kept-reads.server";
import { personas, type Persona } from "~/infra/db/schema.server";

import { type CurrentUser } from "./accounts.server";
import { cardTargetRunOf, type CardTargetRunStatus, type CardTargetRunView } from "./card-target-runs.server";
import { cardOfPersona } from "./persona-export.server";
import { getPersona, isUuid, PERSONA_NOT_FOUND } from "./personas.server";
import { ServiceError } from "./service-error.server";

/** A card check or fix that cannot be made. */
export class CardCheckError extends ServiceError {
  override name = "CardCheckError";
}

export interface TargetTests {
  version: number;
  passed: number;
  failed: number;
  status: CardTargetRunStatus;
}

export interface CardSurvival {
  version: number;
  /**
   * Each front end's fate for each field the persona's card uses (docs/cards.md, What survives
   * where), and how the persona's tests fare there in the latest run of this version (null: none).
   */
  targets: (TargetSurvival & { tests: TargetTests | null; losses: string[] })[];
  /** The same probes against the persona as it is here, in that run. */
  here: { passed: number; failed: number } | null;
  /** That run (null: none of this version yet). */
  run: Pick<CardTargetRunView, "runId" | "version" | "status" | "model" | "error" | "createdAt" | "finishedAt"> | null;
}

export interface CardCheckResult {
  /** The persona's version the findings are about (a fix names it: a change since is a 409). */
  version: number;
  findings: CardFinding[];
  /** What the imported file had that this product's export writes right (docs/cards.md): its container, its types. */
  imported: CardFinding[];
  survival: CardSurvival["targets"];
  here: CardSurvival["here"];
  run: CardSurvival["run"];
}

/** The persona's own texts, for pattern keys that match nothing in them. */
function ownTexts(data: Record<string, unknown>): string[] {
  const texts = ["description", "personality", "scenario", "first_mes", "mes_example", "system_prompt", "post_history_instructions"].map(
    (key) => (typeof data[key] === "string" ? (data[key] as string) : ""),
  );
  const book = data.character_book as { entries?: { content?: unknown }[] } | undefined;
  for (const entry of book?.entries ?? []) if (typeof entry?.content === "string") texts.push(entry.content);
  return texts;
}

/** The findings for a persona row: its export card as a card PNG of ours (V2 chunk first, then V3). */
function findingsOf(row: Persona, card: { data: Record<string, unknown> }): CardFinding[] {
  const findings = checkCard({ card, container: { kind: "png", chunks: ["chara", "ccv3"] }, texts: ownTexts(card.data) });
  return findings;
}

/** What the import's own file said (kept with the card data at import). */
function importedFindings(row: Persona): CardFinding[] {
  const meta = parseCardMeta(row.cardMeta);
  return meta?.checkedAtImport ?? [];
}

/**
 * The card check page's data: the persona's name and its card check. Kept until the persona, its
 * versions or its runs in each front end change, and only while no run is under way
 * (KEPT_READS.cardChecks).
 */
export async function cardCheckPage(
  user: CurrentUser,
  id: string,
): Promise<{ persona: { id: string; name: string }; check: CardCheckResult }> {
  if (!isUuid(id)) throw new CardCheckError(404, PERSONA_NOT_FOUND);
  return keptOrRead(
    KEPT_READS.cardChecks,
    [user.id, id],
    async () => {
      const row = await getPersona(user, id);
      const { card, version } = await cardOfPersona(user, row);
      const { targets, here, run } = await survivalWithTests(user, row.id, card.data, version);
      const check = { version, findings: findingsOf(row, card), imported: importedFindings(row), survival: targets, here, run };
      return { persona: { id: row.id, name: row.name }, check };
    },
    ({ check }) => check.run === null || (check.run.status !== "queued" && check.run.status !== "running"),
  );
}

/** The card check of a persona (GET /api/personas/{id}/card-check). */
export async function cardCheck(user: CurrentUser, id: string): Promise<CardCheckResult> {
  return (await cardCheckPage(user, id)).check;
}

/** The table's fates, with the latest run of this version in each front end. */
async function survivalWithTests(
  user: CurrentUser,
  id: string,
  data: Record<string, unknown>,
  version: number,
): Promise<Omit<CardSurvival, "version">> {
  const latest = await cardTargetRunOf(user, id, Math.max(version, 1));
  const targets = survivalOf(data).map((target) => {
    const result = latest?.results.find((r) => r.target === target.target);
    const tests: TargetTests | null = latest
      ? {
          version: latest.version,
          passed: result?.passed ?? 0,
          failed: result?.failed ?? 0,
          status: result ? "completed" : latest.status === "completed" ? "failed" : latest.status,
        }
      : null;
    return { ...target, tests, losses: result?.losses ?? [] };
  });
  const run = latest
    ? (({ runId, version: v, status, model, error, createdAt, finishedAt }) => ({
        runId,
        version: v,
        status,
        model,
        error,
        createdAt,
        finishedAt,
      }))(latest)
    : null;
  return { targets, here: latest?.here ?? null, run };
}

/** What survives where for a persona's card. */
export async function cardSurvival(user: CurrentUser, id: string): Promise<CardSurvival> {
  const row = await getPersona(user, id);
  const { card, version } = await cardOfPersona(user, row);
  return { version, ...(await survivalWithTests(user, row.id, card.data, version)) };
}

const isFixable = (rule: unknown): rule is FixableRule => typeof rule === "string" && (FIXABLE_RULES as readonly string[]).includes(rule);

/**
 * Applies the fix of one finding ({ rule, field, version? }): checked against the persona as it
 * is now, in one transaction with the row locked; written as a new version whose history says what
 * was done. 400 when the rule has no fix; 409 when the persona changed since `version` or the
 * finding is no longer there; nothing changes then.
 */
export async function fixCardFinding(
  user: CurrentUser,
  id: string,
  raw: unknown,
): Promise<{ version: number; note: string; persona: Persona }> {
  const body = raw && typeof raw === "object" ? (raw as Record<string, unknown>) : {};
  const { rule, field } = body;
  if (typeof rule !== "string" || !(CARD_RULES as readonly string[]).includes(rule))
    throw new CardCheckError(400, "Name the finding to fix: rule must be one of the card check's rules.", { rule: ["Choose a finding."] });
  if (!isFixable(rule)) throw new CardCheckError(400, CARD_FIX_MESSAGES.noFix, { rule: [CARD_FIX_MESSAGES.noFix] });
  if (typeof field !== "string" || field.length === 0 || field.length > 200)
    throw new CardCheckError(400, "Name the field the finding is about.", { field: ["Name the field the finding is about."] });
  const asked = body.version;
  if (
    asked !== undefined &&
    asked !== null &&
    asked !== "" &&
    !(typeof asked === "number" || (typeof asked === "string" && /^\d{1,10}$/.test(asked)))
  )
    throw new CardCheckError(400, "version must be a version number.", { version: ["version must be a version number."] });
  if (!isUuid(id)) throw new CardCheckError(404, PERSONA_NOT_FOUND);

  return withUser(user.id, async (tx) => {
    const [row] = await tx.select().from(personas).where(eq(personas.id, id)).for("update");
    if (!row) throw new CardCheckError(404, PERSONA_NOT_FOUND);
    const { card, version } = await cardOfPersona(user, row, tx);
    if (asked !== undefined && asked !== null && asked !== "" && Number(asked) !== version)
      throw new CardCheckError(409, CARD_FIX_MESSAGES.changed, undefined, "changed");
    const finding = findingsOf(row, card).find((candidate) => candidate.rule === rule && candidate.field === field && candidate.fix);
    if (!finding) throw new CardCheckError(409, CARD_FIX_MESSAGES.gone, undefined, "gone");
    const data = {
      ...card.data,
      creator_notes: withoutAiNotice(typeof card.data.creator_notes === "string" ? card.data.creator_notes : ""),
    };
    const outcome = applyCardFix(rule, field, { lore: parseLorebook(row.lore), cardMeta: parseCardMeta(row.cardMeta), data });
    if (!outcome.ok) throw new CardCheckError(outcome.status, outcome.message);
    await tx.execute(sql`select set_config('personaforge.version_note', ${outcome.note}, true)`);
    const [persona] = await tx
      .update(personas)
      .set({
        ...(outcome.lore ? { lore: { ...((row.lore as object) ?? {}), ...outcome.lore } as unknown as Record<string, unknown> } : {}),
        ...(outcome.cardMeta ? { cardMeta: outcome.cardMeta as unknown as Record<string, unknown> } : {}),
      })
      .where(eq(personas.id, id))
      .returning();
    if (!persona) throw new CardCheckError(404, PERSONA_NOT_FOUND);
    return { version: version + 1, note: outcome.note, persona };
  });
}
