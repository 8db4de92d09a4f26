// Hostile requests against the running server, over raw HTTP (no browser): oversized and
// hostile bodies, cross-site posts, unsafe redirects, wrong JSON types, API error shapes and
// the headers every answer carries. Each must end in a clear 4xx, a working server and
// nothing changed.
import { get as httpGet, type IncomingHttpHeaders } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";

import type { APIRequestContext } from "@playwright/test";

import { createAccount, expect, personaBody, test, type Account } from "./support";

const persona = personaBody;
const bearer = (account: Account) => ({ Authorization: `Bearer ${account.token}` });
const EVIL = "http://evil.example";

async function personaCount(request: APIRequestContext, account: Account): Promise<number> {
  const res = await request.get("/api/personas?status=all", { headers: bearer(account) });
  return Number(res.headers()["x-total-count"]);
}

/**
 * A body that streams in 16 KB pieces with no Content-Length. With `holdAfter`, it stops
 * sending after that many bytes until `release()` (or 10 s): an answer that arrives while it
 * is held came before the server read the rest.
 */
function chunkedBody(bytes: Uint8Array, holdAfter = Infinity) {
  const sent = { bytes: 0 };
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
    setTimeout(resolve, 10_000).unref?.();
  });
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (sent.bytes >= holdAfter) await released;
      if (sent.bytes >= bytes.length) return controller.close();
      const piece = bytes.subarray(sent.bytes, sent.bytes + 16 * 1024);
      sent.bytes += piece.length;
      controller.enqueue(piece);
    },
  });
  return { stream, sent, release };
}

/** Signs in through the sign-in form, so the request context holds the session cookie. */
async function cookieSession(request: APIRequestContext, account: Account, baseURL: string) {
  const res = await request.post("/login", {
    form: { email: account.email, password: account.password, redirectTo: "/dashboard" },
    headers: { Origin: baseURL },
    maxRedirects: 0,
  });
  expect(res.status()).toBe(302);
  expect(res.headers()["set-cookie"]).toContain("pf_session=");
}

