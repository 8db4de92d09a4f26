// Notification e-mails on a real database (PGlite in npm test, PostgreSQL 15 with DATABASE_URL):
// what each switch sends (docs/product.md, Settings), the hourly digest and its timing, the
// switch checked again at send time, nothing for a persona or an account deleted meanwhile,
// the link to the notification settings in every mail, and the queue's owner-only reads.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), "pf-notify-"));
process.env.APP_URL = "http://app.test";

const { createCreator, installTestDatabase } = await import("../../tests/support/test-database");
const { closeDatabase, withUser } = await import("~/infra/db/db.server");
const { settleJobs, startJobWorkers, stopJobWorkers } = await import("~/infra/jobs/queue.server");
const { notificationQueue } = await import("~/infra/db/schema.server");
const { useMailer } = await import("~/infra/mail/mail.server");
const { AiError, useImageGenerator } = await import("~/infra/ai/ai.server");
const personasService = await import("./personas.server");
const library = await import("./persona-library.server");
const accounts = await import("./accounts.server");
const images = await import("./images.server");
const notifications = await import("./notifications.server");

type Mail = { to: string; subject: string; text: string; html: string };
const outbox: Mail[] = [];
let handle: Awaited<ReturnType<typeof installTestDatabase>>;

beforeAll(async () => {
  handle = await installTestDatabase();
  useMailer({ kind: "outbox", send: async (m) => void outbox.push(m) });
});
beforeEach(() => {
  outbox.length = 0;
});
afterAll(async () => {
  await images.settleImageJobs();
  await stopJobWorkers();
  useMailer(undefined);
  await closeDatabase();
});

const HOUR = 3_600_000;
const SETTINGS_LINK = "http://app.test/settings?tab=notifications#notifications";
const later = (ms: number) => new Date(Date.now() + ms);
const newUser = () => createCreator(handle, "free", { first: "Nia", last: "Tify" });
type User = Awaited<ReturnType<typeof newUser>>;
const complete = (name: string) => ({
  name,
  type: "vtuber",
  gender: "female",
  ageRange: "25-34",
  interests: ["gaming", "music"],
  description: "Streams at night.",
  personality: ["Outgoing", "Creative"],
  backstory: "",
});
const mailsTo = (user: User) => outbox.filter((m) => m.to === user.email);
const queued = (user: User) => notifications.queuedNotifications(user.id);
const setSwitch = async (user: User, changes: Partial<Record<"personaCreation" | "narrativeGeneration" | "imageGeneration", boolean>>) =>
  accounts.updateNotificationPreferences(user, { ...(await accounts.getNotificationPreferences(user)), ...changes });

