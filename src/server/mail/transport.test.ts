import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { afterEach, describe, expect, it } from 'vitest';
import { isPermanentMailError, smtpTransport } from './transport.ts';

const mail = {
  from: 'SkipPass <shop@example.com>',
  to: 'ada@example.com',
  subject: 'Hello',
  text: 'Hello',
  html: '<p>Hello</p>',
  messageId: '<outbox-1@example.com>',
};

const refusal = (message: string, responseCode: number) => Object.assign(new Error(message), { responseCode });

const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

/** A real SMTP server in this process, misbehaving in the way a test asks for. */
async function smtpServer(options: SMTPServerOptions) {
  const server = new SMTPServer({ disabledCommands: ['STARTTLS'], logger: false, ...options });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  const handle = { port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  servers.push(handle);
  return handle;
}

/** What one send through smtpTransport fails with. */
async function failureOf(url: string, signal?: AbortSignal): Promise<Error & { responseCode?: number; command?: string; code?: string }> {
  const transport = smtpTransport(url);
  try {
    await transport.send(mail, signal ? { signal } : {});
  } catch (error) {
    return error as Error;
  } finally {
    transport.close();
  }
  throw new Error('the send succeeded');
}

/** What one send fails with against a server (no sign-in needed) that misbehaves as `options` say. */
async function failureAgainst(options: SMTPServerOptions) {
  const server = await smtpServer({ authOptional: true, ...options });
  return failureOf(`smtp://127.0.0.1:${server.port}?ignoreTLS=true`);
}

describe('SMTP failure classification', () => {
  it('treats a 5xx refusal of the recipient or of the message as permanent', async () => {
    const rcptError = await failureAgainst({
      onRcptTo: (_address, _session, callback) => callback(refusal('No such user', 550)),
    });
    expect(rcptError).toMatchObject({ responseCode: 550, command: 'RCPT TO' });
    expect(isPermanentMailError(rcptError)).toBe(true);

    const dataError = await failureAgainst({
      onData(stream, _session, callback) {
        stream.resume();
        stream.on('end', () => callback(refusal('Message looks like spam', 554)));
      },
    });
    expect(dataError).toMatchObject({ responseCode: 554, command: 'DATA' });
    expect(isPermanentMailError(dataError)).toBe(true);
  });

  it('treats wrong SMTP credentials (535) as temporary, so a config mistake does not burn the queue', async () => {
    const server = await smtpServer({
      allowInsecureAuth: true,
      onAuth: (_auth, _session, callback) => callback(new Error('Invalid username or password')),
    });
    const error = await failureOf(`smtp://shop:wrong@127.0.0.1:${server.port}?ignoreTLS=true`);
    expect(error.responseCode).toBe(535);
    expect(error.command).toMatch(/^AUTH/);
    expect(isPermanentMailError(error)).toBe(false);
  });

  it('treats a 5xx greeting, a refused sender and a refused connection as temporary', async () => {
    const greetingError = await failureAgainst({
      onConnect: (_session, callback) => callback(refusal('No service here', 554)),
    });
    expect(greetingError.responseCode).toBe(554);
    expect(isPermanentMailError(greetingError)).toBe(false);

    const senderError = await failureAgainst({
      onMailFrom: (_address, _session, callback) => callback(refusal('Sender not allowed', 553)),
    });
    expect(senderError).toMatchObject({ responseCode: 553, command: 'MAIL FROM' });
    expect(isPermanentMailError(senderError)).toBe(false);

    // A port nobody listens on: bind one, note it, and close it again.
    const closed: Server = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const connectionError = await failureOf(`smtp://127.0.0.1:${port}?ignoreTLS=true`);
    expect(connectionError.message).toMatch(/ECONNREFUSED/);
    expect(isPermanentMailError(connectionError)).toBe(false);
  });

  it('treats a 4xx at any stage as temporary', async () => {
    const error = await failureAgainst({
      onRcptTo: (_address, _session, callback) => callback(refusal('Mailbox busy', 450)),
    });
    expect(error).toMatchObject({ responseCode: 450, command: 'RCPT TO' });
    expect(isPermanentMailError(error)).toBe(false);
  });
});

describe('aborting a send', () => {
  it('closes the connection of a send the server never answers', async () => {
    let closed = 0;
    const server = await smtpServer({
      authOptional: true,
      // Takes the message and never answers it.
      onData: (stream) => void stream.resume(),
      onClose: () => void closed++,
    });
    const error = await failureOf(`smtp://127.0.0.1:${server.port}?ignoreTLS=true`, AbortSignal.timeout(300));
    // The signal ended it, not one of nodemailer's own timeouts (those fail with ETIMEDOUT).
    expect(error.code).toBe('EABORT');
    await expect.poll(() => closed).toBe(1);
  });
});
