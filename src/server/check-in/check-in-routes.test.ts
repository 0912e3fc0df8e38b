import { codeInLink } from '../../core/pass-code-format.ts';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { derby, eventShopPerTest } from '../test-support/event-shop.ts';
import { testBackends, testRows } from '../test-support/test-databases.ts';

describe.each(testBackends())('check-ins on $name', (backend) => {
  const { t, call, createEvent, buy, checkIn } = eventShopPerTest(backend);

  describe('check-in', () => {
    it('admits a signed pass once per event and then says when it was used', async () => {
      const event = await createEvent();
      const { pass, passUrl } = await buy();
      expect(passUrl).toMatch(new RegExp(`^http://shop\\.test/pass/${pass.id}\\.[A-Za-z0-9_-]{86}$`));

      const first = (await checkIn(event.id, passUrl)).json();
      expect(first).toEqual({ result: 'valid', orderId: pass.id, name: 'Ada Lovelace', eventName: 'Sunday League', checkedInAt: expect.any(String) });
      const second = (await checkIn(event.id, passUrl)).json();
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
      const { pass, passUrl } = await buy();
      const code = codeInLink(new URL(passUrl))!;
      const otherId = pass.id === 'ABCDEF0123' ? 'ABCDEF0124' : 'ABCDEF0123';
      for (const forged of [`${otherId}.${code.split('.')[1]}`, `${pass.id}.${'A'.repeat(86)}`, 'not a pass', 'FFFFFFFFFF']) {
        expect((await checkIn(event.id, forged)).json(), forged).toEqual({ result: 'invalid' });
      }
      expect(await t.database.count('purchases')).toBe(1);
      const [admitted] = await testRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from check_ins`);
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
      const [admitted] = await testRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from check_ins`);
      expect(admitted!.n).toBe(0);
      // Typing stays possible for a cracked screen: the real ID, typed, is admitted with the name to check.
      expect((await checkIn(event.id, pass.id.toLowerCase())).json()).toMatchObject({ result: 'valid', name: 'Ada Lovelace' });
    });

    it('admits one of many doors scanning the same pass at the same moment', async () => {
      const event = await createEvent();
      const { passUrl } = await buy();
      const results = await Promise.all(Array.from({ length: 8 }, () => checkIn(event.id, passUrl)));
      const outcomes = results.map((response) => response.json().result).sort();
      expect(outcomes).toEqual(['already_used', ...Array(6).fill('already_used'), 'valid'].sort());
      const [admitted] = await testRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from check_ins`);
      expect(admitted!.n).toBe(1);
    });

    it("admits a pass bought on one event's page at that event only", async () => {
      const derbyEvent = await createEvent();
      const final = await createEvent({ ...derby, title: 'Cup Final' });
      const { passUrl } = await buy({ name: 'Grace Hopper', email: 'grace@example.com', eventId: derbyEvent.id });
      expect((await checkIn(final.id, passUrl)).json()).toEqual({ result: 'invalid' });
      expect((await checkIn(derbyEvent.id, passUrl)).json().result).toBe('valid');
    });

    it('answers 404 for an unknown event and 400 for a malformed request', async () => {
      expect((await checkIn(999999, 'ABCDEF0123')).statusCode).toBe(404);
      expect((await call('POST', '/api/admin/check-ins', { eventId: 'x', code: 1 })).statusCode).toBe(400);
    });
  });
});
