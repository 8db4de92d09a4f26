// Runs the local identity provider (fake-oauth-provider.ts) as a process for the e2e suite,
// started by tests/playwright.config.ts next to the app:
//
//   FAKE_OAUTH_PORT=3112 node_modules/.bin/tsx tests/support/fake-oauth-server.ts
//
// The app gets the OAUTH_* variables of tests/support/e2e-oauth.ts.
import { startFakeOAuthProvider } from "./fake-oauth-provider";

const port = Number(process.env.FAKE_OAUTH_PORT);
if (!port) throw new Error("fake-oauth-server: FAKE_OAUTH_PORT is required");

const fake = await startFakeOAuthProvider({ port });
console.log(`local identity provider on ${fake.url} (GitHub at ${fake.githubUrl})`);

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => void fake.close().finally(() => process.exit(0)));
}
