import { describe, expect, it } from "vitest";

import { AiError, BACKSTORY_MIN_WORDS, capText, countWords } from "./types";

describe("countWords", () => {
  it("counts whitespace-separated tokens that contain a letter or digit", () => {
    expect(countWords("")).toBe(0);
    expect(countWords("  \n ")).toBe(0);
    expect(countWords("One two three.")).toBe(3);
    expect(countWords("Lucía's   well-known\n\nstory — in 1999!")).toBe(5);
    expect(countWords("— … ***")).toBe(0);
    expect(BACKSTORY_MIN_WORDS).toBe(800);
  });
});

describe("capText", () => {
  it("leaves short texts alone and cuts long ones at a sentence end", () => {
    expect(capText("One. Two.", 100)).toBe("One. Two.");
    expect(capText("First sentence here. Second sentence here. Third.", 45)).toBe("First sentence here. Second sentence here.");
    expect(capText('He said "go." Then more words follow here', 24)).toBe('He said "go."');
  });

  it("falls back to a word boundary when no sentence ends in the second half", () => {
    expect(capText("Short. averyveryverylongword and more words without an end", 40)).toBe("Short. averyveryverylongword and more");
  });
});

describe("AiError", () => {
  it("carries a code and, when the service answered, its status", () => {
    const error = new AiError("refused", "nope", 401);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("AiError");
    expect(error.code).toBe("refused");
    expect(error.status).toBe(401);
    expect(new AiError("timeout", "slow").status).toBeUndefined();
  });
});
