// ZIP archives, the container of CharX cards (docs/cards.md, CharX): written with stored or
// deflated entries, and read as hostile input. Reading trusts nothing: the central directory is
// found from the end, every entry's name is checked (no absolute paths, no `..`, no backslashes,
// no NUL), the number of entries, each entry's size and the total size are capped before anything
// is inflated, and inflating stops at the size the directory claimed (a zip bomb cannot grow past
// it). Anything wrong is a ZipError with a readable message.
import { crc32, deflateRawSync, inflateRawSync } from "node:zlib";

export class ZipError extends Error {
  constructor(
    readonly code: "not_zip" | "too_many" | "too_large" | "bad_path" | "corrupt" | "unsupported",
    message: string,
  ) {
    super(message);
  }
}

export interface ZipLimits {
  /** Entries in the archive. */
  maxEntries: number;
  /** Bytes of one entry once inflated. */
  maxEntryBytes: number;
  /** Bytes of all entries once inflated. */
  maxTotalBytes: number;
}

export interface ZipEntry {
  name: string;
  bytes: Uint8Array;
}

const LOCAL = 0x04034b50;
const CENTRAL = 0x02014b50;
const END = 0x06054b50;

export function hasZipSignature(bytes: Uint8Array): boolean {
  return bytes.byteLength >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

/** A ZIP of these entries (deflated when that is smaller), in this order. */
export function writeZip(entries: readonly ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, "utf8");
    const raw = Buffer.from(entry.bytes.buffer, entry.bytes.byteOffset, entry.bytes.byteLength);
    const deflated = deflateRawSync(raw);
    const stored = deflated.byteLength >= raw.byteLength;
    const data = stored ? raw : deflated;
    const crc = crc32(raw);
    const header = Buffer.alloc(30);
    header.writeUInt32LE(LOCAL, 0);
    header.writeUInt16LE(20, 4); // version needed
    header.writeUInt16LE(0x0800, 6); // UTF-8 names
    header.writeUInt16LE(stored ? 0 : 8, 8);
    header.writeUInt32LE(0, 10); // time and date: none
    header.writeUInt32LE(crc, 14);
    header.writeUInt32LE(data.byteLength, 18);
    header.writeUInt32LE(raw.byteLength, 22);
    header.writeUInt16LE(name.byteLength, 26);
    header.writeUInt16LE(0, 28);
    locals.push(header, name, data);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(CENTRAL, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(stored ? 0 : 8, 10);
    central.writeUInt32LE(0, 12);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.byteLength, 20);
    central.writeUInt32LE(raw.byteLength, 24);
    central.writeUInt16LE(name.byteLength, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += header.byteLength + name.byteLength + data.byteLength;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(END, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.byteLength, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** Whether an entry's name is a safe relative path. */
function safeName(name: string): boolean {
  if (name === "" || name.length > 1_000 || name.includes("\u0000") || name.includes("\\")) return false;
  if (name.startsWith("/") || /^[a-zA-Z]:/.test(name)) return false;
  return !name.split("/").some((part) => part === ".." || part === ".");
}

/**
 * The entries of a ZIP whose names `want` accepts (directories left out), read within `limits`.
 * Every entry is counted and checked, wanted or not.
 */
export function readZip(bytes: Uint8Array, limits: ZipLimits, want: (name: string) => boolean = () => true): ZipEntry[] {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (!hasZipSignature(buf)) throw new ZipError("not_zip", "This file is not a ZIP archive.");
  // The end record: the last 22 bytes, or before a comment of at most 65,535 bytes.
  let end = -1;
  for (let i = buf.byteLength - 22; i >= Math.max(0, buf.byteLength - 22 - 65_535); i--) {
    if (buf.readUInt32LE(i) === END) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new ZipError("corrupt", "This ZIP archive is damaged: its directory is missing.");
  const count = buf.readUInt16LE(end + 10);
  const directorySize = buf.readUInt32LE(end + 12);
  const directoryOffset = buf.readUInt32LE(end + 16);
  if (count === 0xffff || directoryOffset === 0xffffffff) throw new ZipError("unsupported", "ZIP64 archives are not supported.");
  if (count > limits.maxEntries)
    throw new ZipError("too_many", `This archive has more than ${limits.maxEntries.toLocaleString("en-US")} entries.`);
  if (directoryOffset + directorySize > end) throw new ZipError("corrupt", "This ZIP archive is damaged: its directory is out of place.");

  const found: { name: string; method: number; compressed: number; size: number; crc: number; local: number }[] = [];
  let total = 0;
  let at = directoryOffset;
  for (let n = 0; n < count; n++) {
    if (at + 46 > end || buf.readUInt32LE(at) !== CENTRAL)
      throw new ZipError("corrupt", "This ZIP archive is damaged: a directory entry is broken.");
    const flags = buf.readUInt16LE(at + 8);
    const method = buf.readUInt16LE(at + 10);
    const crc = buf.readUInt32LE(at + 16);
    let compressed = buf.readUInt32LE(at + 20);
    let size = buf.readUInt32LE(at + 24);
    const nameLength = buf.readUInt16LE(at + 28);
    const extraLength = buf.readUInt16LE(at + 30);
    const commentLength = buf.readUInt16LE(at + 32);
    let local = buf.readUInt32LE(at + 42);
    const name = buf.toString(flags & 0x0800 ? "utf8" : "latin1", at + 46, at + 46 + nameLength);
    // ZIP64 sizes and offset (extra field 0x0001), where the 32-bit fields say 0xFFFFFFFF: some
    // writers use them for every entry.
    if (size === 0xffffffff || compressed === 0xffffffff || local === 0xffffffff) {
      let extra = at + 46 + nameLength;
      const extraEnd = Math.min(extra + extraLength, end);
      while (extra + 4 <= extraEnd) {
        const id = buf.readUInt16LE(extra);
        const length = buf.readUInt16LE(extra + 2);
        if (id === 0x0001) {
          let field = extra + 4;
          const next = () => {
            if (field + 8 > extra + 4 + length) throw new ZipError("corrupt", "This ZIP archive is damaged: a ZIP64 field is short.");
            const value = buf.readBigUInt64LE(field);
            field += 8;
            if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new ZipError("too_large", `${name} is too large.`);
            return Number(value);
          };
          if (size === 0xffffffff) size = next();
          if (compressed === 0xffffffff) compressed = next();
          if (local === 0xffffffff) local = next();
          break;
        }
        extra += 4 + length;
      }
    }
    at += 46 + nameLength + extraLength + commentLength;
    if (!safeName(name)) throw new ZipError("bad_path", `This archive has an unsafe entry name: ${JSON.stringify(name.slice(0, 100))}.`);
    if (flags & 0x0001) throw new ZipError("unsupported", "Encrypted ZIP entries are not supported.");
    if (name.endsWith("/")) continue;
    if (size > limits.maxEntryBytes)
      throw new ZipError("too_large", `${name} is over ${(limits.maxEntryBytes / 1024 / 1024).toLocaleString("en-US")} MB.`);
    total += size;
    if (total > limits.maxTotalBytes)
      throw new ZipError(
        "too_large",
        `This archive holds over ${(limits.maxTotalBytes / 1024 / 1024).toLocaleString("en-US")} MB once unpacked.`,
      );
    if (method !== 0 && method !== 8) throw new ZipError("unsupported", `${name} is compressed in a way that is not supported.`);
    found.push({ name, method, compressed, size, crc, local });
  }

  const entries: ZipEntry[] = [];
  for (const entry of found) {
    if (!want(entry.name)) continue;
    const local = entry.local;
    if (local + 30 > buf.byteLength || buf.readUInt32LE(local) !== LOCAL)
      throw new ZipError("corrupt", `This ZIP archive is damaged at ${entry.name}.`);
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    if (start + entry.compressed > buf.byteLength) throw new ZipError("corrupt", `This ZIP archive is damaged at ${entry.name}.`);
    const data = buf.subarray(start, start + entry.compressed);
    let bytes: Buffer;
    try {
      // Never more than the directory said: a bomb stops there.
      bytes = entry.method === 0 ? Buffer.from(data) : inflateRawSync(data, { maxOutputLength: Math.max(1, entry.size) });
    } catch {
      throw new ZipError("corrupt", `${entry.name} could not be unpacked.`);
    }
    if (bytes.byteLength !== entry.size || crc32(bytes) !== entry.crc) throw new ZipError("corrupt", `${entry.name} is damaged.`);
    entries.push({ name: entry.name, bytes });
  }
  return entries;
}
