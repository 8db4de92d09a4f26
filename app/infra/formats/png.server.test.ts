import { Buffer } from "node:buffer";
import { crc32, deflateSync } from "node:zlib";

import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";

import { cardJson, parseCard, toCardV2, toCardV3 } from "~/domain/character-card";
import type { ExportPersona } from "~/domain/export-formats";
import { extendedProfile } from "~/domain/extended-profile";
import { seededRandom } from "~/domain/random";

import {
  cardPng,
  hasPngSignature,
  PNG_MESSAGES,
  PngError,
  portraitPng,
  readCardFromPng,
  readPngTextChunks,
  withTextChunks,
} from "./png.server";

// ---------------------------------------------------------------------------------------
// Files built by hand, so each broken case is exactly the one described.

const SIGNATURE = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);

function chunk(type: string, data: Uint8Array | string, crc?: number): Buffer {
  const body = typeof data === "string" ? Buffer.from(data, "latin1") : Buffer.from(data);
  const out = Buffer.alloc(12 + body.length);
  out.writeUInt32BE(body.length, 0);
  out.write(type, 4, "latin1");
  body.copy(out, 8);
  out.writeUInt32BE(crc ?? crc32(out.subarray(4, 8 + body.length)), 8 + body.length);
  return out;
}

const IHDR = (() => {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0);
  header.writeUInt32BE(1, 4);
  header[8] = 8;
  header[9] = 2;
  return chunk("IHDR", header);
})();
// One black RGB pixel: filter byte 0 then 0,0,0, deflated.
const IDAT = chunk("IDAT", deflateSync(Buffer.from([0, 0, 0, 0])));
const IEND = chunk("IEND", new Uint8Array(0));
const text = (keyword: string, value: string) => chunk("tEXt", `${keyword}\u0000${value}`);
const png = (...chunks: Buffer[]) => Buffer.concat([SIGNATURE, IHDR, ...chunks, IEND]);

function pngError(run: () => unknown): PngError {
  try {
    run();
  } catch (error) {
    if (error instanceof PngError) return error;
    throw error;
  }
  throw new Error("expected a PngError");
}

const NOVA: ExportPersona = {
  id: "6f1c2a4e-1111-4c2b-9a77-0d5e3b2f9c10",
  name: "Nova Lumen ユキ 🚀",
  type: "educator",
  gender: "female",
  ageRange: "25-34",
  interests: ["science", "tech"],
  personality: ["Curious", "Calm"],
  description: "A patient tutor — «quotes», emoji 🚀 and Ünïcödé.",
  backstory: "Grew up in a lighthouse.",
  imageStyle: "anime",
  status: "active",
  createdAt: new Date("2024-05-01T12:34:56.789Z"),
  updatedAt: new Date("2024-05-02T08:00:00.000Z"),
  imageUrl: null,
  cardMeta: null,
};
const EXTENDED = extendedProfile(NOVA);
const V3_JSON = cardJson(toCardV3(NOVA, EXTENDED, { creator: "Alex" }));
const V2_JSON = cardJson(toCardV2(NOVA, EXTENDED, { creator: "Alex" }));

describe("portraitPng", () => {
  const image = portraitPng(NOVA.id);

  it("is a real 512×512 PNG that an independent decoder reads", () => {
    expect(hasPngSignature(image)).toBe(true);
    const decoded = PNG.sync.read(image);
    expect([decoded.width, decoded.height]).toEqual([512, 512]);
    expect(PNG.sync.read(portraitPng("x", 64)).width).toBe(64);
  });

  it("shows a light figure on a two-colour gradient", () => {
    const { data, width } = PNG.sync.read(image);
    const at = (x: number, y: number) => {
      const i = (y * width + x) * 4;
      return [data[i]!, data[i + 1]!, data[i + 2]!];
    };
    const brightness = ([r, g, b]: number[]) => r! + g! + b!;
    const topCorner = at(5, 5);
    const bottomCorner = at(5, 506);
    // The head (centre) and the shoulders (bottom middle) are lighter than the background beside them.
    expect(brightness(at(256, 200))).toBeGreaterThan(brightness(at(40, 200)) + 60);
    expect(brightness(at(256, 480))).toBeGreaterThan(brightness(bottomCorner) + 60);
    // The background runs from one colour at the top to a darker one at the bottom.
    expect(brightness(topCorner)).toBeGreaterThan(brightness(bottomCorner));
    expect(topCorner).not.toEqual(bottomCorner);
  });

  it("is the same for the same seed and differs between seeds", () => {
    expect(portraitPng(NOVA.id).equals(image)).toBe(true);
    const colour = (png: Buffer) => [...PNG.sync.read(png).data.subarray(0, 3)];
    expect(colour(portraitPng("another persona"))).not.toEqual(colour(image));
  });

  it("takes under 50 ms of CPU for 512×512", () => {
    portraitPng("warm-up");
    // CPU time, not wall time, so other work on the machine does not count.
    const times = Array.from({ length: 5 }, (_, i) => {
      const start = process.cpuUsage();
      portraitPng(`seed ${i}`);
      const used = process.cpuUsage(start);
      return (used.user + used.system) / 1000;
    }).sort((a, b) => a - b);
    expect(times[2]).toBeLessThan(50);
  });
});

