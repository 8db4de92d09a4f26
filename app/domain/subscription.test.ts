import { describe, expect, it } from "vitest";

import { currentPlanLines, planFromStripeStatus, returnToast, trialDaysLeft } from "./subscription";

const plan = (over: Partial<Parameters<typeof currentPlanLines>[0]> = {}) => ({
  status: "free",
  premium: false,
  trialDaysLeft: 0,
  currentPeriodEnd: null,
  cancelAtPeriodEnd: false,
  ...over,
});

describe("the plan from Stripe's subscription status", () => {
  it("active and trialing are Premium; everything else is kept and is not", () => {
    expect(planFromStripeStatus("active")).toBe("active");
    expect(planFromStripeStatus("trialing")).toBe("active");
    for (const status of ["past_due", "unpaid", "canceled", "incomplete", "incomplete_expired", "paused"]) {
      expect(planFromStripeStatus(status)).toBe(status);
    }
    // A status Stripe may add one day is not Premium.
    expect(planFromStripeStatus("on_hold")).toBe("incomplete");
  });

  it("counts trial days only on Premium, rounding up", () => {
    const now = new Date("2026-03-01T12:00:00Z");
    expect(trialDaysLeft("active", new Date("2026-03-08T12:00:00Z"), now)).toBe(7);
    expect(trialDaysLeft("active", new Date("2026-03-01T13:00:00Z"), now)).toBe(1);
    expect(trialDaysLeft("canceled", new Date("2026-03-08T12:00:00Z"), now)).toBe(0);
  });
});

describe("the Current Plan card", () => {
  it("Free: 'Free Plan' and 'Limited features'", () => {
    expect(currentPlanLines(plan())).toEqual({ name: "Free Plan", badge: "Limited features", date: null });
  });
  it("Premium: the renewal date, or the end date once cancelled", () => {
    const premium = plan({ status: "active", premium: true, currentPeriodEnd: "2026-04-03T10:00:00.000Z" });
    expect(currentPlanLines(premium)).toEqual({ name: "Premium", badge: null, date: "Renews on April 3, 2026" });
    expect(currentPlanLines({ ...premium, cancelAtPeriodEnd: true }).date).toBe("Ends on April 3, 2026");
  });
  it("a trial: '{n} days left' and when it ends", () => {
    const trial = plan({ status: "active", premium: true, trialDaysLeft: 5, currentPeriodEnd: "2026-04-03T10:00:00.000Z" });
    expect(currentPlanLines(trial)).toEqual({
      name: "Premium",
      badge: "5 days left",
      date: "Trial ends on April 3, 2026, then $9.99/month",
    });
  });
  it("a lapsed subscription says why it is not Premium", () => {
    expect(currentPlanLines(plan({ status: "canceled", currentPeriodEnd: "2026-04-03T10:00:00.000Z" })).date).toBe(
      "Your Premium subscription has ended.",
    );
    expect(currentPlanLines(plan({ status: "past_due" })).date).toMatch(/payment failed/);
  });
});

describe("coming back from Stripe", () => {
  it("gives a toast for the known returns only", () => {
    expect(returnToast("success")).toMatchObject({ type: "success", title: "Payment received" });
    expect(returnToast("cancelled")).toMatchObject({ title: "Checkout cancelled" });
    expect(returnToast("portal")).toMatchObject({ type: "info" });
    expect(returnToast("premium-please")).toBeNull();
  });
});
