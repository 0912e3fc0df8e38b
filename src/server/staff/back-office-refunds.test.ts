import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { PaymentProvider, RefundRequest, RefundResult } from '../purchases/payment-provider.ts';
import { staffSession } from '../test-support/staff.ts';
import { shopPerTest, startTestApp, type ShopPerTest } from '../test-support/test-app.ts';
import { testBackends, testRows } from '../test-support/test-databases.ts';

/**
 * A provider as a real one behaves (ADR 0030): it refunds a charge once per reference, a repeat call
 * answering that same refund, and each refund answers only when the test says so.
 */
function heldRefunds() {
  const calls: RefundRequest[] = [];
  const refunds = new Map<string, { answer: Promise<RefundResult>; give: (result: RefundResult) => void }>();
  const asked = new Map<string, () => void>();
  const askedFor = new Map<string, Promise<void>>();
  const askedPromise = (reference: string) => {
    if (!askedFor.has(reference)) askedFor.set(reference, new Promise<void>((resolve) => asked.set(reference, resolve)));
    return askedFor.get(reference)!;
  };
  const refundOf = (reference: string) => {
    let refund = refunds.get(reference);
    if (!refund) {
      let give!: (result: RefundResult) => void;
      const answer = new Promise<RefundResult>((resolve) => (give = resolve));
      refund = { answer, give };
      refunds.set(reference, refund);
    }
    return refund;
  };
  const provider: PaymentProvider = {
    charge: async () => ({ ok: true }),
    refund(request) {
      calls.push(request);
      askedPromise(request.reference);
      asked.get(request.reference)!();
      return refundOf(request.reference).answer;
    },
  };
  return {
    provider,
    calls,
    /** Settles once the provider has been asked to refund this reference. */
    askedFor: askedPromise,
    /** The provider's answer for this reference, now and to every later call. */
    answer: (reference: string, result: RefundResult) => refundOf(reference).give(result),
  };
}

