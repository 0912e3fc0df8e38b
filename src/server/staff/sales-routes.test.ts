import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { staffSession } from '../test-support/staff.ts';
import { databasePerBlock, testBackends, testRows } from '../test-support/test-databases.ts';
import { shopPerTest } from '../test-support/test-app.ts';
import type { Db } from '../db/database.ts';
import { salesOverTime } from './sales-queries.ts';

const HOUR = 3_600_000;

async function seedPurchase(db: Db, order: string, at: string, amountCents = 300) {
  await testRows(
    db,
    sql`insert into purchases (name, email, event_name, amount, order_id, created_at)
        values ('Ada Lovelace', 'ada@example.com', 'City Derby', ${amountCents}, ${order}, ${at}::timestamptz)`,
  );
}

async function seedEvent(db: Db, title: string): Promise<number> {
  const [row] = await testRows<{ id: number }>(
    db,
    sql`insert into events (title, title_key, starts_at, location, price_cents) values (${title}, ${title}, now(), 'Riverside', 300) returning id`,
  );
  return Number(row!.id);
}

async function seedCheckIn(db: Db, order: string, eventId: number, at: string) {
  await testRows(db, sql`insert into check_ins (order_id, event_id, checked_in_at) values (${order}, ${eventId}, ${at}::timestamptz)`);
}

/** Each bucket's start follows the one before by exactly `ms`. */
const steps = (starts: string[]) => starts.slice(1).map((start, i) => Date.parse(start) - Date.parse(starts[i]!));

describe.each(testBackends())('sales buckets on $name', (backend) => {
  const t = databasePerBlock(backend);

  it('fills every hour of the last 48 with zeros when nothing sold, ending with the current hour', async () => {
    const sales = await salesOverTime(t.database.db, '48h', new Date('2026-11-23T10:20:00Z'), 'UTC');
    expect(sales.bucket).toBe('hour');
    expect(sales.buckets).toHaveLength(48);
    expect(sales.buckets.every((bucket) => bucket.purchases === 0 && bucket.revenueCents === 0)).toBe(true);
    expect(sales.buckets.at(-1)).toEqual({ start: '2026-11-23T10:00:00.000Z', label: '2026-11-23 10:00', purchases: 0, revenueCents: 0 });
    expect(sales.buckets[0]!.label).toBe('2026-11-21 11:00');
    expect(new Set(steps(sales.buckets.map((bucket) => bucket.start)))).toEqual(new Set([HOUR]));
    expect(sales.checkIns).toEqual([]);
  });

  it('counts hours in the shop time zone, half an hour off UTC included', async () => {
    // Asia/Kolkata is UTC+5:30: 09:29Z is 14:59 there, 09:31Z is 15:01.
    await seedPurchase(t.database.db, 'A000000001', '2026-11-23T09:29:00Z', 300);
    await seedPurchase(t.database.db, 'A000000002', '2026-11-23T09:31:00Z', 300);
    await seedPurchase(t.database.db, 'A000000003', '2026-11-23T10:10:00Z', 1250);
    // Before the range, and after the moment asked about: not counted.
    await seedPurchase(t.database.db, 'A000000004', '2026-11-21T09:29:00Z');
    await seedPurchase(t.database.db, 'A000000005', '2026-11-23T10:31:00Z');
    const sales = await salesOverTime(t.database.db, '48h', new Date('2026-11-23T10:20:00Z'), 'Asia/Kolkata');
    const byLabel = Object.fromEntries(sales.buckets.map((bucket) => [bucket.label, [bucket.purchases, bucket.revenueCents]]));
    expect(sales.buckets.at(-1)!.start).toBe('2026-11-23T09:30:00.000Z');
    expect(byLabel['2026-11-23 14:00']).toEqual([1, 300]);
    expect(byLabel['2026-11-23 15:00']).toEqual([2, 1550]);
    expect(sales.buckets.reduce((sum, bucket) => sum + bucket.purchases, 0)).toBe(3);
  });

  it('keeps every hourly bucket one real hour across the end of daylight saving time', async () => {
    // New York, 1 Nov 2026: 01:00-02:00 local happens twice (EDT, then EST).
    await seedPurchase(t.database.db, 'A000000001', '2026-11-01T05:30:00Z'); // 01:30 EDT
    await seedPurchase(t.database.db, 'A000000002', '2026-11-01T06:30:00Z'); // 01:30 EST
    const sales = await salesOverTime(t.database.db, '48h', new Date('2026-11-01T12:00:00Z'), 'America/New_York');
    expect(new Set(steps(sales.buckets.map((bucket) => bucket.start)))).toEqual(new Set([HOUR]));
    const oneAm = sales.buckets.filter((bucket) => bucket.label === '2026-11-01 01:00');
    expect(oneAm.map((bucket) => bucket.purchases)).toEqual([1, 1]);
  });

  it('counts days from midnight in the shop time zone, a 25-hour day included', async () => {
    // New York: 04:59Z on 22 Nov is 23:59 on the 21st; 05:01Z is 00:01 on the 22nd.
    await seedPurchase(t.database.db, 'A000000001', '2026-11-22T04:59:00Z');
    await seedPurchase(t.database.db, 'A000000002', '2026-11-22T05:01:00Z', 500);
    // 1 Nov 2026 lasts 25 hours there: 00:30 EDT and 23:30 EST are the same day.
    await seedPurchase(t.database.db, 'A000000003', '2026-11-01T04:30:00Z');
    await seedPurchase(t.database.db, 'A000000004', '2026-11-02T04:30:00Z');
    const at = new Date('2026-11-23T03:00:00Z'); // 22:00 on the 22nd in New York
    const fortnight = await salesOverTime(t.database.db, '14d', at, 'America/New_York');
    expect(fortnight.bucket).toBe('day');
    expect(fortnight.buckets.map((bucket) => bucket.label)).toEqual(
      Array.from({ length: 14 }, (_, i) => `2026-11-${String(9 + i).padStart(2, '0')}`),
    );
    expect(fortnight.buckets.at(-1)).toEqual({ start: '2026-11-22T05:00:00.000Z', label: '2026-11-22', purchases: 1, revenueCents: 500 });
    expect(fortnight.buckets.at(-2)).toMatchObject({ label: '2026-11-21', purchases: 1, revenueCents: 300 });

    const quarter = await salesOverTime(t.database.db, '90d', at, 'America/New_York');
    expect(quarter.buckets).toHaveLength(90);
    expect(quarter.buckets[0]!.label).toBe('2026-08-25');
    expect(quarter.buckets.find((bucket) => bucket.label === '2026-11-01')).toMatchObject({ purchases: 2, start: '2026-11-01T04:00:00.000Z' });
    expect(quarter.buckets.find((bucket) => bucket.label === '2026-11-02')).toMatchObject({ purchases: 0, start: '2026-11-02T05:00:00.000Z' });
  });

  it('counts check-ins per event over the same buckets', async () => {
    const derby = await seedEvent(t.database.db, 'City Derby');
    const regatta = await seedEvent(t.database.db, 'Harbour Regatta');
    await seedEvent(t.database.db, 'Quiet Match');
    for (const order of ['A000000001', 'A000000002', 'A000000003']) await seedPurchase(t.database.db, order, '2026-11-20T12:00:00Z');
    await seedCheckIn(t.database.db, 'A000000001', derby, '2026-11-22T18:00:00Z');
    await seedCheckIn(t.database.db, 'A000000002', derby, '2026-11-22T19:00:00Z');
    await seedCheckIn(t.database.db, 'A000000001', regatta, '2026-11-21T10:00:00Z');
    const sales = await salesOverTime(t.database.db, '14d', new Date('2026-11-22T23:00:00Z'), 'UTC');
    expect(sales.checkIns).toEqual([
      { eventId: derby, title: 'City Derby', counts: [...Array(13).fill(0), 2] },
      { eventId: regatta, title: 'Harbour Regatta', counts: [...Array(12).fill(0), 1, 0] },
    ]);
  });
});

