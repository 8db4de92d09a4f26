// Subscription and payments (docs/product.md, Subscription): the creator's plan, Stripe Checkout and the Customer
// Portal, the signed webhook that is the only way a plan changes (besides the operator's
// `npm run plan`), and what a server without Stripe says. The page's actions and the JSON
// API call these same functions.
//
// The webhook trusts nothing but the signature: whatever event arrives, the subscription's
// current state is read back from Stripe, so events delivered twice or out of order leave the
// plan as Stripe has it now. Plans are written only through the service-role door, naming why.
import { eq, sql } from "drizzle-orm";
import { authUsers } from "drizzle-orm/supabase";

import { isPremium } from "~/domain/account";
import {
  BILLING_MESSAGES,
  planFromStripeStatus,
  RETURN_PARAM,
  SUBSCRIPTION_PATH,
  SUBSCRIPTION_TOASTS,
  trialDaysLeft,
  type PlanSummary,
} from "~/domain/subscription";
import { billing, BillingError, type Billing, type BillingEvent, type SubscriptionState } from "~/infra/payments/payments.server";

/** The largest Stripe event body the webhook reads. */
export { MAX_WEBHOOK_BYTES } from "~/infra/payments/payments.server";
import { profiles, stripeEvents } from "~/infra/db/schema.server";
import { withAuthTables, withServiceRole, withUser, type Tx } from "~/infra/db/db.server";
import { getEnv } from "~/infra/setup/env.server";

import { type CurrentUser } from "./accounts.server";
import { ServiceError } from "./service-error.server";

/** A subscription change that cannot be made. */
export class SubscriptionError extends ServiceError {
  override name = "SubscriptionError";
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The events that can change a plan; any other type is acknowledged and ignored. */
export const HANDLED_EVENTS = [
  "checkout.session.completed",
  "customer.subscription.created",
  "customer.subscription.updated",
  "customer.subscription.deleted",
  "invoice.paid",
  "invoice.payment_failed",
] as const;

export function billingConfigured(): boolean {
  return billing() !== null;
}

function requireBilling(): Billing {
  const adapter = billing();
  if (!adapter) throw new SubscriptionError(503, BILLING_MESSAGES.notConfigured, undefined, "payments_not_configured");
  return adapter;
}

export interface CreatorPlan extends PlanSummary {
  hasCustomer: boolean;
}

/** The creator's plan as the database has it (read as the user, through RLS). */
export async function creatorPlan(user: CurrentUser, now = new Date()): Promise<CreatorPlan> {
  const [row] = await withUser(user.id, (tx) =>
    tx
      .select({
        status: profiles.subscriptionStatus,
        customerId: profiles.stripeCustomerId,
        periodEnd: profiles.subscriptionExpiresAt,
        trialEndsAt: profiles.trialEndsAt,
        cancelAtPeriodEnd: profiles.subscriptionCancelAtPeriodEnd,
      })
      .from(profiles)
      .where(eq(profiles.id, user.id)),
  );
  const status = row?.status ?? "free";
  return {
    status,
    premium: isPremium(status),
    trialDaysLeft: trialDaysLeft(status, row?.trialEndsAt ?? null, now),
    currentPeriodEnd: row?.periodEnd ? row.periodEnd.toISOString() : null,
    cancelAtPeriodEnd: row?.cancelAtPeriodEnd ?? false,
    hasCustomer: Boolean(row?.customerId),
  };
}

/** GET /api/subscription/status (docs/product.md, API overview). */
export async function subscriptionStatus(
  user: CurrentUser,
): Promise<{ status: string; currentPeriodEnd: string | null; trialDaysLeft: number }> {
  const plan = await creatorPlan(user);
  return { status: plan.status, currentPeriodEnd: plan.currentPeriodEnd, trialDaysLeft: plan.trialDaysLeft };
}

/** A checkout or portal answer (one or two Stripe calls) never takes longer than this: the toast comes within 10 s. */
export const BILLING_DEADLINE_MS = 9000;

function withinDeadline<T>(work: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new BillingError("unavailable", `Stripe did not answer within ${BILLING_DEADLINE_MS / 1000} s.`)),
      BILLING_DEADLINE_MS,
    );
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