describe("the digest (persona creation, narrative generation)", () => {
  it("queues a created persona and mails it once its hour has passed, naming it, with the settings link", async () => {
    const user = await newUser();
    const persona = await personasService.createPersona(user, complete("Nova Quinn"));
    expect((await queued(user)).map((n) => [n.kind, n.personaId])).toEqual([["persona_created", persona.id]]);

    // Before the hour: nothing.
    await notifications.sendDueDigests({ now: later(HOUR - 60_000) });
    expect(mailsTo(user)).toEqual([]);

    await notifications.sendDueDigests({ now: later(HOUR + 1_000) });
    const [mail, ...more] = mailsTo(user);
    expect(more).toEqual([]);
    expect(mail!.subject).toBe("Your PersonaForge update: Nova Quinn");
    expect(mail!.text).toContain(`Persona created: Nova Quinn — http://app.test/persona/${persona.id}`);
    expect(mail!.text).toContain(SETTINGS_LINK);
    expect(mail!.html).toContain(SETTINGS_LINK.replace("&", "&amp;"));
    expect(mail!.text).toContain("'Persona creation' is on");
    // Sent once: the queue is empty and the next pass sends nothing.
    expect(await queued(user)).toEqual([]);
    await notifications.sendDueDigests({ now: later(2 * HOUR) });
    expect(mailsTo(user)).toHaveLength(1);
  });

  it("gathers the hour's events in one digest, and an event after it waits for its own hour", async () => {
    const user = await newUser();
    const first = await personasService.createPersona(user, complete("Ada Brook"));
    const draft = await personasService.saveDraft(user, { name: "Cy Dune" });
    await personasService.completeDraft(user, draft.id, complete("Cy Dune"));
    // A backstory for a saved persona (its edit page); one written in the wizard for an unsaved one is not notified.
    await personasService.generateBackstory(user, complete("Ada Brook"), first.id);
    await personasService.generateBackstory(user, complete("Unsaved Name"));
    expect((await queued(user)).map((n) => n.kind)).toEqual(["persona_created", "persona_created", "backstory_generated"]);

    await notifications.sendDueDigests({ now: later(HOUR + 1_000) });
    const [digest] = mailsTo(user);
    expect(mailsTo(user)).toHaveLength(1);
    expect(digest!.subject).toBe("Your PersonaForge updates: Ada Brook and 1 more");
    const lines = digest!.text.split("\n").filter((l) => /^(Persona created|Backstory generated):/.test(l));
    expect(lines.map((l) => l.split(" — ")[0])).toEqual([
      "Persona created: Ada Brook",
      "Persona created: Cy Dune",
      "Backstory generated: Ada Brook",
    ]);
    expect(digest!.text).not.toContain("Unsaved Name");
    expect(digest!.text).toContain("'Persona creation' and 'Narrative generation' are on");

    // The next event starts a new hour: not in a digest before it has passed.
    await personasService.createPersona(user, complete("Eve Fable"));
    await notifications.sendDueDigests({ now: later(HOUR / 2) });
    expect(mailsTo(user)).toHaveLength(1);
    await notifications.sendDueDigests({ now: later(HOUR + 1_000) });
    expect(mailsTo(user)).toHaveLength(2);
    expect(mailsTo(user)[1]!.subject).toBe("Your PersonaForge update: Eve Fable");
  });

  it("uses the configured interval when none is given", async () => {
    const user = await newUser();
    await personasService.createPersona(user, complete("Gus Hale"));
    expect((await notifications.nextDigestDue())!.getTime()).toBeLessThanOrEqual(Date.now() + HOUR);
    await notifications.sendDueDigests();
    expect(mailsTo(user)).toEqual([]);
    await notifications.sendDueDigests({ now: later(HOUR + 1_000) });
    expect(mailsTo(user)).toHaveLength(1);
    expect(await queued(user)).toEqual([]);
  });

  it("sends nothing for a switch that is off, whether it was off when queued or turned off before sending", async () => {
    const user = await newUser();
    await setSwitch(user, { personaCreation: false });
    await personasService.createPersona(user, complete("Ivy Jones"));
    expect(await queued(user)).toEqual([]);

    await setSwitch(user, { personaCreation: true, narrativeGeneration: true });
    const persona = await personasService.createPersona(user, complete("Kai Lane"));
    await personasService.generateBackstory(user, complete("Kai Lane"), persona.id);
    expect(await queued(user)).toHaveLength(2);
    // Turned off after the events were queued: checked again when the digest goes.
    await setSwitch(user, { personaCreation: false });
    await notifications.sendDueDigests({ now: later(HOUR + 1_000) });
    const [digest] = mailsTo(user);
    expect(mailsTo(user)).toHaveLength(1);
    expect(digest!.text).toContain("Backstory generated: Kai Lane");
    expect(digest!.text).not.toContain("Persona created");

    await personasService.createPersona(user, complete("Lu Moss"));
    await setSwitch(user, { personaCreation: true });
    await setSwitch(user, { personaCreation: false, narrativeGeneration: false });
    await notifications.sendDueDigests({ now: later(2 * HOUR) });
    expect(mailsTo(user)).toHaveLength(1);
  });

  it("sends nothing for a persona deleted meanwhile, and keeps the others", async () => {
    const user = await newUser();
    const gone = await personasService.createPersona(user, complete("Mo Nash"));
    await personasService.createPersona(user, complete("Ola Park"));
    await library.deletePersona(user, gone.id);
    await notifications.sendDueDigests({ now: later(HOUR + 1_000) });
    const [digest] = mailsTo(user);
    expect(digest!.text).toContain("Persona created: Ola Park");
    expect(digest!.text).not.toContain("Mo Nash");

    const alone = await personasService.createPersona(user, complete("Pia Quill"));
    await library.deletePersona(user, alone.id);
    await notifications.sendDueDigests({ now: later(2 * HOUR) });
    expect(mailsTo(user)).toHaveLength(1);
  });

  it("sends nothing for an account deleted meanwhile", async () => {
    const user = await newUser();
    await personasService.createPersona(user, complete("Rae Stone"));
    expect(await queued(user)).toHaveLength(1);
    await handle.raw.rows(`delete from auth.users where id = $1`, [user.id]);
    expect(await notifications.sendDueDigests({ now: later(HOUR + 1_000) })).toBe(0);
    expect(mailsTo(user)).toEqual([]);
  });

  it("puts a digest back when the mail cannot be sent, and sends it on the next pass", async () => {
    const user = await newUser();
    await personasService.createPersona(user, complete("Sol Tate"));
    useMailer({ kind: "smtp", send: async () => Promise.reject(new Error("connection refused")) });
    try {
      expect(await notifications.sendDueDigests({ now: later(HOUR + 1_000) })).toBe(0);
    } finally {
      useMailer({ kind: "outbox", send: async (m) => void outbox.push(m) });
    }
    expect(await queued(user)).toHaveLength(1);
    await notifications.sendDueDigests({ now: later(HOUR + 1_000) });
    expect(mailsTo(user).map((m) => m.subject)).toEqual(["Your PersonaForge update: Sol Tate"]);
  });
});