describe.each(testBackends())('a void with refund never holds the database while the provider answers, on $name', (backend) => {
  let held: ReturnType<typeof heldRefunds>;
  const payment: PaymentProvider = {
    charge: (request) => held.provider.charge(request),
    refund: (request) => held.provider.refund(request),
  };
  const t: ShopPerTest = shopPerTest(backend, { AUTH_RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_PER_MINUTE: '0' }, { payment });
  let cookie: string;
  beforeEach(async () => {
    held = heldRefunds();
    cookie = await staffSession(t.shop.app, t.database.db, 'boss@example.com', { admin: true });
  });

  const post = (url: string, payload: object, withCookie = true) =>
    t.shop.app.inject({ method: 'POST', url, headers: withCookie ? { cookie } : {}, payload });
  const voidPass = (orderId: string, refund = true) => post(`/api/admin/purchases/${orderId}/void`, { reason: 'Bought twice', refund });
  async function buy(email = 'ada@example.com'): Promise<string> {
    const response = await post('/api/purchases', { name: 'Ada Lovelace', email, eventName: 'City Derby' }, false);
    expect(response.statusCode).toBe(201);
    return response.json().pass.id as string;
  }

  it('answers /healthz, sells a pass and starts another void while a refund is in flight', async () => {
    const [first, second] = [await buy(), await buy('grace@example.com')];
    const happened: string[] = [];
    const note = <T>(what: string, promise: Promise<T>) => promise.then((value) => (happened.push(what), value));

    const firstVoid = voidPass(first);
    await held.askedFor(first);
    const secondVoid = voidPass(second);
    // On a database held by the first void, none of these could answer before its refund does. The
    // refunds are answered once they all have, or (were they blocked) after a while, so a blocked
    // shop fails on the order below instead of waiting forever.
    const answerRefunds = (when: string) => {
      happened.push(when);
      held.answer(first, { ok: true, reference: 'refund-1' });
      held.answer(second, { ok: true, reference: 'refund-2' });
    };
    const fallback = setTimeout(() => answerRefunds('refunds answered after a wait'), 15_000);
    const during = await Promise.all([
      note('healthz', t.shop.app.inject({ method: 'GET', url: '/healthz' })),
      note('purchase', buy('linus@example.com')),
      note('second void reached the provider', held.askedFor(second)),
    ]);
    clearTimeout(fallback);
    answerRefunds('refunds answered');

    expect(happened.slice(0, 3).sort()).toEqual(['healthz', 'purchase', 'second void reached the provider']);
    expect(happened[3]).toBe('refunds answered');
    expect(during[0].statusCode).toBe(200);
    expect(during[0].json()).toMatchObject({ status: 'ok' });
    const answers = await Promise.all([firstVoid, secondVoid]);
    expect(answers[0].statusCode).toBe(200);
    expect(answers[0].json()).toMatchObject({ orderId: first, refundStatus: 'refunded', refundedCents: 300, refundReference: 'refund-1' });
    expect(answers[1].json()).toMatchObject({ orderId: second, refundStatus: 'refunded', refundReference: 'refund-2' });
  });

  it('says a refund is pending when the provider does not answer by the deadline, and settles it once it does', async () => {
    await t.shop.close();
    t.shop = await startTestApp(t.database, { AUTH_RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_PER_MINUTE: '0' }, { payment, providerDeadlineMs: 200 });
    cookie = await staffSession(t.shop.app, t.database.db, 'boss2@example.com', { admin: true });
    const id = await buy();

    const pending = await voidPass(id);
    expect(pending.statusCode).toBe(200);
    expect(pending.json()).toMatchObject({ orderId: id, refundStatus: 'pending', refundedCents: 0, refundReference: null });
    // The void stands: a second one is refused, and the door sees it void.
    const again = await voidPass(id);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('already_voided');
    expect(await mailsFor(id)).toEqual([]);
    const row = async () =>
      (await t.shop.app.inject({ method: 'GET', url: '/api/admin/purchases', headers: { cookie } })).json().items.find(
        (item: { orderId: string }) => item.orderId === id,
      );
    expect(await row()).toMatchObject({ refundPending: true, refundedCents: 0 });

    // Still no answer: the settler leaves it pending.
    await vi.waitFor(async () => expect(await t.shop.app.settleRefunds()).toEqual({ refunded: 0, refused: 0, pending: 1 }), { timeout: 60_000, interval: 50 });
    expect(await refundStatus(id)).toBe('pending');

    held.answer(id, { ok: true, reference: 'refund-late' });
    await vi.waitFor(async () => expect((await t.shop.app.settleRefunds()).refunded).toBe(1), { timeout: 60_000, interval: 50 });
    expect(await refundStatus(id)).toBe('refunded');
    expect(await t.shop.app.settleRefunds()).toEqual({ refunded: 0, refused: 0, pending: 0 });
    expect(held.calls.every((call) => call.reference === id && call.amountCents === 300)).toBe(true);
    expect(await refundEntries(id)).toEqual([{ actor: 'refund settler', details: { refundedCents: 300, refundReference: 'refund-late' } }]);
    const mails = await mailsFor(id);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ recipient: 'ada@example.com', payload: { refundedCents: 300 } });
    expect(await row()).toMatchObject({ refundPending: false, refundedCents: 300 });
  });

  it('makes one refund per pass when two instances settle and staff retry the void at once', async () => {
    await t.shop.close();
    const options = { payment, providerDeadlineMs: 200 };
    t.shop = await startTestApp(t.database, { AUTH_RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_PER_MINUTE: '0' }, options);
    const other = await startTestApp(t.database, { AUTH_RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_PER_MINUTE: '0' }, options);
    try {
      cookie = await staffSession(t.shop.app, t.database.db, 'boss3@example.com', { admin: true });
      const id = await buy();
      expect((await voidPass(id)).json()).toMatchObject({ refundStatus: 'pending' });
      held.answer(id, { ok: true, reference: 'refund-once' });
      // Wait until the refund is due to the settlers, then race both instances' settlers and a retried void.
      await vi.waitFor(async () => {
        const [mine, theirs, retried] = await Promise.all([t.shop.app.settleRefunds(), other.app.settleRefunds(), voidPass(id)]);
        expect(retried.statusCode).toBe(409);
        expect(mine.pending + theirs.pending).toBe(0);
        expect(await refundStatus(id)).toBe('refunded');
      }, { timeout: 60_000, interval: 50 });
      expect(await refundStatus(id)).toBe('refunded');
      expect(new Set(held.calls.map((call) => call.reference))).toEqual(new Set([id]));
      expect(await refundEntries(id)).toHaveLength(1);
      expect(await mailsFor(id)).toHaveLength(1);
      const stats = (await t.shop.app.inject({ method: 'GET', url: '/api/admin/stats', headers: { cookie } })).json();
      expect(stats).toMatchObject({ voidedPasses: 1, refundedCents: 300 });
    } finally {
      await other.close();
    }
  });

  it('settles, once, a refund the provider made but the void could not record', async () => {
    await t.shop.close();
    t.shop = await startTestApp(t.database, { AUTH_RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_PER_MINUTE: '0' }, { payment, providerDeadlineMs: 200 });
    cookie = await staffSession(t.shop.app, t.database.db, 'boss4@example.com', { admin: true });
    const id = await buy();
    held.answer(id, { ok: true, reference: 'refund-made' });
    // The record step fails, as if the process died between the provider's answer and the write.
    const crash = sql`create function refund_record_fails() returns trigger language plpgsql as $$
          begin raise exception 'simulated crash before the refund was recorded'; end $$`;
    await testRows(t.database.db, crash);
    await testRows(
      t.database.db,
      // Fires on whatever writes the refund down (an update here, an insert before ADR 0030), not on a pending void.
      sql`create trigger refund_record_fails before insert or update on pass_voids for each row when (new.refunded_cents > 0)
          execute function refund_record_fails()`,
    );
    const recover = async () => {
      await testRows(t.database.db, sql`drop trigger if exists refund_record_fails on pass_voids`);
      await testRows(t.database.db, sql`drop function if exists refund_record_fails()`);
    };
    try {
      const response = await voidPass(id);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ refundStatus: 'pending' });
      expect(held.calls).toHaveLength(1);
      expect(await mailsFor(id)).toEqual([]);

      await recover();
      await vi.waitFor(async () => expect((await t.shop.app.settleRefunds()).refunded).toBe(1), { timeout: 60_000, interval: 50 });
      expect(await t.shop.app.settleRefunds()).toEqual({ refunded: 0, refused: 0, pending: 0 });
      expect(await refundStatus(id)).toBe('refunded');
      expect(held.calls.map((call) => call.reference)).toEqual([id, id]);
      expect(await refundEntries(id)).toEqual([{ actor: 'refund settler', details: { refundedCents: 300, refundReference: 'refund-made' } }]);
      expect(await mailsFor(id)).toHaveLength(1);
    } finally {
      await recover();
    }
  });

  it('keeps the void when the provider refuses a refund it had left pending, and tells staff and the buyer', async () => {
    await t.shop.close();
    t.shop = await startTestApp(t.database, { AUTH_RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_PER_MINUTE: '0' }, { payment, providerDeadlineMs: 200 });
    cookie = await staffSession(t.shop.app, t.database.db, 'boss5@example.com', { admin: true });
    const id = await buy();
    expect((await voidPass(id)).json()).toMatchObject({ refundStatus: 'pending' });
    held.answer(id, { ok: false, reason: 'card closed' });
    await vi.waitFor(async () => expect((await t.shop.app.settleRefunds()).refused).toBe(1), { timeout: 60_000, interval: 50 });
    expect(await refundStatus(id)).toBe('refused');
    const [entry] = await testRows<{ actor: string; details: unknown }>(
      t.database.db,
      sql`select actor, details from staff_actions where action = 'pass.refund_refused' and subject = ${id}`,
    );
    expect(entry).toEqual({ actor: 'refund settler', details: { reason: 'card closed' } });
    expect(await mailsFor(id)).toEqual([expect.objectContaining({ payload: expect.objectContaining({ refundedCents: 0 }) })]);
  });

  const refundStatus = async (orderId: string) =>
    (await testRows<{ refund_status: string }>(t.database.db, sql`select refund_status from pass_voids where order_id = ${orderId}`))[0]
      ?.refund_status;
  const refundEntries = (orderId: string) =>
    testRows<{ actor: string; details: unknown }>(
      t.database.db,
      sql`select actor, details from staff_actions where action = 'pass.refund' and subject = ${orderId} order by id`,
    );
  const mailsFor = (orderId: string) =>
    testRows<{ recipient: string; payload: unknown }>(
      t.database.db,
      sql`select recipient, payload from outbox where kind = 'pass_voided' and ref = ${orderId} order by id`,
    );
});
