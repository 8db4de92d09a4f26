// ZIP as hostile input (docs/cards.md, CharX): what is written reads back; archives that are no
// zip, that climb out with `..`, hold 10,000 entries, or unpack past their limits (a zip bomb)
// are refused with a readable message before anything large is made.
import { deflateRawSync } from "node:zlib";

import { describe, expect, it } from "vitest";

import { readZip, writeZip, ZipError } from "./zip.server";

const LIMITS = { maxEntries: 500, maxEntryBytes: 1024 * 1024, maxTotalBytes: 2 * 1024 * 1024 };
const text = (value: string) => Buffer.from(value, "utf8");

function refused(bytes: Uint8Array, code: ZipError["code"], limits = LIMITS) {
  try {
    readZip(bytes, limits);
  } catch (error) {
    expect(error).toBeInstanceOf(ZipError);
    expect((error as ZipError).code).toBe(code);
    expect((error as ZipError).message.length).toBeGreaterThan(10);
    return;
  }
  throw new Error("not refused");
}

describe("zip", () => {
  it("reads back what it writes, stored or deflated, UTF-8 names included", () => {
    const entries = [
      { name: "card.json", bytes: text(JSON.stringify({ a: "x".repeat(5_000) })) },
      { name: "assets/icon/images/爱.png", bytes: new Uint8Array([1, 2, 3]) },
    ];
    const read = readZip(writeZip(entries), LIMITS);
    expect(read.map((entry) => entry.name)).toEqual(["card.json", "assets/icon/images/爱.png"]);
    expect(Buffer.from(read[0]!.bytes).toString("utf8")).toBe(JSON.stringify({ a: "x".repeat(5_000) }));
    expect([...read[1]!.bytes]).toEqual([1, 2, 3]);
    expect(readZip(writeZip(entries), LIMITS, (name) => name === "card.json")).toHaveLength(1);
  });

  it("refuses what is no zip, unsafe paths, and too many entries", () => {
    refused(text("{}"), "not_zip");
    refused(writeZip([{ name: "../evil.txt", bytes: text("x") }]), "bad_path");
    refused(writeZip([{ name: "/etc/passwd", bytes: text("x") }]), "bad_path");
    refused(writeZip([{ name: "a\\..\\b", bytes: text("x") }]), "bad_path");
    refused(writeZip(Array.from({ length: 10_000 }, (_, i) => ({ name: `f${i}`, bytes: text("x") }))), "too_many");
    refused(writeZip([{ name: "card.json", bytes: text("x") }]).subarray(0, 40), "corrupt");
  });

  it("refuses an entry or a whole over the limits before unpacking, and a bomb that lies about its size", () => {
    refused(writeZip([{ name: "big", bytes: new Uint8Array(LIMITS.maxEntryBytes + 1) }]), "too_large");
    const half = new Uint8Array(LIMITS.maxEntryBytes);
    refused(
      writeZip([
        { name: "a", bytes: half },
        { name: "b", bytes: half },
        { name: "c", bytes: half },
      ]),
      "too_large",
    );
    // 50 MB of zeros deflates to ~50 KB; the directory claims 10 bytes: unpacking stops there.
    const bomb = writeZip([{ name: "bomb", bytes: new Uint8Array(10) }]);
    const payload = deflateRawSync(Buffer.alloc(50 * 1024 * 1024));
    const start = 30 + 4; // the local header and the name "bomb"
    const storedSize = bomb.readUInt32LE(18);
    const forged = Buffer.concat([bomb.subarray(0, start), payload, bomb.subarray(start + storedSize)]);
    forged.writeUInt16LE(8, 8); // deflated
    forged.writeUInt32LE(payload.byteLength, 18);
    const central = forged.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    forged.writeUInt16LE(8, central + 10);
    forged.writeUInt32LE(payload.byteLength, central + 20);
    forged.writeUInt32LE(central, forged.byteLength - 22 + 16);
    const started = Date.now();
    refused(forged, "corrupt");
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
