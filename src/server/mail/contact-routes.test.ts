import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { API_ERRORS, VALIDATION } from '../../core/messages.ts';
import { shopPerTest, startTestApp, type TestApp } from '../test-support/test-app.ts';
import { testBackends, testRows } from '../test-support/test-databases.ts';

describe.each(testBackends())('POST /api/contact on $name', (backend) => {
  const t = shopPerTest(backend, { CONTACT_RATE_LIMIT_PER_MINUTE: '100' });

  const contact = (payload: unknown, app: TestApp = t.shop) =>
    app.app.inject({ method: 'POST', url: '/api/contact', payload: payload as object });

  it('stores the request and queues its confirmation email in the outbox', async () => {
    const response = await contact({ name: ' Grace <Hopper> ', email: 'grace@example.com' });
    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual({ ok: true });
    const requests = await testRows<{ name: string; email: string }>(t.database.db, sql`select name, email from contact_requests`);
    expect(requests).toEqual([{ name: 'Grace Hopper', email: 'grace@example.com' }]);
    const outbox = await testRows<{ kind: string; recipient: string }>(t.database.db, sql`select kind, recipient from outbox`);
    expect(outbox).toEqual([{ kind: 'contact_confirmation', recipient: 'grace@example.com' }]);
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

  it('strips a lone surrogate from the name (the database refuses one) and sends the confirmation', async () => {
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

  it('sends at most 5 confirmations per address per hour', async () => {
    for (const minutesAgo of [50, 40, 30, 20, 10]) {
      await testRows(
        t.database.db,
        sql`insert into contact_requests (name, email, created_at) values ('Grace', 'grace@example.com', now() - make_interval(mins => ${minutesAgo}))`,
      );
    }
    const response = await contact({ name: 'Grace', email: 'grace@example.com' });
    expect(response.statusCode).toBe(429);
    expect(response.json().error.message).toBe(API_ERRORS.contactTooMany);
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
