// Notification e-mails (docs/product.md, Settings): what 'Persona creation', 'Narrative
// generation' and 'Image generation' send. 'Product news' (marketingEmails) sends nothing.
//
// - Reference images: when a job ends (ready or failed), the creator is mailed at once, unless
//   the persona's page asked for the job's state in the last 30 s (the page polls GET
//   /api/personas/{id} with JavaScript and reloads itself without): the creator is watching, so
//   the outcome waits in the digest instead. Who watched is kept in this process's memory; with
//   several processes (WEB_CONCURRENCY) a poll answered by another one is not seen, and the mail
//   goes out at once.
// - A persona created and a backstory generated for a saved persona are queued (notification_queue)
//   and mailed in one digest per creator once the oldest queued event is NOTIFY_DIGEST_INTERVAL_MS
//   old (an hour): at most one digest an hour. Each queued event puts a job on the queue for the
//   time its digest is due (app/infra/jobs/queue.server.ts); nothing polls an empty queue.
// - Every send checks the preference again, and that the persona and the account still exist:
//   a switch turned off, a persona or an account deleted after the event means no mail.
import { and, asc, eq, inArray, min, sql } from "drizzle-orm";

import { PRODUCT_NAME } from "~/domain/site";
import { withServiceRole } from "~/infra/db/db.server";
import { handleJobs, queueWork, QUEUES } from "~/infra/jobs/queue.server";
import {
  NOTIFICATION_KINDS,
  notificationPreferences,
  notificationQueue,
  personas,
  profiles,
  type QueuedNotification,
} from "~/infra/db/schema.server";
import { mailer, type MailMessage } from "~/infra/mail/mail.server";
import { getEnv } from "~/infra/setup/env.server";
import { describeError } from "~/infra/web/log.server";

import { composeMail } from "./account-mail.server";

export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** A poll of the job's state this recent means the creator is on the persona's page. */
export const IMAGE_WATCH_WINDOW_MS = 30_000;
/** Where every notification mail points to change the switches (the Notifications tab of Settings). */
export const NOTIFICATION_SETTINGS_PATH = "/settings?tab=notifications#notifications";

type Owner = { id: string; email: string };
type PreferenceColumn = "personaCreation" | "narrativeGeneration" | "imageGeneration";

const PREFERENCE_OF: Record<NotificationKind, PreferenceColumn> = {
  persona_created: "personaCreation",
  backstory_generated: "narrativeGeneration",
  images_ready: "imageGeneration",
  images_failed: "imageGeneration",
};
const PREFERENCE_LABEL: Record<PreferenceColumn, string> = {
  personaCreation: "Persona creation",
  narrativeGeneration: "Narrative generation",
  imageGeneration: "Image generation",
};
const PREFERENCE_SQL: Record<PreferenceColumn, string> = {
  personaCreation: "persona_creation",
  narrativeGeneration: "narrative_generation",
  imageGeneration: "image_generation",
};

const appUrl = () => getEnv().APP_URL;
const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

// ---------------------------------------------------------------------------------------
// Who is watching an image job: persona id → when its state was last asked for.

const WATCHED_LIMIT = 10_000;
const watched = new Map<string, number>();

/** The persona's page asked for its running image job's state (a poll, or the page itself). */
export function noteImageJobWatched(personaId: string, now = Date.now()): void {
  watched.delete(personaId);
  watched.set(personaId, now);
  // Oldest first: a process that never sees its jobs end (another one runs them) forgets.
  if (watched.size > WATCHED_LIMIT) watched.delete(watched.keys().next().value!);
}

function watchedRecently(personaId: string, now: number): boolean {
  const at = watched.get(personaId);
  return at !== undefined && now - at <= IMAGE_WATCH_WINDOW_MS;
}

// ---------------------------------------------------------------------------------------
// Queueing.

/**
 * Queues one event for the creator's digest, when the persona is theirs and the preference is
 * on now (it is checked again when the digest is sent). Never throws: a notification that
 * cannot be queued is logged, and what the creator did stands.
 */
export async function queueNotification(
  owner: Owner,
  personaId: string,
  kind: NotificationKind,
  detail: string | null = null,
): Promise<boolean> {
  try {
    const column = sql.raw(`np.${PREFERENCE_SQL[PREFERENCE_OF[kind]]}`);
    const rows = await withServiceRole("queue a notification", (tx) =>
      tx.execute(sql`
        insert into public.notification_queue (user_id, persona_id, email, kind, detail, digest_due_at)
        select p.user_id, p.id, ${owner.email}, ${kind}, ${detail === null ? null : detail.slice(0, 500)},
          now() + ${getEnv().NOTIFY_DIGEST_INTERVAL_MS} * interval '1 millisecond'
        from public.personas p join public.notification_preferences np on np.user_id = p.user_id
        where p.id = ${personaId} and p.user_id = ${owner.id} and ${column}
        returning created_at`),
    );
    const list = (Array.isArray(rows) ? rows : (rows as { rows: unknown[] }).rows) as { created_at: string | Date }[];
    if (list.length === 0) return false;
    // Its digest job was queued with it, for when it is due.
    queueWork();
    return true;
  } catch (error) {
    console.error(`[notifications] could not queue ${kind} for persona ${personaId}: ${describeError(error)}`);
    return false;
  }
}

