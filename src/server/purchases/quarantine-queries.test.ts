import { type SQL, sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { purchaseRecord } from '../test-support/purchase-records.ts';
import { databasePerBlock, testBackends, testRows } from '../test-support/test-databases.ts';
import { isDataError } from '../db/database.ts';
import { insertPurchase } from './purchase-queries.ts';
import {
  countQuarantined,
  databaseRefusal,
  listQuarantined,
  quarantinedPageQuery,
  recordQuarantine,
} from './quarantine-queries.ts';
import { encodePageCursor, type PageCursor, parsePageCursor } from '../platform/page-cursor.ts';

describe.each(testBackends())('held purchases (quarantined_purchases) on $name', (backend) => {
  const t = databasePerBlock(backend);
  // The shared reset does not know this table; each test starts with it empty.
  beforeEach(async () => {
    await testRows(t.database.db, sql`truncate quarantined_purchases restart identity`);
  });

  it('keeps a purchase the purchases table refuses, and lists it with what the buyer was told', async () => {
    // A lone surrogate is legal JSON, but PostgreSQL refuses it (and NUL) in text and jsonb.
    const record = purchaseRecord(
      'AAAAAAAAAA',
      { name: 'Ada \uD800 Lovelace', email: 'ada@example.com', eventName: 'City\u0000 Derby', purchaseDate: '2026-11-22T14:05:00.000Z' },
      { saved: false, idempotency: { key: 'key-1', fingerprint: 'f' } },
    );
    const refused = await insertPurchase(t.database.db, record).catch((error: unknown) => error);
    expect(isDataError(refused)).toBe(true);
    // What the replay keeps as the detail: the database's words, not the statement and the buyer's data.
    const detail = databaseRefusal(refused);
    expect(detail).toMatch(/ \(SQLSTATE 22[0-9A-Z]{3}\)$/);
    expect(detail).not.toContain('ada@example.com');
    expect(detail).not.toContain('insert into');
    expect(databaseRefusal(new Error('connection refused'))).toBeUndefined();

    await recordQuarantine(t.database.db, { orderId: 'AAAAAAAAAA', reason: 'refused_by_database', record });
    const page = await listQuarantined(t.database.db, { limit: 10 });
    expect(page).toEqual({
      items: [
        {
          id: 1,
          orderId: 'AAAAAAAAAA',
          reason: 'refused_by_database',
          detail: null,
          quarantinedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
          name: 'Ada \uD800 Lovelace',
          email: 'ada@example.com',
          eventName: 'City\u0000 Derby',
          amountCents: 300,
          purchaseDate: '2026-11-22T14:05:00.000Z',
          hasIdempotencyKey: true,
        },
      ],
      next: null,
    });
    expect(Math.abs(Date.parse(page.items[0]!.quarantinedAt) - Date.now())).toBeLessThan(60_000);
    expect(await countQuarantined(t.database.db)).toBe(1);
  });

  it('keeps the first record when the same order ID is held again (a second replay, another instance)', async () => {
    await recordQuarantine(t.database.db, { orderId: 'BBBBBBBBBB', reason: 'order_id_taken', record: purchaseRecord('BBBBBBBBBB', { name: 'First' }) });
    await recordQuarantine(t.database.db, {
      orderId: 'BBBBBBBBBB',
      reason: 'refused_by_database',
      record: purchaseRecord('BBBBBBBBBB', { name: 'Second' }),
    });
    const { items } = await listQuarantined(t.database.db, { limit: 10 });
    expect(items).toEqual([expect.objectContaining({ orderId: 'BBBBBBBBBB', reason: 'order_id_taken', name: 'First', hasIdempotencyKey: false })]);
    expect(await countQuarantined(t.database.db)).toBe(1);
  });

  it("keeps the database's own words, made storable and cut to 500 characters", async () => {
    const detail = `value too long \u0000 \uDC00 ${'x'.repeat(600)}`;
    await recordQuarantine(t.database.db, { orderId: 'CCCCCCCCCC', reason: 'refused_by_database', detail, record: purchaseRecord('CCCCCCCCCC') });
    const [item] = (await listQuarantined(t.database.db, { limit: 10 })).items;
    expect(item!.reason).toBe('refused_by_database');
    expect(item!.detail).toHaveLength(500);
    expect(item!.detail!.startsWith('value too long \uFFFD \uFFFD xxx')).toBe(true);
  });

  it('lists a row it cannot read back with its order ID and reason, and a reason written another way as it is', async () => {
    await testRows(
      t.database.db,
      sql`insert into quarantined_purchases (order_id, reason, record) values ('DDDDDDDDDD', 'disk said no', '{not json'), ('EEEEEEEEEE', 'order_id_taken', '[1]')`,
    );
    const { items } = await listQuarantined(t.database.db, { limit: 10 });
    const blank = { name: null, email: null, eventName: null, amountCents: null, purchaseDate: null, hasIdempotencyKey: false };
    expect(items).toEqual([
      expect.objectContaining({ orderId: 'EEEEEEEEEE', reason: 'order_id_taken', detail: null, ...blank }),
      expect.objectContaining({ orderId: 'DDDDDDDDDD', reason: 'other', detail: 'disk said no', ...blank }),
    ]);
  });

  it('pages newest first by (quarantined_at, id), ties broken by id, with no row twice or missed', async () => {
    // 7 rows; three share one instant, so only the id orders them.
    await testRows(
      t.database.db,
      sql`insert into quarantined_purchases (order_id, reason, record, quarantined_at)
          select 'ID' || g, 'order_id_taken', '{}',
                 case when g <= 3 then timestamptz '2026-11-22 12:00:00.000001+00' else timestamptz '2026-11-22 12:00:00+00' + make_interval(secs => g) end
          from generate_series(1, 7) as g`,
    );
    const seen: string[] = [];
    let cursor: PageCursor | undefined;
    for (let pages = 0; pages < 5; pages++) {
      const page = await listQuarantined(t.database.db, { limit: 3, cursor });
      seen.push(...page.items.map((item) => item.orderId));
      if (!page.next) break;
      // Through the text form the API hands out.
      cursor = parsePageCursor(encodePageCursor(page.next)) ?? undefined;
      expect(cursor).toEqual(page.next);
    }
    expect(seen).toEqual(['ID7', 'ID6', 'ID5', 'ID4', 'ID3', 'ID2', 'ID1']);
    expect(await countQuarantined(t.database.db)).toBe(7);
  });

  it('reads quarantined_purchases_at_idx in order, without sorting, on the first and later pages', async () => {
    await testRows(
      t.database.db,
      sql`insert into quarantined_purchases (order_id, reason, record, quarantined_at)
          select 'ID' || g, 'order_id_taken', '{}', now() - make_interval(secs => g) from generate_series(1, 2000) as g`,
    );
    await testRows(t.database.db, sql`analyze quarantined_purchases`);
    const plan = (query: SQL) =>
      t.database.db.transaction(async (tx) => {
        await tx.execute(sql`set local enable_sort = off`);
        const result = (await tx.execute(sql`explain ${query}`)) as unknown as { rows: Array<{ 'QUERY PLAN': string }> };
        return result.rows.map((row) => row['QUERY PLAN']).join('\n');
      });
    for (const query of [quarantinedPageQuery({ limit: 50 }), quarantinedPageQuery({ limit: 50, cursor: { at: '2026-11-22T12:00:00.000000Z', id: 900 } })]) {
      const text = await plan(query);
      expect(text).toContain('quarantined_purchases_at_idx');
      expect(text).not.toMatch(/\bSort\b/);
    }
  });
});
