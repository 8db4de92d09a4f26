// Per-creator generation quotas (numbers in app/infra/web/rate-limit.server.ts): reference image
// generations, backstories and character card imports. A request takes its point before the
// work starts; one refused before that (a job already running, a draft, missing fields, a
// card that cannot be read, the persona limit) gets it back, so only work that was started
// counts. Work that started and failed (the model was called) keeps it.
import { isPremium } from "~/domain/account";
import { describeError } from "~/infra/web/log.server";
import { consumeGenerationAllowance, RateLimitedError, type GenerationQuota } from "~/infra/web/rate-limit.server";

import { AccountError, type CurrentUser } from "./accounts.server";

export type { GenerationQuota };

/**
 * Runs `run` with one point of the creator's quota taken first: over the quota it is a 429
 * (with Retry-After) and `run` does not start; a refusal by `run` itself (a 4xx
 * AccountError) gives the point back.
 */
export async function withGenerationQuota<T>(
  kind: GenerationQuota,
  user: Pick<CurrentUser, "id" | "subscriptionStatus">,
  run: () => Promise<T>,
): Promise<T> {
  let point;
  try {
    point = await consumeGenerationAllowance(kind, user.id, isPremium(user.subscriptionStatus));
  } catch (error) {
    if (error instanceof RateLimitedError) throw new AccountError(429, error.message, undefined, "rate_limited", error.retryAfterSeconds);
    throw error;
  }
  try {
    return await run();
  } catch (error) {
    if (error instanceof AccountError && error.status >= 400 && error.status < 500) {
      await point.giveBack().catch((e) => console.error(`[quotas] could not give back a ${kind} point of ${user.id}: ${describeError(e)}`));
    }
    throw error;
  }
}
