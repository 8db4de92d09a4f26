import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

import { SMTPServer, type SMTPServerOptions } from "smtp-server";
import { afterEach, describe, expect, it, vi } from "vitest";

import {
  createMailer,
  firstLink,
  MailError,
  mailer,
  readOutbox,
  redactSmtpUrl,
  useMailer,
  type Mailer,
  type MailMessage,
} from "./mail.server";

const FROM = "PersonaForge <no-reply@personaforge.local>";
const NAME = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{6}Z-[0-9a-f]{12}\.json$/;

function tempDir(): string {
  return mkdtempSync(path.join(tmpdir(), "pf-mail-"));
}

function message(overrides: Partial<MailMessage> = {}): MailMessage {
  return {
    to: "ada@example.com",
    subject: "Confirm your e-mail address",
    text: "Hi Ada,\n\nConfirm here: http://localhost:3000/verify-email?token=abc.\n",
    html: '<p>Hi Ada,</p><p><a href="http://localhost:3000/verify-email?token=abc">Confirm</a></p>',
    ...overrides,
  };
}

afterEach(() => {
  vi.restoreAllMocks();
  useMailer(undefined);
});

describe("the outbox mailer", () => {
  it("is chosen when SMTP_URL is not set", () => {
    expect(createMailer({ DATA_DIR: tempDir(), SMTP_URL: undefined, MAIL_FROM: FROM }).kind).toBe("outbox");
  });

  it("writes each message as one JSON file in DATA_DIR/outbox, creating the folder", async () => {
    const dir = path.join(tempDir(), "not", "yet", "there");
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    const before = Date.now();
    await createMailer({ DATA_DIR: dir, SMTP_URL: undefined, MAIL_FROM: FROM }).send(message());

    const names = readdirSync(path.join(dir, "outbox"));
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(NAME);
    const stored = JSON.parse(readFileSync(path.join(dir, "outbox", names[0]), "utf8"));
    expect(stored).toEqual({ from: FROM, ...message(), createdAt: expect.any(String) });
    expect(Date.parse(stored.createdAt)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(stored.createdAt)).toBeLessThanOrEqual(Date.now());
    expect(names[0].startsWith(stored.createdAt.slice(0, 23).replace(/:/g, "-"))).toBe(true);
    // pretty JSON, and no temp files left behind
    expect(readFileSync(path.join(dir, "outbox", names[0]), "utf8")).toContain('\n  "subject": ');

    expect(log).toHaveBeenCalledWith(
      "[mail] to ada@example.com: Confirm your e-mail address — http://localhost:3000/verify-email?token=abc",
    );
  });

  it("logs without a link when the text has none", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    await createMailer({ DATA_DIR: tempDir(), SMTP_URL: undefined, MAIL_FROM: FROM }).send(
      message({ subject: "Your account has been deleted", text: "Goodbye." }),
    );
    expect(log).toHaveBeenCalledWith("[mail] to ada@example.com: Your account has been deleted");
  });

  it("finds the first http(s) link in a text", () => {
    expect(firstLink("see https://a.example/x?y=1, then http://b.example")).toBe("https://a.example/x?y=1");
    expect(firstLink("(http://a.example/reset?token=a%2Bb).")).toBe("http://a.example/reset?token=a%2Bb");
    expect(firstLink("ftp://nope and mailto:x@y")).toBeUndefined();
  });

  it("readOutbox returns the messages oldest first, with their files", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    const dir = tempDir();
    const mail = createMailer({ DATA_DIR: dir, SMTP_URL: undefined, MAIL_FROM: FROM });
    for (const n of [1, 2, 3, 4, 5]) await mail.send(message({ subject: `message ${n}` }));

    const outbox = await readOutbox(dir);
    expect(outbox.map((m) => m.subject)).toEqual(["message 1", "message 2", "message 3", "message 4", "message 5"]);
    expect(outbox[0]).toMatchObject({ from: FROM, to: "ada@example.com", text: message().text, html: message().html });
    for (const m of outbox) {
      expect(path.dirname(m.file)).toBe(path.join(dir, "outbox"));
      expect(path.basename(m.file)).toMatch(NAME);
    }
    const times = outbox.map((m) => Date.parse(m.createdAt));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });

  it("readOutbox is empty when nothing was sent and ignores unfinished temp files", async () => {
    const dir = tempDir();
    expect(await readOutbox(dir)).toEqual([]);
    vi.spyOn(console, "log").mockImplementation(() => {});
    await createMailer({ DATA_DIR: dir, SMTP_URL: undefined, MAIL_FROM: FROM }).send(message());
    writeFileSync(path.join(dir, "outbox", ".half-written.json.1234.tmp"), '{"from": "PersonaFo');
    expect(await readOutbox(dir)).toHaveLength(1);
  });

  it("concurrent sends each get their own file", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    const dir = tempDir();
    const a = createMailer({ DATA_DIR: dir, SMTP_URL: undefined, MAIL_FROM: FROM });
    const b = createMailer({ DATA_DIR: dir, SMTP_URL: undefined, MAIL_FROM: FROM });
    await Promise.all(
      Array.from({ length: 50 }, (_, i) => (i % 2 ? a : b).send(message({ to: `user${i}@example.com`, subject: `n${i}` }))),
    );
    const names = readdirSync(path.join(dir, "outbox"));
    expect(names).toHaveLength(50);
    expect(names.every((n) => NAME.test(n))).toBe(true);
    const outbox = await readOutbox(dir);
    expect(new Set(outbox.map((m) => m.to)).size).toBe(50);
    for (const m of outbox) expect(m.subject).toBe(`n${m.to.replace(/\D/g, "")}`);
  });

  it("names a DATA_DIR that cannot be written", async () => {
    const file = path.join(tempDir(), "a-file");
    writeFileSync(file, "not a directory");
    const mail = createMailer({ DATA_DIR: path.join(file, "data"), SMTP_URL: undefined, MAIL_FROM: FROM });
    await expect(mail.send(message())).rejects.toThrow(`DATA_DIR "${path.join(file, "data")}" cannot be written`);
  });
});

