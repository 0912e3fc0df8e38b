import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { API_ERRORS } from '../../core/messages.ts';
import { fileSpool } from './purchase-spool.ts';
import { type DatabaseOutage, databaseOutage } from '../test-support/outage.ts';
import { freePort } from '../test-support/free-port.ts';
import { startServer } from '../test-support/server-process.ts';
import { shopPerTest, startTestApp, type TestApp } from '../test-support/test-app.ts';
import { testBackends, testRows } from '../test-support/test-databases.ts';

const buyerNumber = (n: number) => ({ name: `Buyer ${n}`, email: `buyer${n}@example.com`, eventName: 'City Derby' });

describe.each(testBackends())('purchases through a database outage on $name', (backend) => {
  const t = shopPerTest(backend);
  const SHARED_SECRET = 'one secret for every instance of this shop';
  let outage: DatabaseOutage | undefined;
  const others: TestApp[] = [];
  afterEach(async () => {
    for (const other of others.splice(0)) await other.close();
    await outage?.close();
    outage = undefined;
  });

  /**
   * Two shop instances on the same database, each with its own spool, both behind one outage. They
   * share AUTH_SECRET, as instances behind one database must (ADR 0031): keyed pass IDs derive from it.
   */
  async function twoInstances() {
    outage = await databaseOutage(t.database);
    // Every request comes from one test client: the per-IP purchase limit is not what is tested here.
    const env = { RATE_LIMIT_PER_MINUTE: '0', AUTH_SECRET: SHARED_SECRET };
    const first = await startTestApp(t.database, env, { db: outage.db });
    const second = await startTestApp(t.database, env, { db: outage.db });
    others.push(first, second);
    return [first, second] as const;
  }
  const buyOn = (shop: TestApp, payload: object, key: string) =>
    shop.app.inject({ method: 'POST', url: '/api/purchases', payload, headers: { 'idempotency-key': key } });

  it('never sells a second pass for a key retried while the database is away, on either instance', async () => {
    const [a, b] = await twoInstances();
    const keys = Array.from({ length: 20 }, (_, n) => `lost-answer-${n}`);
    // The purchases commit, but (as far as the clients know) their answers are lost...
    const first = await Promise.all(keys.map((key, n) => buyOn(a, buyerNumber(n), key)));
    expect(first.map((response) => response.json().saved)).toEqual(keys.map(() => true));

    // ...the database goes away, and every client retries with its key: half reach each instance.
    outage!.down();
    const retries = await Promise.all(keys.map((key, n) => buyOn(n % 2 ? b : a, buyerNumber(n), key)));
    for (const [n, retry] of retries.entries()) {
      expect(retry.statusCode).toBe(201);
      // The pass the buyer holds is the one already stored, whichever answer they kept.
      expect(retry.json().pass.id).toBe(first[n]!.json().pass.id);
    }

    outage!.up();
    await a.app.replaySpool();
    await b.app.replaySpool();
    expect(await t.database.count('purchases')).toBe(20);
    expect(await t.database.count('outbox')).toBe(20);
    const keyed = await testRows<{ key: string; id: string }>(
      t.database.db,
      sql`select key, response_body->'pass'->>'id' as id from idempotency_keys order by key`,
    );
    expect(new Map(keyed.map((row) => [row.key, row.id]))).toEqual(new Map(keys.map((key, n) => [key, first[n]!.json().pass.id])));
    // And later retries still replay the first answer.
    const later = await buyOn(b, buyerNumber(3), keys[3]!);
    expect(later.headers['idempotent-replayed']).toBe('true');
    expect(later.json()).toEqual(first[3]!.json());
  });

  it('stores one purchase when a key is sold into both instances spools during an outage', async () => {
    const [a, b] = await twoInstances();
    outage!.down();
    const onA = await buyOn(a, buyerNumber(1), 'outage-twice');
    const onB = await buyOn(b, buyerNumber(1), 'outage-twice');
    expect([onA.json().saved, onB.json().saved]).toEqual([false, false]);
    expect(onB.json().pass.id).toBe(onA.json().pass.id);

    outage!.up();
    expect(await a.app.replaySpool()).toMatchObject({ stored: 1, quarantined: 0 });
    // The other instance's copy is recognised as the same purchase: its file goes, nothing is added.
    expect(await b.app.replaySpool()).toMatchObject({ stored: 1, quarantined: 0 });
    expect(await t.database.count('purchases')).toBe(1);
    expect(await t.database.count('outbox')).toBe(1);
  });

  it('still sells into the spool while the database is away, and stores it when it returns', async () => {
    const [a] = await twoInstances();
    outage!.down();
    const spooled = await buyOn(a, buyerNumber(7), 'during-outage');
    expect(spooled.statusCode).toBe(201);
    expect(spooled.json().saved).toBe(false);
    const health = await a.app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(503);
    expect(health.json()).toMatchObject({ database: 'down', spooled: 1, spoolWritable: true });
    outage!.up();
    expect(await a.app.replaySpool()).toMatchObject({ stored: 1 });
    const [row] = await testRows<{ order_id: string }>(t.database.db, sql`select order_id from purchases`);
    expect(row?.order_id).toBe(spooled.json().pass.id);
  });
});

