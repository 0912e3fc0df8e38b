import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EVENT_MESSAGES } from '../../core/events.ts';
import { API_ERRORS } from '../../core/messages.ts';
import { sweepClaims } from '../purchases/idempotency-queries.ts';
import type { PaymentProvider } from '../purchases/payment-provider.ts';
import { derby, eventShopPerTest } from '../test-support/event-shop.ts';
import { type DatabaseOutage, databaseOutage } from '../test-support/outage.ts';
import { startTestApp, type TestApp } from '../test-support/test-app.ts';
import { testBackends, testRows } from '../test-support/test-databases.ts';

/** A local date and time in the shop's zone (America/New_York), minutes from now. */
function localIn(minutes: number): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: 'America/New_York',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(Date.now() + minutes * 60_000));
  const part = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${part('year')}-${part('month')}-${part('day')}T${part('hour')}:${part('minute')}`;
}

describe.each(testBackends())('capacity and sales windows on $name', (backend) => {
  /** Every charge the payment provider was asked for. */
  let charges: string[];
  let decline = false;
  /** Keeps the next charge waiting until the returned function is called (a process gone quiet mid-payment). */
  let heldCharge: Promise<void> | undefined;
  const holdNextCharge = () => {
    let release!: () => void;
    heldCharge = new Promise<void>((resolve) => (release = resolve));
    return release;
  };
  const payment: PaymentProvider = {
    async charge({ reference }) {
      charges.push(reference);
      const wait = heldCharge;
      heldCharge = undefined;
      await wait;
      return decline ? { ok: false, reason: 'declined' } : { ok: true };
    },
    refund: async ({ reference }) => ({ ok: true, reference }),
  };
  const { t, call, createEvent } = eventShopPerTest(backend, { payment, eventPayment: payment });
  const others: TestApp[] = [];
  let outage: DatabaseOutage | undefined;
  beforeEach(() => {
    charges = [];
    heldCharge = undefined;
    decline = false;
  });
  afterEach(async () => {
    for (const other of others.splice(0)) await other.close();
    await outage?.close();
    outage = undefined;
  });

  const buyer = (n: number) => ({ name: `Buyer ${n}`, email: `buyer${n}@example.com` });
  const buyOn = (app: TestApp['app'], payload: object, key?: string) =>
    app.inject({ method: 'POST', url: '/api/purchases', payload, headers: key ? { 'idempotency-key': key } : {} });
  const buy = (payload: object, key?: string) => buyOn(t.shop.app, payload, key);
  const publicEvent = async (id: number) => (await t.shop.app.inject({ method: 'GET', url: `/api/events/${id}` })).json();
  const staffEvent = async (id: number) => (await call('GET', '/api/admin/events')).json().items.find((event: { id: number }) => event.id === id);
  const sold = async (id: number) => (await testRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from purchases where event_id = ${id}`))[0]!.n;

  it('sells a capped event exactly to its capacity under concurrent buyers, and charges only those it sells', async () => {
    const event = await createEvent({ ...derby, capacity: 3 });
    const answers = await Promise.all(Array.from({ length: 12 }, (_, n) => buy({ ...buyer(n), eventId: event.id }, `rush-${n}`)));
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([...Array(3).fill(201), ...Array(9).fill(409)]);
    for (const refused of answers.filter((answer) => answer.statusCode === 409)) {
      expect(refused.json().error).toEqual({ code: 'sold_out', message: API_ERRORS.soldOut });
    }
    expect(charges).toHaveLength(3);
    expect(await sold(event.id)).toBe(3);
    expect(await publicEvent(event.id)).toMatchObject({ capacity: 3, left: 0, sales: 'sold_out' });
    expect(await staffEvent(event.id)).toMatchObject({ capacity: 3, sold: 3, checkIns: 0 });
    // A refused buyer's key is free again: the same key later is a new request, not a 409 in progress.
    const again = await buy({ ...buyer(99), eventId: event.id }, answers.find((answer) => answer.statusCode === 409) ? 'rush-fresh' : 'x');
    expect(again.json().error.code).toBe('sold_out');
  });

  it('gives a voided pass its place back, and a declined payment never takes one', async () => {
    const event = await createEvent({ ...derby, capacity: 1 });
    decline = true;
    expect((await buy({ ...buyer(1), eventId: event.id }, 'declined')).statusCode).toBe(402);
    expect(await publicEvent(event.id)).toMatchObject({ left: 1, sales: 'on_sale' });
    decline = false;
    const first = await buy({ ...buyer(1), eventId: event.id }, 'first');
    expect(first.statusCode).toBe(201);
    expect((await buy({ ...buyer(2), eventId: event.id }, 'second')).json().error.code).toBe('sold_out');

    const voided = await call('POST', `/api/admin/purchases/${first.json().pass.id}/void`, { reason: 'Bought twice', refund: true });
    expect(voided.statusCode).toBe(200);
    expect(await publicEvent(event.id)).toMatchObject({ left: 1, sales: 'on_sale' });
    expect(await staffEvent(event.id)).toMatchObject({ sold: 0 });
    expect((await buy({ ...buyer(2), eventId: event.id }, 'second-again')).statusCode).toBe(201);
  });

  it('answers a sold key with its pass after the event sold out, never "sold out"', async () => {
    const event = await createEvent({ ...derby, capacity: 1 });
    const first = await buy({ ...buyer(1), eventId: event.id }, 'mine');
    const retry = await buy({ ...buyer(1), eventId: event.id }, 'mine');
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json().pass.id).toBe(first.json().pass.id);
    expect(charges).toHaveLength(1);
  });

  it('refuses before any charge an event whose sales closed, have not opened, or that already happened', async () => {
    const closed = await createEvent({ ...derby, title: 'Closed Cup', salesClose: localIn(-5) });
    const later = await createEvent({ ...derby, title: 'Later Cup', salesOpen: localIn(60) });
    const past = await createEvent({ ...derby, title: 'Old Cup', date: '2020-05-01' });
    for (const [event, code, message] of [
      [closed, 'sales_closed', API_ERRORS.salesClosed],
      [later, 'sales_not_open', API_ERRORS.salesNotOpen],
      [past, 'sales_closed', API_ERRORS.salesClosed],
    ] as const) {
      const answer = await buy({ ...buyer(1), eventId: event.id });
      expect(answer.statusCode).toBe(409);
      expect(answer.json().error).toEqual({ code, message });
    }
    expect(charges).toEqual([]);
    expect(await t.database.count('purchases')).toBe(0);
    expect((await publicEvent(later.id)).sales).toBe('not_yet');
    expect((await publicEvent(past.id)).sales).toBe('closed');
    // The landing lists what is still to be sold, soonest first: not what closed.
    const listed = (await t.shop.app.inject({ method: 'GET', url: '/api/events' })).json().items.map((event: { title: string }) => event.title);
    expect(listed).toEqual(['Later Cup']);
  });

  it("makes a home-flow purchase naming a listed event that event's pass, matched as staff would read it", async () => {
    const event = await createEvent({ ...derby, title: 'Derby Día', capacity: 1 });
    const first = await buy({ ...buyer(1), eventName: '  derby   DIA ' });
    expect(first.statusCode).toBe(201);
    expect(first.json().pass).toMatchObject({ eventName: 'Derby Día', amountCents: 300 });
    const [row] = await testRows<{ event_id: number }>(t.database.db, sql`select event_id::int from purchases`);
    expect(row!.event_id).toBe(event.id);
    expect((await buy({ ...buyer(2), eventName: 'Derby Dia' })).json().error).toEqual({ code: 'sold_out', message: API_ERRORS.soldOut });
    // Any other name is SPEC's home pass for any event, with no place of anyone's.
    const other = await buy({ ...buyer(3), eventName: 'Derby Day' });
    expect(other.statusCode).toBe(201);
    expect(other.json().pass.eventName).toBe('Derby Day');
    expect(charges).toHaveLength(2);
  });

  it('edits capacity and window with the event, audited, and refuses a capacity below the places taken', async () => {
    const event = await createEvent({ ...derby, capacity: 5 });
    await buy({ ...buyer(1), eventId: event.id });
    await buy({ ...buyer(2), eventId: event.id });
    const tooSmall = await call('PUT', `/api/admin/events/${event.id}`, { ...derby, capacity: 1 });
    expect(tooSmall.statusCode).toBe(400);
    expect(tooSmall.json().error.message).toBe(EVENT_MESSAGES.capacityBelowSold(2));
    const edited = await call('PUT', `/api/admin/events/${event.id}`, { ...derby, capacity: '2', salesOpen: '2037-11-01T09:00', salesClose: '2037-12-05T18:00' });
    expect(edited.json()).toMatchObject({ capacity: 2, left: 0, sold: 2, sales: 'not_yet', salesOpen: '2037-11-01T09:00', salesClose: '2037-12-05T18:00' });
    const [audit] = await testRows<{ details: { before: object; after: object } }>(
      t.database.db,
      sql`select details from staff_actions where action = 'event.update' order by id desc limit 1`,
    );
    expect(audit!.details.before).toMatchObject({ capacity: 5, salesOpen: null, salesClose: null });
    expect(audit!.details.after).toMatchObject({ capacity: 2, salesOpen: '2037-11-01T09:00', salesClose: '2037-12-05T18:00' });
    for (const [input, message] of [
      [{ capacity: 0 }, EVENT_MESSAGES.capacityInvalid],
      [{ capacity: '1.5' }, EVENT_MESSAGES.capacityInvalid],
      [{ capacity: 100_001 }, EVENT_MESSAGES.capacityInvalid],
      [{ salesOpen: '2037-13-01T09:00' }, EVENT_MESSAGES.salesOpenInvalid],
      [{ salesClose: 'tomorrow' }, EVENT_MESSAGES.salesCloseInvalid],
      [{ salesOpen: '2037-12-06T09:00' }, EVENT_MESSAGES.salesWindowOrder],
    ] as const) {
      const refused = await call('POST', '/api/admin/events', { ...derby, ...input });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.message).toBe(message);
    }
  });

  it("keeps a crashed purchase's place for its retry, and sells it again once the hold lapsed", async () => {
    const event = await createEvent({ ...derby, capacity: 1 });
    // A purchase whose answer was lost: its retry, on another instance, gets the stored pass.
    const first = await buy({ ...buyer(1), eventId: event.id }, 'lost-answer');
    // Instances behind one database share AUTH_SECRET (ADR 0031): the first one's, generated in its DATA_DIR.
    const sharedSecret = (await readFile(join(t.shop.dataDir, 'auth-secret'), 'utf8')).trim();
    const second = await startTestApp(t.database, { AUTH_SECRET: sharedSecret }, { payment, eventPayment: payment });
    others.push(second);
    const retry = await buyOn(second.app, { ...buyer(1), eventId: event.id }, 'lost-answer');
    expect(retry.json().pass.id).toBe(first.json().pass.id);
    expect(charges).toHaveLength(1);

    // A purchase charged whose process then goes quiet (a kill -9 mid-purchase, as far as the
    // database can tell: its claim's lease lapses). Its place stays for its retries...
    const held = await createEvent({ ...derby, title: 'Held Cup', capacity: 1 });
    const releaseDying = holdNextCharge();
    const dying = buy({ ...buyer(2), eventId: held.id }, 'dying-key');
    await expect.poll(() => charges.length).toBe(2);
    const lapse = (key: string, by: string) =>
      testRows(t.database.db, sql`update idempotency_keys set locked_until = now() - ${by}::interval where key = ${key}`);
    expect((await buyOn(second.app, { ...buyer(3), eventId: held.id }, 'someone-else')).json().error.code).toBe('sold_out');
    // (The quiet process still renews its lease now and then, and a retry meanwhile is told 409: so poll.)
    await expect
      .poll(async () => {
        await lapse('dying-key', '1 minute');
        return (await buyOn(second.app, { ...buyer(2), eventId: held.id }, 'dying-key')).statusCode;
      })
      .toBe(201);
    releaseDying();
    // ...and when the quiet attempt answers after all, it is the same pass, sold once.
    const retried = await buyOn(second.app, { ...buyer(2), eventId: held.id }, 'dying-key');
    expect((await dying).json().pass.id).toBe(retried.json().pass.id);
    expect(await sold(held.id)).toBe(1);

    // A claim whose buyer never came back gives its place back once the hold lapsed.
    const lapsed = await createEvent({ ...derby, title: 'Lapsed Cup', capacity: 1 });
    const releaseAbandoned = holdNextCharge();
    const abandoned = buy({ ...buyer(4), eventId: lapsed.id }, 'abandoned-key');
    await expect.poll(() => charges.length).toBe(4);
    expect((await sweepClaims(t.database.db)).lapsed).toBe(0);
    await expect
      .poll(async () => {
        await lapse('abandoned-key', '11 minutes');
        return (await sweepClaims(t.database.db)).lapsed;
      })
      .toBe(1);
    expect(await publicEvent(lapsed.id)).toMatchObject({ left: 1 });
    releaseAbandoned();
    // Its process comes back after all: its purchase takes a place of its own, the one left.
    expect((await abandoned).statusCode).toBe(201);
    expect(await publicEvent(lapsed.id)).toMatchObject({ left: 0, sales: 'sold_out' });
  });

  // PostgreSQL only: PGlite has one connection, so no statement of the shop's can run beside another.
  it.skipIf(backend.name !== 'postgres')(
    "stores a paid purchase while another buyer's gate holds its event's row (ADR 0033)",
    async () => {
      const event = await createEvent({ ...derby, capacity: 10 });
      const releasePaid = holdNextCharge();
      const paid = buy({ ...buyer(1), eventId: event.id }, 'paid-key');
      await expect.poll(() => charges.length).toBe(1);
      // Another instance's gate statement, on the same event, not yet committed.
      const other = new pg.Client({ connectionString: t.database.url });
      await other.connect();
      try {
        await other.query('begin');
        const request = { i: 0, key: 'other-instance-key', fingerprint: 'f', event_id: event.id, title_key: null, hits: [] };
        const [gate] = (await other.query('select * from purchase_gate($1::jsonb, 5, $2)', [JSON.stringify([request]), 'America/New_York'])).rows;
        expect(gate.verdict).toBe('claimed');
        // The paid purchase's store checks its event (a foreign key): it must not wait for that gate.
        releasePaid();
        expect((await paid).statusCode).toBe(201);
        await other.query('rollback');
      } finally {
        await other.end();
      }
      expect(await sold(event.id)).toBe(1);
      expect(await publicEvent(event.id)).toMatchObject({ left: 9 });
    },
  );

  it('refuses a capped event while the database is away, before any charge, and still sells home passes', async () => {
    const event = await createEvent({ ...derby, title: 'Capped Cup', capacity: 10 });
    outage = await databaseOutage(t.database);
    const instance = await startTestApp(t.database, {}, { db: outage.db, payment, eventPayment: payment });
    others.push(instance);
    // Let its background read of the capped titles happen while the database is there.
    await expect.poll(async () => (await buyOn(instance.app, { ...buyer(0), eventName: 'Anything Goes' })).statusCode).toBe(201);
    charges = [];
    outage.down();
    const byPage = await buyOn(instance.app, { ...buyer(1), eventId: event.id }, 'page-away');
    expect(byPage.statusCode).toBe(503);
    expect(byPage.json().error.code).toBe('unavailable');
    const byName = await buyOn(instance.app, { ...buyer(2), eventName: 'capped cup' }, 'name-away');
    expect(byName.statusCode).toBe(503);
    expect(charges).toEqual([]);
    const home = await buyOn(instance.app, { ...buyer(3), eventName: 'Sunday League' }, 'home-away');
    expect(home.statusCode).toBe(201);
    expect(home.json().saved).toBe(false);
    outage.up();
    await instance.app.replaySpool();
    expect(await publicEvent(event.id)).toMatchObject({ left: 10 });
  });
});
