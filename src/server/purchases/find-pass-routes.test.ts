import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { VALIDATION } from '../../core/messages.ts';
import { FIND_PASS_TEXTS } from '../../core/find-pass.ts';
import { keptMail } from '../test-support/kept-mail.ts';
import { shopPerTest, startTestApp, type TestApp } from '../test-support/test-app.ts';
import { testBackends, testRows } from '../test-support/test-databases.ts';

describe.each(testBackends())('POST /api/find-pass on $name', (backend) => {
  const mail = keptMail();
  const t = shopPerTest(backend, { PUBLIC_URL: 'https://shop.example' }, { mailTransport: mail.transport });

  const findPass = (payload: unknown, app: TestApp = t.shop, ip = '203.0.113.7') =>
    app.app.inject({ method: 'POST', url: '/api/find-pass', payload: payload as object, remoteAddress: ip });
  const buy = (email: string, name = 'Ada Lovelace', eventName = 'City Derby') =>
    t.shop.app.inject({ method: 'POST', url: '/api/purchases', payload: { name, email, eventName }, remoteAddress: '198.51.100.9' });
  /** Sends what the outbox holds and returns the Find my pass mails among it. */
  const lookupMails = () => mail.deliver(t.shop.app, (sent) => sent.subject.endsWith('passes'));

  it('answers the same for an address with passes and one without, and mails only the buyer the list', async () => {
    const first = (await buy('ada@example.com')).json().pass.id as string;
    const second = (await buy('ADA@example.com', 'Ada Lovelace', 'Harbour Regatta')).json().pass.id as string;
    await buy('grace@example.com', 'Grace Hopper');

    const known = await findPass({ email: 'Ada@Example.com' });
    const unknown = await findPass({ email: 'nobody@example.com' });
    expect(known.statusCode).toBe(202);
    expect(unknown.statusCode).toBe(202);
    expect(known.body).toBe(unknown.body);
    expect(known.json()).toEqual({ ok: true });

    const mails = await lookupMails();
    expect(mails).toHaveLength(1);
    const [lookup] = mails;
    expect(lookup!.to).toBe('Ada@Example.com');
    // Every pass bought with the address, newest first, each with its code link; nobody else's.
    expect(lookup!.text).toContain('the 2 passes bought with Ada@Example.com');
    expect(lookup!.text.indexOf(second)).toBeLessThan(lookup!.text.indexOf(first));
    for (const id of [first, second]) {
      expect(lookup!.text).toMatch(new RegExp(`Your pass: https://shop\\.example/pass/${id}\\.[A-Za-z0-9_-]{22}`));
      expect(lookup!.html).toContain(`Open pass ${id}`);
    }
    expect(lookup!.text).toContain('Event: Harbour Regatta');
    expect(lookup!.text).not.toContain('Grace');
    // No passes: nothing is sent, and nothing stays queued.
    expect(await testRows(t.database.db, sql`select recipient, status from outbox where kind = 'pass_lookup'`)).toEqual([
      { recipient: 'Ada@Example.com', status: 'sent' },
    ]);
  });

  it('mails passes only to the address they were bought with: a Kelvin sign (U+212A) is not a K', async () => {
    const id = (await buy('kate@example.com', 'Kate Bush')).json().pass.id as string;
    expect((await findPass({ email: '\u212Aate@example.com' })).statusCode).toBe(202);
    expect((await findPass({ email: 'KATE@example.com' })).statusCode).toBe(202);
    const mails = await lookupMails();
    expect(mails.map((sent) => sent.to)).toEqual(['KATE@example.com']);
    expect(mails[0]!.text).toContain(id);
    expect(mail.sent.filter((sent) => sent.to.includes('\u212A'))).toEqual([]);
  });

  it('marks a voided pass and leaves out its code', async () => {
    const id = (await buy('ada@example.com')).json().pass.id as string;
    await testRows(t.database.db, sql`insert into pass_voids (order_id, reason) values (${id}, 'bought twice')`);
    await findPass({ email: 'ada@example.com' });
    const [lookup] = await lookupMails();
    expect(lookup!.text).toContain(`Order ID: ${id} (voided: no longer valid)`);
    expect(lookup!.text).not.toContain('Your pass:');
  });

  it('lists at most the 50 newest passes', async () => {
    await testRows(
      t.database.db,
      sql`insert into purchases (name, email, event_name, amount, order_id, created_at)
          select 'Ada Lovelace', 'ada@example.com', 'Match ' || n, 300, upper(lpad(to_hex(n), 10, '0')), now() - make_interval(mins => n)
          from generate_series(1, 60) n`,
    );
    await findPass({ email: 'ada@example.com' });
    const [lookup] = await lookupMails();
    expect(lookup!.text.match(/^Order ID: /gm)).toHaveLength(50);
    expect(lookup!.text).toContain('Event: Match 1\n');
    expect(lookup!.text).not.toContain('Event: Match 51\n');
  });

  it('mails one address at most 3 times an hour, and still answers 202 (a +tag or capitals do not count apart)', async () => {
    await buy('ada@example.com');
    await lookupMails();
    const answers = [];
    for (const [i, email] of ['ada@example.com', 'ADA@example.com', 'ada+x@example.com', 'ada@example.com'].entries()) {
      answers.push(await findPass({ email }, t.shop, `203.0.113.${10 + i}`));
    }
    expect(answers.map((answer) => answer.statusCode)).toEqual([202, 202, 202, 202]);
    expect(new Set(answers.map((answer) => answer.body)).size).toBe(1);
    expect(await testRows(t.database.db, sql`select recipient from outbox where kind = 'pass_lookup' order by id`)).toEqual([
      { recipient: 'ada@example.com' },
      { recipient: 'ADA@example.com' },
      { recipient: 'ada+x@example.com' },
    ]);
  });

  it('answers 429 with a clear message past 10 lookups from one client in 10 minutes', async () => {
    for (let i = 0; i < 10; i++) expect((await findPass({ email: `someone${i}@example.com` })).statusCode).toBe(202);
    const refused = await findPass({ email: 'someone10@example.com' });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ error: { code: 'rate_limited', message: FIND_PASS_TEXTS.tooManyLookups } });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another client is not held back.
    expect((await findPass({ email: 'someone10@example.com' }, t.shop, '203.0.113.99')).statusCode).toBe(202);
  });

  it('can have its client limit set (0: off)', async () => {
    const unlimited = await startTestApp(t.database, { FIND_PASS_RATE_LIMIT_PER_10_MINUTES: '0' });
    try {
      for (let i = 0; i < 12; i++) expect((await findPass({ email: `x${i}@example.com` }, unlimited)).statusCode).toBe(202);
    } finally {
      await unlimited.close();
    }
  });

  it.each([
    [{}, FIND_PASS_TEXTS.emailRequired],
    [{ email: '   ' }, FIND_PASS_TEXTS.emailRequired],
    [{ email: 'ada@' }, VALIDATION.contactInvalidEmail],
    [{ email: 'ada\u200B@example.com' }, VALIDATION.contactInvalidEmail],
    [{ email: `${'a'.repeat(250)}@example.com` }, VALIDATION.emailMax],
    [{ email: "x' or 1=1 --@example.com" }, VALIDATION.contactInvalidEmail],
  ])('answers 400 for %j and queues nothing', async (payload, message) => {
    const response = await findPass(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: { code: 'validation_failed', message } });
    expect(await t.database.count('outbox')).toBe(0);
  });

  it.each([
    [{ email: 'ada@example.com', name: 'Ada' }],
    [{ email: ['ada@example.com'] }],
    [{ email: { $ne: null } }],
  ])('answers 400 for the wrong shape %j', async (payload) => {
    const response = await findPass(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('invalid_request');
  });

  it('answers 415 to a body that is not JSON', async () => {
    const response = await t.shop.app.inject({ method: 'POST', url: '/api/find-pass', headers: { 'content-type': 'application/xml' }, payload: '<email/>' });
    expect(response.statusCode).toBe(415);
  });
});