// ---------------------------------------------------------------------------------------
// Reference images: at once, or in the digest when the creator is watching.

export type ImageOutcome = { ok: true } | { ok: false; reason: string };

/** A persona's image job ended (a job whose persona was deleted meanwhile does not call this). Never throws. */
export async function notifyImageJob(owner: Owner, personaId: string, outcome: ImageOutcome, now = Date.now()): Promise<void> {
  const kind: NotificationKind = outcome.ok ? "images_ready" : "images_failed";
  const detail = outcome.ok ? null : outcome.reason;
  const watching = watchedRecently(personaId, now);
  watched.delete(personaId);
  if (watching) {
    await queueNotification(owner, personaId, kind, detail);
    return;
  }
  try {
    const [target] = await withServiceRole("an image notification's persona and switch", (tx) =>
      tx
        .select({ name: personas.name, on: notificationPreferences.imageGeneration, firstName: profiles.firstName })
        .from(personas)
        .innerJoin(notificationPreferences, eq(notificationPreferences.userId, personas.userId))
        .leftJoin(profiles, eq(profiles.id, personas.userId))
        .where(and(eq(personas.id, personaId), eq(personas.userId, owner.id))),
    );
    if (!target?.on) return;
    await mailer().send(imageMail({ to: owner.email, firstName: target.firstName, personaId, name: target.name, kind, detail }));
  } catch (error) {
    console.error(`[notifications] could not mail the image outcome of persona ${personaId}: ${describeError(error)}`);
  }
}

// ---------------------------------------------------------------------------------------
// The mails.

const personaUrl = (personaId: string) => `${appUrl()}/persona/${personaId}`;
const settingsUrl = () => `${appUrl()}${NOTIFICATION_SETTINGS_PATH}`;
const settingsLink = () => ({ label: "Change which e-mails you receive in your notification settings", url: settingsUrl() });

export function imageMail(p: {
  to: string;
  firstName?: string | null;
  personaId: string;
  name: string;
  kind: Extract<NotificationKind, "images_ready" | "images_failed">;
  detail: string | null;
}): MailMessage {
  const name = oneLine(p.name);
  const ready = p.kind === "images_ready";
  return composeMail({
    to: p.to,
    subject: ready ? `The reference images of ${name} are ready` : `The reference images of ${name} could not be generated`,
    firstName: p.firstName,
    intro: ready
      ? [`The reference images of ${name} are ready.`]
      : [
          `The reference images of ${name} could not be generated.${p.detail ? ` Reason: ${oneLine(p.detail)}` : ""}`,
          "You can try again from the persona's page.",
        ],
    button: { label: `Open ${name}`, url: personaUrl(p.personaId) },
    secondary: settingsLink(),
    outro: [`You receive this e-mail because 'Image generation' is on in your notification settings.`],
  });
}

export interface DigestEvent {
  kind: NotificationKind;
  personaId: string;
  name: string;
  detail: string | null;
}

function eventLine(e: DigestEvent): string {
  const name = oneLine(e.name);
  switch (e.kind) {
    case "persona_created":
      return `Persona created: ${name}`;
    case "backstory_generated":
      return `Backstory generated: ${name}`;
    case "images_ready":
      return `Reference images ready: ${name}`;
    case "images_failed":
      return `Reference images failed: ${name}${e.detail ? ` (${oneLine(e.detail)})` : ""}`;
  }
}

export function digestMail(p: { to: string; firstName?: string | null; events: DigestEvent[] }): MailMessage {
  const names = [...new Set(p.events.map((e) => oneLine(e.name)))];
  const subject =
    names.length === 1
      ? `Your ${PRODUCT_NAME} update: ${names[0]}`
      : `Your ${PRODUCT_NAME} updates: ${names[0]} and ${names.length - 1} more`;
  const switches = [...new Set(p.events.map((e) => PREFERENCE_LABEL[PREFERENCE_OF[e.kind]]))].map((label) => `'${label}'`);
  return composeMail({
    to: p.to,
    subject,
    firstName: p.firstName,
    intro: [
      `Here is what happened with your personas since our last e-mail:`,
      ...p.events.map((e) => `${eventLine(e)} — ${personaUrl(e.personaId)}`),
    ],
    button: { label: "Open My Personas", url: `${appUrl()}/my-personas` },
    secondary: settingsLink(),
    outro: [
      `We send these at most once an hour. You receive this e-mail because ${switches.join(" and ")} ${switches.length > 1 ? "are" : "is"} on in your notification settings.`,
    ],
  });
}

