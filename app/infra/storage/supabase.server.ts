// Reference images in Supabase Storage (Supabase mode): the private bucket `reference-images`
// (supabase/config.toml and migration reference_images_bucket), objects at
// <userId>/<personaId>/<file>. The server writes, reads and removes with the service role,
// always at a path it built from the signed-in user's id (types.ts checks every path); pages
// get short-lived signed URLs. The bucket's storage.objects policies keep any user's own token
// inside their own folder.
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import WebSocket from "ws";

import { checkedPath, contentTypeOf, StorageError, type ImageStorage } from "./types";

export const REFERENCE_IMAGES_BUCKET = "reference-images";

export interface SupabaseStorageOptions {
  url: string;
  serviceRoleKey: string;
  bucket?: string;
  fetch?: typeof fetch;
}

function failed(what: string, error: { message?: string } | null | undefined): StorageError {
  return new StorageError(`Supabase Storage could not ${what}${error?.message ? `: ${error.message}` : ""}.`);
}

export function createSupabaseImageStorage({
  url,
  serviceRoleKey,
  bucket = REFERENCE_IMAGES_BUCKET,
  fetch: fetchImpl,
}: SupabaseStorageOptions): ImageStorage {
  let client: SupabaseClient | undefined;
  const files = () => {
    client ??= createClient(url, serviceRoleKey, {
      // Node 20 has no global WebSocket; without a transport supabase-js throws at creation.
      realtime: { transport: WebSocket as never },
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      global: fetchImpl ? { fetch: fetchImpl } : {},
    });
    return client.storage.from(bucket);
  };

  async function list(folder: string): Promise<string[]> {
    const names: string[] = [];
    for (let offset = 0; ; offset += 100) {
      const { data, error } = await files().list(folder.replace(/\/$/, ""), { limit: 100, offset });
      if (error) throw failed("list the images", error);
      for (const item of data ?? []) {
        // Folders come back without an id: walk into them (a user folder holds persona folders).
        if (item.id === null) names.push(...(await list(`${folder}${item.name}/`)));
        else names.push(`${folder}${item.name}`);
      }
      if (!data || data.length < 100) return names;
    }
  }

  return {
    kind: "supabase",
    async put(path, bytes, contentType) {
      const { error } = await files().upload(checkedPath(path), bytes, { contentType, upsert: true, cacheControl: "3600" });
      if (error) throw failed("store the image", error);
    },
    async get(path) {
      const { data, error } = await files().download(checkedPath(path));
      if (error || !data) {
        const status =
          (error as { statusCode?: string; status?: number } | null)?.statusCode ?? (error as { status?: number } | null)?.status;
        if (String(status) === "404" || String(status) === "400" || /not found/i.test(error?.message ?? "")) return null;
        throw failed("read the image", error);
      }
      const bytes = new Uint8Array(await data.arrayBuffer());
      return { bytes, contentType: contentTypeOf(path), etag: `"${path.slice(path.lastIndexOf("/") + 1)}"` };
    },
    async remove(paths) {
      if (paths.length === 0) return;
      const { error } = await files().remove(paths.map((p) => checkedPath(p)));
      if (error) throw failed("remove the images", error);
    },
    async removeFolder(folder) {
      const names = await list(checkedPath(folder, true));
      for (let i = 0; i < names.length; i += 500) {
        const { error } = await files().remove(names.slice(i, i + 500));
        if (error) throw failed("remove the images", error);
      }
    },
    async signedUrls(paths, expiresInSeconds) {
      if (paths.length === 0) return [];
      const { data, error } = await files().createSignedUrls(
        paths.map((p) => checkedPath(p)),
        expiresInSeconds,
      );
      if (error || !data) throw failed("sign the image addresses", error);
      return paths.map((p) => data.find((d) => d.path === p)?.signedUrl ?? null);
    },
  };
}
