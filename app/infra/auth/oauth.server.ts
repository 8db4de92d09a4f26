// Third-party sign-in for the embedded auth (ADR 011): the authorization-code flow with
// state and PKCE (S256) through openid-client, against Google and any OpenID Connect issuer
// (discovery, ID token signature, nonce) and GitHub (plain OAuth 2, then its REST API for
// the profile and the verified e-mail). Knows nothing of accounts: it turns a provider's
// answer into a checked ProviderIdentity, and the local adapter decides what to do with it.
import * as oidc from "openid-client";

import type { Env } from "../setup/env.server";

import {
  IdentityRefused,
  identityFromGitHub,
  identityFromOidcClaims,
  type GitHubEmail,
  type GitHubUser,
  type ProviderIdentity,
} from "./oauth-identity";

export interface LocalOAuthProvider {
  id: "google" | "github" | "oidc";
  name: string;
  clientId: string;
  clientSecret: string;
  /** OIDC: the issuer to discover. GitHub: the web host (github.com or a GitHub Enterprise Server). */
  url: string;
}

/** What the browser must bring back to finish a sign-in (kept in a signed, short-lived cookie). */
export interface OAuthFlow {
  provider: string;
  state: string;
  codeVerifier: string;
  nonce?: string;
}

/** A provider or the network failed (not the person's fault): the login page says so. */
export class ProviderUnavailable extends Error {
  override name = "ProviderUnavailable";
}

const GOOGLE_ISSUER = "https://accounts.google.com";
const GITHUB_URL = "https://github.com";
// Each call to a provider gives up after this many seconds.
const TIMEOUT_S = 8;

/** The providers configured for the embedded auth, in the order the buttons show them. */
export function localOAuthProviders(env: Env): LocalOAuthProvider[] {
  const list: LocalOAuthProvider[] = [];
  if (env.OAUTH_GOOGLE_CLIENT_ID && env.OAUTH_GOOGLE_CLIENT_SECRET) {
    list.push({
      id: "google",
      name: "Google",
      clientId: env.OAUTH_GOOGLE_CLIENT_ID,
      clientSecret: env.OAUTH_GOOGLE_CLIENT_SECRET,
      url: env.OAUTH_GOOGLE_ISSUER ?? GOOGLE_ISSUER,
    });
  }
  if (env.OAUTH_GITHUB_CLIENT_ID && env.OAUTH_GITHUB_CLIENT_SECRET) {
    list.push({
      id: "github",
      name: "GitHub",
      clientId: env.OAUTH_GITHUB_CLIENT_ID,
      clientSecret: env.OAUTH_GITHUB_CLIENT_SECRET,
      url: (env.OAUTH_GITHUB_URL ?? GITHUB_URL).replace(/\/+$/, ""),
    });
  }
  if (env.OAUTH_OIDC_ISSUER && env.OAUTH_OIDC_CLIENT_ID && env.OAUTH_OIDC_CLIENT_SECRET) {
    list.push({
      id: "oidc",
      name: env.OAUTH_OIDC_NAME ?? "OpenID Connect",
      clientId: env.OAUTH_OIDC_CLIENT_ID,
      clientSecret: env.OAUTH_OIDC_CLIENT_SECRET,
      url: env.OAUTH_OIDC_ISSUER,
    });
  }
  return list;
}

const isGitHub = (p: LocalOAuthProvider) => p.id === "github";
/** api.github.com for github.com; `<host>/api/v3` on GitHub Enterprise Server. */
const gitHubApi = (p: LocalOAuthProvider) => (p.url === GITHUB_URL ? "https://api.github.com" : `${p.url}/api/v3`);
// Plain http only for issuers on this machine or a test network (a local OIDC server); providers on the internet use https.
const insecure = (url: string) => url.startsWith("http://");

// One discovered configuration per provider and process; a failed discovery is retried next time.
const configs = new Map<string, Promise<oidc.Configuration>>();

function configuration(p: LocalOAuthProvider): Promise<oidc.Configuration> {
  const key = `${p.id} ${p.url} ${p.clientId}`;
  let config = configs.get(key);
  if (!config) {
    config = (async () => {
      if (isGitHub(p)) {
        const c = new oidc.Configuration(
          { issuer: p.url, authorization_endpoint: `${p.url}/login/oauth/authorize`, token_endpoint: `${p.url}/login/oauth/access_token` },
          p.clientId,
          { client_secret: p.clientSecret },
          oidc.ClientSecretPost(p.clientSecret),
        );
        if (insecure(p.url)) oidc.allowInsecureRequests(c);
        c.timeout = TIMEOUT_S;
        return c;
      }
      return oidc.discovery(new URL(p.url), p.clientId, p.clientSecret, undefined, {
        timeout: TIMEOUT_S,
        execute: insecure(p.url) ? [oidc.allowInsecureRequests] : [],
      });
    })();
    configs.set(key, config);
    config.catch(() => configs.delete(key));
  }
  return config;
}

