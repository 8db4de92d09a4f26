// The JSON API's plumbing (resource routes answer with real Responses: with single
// fetch a `data()` object returned from a resource route would be sent as-is with 200): allowed methods (405), JSON bodies that must be objects with
// only known fields (400), size and type limits (413/415), and account failures as
// `{ message, errors? }` with their status. Never a 500 for bad input.
import { readJson, readLimitedBody } from "~/infra/web/http.server";

import { type RequestContext } from "./accounts.server";
import { apiError } from "./session.server";
import { ServiceError } from "./service-error.server";

/** A request to the API that cannot be answered as asked. */
export class ApiError extends ServiceError {
  override name = "ApiError";
}

export function assertMethod(request: Request, allowed: string[]): void {
  if (!allowed.includes(request.method.toUpperCase())) {
    throw Response.json(
      { message: `Method ${request.method} is not allowed here. Use ${allowed.join(" or ")}.` },
      { status: 405, headers: { Allow: allowed.join(", ") } },
    );
  }
}

/**
 * A loader or action for the methods a route does not take: 405 naming the allowed ones
 * (a GET to a body-only call, a POST to a read-only one).
 */
export function methodNotAllowed(allowed: string[]) {
  return ({ request }: { request: Request }) => {
    assertMethod(request, allowed);
    return null;
  };
}

/** The JSON type a body field must have; `null` allowed where it means 'none'. */
export type JsonFieldType = "string" | "string|null" | "string[]" | "string[]|null" | "boolean" | "number" | "number|null" | "object|null";
/** A field's type, or its type with the field's own message for a value of another type. */
export type JsonField = JsonFieldType | { type: JsonFieldType; message: string };
export type JsonShape = Readonly<Record<string, JsonField>>;

const TYPE_CHECKS: Record<JsonFieldType, { ok: (value: unknown) => boolean; message: string }> = {
  string: { ok: (v) => typeof v === "string", message: "Must be text" },
  "string|null": { ok: (v) => v === null || typeof v === "string", message: "Must be text or null" },
  "string[]": { ok: (v) => Array.isArray(v) && v.every((item) => typeof item === "string"), message: "Must be a list of text values" },
  "string[]|null": {
    ok: (v) => v === null || (Array.isArray(v) && v.every((item) => typeof item === "string")),
    message: "Must be a list of text values or null",
  },
  boolean: { ok: (v) => typeof v === "boolean", message: "Must be true or false" },
  number: { ok: (v) => typeof v === "number" && Number.isFinite(v), message: "Must be a number" },
  "number|null": { ok: (v) => v === null || (typeof v === "number" && Number.isFinite(v)), message: "Must be a number or null" },
  "object|null": { ok: (v) => v === null || (typeof v === "object" && !Array.isArray(v)), message: "Must be an object or null" },
};

/**
 * A JSON object body with only the fields of `shape`, each of its type (absent is fine:
 * the service decides what is required). An unknown field or a wrong type is a 400 naming
 * the field; nothing is converted, so a wrong type never becomes a partial update.
 */
export async function jsonObject<S extends JsonShape>(
  request: Request,
  shape: S,
  maxBytes?: number,
): Promise<Partial<Record<keyof S, unknown>>> {
  const body = await readJson(request, maxBytes);
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw new ApiError(400, "The body must be a JSON object.");
  }
  const unknown = Object.keys(body).filter((key) => !Object.hasOwn(shape, key));
  if (unknown.length) {
    throw new ApiError(
      400,
      `Unknown field${unknown.length > 1 ? "s" : ""}: ${unknown.slice(0, 5).join(", ")}`,
      Object.fromEntries(unknown.slice(0, 5).map((key) => [key, ["Unknown field"]])),
    );
  }
  const values = body as Record<string, unknown>;
  const field = (key: string) => {
    const spec = shape[key];
    return typeof spec === "string"
      ? { check: TYPE_CHECKS[spec], message: TYPE_CHECKS[spec].message, own: false }
      : { check: TYPE_CHECKS[spec.type], message: spec.message, own: true };
  };
  const wrong = Object.keys(values).filter((key) => !field(key).check.ok(values[key]));
  if (wrong.length) {
    // One field with a message of its own says it in its words; otherwise each field and the type it needs.
    const only = wrong.length === 1 && field(wrong[0]).own ? field(wrong[0]).message : undefined;
    throw new ApiError(
      400,
      only ?? `Wrong type: ${wrong.map((key) => `${key} ${field(key).check.message.toLowerCase()}`).join("; ")}.`,
      Object.fromEntries(wrong.map((key) => [key, [field(key).message]])),
    );
  }
  return values as Partial<Record<keyof S, unknown>>;
}

/**
 * For calls whose body is optional: nothing or an empty body is `{}`; otherwise a JSON object checked
 * as `jsonObject` checks it.
 */
export async function optionalJsonObject<S extends JsonShape>(
  request: Request,
  shape: S,
  maxBytes = 1024,
): Promise<Partial<Record<keyof S, unknown>>> {
  if (!request.body) return {};
  const raw = await readLimitedBody(request, maxBytes);
  if (new TextDecoder().decode(raw).trim() === "") return {};
  const type = request.headers.get("content-type") ?? "";
  return jsonObject(
    new Request(request.url, { method: "POST", headers: { "content-type": type }, body: raw as unknown as BodyInit }),
    shape,
  );
}

/**
 * For calls that take no body (docs/product.md, API overview: 'empty body'): nothing, an empty body or `{}` is fine;
 * a JSON object with fields is a 400 naming them, anything else that is not JSON a 415.
 */
export async function emptyBody(request: Request): Promise<void> {
  await optionalJsonObject(request, {});
}

/** Runs an API handler, turning account failures into their 4xx JSON answer. */
export async function handleApi<T>(ctx: RequestContext | undefined, run: () => Promise<T>): Promise<T | ReturnType<typeof apiError>> {
  try {
    return await run();
  } catch (error) {
    return apiError(error, ctx);
  }
}
