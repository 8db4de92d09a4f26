// Abuse limits (in memory, per server process): failed sign-ins per e-mail and per
// client, account e-mails per address and per client, and chat messages per user.
import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";

export class RateLimitedError extends Error {
  override name = "RateLimitedError";
  constructor(
    message: string,
    public readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

const FIFTEEN_MINUTES = 15 * 60;
/** Chat messages (sent or regenerated replies) one user may ask for in a minute. */
export const CHAT_MESSAGES_PER_MINUTE = 20;
const HOUR = 60 * 60;

function createLimiters() {
  return {
    failedSignIns: new RateLimiterMemory({ keyPrefix: "sign-in", points: 5, duration: FIFTEEN_MINUTES }),
    mailsPerAddress: new RateLimiterMemory({ keyPrefix: "mail-address", points: 3, duration: HOUR }),
    mailsPerClient: new RateLimiterMemory({ keyPrefix: "mail-client", points: 10, duration: HOUR }),
    chatMessages: new RateLimiterMemory({ keyPrefix: "chat", points: CHAT_MESSAGES_PER_MINUTE, duration: 60 }),
  };
}
let limiters = createLimiters();

const minutes = (seconds: number) => Math.max(1, Math.ceil(seconds / 60));

/** Refuses a sign-in attempt when the e-mail or the client already failed 5 times in 15 minutes. */
export async function assertSignInAllowed(email: string, client: string): Promise<void> {
  for (const key of [`email:${email.toLowerCase()}`, `client:${client}`]) {
    const state = await limiters.failedSignIns.get(key);
    if (state && state.consumedPoints >= 5) {
      const retry = Math.ceil(state.msBeforeNext / 1000);
      throw new RateLimitedError(
        `Too many failed sign-in attempts. Please try again in ${minutes(retry)} minute${minutes(retry) === 1 ? "" : "s"}.`,
        retry,
      );
    }
  }
}

export async function recordFailedSignIn(email: string, client: string): Promise<void> {
  for (const key of [`email:${email.toLowerCase()}`, `client:${client}`]) {
    await limiters.failedSignIns.penalty(key, 1);
  }
}

export async function clearFailedSignIns(email: string): Promise<void> {
  await limiters.failedSignIns.delete(`email:${email.toLowerCase()}`);
}

/** Counts one account e-mail (verification, reset, resend) against the address and the client. */
export async function consumeMailAllowance(email: string, client: string): Promise<void> {
  try {
    await limiters.mailsPerAddress.consume(email.toLowerCase());
    await limiters.mailsPerClient.consume(client);
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) {
      const retry = Math.ceil(rejection.msBeforeNext / 1000);
      throw new RateLimitedError(
        `Too many e-mails requested. Please try again in ${minutes(retry)} minute${minutes(retry) === 1 ? "" : "s"}.`,
        retry,
      );
    }
    throw rejection;
  }
}

/** Counts one chat reply a user asks for; the 21st within a minute is refused. */
export async function consumeChatAllowance(userId: string): Promise<void> {
  try {
    await limiters.chatMessages.consume(userId);
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) {
      const retry = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
      throw new RateLimitedError(
        `Too many messages: at most ${CHAT_MESSAGES_PER_MINUTE} a minute. Please try again in ${retry} second${retry === 1 ? "" : "s"}.`,
        retry,
      );
    }
    throw rejection;
  }
}

/** Tests start each case with clean counters. */
export function resetRateLimits(): void {
  limiters = createLimiters();
}
