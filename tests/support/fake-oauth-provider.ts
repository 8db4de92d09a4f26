// A local identity provider for the tests of third-party sign-in on the embedded auth
// (ADR 011), one HTTP server with two faces:
//
// - an OpenID Connect issuer at its root, which stands in for Google and for a generic
//   OIDC issuer: oauth2-mock-server does the protocol (discovery, JWKS, signed ID tokens,
//   nonce, PKCE S256 checked at the token endpoint, a code good once), and this file puts a
//   sign-in page in front of its authorize endpoint where the test types who signs in
//   (e-mail, whether it is verified, names, picture), as a person would at Google;
// - GitHub under /github: its authorize page, the token endpoint (client secret, PKCE, a code
//   good once, errors answered with 200 as GitHub does) and the REST API's /user and
//   /user/emails (with the `verified` flag) under /github/api/v3, the layout of a GitHub
//   Enterprise Server.
//
// The app is pointed at it with OAUTH_GOOGLE_ISSUER / OAUTH_OIDC_ISSUER = `url` and
// OAUTH_GITHUB_URL = `${url}/github`.
import { createHash, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

import { OAuth2Issuer, OAuth2Service } from "oauth2-mock-server";

export const FAKE_OAUTH_CLIENT = { clientId: "personaforge-e2e", clientSecret: "personaforge-e2e-secret" };

export interface FakeOAuthProvider {
  url: string;
  githubUrl: string;
  /** Sign-ins completed at the token endpoint, newest last (for assertions). */
  tokenRequests: number;
  close(): Promise<void>;
}

type Claims = Record<string, unknown>;

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title></head>
<body><main><h1>${escape(title)}</h1>${body}</main></body></html>`;
}

function field(name: string, label: string, value = "", type = "text") {
  return `<p><label for="${name}">${escape(label)}</label> <input id="${name}" name="${name}" type="${type}" value="${escape(value)}"></p>`;
}

function checkbox(name: string, label: string, checked: boolean) {
  return `<p><input id="${name}" name="${name}" type="checkbox" value="true"${checked ? " checked" : ""}> <label for="${name}">${escape(label)}</label></p>`;
}

function hidden(params: URLSearchParams) {
  return [...params].map(([k, v]) => `<input type="hidden" name="${escape(k)}" value="${escape(v)}">`).join("");
}

async function readBody(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  if ((req.headers["content-type"] ?? "").includes("application/json")) {
    return new URLSearchParams(Object.entries(JSON.parse(text || "{}") as Record<string, string>));
  }
  return new URLSearchParams(text);
}

function send(res: ServerResponse, status: number, body: unknown, type = "application/json") {
  res.writeHead(status, { "Content-Type": type, "Cache-Control": "no-store" });
  res.end(typeof body === "string" ? body : JSON.stringify(body));
}

const s256 = (verifier: string) => createHash("sha256").update(verifier).digest("base64url");

export async function startFakeOAuthProvider(options: { port?: number; host?: string } = {}): Promise<FakeOAuthProvider> {
  const issuer = new OAuth2Issuer();
  await issuer.keys.generate("RS256");
  // The mock's own authorize endpoint sits behind this file's sign-in page.
  const service = new OAuth2Service(issuer, { authorize: "/authorize/grant" });
  const mock = service.requestHandler;

  const pending = new Map<string, Claims>(); // sign-in page → mock authorize
  const byCode = new Map<string, Claims>(); // authorization code → who signed in
  service.on("beforeAuthorizeRedirect", (redirect: { url: URL }, req: IncomingMessage) => {
    const key = new URL(req.url ?? "/", "http://x").searchParams.get("login") ?? "";
    const claims = pending.get(key);
    pending.delete(key);
    const code = redirect.url.searchParams.get("code");
    if (claims && code) byCode.set(code, claims);
  });
  service.on("beforeTokenSigning", (token: { payload: Claims }, req: IncomingMessage & { body?: { code?: string } }) => {
    const claims = req.body?.code ? byCode.get(req.body.code) : undefined;
    if (claims) Object.assign(token.payload, claims);
  });
  service.on("beforeResponse", (_response: unknown, req: IncomingMessage & { body?: { code?: string } }) => {
    if (req.body?.code) byCode.delete(req.body.code);
    state.tokenRequests++;
  });

  interface GitHubGrant {
    user: Claims;
    emails: Claims[];
    challenge: string;
    clientId: string;
    redirectUri: string;
  }
  const gitHubCodes = new Map<string, GitHubGrant>();
  const gitHubTokens = new Map<string, GitHubGrant>();

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", "http://x");
    const path = url.pathname;

    // ------------------------------------------------------------ OIDC sign-in page
    if (path === "/authorize/grant" && req.method === "GET" && !url.searchParams.has("login")) {
      const params = url.searchParams;
      return send(
        res,
        200,
        page(
          "Sign in to the identity provider",
          `<form method="post" action="/authorize/grant">${hidden(params)}
          ${field("email", "E-mail")}
          ${checkbox("email_verified", "E-mail verified", true)}
          ${field("given_name", "Given name")}
          ${field("family_name", "Family name")}
          ${field("name", "Full name")}
          ${field("picture", "Picture address")}
          ${field("sub", "Subject (default: from the e-mail)")}
          <button type="submit">Sign in</button></form>`,
        ),
        "text/html; charset=utf-8",
      );
    }
    if (path === "/authorize/grant" && req.method === "POST") {
      const form = await readBody(req);
      const email = form.get("email") ?? "";
      const claims: Claims = {
        sub: form.get("sub") || `oidc-${email}`,
        email,
        email_verified: form.get("email_verified") === "true",
      };
      for (const key of ["given_name", "family_name", "name", "picture"]) {
        const value = form.get(key);
        if (value) claims[key] = value;
      }
      const key = randomUUID();
      pending.set(key, claims);
      const next = new URLSearchParams();
      for (const name of [
        "client_id",
        "redirect_uri",
        "response_type",
        "scope",
        "state",
        "nonce",
        "code_challenge",
        "code_challenge_method",
      ]) {
        const value = form.get(name);
        if (value !== null) next.set(name, value);
      }
      next.set("login", key);
      res.writeHead(302, { Location: `/authorize/grant?${next}` });
      return res.end();
    }
    if (path === "/health") return send(res, 200, { ok: true });

    // ------------------------------------------------------------ GitHub
    if (path === "/github/login/oauth/authorize" && req.method === "GET") {
      return send(
        res,
        200,
        page(
          "Sign in to GitHub",
          `<form method="post" action="/github/login/oauth/authorize">${hidden(url.searchParams)}
          ${field("login", "Username")}
          ${field("name", "Name")}
          ${field("email", "Primary e-mail")}
          ${checkbox("verified", "Primary e-mail verified", true)}
          ${field("avatar_url", "Avatar address")}
          ${field("id", "User id (default: from the username)")}
          <button type="submit">Authorize</button></form>`,
        ),
        "text/html; charset=utf-8",
      );
    }
    if (path === "/github/login/oauth/authorize" && req.method === "POST") {
      const form = await readBody(req);
      const login = form.get("login") || "octocat";
      const redirectUri = form.get("redirect_uri") ?? "";
      const code = randomUUID().replace(/-/g, "").slice(0, 20);
      gitHubCodes.set(code, {
        user: {
          id: Number(form.get("id")) || createHash("sha256").update(login).digest().readUInt32BE(0) % 1_000_000_000,
          login,
          name: form.get("name") || null,
          avatar_url: form.get("avatar_url") || null,
          email: null,
        },
        emails: form.get("email")
          ? [{ email: form.get("email"), primary: true, verified: form.get("verified") === "true", visibility: "private" }]
          : [],
        challenge: form.get("code_challenge") ?? "",
        clientId: form.get("client_id") ?? "",
        redirectUri,
      });
      const back = new URL(redirectUri);
      back.searchParams.set("code", code);
      if (form.get("state")) back.searchParams.set("state", form.get("state")!);
      res.writeHead(302, { Location: back.href });
      return res.end();
    }
    if (path === "/github/login/oauth/access_token" && req.method === "POST") {
      const body = await readBody(req);
      const basic = req.headers.authorization?.startsWith("Basic ")
        ? Buffer.from(req.headers.authorization.slice(6), "base64").toString().split(":").map(decodeURIComponent)
        : [];
      const clientId = body.get("client_id") ?? basic[0];
      const clientSecret = body.get("client_secret") ?? basic[1];
      if (clientId !== FAKE_OAUTH_CLIENT.clientId || clientSecret !== FAKE_OAUTH_CLIENT.clientSecret) {
        return send(res, 200, {
          error: "incorrect_client_credentials",
          error_description: "The client_id and/or client_secret passed are incorrect.",
        });
      }
      const code = body.get("code") ?? "";
      const grant = gitHubCodes.get(code);
      gitHubCodes.delete(code);
      if (!grant || grant.clientId !== clientId || grant.redirectUri !== body.get("redirect_uri")) {
        return send(res, 200, { error: "bad_verification_code", error_description: "The code passed is incorrect or expired." });
      }
      if (!grant.challenge || s256(body.get("code_verifier") ?? "") !== grant.challenge) {
        return send(res, 200, { error: "invalid_grant", error_description: "The code_verifier does not match the code_challenge." });
      }
      const token = `gho_${randomUUID().replace(/-/g, "")}`;
      gitHubTokens.set(token, grant);
      state.tokenRequests++;
      return send(res, 200, { access_token: token, token_type: "bearer", scope: "read:user,user:email" });
    }
    if (path === "/github/api/v3/user" || path === "/github/api/v3/user/emails") {
      const token = /^(?:Bearer|token) (\S+)$/i.exec(req.headers.authorization ?? "")?.[1];
      const grant = token ? gitHubTokens.get(token) : undefined;
      if (!grant) return send(res, 401, { message: "Bad credentials" });
      return send(res, 200, path.endsWith("/emails") ? grant.emails : grant.user);
    }

    // ------------------------------------------------------------ the mock's OIDC endpoints
    return mock(req, res);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => send(res, 500, { error: "server_error", error_description: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  issuer.url = url;
  const state: FakeOAuthProvider = {
    url,
    githubUrl: `${url}/github`,
    tokenRequests: 0,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return state;
}
