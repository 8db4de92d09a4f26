import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";

import { chatMessageSchema } from "~/domain/chat-form";

import { parseMessage } from "./chat-panel";

const form = (message?: string) => {
  const data = new FormData();
  data.set("intent", "send");
  if (message !== undefined) data.set("message", message);
  return data;
};

describe("the chat panel's check before sending", () => {
  it("answers as the message schema does (what the action says without JavaScript): value, errors, what was typed", () => {
    const messages = [
      undefined,
      "",
      "   \n ",
      "  Hello\r\nthere  ",
      "😀".repeat(4000),
      "a".repeat(4001),
      "bell\u0007",
      "rtl\u202Eoverride",
      "Hi 👋",
    ];
    for (const message of messages) {
      const panel = parseMessage(form(message));
      const schema = parseWithZod(form(message), { schema: chatMessageSchema });
      expect(panel.status, JSON.stringify(message)).toBe(schema.status);
      expect(panel.status === "success" && panel.value.message).toEqual(schema.status === "success" && schema.value.message);
      expect(panel.reply(), JSON.stringify(message)).toEqual(schema.reply());
    }
  });
});
