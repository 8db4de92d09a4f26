// Account enumerations (SPEC §3, §6). Subscription statuses mirror the card payment
// provider's, plus our own 'free'; only 'active' is Premium.
export const SUBSCRIPTION_STATUSES = [
  "free",
  "active",
  "trialing",
  "past_due",
  "canceled",
  "incomplete",
  "incomplete_expired",
  "unpaid",
  "paused",
] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];


export const NAME_MAX = 60;

export function isPremium(status: string | null | undefined): boolean {
  return status === "active";
}