describe("the mailer singleton", () => {
  it("can be replaced by tests and reset", async () => {
    const sent: MailMessage[] = [];
    const fake: Mailer = { kind: "outbox", send: async (m) => void sent.push(m) };
    useMailer(fake);
    expect(mailer()).toBe(fake);
    await mailer().send(message());
    expect(sent).toEqual([message()]);
    useMailer(undefined);
    expect(mailer()).not.toBe(fake);
    expect(mailer()).toBe(mailer());
  });
});

// ---------------------------------------------------------------- SMTP against a real local server

interface Received {
  from: string | undefined;
  to: string[];
  raw: string;
}

async function startSmtp(options: Partial<SMTPServerOptions> = {}) {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined,
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
    ...options,
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("the SMTP mailer", () => {
  it("is chosen when SMTP_URL is set", () => {
    expect(createMailer({ DATA_DIR: tempDir(), SMTP_URL: "smtp://127.0.0.1:2525", MAIL_FROM: FROM }).kind).toBe("smtp");
  });

  it("delivers text and HTML to a real SMTP server", async () => {
    const smtp = await startSmtp();
    try {
      const dir = tempDir();
      await createMailer({ DATA_DIR: dir, SMTP_URL: smtp.url, MAIL_FROM: FROM }).send(
        message({ text: "Plain part: http://localhost:3000/x", html: "<p><strong>HTML part</strong></p>" }),
      );
      expect(smtp.received).toHaveLength(1);
      const [mail] = smtp.received;
      expect(mail.from).toBe("no-reply@personaforge.local");
      expect(mail.to).toEqual(["ada@example.com"]);
      expect(mail.raw).toMatch(/^Subject: Confirm your e-mail address\r?$/m);
      expect(mail.raw).toMatch(/^From: PersonaForge <no-reply@personaforge\.local>\r?$/m);
      expect(mail.raw).toMatch(/^To: ada@example\.com\r?$/m);
      expect(mail.raw).toMatch(/Content-Type: multipart\/alternative/);
      expect(mail.raw).toMatch(/Content-Type: text\/plain/);
      expect(mail.raw).toMatch(/Content-Type: text\/html/);
      expect(mail.raw).toContain("Plain part: http://localhost:3000/x");
      expect(mail.raw).toContain("<p><strong>HTML part</strong></p>");
      // nothing went to the outbox
      expect(await readOutbox(dir)).toEqual([]);
    } finally {
      await smtp.close();
    }
  });

  it("rejects with a readable error when the server refuses the recipient", async () => {
    const smtp = await startSmtp({
      onRcptTo(address, _session, callback) {
        const error = Object.assign(new Error(`Mailbox ${address.address} does not exist`), { responseCode: 550 });
        callback(error);
      },
    });
    try {
      const send = createMailer({ DATA_DIR: tempDir(), SMTP_URL: smtp.url, MAIL_FROM: FROM }).send(message());
      await expect(send).rejects.toBeInstanceOf(MailError);
      const error = (await send.catch((e: unknown) => e)) as MailError;
      expect(error.message).toContain(`Could not send "Confirm your e-mail address" to ada@example.com via ${smtp.url}`);
      expect(error.message).toContain("550");
      expect(error.message).toContain("Mailbox ada@example.com does not exist");
      expect(error.responseCode).toBe(550);
      expect(smtp.received).toEqual([]);
    } finally {
      await smtp.close();
    }
  });

  it("never puts the password in an error", async () => {
    // A server that is not listening: connection refused, with credentials in the URL.
    const smtp = await startSmtp();
    const port = new URL(smtp.url).port;
    await smtp.close();
    const url = `smtp://mailer:s3cr%21t-pass@127.0.0.1:${port}`;
    const error = (await createMailer({ DATA_DIR: tempDir(), SMTP_URL: url, MAIL_FROM: FROM })
      .send(message())
      .catch((e: unknown) => e)) as MailError;
    expect(error).toBeInstanceOf(MailError);
    expect(error.message).toContain(`via smtp://mailer:***@127.0.0.1:${port}`);
    expect(error.message).not.toMatch(/s3cr/);
  });

  it("redacts the password and query of an SMTP URL", () => {
    expect(redactSmtpUrl("smtps://user%40example.com:hunter2@smtp.example.com:465?tls.rejectUnauthorized=false")).toBe(
      "smtps://user%40example.com:***@smtp.example.com:465",
    );
    expect(redactSmtpUrl("smtp://127.0.0.1:2525")).toBe("smtp://127.0.0.1:2525");
  });
});
