// Outgoing e-mail. One interface, two adapters chosen by the environment:
//   - outbox (default, no SMTP_URL): every message becomes one JSON file in DATA_DIR/outbox
//     and one log line, so local development and tests can "receive" mail without a server;
//   - smtp (SMTP_URL set): delivered through nodemailer to the configured SMTP server.
import { randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";

import { createTransport } from "nodemailer";

import { prepareDataDir } from "../setup/data-dir.server";
import { getEnv, type Env } from "../setup/env.server";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  readonly kind: "outbox" | "smtp";
  send(message: MailMessage): Promise<void>;
}

/** A message as stored in the outbox folder. */
export interface OutboxMessage extends MailMessage {
  from: string;
  createdAt: string;
  /** Absolute path of the JSON file. */
  file: string;
}

export class MailError extends Error {
  override name = "MailError";
  /** The adapter's error code (e.g. nodemailer's EENVELOPE, ECONNECTION), when there is one. */
  code?: string;
  /** The SMTP reply code, when the server answered with an error. */
  responseCode?: number;
}

export type MailEnv = Pick<Env, "DATA_DIR" | "SMTP_URL" | "MAIL_FROM">;

export function createMailer(env: MailEnv): Mailer {
  return env.SMTP_URL ? smtpMailer(env.SMTP_URL, env.MAIL_FROM) : outboxMailer(env.DATA_DIR, env.MAIL_FROM);
}

let current: Mailer | undefined;

/** The configured mailer, created on first use from the environment. */
export function mailer(): Mailer {
  current ??= createMailer(getEnv());
  return current;
}

/** Tests and tools install their own mailer (or reset to the configured one with undefined). */
export function useMailer(next: Mailer | undefined): void {
  current = next;
}

// ---------------------------------------------------------------- outbox

const OUTBOX = "outbox";

/** The first http(s) link in a text, without trailing punctuation. */
export function firstLink(text: string): string | undefined {
  const match = /https?:\/\/[^\s<>"']+/i.exec(text);
  return match ? match[0].replace(/[.,;:!?)\]}]+$/, "") : undefined;
}

// File names start with a UTC timestamp (ISO with ':' replaced by '-') so that sorting the names
// sorts the messages chronologically. Three digits after the milliseconds keep messages sent within
// the same millisecond by this process in send order (each send moves the stamp forward by at least
// one of those steps); the random id keeps files from different processes apart.
let lastTick = 0;
function nextStamp(): { stamp: string; createdAt: string } {
  const tick = Math.max(Date.now() * 1000, lastTick + 1);
  lastTick = tick;
  const ms = Math.floor(tick / 1000);
  const createdAt = new Date(ms).toISOString(); // 2024-05-01T12:00:00.123Z
  const sub = String(tick % 1000).padStart(3, "0");
  return { stamp: `${createdAt.slice(0, -1).replace(/:/g, "-")}${sub}Z`, createdAt };
}

function outboxMailer(dataDir: string, from: string): Mailer {
  let folder: string | undefined;
  return {
    kind: "outbox",
    async send(message) {
      // prepareDataDir gives a readable error when DATA_DIR cannot be written.
      folder ??= path.join(prepareDataDir(dataDir), OUTBOX);
      await mkdir(folder, { recursive: true });
      const { stamp, createdAt } = nextStamp();
      const name = `${stamp}-${randomBytes(6).toString("hex")}.json`;
      const file = path.join(folder, name);
      const temp = path.join(folder, `.${name}.${randomBytes(4).toString("hex")}.tmp`);
      const content = { from, to: message.to, subject: message.subject, text: message.text, html: message.html, createdAt };
      try {
        await writeFile(temp, `${JSON.stringify(content, null, 2)}\n`, { flag: "wx" });
        await rename(temp, file);
      } catch (error) {
        await rm(temp, { force: true }).catch(() => {});
        throw new MailError(`Could not write "${message.subject}" for ${message.to} to the outbox ${folder}: ${describe(error)}`, {
          cause: error,
        });
      }
      const link = firstLink(message.text);
      console.log(`[mail] to ${message.to}: ${message.subject}${link ? ` — ${link}` : ""}`);
    },
  };
}

/** Every message in DATA_DIR/outbox, oldest first. Empty when nothing was sent yet. */
export async function readOutbox(dataDir: string): Promise<OutboxMessage[]> {
  const folder = path.join(path.resolve(dataDir), OUTBOX);
  let names: string[];
  try {
    names = await readdir(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const files = names.filter((n) => n.endsWith(".json") && !n.startsWith(".")).sort();
  return Promise.all(
    files.map(async (name) => {
      const file = path.join(folder, name);
      const stored = JSON.parse(await readFile(file, "utf8")) as Omit<OutboxMessage, "file">;
      return {
        from: stored.from,
        to: stored.to,
        subject: stored.subject,
        text: stored.text,
        html: stored.html,
        createdAt: stored.createdAt,
        file,
      };
    }),
  );
}

// ---------------------------------------------------------------- smtp

/** The SMTP URL without password or query (which may carry secrets), safe for messages and logs. */
export function redactSmtpUrl(smtpUrl: string): string {
  try {
    const url = new URL(smtpUrl);
    const user = url.username ? `${url.username}${url.password ? ":***" : ""}@` : "";
    return `${url.protocol}//${user}${url.host}`;
  } catch {
    return "(invalid SMTP_URL)";
  }
}

function secretsOf(smtpUrl: string): string[] {
  try {
    const url = new URL(smtpUrl);
    if (!url.password) return [];
    const raw = url.password;
    let decoded = raw;
    try {
      decoded = decodeURIComponent(raw);
    } catch {
      // keep the raw form
    }
    return [...new Set([raw, decoded])].filter((s) => s.length > 0);
  } catch {
    return [];
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function smtpMailer(smtpUrl: string, from: string): Mailer {
  const where = redactSmtpUrl(smtpUrl);
  const secrets = secretsOf(smtpUrl);
  const scrub = (text: string) => secrets.reduce((t, s) => t.split(s).join("***"), text);
  const transport = createTransport(smtpUrl);
  return {
    kind: "smtp",
    async send(message) {
      try {
        await transport.sendMail({ from, to: message.to, subject: message.subject, text: message.text, html: message.html });
      } catch (error) {
        // The original error is not attached as cause: it may carry the connection options.
        const failure = new MailError(scrub(`Could not send "${message.subject}" to ${message.to} via ${where}: ${describe(error)}`));
        const { code, responseCode } = (error ?? {}) as { code?: unknown; responseCode?: unknown };
        if (typeof code === "string") failure.code = code;
        if (typeof responseCode === "number") failure.responseCode = responseCode;
        throw failure;
      }
    },
  };
}
