import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { VALIDATION } from '../../core/messages.ts';
import type { PaymentProvider } from '../purchases/payment-provider.ts';
import { derby, eventShopPerTest } from '../test-support/event-shop.ts';
import { testBackends, testRows } from '../test-support/test-databases.ts';

describe.each(testBackends())('events on $name', (backend) => {
  /** Which payment each purchase went through, and for how much. */
  let charges: Array<{ flow: 'home' | 'event'; amountCents: number }>;
  const recorder = (flow: 'home' | 'event'): PaymentProvider => ({
    async charge({ amountCents }) {
      charges.push({ flow, amountCents });
      return { ok: true };
    },
    refund: async ({ reference }) => ({ ok: true, reference }),
  });

  const { t, call, createEvent, buy } = eventShopPerTest(backend, { payment: recorder('home'), eventPayment: recorder('event') });
  beforeEach(() => {
    charges = [];
  });

  describe('events', () => {
    it('lets staff create and edit an event, kept in the shop time zone, and shows it publicly', async () => {
      const created = await call('POST', '/api/admin/events', derby);
      expect(created.statusCode).toBe(201);
      const event = created.json();
      expect(event).toEqual({
        id: expect.any(Number),
        title: 'City Derby',
        date: '2037-12-05',
        time: '19:30',
        location: 'Riverside Stadium',
        priceCents: 1250,
        capacity: null,
        left: null,
        salesOpen: null,
        salesClose: null,
        sales: 'on_sale',
        sold: 0,
        checkIns: 0,
      });
      const [stored] = await testRows<{ starts_at: string }>(t.database.db, sql`select starts_at::text from events`);
      expect(new Date(stored!.starts_at).toISOString()).toBe('2037-12-06T00:30:00.000Z');

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
        expect((await call('GET', `/api/admin/events`)).json().items).toEqual([expect.objectContaining({ date: '2037-12-05' })]);
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
      expect(response.json().pass).toMatchObject({ name: 'Grace Hopper', eventName: 'City Derby', amountCents: 1250 });
      const [row] = await testRows<{ amount: number; event_id: number }>(t.database.db, sql`select amount, event_id::int from purchases`);
      expect(row).toEqual({ amount: 1250, event_id: event.id });
      const mail = await testRows(t.database.db, sql`select 1 from outbox where kind = 'purchase_confirmation'`);
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
});
