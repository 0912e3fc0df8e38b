import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { recordQuarantine } from './quarantine-queries.ts';
import { encodePageCursor } from '../platform/page-cursor.ts';
import { purchaseRecord } from '../test-support/purchase-records.ts';
import { staffSession } from '../test-support/staff.ts';
import { shopPerTest } from '../test-support/test-app.ts';
import { testBackends, testRows } from '../test-support/test-databases.ts';

const URL = '/api/admin/quarantined-purchases';

describe.each(testBackends())('staff list of held purchases on $name', (backend) => {
  let adminCookie: string;

  const t = shopPerTest(backend, { AUTH_RATE_LIMIT_PER_MINUTE: '0' });
  beforeEach(async () => {
    await testRows(t.database.db, sql`truncate quarantined_purchases restart identity`);
    adminCookie = await staffSession(t.shop.app, t.database.db, 'boss@example.com', { admin: true });
  });

  /** As the admin unless another cookie (or null: no session) is given. */
  const get = (url: string, cookie: string | null = adminCookie) =>
    t.shop.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });

  it('is for admins only: 401 without a session, 403 for staff without the role, never cached', async () => {
    await recordQuarantine(t.database.db, { orderId: 'AAAAAAAAAA', reason: 'order_id_taken', record: purchaseRecord('AAAAAAAAAA') });
    const visitor = await get(URL, null);
    expect(visitor.statusCode).toBe(401);
    expect(visitor.json()).toEqual({ error: { code: 'unauthenticated', message: 'Please sign in.' } });

    const staff = await staffSession(t.shop.app, t.database.db, 'staff@example.com');
    const refused = await get(URL, staff);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('forbidden');
    expect(refused.body).not.toContain('AAAAAAAAAA');

    const allowed = await get(URL);
    expect(allowed.statusCode).toBe(200);
    expect(allowed.headers['cache-control']).toBe('no-store');
  });

  it('shows each held purchase with what the buyer was told, why it was held, and how many there are', async () => {
    expect((await get(URL)).json()).toEqual({ items: [], nextCursor: null, total: 0 });

    await recordQuarantine(t.database.db, {
      orderId: 'AAAAAAAAAA',
      reason: 'order_id_taken',
      record: purchaseRecord('AAAAAAAAAA', { name: 'Grace Hopper', email: 'grace@example.com' }),
    });
    await recordQuarantine(t.database.db, {
      orderId: 'BBBBBBBBBB',
      reason: 'refused_by_database',
      detail: 'unsupported Unicode escape sequence',
      record: purchaseRecord('BBBBBBBBBB', { name: 'Ada \uD800' }, { idempotency: { key: 'k', fingerprint: 'f' }, saved: false }),
    });
    const response = await get(URL);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      items: [
        {
          id: 2,
          orderId: 'BBBBBBBBBB',
          reason: 'refused_by_database',
          detail: 'unsupported Unicode escape sequence',
          quarantinedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          name: 'Ada \uD800',
          email: 'ada@example.com',
          eventName: 'City Derby',
          amountCents: 300,
          purchaseDate: '2026-11-22T14:05:00.000Z',
          hasIdempotencyKey: true,
        },
        expect.objectContaining({ id: 1, orderId: 'AAAAAAAAAA', reason: 'order_id_taken', detail: null, name: 'Grace Hopper', hasIdempotencyKey: false }),
      ],
      nextCursor: null,
      total: 2,
    });
    // The lone surrogate reaches the client as a JSON escape, not as bytes that break the answer.
    expect(response.body).toContain('Ada \\ud800');
  });

  it('pages 50 at a time, newest first, through the cursor it gives out', async () => {
    await testRows(
      t.database.db,
      sql`insert into quarantined_purchases (order_id, reason, record, quarantined_at)
          select 'ID' || g, 'order_id_taken', '{}', now() - make_interval(secs => 100 - g) from generate_series(1, 53) as g`,
    );
    const first = (await get(URL)).json();
    expect(first.items).toHaveLength(50);
    expect(first.items[0].orderId).toBe('ID53');
    expect(first.total).toBe(53);
    const second = (await get(`${URL}?cursor=${first.nextCursor}`)).json();
    expect(second.items.map((item: { orderId: string }) => item.orderId)).toEqual(['ID3', 'ID2', 'ID1']);
    expect(second).toMatchObject({ nextCursor: null, total: 53 });
  });

  it.each([
    ['a cursor it never gave out', `${URL}?cursor=abc`, 'cursor: not a cursor this list gave out'],
    ['a cursor with an impossible date', `${URL}?cursor=${encodePageCursor({ at: '2026-02-30T00:00:00.000000Z', id: 1 })}`, 'cursor: not a cursor this list gave out'],
    ['a cursor of NUL', `${URL}?cursor=%00`, 'cursor: not a cursor this list gave out'],
    ['an unknown parameter', `${URL}?sort=asc`, expect.stringContaining('sort')],
    ['a cursor too long', `${URL}?cursor=${'A'.repeat(201)}`, expect.stringContaining('cursor')],
  ])('answers 400 with a clear message to %s', async (_label, url, message) => {
    const response = await get(url);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: { code: 'invalid_request', message } });
  });
});