test.describe("bodies", () => {
  test("an oversized body sent chunked gets 413, and the same client's next requests go through", async ({ baseURL }) => {
    for (let round = 0; round < 3; round++) {
      const { stream } = chunkedBody(new Uint8Array(5_000_000).fill(97));
      const refused = await fetch(`${baseURL}/api/auth/login`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: stream,
        duplex: "half",
      } as RequestInit);
      expect(refused.status).toBe(413);
      expect((await refused.json()).message).toBe("Request body too large (limit 64 KB).");
      // Node's fetch keeps the connection alive: the next request reuses it.
      const next = await fetch(`${baseURL}/api/auth/login`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: "{}",
      });
      expect(next.status).toBe(400);
    }
  });

  test("an oversized body with a Content-Length gets 413, and the connection stays usable", async ({ baseURL }) => {
    for (let round = 0; round < 3; round++) {
      const refused = await fetch(`${baseURL}/api/auth/register`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ email: "a@b.co", password: "x".repeat(10 * 1024 * 1024) }),
      });
      expect(refused.status).toBe(413);
      const next = await fetch(`${baseURL}/api/auth/user`);
      expect(next.status).toBe(401);
    }
  });

  test("8 MB of nested brackets as a card: 400 after the first bytes, nothing imported", async ({ request, baseURL }) => {
    const owner = await createAccount(request);
    const before = await personaCount(request, owner);
    const { stream, sent, release } = chunkedBody(new Uint8Array(8 * 1024 * 1024 - 16).fill(0x5b), 256 * 1024);
    const res = await fetch(`${baseURL}/api/personas/import`, {
      method: "POST",
      headers: { ...bearer(owner), "Content-Type": "application/json" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    // Answered while the body was held at 256 KB of its 8 MB: the server did not wait for the rest.
    expect(sent.bytes).toBeLessThanOrEqual(256 * 1024);
    release();
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe("The JSON is nested too deeply (at most 32 levels).");
    expect(await personaCount(request, owner)).toBe(before);
    // The server is still answering.
    expect((await request.get("/api/auth/user", { headers: bearer(owner) })).status()).toBe(200);
  });

  test("JSON with too many members is refused before it is parsed", async ({ request }) => {
    const owner = await createAccount(request);
    const many = `[${Array.from({ length: 150_000 }, () => "0").join(",")}]`;
    const res = await request.post("/api/personas/import", {
      headers: { ...bearer(owner), "Content-Type": "application/json" },
      data: many,
    });
    expect(res.status()).toBe(400);
    expect((await res.json()).message).toBe("The JSON has too many items (at most 100,000).");
  });
});

test.describe("cross-site requests", () => {
  test("a page on another site cannot sign a creator out, archive or import with their cookie", async ({ request, baseURL }) => {
    const owner = await createAccount(request);
    const created = await (await request.post("/api/personas", { headers: bearer(owner), data: persona("Target") })).json();
    await cookieSession(request, owner, baseURL!);
    const count = await personaCount(request, owner);

    const logout = await request.post("/logout", { headers: { Origin: EVIL }, maxRedirects: 0 });
    expect(logout.status()).toBe(403);
    expect(await logout.text()).toContain("This request came from another site and was refused.");
    expect(logout.headers()["set-cookie"]).toBeUndefined();

    const archive = await request.post(`/persona/${created.id}/status`, {
      headers: { Origin: EVIL },
      form: { intent: "archive", redirectTo: "/my-personas" },
      maxRedirects: 0,
    });
    expect(archive.status()).toBe(403);

    const card = JSON.stringify({ spec: "chara_card_v2", spec_version: "2.0", data: { name: "Forged", description: "x" } });
    const imported = await request.post("/api/personas/import", {
      headers: { Origin: EVIL },
      multipart: { file: { name: "card.json", mimeType: "application/json", buffer: Buffer.from(card) } },
    });
    expect(imported.status()).toBe(403);
    expect(await imported.json()).toEqual({
      message: "This request came from another site and was refused. Open PersonaForge itself and try again.",
    });

    // Refused too: a browser that names the site only in Sec-Fetch-Site, and a cookie with neither header.
    const bySite = await request.post("/logout", { headers: { "Sec-Fetch-Site": "cross-site" }, maxRedirects: 0 });
    expect(bySite.status()).toBe(403);
    const bare = await request.post(`/persona/${created.id}/status`, { form: { intent: "archive" }, maxRedirects: 0 });
    expect(bare.status()).toBe(403);

    // Nothing happened: still signed in (the cookie works), the persona active, no import.
    const me = await request.get("/api/auth/user");
    expect(me.status()).toBe(200);
    expect((await (await request.get(`/api/personas/${created.id}`)).json()).status).toBe("active");
    expect(await personaCount(request, owner)).toBe(count);

    // From our own origin the same post works.
    const own = await request.post(`/persona/${created.id}/status`, {
      headers: { Origin: baseURL! },
      form: { intent: "archive", redirectTo: "/my-personas" },
      maxRedirects: 0,
    });
    expect(own.status()).toBe(302);
    expect((await (await request.get(`/api/personas/${created.id}`)).json()).status).toBe("archived");
  });

  test("an Authorization header that is not a token is refused, never served from the cookie", async ({ request, baseURL }) => {
    const owner = await createAccount(request);
    const created = await (await request.post("/api/personas", { headers: bearer(owner), data: persona("Kept") })).json();
    await cookieSession(request, owner, baseURL!);
    for (const authorization of ["Bearer a b", "Bearer ", "Bearer\ttoken", "Basic dXNlcjpwYXNz", "Bearer x y z", "token"]) {
      const archive = await request.post(`/persona/${created.id}/status`, {
        headers: { Origin: EVIL, Authorization: authorization },
        form: { intent: "archive", redirectTo: "/my-personas" },
        maxRedirects: 0,
      });
      expect(archive.status(), authorization).toBe(401);
      const style = await request.patch(`/api/personas/${created.id}/image-style`, {
        headers: { Origin: EVIL, Authorization: authorization },
        data: { imageStyle: "anime" },
      });
      expect(style.status(), authorization).toBe(401);
      expect((await style.json()).message).toContain("not a valid sign-in token");
      const logout = await request.post("/logout", { headers: { Origin: EVIL, Authorization: authorization }, maxRedirects: 0 });
      expect(logout.status(), authorization).toBe(401);
      expect(logout.headers()["set-cookie"]).toBeUndefined();
    }
    // Nothing changed, and the creator is still signed in.
    const after = await (await request.get(`/api/personas/${created.id}`)).json();
    expect(after.status).toBe("active");
    expect(after.imageStyle ?? null).not.toBe("anime");
    expect((await request.get("/api/auth/user")).status()).toBe(200);
  });

  test("a Bearer-token call from anywhere is not a cross-site request", async ({ playwright, baseURL }) => {
    const api = await playwright.request.newContext({ baseURL });
    const owner = await createAccount(api);
    const res = await api.post("/api/personas", { headers: { ...bearer(owner), Origin: EVIL }, data: persona("Remote") });
    expect(res.status()).toBe(201);
    await api.dispose();
  });
});

test.describe("redirects", () => {
  test("a redirectTo with characters beyond Latin-1 is percent-encoded; other sites fall back", async ({ request, baseURL }) => {
    const owner = await createAccount(request);
    for (const [to, expected] of [
      ["/ユキ", "/%E3%83%A6%E3%82%AD"],
      ["/。x", "/%E3%80%82x"],
      ["//evil.example/", "/dashboard"],
      ["https://evil.example/", "/dashboard"],
      ["/\\evil.example", "/dashboard"],
    ]) {
      const res = await request.post("/login", {
        form: { email: owner.email, password: owner.password, redirectTo: to },
        headers: { Origin: baseURL! },
        maxRedirects: 0,
      });
      expect(res.status(), to).toBe(302);
      expect(res.headers().location, to).toBe(expected);
      expect(res.headers()["set-cookie"], to).toContain("pf_session=");
    }
  });

  test("an archive with an odd redirectTo archives once and lands on a valid address", async ({ request, baseURL }) => {
    const owner = await createAccount(request);
    const created = await (await request.post("/api/personas", { headers: bearer(owner), data: persona("Yuki") })).json();
    await cookieSession(request, owner, baseURL!);
    const res = await request.post(`/persona/${created.id}/status`, {
      headers: { Origin: baseURL! },
      form: { intent: "archive", redirectTo: "/my-personas?q=ユキ" },
      maxRedirects: 0,
    });
    expect(res.status()).toBe(302);
    expect(res.headers().location).toBe("/my-personas?q=%E3%83%A6%E3%82%AD");
    expect((await (await request.get(`/api/personas/${created.id}`)).json()).status).toBe("archived");
  });
});

test.describe("strict JSON types", () => {
  test("a wrong type is a 400 naming the field; nothing is created or changed", async ({ request }) => {
    const owner = await createAccount(request, { firstName: "Ada", lastName: "Byron" });
    const h = bearer(owner);
    const before = await personaCount(request, owner);

    const interests = await request.post("/api/personas", { headers: h, data: persona("Nova", { interests: "gaming" }) });
    expect(interests.status()).toBe(400);
    expect(await interests.json()).toMatchObject({ message: "Invalid interest", errors: { interests: ["Invalid interest"] } });
    const two = await request.post("/api/personas", { headers: h, data: persona("Nova", { interests: "gaming", description: 7 }) });
    expect((await two.json()).message).toBe(
      "Wrong type: interests must be a list of text values or null; description must be text or null.",
    );
    const draft = await request.post("/api/personas/draft", { headers: h, data: { name: 42 } });
    expect(draft.status()).toBe(400);
    expect((await draft.json()).errors).toEqual({ name: ["Name must be at least 2 characters"] });
    expect(await personaCount(request, owner)).toBe(before);

    const created = await (await request.post("/api/personas", { headers: h, data: persona("Nova") })).json();
    const edit = await request.patch(`/api/personas/${created.id}`, {
      headers: h,
      data: persona("Nova", { personality: "Creative", name: "Renamed" }),
    });
    expect(edit.status()).toBe(400);
    expect((await (await request.get(`/api/personas/${created.id}`, { headers: h })).json()).name).toBe("Nova");

    const profile = await request.patch("/api/user/profile", { headers: h, data: { firstName: 123, lastName: "King" } });
    expect(profile.status()).toBe(400);
    expect(await profile.json()).toMatchObject({ errors: { firstName: ["Must be text or null"] } });
    expect(await (await request.get("/api/auth/user", { headers: h })).json()).toMatchObject({ firstName: "Ada", lastName: "Byron" });

    const login = await request.post("/api/auth/login", { data: { email: owner.email, password: 12345678 } });
    expect(login.status()).toBe(400);
    expect((await login.json()).errors).toEqual({ password: ["Must be text"] });
  });
});

test.describe("API errors", () => {
  test("a method a call does not take is 405 with Allow and a JSON message", async ({ request }) => {
    for (const [method, path, allow] of [
      ["POST", "/api/personas/stats", "GET"],
      ["POST", "/api/auth/user", "GET"],
      ["DELETE", "/api/personas/recent", "GET"],
      ["PUT", "/api/personas", "GET, POST"],
      ["GET", "/api/auth/login", "POST"],
      ["DELETE", "/api/auth/logout", "POST"],
    ]) {
      const res = await request.fetch(path, { method });
      expect(res.status(), `${method} ${path}`).toBe(405);
      expect(res.headers().allow, `${method} ${path}`).toBe(allow);
      expect(res.headers()["content-type"]).toContain("application/json");
      expect((await res.json()).message).toMatch(/^Method [A-Z]+ is not allowed here\. Use /);
    }
  });

  test("an unknown /api path is a JSON 404, whatever the method", async ({ request }) => {
    for (const method of ["GET", "POST", "PATCH"]) {
      const res = await request.fetch("/api/personas/abc/nothing-here", { method });
      expect(res.status()).toBe(404);
      expect(await res.json()).toEqual({ message: "There is no API call at /api/personas/abc/nothing-here." });
    }
  });
});

test.describe("headers", () => {
  test("pages carry a Content-Security-Policy whose fresh nonce is on every script", async ({ request }) => {
    const seen = new Set<string>();
    for (const path of ["/", "/", "/login"]) {
      const res = await request.get(path);
      const policy = res.headers()["content-security-policy"];
      expect(policy).toContain("frame-ancestors 'none'");
      expect(policy).not.toContain("'unsafe-inline' 'nonce");
      expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
      const nonce = /script-src 'self' 'nonce-([A-Za-z0-9+/=]+)'/.exec(policy)?.[1];
      expect(nonce).toBeTruthy();
      seen.add(nonce!);
      const html = await res.text();
      const scripts = html.match(/<script\b[^>]*>/g) ?? [];
      expect(scripts.length).toBeGreaterThan(0);
      for (const tag of scripts) if (!/\bsrc=/.test(tag)) expect(tag).toContain(`nonce="${nonce}"`);
    }
    // A cached public page gets a new nonce each time too.
    expect(seen.size).toBe(3);
  });

  test("every answer says nosniff once, API answers, exports and static files included", async ({ request }) => {
    const owner = await createAccount(request);
    const created = await (await request.post("/api/personas", { headers: bearer(owner), data: persona("Sniff") })).json();
    const exportPath = `/api/personas/${created.id}/export?format=json`;
    for (const path of ["/", "/api/auth/user", "/api/nothing", "/favicon.svg", exportPath]) {
      const res = await request.get(path, path === exportPath ? { headers: bearer(owner) } : {});
      expect(res.status(), path).toBeLessThan(500);
      expect(
        res.headersArray().filter((h) => h.name.toLowerCase() === "x-content-type-options"),
        path,
      ).toEqual([{ name: expect.stringMatching(/^x-content-type-options$/i), value: "nosniff" }]);
    }
  });

  test("the build's scripts and styles go out as their brotli copies, and as before to a browser without brotli", async ({
    request,
    baseURL,
  }) => {
    const html = await (await request.get("/")).text();
    const assets = [...html.matchAll(/(?:src|href)="(\/build\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);
    expect(assets.some((a) => a.endsWith(".css"))).toBe(true);
    expect(assets.filter((a) => a.endsWith(".js")).length).toBeGreaterThan(3);
    for (const asset of assets) {
      const plain = await rawGet(`${baseURL}${asset}`, "identity");
      expect(plain.status, asset).toBe(200);
      expect(plain.headers["content-encoding"], asset).toBeUndefined();
      const brotli = await rawGet(`${baseURL}${asset}`, "gzip, deflate, br, zstd");
      expect(brotli.status, asset).toBe(200);
      expect(brotli.headers["content-encoding"], asset).toBe("br");
      expect(brotli.headers["content-type"], asset).toMatch(asset.endsWith(".css") ? /^text\/css/ : /^(application|text)\/javascript/);
      expect(brotli.headers["vary"], asset).toMatch(/accept-encoding/i);
      expect(brotli.headers["cache-control"], asset).toContain("immutable");
      expect(brotli.headers["x-content-type-options"], asset).toBe("nosniff");
      expect(Number(brotli.headers["content-length"]), asset).toBe(brotli.body.length);
      expect(brotliDecompressSync(brotli.body).equals(plain.body), asset).toBe(true);
      // Quality 11 made once, smaller than what the server would compress on the fly.
      expect(brotli.body.length, asset).toBeLessThan(plain.body.length);
      const gzip = await rawGet(`${baseURL}${asset}`, "gzip");
      expect(gzip.headers["content-encoding"] ?? "identity", asset).toMatch(/^(gzip|identity)$/);
      const unzipped = gzip.headers["content-encoding"] === "gzip" ? gunzipSync(gzip.body) : gzip.body;
      expect(unzipped.equals(plain.body), asset).toBe(true);
      // A revalidation of the brotli copy is a 304 with no body.
      const again = await rawGet(`${baseURL}${asset}`, "br", { "If-None-Match": String(brotli.headers.etag) });
      expect(again.status, asset).toBe(304);
    }
    const missing = await rawGet(`${baseURL}/build/_shared/no-such-chunk.js`, "br");
    expect(missing.status).toBe(404);
    // Its answer is the site's 404 page, readable in the encoding it names.
    const page = missing.headers["content-encoding"] === "br" ? brotliDecompressSync(missing.body) : missing.body;
    expect(page.toString("utf8")).toContain("</html>");
  });
});

/** GET with this Accept-Encoding, the body as it came over the wire (not decoded). */
function rawGet(url: string, acceptEncoding: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    httpGet(url, { headers: { "Accept-Encoding": acceptEncoding, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    }).on("error", reject);
  });
}
