// A reply's alternatives (docs/product.md, Chat: alternatives): how a Regenerate adds one.
import { describe, expect, it } from "vitest";

import { CHAT_ALTERNATIVES_MAX, withAlternative, type StoredAlternative } from "./chat";

const alt = (content: string): StoredAlternative => ({ content, lore: null, version: 1, at: "2026-12-07T20:00:00.000Z" });

describe("withAlternative", () => {
  it("the first Regenerate keeps the reply it replaces as the first alternative and shows the new one", () => {
    expect(withAlternative(null, alt("A"), alt("B"))).toEqual({ alternatives: [alt("A"), alt("B")], chosen: 1 });
  });

  it("later ones add to the kept alternatives, whichever was shown", () => {
    expect(withAlternative([alt("A"), alt("B")], alt("A"), alt("C"))).toEqual({ alternatives: [alt("A"), alt("B"), alt("C")], chosen: 2 });
  });

  it(`keeps at most ${CHAT_ALTERNATIVES_MAX}: the oldest goes`, () => {
    const kept = Array.from({ length: CHAT_ALTERNATIVES_MAX }, (_, i) => alt(`R${i}`));
    const next = withAlternative(kept, kept[0]!, alt("new"));
    expect(next.alternatives).toHaveLength(CHAT_ALTERNATIVES_MAX);
    expect(next.alternatives[0]!.content).toBe("R1");
    expect(next).toMatchObject({ chosen: CHAT_ALTERNATIVES_MAX - 1 });
  });
});