const returnUrl = (kind: string) => `${getEnv().APP_URL}${SUBSCRIPTION_PATH}?${RETURN_PARAM}=${kind}`;

function providerFailure(error: unknown, toast: { description: string }, what: string): SubscriptionError {
  if (error instanceof BillingError) {
    console.error(`[billing] ${what} failed (${error.kind}): ${error.message}`);
    return new SubscriptionError(502, toast.description, undefined, "payment_provider_failed");
  }
  throw error;
}

async function customerIdOf(user: CurrentUser): Promise<string | null> {
  const [row] = await withUser(user.id, (tx) =>
    tx.select({ customerId: profiles.stripeCustomerId }).from(profiles).where(eq(profiles.id, user.id)),
  );
  return row?.customerId ?? null;
}

/**
 * The creator's Stripe customer: the stored one, or a new one, stored (the first stored wins a
 * race). `stale` is a stored customer Stripe does not know any more (deleted, or created with
 * the test keys before the live ones): it is replaced.
 */
async function ensureCustomer(adapter: Billing, user: CurrentUser, stale?: string): Promise<string> {
  const existing = await customerIdOf(user);
  if (existing && existing !== stale) return existing;
  const created = await adapter.createCustomer({
    userId: user.id,
    email: user.email,
    name: [user.firstName, user.lastName].filter(Boolean).join(" ") || null,
    ...(stale ? { replacing: stale } : {}),
  });
  const [row] = await withServiceRole(
    stale
      ? `replace the creator's Stripe customer ${stale}, unknown to Stripe, for a checkout`
      : "store the Stripe customer created for the creator's checkout",
    (tx) =>
      tx
        .update(profiles)
        .set({
          stripeCustomerId: stale
            ? sql`case when ${profiles.stripeCustomerId} = ${stale} then ${created} else ${profiles.stripeCustomerId} end`
            : sql`coalesce(${profiles.stripeCustomerId}, ${created})`,
        })
        .where(eq(profiles.id, user.id))
        .returning({ customerId: profiles.stripeCustomerId }),
  );
  return row?.customerId ?? created;
}

/**
 * Upgrade: a Stripe Checkout Session (subscription mode, STRIPE_PRICE_ID, the trial when
 * configured) for the creator's customer; a creator already on Premium goes to the portal.
 */
export async function startCheckout(user: CurrentUser): Promise<{ url: string; to: "checkout" | "portal" }> {
  const adapter = requireBilling();
  const plan = await creatorPlan(user);
  if (plan.premium) return { ...(await openPortal(user)), to: "portal" };
  try {
    const url = await withinDeadline(
      (async () => {
        const session = (customerId: string) =>
          adapter.createCheckoutSession({
            customerId,
            userId: user.id,
            successUrl: returnUrl("success"),
            cancelUrl: returnUrl("cancelled"),
          });
        const customerId = await ensureCustomer(adapter, user);
        try {
          return await session(customerId);
        } catch (error) {
          // 'No such customer': the stored one is gone from this Stripe account; make a new one, once.
          if (!(error instanceof BillingError && error.kind === "not_found")) throw error;
          return session(await ensureCustomer(adapter, user, customerId));
        }
      })(),
    );
    return { url, to: "checkout" };
  } catch (error) {
    throw providerFailure(error, SUBSCRIPTION_TOASTS.checkoutFailed, "checkout");
  }
}

/** Manage: a Customer Portal session; 409 while the creator has no Stripe customer yet. */
export async function openPortal(user: CurrentUser): Promise<{ url: string }> {
  const adapter = requireBilling();
  const customerId = await customerIdOf(user);
  if (!customerId) throw new SubscriptionError(409, BILLING_MESSAGES.noCustomer, undefined, "no_subscription");
  try {
    return { url: await withinDeadline(adapter.createPortalSession({ customerId, returnUrl: returnUrl("portal") })) };
  } catch (error) {
    throw providerFailure(error, SUBSCRIPTION_TOASTS.portalFailed, "portal");
  }
}

