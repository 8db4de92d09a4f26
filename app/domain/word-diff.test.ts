import { describe, expect, it } from "vitest";

import { changeSummary, compareVersions, parseVersionNumber, type VersionFields, type VersionSummaryFields } from "./persona-history";
import { condense, listDiff, tokenize, wordDiff, type DiffPart } from "./word-diff";

const before = (parts: DiffPart[]) =>
  parts
    .filter((p) => p.op !== "added")
    .map((p) => p.text)
    .join("");
const after = (parts: DiffPart[]) =>
  parts
    .filter((p) => p.op !== "removed")
    .map((p) => p.text)
    .join("");

describe("wordDiff", () => {
  it("marks whole words added and removed, keeping the rest", () => {
    expect(wordDiff("The quick brown fox", "The quick red fox")).toEqual([
      { op: "same", text: "The quick " },
      { op: "removed", text: "brown" },
      { op: "added", text: "red" },
      { op: "same", text: " fox" },
    ]);
    expect(wordDiff("Nova grew up.", "Nova grew up fast.")).toEqual([
      { op: "same", text: "Nova grew up" },
      { op: "added", text: " fast" },
      { op: "same", text: "." },
    ]);
  });

  it("no change: one same part; with empty sides: all added or all removed", () => {
    expect(wordDiff("same words", "same words")).toEqual([{ op: "same", text: "same words" }]);
    expect(wordDiff("", "")).toEqual([]);
    expect(wordDiff("", "new text")).toEqual([{ op: "added", text: "new text" }]);
    expect(wordDiff("old text", "")).toEqual([{ op: "removed", text: "old text" }]);
  });

  it("a rewritten phrase is one removal and one addition, not word-by-word confetti", () => {
    const parts = wordDiff("She loves quiet mornings by the sea.", "She loves loud nights in the city.");
    expect(parts).toEqual([
      { op: "same", text: "She loves " },
      { op: "removed", text: "quiet mornings by" },
      { op: "added", text: "loud nights in" },
      { op: "same", text: " the " },
      { op: "removed", text: "sea" },
      { op: "added", text: "city" },
      { op: "same", text: "." },
    ]);
  });

  it("unicode: accents, emoji and scripts without spaces split where words do, and both texts read back whole", () => {
    const a = "Zoë aime le café ☕ et 東京の夜が好きです。";
    const b = "Zoë adore le café 🍵 et 京都の夜が好きです。";
    const parts = wordDiff(a, b);
    expect(before(parts)).toBe(a);
    expect(after(parts)).toBe(b);
    expect(parts.filter((p) => p.op === "removed").map((p) => p.text)).toContain("aime");
    expect(parts.filter((p) => p.op === "added").map((p) => p.text)).toContain("adore");
    // "Zoë" and "café" are single words, unchanged.
    expect(parts[0]).toEqual({ op: "same", text: "Zoë " });
    expect(tokenize("naïve façade")).toEqual(["naïve", " ", "façade"]);
  });

  it("round-trips on random edits of a long text", () => {
    const words = Array.from({ length: 3000 }, (_, i) => `w${(i * 7919) % 503}`);
    const a = words.join(" ");
    const edited = [...words];
    for (let i = 0; i < edited.length; i += 97) edited[i] = `changed${i}`;
    edited.splice(1500, 40);
    const b = edited.join(" ");
    const parts = wordDiff(a, b);
    expect(before(parts)).toBe(a);
    expect(after(parts)).toBe(b);
  });

  it("two unrelated long texts past the edit budget: the middle removed, then added", () => {
    const a = Array.from({ length: 400 }, (_, i) => `alpha${i}`).join(" ");
    const b = Array.from({ length: 400 }, (_, i) => `beta${i}`).join(" ");
    const parts = wordDiff(a, b, 50);
    expect(parts.map((p) => p.op)).toEqual(["removed", "added"]);
    expect(before(parts)).toBe(a);
    expect(after(parts)).toBe(b);
  });
});

