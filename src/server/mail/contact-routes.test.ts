import { sql } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { API_ERRORS, VALIDATION } from '../../core/messages.ts';
import { shopPerTest, startTestApp, type TestApp } from '../test-support/test-app.ts';
import { testBackends, testRows } from '../test-support/test-databases.ts';
import { keptMail } from '../test-support/kept-mail.ts';
import { scannedPng } from '../test-support/scan-qr.ts';

describe.each(testBackends())('POST /api/contact on $name', (backend) => {
  const mail = keptMail();
  const t = shopPerTest(backend, { CONTACT_RATE_LIMIT_PER_MINUTE: '100', PUBLIC_URL: 'https://shop.example' }, { mailTransport: mail.transport });

  const contact = (payload: unknown, app: TestApp = t.shop) =>
    app.app.inject({ method: 'POST', url: '/api/contact', payload: payload as object });
  const buy = (email: string, eventName = 'City Derby') =>
    t.shop.app.inject({ method: 'POST', url: '/api/purchases', payload: { name: 'Ada Lovelace', email, eventName }, remoteAddress: '198.51.100.9' });
  /** Sends what the outbox holds; the mails of Get in Touch and Find my pass among it. */
  const passMails = () => mail.deliver(t.shop.app, (sent) => sent.subject === 'Your SkipPass passes');

  it('stores the request for staff and queues a mail that holds the address alone', async () => {
    const response = await contact({ name: ' Grace <Hopper> ', email: 'grace@example.com' });
    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual({ ok: true });
    const requests = await testRows<{ name: string; email: string }>(t.database.db, sql`select name, email from contact_requests`);
    expect(requests).toEqual([{ name: 'Grace Hopper', email: 'grace@example.com' }]);
    const outbox = await testRows(t.database.db, sql`select kind, recipient, payload from outbox`);
    expect(outbox).toEqual([{ kind: 'contact_confirmation', recipient: 'grace@example.com', payload: { email: 'grace@example.com' } }]);
  });

  it('mails an address with passes each pass, its page link and a QR that scans to it; none of the typed text', async () => {
    const first = (await buy('ada@example.com')).json();
    const second = (await buy('ADA@example.com', 'Harbour Regatta')).json();
    await buy('someone.else@example.com');
    await passMails();

    const typed = 'Ada https://evil.example/win-a-prize';
    const response = await contact({ name: typed, email: 'Ada@Example.com' });
    expect(response.statusCode).toBe(202);
    const mails = await passMails();
    expect(mails).toHaveLength(1);
    const [sent] = mails;
    expect(sent!.to).toBe('Ada@Example.com');
    expect(sent!.text).toContain('the 2 passes bought with Ada@Example.com');
    for (const pass of [first, second]) {
      expect(sent!.text).toContain(`Order ID: ${pass.pass.id}`);
      expect(sent!.text).toContain(`Your pass: ${pass.passUrl}`);
      expect(sent!.html).toContain(`href="${pass.passUrl}"`);
      expect(pass.passUrl).toMatch(new RegExp(`^https://shop\\.example/pass/${pass.pass.id}\\.`));
    }
    expect(sent!.text).toContain('Event: Harbour Regatta');
    // The message as it leaves: one inline QR image per pass, each scanning to that pass's page.
    const parsed = await simpleParser(sent!.raw!);
    const images = parsed.attachments.filter((part) => part.contentType === 'image/png');
    expect(images.map((image) => scannedPng(image.content)).sort()).toEqual([first.passUrl, second.passUrl].sort());
    for (const image of images) expect(sent!.html).toContain(`cid:${image.cid}`);
    // Nothing the visitor typed reaches the mail, and no stranger's pass.
    for (const part of [sent!.text, sent!.html, sent!.subject]) {
      expect(part).not.toContain('evil.example');
      expect(part).not.toContain('someone.else');
    }
  });

  it('answers an address with no passes exactly the same, and mails it nothing', async () => {
    await buy('ada@example.com');
    await passMails();
    const known = await contact({ name: 'Ada Lovelace', email: 'ada@example.com' });
    const unknown = await contact({ name: 'Nobody Here', email: 'nobody@example.com' });
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.body).toBe(known.body);
    expect(unknown.headers['content-type']).toBe(known.headers['content-type']);

    const mails = await passMails();
    expect(mails.map((sent) => sent.to)).toEqual(['ada@example.com']);
    expect(mail.sent.some((sent) => sent.to === 'nobody@example.com')).toBe(false);
    // The request stays for staff; its mail is gone from the queue, not waiting or failed.
    expect(await testRows(t.database.db, sql`select email from contact_requests order by id`)).toEqual([
      { email: 'ada@example.com' },
      { email: 'nobody@example.com' },
    ]);
    expect(await testRows(t.database.db, sql`select recipient, status from outbox where kind = 'contact_confirmation'`)).toEqual([
      { recipient: 'ada@example.com', status: 'sent' },
    ]);
  });

  it('mails the same content as Find my pass for the same address', async () => {
    await buy('ada@example.com');
    await buy('ada@example.com', 'Harbour Regatta');
    await passMails();
    expect((await contact({ name: 'Ada Lovelace', email: 'ada@example.com' })).statusCode).toBe(202);
    expect((await t.shop.app.inject({ method: 'POST', url: '/api/find-pass', payload: { email: 'ada@example.com' } })).statusCode).toBe(202);
    const mails = await passMails();
    expect(mails).toHaveLength(2);
    const [a, b] = mails;
    expect(a!.subject).toBe(b!.subject);
    expect(a!.text).toBe(b!.text);
    expect(a!.html).toBe(b!.html);
    expect(a!.attachments).toEqual(b!.attachments);
  });

  it('drops a request queued before issue 21 (an acknowledgement holding the typed name) instead of sending it', async () => {
    await buy('ada@example.com');
    await passMails();
    await testRows(
      t.database.db,
      sql`insert into outbox (kind, ref, recipient, payload) values ('contact_confirmation', 'contact-old', 'ada@example.com', '{"name":"Visit evil.example"}'::jsonb)`,
    );
    expect(await passMails()).toEqual([]);
    expect(mail.sent).toEqual([]);
    expect(await testRows(t.database.db, sql`select ref from outbox where ref = 'contact-old'`)).toEqual([]);
  });

  it.each([
    [{ name: '', email: 'grace@example.com' }, VALIDATION.fillAllFields],
    [{ name: 'Grace' }, VALIDATION.fillAllFields],
    [{ name: 'Grace', email: 'grace@' }, 'Please enter a valid email address'],
    [{ name: 'G', email: 'grace@example.com' }, 'Name must be at least 2 characters long'],
  ])('answers 400 with the spec message for %j and queues nothing', async (payload, message) => {
    const response = await contact(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: { code: 'validation_failed', message } });
    expect(await t.database.count('outbox')).toBe(0);
  });

  it('strips a lone surrogate from the name (the database refuses one) and queues the mail', async () => {
    const response = await contact({ name: 'Gr\uD800ace \uDC00Hopper', email: 'grace@example.com' });
    expect(response.statusCode).toBe(202);
    const requests = await testRows<{ name: string }>(t.database.db, sql`select name from contact_requests`);
    expect(requests).toEqual([{ name: 'Grace Hopper' }]);
    expect(await t.database.count('outbox')).toBe(1);
  });

  it.each([
    [{ name: '\u{1F600}', email: 'grace@example.com' }, 'Name must be at least 2 characters long'],
    [{ name: '\u200B\u202E\u2066\uFEFF', email: 'grace@example.com' }, VALIDATION.fillAllFields],
    [{ name: '\uDFFF\uD800', email: 'grace@example.com' }, VALIDATION.fillAllFields],
    [{ name: `Grace${'\u0301'.repeat(400)}`, email: 'grace@example.com' }, VALIDATION.nameMax],
  ])('counts the name as a reader does: 400 for %j', async (payload, message) => {
    const response = await contact(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toBe(message);
    expect(await t.database.count('outbox')).toBe(0);
  });

  it('stores a name without bidi overrides, zero-width spaces or other format characters', async () => {
    const response = await contact({ name: 'Evil\u202Egnp.exe\u200B \u2066Ada\u2069\u200E', email: 'grace@example.com' });
    expect(response.statusCode).toBe(202);
    expect(await testRows(t.database.db, sql`select name from contact_requests`)).toEqual([{ name: 'Evilgnp.exe Ada' }]);
  });

  it('stores a name of 100 emoji', async () => {
    const name = '\u{1F469}\u200D\u{1F52C}'.repeat(100);
    expect((await contact({ name, email: 'grace@example.com' })).statusCode).toBe(202);
    expect(await testRows(t.database.db, sql`select name from contact_requests`)).toEqual([{ name }]);
  });

  it('sends one confirmation per address per minute, whatever the letter case', async () => {
    expect((await contact({ name: 'Grace', email: 'grace@example.com' })).statusCode).toBe(202);
    const again = await contact({ name: 'Someone Else', email: 'GRACE@example.com' });
    expect(again.statusCode).toBe(429);
    expect(again.json()).toEqual({ error: { code: 'recipient_rate_limited', message: API_ERRORS.contactTooSoon } });
    expect((await contact({ name: 'Ada', email: 'ada@example.com' })).statusCode).toBe(202);
    expect(await t.database.count('outbox')).toBe(2);
  });

  it('lets concurrent requests for one address through only once', async () => {
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => contact({ name: 'Grace', email: 'grace@example.com' })),
    );
    expect(responses.map((response) => response.statusCode).sort()).toEqual([202, 429, 429, 429, 429]);
    expect(await t.database.count('outbox')).toBe(1);
  });

  it('counts a +tag and another letter case as the same mailbox, from any client', async () => {
    expect((await contact({ name: 'Victim', email: 'victim@example.com' })).statusCode).toBe(202);
    for (const [n, email] of ['victim+1@example.com', 'Victim+2@EXAMPLE.com', 'VICTIM+x@example.com'].entries()) {
      const again = await t.shop.app.inject({ method: 'POST', url: '/api/contact', payload: { name: 'Someone', email }, remoteAddress: `198.51.100.${n + 20}` });
      expect(again.statusCode).toBe(429);
      expect(again.json()).toEqual({ error: { code: 'recipient_rate_limited', message: API_ERRORS.contactTooSoon } });
    }
    expect(await t.database.count('outbox')).toBe(1);
  });

  it('sends at most 5 confirmations per mailbox per hour, a +tag or not', async () => {
    const statuses: number[] = [];
    for (let n = 0; n < 7; n++) {
      // A minute goes by between requests: only the hour's cap can refuse them.
      await t.database.expireLimit('contact-mail-minute');
      const response = await contact({ name: 'Grace', email: n === 0 ? 'grace@example.com' : `grace+${n}@example.com` });
      statuses.push(response.statusCode);
      if (response.statusCode === 429) expect(response.json().error.message).toBe(API_ERRORS.contactTooMany);
    }
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429, 429]);
    expect(await t.database.count('outbox')).toBe(5);
    // Another mailbox has its own allowance.
    expect((await contact({ name: 'Ada', email: 'ada+grace@example.com' })).statusCode).toBe(202);
  });

  it('limits requests per client IP with a clear 429', async () => {
    const limited = await startTestApp(t.database, { CONTACT_RATE_LIMIT_PER_MINUTE: '2' });
    try {
      expect((await contact({ name: 'Aa', email: 'a1@example.com' }, limited)).statusCode).toBe(202);
      expect((await contact({ name: 'Aa', email: 'a2@example.com' }, limited)).statusCode).toBe(202);
      const response = await contact({ name: 'Aa', email: 'a3@example.com' }, limited);
      expect(response.statusCode).toBe(429);
      expect(response.json()).toEqual({ error: { code: 'rate_limited', message: API_ERRORS.tooManyRequests } });
    } finally {
      await limited.close();
    }
  });
});
