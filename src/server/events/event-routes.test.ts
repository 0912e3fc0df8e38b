import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { VALIDATION } from '../../core/messages.ts';
import { queryRows } from '../db/database.ts';
import type { PaymentProvider } from '../purchases/payment-provider.ts';
import { staffSession } from '../test-support/staff.ts';
import { shopPerTest } from '../test-support/test-app.ts';
import { testBackends } from '../test-support/test-databases.ts';

const derby = { title: 'City Derby', date: '2026-12-05', time: '19:30', location: 'Riverside Stadium', price: '12.50' };
const buyer = { name: 'Ada Lovelace', email: 'ada@example.com', eventName: 'City Derby' };

describe.each(testBackends())('events and check-ins on $name', (backend) => {
  let admin: string;
  /** Which payment each purchase went through, and for how much. */
  let charges: Array<{ flow: 'home' | 'event'; amountCents: number }>;
  const recorder = (flow: 'home' | 'event'): PaymentProvider => ({
    async charge({ amountCents }) {
      charges.push({ flow, amountCents });
      return { ok: true };
    },
  });

  const t = shopPerTest(
    backend,
    {
      SHOP_TIMEZONE: 'America/New_York',
      AUTH_RATE_LIMIT_PER_MINUTE: '0',
      PUBLIC_URL: 'http://shop.test',
      PASS_SIGNING_SECRET: 'test-signing-secret-of-32-characters!',
    },
    { payment: recorder('home'), eventPayment: recorder('event') },
  );
  beforeEach(async () => {
    charges = [];
    admin = await staffSession(t.shop.app, t.database.db, 'boss@example.com', { admin: true });
  });

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, cookie = admin) =>
    t.shop.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
  const createEvent = async (input: object = derby) => (await call('POST', '/api/admin/events', input)).json();
  const buy = async (payload: object = buyer) => (await t.shop.app.inject({ method: 'POST', url: '/api/purchases', payload })).json();
  const checkIn = (eventId: number, code: string, cookie = admin) => call('POST', '/api/admin/check-ins', { eventId, code }, cookie);

  describe('events', () => {
    it('lets staff create and edit an event, kept in the shop time zone, and shows it publicly', async () => {
      const created = await call('POST', '/api/admin/events', derby);
      expect(created.statusCode).toBe(201);
      const event = created.json();
      expect(event).toEqual({ id: expect.any(Number), title: 'City Derby', date: '2026-12-05', time: '19:30', location: 'Riverside Stadium', priceCents: 1250 });
      const [stored] = await queryRows<{ starts_at: string }>(t.database.db, sql`select starts_at::text from events`);
      expect(new Date(stored!.starts_at).toISOString()).toBe('2026-12-06T00:30:00.000Z');

      const edited = await call('PUT', `/api/admin/events/${event.id}`, { ...derby, time: '20:00', price: '3' });
      expect(edited.json()).toMatchObject({ time: '20:00', priceCents: 300 });
      expect((await t.shop.app.inject({ method: 'GET', url: `/api/events/${event.id}` })).json()).toMatchObject({ title: 'City Derby', time: '20:00' });
      expect((await t.shop.app.inject({ method: 'GET', url: '/api/events/999999' })).statusCode).toBe(404);
      expect((await call('GET', '/api/admin/events')).json().items).toEqual([expect.objectContaining({ id: event.id, checkIns: 0 })]);
    });

    it.each([
      [{ ...derby, title: 'X' }, 'Title must be 2 to 100 characters long'],
      [{ ...derby, date: '05/12/2026' }, 'Date must be a date such as 2026-12-31'],
      [{ ...derby, time: '7pm' }, 'Time must be a time such as 19:30'],
      [{ ...derby, location: '' }, 'Location must be 2 to 200 characters long'],
      [{ ...derby, price: '-1' }, 'Price must be an amount from 0.00 to 1000.00'],
    ])('answers 400 with a clear message for %j', async (input, message) => {
      const response = await call('POST', '/api/admin/events', input);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.message).toBe(message);
    });

    it.each(['2026-02-30', '0000-01-01', '2026-13-01', '2027-02-29'])(
      'answers 400, not 500, to the impossible date %s on create and edit, and stores nothing',
      async (date) => {
        const created = await call('POST', '/api/admin/events', { ...derby, date });
        expect(created.statusCode).toBe(400);
        expect(created.json().error).toEqual({ code: 'validation_failed', message: 'Date must be a date such as 2026-12-31' });
        const event = await createEvent();
        const edited = await call('PUT', `/api/admin/events/${event.id}`, { ...derby, date });
        expect(edited.statusCode).toBe(400);
        expect((await call('GET', `/api/admin/events`)).json().items).toEqual([expect.objectContaining({ date: '2026-12-05' })]);
      },
    );

    it('stores a title and location of reader-counted length: 100 emoji, 200 flags', async () => {
      const title = '\u{1F3C6}'.repeat(100);
      const location = '\u{1F1EC}\u{1F1E7}'.repeat(200);
      const created = await call('POST', '/api/admin/events', { ...derby, title, location });
      expect(created.statusCode).toBe(201);
      expect((await t.shop.app.inject({ method: 'GET', url: `/api/events/${created.json().id}` })).json()).toMatchObject({ title, location });
      const tooLong = await call('POST', '/api/admin/events', { ...derby, title: `Cup${'\u0301'.repeat(400)}` });
      expect(tooLong.json().error.message).toBe('Title must be 2 to 100 characters long');
    });
  });

  describe('buying through an event page', () => {
    it("sells a pass at the event's price through the same path, with its confirmation email", async () => {
      const event = await createEvent();
      const response = await t.shop.app.inject({
        method: 'POST',
        url: '/api/purchases',
        payload: { name: 'Grace Hopper', email: 'grace@example.com', eventId: event.id },
        headers: { 'idempotency-key': 'event-buy-1' },
      });
      expect(response.statusCode).toBe(201);
      expect(response.json().pass).toMatchObject({ name: 'Grace Hopper', eventName: 'City Derby', amount: 12.5 });
      const [row] = await queryRows<{ amount: number; event_id: number }>(t.database.db, sql`select amount, event_id::int from purchases`);
      expect(row).toEqual({ amount: 1250, event_id: event.id });
      const mail = await queryRows(t.database.db, sql`select 1 from outbox where kind = 'purchase_confirmation'`);
      expect(mail).toHaveLength(1);
    });

    it("charges through the event page's payment (EVENT_PAYMENT_DELAY_MS), and the home flow through its own", async () => {
      const event = await createEvent();
      await buy();
      await buy({ name: 'Grace Hopper', email: 'grace@example.com', eventId: event.id });
      expect(charges).toEqual([
        { flow: 'home', amountCents: 300 },
        { flow: 'event', amountCents: 1250 },
      ]);
    });

    it('asks for every field, and answers 404 for an unknown event', async () => {
      const event = await createEvent();
      const empty = await t.shop.app.inject({ method: 'POST', url: '/api/purchases', payload: { name: '', email: '', eventId: event.id } });
      expect(empty.statusCode).toBe(400);
      expect(empty.json().error.message).toBe(VALIDATION.fillAllFields);
      const unknown = await t.shop.app.inject({ method: 'POST', url: '/api/purchases', payload: { name: 'Ada', email: 'a@b.co', eventId: 999999 } });
      expect(unknown.statusCode).toBe(404);
    });
  });

  describe('check-in', () => {
    it('admits a signed pass once per event and then says when it was used', async () => {
      const event = await createEvent();
      const { pass, verificationUrl } = await buy();
      expect(verificationUrl).toMatch(new RegExp(`^http://shop\\.test/check-in\\?code=${pass.id}\\.[A-Za-z0-9_-]{22}$`));

      const first = (await checkIn(event.id, verificationUrl)).json();
      expect(first).toEqual({ result: 'valid', orderId: pass.id, name: 'Ada Lovelace', eventName: 'City Derby', checkedInAt: expect.any(String) });
      const second = (await checkIn(event.id, verificationUrl)).json();
      expect(second).toEqual({ result: 'already_used', orderId: pass.id, name: 'Ada Lovelace', checkedInAt: first.checkedInAt });

      const other = await createEvent({ ...derby, title: 'Cup Final' });
      expect((await checkIn(other.id, pass.id)).json().result).toBe('valid');
      const events = (await call('GET', '/api/admin/events')).json().items;
      expect(events.map((item: { checkIns: number }) => item.checkIns)).toEqual([1, 1]);
      expect((await call('GET', `/api/admin/events/${event.id}/check-ins`)).json().items).toEqual([
        { orderId: pass.id, name: 'Ada Lovelace', checkedInAt: first.checkedInAt },
      ]);
    });

    it('refuses a guessed or altered code', async () => {
      const event = await createEvent();
      const { pass, verificationUrl } = await buy();
      const code = new URL(verificationUrl).searchParams.get('code')!;
      const otherId = pass.id === 'ABCDEF0123' ? 'ABCDEF0124' : 'ABCDEF0123';
      for (const forged of [`${otherId}.${code.split('.')[1]}`, `${pass.id}.${'A'.repeat(22)}`, 'not a pass', 'FFFFFFFFFF']) {
        expect((await checkIn(event.id, forged)).json(), forged).toEqual({ result: 'invalid' });
      }
      expect(await t.database.count('purchases')).toBe(1);
      const [admitted] = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from check_ins`);
      expect(admitted!.n).toBe(0);
    });

    it('checks a typed ID against the passes sold: a guessed or altered one is not a valid pass', async () => {
      const event = await createEvent();
      const { pass } = await buy();
      // One hex digit changed, as a mistyped or doctored ID would be.
      const last = pass.id.at(-1)!;
      const altered = pass.id.slice(0, -1) + (last === '0' ? '1' : '0');
      // An ID of the right shape that was never sold.
      const guessed = pass.id === '0123456789' ? '9876543210' : '0123456789';
      for (const typed of [altered, altered.toLowerCase(), guessed]) {
        expect((await checkIn(event.id, typed)).json(), typed).toEqual({ result: 'invalid' });
      }
      const [admitted] = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from check_ins`);
      expect(admitted!.n).toBe(0);
      // Typing stays possible for a cracked screen: the real ID, typed, is admitted with the name to check.
      expect((await checkIn(event.id, pass.id.toLowerCase())).json()).toMatchObject({ result: 'valid', name: 'Ada Lovelace' });
    });

    it('admits one of many doors scanning the same pass at the same moment', async () => {
      const event = await createEvent();
      const { verificationUrl } = await buy();
      const results = await Promise.all(Array.from({ length: 8 }, () => checkIn(event.id, verificationUrl)));
      const outcomes = results.map((response) => response.json().result).sort();
      expect(outcomes).toEqual(['already_used', ...Array(6).fill('already_used'), 'valid'].sort());
      const [admitted] = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from check_ins`);
      expect(admitted!.n).toBe(1);
    });

    it("admits a pass bought on one event's page at that event only", async () => {
      const derbyEvent = await createEvent();
      const final = await createEvent({ ...derby, title: 'Cup Final' });
      const { verificationUrl } = await buy({ name: 'Grace Hopper', email: 'grace@example.com', eventId: derbyEvent.id });
      expect((await checkIn(final.id, verificationUrl)).json()).toEqual({ result: 'invalid' });
      expect((await checkIn(derbyEvent.id, verificationUrl)).json().result).toBe('valid');
    });

    it('answers 404 for an unknown event and 400 for a malformed request', async () => {
      expect((await checkIn(999999, 'ABCDEF0123')).statusCode).toBe(404);
      expect((await call('POST', '/api/admin/check-ins', { eventId: 'x', code: 1 })).statusCode).toBe(400);
    });
  });
});