describe("condense", () => {
  it("a one-word change in a 20,000-character text shows that change with some context, the rest folded", () => {
    const text = "Nova watched the stars from the roof every night. ".repeat(400);
    const edited = text.replace(/roof/, "tower");
    const shown = condense(wordDiff(text, edited));
    expect(shown.map((p) => p.op)).toEqual(["same", "removed", "added", "same", "skip"]);
    expect(shown[4]).toEqual({ op: "skip", words: expect.any(Number) });
    const visible = shown.map((p) => ("text" in p ? p.text : "")).join("");
    expect(visible.length).toBeLessThan(400);
    const middle = condense(wordDiff(text + "End.", "Start. " + text + "Finish."));
    expect(middle.map((p) => p.op)).toEqual(["added", "same", "skip", "same", "removed", "added", "same"]);
  });

  it("short unchanged stretches are kept whole", () => {
    const parts = wordDiff("a short text here", "a long text here");
    expect(condense(parts)).toEqual(parts);
  });
});

describe("listDiff", () => {
  it("added, removed and kept items", () => {
    expect(listDiff(["Curious", "Reserved", "Calm"], ["Calm", "Curious", "Creative"])).toEqual({
      added: ["Creative"],
      removed: ["Reserved"],
      kept: ["Calm", "Curious"],
    });
  });
});

const fields = (extra: Partial<VersionFields> = {}): VersionFields => ({
  name: "Nova",
  type: "educator",
  gender: "female",
  ageRange: "35-44",
  interests: ["science"],
  description: "Explains things.",
  personality: ["Reserved"],
  backstory: "Old story.",
  imageUrl: null,
  imageStyle: "photorealistic",
  status: "active",
  voice: null,
  profile: null,
  ...extra,
});

const summary = (extra: Partial<VersionSummaryFields> = {}): VersionSummaryFields => {
  const { backstory: _, ...rest } = fields();
  return { ...rest, backstoryChanged: false, backstoryEmpty: false, ...extra };
};

describe("changeSummary", () => {
  it("names what changed in one line, with the issue's wording", () => {
    expect(changeSummary(summary(), summary({ name: "Nova Quill" }))).toBe("Name: Nova → Nova Quill");
    expect(changeSummary(summary(), summary({ personality: ["Curious"] }))).toBe("Traits: +Curious −Reserved");
    expect(changeSummary(summary(), summary({ backstoryChanged: true }))).toBe("Backstory rewritten");
    expect(changeSummary(summary(), summary({ interests: ["science", "music"], imageUrl: "/i.png" }))).toBe(
      "Interests: +Music; Reference image changed",
    );
    expect(changeSummary(null, summary())).toBe("First version: Nova");
    expect(changeSummary(summary({ voice: "" }), summary({ voice: "Greeting: Hi!" }))).toBe("Voice added");
    expect(changeSummary(summary({ voice: "Greeting: Hi!" }), summary({ voice: "Greeting: Hey!" }))).toBe("Voice changed");
    expect(changeSummary(summary({ profile: "Birthplace: Oslo" }), summary({ profile: "Birthplace: Bergen" }))).toBe("Profile changed");
    // A version written before history held them: nothing is said about them.
    expect(changeSummary(summary(), summary({ voice: "Greeting: Hi!", profile: "Birthplace: Oslo" }))).toBe("No visible changes");
  });
});

describe("compareVersions", () => {
  it("changed fields first; a version with itself has no differences", () => {
    const a = { ...fields(), version: 3 };
    const b = { ...fields({ personality: ["Curious"], backstory: "New story." }), version: 7 };
    const result = compareVersions(a, b);
    expect(result.changed).toBe(true);
    expect(result.fields.slice(0, 2).map((f) => f.field)).toEqual(["personality", "backstory"]);
    expect(result.fields.slice(2).every((f) => !f.changed)).toBe(true);
    expect(compareVersions(a, a).changed).toBe(false);
  });

  it("compares the voice and the profile line by line when both versions hold them", () => {
    const a = { ...fields({ voice: "Greeting: Hi!", profile: "Birthplace: Oslo, Norway" }), version: 1 };
    const b = { ...fields({ voice: "Greeting: Hi!", profile: "Birthplace: Bergen, Norway" }), version: 2 };
    const result = compareVersions(a, b);
    expect(result.fields.filter((f) => f.changed).map((f) => f.label)).toEqual(["Extended Persona Profile"]);
    expect(compareVersions({ ...fields(), version: 1 }, b).fields.map((f) => f.field)).not.toContain("voice");
  });
});

describe("parseVersionNumber", () => {
  it("only whole positive numbers within range", () => {
    expect(parseVersionNumber("3")).toBe(3);
    for (const bad of ["0", "-1", "abc", "1.5", "99999999999", "2147483648", "", null, " 3"]) {
      expect(parseVersionNumber(bad)).toBeNull();
    }
  });
});