// ---------------------------------------------------------------------------------
// Webhook
// ---------------------------------------------------------------------------------

export type WebhookOutcome =
  "applied" | "duplicate" | "ignored" | "unknown_customer" | "unknown_subscription" | "stale_subscription" | "customer_linked";

const str = (value: unknown): string | null => (typeof value === "string" && value ? value : null);
const idOf = (value: unknown): string | null =>
  str(value) ?? (value && typeof value === "object" ? str((value as { id?: unknown }).id) : null);
const at = (value: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>((v, key) => (v && typeof v === "object" ? (v as Record<string, unknown>)[key] : undefined), value);

/** Which subscription an event is about, for every handled type and both invoice shapes. */
export function subscriptionIdOf(event: BillingEvent): string | null {
  const o = event.object;
  if (event.type.startsWith("customer.subscription.")) return idOf(o.id);
  if (event.type === "checkout.session.completed") return idOf(o.subscription);
  if (event.type.startsWith("invoice.")) {
    const lines = at(o, "lines", "data");
    return (
      idOf(o.subscription) ??
      idOf(at(o, "parent", "subscription_details", "subscription")) ??
      (Array.isArray(lines) ? idOf(at(lines[0], "parent", "subscription_item_details", "subscription")) : null)
    );
  }
  return null;
}

/** The user id an event names itself (Checkout's client_reference_id, our metadata), if any. */
function userIdHint(event: BillingEvent): string | null {
  const candidate = str(event.object.client_reference_id) ?? str(at(event.object, "metadata", "user_id"));
  return candidate && UUID.test(candidate) ? candidate : null;
}

async function findProfile(tx: Tx, customerId: string | null, userId: string | null) {
  const columns = { id: profiles.id, customerId: profiles.stripeCustomerId, subscriptionId: profiles.stripeSubscriptionId };
  if (customerId) {
    const [byCustomer] = await tx.select(columns).from(profiles).where(eq(profiles.stripeCustomerId, customerId));
    if (byCustomer) return byCustomer;
  }
  if (userId) {
    const [byId] = await tx.select(columns).from(profiles).where(eq(profiles.id, userId));
    if (byId) return byId;
  }
  return undefined;
}

/**
 * POST /api/webhooks/stripe: verifies the raw body's signature, then applies the event once.
 * 400 for a missing or bad signature (or a stale timestamp) with nothing changed; 200 for an
 * event applied, replayed, ignored or about nobody we know; 502 when Stripe cannot be asked
 * for the subscription's state (Stripe then delivers the event again later).
 */
export async function handleStripeWebhook(
  rawBody: Uint8Array,
  signature: string | null,
): Promise<{ outcome: WebhookOutcome; eventId: string }> {
  const adapter = requireBilling();
  if (!signature) throw new SubscriptionError(400, "Missing Stripe-Signature header.", undefined, "invalid_signature");
  let event: BillingEvent;
  try {
    event = await adapter.verifyEvent(rawBody, signature);
  } catch (error) {
    if (error instanceof BillingError && error.kind === "malformed") {
      throw new SubscriptionError(400, "The webhook body is not a Stripe event (JSON).", undefined, "invalid_event");
    }
    if (error instanceof BillingError) {
      throw new SubscriptionError(400, `Webhook signature verification failed: ${error.message}`, undefined, "invalid_signature");
    }
    throw error;
  }
  if (!(HANDLED_EVENTS as readonly string[]).includes(event.type)) return { outcome: "ignored", eventId: event.id };

  const seen = await withServiceRole("check whether a Stripe webhook event was already applied", (tx) =>
    tx.select({ id: stripeEvents.id }).from(stripeEvents).where(eq(stripeEvents.id, event.id)),
  );
  if (seen.length) return { outcome: "duplicate", eventId: event.id };

  // Read the subscription's current state outside the transaction (no lock held while Stripe answers).
  const subscriptionId = subscriptionIdOf(event);
  let state: SubscriptionState | null = null;
  if (subscriptionId) {
    try {
      state = await adapter.retrieveSubscription(subscriptionId);
    } catch (error) {
      if (error instanceof BillingError) {
        console.error(`[billing] webhook ${event.id} (${event.type}): could not read subscription ${subscriptionId}: ${error.message}`);
        throw new SubscriptionError(
          502,
          "Could not read the subscription from Stripe; deliver the event again later.",
          undefined,
          "payment_provider_failed",
        );
      }
      throw error;
    }
  }
  const customerId = state?.customerId || idOf(event.object.customer);
  const userId = state?.userId ?? userIdHint(event);

  const outcome = await withServiceRole(
    `apply the verified Stripe webhook event ${event.id} (${event.type}) to a creator's plan`,
    async (tx) => {
      const recorded = await tx
        .insert(stripeEvents)
        .values({ id: event.id, type: event.type })
        .onConflictDoNothing()
        .returning({ id: stripeEvents.id });
      if (!recorded.length) return "duplicate" as const;
      const profile = await findProfile(tx, customerId, userId);
      if (!profile) return "unknown_customer" as const;
      const linkCustomer = profile.customerId ?? customerId;
      if (!state) {
        if (subscriptionId) return "unknown_subscription" as const;
        // A completed Checkout without a subscription: remember the customer, change no plan.
        if (linkCustomer !== profile.customerId) {
          await tx.update(profiles).set({ stripeCustomerId: linkCustomer }).where(eq(profiles.id, profile.id));
        }
        return "customer_linked" as const;
      }
      const plan = planFromStripeStatus(state.status);
      // An old subscription's late news never overrides a newer one; a live one always takes over.
      if (profile.subscriptionId && profile.subscriptionId !== state.id && !isPremium(plan)) return "stale_subscription" as const;
      await tx
        .update(profiles)
        .set({
          subscriptionStatus: plan,
          stripeSubscriptionId: state.id,
          stripeCustomerId: linkCustomer,
          subscriptionExpiresAt: state.currentPeriodEnd,
          trialEndsAt: state.trialEnd,
          subscriptionCancelAtPeriodEnd: state.cancelAtPeriodEnd,
        })
        .where(eq(profiles.id, profile.id));
      return "applied" as const;
    },
  );
  if (outcome === "unknown_customer" || outcome === "unknown_subscription" || outcome === "stale_subscription") {
    console.warn(
      `[billing] webhook ${event.id} (${event.type}): ${outcome.replace("_", " ")} (customer ${customerId ?? "none"}, subscription ${subscriptionId ?? "none"}); nothing changed`,
    );
  }
  return { outcome, eventId: event.id };
}

// ---------------------------------------------------------------------------------
// Operator
// ---------------------------------------------------------------------------------

export type HandPlan = "premium" | "free";

/** `npm run plan -- <email> premium|free`: sets a creator's plan by hand (self-hosted teams without Stripe). */
export async function setPlanByHand(
  email: string,
  plan: HandPlan,
): Promise<{ userId: string; email: string; before: string; after: string; stripeSubscriptionId: string | null } | null> {
  const status = plan === "premium" ? "active" : "free";
  return withAuthTables(`operator command: set the plan of ${email} to ${plan} by hand`, async (tx) => {
    const [user] = await tx
      .select({ id: authUsers.id, email: authUsers.email })
      .from(authUsers)
      .where(sql`lower(${authUsers.email}) = lower(${email})`);
    if (!user) return null;
    const [before] = await tx
      .select({ status: profiles.subscriptionStatus, subscriptionId: profiles.stripeSubscriptionId })
      .from(profiles)
      .where(eq(profiles.id, user.id))
      .for("update");
    await tx
      .update(profiles)
      .set({ subscriptionStatus: status, ...(plan === "free" ? { trialEndsAt: null } : {}) })
      .where(eq(profiles.id, user.id));
    return {
      userId: user.id,
      email: user.email ?? email,
      before: before?.status ?? "free",
      after: status,
      stripeSubscriptionId: before?.subscriptionId ?? null,
    };
  });
}