describe.each(testBackends())('GET /api/admin/sales on $name', (backend) => {
  const t = shopPerTest(backend, { SHOP_TIMEZONE: 'America/New_York', AUTH_RATE_LIMIT_PER_MINUTE: '0' });
  let adminCookie: string;
  beforeEach(async () => {
    adminCookie = await staffSession(t.shop.app, t.database.db, 'boss@example.com', { admin: true });
  });
  const get = (url: string, cookie?: string) => t.shop.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });

  it('refuses anonymous callers (401) and staff without the admin role (403)', async () => {
    const anonymous = await get('/api/admin/sales?range=48h');
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error.code).toBe('unauthenticated');
    const staffCookie = await staffSession(t.shop.app, t.database.db, 'door@example.com');
    const staff = await get('/api/admin/sales?range=48h', staffCookie);
    expect(staff.statusCode).toBe(403);
    expect(staff.json().error.code).toBe('forbidden');
  });

  it.each(['1y', '', '48H', '14d;drop table purchases'])('answers 400 to range=%j', async (range) => {
    const response = await get(`/api/admin/sales?range=${encodeURIComponent(range)}`, adminCookie);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toMatch(/^range: /);
  });

  it('answers 400 to an unknown parameter', async () => {
    const response = await get('/api/admin/sales?range=48h&bucket=minute', adminCookie);
    expect(response.statusCode).toBe(400);
  });

  it('shows a purchase just made in the current hour and today, with its revenue', async () => {
    const bought = await t.shop.app.inject({
      method: 'POST',
      url: '/api/purchases',
      payload: { name: 'Ada Lovelace', email: 'ada@example.com', eventName: 'City Derby' },
    });
    expect(bought.statusCode).toBe(201);
    const hours = (await get('/api/admin/sales?range=48h', adminCookie)).json();
    expect(hours).toMatchObject({ range: '48h', bucket: 'hour', timeZone: 'America/New_York' });
    expect(hours.buckets).toHaveLength(48);
    expect(hours.buckets.at(-1)).toMatchObject({ purchases: 1, revenueCents: 300 });
    const days = (await get('/api/admin/sales', adminCookie)).json();
    expect(days).toMatchObject({ range: '14d', bucket: 'day' });
    expect(days.buckets).toHaveLength(14);
    expect(days.buckets.at(-1)).toMatchObject({ purchases: 1, revenueCents: 300 });
    expect(days.buckets.slice(0, -1).every((bucket: { purchases: number }) => bucket.purchases === 0)).toBe(true);
    const quarter = (await get('/api/admin/sales?range=90d', adminCookie)).json();
    expect(quarter.buckets).toHaveLength(90);
  });
});
