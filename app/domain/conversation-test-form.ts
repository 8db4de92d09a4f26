// The long-conversation test's form and JSON body (docs/api.md, Persona tests: long conversations):
// `{ turns?, seed? }`, checked alike on the server and, as it is typed, in the browser.
import * as z from "zod";

import { CONVERSATION_TEST_LIMITS, CONVERSATION_TEST_MESSAGES } from "./conversation-test-text";

/** `{ turns?, seed? }` of a form or a JSON body; a missing seed is drawn by the service. */
export const conversationTestSchema = z.object({
  turns: z
    .union([z.number(), z.string(), z.null()], { error: CONVERSATION_TEST_MESSAGES.turns })
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === null || (typeof value === "string" && value.trim() === ""))
        return CONVERSATION_TEST_LIMITS.turnsDefault;
      const n = typeof value === "number" ? value : /^\s*\d{1,4}\s*$/.test(value) ? Number(value) : NaN;
      if (!Number.isInteger(n) || n < CONVERSATION_TEST_LIMITS.turnsMin || n > CONVERSATION_TEST_LIMITS.turnsMax) {
        ctx.addIssue({ code: "custom", message: CONVERSATION_TEST_MESSAGES.turns });
        return z.NEVER;
      }
      return n;
    }),
  seed: z
    .union([z.number(), z.string(), z.null()], { error: CONVERSATION_TEST_MESSAGES.seed })
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === null || (typeof value === "string" && value.trim() === "")) return null;
      const n = typeof value === "number" ? value : /^\s*\d{1,10}\s*$/.test(value) ? Number(value) : NaN;
      if (!Number.isInteger(n) || n < 0 || n > CONVERSATION_TEST_LIMITS.seedMax) {
        ctx.addIssue({ code: "custom", message: CONVERSATION_TEST_MESSAGES.seed });
        return z.NEVER;
      }
      return n;
    }),
});
