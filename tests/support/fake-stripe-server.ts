// Runs the fake Stripe API (fake-stripe.ts) as a process for the e2e suite, started by
// tests/playwright.config.ts next to the app:
//
//   FAKE_STRIPE_PORT=3111 STRIPE_SECRET_KEY=sk_test_… STRIPE_WEBHOOK_SECRET=whsec_… \
//   STRIPE_PRICE_ID=price_… FAKE_STRIPE_WEBHOOK_URL=http://localhost:3100/api/webhooks/stripe \
//   node_modules/.bin/tsx tests/support/fake-stripe-server.ts
//
// The app gets STRIPE_API_URL=http://127.0.0.1:$FAKE_STRIPE_PORT; the hosted Checkout and portal
// pages deliver their signed events to FAKE_STRIPE_WEBHOOK_URL (optional: the bench signs and
// delivers its own).
import { startFakeStripe } from "./fake-stripe";

const need = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`fake-stripe-server: ${name} is required`);
  return value;
};

const fake = await startFakeStripe({
  port: Number(need("FAKE_STRIPE_PORT")),
  apiKey: need("STRIPE_SECRET_KEY"),
  webhookSecret: need("STRIPE_WEBHOOK_SECRET"),
  priceId: need("STRIPE_PRICE_ID"),
  webhookUrl: process.env.FAKE_STRIPE_WEBHOOK_URL || undefined,
});
console.log(`fake Stripe on ${fake.url}${fake.webhookUrl ? `, delivering to ${fake.webhookUrl}` : ""}`);

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => void fake.close().finally(() => process.exit(0)));
}
