// A form action's answer, conform's way (docs/decisions/002): the submission's
// reply carries field errors and what was typed back into the form (never a password), so the
// page shows them without JavaScript and conform keeps them with it.
import { data } from "@remix-run/node";
import type { Submission } from "@conform-to/react";

import { type RequestContext } from "./accounts.server";
import { responseHeaders } from "./session.server";
import { ServiceError } from "./service-error.server";

type ReplyOptions = { hideFields?: string[]; formErrors?: string[] };

/** The schema refused the post: 400 with its field errors (and a form error to show above them, if any). */
export function invalidSubmission<T extends object>(
  submission: Submission<unknown>,
  ctx: RequestContext,
  payload: T,
  { hideFields, formErrors }: ReplyOptions = {},
) {
  const result = submission.reply({ hideFields, ...(formErrors ? { formErrors } : {}) });
  return data(
    { ...payload, result, message: formErrors?.[0] ?? null, code: null as string | null },
    { status: 400, headers: responseHeaders(ctx) },
  );
}

/**
 * The service refused it (e-mail taken, wrong password, rate limit…): its status (and
 * Retry-After), its message as the form's error unless `alert` is false, its field errors
 * on their fields.
 */
export function refusedSubmission<T extends object>(
  error: unknown,
  submission: Submission<unknown>,
  ctx: RequestContext,
  payload: T,
  { hideFields, alert = true }: { hideFields?: string[]; alert?: boolean } = {},
) {
  if (!(error instanceof ServiceError)) throw error;
  const headers = responseHeaders(ctx);
  if (error.retryAfterSeconds) headers.set("Retry-After", String(error.retryAfterSeconds));
  const result = submission.reply({
    hideFields,
    formErrors: alert || !error.errors ? [error.message] : [],
    fieldErrors: Object.fromEntries(Object.entries(error.errors ?? {}).filter((entry): entry is [string, string[]] => !!entry[1])),
  });
  return data({ ...payload, result, message: error.message, code: error.code ?? null }, { status: error.status, headers });
}