describe("the digest's jobs", () => {
  const digestJobs = (since: Date | string) =>
    handle.raw.rows<{ id: string; state: string; due_in_s: number }>(
      `select id, state::text as state, extract(epoch from start_after - now()) as due_in_s from pgboss.job
       where name = 'notification-digests' and created_on >= $1 order by created_on`,
      [since instanceof Date ? since.toISOString() : since],
    );

  it("an event queues a digest job for when it is due; that job sends the digest, and a failed send queues one a minute later", async () => {
    const [{ now: since }] = await handle.raw.rows<{ now: Date }>("select clock_timestamp() as now");
    const user = await newUser();
    await personasService.createPersona(user, complete("Ivy Jade"));
    const [job] = await digestJobs(since);
    expect(job!.state).toBe("created");
    expect(Number(job!.due_in_s)).toBeGreaterThan(HOUR / 1000 - 60);
    expect(Number(job!.due_in_s)).toBeLessThanOrEqual(HOUR / 1000);

    // The hour passes: the event is an hour old and its job is due. The mail cannot be sent yet.
    await handle.raw.exec(`update public.notification_queue set created_at = now() - interval '61 minutes' where user_id = '${user.id}'`);
    await handle.raw.exec(`update pgboss.job set start_after = now() where id = '${job!.id}'`);
    notifications.handleDigestJobs();
    await startJobWorkers();
    useMailer({ kind: "smtp", send: async () => Promise.reject(new Error("connection refused")) });
    try {
      await settleJobs({ queues: ["notification-digests"], timeoutMs: 10_000 });
    } finally {
      useMailer({ kind: "outbox", send: async (m) => void outbox.push(m) });
    }
    expect(mailsTo(user)).toEqual([]);
    const [first, again] = await digestJobs(since);
    expect(first!.state).toBe("completed");
    expect(again!.state).toBe("created");
    expect(Number(again!.due_in_s)).toBeGreaterThan(50);
    expect(Number(again!.due_in_s)).toBeLessThanOrEqual(60);

    // A minute later, the pass that job makes sends it.
    await handle.raw.exec(`update pgboss.job set start_after = now() where id = '${again!.id}'`);
    await settleJobs({ queues: ["notification-digests"], timeoutMs: 10_000 });
    expect(mailsTo(user).map((m) => m.subject)).toEqual(["Your PersonaForge update: Ivy Jade"]);
    expect(await queued(user)).toEqual([]);
  });
});

