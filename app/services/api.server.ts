// The JSON API's plumbing (resource routes answer with real Responses: with single
// fetch a `data()` object returned from a resource route would be sent as-is with 200): allowed methods (405), JSON bodies that must be objects with
// only known fields (400), size and type limits (413/415), and account failures as
// `{ message, errors? }` with their status. Never a 500 for bad input.
import { readJson } from "~/infra/http.server";

import { AccountError, type RequestContext } from "./accounts.server";
import { apiError } from "./session.server";

export function assertMethod(request: Request, allowed: string[]): void {
  if (!allowed.includes(request.method.toUpperCase())) {
    throw Response.json(
      { message: `Method ${request.method} is not allowed here. Use ${allowed.join(" or ")}.` },
      { status: 405, headers: { Allow: allowed.join(", ") } },
    );
  }
}

/** For routes that only take a body: a GET answers 405 naming the allowed methods. */
export function methodNotAllowedLoader(allowed: string[]) {
  return ({ request }: { request: Request }) => {
    assertMethod(request, allowed);
    return null;
  };
}

/** A JSON object body with only the given fields; anything else is a 400 naming the field. */
export async function jsonObject(request: Request, allowed: readonly string[], maxBytes?: number): Promise<Record<string, unknown>> {
  const body = await readJson(request, maxBytes);
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw new AccountError(400, "The body must be a JSON object.");
  }
  const unknown = Object.keys(body).filter((key) => !allowed.includes(key));
  if (unknown.length) {
    throw new AccountError(
      400,
      `Unknown field${unknown.length > 1 ? "s" : ""}: ${unknown.slice(0, 5).join(", ")}`,
      Object.fromEntries(unknown.slice(0, 5).map((key) => [key, ["Unknown field"]])),
    );
  }
  return body as Record<string, unknown>;
}

/** Runs an API handler, turning account failures into their 4xx JSON answer. */
export async function handleApi<T>(ctx: RequestContext | undefined, run: () => Promise<T>): Promise<T | ReturnType<typeof apiError>> {
  try {
    return await run();
  } catch (error) {
    return apiError(error, ctx);
  }
}
