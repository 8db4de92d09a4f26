// The operator's plan command (docs/payments.md), for self-hosted teams without Stripe or to correct a
// plan by hand:
//
//   npm run plan -- <email> premium|free
//
// Opens the configured database the way the server does (DATA_DIR's PGlite, or DATABASE_URL),
// sets the creator's plan through the service-role door (naming the reason) and prints what it
// changed. On the embedded database the server must be stopped first (one process owns
// DATA_DIR). A creator with a Stripe subscription gets the plan Stripe says at its next webhook.
import { isPremium } from "~/domain/account";
import { DataDirInUseError } from "~/infra/db/client.server";
import { closeDatabase, database } from "~/infra/db/db.server";
import { EnvError, getEnv } from "~/infra/setup/env.server";
import { setPlanByHand, type HandPlan } from "~/services/billing.server";

const USAGE = "usage: npm run plan -- <email> premium|free";
const planName = (status: string) => (isPremium(status) ? "Premium" : "Free Plan");

async function main(argv: string[]): Promise<number> {
  const [email, plan, ...rest] = argv;
  if (!email || !plan || rest.length || !/^[^@\s]+@[^@\s]+$/.test(email) || (plan !== "premium" && plan !== "free")) {
    console.error(USAGE);
    return 2;
  }
  try {
    getEnv();
    await database();
  } catch (error) {
    if (error instanceof EnvError || error instanceof DataDirInUseError) {
      console.error(error.message);
      if (error instanceof DataDirInUseError) console.error("Stop the server that uses this DATA_DIR, then run the command again.");
      return 1;
    }
    throw error;
  }
  try {
    const changed = await setPlanByHand(email, plan as HandPlan);
    if (!changed) {
      console.error(`No account with the e-mail address ${email}.`);
      return 1;
    }
    const what = changed.before === changed.after ? "unchanged" : "changed";
    console.log(
      `${changed.email} (${changed.userId}): plan ${what}: ${planName(changed.before)} (subscription_status '${changed.before}') → ${planName(changed.after)} ('${changed.after}').`,
    );
    if (changed.stripeSubscriptionId) {
      console.log(
        `Note: this creator has the Stripe subscription ${changed.stripeSubscriptionId}; its next webhook sets the plan Stripe has.`,
      );
    }
    return 0;
  } finally {
    await closeDatabase();
  }
}

process.exitCode = await main(process.argv.slice(2));
