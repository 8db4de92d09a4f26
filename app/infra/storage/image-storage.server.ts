// The image storage for this process, chosen once from the environment: files in
// DATA_DIR/images (embedded default) or the Supabase Storage bucket (Supabase mode).
import path from "node:path";

import { getEnv, modes } from "../setup/env.server";
import { createLocalImageStorage } from "./local.server";
import { createSupabaseImageStorage } from "./supabase.server";
import type { ImageStorage } from "./types";

export * from "./types";

let current: ImageStorage | undefined;

export function imageStorage(): ImageStorage {
  if (!current) {
    const env = getEnv();
    current =
      modes.auth(env) === "supabase" && env.SUPABASE_URL && env.SUPABASE_SERVICE_ROLE_KEY
        ? createSupabaseImageStorage({ url: env.SUPABASE_URL, serviceRoleKey: env.SUPABASE_SERVICE_ROLE_KEY })
        : createLocalImageStorage(path.join(path.resolve(env.DATA_DIR), "images"));
  }
  return current;
}

/** Tests install their own storage (or reset to the configured one with undefined). */
export function useImageStorage(next: ImageStorage | undefined): void {
  current = next;
}
