import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";

import { cardImportSchema } from "~/domain/card-import";

import { parseCardImport } from "./import-card";

const form = (file?: File) => {
  const data = new FormData();
  data.set("intent", "import");
  if (file) data.set("file", file);
  return data;
};

describe("the library's import form, checked before posting", () => {
  it("answers as the card import schema does (what the action says without JavaScript)", () => {
    const card = new File(['{"spec":"chara_card_v3"}'], "card.json", { type: "application/json" });
    for (const file of [undefined, new File([], ""), new File([], "empty.json"), card]) {
      const panel = parseCardImport(form(file));
      const schema = parseWithZod(form(file), { schema: cardImportSchema });
      const label = file ? `${file.name || "(no name)"}, ${file.size} bytes` : "no file";
      expect(panel.status, label).toBe(schema.status);
      expect(panel.status === "success" && panel.value.file).toBe(schema.status === "success" && schema.value.file);
      expect(panel.reply().error, label).toEqual(schema.reply().error);
    }
  });
});
