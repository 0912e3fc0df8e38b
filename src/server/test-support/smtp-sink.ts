import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  envelopeTo: string[];
  raw: string;
  parsed: ParsedMail;
}

export interface SmtpSinkOptions {
  /** Answer the first N messages with a temporary failure (421), as a busy server would. */
  refuseFirst?: number;
  /** Answer every message with a permanent failure (550). */
  rejectAll?: boolean;
  /** Hold each message until release() is called, as a slow server would. */
  hold?: boolean;
}

/** A real SMTP server in the test process: mail arrives over the wire and is parsed as a client would. */
export async function startSmtpSink(options: SmtpSinkOptions = {}) {
  const received: ReceivedMail[] = [];
  let refusals = options.refuseFirst ?? 0;
  const held: Array<() => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', async () => {
        const finish = async () => {
          if (options.rejectAll) return callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
          if (refusals > 0) {
            refusals--;
            return callback(Object.assign(new Error('Try again later'), { responseCode: 421 }));
          }
          const raw = Buffer.concat(chunks).toString('utf8');
          received.push({ envelopeTo: session.envelope.rcptTo.map((rcpt) => rcpt.address), raw, parsed: await simpleParser(raw) });
          callback();
        };
        if (options.hold) held.push(() => void finish());
        else await finish();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
    received,
    release: () => held.splice(0).forEach((finish) => finish()),
    waitingCount: () => held.length,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type SmtpSink = Awaited<ReturnType<typeof startSmtpSink>>;
