// The third-party sign-in settings of the e2e run: tests/playwright.config.ts starts the
// local identity provider (fake-oauth-server.ts) on E2E_OAUTH_PORT, by default the app's
// port + 12, and gives the app these variables, so the sign-in screens offer Google, GitHub
// and a generic OpenID Connect issuer, all answered by that provider.
import { FAKE_OAUTH_CLIENT } from "./fake-oauth-provider";

const appPort = Number(process.env.E2E_PORT ?? 3100);
export const e2eOAuthPort = Number(process.env.E2E_OAUTH_PORT ?? appPort + 12);
const url = `http://127.0.0.1:${e2eOAuthPort}`;

export const e2eOAuthUrl = url;
export const e2eOAuth = {
  OAUTH_GOOGLE_CLIENT_ID: FAKE_OAUTH_CLIENT.clientId,
  OAUTH_GOOGLE_CLIENT_SECRET: FAKE_OAUTH_CLIENT.clientSecret,
  OAUTH_GOOGLE_ISSUER: url,
  OAUTH_GITHUB_CLIENT_ID: FAKE_OAUTH_CLIENT.clientId,
  OAUTH_GITHUB_CLIENT_SECRET: FAKE_OAUTH_CLIENT.clientSecret,
  OAUTH_GITHUB_URL: `${url}/github`,
  OAUTH_OIDC_ISSUER: url,
  OAUTH_OIDC_CLIENT_ID: FAKE_OAUTH_CLIENT.clientId,
  OAUTH_OIDC_CLIENT_SECRET: FAKE_OAUTH_CLIENT.clientSecret,
  OAUTH_OIDC_NAME: "Acme ID",
};
