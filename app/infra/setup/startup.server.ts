import { prepareDataDir } from "./data-dir.server";
import { database } from "../db/db.server";
import { getEnv, modes } from "./env.server";

let started: Promise<void> | undefined;

/** Validates the environment, DATA_DIR and the database once; exits with a readable message on failure. */
export function startServer(): Promise<void> {
  started ??= (async () => {
    try {
      const env = getEnv();
      prepareDataDir(env.DATA_DIR);
      await database();
      // The start-up process (app/server.mjs) leaves this line to the server that follows it.
      if (process.env.PF_STARTUP_ONLY !== "1")
        console.log(
          `[personaforge] database: ${modes.database(env)}, auth: ${modes.auth(env)}, mail: ${modes.mail(env)}, ai: ${modes.ai(env)}, billing: ${modes.billing(env)}; data in ${env.DATA_DIR}`,
        );
      // What creators are not shown: how an operator turns upgrades on (README.md, docs/payments.md).
      if (process.env.PF_STARTUP_ONLY !== "1" && modes.billing(env) === "none")
        console.log(
          "[personaforge] billing is off: creators see 'Upgrading is not available on this server yet'. Set STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET and STRIPE_PRICE_ID (docs/payments.md), or set a plan by hand with `npm run plan -- <email> premium`.",
        );
    } catch (error) {
      console.error(`\n[personaforge] cannot start:\n${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    }
  })();
  return started;
}
