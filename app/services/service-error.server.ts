// What every service throws when the visitor can act on the failure: an HTTP status, a readable
// message, the fields it concerns, a code an API client can branch on, and when to try again.
// Each service names its own (PersonaError, LoreError, …) so that a stack trace says where the
// failure came from; the doors (session.server.ts, form-reply.server.ts, api.server.ts) answer any
// ServiceError the same way, and let anything else through as the server's own failure.
import type { FieldErrors } from "~/domain/form-rules";

export class ServiceError extends Error {
  override name = "ServiceError";
  constructor(
    public readonly status: number,
    message: string,
    public readonly errors?: FieldErrors,
    public readonly code?: string,
    public readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}
