import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';

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
}

/** Where mail leaves the process: an SMTP server, or .eml files when none is configured. */
export interface MailTransport {
  send(mail: OutgoingMail): Promise<{ location?: string }>;
  close(): void;
}

/** A failure worth no retry: the server refused the message itself (SMTP 5xx). */
export function isPermanentMailError(error: unknown): boolean {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
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
    async send(mail) {
      await transporter.sendMail(mail);
      return {};
    },
    close: () => transporter.close(),
  };
}

/** The embedded default: each message becomes an .eml file a person can open in any mail client. */
export function fileTransport(directory: string): MailTransport {
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(mail) {
      const info = await transporter.sendMail(mail);
      await mkdir(directory, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${mail.messageId.replace(/[^a-zA-Z0-9-]/g, '')}.eml`;
      const location = join(directory, name);
      await writeFile(location, info.message as Buffer);
      return { location };
    },
    close: () => transporter.close(),
  };
}
