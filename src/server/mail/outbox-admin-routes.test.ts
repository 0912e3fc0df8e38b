import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { staffSession } from '../test-support/staff.ts';
import { shopPerTest } from '../test-support/test-app.ts';
import { testBackends, testRows } from '../test-support/test-databases.ts';


describe.each(testBackends())('staff outbox and contact requests on $name', (backend) => {
  let adminCookie: string;

  const t = shopPerTest(backend, { AUTH_RATE_LIMIT_PER_MINUTE: '0', CONTACT_RATE_LIMIT_PER_MINUTE: '0' });
  beforeEach(async () => {
    adminCookie = await staffSession(t.shop.app, t.database.db, 'boss@example.com', { admin: true });
    // Only the rows a test seeds: not the staff accounts' verification emails.
    await testRows(t.database.db, sql`delete from outbox`);
  });

  const get = (url: string, cookie = adminCookie) => t.shop.app.inject({ method: 'GET', url, headers: { cookie } });
  const retryFailed = (cookie = adminCookie) =>
    t.shop.app.inject({ method: 'POST', url: '/api/admin/outbox/retry-failed', headers: { cookie }, payload: {} });

  /** Outbox rows as the shop would have left them, `count` of them, a second apart, the newest `newestSecondsAgo` old. */
  async function seedOutbox(count: number, status: 'sent' | 'failed', newestSecondsAgo: number, prefix: string) {
    await testRows(
      t.database.db,
      sql`insert into outbox (kind, ref, recipient, payload, status, attempts, last_error, created_at)
          select 'pass_voided', ${prefix} || g, ${`${prefix}@example.com`},
                 '{"name":"Ada","eventName":"City Derby","orderId":"A1B2C3D4E5","refundedCents":0}'::jsonb, ${status},
                 case when ${status} = 'failed' then 5 else 1 end,
                 case when ${status} = 'failed' then 'Mailbox unavailable' end,
                 now() - make_interval(secs => ${newestSecondsAgo} + g)
          from generate_series(1, ${count}) as g`,
    );
  }

  it('lists failed messages that have scrolled out of the latest 100', async () => {
    await seedOutbox(2, 'failed', 86_400, 'old-failure');
    await seedOutbox(150, 'sent', 0, 'recent');
    const all = (await get('/api/admin/outbox')).json().items as Array<{ recipient: string; status: string }>;
    expect(all).toHaveLength(100);
    expect(all.some((item) => item.status === 'failed')).toBe(false);

    const failed = await get('/api/admin/outbox?status=failed');
    expect(failed.statusCode).toBe(200);
    expect(failed.json().items).toEqual([
      expect.objectContaining({ recipient: 'old-failure@example.com', status: 'failed', attempts: 5, lastError: 'Mailbox unavailable' }),
      expect.objectContaining({ recipient: 'old-failure@example.com', status: 'failed' }),
    ]);
    expect(failed.json().items[0].subject).toBe('Your SkipPass pass A1B2C3D4E5 has been voided');

    const unknown = await get('/api/admin/outbox?status=lost');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.code).toBe('invalid_request');
  });

  it('puts every failed message back in the queue and says how many', async () => {
    await seedOutbox(3, 'failed', 60, 'failed');
    await seedOutbox(2, 'sent', 0, 'sent');
    const response = await retryFailed();
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ queued: 3 });
    const rows = await testRows<{ status: string; attempts: number; last_error: string | null; due: boolean }>(
      t.database.db,
      sql`select status, attempts, last_error, next_attempt_at <= now() as due from outbox order by status, id`,
    );
    expect(rows).toEqual([
      ...Array.from({ length: 3 }, () => ({ status: 'pending', attempts: 0, last_error: null, due: true })),
      { status: 'sent', attempts: 1, last_error: null, due: true },
      { status: 'sent', attempts: 1, last_error: null, due: true },
    ]);
    expect((await retryFailed()).json()).toEqual({ queued: 0 });

    // Queued again, they go out.
    expect((await t.shop.app.outbox.runOnce()).sent).toBe(3);
  });

  it('shows staff the contact requests, newest first, 100 at a time, and whether each mailed passes', async () => {
    const contact = (name: string, email: string) => t.shop.app.inject({ method: 'POST', url: '/api/contact', payload: { name, email } });
    const bought = await t.shop.app.inject({ method: 'POST', url: '/api/purchases', payload: { name: 'Ada Lovelace', email: 'ada@example.com', eventName: 'City Derby' } });
    expect(bought.statusCode).toBe(201);
    expect((await contact('Grace Hopper', 'grace@example.com')).statusCode).toBe(202);
    expect((await contact('Ada Lovelace', 'ada@example.com')).statusCode).toBe(202);
    const listed = async () => (await get('/api/admin/contact-requests')).json().items.map((item: { email: string; mail: string }) => [item.email, item.mail]);
    expect(await listed()).toEqual([
      ['ada@example.com', 'pending'],
      ['grace@example.com', 'pending'],
    ]);

    await t.shop.app.outbox.runOnce();
    const response = await get('/api/admin/contact-requests');
    expect(response.statusCode).toBe(200);
    // Ada bought a pass and was mailed it; Grace bought none and was mailed nothing.
    expect(response.json()).toEqual({
      items: [
        { id: expect.any(Number), name: 'Ada Lovelace', email: 'ada@example.com', createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), mail: 'sent' },
        { id: expect.any(Number), name: 'Grace Hopper', email: 'grace@example.com', createdAt: expect.any(String), mail: 'none' },
      ],
      nextCursor: null,
    });

    await testRows(
      t.database.db,
      sql`insert into contact_requests (name, email) select 'Visitor ' || g, 'v' || g || '@example.com' from generate_series(1, 103) as g`,
    );
    const first = (await get('/api/admin/contact-requests')).json();
    expect(first.items).toHaveLength(100);
    expect(first.items[0].name).toBe('Visitor 103');
    const second = (await get(`/api/admin/contact-requests?cursor=${first.nextCursor}`)).json();
    expect(second.items.map((item: { name: string }) => item.name)).toEqual(['Visitor 3', 'Visitor 2', 'Visitor 1', 'Ada Lovelace', 'Grace Hopper']);
    expect(second.nextCursor).toBeNull();
    expect((await get('/api/admin/contact-requests?cursor=abc')).statusCode).toBe(400);
  });
});
