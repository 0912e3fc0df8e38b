import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PaymentProvider, RefundResult } from '../purchases/payment-provider.ts';
import { runAdminCommand } from '../admin-socket.ts';
import { cookieFrom, signIn, staffSession } from '../test-support/staff.ts';
import { shopPerTest } from '../test-support/test-app.ts';
import { testBackends, testRows } from '../test-support/test-databases.ts';
import { renderMail } from '../mail/mail-render.ts';

const mailContext = { productName: 'SkipPass', publicUrl: 'http://localhost:3000' };

describe.each(testBackends())('back office (void, refund, resend, audit log) on $name', (backend) => {
  /** What the next refund answers; every refund asked for is counted. */
  let refundAnswer: RefundResult;
  let refunds: Array<{ amountCents: number; reference: string }>;
  const payment: PaymentProvider = {
    charge: async () => ({ ok: true }),
    async refund(request) {
      refunds.push(request);
      // Like a provider's round trip: a second void of the same pass arrives while this one waits.
      await new Promise((resolve) => setTimeout(resolve, 20));
      return refundAnswer;
    },
  };

  let adminCookie: string;
  let staffCookie: string;
  const t = shopPerTest(
    backend,
    { AUTH_RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_PER_MINUTE: '0', RESENDS_PER_ADDRESS: '3' },
    { payment },
  );
  beforeEach(async () => {
    refundAnswer = { ok: true, reference: 'refund-1' };
    refunds = [];
    adminCookie = await staffSession(t.shop.app, t.database.db, 'boss@example.com', { admin: true });
    staffCookie = await staffSession(t.shop.app, t.database.db, 'staff@example.com');
  });

  const post = (url: string, payload?: object, cookie: string | undefined = adminCookie) =>
    t.shop.app.inject({ method: 'POST', url, headers: cookie ? { cookie } : {}, ...(payload ? { payload } : {}) });
  const get = (url: string, cookie = adminCookie) => t.shop.app.inject({ method: 'GET', url, headers: { cookie } });
  const voidPass = (orderId: string, payload: object, cookie?: string) => post(`/api/admin/purchases/${orderId}/void`, payload, cookie);
  const resend = (orderId: string, cookie?: string) => post(`/api/admin/purchases/${orderId}/resend-confirmation`, undefined, cookie);

  async function buy(email = 'ada@example.com'): Promise<string> {
    const response = await post('/api/purchases', { name: 'Ada Lovelace', email, eventName: 'City Derby' }, undefined);
    expect(response.statusCode).toBe(201);
    return response.json().pass.id as string;
  }

  const mails = (kind: string) =>
    testRows<{ ref: string; recipient: string; payload: unknown }>(
      t.database.db,
      sql`select ref, recipient, payload from outbox where kind = ${kind} order by id`,
    );
  const actions = () =>
    testRows<{ actor: string; action: string; subject: string; details: Record<string, unknown> }>(
      t.database.db,
      sql`select actor, action, subject, details from staff_actions order by id`,
    );
  const voids = () => testRows<{ order_id: string; refunded_cents: number }>(t.database.db, sql`select order_id, refunded_cents from pass_voids`);

  describe('who may call', () => {
    it('answers 401 to visitors and 403 to staff without the admin role, and changes nothing', async () => {
      const id = await buy();
      for (const [cookie, status] of [
        [undefined, 401],
        [staffCookie, 403],
      ] as const) {
        expect((await voidPass(id, { reason: 'Bought twice', refund: true }, cookie ?? '')).statusCode).toBe(status);
        expect((await resend(id, cookie ?? '')).statusCode).toBe(status);
        expect((await t.shop.app.inject({ method: 'GET', url: '/api/admin/audit-log', headers: cookie ? { cookie } : {} })).statusCode).toBe(status);
      }
      expect(await voids()).toEqual([]);
      expect(await actions()).toEqual([]);
      expect(refunds).toEqual([]);
    });
  });

  describe('voiding a pass', () => {
    it('voids and refunds it, mails the buyer, logs both actions, and the list and stats show it', async () => {
      const id = await buy();
      await buy('grace@example.com');
      const response = await voidPass(id, { reason: '  Bought twice by mistake  ', refund: true });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        orderId: id,
        reason: 'Bought twice by mistake',
        refundedCents: 300,
        refundReference: 'refund-1',
        refundStatus: 'refunded',
        voidedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      });
      expect(refunds).toEqual([{ amountCents: 300, reference: id }]);

      const [mail] = await mails('pass_voided');
      expect(mail).toMatchObject({ ref: id, recipient: 'ada@example.com' });
      const rendered = renderMail(mailContext, 'pass_voided', mail!.payload);
      expect(rendered.text).toContain(`Your pass for City Derby (order ID ${id}) has been voided`);
      expect(rendered.text).toContain('We have refunded $3.00');

      expect(await actions()).toEqual([
        { actor: 'boss@example.com', action: 'pass.void', subject: id, details: { reason: 'Bought twice by mistake' } },
        { actor: 'boss@example.com', action: 'pass.refund', subject: id, details: { refundedCents: 300, refundReference: 'refund-1' } },
      ]);

      const list = (await get('/api/admin/purchases')).json().items as Array<{ orderId: string; voidedAt: string | null; refundedCents: number }>;
      expect(list.find((item) => item.orderId === id)).toMatchObject({ voidedAt: response.json().voidedAt, refundedCents: 300 });
      expect(list.find((item) => item.orderId !== id)).toMatchObject({ voidedAt: null, refundedCents: 0 });
      expect((await get('/api/admin/stats')).json()).toMatchObject({
        totalPurchases: 2,
        totalRevenueCents: 300,
        voidedPasses: 1,
        refundedCents: 300,
      });
    });

    it('voids without a refund when none is asked for, and says so in the mail', async () => {
      const id = await buy();
      const response = await voidPass(id, { reason: 'Fraud', refund: false });
      expect(response.json()).toMatchObject({ refundedCents: 0, refundReference: null, refundStatus: 'none' });
      expect(refunds).toEqual([]);
      const [mail] = await mails('pass_voided');
      expect(renderMail(mailContext, 'pass_voided', mail!.payload).text).toContain('No refund was made with this change.');
      expect((await actions()).map((row) => row.action)).toEqual(['pass.void']);
      expect((await get('/api/admin/stats')).json()).toMatchObject({ totalRevenueCents: 300, voidedPasses: 1, refundedCents: 0 });
    });

    it('refuses a pass voided already, and never refunds twice', async () => {
      const id = await buy();
      expect((await voidPass(id, { reason: 'Bought twice', refund: true })).statusCode).toBe(200);
      const again = await voidPass(id, { reason: 'Bought twice', refund: true });
      expect(again.statusCode).toBe(409);
      expect(again.json().error).toEqual({ code: 'already_voided', message: 'This pass is void already.' });
      expect(refunds).toHaveLength(1);
      expect(await mails('pass_voided')).toHaveLength(1);
    });

    it('voids two requests for the same pass at once only once', async () => {
      const id = await buy();
      const answers = await Promise.all([voidPass(id, { reason: 'One', refund: true }), voidPass(id, { reason: 'Two', refund: true })]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
      expect(refunds).toHaveLength(1);
      expect(await voids()).toHaveLength(1);
    });

    it('asks for confirmation before voiding a pass used at the door, saying when it was used', async () => {
      const id = await buy();
      await testRows(
        t.database.db,
        sql`with event as (
              insert into events (title, title_key, starts_at, location, price_cents) values ('City Derby', 'city derby', now(), 'Riverside', 300) returning id)
            insert into check_ins (order_id, event_id, checked_in_at) select ${id}, id, '2026-11-20T19:05:00Z' from event`,
      );
      const refused = await voidPass(id, { reason: 'Asked at the door', refund: true });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error).toEqual({
        code: 'pass_used',
        message: 'This pass was used at the door on Nov 20, 2026, 7:05 PM UTC. Confirm to void it anyway.',
      });
      expect(refunds).toEqual([]);
      expect(await voids()).toEqual([]);

      const confirmed = await voidPass(id, { reason: 'Asked at the door', refund: true, confirmUsed: true });
      expect(confirmed.statusCode).toBe(200);
      expect((await actions())[0]).toMatchObject({ action: 'pass.void', details: { reason: 'Asked at the door', usedAt: '2026-11-20T19:05:00.000Z' } });
    });

    it('writes nothing when the refund fails, and answers 502', async () => {
      const id = await buy();
      refundAnswer = { ok: false, reason: 'card closed' };
      const response = await voidPass(id, { reason: 'Bought twice', refund: true });
      expect(response.statusCode).toBe(502);
      expect(response.json().error).toEqual({
        code: 'refund_failed',
        message: 'The refund did not go through, so the pass was not voided. Please try again.',
      });
      expect(await voids()).toEqual([]);
      expect(await actions()).toEqual([]);
      expect(await mails('pass_voided')).toEqual([]);

      // Once the provider answers again, the same void goes through.
      refundAnswer = { ok: true, reference: 'refund-2' };
      expect((await voidPass(id, { reason: 'Bought twice', refund: true })).statusCode).toBe(200);
    });

    it('answers 404 for an unknown pass and 400 for a malformed ID or body', async () => {
      const unknown = await voidPass('ABCDEF0123', { reason: 'Bought twice', refund: true });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().error).toEqual({ code: 'not_found', message: 'No pass has this ID.' });

      const id = await buy();
      const bad: Array<[string, object]> = [
        ['not-a-pass', { reason: 'Bought twice', refund: true }],
        [id, { reason: '   ', refund: true }],
        [id, { refund: true }],
        [id, { reason: 'x'.repeat(401), refund: true }],
        [id, { reason: 'Bought\u0000twice', refund: true }],
        [id, { reason: 'Bought twice', refund: 'yes' }],
        [id, { reason: 'Bought twice', refund: true, amountCents: 1 }],
        [id, { reason: ['a'], refund: true }],
      ];
      for (const [orderId, body] of bad) {
        const response = await voidPass(orderId, body);
        expect(response.statusCode, JSON.stringify(body)).toBe(400);
        expect(response.json().error.message, JSON.stringify(body)).toEqual(expect.any(String));
      }
      const blank = await voidPass(id, { reason: '   ', refund: true });
      expect(blank.json().error.message).toMatch(/Please give a reason\./);
      // A lower-case ID names the same pass.
      expect((await voidPass(id.toLowerCase(), { reason: 'x'.repeat(400), refund: false })).statusCode).toBe(200);
      expect(await voids()).toHaveLength(1);
    });
  });

  describe('sending a confirmation again', () => {
    it('queues the same confirmation to the buyer and logs it', async () => {
      const id = await buy();
      const response = await resend(id);
      expect(response.statusCode).toBe(202);
      expect(response.json()).toEqual({ ok: true });
      const [first, second] = await mails('purchase_confirmation');
      expect(second).toMatchObject({ recipient: 'ada@example.com', ref: expect.stringMatching(new RegExp(`^${id}-again-`)) });
      expect(second!.payload).toEqual(first!.payload);
      expect(await actions()).toEqual([{ actor: 'boss@example.com', action: 'mail.resend', subject: id, details: { recipient: 'ada@example.com' } }]);
      expect((await t.shop.app.outbox.runOnce()).sent).toBeGreaterThanOrEqual(2);
    });

    it('limits confirmations per address, 429 with a clear message', async () => {
      const id = await buy('Ada+tag@Example.com');
      for (let n = 0; n < 3; n++) expect((await resend(id)).statusCode).toBe(202);
      const limited = await resend(id);
      expect(limited.statusCode).toBe(429);
      expect(limited.headers['retry-after']).toMatch(/^\d+$/);
      expect(limited.json().error).toEqual({
        code: 'recipient_rate_limited',
        message: 'This address was sent its confirmation several times lately. Please wait 10 minutes and try again.',
      });
      expect(await mails('purchase_confirmation')).toHaveLength(4);
      expect(await actions()).toHaveLength(3);
    });

    it('refuses a voided pass (409) and an unknown one (404)', async () => {
      const id = await buy();
      await voidPass(id, { reason: 'Bought twice', refund: false });
      const refused = await resend(id);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error.code).toBe('pass_voided');
      expect((await resend('ABCDEF0123')).statusCode).toBe(404);
      expect((await resend('nope')).statusCode).toBe(400);
      expect(await mails('purchase_confirmation')).toHaveLength(1);
    });
  });

  describe('the audit log', () => {
    it('records event edits, mail retries and admin grants, newest first, a page at a time', async () => {
      const derby = { title: 'City Derby', date: '2037-12-05', time: '19:30', location: 'Riverside Stadium', price: '12.50' };
      const created = await post('/api/admin/events', derby);
      const eventId = created.json().id as number;
      expect((await t.shop.app.inject({ method: 'PUT', url: `/api/admin/events/${eventId}`, headers: { cookie: adminCookie }, payload: { ...derby, time: '20:00' } })).statusCode).toBe(200);
      // An edit of an unknown event changes nothing, so it logs nothing.
      expect((await t.shop.app.inject({ method: 'PUT', url: '/api/admin/events/999999', headers: { cookie: adminCookie }, payload: derby })).statusCode).toBe(404);

      const [failed] = await testRows<{ id: number }>(t.database.db, sql`update outbox set status = 'failed' where id = (select min(id) from outbox) returning id::int as id`);
      expect((await post(`/api/admin/outbox/${failed!.id}/retry`, {})).statusCode).toBe(200);
      expect((await post(`/api/admin/outbox/${failed!.id}/retry`, {})).statusCode).toBe(409);
      expect(await runAdminCommand(t.database.db, { command: 'revoke', email: 'boss@example.com' })).toMatchObject({ ok: true });
      expect(await runAdminCommand(t.database.db, { command: 'grant', email: 'boss@example.com' })).toMatchObject({ ok: true });
      expect(await runAdminCommand(t.database.db, { command: 'grant', email: 'nobody@example.com' })).toMatchObject({ ok: false });
      // The revocation signed boss out everywhere (ADR 0028): sign in again.
      adminCookie = cookieFrom((await signIn(t.shop.app, 'boss@example.com')).headers['set-cookie']);

      const page = await get('/api/admin/audit-log?limit=3');
      expect(page.statusCode).toBe(200);
      const first = page.json();
      expect(first.items.map((item: { action: string; actor: string; subject: string }) => [item.action, item.actor, item.subject])).toEqual([
        ['staff.role', 'npm run admin', 'boss@example.com'],
        ['staff.role', 'npm run admin', 'boss@example.com'],
        ['mail.retry', 'boss@example.com', String(failed!.id)],
      ]);
      expect(first.items[0]).toEqual({
        id: expect.any(Number),
        at: expect.stringMatching(/Z$/),
        actor: 'npm run admin',
        action: 'staff.role',
        subject: 'boss@example.com',
        details: { before: 'user', after: 'admin' },
      });
      expect(first.items[1].details).toEqual({ before: 'admin', after: 'user' });
      const second = (await get(`/api/admin/audit-log?limit=3&cursor=${first.nextCursor}`)).json();
      expect(second.items.map((item: { action: string }) => item.action)).toEqual(['event.update', 'event.create']);
      expect(second.nextCursor).toBeNull();
      expect(second.items[0].details).toEqual({
        before: { title: 'City Derby', date: '2037-12-05', time: '19:30', location: 'Riverside Stadium', priceCents: 1250, capacity: null, salesOpen: null, salesClose: null },
        after: { title: 'City Derby', date: '2037-12-05', time: '20:00', location: 'Riverside Stadium', priceCents: 1250, capacity: null, salesOpen: null, salesClose: null },
      });

      expect((await get('/api/admin/audit-log?cursor=not-a-cursor')).statusCode).toBe(400);
      expect((await get('/api/admin/audit-log?limit=0')).statusCode).toBe(400);
      expect((await get('/api/admin/audit-log?limit=201')).statusCode).toBe(400);
    });

    it('pages through rows written in the same millisecond without skipping any', async () => {
      await testRows(
        t.database.db,
        sql`insert into staff_actions (actor, action, subject, at)
            select 'boss@example.com', 'mail.resend', 'S' || g, '2026-11-20T12:00:00.123Z'::timestamptz + make_interval(secs => g / 1000000.0)
            from generate_series(1, 7) as g`,
      );
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: { items: Array<{ subject: string }>; nextCursor: string | null } = (
          await get(`/api/admin/audit-log?limit=2${cursor ? `&cursor=${cursor}` : ''}`)
        ).json();
        seen.push(...page.items.map((item) => item.subject));
        cursor = page.nextCursor;
      } while (cursor);
      expect(seen).toEqual(['S7', 'S6', 'S5', 'S4', 'S3', 'S2', 'S1']);
    });
  });
});
