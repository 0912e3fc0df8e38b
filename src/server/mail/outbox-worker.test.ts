import { readdir, readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSmtpSink, type SmtpSink } from '../test-support/smtp-sink.ts';
import { startTestApp, type TestApp } from '../test-support/test-app.ts';
import { databasePerBlock, testBackends, testRows } from '../test-support/test-databases.ts';
import { databaseOutage, type DatabaseOutage } from '../test-support/outage.ts';
import { outboxWorker, type OutboxWorkerOptions } from './outbox-worker.ts';
import { renderPool } from './render-pool.ts';
import { type MailTransport, smtpTransport } from './transport.ts';
import { sentJournal } from './sent-journal.ts';

const buyer = { name: 'Ada Lovelace', email: 'ada@example.com', eventName: 'City Derby' };

describe.each(testBackends())('email delivery through the outbox on $name', (backend) => {
  const t = databasePerBlock(backend);
  let sink: SmtpSink;
  let shop: TestApp;
  const started: TestApp[] = [];

  const start = async (env: Record<string, string> = {}, retries = [0, 0, 0, 0]) => {
    const app = await startTestApp(t.database, { SMTP_URL: sink.url, PRODUCT_NAME: 'SkipPass', ...env }, { mailRetryDelaysMs: retries });
    started.push(app);
    return app;
  };
  const buy = (app: TestApp, payload: object = buyer) =>
    app.app.inject({ method: 'POST', url: '/api/purchases', payload });
  /** A worker of its own (as another server process would run), on this test's database and shop log. */
  const worker = (transport: MailTransport, options: Partial<OutboxWorkerOptions> = {}) =>
    outboxWorker({
      db: t.database.db,
      transport,
      context: { productName: 'SkipPass', publicUrl: 'http://localhost:3000' },
      from: 'SkipPass <shop@example.com>',
      log: shop.app.log,
      retryDelaysMs: [0, 0, 0, 0],
      ...options,
    });
  const outboxRows = () =>
    testRows<{ kind: string; status: string; attempts: number; last_error: string | null }>(
      t.database.db,
      sql`select kind, status, attempts, last_error from outbox order by id`,
    );

  /** One purchase's mail, with a database the test can take away; mail is sent once, and marked sent, at the end. */
  async function oneMailThroughAnOutage(run: (outage: DatabaseOutage) => Promise<void>) {
    await buy(shop);
    const outage = await databaseOutage(t.database);
    try {
      await run(outage);
      expect(sink.received).toHaveLength(1);
      expect((await outboxRows()).map((row) => row.status)).toEqual(['sent']);
    } finally {
      await outage.close();
    }
  }
  /** A transport whose first accepted send takes the database away before the row can be marked sent. */
  function loseDatabaseAfterFirstSend(outage: DatabaseOutage): MailTransport {
    const smtp = smtpTransport(sink.url);
    let first = true;
    return {
      async send(mail, options) {
        const sent = await smtp.send(mail, options);
        if (first) outage.down();
        first = false;
        return sent;
      },
      close: () => smtp.close(),
    };
  }

  /** The shop restarted on a new mail server that behaves as `options` say. */
  async function restartWithMailServer(options: Parameters<typeof startSmtpSink>[0], retries?: number[]) {
    await sink.close();
    sink = await startSmtpSink(options);
    await shop.app.close();
    shop = await start({}, retries);
  }

  beforeEach(async () => {
    sink = await startSmtpSink();
    shop = await start();
  });
  afterEach(async () => {
    for (const app of started.splice(0)) await app.app.close().catch(() => {});
    await sink.close();
  });

  it('sends exactly one purchase confirmation with the order ID, in plain text and HTML', async () => {
    const { pass, passUrl } = (await buy(shop)).json();
    expect(await shop.app.outbox.runOnce()).toEqual({ sent: 1, retrying: 0, failed: 0 });
    expect(await shop.app.outbox.runOnce()).toEqual({ sent: 0, retrying: 0, failed: 0 });

    expect(sink.received).toHaveLength(1);
    const [mail] = sink.received;
    expect(mail!.envelopeTo).toEqual([buyer.email]);
    expect(mail!.parsed.subject).toBe(`Your SkipPass pass for City Derby - order ${pass.id}`);
    expect(mail!.parsed.from?.text).toContain('SkipPass');
    for (const part of [mail!.parsed.text ?? '', mail!.parsed.html || '']) {
      expect(part).toContain(pass.id);
      expect(part).toContain('Ada Lovelace');
      expect(part).toContain('City Derby');
      expect(part).toContain(pass.timestamp);
      expect(part).toMatch(/valid once per event/);
    }
    expect(await outboxRows()).toEqual([{ kind: 'purchase_confirmation', status: 'sent', attempts: 1, last_error: null }]);

    // The pass's QR code travels as an inline image; the text part carries the same link.
    expect(mail!.parsed.text).toContain(passUrl);
    expect(mail!.parsed.attachments).toHaveLength(1);
    expect(mail!.parsed.attachments[0]).toMatchObject({ contentType: 'image/png', cid: expect.stringMatching(/^pass-qr-[0-9A-F]{10}$/) });
    expect(mail!.parsed.attachments[0]!.content.subarray(1, 4).toString()).toBe('PNG');
  });

  it('retries when the server refuses at first, and delivers later', async () => {
    await restartWithMailServer({ refuseFirst: 2 });
    await buy(shop);
    expect(await shop.app.outbox.runOnce()).toEqual({ sent: 0, retrying: 1, failed: 0 });
    expect((await outboxRows())[0]).toMatchObject({ status: 'pending', attempts: 1, last_error: expect.stringMatching(/Try again later/) });
    expect(await shop.app.outbox.runOnce()).toEqual({ sent: 0, retrying: 1, failed: 0 });
    expect(await shop.app.outbox.runOnce()).toEqual({ sent: 1, retrying: 0, failed: 0 });
    expect(sink.received).toHaveLength(1);
    expect(await outboxRows()).toEqual([{ kind: 'purchase_confirmation', status: 'sent', attempts: 3, last_error: null }]);
  });

  it('waits out the backoff before trying again', async () => {
    await restartWithMailServer({ refuseFirst: 1 }, [60_000]);
    await buy(shop);
    expect((await shop.app.outbox.runOnce()).retrying).toBe(1);
    expect(await shop.app.outbox.runOnce()).toEqual({ sent: 0, retrying: 0, failed: 0 });
    expect(sink.received).toHaveLength(0);
  });

  it('marks a message failed after its last try, or at once when the server refuses it for good', async () => {
    await restartWithMailServer({ rejectAll: true });
    await buy(shop);
    expect(await shop.app.outbox.runOnce()).toEqual({ sent: 0, retrying: 0, failed: 1 });
    expect((await outboxRows())[0]).toMatchObject({ status: 'failed', attempts: 1, last_error: expect.stringMatching(/Mailbox unavailable/) });

    await restartWithMailServer({ refuseFirst: 100 });
    await buy(shop, { ...buyer, name: 'Grace Hopper' });
    for (let attempt = 1; attempt <= 4; attempt++) expect((await shop.app.outbox.runOnce()).retrying).toBe(1);
    expect((await shop.app.outbox.runOnce()).failed).toBe(1);
    expect((await outboxRows())[1]).toMatchObject({ status: 'failed', attempts: 5 });
  });

  it('answers a purchase promptly while a send hangs in the mail server', async () => {
    await restartWithMailServer({ hold: true });
    await buy(shop);
    // The worker takes that message to the server, which holds it unanswered. (The first mail
    // starts the render thread, which under vitest loads TypeScript through tsx: allow it time.)
    const sending = shop.app.outbox.runOnce();
    await expect.poll(() => sink.waitingCount(), { timeout: 120_000 }).toBe(1);

    // A purchase meanwhile needs the database (PGlite has one connection) but never the mail server:
    // it is answered while the send still waits (the send ends only once released, and then sent).
    const response = await buy(shop, { ...buyer, name: 'Grace Hopper' });
    expect(response.statusCode).toBe(201);
    expect(sink.waitingCount()).toBe(1);
    expect((await outboxRows()).map((row) => row.status)).toEqual(['pending', 'pending']);

    sink.release();
    expect(await sending).toEqual({ sent: 1, retrying: 0, failed: 0 });
    const next = shop.app.outbox.runOnce();
    await expect.poll(() => sink.waitingCount()).toBe(1);
    sink.release();
    expect(await next).toEqual({ sent: 1, retrying: 0, failed: 0 });
    expect((await outboxRows()).map((row) => row.status)).toEqual(['sent', 'sent']);
  });

  it('gives up on a send the server never answers at a hard deadline inside the lease, and retries it', async () => {
    await sink.close();
    sink = await startSmtpSink({ hold: true });
    await buy(shop);
    const transport = smtpTransport(sink.url);
    try {
      expect(await worker(transport, { sendDeadlineMs: 300 }).runOnce()).toEqual({ sent: 0, retrying: 1, failed: 0 });
      // The hard deadline ended the send (its error says so), not nodemailer's socketTimeout (30 s),
      // which never fires on a connection that is unanswered rather than idle.
      expect(await outboxRows()).toEqual([
        { kind: 'purchase_confirmation', status: 'pending', attempts: 1, last_error: 'no answer from the mail server within 0.3 s' },
      ]);
    } finally {
      transport.close();
    }
  });

  it('sends a row whose claiming process died once the lease runs out, and only once', async () => {
    await buy(shop);
    // A process that claims the row and dies mid-send: its send never returns (until the end of this test).
    let wakeTheDead: (error: Error) => void = () => {};
    const hung: MailTransport = { send: () => new Promise((_resolve, reject) => (wakeTheDead = reject)), close() {} };
    const dead = worker(hung, { leaseMs: 1_000, sendDeadlineMs: 600_000 });
    const deadRun = dead.runOnce();
    await expect.poll(async () => (await outboxRows())[0]?.attempts).toBe(1);

    // While the lease holds, a live process leaves the row alone.
    expect(await shop.app.outbox.runOnce()).toEqual({ sent: 0, retrying: 0, failed: 0 });
    expect(sink.received).toHaveLength(0);

    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(await shop.app.outbox.runOnce()).toEqual({ sent: 1, retrying: 0, failed: 0 });
    expect(await shop.app.outbox.runOnce()).toEqual({ sent: 0, retrying: 0, failed: 0 });
    expect(sink.received).toHaveLength(1);
    expect(await outboxRows()).toEqual([{ kind: 'purchase_confirmation', status: 'sent', attempts: 2, last_error: null }]);

    // Should the first process come back after all, its stale outcome does not overwrite the newer one.
    wakeTheDead(new Error('connection reset'));
    await deadRun;
    expect(await outboxRows()).toEqual([{ kind: 'purchase_confirmation', status: 'sent', attempts: 2, last_error: null }]);
  });

  it('keeps messages queued when the SMTP credentials are wrong (535), and sends them once fixed', async () => {
    const server = new SMTPServer({
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      logger: false,
      onAuth: (auth, _session, callback) =>
        auth.password === 'right' ? callback(null, { user: auth.username }) : callback(new Error('Invalid username or password')),
      onData: (stream, _session, callback) => {
        stream.resume();
        stream.on('end', () => callback());
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.server.address() as AddressInfo;
    const wrong = smtpTransport(`smtp://shop:wrong@127.0.0.1:${port}?ignoreTLS=true`);
    const right = smtpTransport(`smtp://shop:right@127.0.0.1:${port}?ignoreTLS=true`);
    try {
      await buy(shop);
      expect(await worker(wrong).runOnce()).toEqual({ sent: 0, retrying: 1, failed: 0 });
      expect((await outboxRows())[0]).toMatchObject({ status: 'pending', attempts: 1, last_error: expect.stringMatching(/535/) });
      expect(await worker(right).runOnce()).toEqual({ sent: 1, retrying: 0, failed: 0 });
    } finally {
      wrong.close();
      right.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('delivers mail queued before a restart once, from the new process', async () => {
    const first = await startTestApp(t.database, { SMTP_URL: sink.url }, { backgroundJobs: false });
    started.push(first);
    await buy(first);
    await buy(first, { ...buyer, name: 'Grace Hopper' });
    await first.app.close();
    expect(sink.received).toHaveLength(0);

    const restarted = await startTestApp(t.database, { SMTP_URL: sink.url }, { backgroundJobs: true });
    started.push(restarted);
    await expect.poll(() => sink.received.length, { timeout: 120_000 }).toBe(2);
    await restarted.app.close();
    expect(sink.received.map((mail) => mail.parsed.text?.match(/Hi (.+),/)?.[1]).sort()).toEqual(['Ada Lovelace', 'Grace Hopper']);
    expect((await outboxRows()).map((row) => row.status)).toEqual(['sent', 'sent']);
  });

  it('does not send a message again when the database went away just after the mail server accepted it', async () => {
    await oneMailThroughAnOutage(async (outage) => {
      const flaky = worker(loseDatabaseAfterFirstSend(outage), { db: outage.db, leaseMs: 200 });
      await flaky.runOnce().catch(() => {});
      expect(sink.received).toHaveLength(1);

      outage.up();
      await new Promise((resolve) => setTimeout(resolve, 300)); // the claim's lease has run out
      await flaky.runOnce();
    });
  });

  it('does not send a message again after its process was killed between the mail server accepting it and marking it sent', async () => {
    const journalPath = join(shop.dataDir, 'outbox-sent.journal');
    await oneMailThroughAnOutage(async (outage) => {
      // The first process: the server accepts the message, and then the process is gone before the
      // row is marked (here its database connection dies, and the process is never heard from again).
      const killed = worker(loseDatabaseAfterFirstSend(outage), { db: outage.db, leaseMs: 200, journal: sentJournal(journalPath) });
      await killed.runOnce().catch(() => {});
      expect(sink.received).toHaveLength(1);
      outage.up();

      // The restarted process on the same DATA_DIR, after the lease ran out.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const restarted = worker(smtpTransport(sink.url), { leaseMs: 200, journal: sentJournal(journalPath) });
      await restarted.runOnce();
    });
  });

  it('sends each message once when two server processes share the outbox', async () => {
    // 30 buyers of their own (one client may send one address only 10 confirmations in 10 minutes).
    for (let index = 0; index < 30; index++) await buy(shop, { ...buyer, name: `Buyer ${index}`, email: `buyer${index}@example.com` });
    const other = await start();
    const runs = await Promise.all([shop.app.outbox.runOnce(), other.app.outbox.runOnce()]);
    const leftover = await shop.app.outbox.runOnce();
    expect(runs[0].sent + runs[1].sent + leftover.sent).toBe(30);
    expect(sink.received).toHaveLength(30);
    expect(new Set((await outboxRows()).map((row) => `${row.status}/${row.attempts}`))).toEqual(new Set(['sent/1']));
    expect(new Set(sink.received.map((mail) => mail.parsed.messageId)).size).toBe(30);
  });

  it.each([
    { when: 'no buyer waits', buyersWaiting: false, inFlight: 40 },
    { when: 'buyers wait on this process', buyersWaiting: true, inFlight: 20 },
  ])('has $inFlight mails in flight when $when (the next batch composed while the last is sent)', async ({ buyersWaiting, inFlight }) => {
    const buying = await start({ RATE_LIMIT_PER_MINUTE: '0' });
    for (let index = 0; index < 45; index++) await buy(buying, { ...buyer, name: `Buyer ${index}`, email: `buyer${index}@example.com` });
    // Every send waits until the test lets it go: what reaches the transport meanwhile is what the worker has in flight.
    const smtp = smtpTransport(sink.url);
    const held: Array<() => void> = [];
    const holding: MailTransport = {
      send: (mail, options) => new Promise((resolve, reject) => held.push(() => void smtp.send(mail, options).then(resolve, reject))),
      close: () => smtp.close(),
    };
    const renderer = renderPool({ threads: 1 });
    try {
      const run = worker(holding, { renderer, buyersWaiting: () => buyersWaiting }).runOnce();
      // (The first mail starts the render thread, which under vitest loads TypeScript through tsx: allow it time.)
      await expect.poll(() => held.length, { timeout: 60_000 }).toBe(inFlight);
      // Nothing more comes while those are held.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(held).toHaveLength(inFlight);
      expect(sink.received).toHaveLength(0);
      const release = setInterval(() => held.splice(0).forEach((go) => go()), 5);
      try {
        expect(await run).toEqual({ sent: 45, retrying: 0, failed: 0 });
      } finally {
        clearInterval(release);
      }
      expect(sink.received).toHaveLength(45);
      expect(new Set((await outboxRows()).map((row) => `${row.status}/${row.attempts}`))).toEqual(new Set(['sent/1']));
    } finally {
      smtp.close();
      await renderer.close();
    }
  });

  it('keeps a line break typed into a name or event out of the headers', async () => {
    const hostile = { name: 'Eve\r\nBcc: victim@example.net', email: 'eve@example.com', eventName: 'Derby\r\nBcc: other@example.net' };
    const response = await buy(shop, hostile);
    expect(response.statusCode).toBe(201);
    await shop.app.outbox.runOnce();
    const [mail] = sink.received;
    expect(mail!.envelopeTo).toEqual(['eve@example.com']);
    expect(mail!.parsed.headers.has('bcc')).toBe(false);
    expect(mail!.parsed.subject).not.toMatch(/[\r\n]/);
    const headerBlock = mail!.raw.split(/\r?\n\r?\n/)[0]!;
    expect(headerBlock).not.toMatch(/^Bcc:/im);
  });

  it('keeps a mail queued when its render thread dies, and sends it on the next run', async () => {
    await buy(shop);
    const crashing = worker(smtpTransport(sink.url), {
      renderer: renderPool({ threads: 1, entry: new URL('../test-support/crashing-render-worker.mjs', import.meta.url) }),
    });
    expect(await crashing.runOnce()).toEqual({ sent: 0, retrying: 1, failed: 0 });
    await crashing.stop();
    expect(sink.received).toHaveLength(0);
    expect(await outboxRows()).toEqual([
      { kind: 'purchase_confirmation', status: 'pending', attempts: 1, last_error: expect.stringMatching(/mail rendering thread stopped/) },
    ]);

    expect(await shop.app.outbox.runOnce()).toEqual({ sent: 1, retrying: 0, failed: 0 });
    expect(sink.received).toHaveLength(1);
    expect(sink.received[0]!.parsed.attachments[0]).toMatchObject({ contentType: 'image/png', cid: expect.stringMatching(/^pass-qr-[0-9A-F]{10}$/) });
    expect(await outboxRows()).toEqual([{ kind: 'purchase_confirmation', status: 'sent', attempts: 2, last_error: null }]);
  });

  it('sends a Get in Touch request the passes bought with its address', async () => {
    const bought = await shop.app.inject({ method: 'POST', url: '/api/purchases', payload: { name: 'Grace Hopper', email: 'grace@example.com', eventName: 'City Derby' } });
    expect((await shop.app.outbox.runOnce()).sent).toBe(1);
    const response = await shop.app.inject({ method: 'POST', url: '/api/contact', payload: { name: 'Grace', email: 'grace@example.com' } });
    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual({ ok: true });
    expect((await shop.app.outbox.runOnce()).sent).toBe(1);
    const mail = sink.received[1];
    expect(mail!.envelopeTo).toEqual(['grace@example.com']);
    expect(mail!.parsed.subject).toBe('Your SkipPass passes');
    expect(mail!.parsed.text).toContain(`Your pass: ${bought.json().passUrl}`);
    expect(mail!.parsed.attachments.map((part) => part.cid)).toEqual([`pass-qr-${bought.json().pass.id}`]);
  });
});

describe('without SMTP_URL', () => {
  it('writes each message as an .eml file under DATA_DIR/mail and says where', async () => {
    const database = await testBackends()[0]!.open();
    const logLines: string[] = [];
    const logStream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    const shop = await startTestApp(database, { LOG_LEVEL: 'info' }, { logStream });
    try {
      const { pass } = (await shop.app.inject({ method: 'POST', url: '/api/purchases', payload: buyer })).json();
      expect((await shop.app.outbox.runOnce()).sent).toBe(1);
      const files = await readdir(join(shop.dataDir, 'mail'));
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(/-outbox-\d+-[a-z0-9-]+\.eml$/);
      const eml = await readFile(join(shop.dataDir, 'mail', files[0]!), 'utf8');
      expect(eml).toMatch(/^To: ada@example\.com$/m);
      expect(eml).toContain(pass.id);
      expect(eml).toMatch(/Content-Type: text\/html/);
      const location = join(shop.dataDir, 'mail', files[0]!);
      const logged = logLines.map((line) => JSON.parse(line) as { msg?: string; file?: string }).filter((line) => line.file);
      expect(logged).toEqual([expect.objectContaining({ msg: `mail written to ${location}`, file: location })]);
    } finally {
      await shop.close();
      await database.close();
    }
  });
});