// ---------------------------------------------------------------------------------------
// The digest.

/**
 * Sends the digest of every creator whose oldest queued event is at least the interval old
 * (`now` and `intervalMs` for tests). Returns how many digests were mailed.
 */
export async function sendDueDigests(options: { now?: Date; intervalMs?: number } = {}): Promise<number> {
  const interval = options.intervalMs ?? getEnv().NOTIFY_DIGEST_INTERVAL_MS;
  const cutoff = new Date((options.now ?? new Date()).getTime() - interval);
  const due = await withServiceRole("creators with a digest due", (tx) =>
    tx
      .select({ userId: notificationQueue.userId })
      .from(notificationQueue)
      .groupBy(notificationQueue.userId)
      .having(sql`min(${notificationQueue.createdAt}) <= ${cutoff.toISOString()}::timestamptz`),
  );
  let sent = 0;
  for (const { userId } of due) {
    if (await sendDigest(userId)) sent++;
  }
  return sent;
}

/**
 * Takes all of one creator's queued events (deleted in the same transaction, so two processes
 * never send them twice), keeps those whose persona still exists and whose switch is on, and
 * mails them. A mail that fails puts the events back for the next pass.
 */
async function sendDigest(userId: string): Promise<boolean> {
  const claimed = await withServiceRole("claim a digest", async (tx) => {
    const rows = await tx.delete(notificationQueue).where(eq(notificationQueue.userId, userId)).returning();
    if (rows.length === 0) return null;
    const [preferences] = await tx.select().from(notificationPreferences).where(eq(notificationPreferences.userId, userId));
    const [profile] = await tx.select({ firstName: profiles.firstName }).from(profiles).where(eq(profiles.id, userId));
    const ids = [...new Set(rows.map((r) => r.personaId))];
    const names = await tx
      .select({ id: personas.id, name: personas.name })
      .from(personas)
      .where(and(inArray(personas.id, ids), eq(personas.userId, userId)));
    return { rows, preferences, firstName: profile?.firstName ?? null, names: new Map(names.map((n) => [n.id, n.name])) };
  });
  if (!claimed?.preferences) return false;
  const { rows, preferences, names } = claimed;
  const kept = rows
    .filter((r) => names.has(r.personaId) && preferences[PREFERENCE_OF[r.kind as NotificationKind]])
    .sort((a, b) => new Date(a.createdAt).getTime() - new Date(b.createdAt).getTime());
  if (kept.length === 0) return false;
  const events = kept.map((r) => ({
    kind: r.kind as NotificationKind,
    personaId: r.personaId,
    name: names.get(r.personaId)!,
    detail: r.detail,
  }));
  try {
    await mailer().send(digestMail({ to: kept[kept.length - 1]!.email, firstName: claimed.firstName, events }));
    return true;
  } catch (error) {
    console.error(`[notifications] could not send the digest of ${userId}; it is tried again later: ${describeError(error)}`);
    await requeue(kept);
    return false;
  }
}

async function requeue(rows: QueuedNotification[]): Promise<void> {
  // Tried again in a minute (or the interval, when shorter): the rows' trigger queues that pass.
  const digestDueAt = new Date(Date.now() + Math.min(getEnv().NOTIFY_DIGEST_INTERVAL_MS, 60_000));
  const again = rows.map((row) => ({ ...row, digestDueAt }));
  await withServiceRole("put a digest back", (tx) => tx.insert(notificationQueue).values(again).onConflictDoNothing()).catch((error) =>
    // A persona deleted since refuses the insert (its key): the events are dropped, as they would have been.
    console.error(`[notifications] could not put a digest back: ${describeError(error)}`),
  );
}

/** When the next digest is due (the oldest queued event plus the interval), or null with nothing queued. */
export async function nextDigestDue(): Promise<Date | null> {
  const [row] = await withServiceRole("the next digest", (tx) =>
    tx.select({ oldest: min(notificationQueue.createdAt) }).from(notificationQueue),
  );
  if (!row?.oldest) return null;
  return new Date(new Date(row.oldest).getTime() + getEnv().NOTIFY_DIGEST_INTERVAL_MS);
}

/** A creator's queued events, oldest first (what the owner's door shows them). */
export async function queuedNotifications(userId: string): Promise<QueuedNotification[]> {
  return withServiceRole("a creator's queued notifications", (tx) =>
    tx.select().from(notificationQueue).where(eq(notificationQueue.userId, userId)).orderBy(asc(notificationQueue.createdAt)),
  );
}

// ---------------------------------------------------------------------------------------
// The sender: jobs on the queue. Each queued event put a digest job at the time it is due
// (the notification_queue trigger); each such job sends every digest due by then.

/** The digest queue, for this process's workers (the app's entry, `npm run worker`). */
export function handleDigestJobs(): void {
  handleJobs(QUEUES.notificationDigests, async () => {
    await sendDueDigests();
  });
}
