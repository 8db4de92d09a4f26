// The billing adapter (docs/architecture.md, Adapters): Stripe through the official `stripe` package when
// STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET and STRIPE_PRICE_ID are set, else none (the page
// says upgrading is unavailable and the API answers 503). STRIPE_API_URL points the client
// at another host (stripe-mock, the tests' fake) that it then talks to exactly as to Stripe.
// Services call billing(); routes never do. The `stripe` package is loaded at the first call to
// Stripe (about 4 MB of heap), so a server without billing never holds it (docs/decisions/033).
import type Stripe from "stripe";

import { getEnv, modes, type Env } from "../setup/env.server";

/** Each Stripe call gives up after this long, so a slow Stripe becomes a failure toast well within 10 s. */
export const STRIPE_TIMEOUT_MS = 4000;
/** Larger than any Stripe event (their payloads are a few KB). */
export const MAX_WEBHOOK_BYTES = 512 * 1024;

export type BillingErrorKind = "unavailable" | "rejected" | "not_found" | "signature" | "malformed";

/** A Stripe failure as the services need it: unreachable or slow, refused, a missing object, a bad signature. */
export class BillingError extends Error {
  override name = "BillingError";
  constructor(
    public readonly kind: BillingErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A subscription as the plan needs it, read from Stripe at the moment of use. */
export interface SubscriptionState {
  id: string;
  customerId: string;
  /** Stripe's status: active, trialing, past_due, unpaid, canceled, incomplete, incomplete_expired, paused. */
  status: string;
  currentPeriodEnd: Date | null;
  trialEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  /** Our user id, when Checkout put it into the subscription's metadata. */
  userId: string | null;
}

/** The part of a verified event the webhook reads. */
export interface BillingEvent {
  id: string;
  type: string;
  object: Record<string, unknown>;
}

export interface Billing {
  priceId: string;
  trialDays: number;
  /** `replacing`: a stored customer Stripe no longer knows (deleted, or from the other mode's keys). */
  createCustomer(input: { userId: string; email: string; name: string | null; replacing?: string }): Promise<string>;
  createCheckoutSession(input: { customerId: string; userId: string; successUrl: string; cancelUrl: string }): Promise<string>;
  createPortalSession(input: { customerId: string; returnUrl: string }): Promise<string>;
  /** The subscription as Stripe has it now; null when Stripe does not know it. */
  retrieveSubscription(id: string): Promise<SubscriptionState | null>;
  /** Verifies the signature of a raw webhook body (and its timestamp's tolerance) and parses the event. */
  verifyEvent(rawBody: Uint8Array, signature: string): Promise<BillingEvent>;
}

export type BillingEnv = Pick<
  Env,
  "STRIPE_SECRET_KEY" | "STRIPE_WEBHOOK_SECRET" | "STRIPE_PRICE_ID" | "STRIPE_API_URL" | "STRIPE_TRIAL_DAYS"
>;

/** The `stripe` package, once a call has loaded it. */
let sdk: typeof Stripe | undefined;
async function loadStripe(): Promise<typeof Stripe> {
  sdk ??= (await import("stripe")).default;
  return sdk;
}

function toBillingError(error: unknown): BillingError {
  if (error instanceof BillingError) return error;
  const errors = sdk?.errors;
  if (errors && error instanceof errors.StripeError) {
    if (error.code === "resource_missing" || error.statusCode === 404)
      return new BillingError("not_found", error.message, { cause: error });
    if (
      error instanceof errors.StripeConnectionError ||
      error instanceof errors.StripeAPIError ||
      error instanceof errors.StripeRateLimitError ||
      (error.statusCode ?? 0) >= 500
    ) {
      return new BillingError("unavailable", error.message, { cause: error });
    }
    return new BillingError("rejected", error.message, { cause: error });
  }
  return new BillingError("unavailable", error instanceof Error ? error.message : String(error), { cause: error });
}

async function call<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw toBillingError(error);
  }
}

const seconds = (value: unknown) => (typeof value === "number" && value > 0 ? new Date(value * 1000) : null);
const idOf = (value: unknown) =>
  typeof value === "string"
    ? value
    : value && typeof value === "object" && typeof (value as { id?: unknown }).id === "string"
      ? (value as { id: string }).id
      : null;

