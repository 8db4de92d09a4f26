import { getEnv } from "../setup/env.server";
import { prepareDataDir, sessionSecret } from "../setup/data-dir.server";

let secret: string | undefined;

/** The secret that signs every cookie: SESSION_SECRET, or one generated once in DATA_DIR. */
export function cookieSecret(): string {
  const env = getEnv();
  secret ??= sessionSecret(prepareDataDir(env.DATA_DIR), env.SESSION_SECRET);
  return secret;
}

/** Secure cookies whenever the app is served over HTTPS (production behind TLS). */
export function cookieSecure(): boolean {
  return getEnv().APP_URL.startsWith("https://");
}
