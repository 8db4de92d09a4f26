import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";

import { CARD_IMPORT_MESSAGES, cardImportSchema } from "./card-import";

const post = (file?: File) => {
  const data = new FormData();
  data.set("intent", "import");
  if (file) data.set("file", file);
  return parseWithZod(data, { schema: cardImportSchema });
};

describe("the card import form", () => {
  it("takes a chosen file", () => {
    const result = post(new File(['{"spec":"chara_card_v3"}'], "card.json", { type: "application/json" }));
    expect(result.status).toBe("success");
  });

  it("asks for a file when none was chosen (or an empty one)", () => {
    expect(post().reply().error).toEqual({ file: [CARD_IMPORT_MESSAGES.empty] });
    expect(post(new File([], "")).reply().error).toEqual({ file: [CARD_IMPORT_MESSAGES.empty] });
    expect(post(new File([], "empty.json")).reply().error).toEqual({ file: [CARD_IMPORT_MESSAGES.empty] });
  });
});
