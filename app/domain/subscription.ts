// Subscription (docs/product.md, Subscription): what the plan looks like to a creator, the
// subscription toasts and the /subscription page's texts. Pure and shared by the page, the
// actions, the JSON API and the webhook's status mapping.
import { isPremium, SUBSCRIPTION_STATUSES, type SubscriptionStatus } from "./account";

export const SUBSCRIPTION_PATH = "/subscription";

/** The subscription toasts (docs/product.md, Subscription). */
export const SUBSCRIPTION_TOASTS = {
  checkoutFailed: { title: "Error", description: "Failed to initiate subscription process. Please try again." },
  portalFailed: { title: "Error", description: "Failed to access subscription management. Please try again." },
  checkoutSucceeded: {
    title: "Payment received",
    description: "Thank you! Premium turns on as soon as Stripe confirms the payment, usually within seconds.",
  },
  checkoutCancelled: { title: "Checkout cancelled", description: "Nothing was charged. You are still on the Free Plan." },
  portalReturned: { title: "Welcome back", description: "Changes made in the subscription portal show here once Stripe confirms them." },
} as const;

export const BILLING_MESSAGES = {
  notConfigured: "Payments are not configured on this server.",
  notConfiguredTitle: "Upgrading is not available on this server yet",
  notConfiguredHelp: "Your personas and your Free plan work as usual. Whoever runs this server can turn upgrades on.",
  noCustomer: "No subscription to manage yet",
  premiumByHand: "Your Premium plan was set up by this server's operator; there is no subscription to manage here.",
} as const;

/** Where Stripe sends the browser back: the /subscription loader turns these into a toast (and changes nothing). */
export const RETURN_PARAM = "checkout";
export type ReturnKind = "success" | "cancelled" | "portal";
export function returnToast(kind: string | null) {
  switch (kind) {
    case "success":
      return { type: "success" as const, ...SUBSCRIPTION_TOASTS.checkoutSucceeded };
    case "cancelled":
      return { type: "info" as const, ...SUBSCRIPTION_TOASTS.checkoutCancelled };
    case "portal":
      return { type: "info" as const, ...SUBSCRIPTION_TOASTS.portalReturned };
    default:
      return null;
  }
}

/**
 * Stripe's subscription status as our plan (docs/product.md, Plans): `active` and `trialing` are Premium
 * ('active'); every other status is kept as Stripe names it, and none of them is Premium.
 * An unknown status (Stripe may add some) counts as not Premium.
 */
export function planFromStripeStatus(status: string): SubscriptionStatus {
  if (status === "active" || status === "trialing") return "active";
  return (SUBSCRIPTION_STATUSES as readonly string[]).includes(status) ? (status as SubscriptionStatus) : "incomplete";
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Days left of a trial: only while the plan is Premium and the trial's end is ahead. */
export function trialDaysLeft(status: string, trialEndsAt: Date | null, now = new Date()): number {
  if (!isPremium(status) || !trialEndsAt) return 0;
  return Math.max(0, Math.ceil((trialEndsAt.getTime() - now.getTime()) / DAY_MS));
}

export interface PlanSummary {
  status: string;
  premium: boolean;
  trialDaysLeft: number;
  /** ISO date of the current period's end, or null. */
  currentPeriodEnd: string | null;
  cancelAtPeriodEnd: boolean;
}

/** What the Current Plan card says about a Stripe subscription that is no longer Premium. */
const LAPSED: Record<string, string> = {
  canceled: "Your Premium subscription has ended.",
  past_due: "Your last Premium payment failed. Update your payment method under Manage subscription.",
  unpaid: "Your last Premium payment failed. Update your payment method under Manage subscription.",
  incomplete: "Your Premium checkout was not completed.",
  incomplete_expired: "Your Premium checkout was not completed.",
  paused: "Your Premium subscription is paused.",
};

/** The Current Plan card's lines (docs/product.md, Subscription): name, badge, and the renewal or end date when there is one. */
export function currentPlanLines(plan: PlanSummary) {
  const name = plan.premium ? "Premium" : "Free Plan";
  const badge = plan.trialDaysLeft > 0 ? `${plan.trialDaysLeft} days left` : plan.premium ? null : "Limited features";
  let date: string | null = null;
  const day = plan.currentPeriodEnd ? formatDay(new Date(plan.currentPeriodEnd)) : null;
  if (plan.premium && day) {
    if (plan.trialDaysLeft > 0) date = plan.cancelAtPeriodEnd ? `Trial ends on ${day}` : `Trial ends on ${day}, then $9.99/month`;
    else date = plan.cancelAtPeriodEnd ? `Ends on ${day}` : `Renews on ${day}`;
  } else if (!plan.premium) {
    date = LAPSED[plan.status] ?? null;
  }
  return { name, badge, date };
}

/** 'March 4, 2026', the same on the server and in the browser (UTC). */
export function formatDay(date: Date): string {
  return date.toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });
}

/** The FAQ on /subscription: what Premium adds, cancelling, a downgrade, refunds (docs/product.md, Public routes), payment methods. */
export const SUBSCRIPTION_FAQ = [
  {
    q: "What does Premium add?",
    a: "Unlimited personas. Both plans include 800+ word narratives, reference images in 5 styles, interactive chat and export; Premium lifts the Free Plan's limit of 10 personas and adds features as they arrive. Premium may be limited by traffic.",
  },
  {
    q: "How do I cancel?",
    a: "Choose 'Manage subscription' on this page: the secure subscription portal lets you cancel at any time, with no commitment. Premium then stays on until the end of the period you have paid for.",
  },
  {
    q: "What happens to my personas if I go back to the Free Plan?",
    a: "Nothing is deleted or locked: every persona you have stays usable, including those beyond 10. You can open, chat with, edit, archive and export them all. Only creating new personas waits until you own fewer than 10.",
  },
  {
    q: "Can I get a refund?",
    a: "Digital content is delivered immediately, so refunds are generally not accepted after purchase. See the commerce disclosure for the details; questions are answered on weekdays from 10:00 to 18:00.",
  },
  {
    q: "Which payment methods can I use?",
    a: "Cards, through our payment provider's secure checkout; your card details never reach our servers. Bank transfer within 7 days is also possible on request, as the commerce disclosure describes.",
  },
  {
    q: "Is there a free trial?",
    a: "When this server offers one, Checkout shows it before you pay, and your dashboard counts down the days left in your trial. You are charged only when the trial ends, unless you cancel first.",
  },
] as const;
