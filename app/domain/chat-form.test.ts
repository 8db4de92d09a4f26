import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";

import { CHAT_MESSAGES } from "./chat";
import { chatMessageSchema } from "./chat-form";

const post = (message?: string) => {
  const data = new FormData();
  data.set("intent", "send");
  if (message !== undefined) data.set("message", message);
  return parseWithZod(data, { schema: chatMessageSchema });
};

describe("the chat message form", () => {
  it("sends the message trimmed, with line breaks as one", () => {
    const result = post("  Hello\r\nthere  ");
    expect(result.status === "success" && result.value.message).toBe("Hello\nthere");
  });

  it("refuses an empty, whitespace-only or missing message with 'Message cannot be empty'", () => {
    for (const message of [undefined, "", "   \n "]) {
      expect(post(message).reply().error).toEqual({ message: [CHAT_MESSAGES.empty] });
    }
  });

  it("refuses more than 4,000 characters (an emoji counts once) and control characters", () => {
    expect(post("😀".repeat(4000)).status).toBe("success");
    expect(post("a".repeat(4001)).reply().error).toEqual({ message: [CHAT_MESSAGES.tooLong] });
    expect(post("bell\u0007").reply().error).toEqual({ message: [CHAT_MESSAGES.controlCharacters] });
  });
});
