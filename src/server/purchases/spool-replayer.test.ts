import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertPurchase } from './purchase-queries.ts';
import type { PurchaseRecord } from './purchase-record.ts';
import { purchaseRecord } from '../test-support/purchase-records.ts';
import { fileSpool, type PurchaseSpool } from './purchase-spool.ts';
import { databasePerBlock, testBackends, testRows } from '../test-support/test-databases.ts';
import { IdempotencyStore, passIdKeyOf } from './idempotency.ts';
import { replaySpool } from './spool-replayer.ts';

/** A spooled purchase: the buyer was told it was not saved yet. */
const record = (id: string, pass: Partial<PurchaseRecord['pass']> = {}) => purchaseRecord(id, pass, { saved: false });

const silent = new Proxy({}, { get: (_target, name) => (name === 'child' ? () => silent : () => {}) }) as FastifyBaseLogger;

describe.each(testBackends())('spool replay on $name', (backend) => {
  const t = databasePerBlock(backend);
  let directory: string;
  let spool: PurchaseSpool;

  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'skippass-replay-'));
    spool = fileSpool(directory);
  });
  afterEach(async () => {
    await t.database.restoreWrites().catch(() => {});
    await rm(directory, { recursive: true, force: true });
  });

  const replay = () => replaySpool({ db: t.database.db, spool, idempotency: new IdempotencyStore(t.database.db, passIdKeyOf('test secret'), 60), log: silent });
  const orderIds = async () =>
    (await testRows<{ order_id: string; email: string }>(t.database.db, sql`select order_id, email from purchases order by order_id`)).map(
      (row) => `${row.order_id} ${row.email}`,
    );
  const quarantined = () => readdir(join(directory, 'conflicts'));
  /** What staff see in the admin panel: one row per purchase set aside, with its reason. */
  const heldForStaff = async () =>
    (await testRows<{ order_id: string; reason: string; record: string }>(t.database.db, sql`select order_id, reason, record from quarantined_purchases order by order_id`)).map(
      (row) => ({ orderId: row.order_id, reason: row.reason.split(':')[0], email: (JSON.parse(row.record) as PurchaseRecord).pass.email }),
    );

  it('recognises a record that is already stored: only its file goes, nothing is stored twice', async () => {
    // The process stored it, then died before removing the file (or another process replayed it).
    expect(await insertPurchase(t.database.db, record('AAAAAAAAAA'))).toBe('inserted');
    await spool.write(record('AAAAAAAAAA'));
    expect(await replay()).toEqual({ stored: 1, quarantined: 0, waiting: 0 });
    expect(await orderIds()).toEqual(['AAAAAAAAAA ada@example.com']);
    expect(await t.database.count('outbox')).toBe(1);
    expect(await spool.count()).toBe(0);
    expect(await quarantined()).toEqual([]);
  });

  it('moves aside a record whose order ID belongs to another purchase, keeping the stored one', async () => {
    expect(await insertPurchase(t.database.db, record('AAAAAAAAAA', { email: 'grace@example.com' }))).toBe('inserted');
    await spool.write(record('AAAAAAAAAA'));
    expect(await replay()).toEqual({ stored: 0, quarantined: 1, waiting: 0 });
    expect(await orderIds()).toEqual(['AAAAAAAAAA grace@example.com']);
    expect(await spool.count()).toBe(0);
    expect(await quarantined()).toEqual(['AAAAAAAAAA.json']);
    expect(await heldForStaff()).toEqual([{ orderId: 'AAAAAAAAAA', reason: 'order_id_taken', email: 'ada@example.com' }]);
  });

  it('quarantines a record the database refuses for its data and stores the good one behind it', async () => {
    // A NUL cannot be stored in text or jsonb (SQLSTATE 22P05): retrying it would fail forever.
    await spool.write(record('AAAAAAAAAA', { name: 'Ada\u0000Lovelace' }));
    await spool.write(record('BBBBBBBBBB', { purchaseDate: 'not a date' }));
    await spool.write(record('CCCCCCCCCC'));
    expect(await replay()).toEqual({ stored: 1, quarantined: 2, waiting: 0 });
    expect(await orderIds()).toEqual(['CCCCCCCCCC ada@example.com']);
    expect(await t.database.count('outbox')).toBe(1);
    expect(await quarantined()).toEqual(['AAAAAAAAAA.json', 'BBBBBBBBBB.json']);
    expect((await heldForStaff()).map((held) => `${held.orderId} ${held.reason}`)).toEqual([
      'AAAAAAAAAA refused_by_database',
      'BBBBBBBBBB refused_by_database',
    ]);
  });

  it('leaves a refused record in the spool when it cannot be shown to staff yet, and sets it aside on the next replay', async () => {
    await spool.write(record('AAAAAAAAAA', { purchaseDate: 'not a date' }));
    await testRows(t.database.db, sql`alter table quarantined_purchases rename to quarantined_away`);
    try {
      expect(await replay()).toEqual({ stored: 0, quarantined: 0, waiting: 1 });
      expect(await spool.count()).toBe(1);
    } finally {
      await testRows(t.database.db, sql`alter table quarantined_away rename to quarantined_purchases`);
    }
    expect(await replay()).toEqual({ stored: 0, quarantined: 1, waiting: 0 });
    expect((await heldForStaff()).map((held) => held.orderId)).toEqual(['AAAAAAAAAA']);
  });

  it('stops at the first record while the database is away, and leaves every record waiting', async () => {
    await spool.write(record('AAAAAAAAAA'));
    await spool.write(record('BBBBBBBBBB'));
    await t.database.breakWrites();
    expect(await replay()).toEqual({ stored: 0, quarantined: 0, waiting: 2 });
    expect(await spool.count()).toBe(2);
    expect(await quarantined()).toEqual([]);
    await t.database.restoreWrites();
    expect(await replay()).toEqual({ stored: 2, quarantined: 0, waiting: 0 });
  });
});
