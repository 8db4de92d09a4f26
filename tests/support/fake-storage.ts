// A stand-in for Supabase Storage (storage-api) at the HTTP boundary, for tests of the
// Supabase image storage adapter with the real supabase-js client. It listens on 127.0.0.1
// (random port) under /storage/v1 and answers what the adapter calls, in storage-api's shapes:
//
// - POST   /object/{bucket}/{path}        upload (x-upsert) → { Key, Id }; 400 'Duplicate' without upsert
// - GET    /object/{bucket}/{path}        download → the bytes with their content type; 404 { statusCode: "404", error: "not_found" }
// - POST   /object/sign/{bucket}          { expiresIn, paths } → [{ error, path, signedURL }]
// - GET    /object/sign/{bucket}/{path}?token=…  the bytes, for a token it signed for that path
// - POST   /object/list/{bucket}          { prefix, limit, offset } → entries (folders with id null)
// - DELETE /object/{bucket}               { prefixes } → the removed objects
//
// Only the service-role key is accepted (Authorization: Bearer and apikey); anything else is
// 403, like storage-api with a bad JWT. Objects live in memory; every request is recorded.
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeStorage {
  /** What SUPABASE_URL would be (the storage API is under /storage/v1). */
  url: string;
  serviceRoleKey: string;
  objects: Map<string, { bytes: Buffer; contentType: string }>;
  requests: { method: string; path: string }[];
  /** Make the next uploads fail with this status (e.g. 413 or 500). */
  failUploads: number | null;
  close(): Promise<void>;
}

export async function startFakeStorage(bucket = "reference-images"): Promise<FakeStorage> {
  const serviceRoleKey = `service-${randomBytes(12).toString("hex")}`;
  const tokens = new Map<string, string>();
  const fake: FakeStorage = {
    url: "",
    serviceRoleKey,
    objects: new Map(),
    requests: [],
    failUploads: null,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };
  const notFound = (res: ServerResponse) => send(res, 404, { statusCode: "404", error: "not_found", message: "Object not found" });

  const handle = (req: IncomingMessage, res: ServerResponse, raw: Buffer) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const path = decodeURIComponent(url.pathname);
    fake.requests.push({ method: req.method ?? "GET", path });
    const prefix = "/storage/v1";
    if (!path.startsWith(prefix)) return send(res, 404, { message: "Not found" });
    const route = path.slice(prefix.length);
    const json = () => {
      try {
        return JSON.parse(raw.toString("utf8")) as Record<string, unknown>;
      } catch {
        return {};
      }
    };
    // Signed downloads need no key, only the token.
    const signed = new RegExp(`^/object/sign/${bucket}/(.+)$`).exec(route);
    if (req.method === "GET" && signed) {
      const token = url.searchParams.get("token") ?? "";
      if (tokens.get(token) !== signed[1]) return send(res, 400, { statusCode: "403", error: "InvalidJWT", message: "invalid signature" });
      const object = fake.objects.get(signed[1]!);
      if (!object) return notFound(res);
      res.writeHead(200, { "content-type": object.contentType });
      return res.end(object.bytes);
    }
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    if (bearer !== serviceRoleKey || req.headers.apikey !== serviceRoleKey) {
      return send(res, 403, { statusCode: "403", error: "Unauthorized", message: "invalid JWT" });
    }
    if (req.method === "POST" && route === `/object/sign/${bucket}`) {
      const body = json();
      const paths = Array.isArray(body.paths) ? (body.paths as string[]) : [];
      return send(
        res,
        200,
        paths.map((p) => {
          if (!fake.objects.has(p))
            return { error: "Either the object does not exist or you do not have access to it", path: p, signedURL: null };
          const token = randomBytes(16).toString("hex");
          tokens.set(token, p);
          return { error: null, path: p, signedURL: `/object/sign/${bucket}/${encodeURIComponent(p).replace(/%2F/g, "/")}?token=${token}` };
        }),
      );
    }
    if (req.method === "POST" && route === `/object/list/${bucket}`) {
      const body = json();
      const folder = String(body.prefix ?? "").replace(/\/?$/, "/");
      const limit = Number(body.limit ?? 100);
      const offset = Number(body.offset ?? 0);
      const entries = new Map<string, { name: string; id: string | null }>();
      for (const key of fake.objects.keys()) {
        if (!key.startsWith(folder)) continue;
        const rest = key.slice(folder.length);
        const slash = rest.indexOf("/");
        const name = slash < 0 ? rest : rest.slice(0, slash);
        entries.set(name, { name, id: slash < 0 ? key : null });
      }
      return send(res, 200, [...entries.values()].sort((a, b) => a.name.localeCompare(b.name)).slice(offset, offset + limit));
    }
    if (req.method === "DELETE" && route === `/object/${bucket}`) {
      const body = json();
      const removed = (Array.isArray(body.prefixes) ? (body.prefixes as string[]) : []).filter((p) => fake.objects.delete(p));
      return send(
        res,
        200,
        removed.map((name) => ({ name, bucket_id: bucket })),
      );
    }
    const object = new RegExp(`^/object/${bucket}/(.+)$`).exec(route);
    if (object && req.method === "POST") {
      if (fake.failUploads)
        return send(res, fake.failUploads, { statusCode: String(fake.failUploads), error: "Error", message: "The upload failed" });
      if (fake.objects.has(object[1]!) && req.headers["x-upsert"] !== "true") {
        return send(res, 400, { statusCode: "409", error: "Duplicate", message: "The resource already exists" });
      }
      fake.objects.set(object[1]!, { bytes: raw, contentType: String(req.headers["content-type"] ?? "application/octet-stream") });
      return send(res, 200, { Key: `${bucket}/${object[1]}`, Id: randomBytes(8).toString("hex") });
    }
    if (object && req.method === "GET") {
      const found = fake.objects.get(object[1]!);
      if (!found) return notFound(res);
      res.writeHead(200, { "content-type": found.contentType });
      return res.end(found.bytes);
    }
    return send(res, 404, { statusCode: "404", error: "not_found", message: `No route ${req.method} ${route}` });
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => handle(req, res, Buffer.concat(chunks)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
