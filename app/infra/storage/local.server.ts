// Reference images as files under DATA_DIR/images/<userId>/<personaId>/ (the embedded
// default). A write goes to a temporary file in the same folder and is renamed into place, so
// a reader (or a crash) never sees half an image. Every path is checked (types.ts) and
// resolved inside the root before use.
import { createHash, randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";

import { checkedPath, contentTypeOf, StorageError, type ImageStorage } from "./types";

/** The temporary file of a write in progress: `<final name>.tmp-<pid>-<8 hex>`. */
const TEMPORARY_FILE = /\.tmp-\d+-[0-9a-f]{8}$/;

export function createLocalImageStorage(root: string): ImageStorage {
  const base = path.resolve(root);
  const resolve = (relative: string) => {
    const full = path.resolve(base, relative);
    if (full !== base && !full.startsWith(base + path.sep)) throw new StorageError("An image path left the images folder.");
    return full;
  };

  return {
    kind: "local",
    async put(objectPath, bytes, _contentType) {
      const file = resolve(checkedPath(objectPath));
      await mkdir(path.dirname(file), { recursive: true });
      const temporary = `${file}.tmp-${process.pid}-${randomBytes(4).toString("hex")}`;
      // (TEMPORARY_FILE matches this name: removeStaleTemporaryFiles finds what a crash left.)
      try {
        await writeFile(temporary, bytes, { mode: 0o600 });
        await rename(temporary, file);
      } catch (error) {
        await rm(temporary, { force: true }).catch(() => {});
        throw error;
      }
    },
    async get(objectPath) {
      const file = resolve(checkedPath(objectPath));
      let bytes: Buffer;
      try {
        bytes = await readFile(file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
      const info = await stat(file).catch(() => null);
      // File names carry a content hash, so name, size and time make a strong validator.
      const etag = `"${createHash("sha1")
        .update(`${objectPath}|${bytes.length}|${info?.mtimeMs ?? 0}`)
        .digest("hex")
        .slice(0, 20)}"`;
      return { bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), contentType: contentTypeOf(objectPath), etag };
    },
    async remove(paths) {
      await Promise.all(paths.map((p) => rm(resolve(checkedPath(p)), { force: true })));
    },
    async removeFolder(folder) {
      await rm(resolve(checkedPath(folder, true)), { recursive: true, force: true });
    },
    async signedUrls(paths) {
      return paths.map(() => null);
    },
    async removeStaleTemporaryFiles(olderThanMs) {
      let names: string[];
      try {
        names = await readdir(base, { recursive: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0;
        throw error;
      }
      const before = Date.now() - olderThanMs;
      let removed = 0;
      for (const name of names) {
        if (!TEMPORARY_FILE.test(name)) continue;
        const file = resolve(name);
        const info = await stat(file).catch(() => null);
        // Another process on the same folder may be writing right now: only old files go.
        if (!info?.isFile() || info.mtimeMs > before) continue;
        await rm(file, { force: true });
        removed++;
      }
      return removed;
    },
  };
}
