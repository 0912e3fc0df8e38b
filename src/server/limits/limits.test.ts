import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { API_ERRORS } from '../../core/messages.ts';
import { type Db, openPostgres } from '../db/database.ts';
import type { PaymentProvider } from '../purchases/payment-provider.ts';
import { signIn } from '../test-support/staff.ts';
import { startTestApp, type TestApp } from '../test-support/test-app.ts';
import { databasePerBlock, testBackends, testRows } from '../test-support/test-databases.ts';
import { AUTH_TOO_MANY } from './limits.ts';

const buyer = { name: 'Ada Lovelace', email: 'ada@example.com', eventName: 'City Derby' };

describe.each(testBackends())('shared limits on $name', (backend) => {
  const t = databasePerBlock(backend);
  const opened: Array<TestApp | { close(): Promise<void> }> = [];
  afterEach(async () => {
    for (const item of opened.splice(0).reverse()) await item.close();
  });

  /** Every charge the app asked for (a refused purchase must not be one). */
  let charges = 0;
  const payment: PaymentProvider = {
    async charge() {
      charges++;
      return { ok: true };
    },
    refund: async ({ reference }) => ({ ok: true, reference }),
  };

  /**
   * Two shop processes on one database: on PostgreSQL the second has a pool of its own, as a second
   * server would; PGlite is one process, so both apps share its one connection.
   */
  async function twoShops(env: Record<string, string>) {
    charges = 0;
    const first = await startTestApp(t.database, env, { payment });
    opened.push(first);
    let db: Db = t.database.db;
    if (t.database.url) {
      const pool = openPostgres(t.database.url, 2);
      opened.push(pool);
      db = pool.db;
    }
    const second = await startTestApp({ ...t.database, db }, env, { payment });
    opened.push(second);
    return [first, second] as const;
  }

  const buy = (shop: TestApp, payload: object = buyer, remoteAddress = '127.0.0.1') =>
    shop.app.inject({ method: 'POST', url: '/api/purchases', payload, remoteAddress });

  it('gives two instances one purchase allowance per client IP', async () => {
    const shops = await twoShops({ RATE_LIMIT_PER_MINUTE: '4', CONFIRMATIONS_PER_ADDRESS: '0' });
    const statuses = [];
    for (let n = 0; n < 8; n++) statuses.push((await buy(shops[n % 2]!, { ...buyer, email: `buyer${n}@example.com` })).statusCode);
    expect(statuses).toEqual([201, 201, 201, 201, 429, 429, 429, 429]);
    const limited = await buy(shops[0], { ...buyer, email: 'late@example.com' });
    expect(limited.json()).toEqual({ error: { code: 'rate_limited', message: API_ERRORS.tooManyRequests } });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(charges).toBe(4);
    // Another client has its own allowance.
    expect((await buy(shops[1], buyer, '10.0.0.2')).statusCode).toBe(201);
  });

  it('gives two instances one sign-in allowance per client IP', async () => {
    const shops = await twoShops({ AUTH_RATE_LIMIT_PER_MINUTE: '4' });
    const statuses = [];
    for (let n = 0; n < 8; n++) statuses.push((await signIn(shops[n % 2]!.app, `guess${n}@example.com`, 'guess-guess')).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401, 429, 429, 429, 429]);
  });

  it('gives two instances one sign-in allowance per email address, the IP limit off', async () => {
    const shops = await twoShops({ AUTH_RATE_LIMIT_PER_MINUTE: '0' });
    const statuses = [];
    for (let n = 0; n < 8; n++) statuses.push((await signIn(shops[n % 2]!.app, 'boss@example.com', `guess-${n}`)).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    const limited = await signIn(shops[1].app, 'BOSS@example.com', 'guess-guess');
    expect(limited.json()).toEqual({ error: { code: 'rate_limited', message: AUTH_TOO_MANY } });
    // A +tag is the same mailbox: it does not buy a fresh allowance for verification mail.
    const tagged = await shops[0].app.inject({ method: 'POST', url: '/api/auth/send-verification-email', payload: { email: 'boss+1@example.com' } });
    expect(tagged.statusCode).toBe(429);
  });

  it('gives two instances one contact allowance per client IP', async () => {
    const shops = await twoShops({ CONTACT_RATE_LIMIT_PER_MINUTE: '2' });
    const contact = (shop: TestApp, email: string) => shop.app.inject({ method: 'POST', url: '/api/contact', payload: { name: 'Grace', email } });
    expect((await contact(shops[0], 'a1@example.com')).statusCode).toBe(202);
    expect((await contact(shops[1], 'a2@example.com')).statusCode).toBe(202);
    const limited = await contact(shops[0], 'a3@example.com');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ error: { code: 'rate_limited', message: API_ERRORS.tooManyRequests } });
    expect((await contact(shops[1], 'a4@example.com')).statusCode).toBe(429);
    expect(await t.database.count('outbox')).toBe(2);
  });

  describe('purchase confirmations to one address', () => {
    const confirmations = async (email: string) =>
      (await testRows(t.database.db, sql`select 1 from outbox where kind = 'purchase_confirmation' and lower(recipient) = ${email}`)).length;

    it('lets a family buy 10 passes under one email, then refuses the 11th before charging', async () => {
      const [shop] = await twoShops({ RATE_LIMIT_PER_MINUTE: '1000' });
      for (let n = 0; n < 10; n++) expect((await buy(shop, { ...buyer, name: `Child ${n}` })).statusCode).toBe(201);
      const refused = await buy(shop, { ...buyer, name: 'One Too Many' });
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({ error: { code: 'recipient_rate_limited', message: API_ERRORS.tooManyConfirmations } });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(60);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(600);
      expect(charges).toBe(10);
      expect(await confirmations('ada@example.com')).toBe(10);
      // Letter case and a +tag land in the same mailbox.
      expect((await buy(shop, { ...buyer, email: 'ADA+again@Example.com' })).statusCode).toBe(429);
      // Another address, or the same one from another client, is its own budget.
      expect((await buy(shop, { ...buyer, email: 'grace@example.com' })).statusCode).toBe(201);
      expect((await buy(shop, buyer, '10.0.0.2')).statusCode).toBe(201);
    });

    it('holds under a burst: 60 concurrent purchases to one address, across two instances, send 10 mails', async () => {
      const shops = await twoShops({ RATE_LIMIT_PER_MINUTE: '1000' });
      const responses = await Promise.all(
        Array.from({ length: 60 }, (_, n) => buy(shops[n % 2]!, { ...buyer, email: 'stranger@example.com', name: `Bomb ${n}` })),
      );
      const statuses = responses.map((response) => response.statusCode);
      expect(statuses.filter((status) => status === 201)).toHaveLength(10);
      expect(statuses.filter((status) => status === 429)).toHaveLength(50);
      expect(charges).toBe(10);
      expect(await confirmations('stranger@example.com')).toBe(10);
    });

    it("caps the event page's purchases too, before the event is looked up or charged", async () => {
      const [shop] = await twoShops({ RATE_LIMIT_PER_MINUTE: '1000' });
      const [event] = await testRows<{ id: number }>(
        t.database.db,
        sql`insert into events (title, title_key, starts_at, location, price_cents) values ('City Derby', 'city derby', now() + interval '7 days', 'Riverside', 1250) returning id`,
      );
      const forEvent = { name: 'Ada Lovelace', email: 'ada@example.com', eventId: Number(event!.id) };
      for (let n = 0; n < 10; n++) expect((await buy(shop, forEvent)).statusCode).toBe(201);
      const refused = await buy(shop, forEvent);
      expect(refused.statusCode).toBe(429);
      expect(refused.json().error.message).toBe(API_ERRORS.tooManyConfirmations);
      // The home flow to the same address shares the budget: both send the same mail.
      expect((await buy(shop, buyer)).statusCode).toBe(429);
      expect(charges).toBe(10);
    });

    it('can be turned off with CONFIRMATIONS_PER_ADDRESS=0', async () => {
      const [shop] = await twoShops({ RATE_LIMIT_PER_MINUTE: '1000', CONFIRMATIONS_PER_ADDRESS: '0' });
      for (let n = 0; n < 12; n++) expect((await buy(shop)).statusCode).toBe(201);
    });
  });

  describe('while the database is away', () => {
    /** The limits table goes away (every limit statement fails) for the length of `body`. */
    async function withoutLimitsTable(body: () => Promise<void>) {
      await testRows(t.database.db, sql`alter table rate_limits rename to rate_limits_away`);
      try {
        await body();
      } finally {
        await testRows(t.database.db, sql`alter table rate_limits_away rename to rate_limits`);
      }
    }

    it('fails open: purchases are still sold, and spooled when the purchase table is away too, and limited in memory', async () => {
      const [shop] = await twoShops({ RATE_LIMIT_PER_MINUTE: '3' });
      await withoutLimitsTable(async () => {
        expect((await buy(shop)).statusCode).toBe(201);
        await t.database.breakWrites();
        try {
          const spooled = await buy(shop);
          expect(spooled.statusCode).toBe(201);
          expect(spooled.json().saved).toBe(false);
        } finally {
          await t.database.restoreWrites();
        }
        expect((await buy(shop)).statusCode).toBe(201);
        expect((await buy(shop)).statusCode).toBe(429);
      });
    });

    it('fails open for sign-in and contact as well, limited in memory', async () => {
      const [shop] = await twoShops({ AUTH_RATE_LIMIT_PER_MINUTE: '0', CONTACT_RATE_LIMIT_PER_MINUTE: '1' });
      await withoutLimitsTable(async () => {
        for (let n = 0; n < 5; n++) expect((await signIn(shop.app, 'boss@example.com', 'guess-guess')).statusCode).toBe(401);
        expect((await signIn(shop.app, 'boss@example.com', 'guess-guess')).statusCode).toBe(429);
        const contact = (email: string) => shop.app.inject({ method: 'POST', url: '/api/contact', payload: { name: 'Grace', email } });
        expect((await contact('a1@example.com')).statusCode).toBe(202);
        expect((await contact('a2@example.com')).statusCode).toBe(429);
      });
    });
  });
});
