// The shop's mail server: an in-process smtp-server that keeps every message it accepts. close()
// and reopen() on the SAME port make "an SMTP outage": connections are refused meanwhile, and
// sessions open at the close get 421, as from a server going down.
import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';
import { onCleanup } from './cleanup.mjs';

const ORDER_IN_SUBJECT = /order ([0-9A-F]{10})\s*$/;
const ORDER_IN_TEXT = /Order ID:\s*([0-9A-F]{10})/;

export async function startMailSink() {
  const received = []; // { at (ms, performance.now()), raw }
  let server = null;
  let port = 0;

  async function open() {
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      closeTimeout: 200, // an outage drops open sessions at once instead of letting them finish for 30 s
      onData(stream, _session, callback) {
        const chunks = [];
        stream.on('data', (chunk) => chunks.push(chunk));
        stream.on('end', () => {
          received.push({ at: performance.now(), raw: Buffer.concat(chunks).toString('utf8') });
          callback();
        });
      },
    });
    smtp.on('error', () => {}); // a client resetting its connection is not the sink's failure
    await /** @type {Promise<void>} */ (
      new Promise((resolve, reject) => {
        smtp.server.once('error', reject);
        smtp.listen(port, '127.0.0.1', () => resolve());
      })
    );
    port = /** @type {import('node:net').AddressInfo} */ (smtp.server.address()).port;
    server = smtp;
  }

  async function close() {
    if (!server) return;
    const smtp = server;
    server = null;
    await /** @type {Promise<void>} */ (new Promise((resolve) => smtp.close(() => resolve())));
  }

  await open();
  const closeNow = onCleanup('close the mail sink', close);
  return {
    get url() {
      return `smtp://127.0.0.1:${port}?ignoreTLS=true`;
    },
    received,
    get isOpen() {
      return server !== null;
    },
    /** Starts the outage: new connections are refused until reopen(). */
    close,
    /** Ends the outage on the same port (retrying briefly if the port is still in TIME_WAIT use). */
    async reopen() {
      for (let attempt = 1; ; attempt++) {
        try {
          return await open();
        } catch (error) {
          if (attempt >= 20) throw error;
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      }
    },
    shutdown: closeNow,
  };
}

/**
 * The order ID each message confirms, read as a mail client would (subject "... - order ID",
 * else the text's "Order ID:" line); null for any other mail. Also the Message-ID (outbox row).
 */
export async function parseMails(received) {
  const mails = [];
  for (const entry of received) {
    // Parsed once per message: drains poll this every half second.
    if (!entry.mail) {
      const parsed = await simpleParser(entry.raw);
      const orderId = ORDER_IN_SUBJECT.exec(parsed.subject ?? '')?.[1] ?? ORDER_IN_TEXT.exec(parsed.text ?? '')?.[1] ?? null;
      entry.mail = { at: entry.at, orderId, messageId: parsed.messageId ?? null, to: (Array.isArray(parsed.to) ? parsed.to[0] : parsed.to)?.value?.[0]?.address ?? null };
    }
    mails.push(entry.mail);
  }
  return mails;
}