describe("reference images (image generation)", () => {
  async function generate(user: User, personaId: string, watch = false) {
    await images.startImageGeneration(user, personaId);
    // The page polling while the job runs (GET /api/personas/{id}).
    if (watch) await personasService.personaWithImageState(user, personaId);
    await images.settleImageJobs();
  }

  it("mails at once when the creator is not watching, naming the persona, with the settings link", async () => {
    const user = await newUser();
    const persona = await personasService.createPersona(user, complete("Uma Vale"));
    await generate(user, persona.id);
    const [mail] = mailsTo(user);
    expect(mailsTo(user)).toHaveLength(1);
    expect(mail!.subject).toBe("The reference images of Uma Vale are ready");
    expect(mail!.text).toContain("The reference images of Uma Vale are ready.");
    expect(mail!.text).toContain(`http://app.test/persona/${persona.id}`);
    expect(mail!.text).toContain(SETTINGS_LINK);
    // The persona's creation is still waiting for the digest: only the images went at once.
    expect((await queued(user)).map((n) => n.kind)).toEqual(["persona_created"]);
  });

  it("folds the outcome into the digest while the creator's page polls it", async () => {
    const user = await newUser();
    const persona = await personasService.createPersona(user, complete("Vic Wren"));
    await generate(user, persona.id, true);
    expect(mailsTo(user)).toEqual([]);
    expect((await queued(user)).map((n) => n.kind)).toEqual(["persona_created", "images_ready"]);
    await notifications.sendDueDigests({ now: later(HOUR + 1_000) });
    expect(mailsTo(user)).toHaveLength(1);
    expect(mailsTo(user)[0]!.text).toContain("Reference images ready: Vic Wren");
    expect(mailsTo(user)[0]!.text).toContain("'Persona creation' and 'Image generation' are on");
  });

  it("counts a poll older than 30 seconds as the creator having left", async () => {
    const user = await newUser();
    const persona = await personasService.createPersona(user, complete("Wes Xu"));
    notifications.noteImageJobWatched(persona.id, Date.now() - notifications.IMAGE_WATCH_WINDOW_MS - 1_000);
    await generate(user, persona.id);
    expect(mailsTo(user).map((m) => m.subject)).toEqual(["The reference images of Wes Xu are ready"]);
  });

  it("mails a failure with its reason", async () => {
    const user = await newUser();
    const persona = await personasService.createPersona(user, complete("Yan Zee"));
    useImageGenerator({
      kind: "openai",
      generateImage: async () => Promise.reject(new AiError("refused", "Your request was rejected by the safety system.", 400)),
    });
    try {
      await generate(user, persona.id);
    } finally {
      useImageGenerator(undefined);
    }
    const [mail] = mailsTo(user);
    expect(mail!.subject).toBe("The reference images of Yan Zee could not be generated");
    expect(mail!.text).toContain("Reason: Your request was rejected by the safety system.");
    expect(mail!.text).toContain(SETTINGS_LINK);
  });

  it("sends nothing with 'Image generation' off, at once or in the digest", async () => {
    const user = await newUser();
    await setSwitch(user, { imageGeneration: false });
    const persona = await personasService.createPersona(user, complete("Abe Cole"));
    await generate(user, persona.id);
    expect(mailsTo(user)).toEqual([]);

    // Queued while on (the creator watched), turned off before the digest: left out.
    await setSwitch(user, { imageGeneration: true });
    await generate(user, persona.id, true);
    await setSwitch(user, { imageGeneration: false });
    await notifications.sendDueDigests({ now: later(HOUR + 1_000) });
    expect(
      mailsTo(user)
        .map((m) => m.text)
        .join(),
    ).not.toContain("Reference images");
    expect(mailsTo(user).map((m) => m.subject)).toEqual(["Your PersonaForge update: Abe Cole"]);
  });
});

describe("the queue's door", () => {
  it("shows a creator their own queued events only, and lets no creator write to it", async () => {
    const alice = await newUser();
    const bob = await newUser();
    const persona = await personasService.createPersona(alice, complete("Bea Dorn"));
    const seenBy = (user: User) => withUser(user.id, (tx) => tx.select().from(notificationQueue));
    expect((await seenBy(alice)).map((n) => n.personaId)).toEqual([persona.id]);
    expect(await seenBy(bob)).toEqual([]);
    await expect(
      withUser(bob.id, (tx) =>
        tx
          .insert(notificationQueue)
          .values({ userId: bob.id, personaId: persona.id, email: "someone@example.test", kind: "persona_created" }),
      ),
    ).rejects.toThrow();
    await expect(withUser(alice.id, (tx) => tx.delete(notificationQueue).where(eq(notificationQueue.userId, alice.id)))).rejects.toThrow();
    expect(await seenBy(alice)).toHaveLength(1);
    // Nothing touched it: the count as the server sees it.
    expect((await handle.raw.rows(`select count(*)::int as n from public.notification_queue where user_id = $1`, [alice.id]))[0]).toEqual({
      n: 1,
    });
  });
});
