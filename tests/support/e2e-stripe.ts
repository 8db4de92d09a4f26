// The Stripe settings of the e2e run: the app gets these (and STRIPE_API_URL) from
// tests/playwright.config.ts, which also starts the fake Stripe (fake-stripe-server.ts) on
// E2E_STRIPE_PORT, by default the app's port + 11.
const appPort = Number(process.env.E2E_PORT ?? 3100);
export const e2eStripePort = Number(process.env.E2E_STRIPE_PORT ?? appPort + 11);

export const e2eStripe = {
  STRIPE_SECRET_KEY: "sk_test_personaforge_e2e",
  STRIPE_WEBHOOK_SECRET: "whsec_personaforge_e2e_0123456789abcdef",
  STRIPE_PRICE_ID: "price_personaforge_premium_e2e",
  STRIPE_API_URL: `http://127.0.0.1:${e2eStripePort}`,
};
