import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openPostgres } from '../db/database.ts';
import { startTestApp, type TestApp } from '../test-support/test-app.ts';
import { type TestDatabase, testBackends } from '../test-support/test-databases.ts';

const buyer = { name: 'Ada Lovelace', email: 'ada@example.com', eventName: 'City Derby' };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
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

  it('holds no connection during the simulated payment: 10 buyers share a pool of 1, and /healthz answers meanwhile', async () => {
    const delayMs = 500;
    const pool = openPostgres(database.url!, 1);
    const shop = await startTestApp({ ...database, db: pool.db }, { PAYMENT_DELAY_MS: String(delayMs) });
    try {
      const started = performance.now();
      let done = false;
      const purchases = Promise.all(
        Array.from({ length: 10 }, (_, n) => buy(shop, { ...buyer, name: `Buyer ${n}` }, { 'idempotency-key': `pool-${n}` })),
      ).finally(() => (done = true));

      await sleep(delayMs / 3);
      const health = await shop.app.inject({ method: 'GET', url: '/healthz' });
      expect(health.statusCode).toBe(200);
      expect(done).toBe(false);

      const responses = await purchases;
      const elapsed = performance.now() - started;
      expect(responses.map((response) => response.statusCode)).toEqual(Array(10).fill(201));
      expect(responses.every((response) => response.json().saved === true)).toBe(true);
      // Payments holding the one connection would take 10 x 500 ms one after another.
      expect(elapsed).toBeLessThan(5 * delayMs);
      expect(await database.count('purchases')).toBe(10);
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
      const started = performance.now();
      const response = await Promise.race([buy(shop, buyer, { 'idempotency-key': 'hung' }), sleep(5000).then(() => 'still waiting' as const)]);
      if (response === 'still waiting') throw new Error('the purchase is still waiting for the database after 5 s');
      expect(performance.now() - started).toBeLessThan(3000);
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