describe.each(testBackends())('the spool on a faulty disk, on $name', (backend) => {
  const t = shopPerTest(backend);

  it('reports an unusable spool in /healthz (never a 500) and heals once the disk is repaired, without a restart', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'skippass-disk-'));
    // A file where the spool directory should be: every write fails, as on a read-only or full disk.
    const broken = join(dataDir, 'disk');
    await writeFile(broken, 'not a directory');
    const spool = fileSpool(join(broken, 'spool'));
    try {
      await t.shop.close();
      t.shop = await startTestApp(t.database, {}, { spool });
      const health = await t.shop.app.inject({ method: 'GET', url: '/healthz' });
      expect(health.statusCode).toBe(200);
      expect(health.json()).toMatchObject({ database: 'up', spoolWritable: false, spooled: null });

      // While the disk is broken, a purchase the database cannot take is refused, not promised.
      await t.database.breakWrites();
      const refused = await t.shop.app.inject({ method: 'POST', url: '/api/purchases', payload: buyerNumber(1) });
      expect(refused.statusCode).toBe(503);

      // The disk is repaired: the same process spools again.
      await rm(broken);
      await new Promise((resolve) => setTimeout(resolve, 1100)); // past the probe's cache
      expect((await t.shop.app.inject({ method: 'GET', url: '/healthz' })).json()).toMatchObject({ spoolWritable: true, spooled: 0 });
      const spooled = await t.shop.app.inject({ method: 'POST', url: '/api/purchases', payload: buyerNumber(2) });
      expect(spooled.statusCode).toBe(201);
      expect(spooled.json().saved).toBe(false);
      await t.database.restoreWrites();
      expect(await t.shop.app.replaySpool()).toMatchObject({ stored: 1 });
    } finally {
      await t.database.restoreWrites().catch(() => {});
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

describe.each(testBackends().filter((backend) => backend.name === 'postgres'))('a server process on $name', (backend) => {
  const t = shopPerTest(backend);
  let outage: DatabaseOutage | undefined;
  let servers: ReturnType<typeof startServer>[] = [];
  let dataDir: string;
  afterEach(async () => {
    for (const server of servers) await server.stop();
    servers = [];
    await outage?.close();
    outage = undefined;
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });
  const server = async (env: Record<string, string>) => {
    dataDir = await mkdtemp(join(tmpdir(), 'skippass-proc-'));
    const started = startServer({ PORT: String(await freePort()), DATA_DIR: dataDir, ...env });
    servers.push(started);
    return started;
  };
  const buyHttp = (base: string, body: object, key: string) =>
    fetch(`${base}/api/purchases`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify(body),
    });

  it('completes a retry once the claim of a process killed -9 mid-purchase lapses: seconds later, not after its payment', async () => {
    const doomed = await server({ DATABASE_URL: t.database.url!, PAYMENT_DELAY_MS: '20000' });
    await doomed.listening();
    void buyHttp(doomed.base, buyerNumber(1), 'killed-mid-payment').catch(() => {});
    await doomed.waitFor('the purchase claimed its key', async () =>
      (await testRows(t.database.db, sql`select 1 from idempotency_keys where key = 'killed-mid-payment'`)).length === 1 ? true : undefined,
    );
    await doomed.stop(); // kill -9: the claim stays behind, and nobody renews it

    // Judged on the database's clock, which decides a lapse, so a slow machine changes nothing.
    const claim = async () =>
      (
        await testRows<{ lapsed: boolean; within_lease: boolean }>(
          t.database.db,
          sql`select locked_until < now() as lapsed, locked_until <= now() + interval '5 seconds' as within_lease
              from idempotency_keys where key = 'killed-mid-payment'`,
        )
      )[0];
    // The dead request's 20 s payment does not hold its key: its claim runs out within seconds (the 5 s lease).
    expect(await claim()).toMatchObject({ within_lease: true });
    for (;;) {
      const before = await claim();
      const answer = await t.shop.app.inject({ method: 'POST', url: '/api/purchases', payload: buyerNumber(1), headers: { 'idempotency-key': 'killed-mid-payment' } });
      if (answer.statusCode === 201) break;
      // Refused only while the lease runs: a retry sent after it lapsed takes the key over.
      expect(answer.statusCode).toBe(409);
      expect(before).toMatchObject({ lapsed: false });
      await sleep(1000); // a retry a second, as a client would, within the per-IP purchase limit
    }
    expect(await t.database.count('purchases')).toBe(1);
  });

  it('starts while PostgreSQL is down, sells into the spool, and finishes start-up when it answers', async () => {
    outage = await databaseOutage(t.database);
    outage.down();
    const shop = await server({ DATABASE_URL: outage.url!, PAYMENT_DELAY_MS: '0', SPOOL_REPLAY_INTERVAL_MS: '200' });
    await shop.listening();
    const waiting = await shop.health();
    expect(waiting).toMatchObject({ status: 503, body: { database: 'down', spoolWritable: true } });

    const sold = await buyHttp(shop.base, buyerNumber(5), 'sold-before-start-up');
    expect(sold.status).toBe(201);
    const { pass, saved } = (await sold.json()) as { pass: { id: string }; saved: boolean };
    expect(saved).toBe(false);

    outage.up();
    await shop.waitFor('it replayed its spool', async () => {
      const health = await shop.health();
      return health?.status === 200 && health.body.spooled === 0 ? true : undefined;
    });
    expect(await shop.health()).toMatchObject({ status: 200, body: { database: 'up', spooled: 0 } });
    const [row] = await testRows<{ order_id: string }>(t.database.db, sql`select order_id from purchases`);
    expect(row?.order_id).toBe(pass.id);
    // The mail worker started too: the confirmation was written as an .eml file and marked sent.
    await shop.waitFor('it sent the confirmation', async () => {
      const [mail] = await testRows<{ status: string }>(t.database.db, sql`select status from outbox`);
      return mail?.status === 'sent' ? true : undefined;
    });
    const [mail] = await testRows<{ status: string }>(t.database.db, sql`select status from outbox`);
    expect(mail?.status).toBe('sent');
  });
});

describe.each(testBackends())('other requests while the database is away, on $name', (backend) => {
  const t = shopPerTest(backend);

  it('answers 503 with Retry-After and the shop\'s message, never a 500', async () => {
    const outage = await databaseOutage(t.database);
    const shop = await startTestApp(t.database, {}, { db: outage.db });
    try {
      const [event] = await testRows<{ id: number }>(
        t.database.db,
        sql`insert into events (title, title_key, starts_at, location, price_cents) values ('Cup Final', 'cup final', now() + interval '1 day', 'Riverside', 500) returning id`,
      );
      outage.down();
      const answers = await Promise.all([
        shop.app.inject({ method: 'GET', url: `/api/events/${event!.id}` }),
        shop.app.inject({ method: 'POST', url: '/api/purchases', payload: { name: 'Ada Lovelace', email: 'ada@example.com', eventId: event!.id } }),
        shop.app.inject({ method: 'POST', url: '/api/contact', payload: { name: 'Ada Lovelace', email: 'ada@example.com' } }),
      ]);
      for (const answer of answers) {
        expect(answer.statusCode).toBe(503);
        expect(answer.headers['retry-after']).toBe('5');
        expect(answer.json().error).toEqual({ code: 'unavailable', message: API_ERRORS.unavailable });
      }
    } finally {
      await shop.close();
      await outage.close();
    }
  });
});