/** Where to send the browser, and what it must bring back. */
export async function beginSignIn(p: LocalOAuthProvider, redirectUri: string): Promise<{ url: string; flow: OAuthFlow }> {
  let config: oidc.Configuration;
  try {
    config = await configuration(p);
  } catch (error) {
    throw new ProviderUnavailable(`${p.name} could not be reached (${describe(error)}).`);
  }
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const parameters: Record<string, string> = {
    redirect_uri: redirectUri,
    state,
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: "S256",
    scope: isGitHub(p) ? "read:user user:email" : "openid email profile",
  };
  let nonce: string | undefined;
  if (!isGitHub(p)) parameters.nonce = nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(config, parameters).href;
  return { url, flow: { provider: p.id, state, codeVerifier, ...(nonce ? { nonce } : {}) } };
}

/**
 * Exchanges the code of the callback address (checked against the flow's state, PKCE
 * verifier and nonce) and reads the person's identity. Throws IdentityRefused for what the
 * person can act on and ProviderUnavailable when the provider failed.
 */
export async function finishSignIn(p: LocalOAuthProvider, callbackUrl: URL, flow: OAuthFlow): Promise<ProviderIdentity> {
  let config: oidc.Configuration;
  try {
    config = await configuration(p);
  } catch (error) {
    throw new ProviderUnavailable(`${p.name} could not be reached (${describe(error)}).`);
  }
  let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
  try {
    tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: flow.codeVerifier,
      expectedState: flow.state,
      ...(flow.nonce ? { expectedNonce: flow.nonce } : {}),
      idTokenExpected: !isGitHub(p),
    });
  } catch (error) {
    if (error instanceof oidc.ResponseBodyError || error instanceof oidc.AuthorizationResponseError) {
      // The provider refused the code: used before, expired, or issued to another sign-in.
      throw new IdentityRefused(`${p.name} did not accept this sign-in (the code was already used or has expired). Please start again.`);
    }
    throw new ProviderUnavailable(`${p.name} failed to complete the sign-in (${describe(error)}).`);
  }
  if (isGitHub(p)) return gitHubIdentity(p, tokens.access_token);
  const claims: Record<string, unknown> = { ...(tokens.claims() ?? {}) };
  if (typeof claims.email !== "string" && config.serverMetadata().userinfo_endpoint) {
    try {
      Object.assign(claims, await oidc.fetchUserInfo(config, tokens.access_token, String(claims.sub)), { sub: claims.sub });
    } catch (error) {
      throw new ProviderUnavailable(`${p.name} did not answer for the profile (${describe(error)}).`);
    }
  }
  return identityFromOidcClaims(p.id, p.name, claims);
}

async function gitHubIdentity(p: LocalOAuthProvider, accessToken: string): Promise<ProviderIdentity> {
  const api = gitHubApi(p);
  const get = async <T>(path: string): Promise<T> => {
    let response: Response;
    try {
      response = await fetch(`${api}${path}`, {
        headers: {
          Accept: "application/vnd.github+json",
          Authorization: `Bearer ${accessToken}`,
          "User-Agent": "PersonaForge",
          "X-GitHub-Api-Version": "2022-11-28",
        },
        signal: AbortSignal.timeout(TIMEOUT_S * 1000),
      });
    } catch (error) {
      throw new ProviderUnavailable(`GitHub did not answer for ${path} (${describe(error)}).`);
    }
    if (!response.ok) throw new ProviderUnavailable(`GitHub answered ${response.status} for ${path}.`);
    return (await response.json()) as T;
  };
  const [user, emails] = await Promise.all([get<GitHubUser>("/user"), get<GitHubEmail[]>("/user/emails")]);
  if (!user || typeof user !== "object" || !Array.isArray(emails)) {
    throw new ProviderUnavailable("GitHub answered with something other than a profile.");
  }
  return identityFromGitHub(user, emails);
}

function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.slice(0, 200);
}

export { IdentityRefused };