describe("tEXt chunks", () => {
  it("reads keyword and text as Latin-1", () => {
    const file = png(text("Comment", "caf\u00e9 \u00bd"), IDAT, text("Author", "Ann"));
    expect(readPngTextChunks(file)).toEqual([
      { keyword: "Comment", text: "caf\u00e9 \u00bd" },
      { keyword: "Author", text: "Ann" },
    ]);
  });

  it("writes new chunks before IEND, replaces those with the same keyword and keeps the rest", () => {
    const file = png(text("chara", "old"), IDAT, text("Author", "Ann"), text("CHARA", "older"));
    const out = withTextChunks(file, [{ keyword: "chara", text: "new" }]);
    expect(readPngTextChunks(out)).toEqual([
      { keyword: "Author", text: "Ann" },
      { keyword: "chara", text: "new" },
    ]);
    expect(out.subarray(-12).equals(IEND)).toBe(true);
    // The image data is untouched and the file still decodes.
    expect(out.includes(IDAT)).toBe(true);
    expect(PNG.sync.read(out).width).toBe(1);
    expect(withTextChunks(out, [{ keyword: "chara", text: "new" }]).equals(out)).toBe(true);
  });

  it("refuses keywords and text a PNG cannot hold", () => {
    const file = png(IDAT);
    for (const keyword of ["", "k".repeat(80), " lead", "trail ", "two  spaces", "nul\u0000"]) {
      expect(() => withTextChunks(file, [{ keyword, text: "x" }])).toThrow(RangeError);
    }
    expect(() => withTextChunks(file, [{ keyword: "ok", text: "emoji 🚀" }])).toThrow(RangeError);
  });
});

describe("card PNGs", () => {
  it("carry the V3 card in ccv3 and the V2 card in chara, base64 of UTF-8 JSON", () => {
    const file = cardPng(portraitPng(NOVA.id), V3_JSON, V2_JSON);
    const chunks = readPngTextChunks(file);
    expect(chunks.map((c) => c.keyword)).toEqual(["chara", "ccv3"]);
    const decode = (keyword: string) => Buffer.from(chunks.find((c) => c.keyword === keyword)!.text, "base64").toString("utf8");
    expect(decode("ccv3")).toBe(V3_JSON);
    expect(decode("chara")).toBe(V2_JSON);
    expect(PNG.sync.read(file).width).toBe(512);
  });

  it("read back to the same card, names and emoji included", () => {
    const file = cardPng(portraitPng(NOVA.id), V3_JSON, V2_JSON);
    const card = readCardFromPng(file);
    expect(card).toEqual(JSON.parse(V3_JSON));
    const parsed = parseCard(card);
    expect(parsed.ok && parsed.card.persona.name).toBe(NOVA.name);
    expect(parsed.ok && parsed.card.persona.description).toBe(NOVA.description);
  });

  it("are the same bytes each time for the same card", () => {
    const a = cardPng(portraitPng(NOVA.id), V3_JSON, V2_JSON);
    const b = cardPng(cardPng(portraitPng(NOVA.id), V3_JSON, V2_JSON), V3_JSON, V2_JSON);
    expect(a.equals(b)).toBe(true);
  });

  it("fall back to chara when there is no ccv3, or when ccv3 cannot be read", () => {
    const v2 = Buffer.from(V2_JSON, "utf8").toString("base64");
    expect(readCardFromPng(png(IDAT, text("chara", v2)))).toEqual(JSON.parse(V2_JSON));
    expect(readCardFromPng(png(IDAT, text("ccv3", "%%%"), text("chara", v2)))).toEqual(JSON.parse(V2_JSON));
  });

  it("say clearly what is wrong with the card data", () => {
    const b64 = (bytes: Buffer | string) => Buffer.from(bytes).toString("base64");
    expect(pngError(() => readCardFromPng(png(IDAT))).message).toBe("This PNG image has no character card in it.");
    expect(pngError(() => readCardFromPng(png(IDAT, text("chara", "not base64!")))).message).toBe(
      "The card data in this PNG is not base64.",
    );
    expect(pngError(() => readCardFromPng(png(IDAT, text("chara", "")))).message).toBe("The card data in this PNG is not base64.");
    expect(pngError(() => readCardFromPng(png(IDAT, text("ccv3", b64("{not json")))))).toMatchObject({
      code: "card_not_json",
      message: "The card data in this PNG is not JSON.",
    });
    expect(pngError(() => readCardFromPng(png(IDAT, text("ccv3", b64(Buffer.from([0xff, 0xfe, 0x7b]))))))).toMatchObject({
      code: "card_not_utf8",
    });
  });
});