/** Reads a Stripe subscription object; the period end moved to its items in API 2025-03-31 (older objects have it on top). */
export function subscriptionState(sub: Stripe.Subscription): SubscriptionState {
  const item = sub.items?.data?.[0] as (Stripe.SubscriptionItem & { current_period_end?: number }) | undefined;
  const legacyEnd = (sub as unknown as { current_period_end?: number }).current_period_end;
  const userId = sub.metadata?.user_id;
  return {
    id: sub.id,
    customerId: idOf(sub.customer) ?? "",
    status: sub.status,
    currentPeriodEnd: seconds(item?.current_period_end ?? legacyEnd),
    trialEnd: seconds(sub.trial_end),
    cancelAtPeriodEnd: sub.cancel_at_period_end === true || seconds(sub.cancel_at) !== null,
    userId: typeof userId === "string" && userId ? userId : null,
  };
}

export function createStripeBilling(env: BillingEnv): Billing | null {
  if (modes.billing(env as Env) !== "stripe" || !env.STRIPE_SECRET_KEY || !env.STRIPE_WEBHOOK_SECRET || !env.STRIPE_PRICE_ID) return null;
  const webhookSecret = env.STRIPE_WEBHOOK_SECRET;
  const priceId = env.STRIPE_PRICE_ID;
  const trialDays = env.STRIPE_TRIAL_DAYS ?? 0;
  const api = env.STRIPE_API_URL ? new URL(env.STRIPE_API_URL) : null;
  const secretKey = env.STRIPE_SECRET_KEY;
  let client: Stripe | undefined;
  const connect = async () => {
    const StripeClient = await loadStripe();
    client ??= new StripeClient(secretKey, {
      timeout: STRIPE_TIMEOUT_MS,
      // Creation calls carry idempotency keys, so the SDK may retry them once on a network error or a 5xx.
      maxNetworkRetries: 1,
      appInfo: { name: "PersonaForge" },
      telemetry: false,
      ...(api
        ? {
            host: api.hostname,
            port: api.port || (api.protocol === "https:" ? 443 : 80),
            protocol: api.protocol === "https:" ? "https" : "http",
          }
        : {}),
    });
    return client;
  };

  return {
    priceId,
    trialDays,
    createCustomer: ({ userId, email, name, replacing }) =>
      call(async () => {
        const customer = await (
          await connect()
        ).customers.create(
          { email, ...(name ? { name } : {}), metadata: { user_id: userId } },
          // Two checkouts started at once make one customer.
          { idempotencyKey: `personaforge-customer-${userId}${replacing ? `-replacing-${replacing}` : ""}` },
        );
        return customer.id;
      }),
    createCheckoutSession: ({ customerId, userId, successUrl, cancelUrl }) =>
      call(async () => {
        const session = await (
          await connect()
        ).checkout.sessions.create({
          mode: "subscription",
          customer: customerId,
          client_reference_id: userId,
          line_items: [{ price: priceId, quantity: 1 }],
          success_url: successUrl,
          cancel_url: cancelUrl,
          subscription_data: {
            metadata: { user_id: userId },
            ...(trialDays > 0 ? { trial_period_days: trialDays } : {}),
          },
          metadata: { user_id: userId },
        });
        if (!session.url) throw new BillingError("rejected", "Stripe returned a Checkout Session without a URL.");
        return session.url;
      }),
    createPortalSession: ({ customerId, returnUrl }) =>
      call(async () => {
        const session = await (await connect()).billingPortal.sessions.create({ customer: customerId, return_url: returnUrl });
        return session.url;
      }),
    retrieveSubscription: async (id) => {
      try {
        return subscriptionState(await (await connect()).subscriptions.retrieve(id));
      } catch (error) {
        const failure = toBillingError(error);
        if (failure.kind === "not_found") return null;
        throw failure;
      }
    },
    verifyEvent: async (rawBody, signature) => {
      const stripe = await call(connect);
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(Buffer.from(rawBody), signature, webhookSecret);
      } catch (error) {
        // A signed body that is no JSON event is as unusable as a forged one, but says something else.
        const kind = error instanceof (await loadStripe()).errors.StripeSignatureVerificationError ? "signature" : "malformed";
        throw new BillingError(kind, error instanceof Error ? error.message : "Invalid signature", { cause: error });
      }
      if (!event || typeof event.id !== "string" || typeof event.type !== "string") {
        throw new BillingError("malformed", "The body is not a Stripe event.");
      }
      const object = (event.data?.object ?? {}) as unknown as Record<string, unknown>;
      return { id: event.id, type: event.type, object };
    },
  };
}

let current: Billing | null | undefined;

/** The configured billing adapter, or null when Stripe is not configured on this server. */
export function billing(): Billing | null {
  if (current === undefined) current = createStripeBilling(getEnv());
  return current;
}

/** Tests install their own adapter (null: not configured; undefined: back to the environment's). */
export function useBilling(next: Billing | null | undefined): void {
  current = next;
}
