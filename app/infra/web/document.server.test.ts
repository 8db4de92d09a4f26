import { describe, expect, it } from "vitest";

import { withoutNulBytes } from "./document.server";

describe("withoutNulBytes", () => {
  it("drops the NUL bytes a writer left between whole characters, nothing else", () => {
    const text = "<p>ユキ 🌸 Zoë</p>";
    const bytes = Buffer.from(text, "utf8");
    // NULs where React's writer left them: at a character's edge, several in a row, first and last.
    const broken = Buffer.concat([
      Buffer.from([0]),
      bytes.subarray(0, 3),
      Buffer.from([0, 0]),
      bytes.subarray(3, 9),
      Buffer.from([0]),
      bytes.subarray(9),
      Buffer.from([0]),
    ]);
    expect(withoutNulBytes(broken).toString("utf8")).toBe(text);
  });

  it("hands a document without NUL bytes back as it is", () => {
    const clean = Buffer.from('<!DOCTYPE html><html lang="en"><body>Ok</body></html>');
    expect(withoutNulBytes(clean)).toBe(clean);
    expect(withoutNulBytes(Buffer.alloc(0)).length).toBe(0);
    expect(withoutNulBytes(Buffer.from([0, 0, 0])).length).toBe(0);
  });
});
