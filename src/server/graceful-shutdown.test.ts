import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { openPglite } from './db/database.ts';
import { freePort } from './test-support/free-port.ts';
import { startServer } from './test-support/server-process.ts';
import { testBackends, testRows, type TestDatabase } from './test-support/test-databases.ts';

const RUSH = 30;

/** How many purchases the server has taken in (its request log line, written at debug level). */
const purchasesTaken = (shop: ReturnType<typeof startServer>) =>
  shop.stdout().split('\n').filter((line) => line.includes('"msg":"incoming request"') && line.includes('"url":"/api/purchases"')).length;

/**
 * Issue 14: a deploy's SIGTERM is not a crash for buyers. The real server process, the real
 * 2-second payment: every purchase the server took before the signal is answered and stored.
 */
describe.each(testBackends())('SIGTERM during a rush on $name', (backend) => {
  let server: ReturnType<typeof startServer> | undefined;
  let database: TestDatabase | undefined;
  let dataDir: string | undefined;
  afterEach(async () => {
    await server?.stop();
    await database?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    server = database = dataDir = undefined;
  });

  async function start(env: Record<string, string> = {}) {
    dataDir = await mkdtemp(join(tmpdir(), 'skippass-sigterm-'));
    if (backend.name === 'postgres') database = await backend.open();
    // Debug level logs each request as it comes in: the test signals once the server has taken them.
    server = startServer({
      PORT: String(await freePort()),
      DATA_DIR: dataDir,
      PAYMENT_DELAY_MS: '2000',
      LOG_LEVEL: 'debug',
      ...(database ? { DATABASE_URL: database.url! } : {}),
      ...env,
    });
    await server.listening();
    return server;
  }

  /** The order IDs stored, read after the process has gone (PGlite's files are then free to open). */
  async function storedOrderIds(): Promise<string[]> {
    if (database) return (await testRows(database.db, sql`select order_id from purchases`)).map((row) => String(row.order_id));
    const embedded = openPglite({ dataDir: dataDir! });
    try {
      return (await testRows(embedded.db, sql`select order_id from purchases`)).map((row) => String(row.order_id));
    } finally {
      await embedded.close();
    }
  }

  it('answers and stores every purchase in flight, takes no new connection, and exits 0', async () => {
    const shop = await start();
    const buys = Array.from({ length: RUSH }, (_, n) =>
      fetch(`${shop.base}/api/purchases`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': `rush-${n}` },
        body: JSON.stringify({ name: `Buyer ${n}`, email: `buyer${n}@example.com`, eventName: 'City Derby' }),
      }).then(async (response) => ({ status: response.status, body: (await response.json()) as { pass?: { id: string }; saved?: boolean } })),
    );
    // Every purchase is in its 2-second payment when the signal comes.
    await shop.waitFor('it took every purchase in', () => (purchasesTaken(shop) === RUSH ? true : undefined));
    shop.child.kill('SIGTERM');
    // A newcomer is turned away at the door (the proxy sends it to another instance), while the
    // process still finishes the purchases in flight (waitFor fails if it exits first).
    await shop.waitFor('it closed its door', () => fetch(`${shop.base}/healthz/ready`).then(() => undefined, () => true));

    const answers = await Promise.all(buys);
    expect(answers.map((answer) => answer.status)).toEqual(Array<number>(RUSH).fill(201));
    expect(answers.every((answer) => answer.body.saved === true)).toBe(true);
    expect(await shop.exited()).toBe(0);
    const stored = await storedOrderIds();
    expect(stored.sort()).toEqual(answers.map((answer) => answer.body.pass?.id).sort());
    expect(new Set(stored).size).toBe(RUSH);
  });

  it('exits 1 once SHUTDOWN_GRACE_MS is over, rather than hang on a request that never ends', async () => {
    const shop = await start({ PAYMENT_DELAY_MS: '30000', SHUTDOWN_GRACE_MS: '500' });
    const stuck = fetch(`${shop.base}/api/purchases`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Slow Payer', email: 'slow@example.com', eventName: 'City Derby' }),
    }).catch(() => 'cut off');
    await shop.waitFor('it took the purchase in', () => (purchasesTaken(shop) === 1 ? true : undefined));
    shop.child.kill('SIGTERM');
    expect(await shop.exited()).toBe(1);
    // It exited with the 30 s payment still running: the request was cut off, never answered.
    expect(await stuck).toBe('cut off');
  });
});
