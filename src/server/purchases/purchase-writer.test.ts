import { sql } from 'drizzle-orm';
import pg from 'pg';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { databasePerBlock, testBackends, testRows } from '../test-support/test-databases.ts';
import { type Db } from '../db/database.ts';
import { purchaseRecord } from '../test-support/purchase-records.ts';
import { purchaseWriter } from './purchase-writer.ts';

const record = (id: string, name = 'Ada Lovelace', idempotencyKey?: string) =>
  purchaseRecord(id, { name }, idempotencyKey ? { idempotency: { key: idempotencyKey, fingerprint: 'f' } } : {});

const hexId = (n: number) => n.toString(16).toUpperCase().padStart(10, '0');

describe.each(testBackends())('group commit of purchases on $name', (backend) => {
  const t = databasePerBlock(backend);
  let statements = 0;
  let counting: Db;

  beforeAll(() => {
    // Counts the statements the writer sends, on the real database.
    counting = new Proxy(t.database.db, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (property !== 'execute') return value;
        return (...args: unknown[]) => {
          statements++;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  });
  beforeEach(() => {
    statements = 0;
  });

  it('writes purchases that arrive together in far fewer statements, each with its own outcome', async () => {
    const writer = purchaseWriter(counting);
    const outcomes = await Promise.all(Array.from({ length: 300 }, (_, n) => writer.write(record(hexId(n + 1)))));
    expect(outcomes.every((outcome) => outcome === 'inserted')).toBe(true);
    expect(await t.database.count('purchases')).toBe(300);
    expect(await t.database.count('outbox')).toBe(300);
    expect(statements).toBeLessThanOrEqual(4);
  });

  it('reports a taken order ID for that purchase only, and keeps same-ID purchases apart', async () => {
    const writer = purchaseWriter(counting);
    expect(await writer.write(record('AAAAAAAAAA'))).toBe('inserted');
    const outcomes = await Promise.all([
      writer.write(record('AAAAAAAAAA', 'Taken Already')),
      writer.write(record('BBBBBBBBBB')),
      writer.write(record('CCCCCCCCCC')),
      writer.write(record('CCCCCCCCCC', 'Same Draw')),
    ]);
    expect(outcomes.slice(0, 2)).toEqual(['order_id_taken', 'inserted']);
    // The two draws of one ID go in separate statements, which may run at once on PostgreSQL:
    // either may win, and exactly one does (the other draws again in the purchase service).
    expect([...outcomes.slice(2)].sort()).toEqual(['inserted', 'order_id_taken']);
    expect(await t.database.count('purchases')).toBe(3);
    expect(await t.database.count('outbox')).toBe(3);
  });

  it('passes the database error to every purchase of the failed statement, leaving nothing half-written', async () => {
    const writer = purchaseWriter(counting);
    await t.database.breakWrites();
    try {
      const results = await Promise.allSettled([writer.write(record('DDDDDDDDDD')), writer.write(record('EEEEEEEEEE'))]);
      expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    } finally {
      await t.database.restoreWrites();
    }
    expect(await t.database.count('purchases')).toBe(0);
    expect(await t.database.count('outbox')).toBe(0);
    expect(await writer.write(record('DDDDDDDDDD'))).toBe('inserted');
  });

  // A CHECK that fails only when the statement reaches that table's insert: the purchase row
  // is already written by then, so only the statement's atomicity can take it back.
  it.each([
    ['outbox', sql`alter table outbox add constraint test_refuse check (kind <> 'purchase_confirmation') not valid`],
    ['idempotency_keys', sql`alter table idempotency_keys add constraint test_refuse check (key <> 'refused') not valid`],
  ])('leaves no purchase row when its %s insert fails (one transaction)', async (table, refuse) => {
    const writer = purchaseWriter(counting);
    await testRows(t.database.db, refuse);
    try {
      await expect(writer.write(record('DDDDDDDDDD', 'Ada Lovelace', 'refused'))).rejects.toThrow();
    } finally {
      await testRows(t.database.db, sql`alter table ${sql.identifier(table)} drop constraint test_refuse`);
    }
    expect(await t.database.count('purchases')).toBe(0);
    expect(await t.database.count('outbox')).toBe(0);
    expect(await t.database.count('idempotency_keys')).toBe(0);
    expect(await writer.write(record('DDDDDDDDDD', 'Ada Lovelace', 'refused'))).toBe('inserted');
    expect(await t.database.count('outbox')).toBe(1);
  });

  it('fails only the purchase whose data the database refuses, not the others in its statement', async () => {
    const writer = purchaseWriter(counting);
    const results = await Promise.allSettled([
      writer.write(record('AAAAAAAAAA')),
      writer.write(record('BBBBBBBBBB', 'Nul\u0000Name')),
      writer.write(record('CCCCCCCCCC')),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await t.database.count('purchases')).toBe(2);
    expect(await t.database.count('outbox')).toBe(2);
  });
  // PostgreSQL only: PGlite has one connection, so no other transaction can hold a row meanwhile.
  it.skipIf(backend.name !== 'postgres')(
    'runs a statement PostgreSQL cancelled to break a deadlock again, rather than fail its purchases',
    async () => {
      for (const key of ['a-key', 'b-key']) {
        await testRows(
          t.database.db,
          sql`insert into idempotency_keys (key, fingerprint, locked_until, expires_at) values (${key}, 'f', now() + interval '5 seconds', now() + interval '1 day')`,
        );
      }
      // Another transaction holds b-key, and will want a-key once the batch holds it.
      const other = new pg.Client({ connectionString: t.database.url });
      await other.connect();
      try {
        await other.query('begin');
        await other.query("update idempotency_keys set locked_until = now() where key = 'b-key'");
        const writer = purchaseWriter(counting);
        const written = Promise.all([writer.write(record('AAAAAAAAAA', 'Ada', 'a-key')), writer.write(record('BBBBBBBBBB', 'Bob', 'b-key'))]);
        const waitingForLocks = async () =>
          (await other.query("select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()")).rows[0].n as number;
        await expect.poll(waitingForLocks).toBe(1);
        // The batch waits for b-key holding a-key; this waits for a-key: PostgreSQL cancels the
        // batch, which began waiting first.
        await other.query("update idempotency_keys set locked_until = now() where key = 'a-key'");
        await other.query('commit');
        expect(await written).toEqual(['inserted', 'inserted']);
      } finally {
        await other.end();
      }
      expect(await t.database.count('purchases')).toBe(2);
      expect(await t.database.count('outbox')).toBe(2);
      // Run again at least once. On a busy machine the rerun can take a-key before the other
      // transaction, woken by the cancel, does: the same deadlock once more, and a third run.
      expect(statements).toBeGreaterThanOrEqual(2);
      expect(statements).toBeLessThanOrEqual(3);
    },
  );
});
