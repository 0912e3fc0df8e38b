import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openPostgres } from '../db/database.ts';
import type { PaymentProvider } from './payment-provider.ts';
import { startTestApp, type TestApp } from '../test-support/test-app.ts';
import { type TestDatabase, testBackends } from '../test-support/test-databases.ts';

const buyer = { name: 'Ada Lovelace', email: 'ada@example.com', eventName: 'City Derby' };
const buy = (shop: TestApp, payload: object, headers: Record<string, string> = {}) =>
  shop.app.inject({ method: 'POST', url: '/api/purchases', payload, headers });

// Connection pools and statement timeouts are PostgreSQL's; PGlite is one connection in-process.
const postgres = testBackends().find((backend) => backend.name === 'postgres');

describe.skipIf(!postgres)('purchases on a PostgreSQL pool of its own', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await postgres!.open();
  });
  afterAll(async () => {
    await database.close();
  });
  beforeEach(async () => {
    await database.reset();
  });

  it('holds no connection during the payment: 10 buyers pay at once on a pool of 1, and /healthz answers meanwhile', async () => {
    const buyers = 10;
    // Every charge reports in, then waits to be let go: one charge holding the only connection would
    // keep the others from claiming their keys, so they would never all be paying at once.
    let paying = 0;
    let allPaying!: () => void;
    const everyonePaying = new Promise<void>((resolve) => (allPaying = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const payment: PaymentProvider = {
      async charge() {
        if (++paying === buyers) allPaying();
        await released;
        return { ok: true };
      },
      refund: () => Promise.reject(new Error('no refunds in this test')),
    };
    const pool = openPostgres(database.url!, 1);
    const shop = await startTestApp({ ...database, db: pool.db }, {}, { payment });
    try {
      const purchases = Promise.all(
        Array.from({ length: buyers }, (_, n) => buy(shop, { ...buyer, name: `Buyer ${n}` }, { 'idempotency-key': `pool-${n}` })),
      );
      await everyonePaying;
      expect((await shop.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
      release();

      const responses = await purchases;
      expect(responses.map((response) => response.statusCode)).toEqual(Array(buyers).fill(201));
      expect(responses.every((response) => response.json().saved === true)).toBe(true);
      expect(await database.count('purchases')).toBe(buyers);
    } finally {
      await shop.close();
      await pool.close();
    }
  });

  it('spools the purchase when a statement hangs past the timeout, instead of holding the paid request', async () => {
    const pool = openPostgres(database.url!, 2, { statementTimeoutMs: 300 });
    const shop = await startTestApp({ ...database, db: pool.db });
    const locker = new pg.Client({ connectionString: database.url });
    await locker.connect();
    try {
      // Another session holds the table: the purchase's insert waits for the lock.
      await locker.query('begin');
      await locker.query('lock table purchases in access exclusive mode');
      // Answered while the lock is still held: the paid request did not wait for the database.
      const response = await buy(shop, buyer, { 'idempotency-key': 'hung' });
      expect(response.statusCode).toBe(201);
      expect(response.json().saved).toBe(false);
      expect((await shop.app.inject({ method: 'GET', url: '/healthz' })).json().spooled).toBe(1);

      await locker.query('rollback');
      expect(await shop.app.replaySpool()).toEqual({ stored: 1, quarantined: 0, waiting: 0 });
      expect(await database.count('purchases')).toBe(1);
      expect(await database.count('outbox')).toBe(1);
    } finally {
      await locker.query('rollback').catch(() => {});
      await locker.end();
      await shop.close();
      await pool.close();
    }
  });
});
