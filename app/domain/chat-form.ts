// The chat panel's message form (docs/product.md, Chat) as a zod schema, for conform: the persona
// page's action parses the post without JavaScript with it. The rule itself is checkChatMessage,
// which the chat service runs for the JSON API too and the panel runs through conform's parse
// before sending. Apart from ./chat.ts so pages that only show chat texts ship no zod.
import * as z from "zod";

import { checkChatMessage } from "./chat";

export const chatMessageSchema = z.object({
  message: z
    .string()
    .optional()
    .transform((value, ctx) => {
      const checked = checkChatMessage(value ?? "");
      if (checked.ok) return checked.message;
      ctx.addIssue({ code: "custom", message: checked.error });
      return z.NEVER;
    }),
});
