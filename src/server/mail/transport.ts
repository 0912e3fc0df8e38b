import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import addressparser from 'nodemailer/lib/addressparser';

export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Stable per outbox row, so a receiver can drop the rare duplicate after a crash mid-send. */
  messageId: string;
  /** Inline images the HTML refers to by cid. */
  attachments?: Array<{ filename: string; content: Buffer; cid: string }>;
  /**
   * The whole message, composed already from the fields above (mail-compose.ts, in a render
   * thread): the transports send these bytes as they are instead of composing them again.
   */
  raw?: Buffer;
}

/** What nodemailer is given: the composed bytes with their envelope, or the fields to compose. */
function nodemailerMessage(mail: OutgoingMail) {
  if (!mail.raw) return mail;
  const from = addressparser(mail.from, { flatten: true })[0]?.address ?? mail.from;
  return { envelope: { from, to: [mail.to] }, raw: mail.raw, messageId: mail.messageId };
}

/** Where mail leaves the process: an SMTP server, or .eml files when none is configured. */
export interface MailTransport {
  /** `signal` aborts the send and closes its connection (the outbox's hard deadline). */
  send(mail: OutgoingMail, options?: { signal?: AbortSignal }): Promise<{ location?: string }>;
  close(): void;
}

/** The SMTP stages at which a 5xx reply refuses this recipient or this message, not our setup. */
const MESSAGE_STAGES = new Set(['RCPT TO', 'DATA']);

/**
 * A failure worth no retry: a 5xx reply to RCPT TO or DATA (nodemailer names the stage in
 * `command`). Everything else is temporary: 4xx replies, timeouts, refused connections, and 5xx
 * at the greeting, EHLO, AUTH or MAIL FROM. Those mean the server or SMTP_URL / MAIL_FROM is
 * wrong (535 bad credentials, a wrong host): failing each row at once would burn every queued
 * message on one config mistake, while retried they go out once it is fixed. 503 (bad sequence
 * of commands) is a session state problem, so a new connection may succeed.
 */
export function isPermanentMailError(error: unknown): boolean {
  const { responseCode, command } = (error ?? {}) as { responseCode?: unknown; command?: unknown };
  return (
    typeof responseCode === 'number' &&
    responseCode >= 500 &&
    responseCode < 600 &&
    responseCode !== 503 &&
    typeof command === 'string' &&
    MESSAGE_STAGES.has(command)
  );
}

export function smtpTransport(url: string): MailTransport {
  const transporter = nodemailer.createTransport({
    url,
    // A slow or dead server fails the attempt (and it is retried later); it never blocks a request.
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  return {
    async send(mail, options = {}) {
      // nodemailer closes the connection when the signal aborts (socketTimeout alone is an idle
      // timeout: a server trickling bytes could keep one send going for ever).
      await transporter.sendMail({ ...nodemailerMessage(mail), ...(options.signal ? { signal: options.signal } : {}) });
      return {};
    },
    close: () => transporter.close(),
  };
}

/** The embedded default: each message becomes an .eml file a person can open in any mail client. */
export function fileTransport(directory: string): MailTransport {
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  // Made on the first send (and again if it fails), not once per mail of a rush.
  let made: Promise<unknown> | undefined;
  return {
    async send(mail) {
      // Composed bytes need only their line ends made Unix ones, as the stream transport would.
      const message = mail.raw ? Buffer.from(mail.raw.toString('utf8').replace(/\r\n/g, '\n'), 'utf8') : ((await transporter.sendMail(mail)).message as Buffer);
      made ??= mkdir(directory, { recursive: true }).catch((error: unknown) => {
        made = undefined;
        throw error;
      });
      await made;
      const id = mail.messageId.replace(/^<|>$/g, '').replace(/[^a-zA-Z0-9]+/g, '-');
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${id}.eml`;
      const location = join(directory, name);
      await writeFile(location, message);
      return { location };
    },
    close: () => transporter.close(),
  };
}