describe("a hostile or broken PNG", () => {
  const good = cardPng(png(IDAT), V3_JSON, V2_JSON);

  it("is not a PNG without the signature", () => {
    for (const bytes of [Buffer.alloc(0), Buffer.from("GIF89a........"), Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10])]) {
      expect(pngError(() => readPngTextChunks(bytes)).message).toBe("This file is not a PNG image.");
    }
  });

  it("is truncated wherever it is cut", () => {
    for (let end = SIGNATURE.length; end < good.length; end += 97) {
      expect(pngError(() => readPngTextChunks(good.subarray(0, end))).message).toBe(PNG_MESSAGES.truncated);
    }
    expect(pngError(() => readCardFromPng(good.subarray(0, good.length - 1))).message).toBe("This PNG file is truncated.");
  });

  it("is damaged when a checksum does not match", () => {
    const bad = png(IDAT, chunk("tEXt", "chara\u0000abc", 0x12345678));
    expect(pngError(() => readPngTextChunks(bad))).toMatchObject({
      code: "damaged",
      message: "This PNG file is damaged.",
    });
    const flipped = Buffer.from(good);
    flipped[SIGNATURE.length + 10]! ^= 0x01; // inside IHDR
    expect(pngError(() => readPngTextChunks(flipped)).code).toBe("damaged");
  });

  it("is refused when a chunk's length points past the end, or claims 2 GB or more", () => {
    const pastEnd = Buffer.from(png(IDAT, text("chara", "abc")));
    pastEnd.writeUInt32BE(1_000_000, SIGNATURE.length + IHDR.length + IDAT.length);
    expect(pngError(() => readPngTextChunks(pastEnd)).code).toBe("truncated");
    for (const length of [0x7fffffff, 0x80000000, 0xffffffff]) {
      const huge = Buffer.from(png(IDAT));
      huge.writeUInt32BE(length, SIGNATURE.length + IHDR.length);
      expect(["truncated", "damaged"]).toContain(pngError(() => readPngTextChunks(huge)).code);
    }
  });

  it("is refused quickly with 10,000 tiny chunks", () => {
    const many = png(...Array.from({ length: 10_000 }, () => text("a", "")));
    const start = performance.now();
    expect(pngError(() => readPngTextChunks(many))).toMatchObject({
      code: "too_many_chunks",
      message: "This PNG file has too many parts to read.",
    });
    expect(performance.now() - start).toBeLessThan(1_000);
  });

  it("is refused when the file or its text is over the limits", () => {
    expect(pngError(() => readPngTextChunks(good, { maxBytes: good.length - 1 })).message).toBe("This PNG file is too large.");
    expect(pngError(() => readPngTextChunks(good, { maxTextBytes: 100 })).code).toBe("text_too_large");
  });

  it("must start with IHDR and have chunk names made of letters", () => {
    expect(pngError(() => readPngTextChunks(Buffer.concat([SIGNATURE, IDAT, IEND]))).code).toBe("damaged");
    expect(pngError(() => readPngTextChunks(png(chunk("t3Xt", "x"))))).toMatchObject({ code: "damaged" });
  });

  it("stops at IEND and ignores what follows", () => {
    const trailing = Buffer.concat([png(text("chara", "abc")), Buffer.from("garbage after the end")]);
    expect(readPngTextChunks(trailing)).toEqual([{ keyword: "chara", text: "abc" }]);
  });

  it("skips a tEXt chunk without a keyword", () => {
    expect(readPngTextChunks(png(chunk("tEXt", "no separator"), chunk("tEXt", "\u0000empty keyword")))).toEqual([]);
  });

  it("never hangs or throws anything but a PngError, however it is mangled", () => {
    const random = seededRandom("png fuzz");
    for (let i = 0; i < 400; i++) {
      const bytes = Buffer.from(good);
      for (let flips = 1 + Math.floor(random() * 4); flips > 0; flips--) {
        bytes[Math.floor(random() * bytes.length)] = Math.floor(random() * 256);
      }
      const cut = random() < 0.3 ? bytes.subarray(0, Math.floor(random() * bytes.length)) : bytes;
      try {
        readCardFromPng(cut);
      } catch (error) {
        expect(error).toBeInstanceOf(PngError);
      }
    }
  });
});
