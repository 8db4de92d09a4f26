// Reference image storage (docs/architecture.md, Adapters): one interface, two implementations
// chosen once from the environment:
//   - local (default): files under DATA_DIR/images/<userId>/<personaId>/, served by the app's
//     owner-checked route;
//   - supabase (Supabase mode): the private bucket `reference-images`, objects at
//     <userId>/<personaId>/<file>, shown through short-lived signed URLs.
// Every path is built and checked by objectPath(): two uuids and a file name of our own
// shape, so nothing a visitor sends can name another folder (no `..`, no absolute paths).

export interface StoredObject {
  bytes: Uint8Array;
  contentType: string;
  /** A strong validator for conditional requests. */
  etag: string;
}

export interface ImageStorage {
  readonly kind: "local" | "supabase";
  /** Writes one object whole (a reader never sees half a file), replacing one at that path. */
  put(path: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** The object, or null when there is none. */
  get(path: string): Promise<StoredObject | null>;
  /** Removes these objects (missing ones are fine). */
  remove(paths: string[]): Promise<void>;
  /** Removes everything under a folder: `<userId>/` or `<userId>/<personaId>/`. */
  removeFolder(folder: string): Promise<void>;
  /** Browser-loadable short-lived URLs, or null where the app serves the files itself. */
  signedUrls(paths: string[], expiresInSeconds: number): Promise<(string | null)[]>;
  /**
   * Removes what interrupted writes left behind (a process killed between writing a temporary
   * file and renaming it), older than `olderThanMs`; answers how many. Only where writes leave
   * temporary files (local files).
   */
  removeStaleTemporaryFiles?(olderThanMs: number): Promise<number>;
}

export class StorageError extends Error {
  override name = "StorageError";
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Our file names: slot, content hash, optional width, extension. */
// `asset-…`: an image a CharX card carried besides its icon, kept for the next CharX export.
export const IMAGE_FILE = /^(?:(primary|secondary)-[0-9a-f]{16}(?:-(384|768))?|asset-[0-9a-f]{16})\.(png|jpg|webp)$/;

export function isImageFileName(name: string): boolean {
  return IMAGE_FILE.test(name);
}

/** `<userId>/<personaId>/<file>`, or a StorageError when any part is not of our shape. */
export function objectPath(userId: string, personaId: string, file?: string): string {
  if (!UUID.test(userId) || !UUID.test(personaId))
    throw new StorageError("Image paths need a user id and a persona id (lower-case uuids).");
  if (file === undefined) return `${userId}/${personaId}/`;
  if (!IMAGE_FILE.test(file)) throw new StorageError(`Not an image file name of ours: ${JSON.stringify(file).slice(0, 80)}`);
  return `${userId}/${personaId}/${file}`;
}

export function userFolder(userId: string): string {
  if (!UUID.test(userId)) throw new StorageError("Image folders need a user id (a lower-case uuid).");
  return `${userId}/`;
}

/** A path of ours (as objectPath builds them), or a folder of ours ending in '/'. */
export function checkedPath(path: string, folder = false): string {
  const parts = path.split("/");
  const ok = folder
    ? path.endsWith("/") && (parts.length === 2 || parts.length === 3) && parts.slice(0, -1).every((p) => UUID.test(p))
    : parts.length === 3 && UUID.test(parts[0]!) && UUID.test(parts[1]!) && IMAGE_FILE.test(parts[2]!);
  if (!ok) throw new StorageError(`Not an image ${folder ? "folder" : "path"} of ours: ${JSON.stringify(path).slice(0, 120)}`);
  return path;
}

export const CONTENT_TYPES: Record<string, string> = { png: "image/png", jpg: "image/jpeg", webp: "image/webp" };

export function contentTypeOf(path: string): string {
  return CONTENT_TYPES[path.slice(path.lastIndexOf(".") + 1)] ?? "application/octet-stream";
}
