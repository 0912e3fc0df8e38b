import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { API_ERRORS, VALIDATION } from '../../core/messages.ts';
import { sweepClaims } from './idempotency-queries.ts';
import { fileSpool } from './purchase-spool.ts';
import { shopPerTest, startTestApp } from '../test-support/test-app.ts';
import { testBackends, testRows } from '../test-support/test-databases.ts';

const buyer = { name: 'Ada Lovelace', email: 'ada@example.com', eventName: 'City Derby' };

describe.each(testBackends())('POST /api/purchases on $name', (backend) => {
  const t = shopPerTest(backend);

  const buy = (payload: unknown, headers: Record<string, string> = {}) =>
    t.shop.app.inject({ method: 'POST', url: '/api/purchases', payload: payload as object, headers });

  /** Waits until a request has claimed the key in the database (and is still running). */
  async function claimRowFor(key: string) {
    for (const deadline = Date.now() + 5000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 5))) {
      const rows = await testRows(t.database.db, sql`select 1 from idempotency_keys where key = ${key} and response_status is null`);
      if (rows.length === 1) return;
    }
    throw new Error(`no claim for ${key}`);
  }

  const storedPurchases = () =>
    testRows<{ name: string; email: string; event_name: string; event_type: string; amount: number; order_id: string; created_at: Date | string }>(
      t.database.db,
      sql`select name, email, event_name, event_type, amount, order_id, created_at from purchases order by id`,
    );

  it('sells a pass: 201 with the pass, the purchase and its confirmation email stored together', async () => {
    const response = await buy(buyer);
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body.saved).toBe(true);
    expect(body.pass).toMatchObject({ ...buyer, eventType: 'general', amountCents: 300 });
    expect(body.pass.id).toMatch(/^[0-9A-F]{10}$/);
    expect(new Date(body.pass.purchaseDate).toISOString()).toBe(body.pass.purchaseDate);
    expect(body.pass.timestamp).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M UTC$/);

    const [row] = await storedPurchases();
    expect(row).toMatchObject({
      name: buyer.name,
      email: buyer.email,
      event_name: buyer.eventName,
      event_type: 'general',
      amount: 300,
      order_id: body.pass.id,
    });
    expect(new Date(row!.created_at).toISOString()).toBe(body.pass.purchaseDate);

    const outbox = await testRows<{ kind: string; ref: string; recipient: string; status: string; payload: unknown }>(
      t.database.db,
      sql`select kind, ref, recipient, status, payload from outbox`,
    );
    expect(outbox).toHaveLength(1);
    expect(outbox[0]).toMatchObject({ kind: 'purchase_confirmation', ref: body.pass.id, recipient: buyer.email, status: 'pending' });
    const payload = typeof outbox[0]!.payload === 'string' ? JSON.parse(outbox[0]!.payload) : outbox[0]!.payload;
    expect(payload).toMatchObject({ name: buyer.name, eventName: buyer.eventName, orderId: body.pass.id, timestamp: body.pass.timestamp });
  });

  it('stores the sanitised values, not what was typed', async () => {
    const response = await buy({ name: '  <b>Ada</b> ', email: ' ada@example.com ', eventName: '"City" & Derby' });
    expect(response.statusCode).toBe(201);
    expect(response.json().pass).toMatchObject({ name: 'bAda/b', eventName: 'City  Derby' });
    expect((await storedPurchases())[0]).toMatchObject({ name: 'bAda/b', event_name: 'City  Derby' });
  });

  it('strips control characters: a NUL in a name neither fails nor spools the purchases sharing its statement', async () => {
    const names = ['Ada\u0000 Lovelace', 'Grace Hopper', 'Alan\tTuring\r\n'];
    const responses = await Promise.all(names.map((name) => buy({ ...buyer, name })));
    expect(responses.map((response) => response.statusCode)).toEqual([201, 201, 201]);
    expect(responses.map((response) => response.json().saved)).toEqual([true, true, true]);
    expect(responses.map((response) => response.json().pass.name)).toEqual(['Ada Lovelace', 'Grace Hopper', 'AlanTuring']);
    expect((await storedPurchases()).map((row) => row.name).sort()).toEqual(['Ada Lovelace', 'AlanTuring', 'Grace Hopper']);
    expect((await t.shop.app.inject({ method: 'GET', url: '/healthz' })).json().spooled).toBe(0);
  });

  it('ignores the price, ID and event type a client sends', async () => {
    const response = await buy({ ...buyer, amount: 0.01, price: 1, id: 'AAAAAAAAAA', orderId: 'AAAAAAAAAA', eventType: 'vip' });
    expect(response.statusCode).toBe(201);
    const { pass } = response.json();
    expect(pass).toMatchObject({ amountCents: 300, eventType: 'general' });
    expect(pass.id).not.toBe('AAAAAAAAAA');
    expect((await storedPurchases())[0]).toMatchObject({ amount: 300, event_type: 'general', order_id: pass.id });
  });

  it.each([
    [{ ...buyer, name: '' }, VALIDATION.fillAllFields],
    [{ email: buyer.email, eventName: buyer.eventName }, VALIDATION.fillAllFields],
    [{ ...buyer, email: 'ada@example' }, VALIDATION.invalidEmail],
    [{ ...buyer, name: 'A' }, VALIDATION.nameAndEventMin],
    [{ ...buyer, eventName: 'X' }, VALIDATION.nameAndEventMin],
    [{ ...buyer, name: 'n'.repeat(101) }, VALIDATION.nameMax],
    [{ ...buyer, email: `${'e'.repeat(250)}@example.com` }, VALIDATION.emailMax],
    [{ ...buyer, eventName: 'e'.repeat(101) }, VALIDATION.eventNameMax],
  ])('answers 400 with the spec message for %j and stores nothing', async (payload, message) => {
    const response = await buy(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: { code: 'validation_failed', message } });
    expect(await t.database.count('purchases')).toBe(0);
    expect(await t.database.count('outbox')).toBe(0);
  });

  it.each([
    ['a wrong type', { ...buyer, name: 123 }, /^name: /],
    ['an unknown field', { ...buyer, coupon: 'FREE' }, /coupon/],
    ['an array', [buyer], /expected object/],
  ])('answers 400 naming the problem for %s', async (_label, payload, message) => {
    const response = await buy(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('invalid_request');
    expect(response.json().error.message).toMatch(message);
  });

  it('answers 400 for malformed JSON and 415 for a form post, never a 500 or a stack trace', async () => {
    const badJson = await buy('{"name": "Ada",', { 'content-type': 'application/json' });
    expect(badJson.statusCode).toBe(400);
    expect(badJson.json()).toEqual({ error: { code: 'invalid_json', message: API_ERRORS.invalidJson } });

    const form = await buy('name=Ada', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(form.statusCode).toBe(415);
    expect(form.json().error.message).toBe(API_ERRORS.unsupportedMediaType);

    const empty = await t.shop.app.inject({ method: 'POST', url: '/api/purchases' });
    expect(empty.statusCode).toBe(400);
    expect(empty.body).not.toMatch(/at .*\.ts:\d+/);
  });

  it('answers 413 for a huge body', async () => {
    const response = await buy({ ...buyer, name: 'x'.repeat(100_000) });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ error: { code: 'payload_too_large', message: API_ERRORS.bodyTooLarge } });
    expect(await t.database.count('purchases')).toBe(0);
  });

  describe('Idempotency-Key', () => {
    it('returns the first response to a retry and creates nothing more', async () => {
      const headers = { 'idempotency-key': 'order-attempt-1' };
      const first = await buy(buyer, headers);
      const retry = await buy(buyer, headers);
      expect(first.statusCode).toBe(201);
      expect(retry.statusCode).toBe(201);
      expect(retry.json()).toEqual(first.json());
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(await t.database.count('purchases')).toBe(1);
      expect(await t.database.count('outbox')).toBe(1);
      // The stored answer is the API's own, the price in cents: nothing maps it on the way out.
      const [stored] = await testRows<{ body: unknown }>(t.database.db, sql`select response_body as body from idempotency_keys where key = 'order-attempt-1'`);
      expect(stored!.body).toEqual(first.json());
      expect(first.json().pass.amountCents).toBe(300);
    });

    it('answers 422 when the same key comes with a different body', async () => {
      const headers = { 'idempotency-key': 'order-attempt-2' };
      expect((await buy(buyer, headers)).statusCode).toBe(201);
      const other = await buy({ ...buyer, eventName: 'Cup Final' }, headers);
      expect(other.statusCode).toBe(422);
      expect(other.json()).toEqual({ error: { code: 'idempotency_key_reused', message: API_ERRORS.idempotencyKeyReused } });
      expect(await t.database.count('purchases')).toBe(1);
    });

    it('makes one purchase from a double click: concurrent requests with one key', async () => {
      await t.shop.close();
      t.shop = await startTestApp(t.database, { PAYMENT_DELAY_MS: '150' });
      const headers = { 'idempotency-key': 'double-click' };
      const [a, b] = await Promise.all([buy(buyer, headers), buy(buyer, headers)]);
      expect([a.statusCode, b.statusCode].sort()).toEqual([201, 409]);
      const conflict = a.statusCode === 409 ? a : b;
      expect(conflict.json().error).toEqual({ code: 'idempotency_request_in_progress', message: API_ERRORS.idempotencyInProgress });
      const later = await buy(buyer, headers);
      expect(later.statusCode).toBe(201);
      expect(later.json().pass.id).toBe((a.statusCode === 201 ? a : b).json().pass.id);
      expect(await t.database.count('purchases')).toBe(1);
    });

    it('lets a second process see the first one still working (claim shared in the database)', async () => {
      await t.shop.close();
      t.shop = await startTestApp(t.database, { PAYMENT_DELAY_MS: '500' });
      const other = await startTestApp(t.database, { PAYMENT_DELAY_MS: '0' });
      try {
        const headers = { 'idempotency-key': 'two-processes' };
        const first = buy(buyer, headers);
        await claimRowFor('two-processes');
        const second = await other.app.inject({ method: 'POST', url: '/api/purchases', payload: buyer, headers });
        expect(second.statusCode).toBe(409);
        expect((await first).statusCode).toBe(201);
        expect(await t.database.count('purchases')).toBe(1);
      } finally {
        await other.close();
      }
    });

    it('keeps keys at least 24 hours', async () => {
      await buy(buyer, { 'idempotency-key': 'kept' });
      const [row] = await testRows<{ hours: number }>(
        t.database.db,
        sql`select extract(epoch from expires_at - now()) / 3600 as hours from idempotency_keys where key = 'kept'`,
      );
      expect(Number(row!.hours)).toBeGreaterThanOrEqual(23.99);
    });

    it('replays a key for 24 hours; then the sweeper removes it and the key may buy again', async () => {
      const headers = { 'idempotency-key': 'one-day' };
      const first = await buy(buyer, headers);
      const age = async (interval: string) =>
        testRows(
          t.database.db,
          sql`update idempotency_keys set created_at = created_at - ${interval}::interval, expires_at = expires_at - ${interval}::interval`,
        );

      await age('23 hours 58 minutes');
      const withinADay = await buy(buyer, headers);
      expect(withinADay.headers['idempotent-replayed']).toBe('true');
      expect(withinADay.json()).toEqual(first.json());
      expect((await sweepClaims(t.database.db)).expired).toBe(0);

      await age('4 minutes');
      expect((await sweepClaims(t.database.db)).expired).toBe(1);
      expect(await t.database.count('idempotency_keys')).toBe(0);
      const nextDay = await buy(buyer, headers);
      expect(nextDay.statusCode).toBe(201);
      expect(nextDay.headers['idempotent-replayed']).toBeUndefined();
      expect(nextDay.json().pass.id).not.toBe(first.json().pass.id);
      expect(await t.database.count('purchases')).toBe(2);
    });

    it.each([['a'.repeat(256)], ['has space'], ['']])('answers 400 for the malformed key %j', async (key) => {
      const response = await buy(buyer, { 'idempotency-key': key });
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toEqual({ code: 'invalid_idempotency_key', message: API_ERRORS.invalidIdempotencyKey });
    });
  });

  describe('payment', () => {
    it('answers 402 when the payment is declined, stores nothing and frees the key for a retry', async () => {
      await t.shop.close();
      t.shop = await startTestApp(t.database, { PAYMENT_FAILURE_RATE: '1' });
      const headers = { 'idempotency-key': 'declined-once' };
      const declined = await buy(buyer, headers);
      expect(declined.statusCode).toBe(402);
      expect(declined.json()).toEqual({ error: { code: 'payment_failed', message: API_ERRORS.paymentFailed } });
      expect(await t.database.count('purchases')).toBe(0);
      expect(await t.database.count('outbox')).toBe(0);

      await t.shop.close();
      t.shop = await startTestApp(t.database);
      expect((await buy(buyer, headers)).statusCode).toBe(201);
    });
  });

  describe('pass IDs', () => {
    it('draws a new ID when one is already taken, never storing it twice', async () => {
      const ids = ['AAAAAAAAAA', 'AAAAAAAAAA', 'BBBBBBBBBB'];
      await t.shop.close();
      t.shop = await startTestApp(t.database, {}, { newId: () => ids.shift()! });
      const first = await buy(buyer);
      const second = await buy({ ...buyer, name: 'Grace Hopper' });
      expect(first.json().pass.id).toBe('AAAAAAAAAA');
      expect(second.statusCode).toBe(201);
      expect(second.json().pass.id).toBe('BBBBBBBBBB');
      expect((await storedPurchases()).map((row) => row.order_id)).toEqual(['AAAAAAAAAA', 'BBBBBBBBBB']);
      expect(await t.database.count('outbox')).toBe(2);
    });
  });

  describe('when the database fails after the payment', () => {
    afterEach(async () => {
      await t.database.restoreWrites().catch(() => {});
    });

    it('confirms the pass with saved:false, spools it, and replays it once the database answers', async () => {
      await t.database.breakWrites();
      const response = await buy(buyer, { 'idempotency-key': 'spooled' });
      expect(response.statusCode).toBe(201);
      const { pass, saved } = response.json();
      expect(saved).toBe(false);
      expect(pass.id).toMatch(/^[0-9A-F]{10}$/);

      const health = await t.shop.app.inject({ method: 'GET', url: '/healthz' });
      expect(health.json().spooled).toBe(1);

      // A retry while the purchase waits in the spool repeats the first answer and makes nothing new.
      const retry = await buy(buyer, { 'idempotency-key': 'spooled' });
      expect(retry.json()).toEqual(response.json());

      expect(await t.shop.app.replaySpool()).toEqual({ stored: 0, quarantined: 0, waiting: 1 });
      await t.database.restoreWrites();
      expect(await t.shop.app.replaySpool()).toEqual({ stored: 1, quarantined: 0, waiting: 0 });

      const [row] = await storedPurchases();
      expect(row).toMatchObject({ order_id: pass.id, name: buyer.name, amount: 300 });
      expect(new Date(row!.created_at).toISOString()).toBe(pass.purchaseDate);
      expect(await t.database.count('outbox')).toBe(1);
      expect((await t.shop.app.inject({ method: 'GET', url: '/healthz' })).json().spooled).toBe(0);

      // Replaying again finds nothing; the key now answers from the database.
      expect(await t.shop.app.replaySpool()).toEqual({ stored: 0, quarantined: 0, waiting: 0 });
      const afterReplay = await buy(buyer, { 'idempotency-key': 'spooled' });
      expect(afterReplay.json()).toEqual(response.json());
      expect(await t.database.count('purchases')).toBe(1);
    });

    it('answers 503 when the spool fails too, and frees the key so a retry can buy', async () => {
      await t.shop.close();
      const spoolDir = await mkdtemp(join(tmpdir(), 'skippass-spool-'));
      let diskFull = true;
      const disk = fileSpool(spoolDir);
      const spool = {
        ...disk,
        write: async (record: Parameters<typeof disk.write>[0]) => {
          if (diskFull) throw new Error('ENOSPC: no space left on device');
          return disk.write(record);
        },
      };
      try {
        t.shop = await startTestApp(t.database, {}, { spool });
        const headers = { 'idempotency-key': 'no-promise' };
        await t.database.breakWrites();
        const unavailable = await buy(buyer, headers);
        expect(unavailable.statusCode).toBe(503);
        expect(unavailable.json().error).toEqual({ code: 'unavailable', message: API_ERRORS.unavailable });

        await t.database.restoreWrites();
        diskFull = false;
        const retry = await buy(buyer, headers);
        expect(retry.statusCode).toBe(201);
        expect(retry.json().saved).toBe(true);
        expect(await t.database.count('purchases')).toBe(1);
        expect(await disk.count()).toBe(0);
      } finally {
        await rm(spoolDir, { recursive: true, force: true });
      }
    });

    it('keeps spooled purchases across a restart and stores them from the new process', async () => {
      await t.database.breakWrites();
      const response = await buy(buyer);
      expect(response.json().saved).toBe(false);
      await t.shop.app.close();

      await t.database.restoreWrites();
      const restarted = await startTestApp(t.database, { DATA_DIR: t.shop.dataDir });
      try {
        expect(await restarted.app.replaySpool()).toMatchObject({ stored: 1 });
        expect((await storedPurchases())[0]?.order_id).toBe(response.json().pass.id);
      } finally {
        await restarted.app.close();
      }
    });
  });

  it('limits purchases per client IP with a clear 429', async () => {
    await t.shop.close();
    t.shop = await startTestApp(t.database, { RATE_LIMIT_PER_MINUTE: '2' });
    expect((await buy(buyer)).statusCode).toBe(201);
    expect((await buy(buyer)).statusCode).toBe(201);
    const limited = await buy(buyer);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ error: { code: 'rate_limited', message: API_ERRORS.tooManyRequests } });
  });
});
