import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { fileSpool } from '../purchases/purchase-spool.ts';
import { recordQuarantine } from '../purchases/quarantine-queries.ts';
import { eventShopPerTest } from '../test-support/event-shop.ts';
import { purchaseRecord } from '../test-support/purchase-records.ts';
import { staffSession } from '../test-support/staff.ts';
import { testBackends, testRows } from '../test-support/test-databases.ts';
import { eraseExpiredBuyerData } from './buyer-data.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

describe.each(testBackends())('buyers’ data kept only as long as needed (ADR 0032) on $name', (backend) => {
  const { t, call, createEvent, buy, checkIn } = eventShopPerTest(backend);

  const runJob = (days = 30) =>
    eraseExpiredBuyerData({ db: t.database.db, spool: fileSpool(join(t.shop.dataDir, 'spool')), days });
  const rows = <Row>(query: ReturnType<typeof sql>) => testRows<Row>(t.database.db, query);
  const purchase = async (orderId: string) =>
    (await rows<{ name: string; email: string; amount: number; erased: boolean }>(
      sql`select name, email, amount, erased_at is not null as erased from purchases where order_id = ${orderId}`,
    ))[0];
  const mailsTo = (orderId: string) =>
    rows<{ recipient: string; payload: unknown }>(sql`select recipient, payload from outbox where ref = ${orderId} order by id`);
  const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString();
  const csv = async () => parse((await call('GET', '/api/admin/purchases.csv')).body, { from_line: 2 }) as string[][];

  it('erases names and emails 30 days after the event, or after the purchase of an Any Event Pass, keeping counts, revenue, IDs and check-in times', async () => {
    const event = await createEvent();
    const atEvent = await buy({ name: 'Grace Hopper', email: 'grace@example.com', eventId: event.id });
    const oldAnyEvent = await buy({ name: 'Alan Turing', email: 'alan@example.com', eventName: 'Sunday League' });
    const fresh = await buy({ name: 'Ada Lovelace', email: 'ada@example.com', eventName: 'Sunday League' });
    const admitted = (await checkIn(event.id, atEvent.passUrl)).json();
    expect(admitted.result).toBe('valid');
    expect((await call('POST', `/api/admin/purchases/${atEvent.pass.id}/resend-confirmation`)).statusCode).toBe(202);
    await t.shop.app.inject({ method: 'POST', url: '/api/contact', payload: { name: 'Alan Turing', email: 'alan@example.com' } });
    // The event began 31 days ago; the old Any Event Pass was bought 31 days ago, with its mail and request.
    await rows(sql`update events set starts_at = ${daysAgo(31)}::timestamptz where id = ${event.id}`);
    await rows(sql`update purchases set created_at = ${daysAgo(31)}::timestamptz where order_id = ${oldAnyEvent.pass.id}`);
    await rows(sql`update outbox set created_at = ${daysAgo(31)}::timestamptz where recipient = 'alan@example.com' and ref <> ${oldAnyEvent.pass.id}`);
    await rows(sql`update contact_requests set created_at = ${daysAgo(31)}::timestamptz`);
    const stats = (await call('GET', '/api/admin/stats')).json();
    const checkInsBefore = await rows(sql`select order_id, event_id, checked_in_at from check_ins order by id`);

    expect(await runJob()).toEqual({ passes: 2, mails: 4, contactRequests: 1, heldPurchases: 0 });

    for (const [gone, amount] of [[atEvent, 1250], [oldAnyEvent, 300]] as const) {
      expect(await purchase(gone.pass.id)).toEqual({ name: '', email: '', amount, erased: true });
      for (const mail of await mailsTo(gone.pass.id)) expect(mail).toEqual({ recipient: '', payload: {} });
    }
    expect(await purchase(fresh.pass.id)).toEqual({ name: 'Ada Lovelace', email: 'ada@example.com', amount: 300, erased: false });
    expect(await mailsTo(fresh.pass.id)).toEqual([expect.objectContaining({ recipient: 'ada@example.com' })]);
    // Nothing in the database names Grace or Alan now; Ada is kept.
    const everything = JSON.stringify(
      await rows(sql`select (select json_agg(p) from purchases p) as p, (select json_agg(o) from outbox o) as o,
                            (select json_agg(c) from contact_requests c) as c, (select json_agg(s) from staff_actions s) as s`),
    );
    expect(everything).not.toMatch(/grace|alan|Hopper|Turing/i);
    expect(everything).toContain('ada@example.com');

    expect((await call('GET', '/api/admin/stats')).json()).toEqual(stats);
    expect(await rows(sql`select order_id, event_id, checked_in_at from check_ins order by id`)).toEqual(checkInsBefore);
    const deviceId = randomUUID();
    expect((await call('POST', '/api/admin/door/device', { deviceId, label: 'Gate' })).statusCode).toBe(200);
    const pack = (await call('GET', `/api/admin/door/pack?eventId=${event.id}&deviceId=${deviceId}`)).json();
    expect(pack.passes).toContainEqual({ id: atEvent.pass.id, name: '', usedAt: admitted.checkedInAt ?? expect.any(String), voided: false });
    expect(JSON.stringify(pack)).not.toMatch(/Grace|Alan/);

    const list = (await call('GET', '/api/admin/purchases')).json().items;
    expect(list.find((item: { orderId: string }) => item.orderId === atEvent.pass.id)).toMatchObject({ erasedAt: expect.any(String), name: '', email: '' });
    expect(list.find((item: { orderId: string }) => item.orderId === fresh.pass.id)).toMatchObject({ erasedAt: null, name: 'Ada Lovelace' });
    const records = await csv();
    expect(records.find((record) => record[5] === atEvent.pass.id)?.slice(0, 2)).toEqual(['Erased', 'Erased']);
    expect(records.find((record) => record[5] === fresh.pass.id)?.slice(0, 2)).toEqual(['Ada Lovelace', 'ada@example.com']);

    // An erased buyer cannot be mailed again; the job is idempotent.
    const resend = await call('POST', `/api/admin/purchases/${atEvent.pass.id}/resend-confirmation`);
    expect(resend.statusCode).toBe(409);
    expect(resend.json().error.code).toBe('buyer_erased');
    // A void still refunds, and mails nobody: there is no address left.
    const mailsBefore = await rows(sql`select id from outbox`);
    expect((await call('POST', `/api/admin/purchases/${oldAnyEvent.pass.id}/void`, { reason: 'Asked to', refund: true })).statusCode).toBe(200);
    expect(await rows(sql`select id from outbox`)).toEqual(mailsBefore);
    expect(await runJob()).toEqual({ passes: 0, mails: 0, contactRequests: 0, heldPurchases: 0 });
  });

  it('keeps everything with a retention of 0 days (off), and erases held purchases past the retention', async () => {
    const old = await buy({ name: 'Alan Turing', email: 'alan@example.com', eventName: 'Sunday League' });
    await rows(sql`update purchases set created_at = ${daysAgo(400)}::timestamptz`);
    await recordQuarantine(t.database.db, { orderId: 'AAAAAAAAAA', reason: 'order_id_taken', record: purchaseRecord('AAAAAAAAAA', { name: 'Grace Hopper', email: 'grace@example.com' }) });
    await rows(sql`update quarantined_purchases set quarantined_at = ${daysAgo(31)}::timestamptz`);
    expect(await runJob(0)).toEqual({ passes: 0, mails: 0, contactRequests: 0, heldPurchases: 0 });
    expect((await purchase(old.pass.id))?.name).toBe('Alan Turing');

    expect(await runJob(30)).toMatchObject({ passes: 1, heldPurchases: 1 });
    const held = (await call('GET', '/api/admin/quarantined-purchases')).json().items[0];
    expect(held).toMatchObject({ orderId: 'AAAAAAAAAA', name: '', email: '', amountCents: 300 });
  });

  it('erases a backlog in batches, each row once, with two instances running the job at once', async () => {
    const backlog = 1234;
    await rows(
      sql`insert into purchases (name, email, event_name, amount, order_id, created_at)
          select 'Buyer ' || g, 'buyer' || g || '@example.com', 'Sunday League', 300, upper(lpad(to_hex(g), 10, '0')), now() - interval '40 days'
          from generate_series(1, ${backlog}) as g`,
    );
    const stats = (await call('GET', '/api/admin/stats')).json();
    // A closing shop stops the job before its next batch.
    const stopped = await eraseExpiredBuyerData({ db: t.database.db, spool: fileSpool(join(t.shop.dataDir, 'spool')), days: 30, signal: AbortSignal.abort() });
    expect(stopped.passes).toBe(0);
    const [one, two] = await Promise.all([runJob(), runJob()]);
    expect(one!.passes + two!.passes).toBe(backlog);
    expect(await rows(sql`select count(*)::int as left from purchases where erased_at is null or name <> '' or email <> ''`)).toEqual([{ left: 0 }]);
    expect((await call('GET', '/api/admin/stats')).json()).toEqual(stats);
    expect((await runJob()).passes).toBe(0);
  });

  describe('one buyer, on request', () => {
    const exportOf = (email: string, cookie?: string) => call('POST', '/api/admin/buyer-data/export', { email }, cookie);
    const erase = (email: string, cookie?: string) => call('POST', '/api/admin/buyer-data/erase', { email }, cookie);

    it('exports everything held about a mailbox (any letter case or +tag) as JSON, audited by order IDs', async () => {
      const event = await createEvent();
      const first = await buy({ name: 'Grace Hopper', email: 'Grace@Example.com', eventId: event.id });
      const second = await buy({ name: 'Grace H', email: 'grace+shop@example.com', eventName: 'Sunday League' });
      const other = await buy({ name: 'Ada Lovelace', email: 'ada@example.com', eventName: 'Sunday League' });
      await checkIn(event.id, first.passUrl);
      expect((await call('POST', `/api/admin/purchases/${second.pass.id}/void`, { reason: 'Asked to', refund: true })).statusCode).toBe(200);
      await t.shop.app.inject({ method: 'POST', url: '/api/contact', payload: { name: 'Grace Hopper', email: 'grace+contact@example.com' } });

      const response = await exportOf('GRACE+anything@example.com');
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      const data = response.json();
      expect(data.email).toBe('GRACE+anything@example.com');
      expect(data.purchases).toEqual([
        expect.objectContaining({
          orderId: first.pass.id,
          name: 'Grace Hopper',
          email: 'Grace@Example.com',
          eventId: event.id,
          amountCents: expect.any(Number),
          void: null,
          checkIns: [{ eventId: event.id, checkedInAt: expect.any(String) }],
        }),
        expect.objectContaining({
          orderId: second.pass.id,
          email: 'grace+shop@example.com',
          void: expect.objectContaining({ reason: 'Asked to', refundedCents: 300 }),
          checkIns: [],
        }),
      ]);
      expect(data.mails.map((mail: { kind: string }) => mail.kind).sort()).toEqual(['contact_confirmation', 'pass_voided', 'purchase_confirmation', 'purchase_confirmation']);
      expect(data.contactRequests).toEqual([{ name: 'Grace Hopper', email: 'grace+contact@example.com', createdAt: expect.any(String) }]);
      expect(JSON.stringify(data)).not.toContain(other.pass.id);

      const [audit] = await rows<{ action: string; subject: string; details: Record<string, unknown> }>(
        sql`select action, subject, details from staff_actions where action = 'buyer.export'`,
      );
      expect(audit).toEqual({
        action: 'buyer.export',
        subject: `the buyer of ${first.pass.id}, ${second.pass.id}`,
        details: { orderIds: [first.pass.id, second.pass.id], mails: 4, contactRequests: 1 },
      });
      expect(JSON.stringify(audit)).not.toMatch(/grace/i);
    });

    it('erases one mailbox everywhere at once, audited without the address, and the list and CSV say Erased', async () => {
      const first = await buy({ name: 'Grace Hopper', email: 'grace@example.com', eventName: 'Sunday League' });
      const tagged = await buy({ name: 'Grace Hopper', email: 'GRACE+tag@Example.com', eventName: 'Sunday League' });
      const other = await buy({ name: 'Ada Lovelace', email: 'ada@example.com', eventName: 'Sunday League' });
      await t.shop.app.inject({ method: 'POST', url: '/api/contact', payload: { name: 'Grace Hopper', email: 'grace@example.com' } });
      expect((await call('POST', `/api/admin/purchases/${first.pass.id}/resend-confirmation`)).statusCode).toBe(202);
      await recordQuarantine(t.database.db, { orderId: 'AAAAAAAAAA', reason: 'order_id_taken', record: purchaseRecord('AAAAAAAAAA', { name: 'Grace Hopper', email: 'grace+held@example.com' }) });
      const stats = (await call('GET', '/api/admin/stats')).json();
      // A purchase still in the spool (the database was away a moment ago) is stored, then erased with the rest.
      await fileSpool(join(t.shop.dataDir, 'spool')).write(purchaseRecord('BBBBBBBBBB', { name: 'Grace Hopper', email: 'grace@example.com' }));

      const response = await erase('Grace@example.com');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ passes: 3, mails: 5, contactRequests: 1, heldPurchases: 1 });
      expect(await purchase('BBBBBBBBBB')).toEqual({ name: '', email: '', amount: 300, erased: true });
      expect(await fileSpool(join(t.shop.dataDir, 'spool')).count()).toBe(0);

      for (const gone of [first, tagged]) expect(await purchase(gone.pass.id)).toEqual({ name: '', email: '', amount: 300, erased: true });
      expect((await purchase(other.pass.id))?.name).toBe('Ada Lovelace');
      const everything = JSON.stringify(
        await rows(sql`select (select json_agg(p) from purchases p) as p, (select json_agg(o) from outbox o) as o,
                              (select json_agg(c) from contact_requests c) as c, (select json_agg(q) from quarantined_purchases q) as q,
                              (select json_agg(s) from staff_actions s) as s`),
      );
      expect(everything).not.toMatch(/grace|Hopper/i);
      // The spooled pass counts now: it was sold before the erasure.
      expect((await call('GET', '/api/admin/stats')).json()).toMatchObject({ totalPurchases: stats.totalPurchases + 1 });

      const [audit] = await rows<{ subject: string; details: Record<string, unknown> }>(sql`select subject, details from staff_actions where action = 'buyer.erase'`);
      expect(audit?.details).toMatchObject({ orderIds: expect.arrayContaining([first.pass.id, tagged.pass.id, 'BBBBBBBBBB', 'AAAAAAAAAA']), passes: 3 });

      const list = (await call('GET', '/api/admin/purchases')).json().items;
      expect(list.filter((item: { erasedAt: string | null }) => item.erasedAt).map((item: { orderId: string }) => item.orderId).sort()).toEqual(
        [first.pass.id, tagged.pass.id, 'BBBBBBBBBB'].sort(),
      );
      const records = await csv();
      expect(records.filter((record) => record[0] === 'Erased' && record[1] === 'Erased')).toHaveLength(3);
      // The address is gone: a second export finds nothing, and a second erasure erases nothing.
      const after = (await exportOf('grace@example.com')).json();
      expect(after).toMatchObject({ purchases: [], mails: [], contactRequests: [], heldPurchases: [] });
      expect((await erase('grace@example.com')).json()).toEqual({ passes: 0, mails: 0, contactRequests: 0, heldPurchases: 0 });
    });

    it('is for admins only, and refuses an address that is not one with a clear 400', async () => {
      await buy({ name: 'Grace Hopper', email: 'grace@example.com', eventName: 'Sunday League' });
      const staff = await staffSession(t.shop.app, t.database.db, 'door@example.com');
      for (const request of [exportOf, erase]) {
        const refused = await request('grace@example.com', staff);
        expect(refused.statusCode).toBe(403);
        expect(refused.body).not.toContain('Grace');
        const visitor = await t.shop.app.inject({ method: 'POST', url: '/api/admin/buyer-data/erase', payload: { email: 'grace@example.com' } });
        expect(visitor.statusCode).toBe(401);
        for (const [email, message] of [
          ['', 'Please enter the buyer’s email address'],
          ['not an address', 'Please enter a valid email address'],
          [`${'a'.repeat(250)}@example.com`, 'Email must be at most 254 characters long'],
        ]) {
          const bad = await request(email!);
          expect(bad.statusCode).toBe(400);
          expect(bad.json().error.message).toBe(message);
        }
        expect((await request({ toString: () => 'x' } as unknown as string)).statusCode).toBe(400);
      }
      expect((await purchase((await rows<{ order_id: string }>(sql`select order_id from purchases`))[0]!.order_id))?.name).toBe('Grace Hopper');
      expect(await rows(sql`select 1 from staff_actions where action like 'buyer.%'`)).toEqual([]);
    });
  });
});
