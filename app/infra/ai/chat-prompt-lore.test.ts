// Lore in a model's chat prompt (docs/product.md, Lore in chat): the entries the last messages
// brought up follow the persona's facts, each with its name and content; none, no section.
import { describe, expect, it } from "vitest";

import { chatPromptMessages } from "./chat-prompt";

const persona = { name: "Yuna Park", interests: ["art"], personality: ["Calm"], extended: { birthplace: "Seoul, South Korea" } };
const history = [{ role: "user" as const, content: "Who is Mina?" }];

describe("the chat prompt with lore", () => {
  it("lists what the persona knows after its profile", () => {
    const [system] = chatPromptMessages({
      personaId: "p",
      persona,
      history,
      lore: [{ id: "e1", name: "Mina", content: "Yuna's older sister,\na nurse in Busan.", kind: "person", keys: ["Mina"] }],
    });
    const text = system!.content;
    expect(text).toContain("What you know (use when relevant");
    expect(text).toContain("- Mina (Person): Yuna's older sister, a nurse in Busan.");
    expect(text.indexOf("Birthplace: Seoul, South Korea")).toBeLessThan(text.indexOf("What you know"));
  });

  it("has no lore section without entries", () => {
    expect(chatPromptMessages({ personaId: "p", persona, history, lore: [] })[0]!.content).not.toContain("What you know");
    expect(chatPromptMessages({ personaId: "p", persona, history })[0]!.content).not.toContain("What you know");
  });
});
