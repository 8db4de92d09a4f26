// Per-creator generation quotas (numbers in app/infra/web/rate-limit.server.ts): reference image
// generations, backstories, character card imports, persona test runs, lorebook compiles and
// probe suggestions. A request takes its point before the work starts; one refused before that
// (a job already running, a draft, missing fields, a card that cannot be read, the persona
// limit) gets it back, so only work that was started counts. Work that started and failed (the
// model was called) keeps it. Generations that run during the request also take one of the
// creator's running slots, and with a model key every generation takes its model calls from
// the creator's daily ceiling (docs/product.md, Abuse limits).
import { isPremium } from "~/domain/account";
import { imageGenerator, textGenerator } from "~/infra/ai/ai.server";
import { describeError } from "~/infra/web/log.server";
import {
  consumeGenerationAllowance,
  consumeModelCalls,
  RateLimitedError,
  takeRunningSlot,
  type GenerationPoint,
  type GenerationQuota,
  type RunningSlot,
} from "~/infra/web/rate-limit.server";

import { type CurrentUser } from "./accounts.server";
import { ServiceError } from "./service-error.server";

/** A generation past its quota. */
export class QuotaError extends ServiceError {
  override name = "QuotaError";
}

export type { GenerationQuota };

type Who = Pick<CurrentUser, "id" | "subscriptionStatus">;

/** Kinds whose work runs during the request: they hold a running slot while it does. */
const DURING_REQUEST: ReadonlySet<GenerationQuota> = new Set(["backstories", "cardImports", "loreCompiles", "suggestions"]);

/** The model calls one generation of `kind` makes when a model is configured (none on the embedded generators). */
function modelCallsOf(kind: GenerationQuota): number {
  if (kind === "images") return imageGenerator().kind === "local" ? 0 : 2;
  if (kind === "cardImports") return 0;
  return textGenerator().kind === "local" ? 0 : 1;
}

function asHttp(error: unknown): unknown {
  return error instanceof RateLimitedError ? new QuotaError(429, error.message, undefined, "rate_limited", error.retryAfterSeconds) : error;
}

/**
 * Takes `calls` model calls from the creator's daily ceiling (a 429 past it); nothing is taken
 * on the embedded generators. A chat reply takes one.
 */
export async function takeModelCalls(user: Who, calls: number): Promise<GenerationPoint> {
  if (calls > 0 && textGenerator().kind === "local") return { giveBack: async () => {} };
  try {
    return await consumeModelCalls(user.id, isPremium(user.subscriptionStatus), calls);
  } catch (error) {
    throw asHttp(error);
  }
}

/**
 * Runs `run` with one point of the creator's quota taken first: over the quota it is a 429
 * (with Retry-After) and `run` does not start; a refusal by `run` itself (a 4xx
 * ServiceError) gives the point back. A generation that runs during the request also holds a
 * running slot until it ends (a 429 when the creator's slots are taken), and with a model key
 * its model calls come off the daily ceiling (`modelCalls`: a test run's probes; otherwise by
 * kind).
 */
export async function withGenerationQuota<T>(
  kind: GenerationQuota,
  user: Who,
  run: () => Promise<T>,
  options: { modelCalls?: number } = {},
): Promise<T> {
  const premium = isPremium(user.subscriptionStatus);
  const taken: GenerationPoint[] = [];
  let slot: RunningSlot | undefined;
  const giveBack = () =>
    Promise.all(
      taken.map((point) =>
        point.giveBack().catch((e) => console.error(`[quotas] could not give back a ${kind} point of ${user.id}: ${describeError(e)}`)),
      ),
    );
  const release = () =>
    slot?.release().catch((e) => console.error(`[quotas] could not free a running slot of ${user.id}: ${describeError(e)}`));
  try {
    if (DURING_REQUEST.has(kind)) slot = await takeRunningSlot(user.id);
    taken.push(await consumeGenerationAllowance(kind, user.id, premium));
    const calls = options.modelCalls ?? modelCallsOf(kind);
    if (calls > 0 && (kind === "images" ? imageGenerator() : textGenerator()).kind !== "local") {
      taken.push(await consumeModelCalls(user.id, premium, calls));
    }
  } catch (error) {
    await giveBack();
    await release();
    throw asHttp(error);
  }
  try {
    return await run();
  } catch (error) {
    if (error instanceof ServiceError && error.status >= 400 && error.status < 500) await giveBack();
    throw error;
  } finally {
    await release();
  }
}
