import { sql } from 'drizzle-orm';
import { parse } from 'csv-parse/sync';
import { beforeEach, describe, expect, it } from 'vitest';
import { cookieFrom, doorStaffSession, signIn, signUp, staffSession } from '../test-support/staff.ts';
import { changeStaffRole } from './staff.ts';
import { shopPerTest } from '../test-support/test-app.ts';
import { testBackends, testRows } from '../test-support/test-databases.ts';


describe.each(testBackends())('admin API on $name', (backend) => {
  let adminCookie: string;

  const t = shopPerTest(backend, { SHOP_TIMEZONE: 'America/New_York', AUTH_RATE_LIMIT_PER_MINUTE: '0' });
  beforeEach(async () => {
    adminCookie = await staffSession(t.shop.app, t.database.db, 'boss@example.com', { admin: true });
  });

  const get = (url: string, cookie = adminCookie) => t.shop.app.inject({ method: 'GET', url, headers: { cookie } });

  /** Stores purchases directly, with chosen times, as the shop would have. */
  async function seed(rows: Array<{ name?: string; email?: string; event?: string; type?: string; at: string; order: string }>) {
    for (const row of rows) {
      await testRows(
        t.database.db,
        sql`insert into purchases (name, email, event_name, event_type, amount, order_id, created_at)
            values (${row.name ?? 'Ada Lovelace'}, ${row.email ?? 'ada@example.com'}, ${row.event ?? 'City Derby'},
                    ${row.type ?? 'general'}, 300, ${row.order}, ${row.at}::timestamptz)`,
      );
    }
  }

  // Every admin route's 401/403/200 is walked in admin-authorisation.test.ts.
  describe('authorisation', () => {
    it('rejects a forged session cookie', async () => {
      const forged = adminCookie.replace(/=([^;]{4})/, '=XXXX');
      expect((await get('/api/admin/stats', forged)).statusCode).toBe(401);
    });
  });

  describe('stats', () => {
    it('shows zeros and no popular sport when nothing was sold', async () => {
      expect((await get('/api/admin/stats')).json()).toEqual({
        totalPurchases: 0,
        totalRevenueCents: 0,
        mostPopularSport: null,
        todaysSales: 0,
        voidedPasses: 0,
        refundedCents: 0,
      });
    });

    it('counts purchases, revenue, the most popular sport and today in the shop time zone', async () => {
      const [now] = await testRows<{ midnight: string }>(
        t.database.db,
        sql`select (date_trunc('day', now() at time zone 'America/New_York') at time zone 'America/New_York')::text as midnight`,
      );
      const midnight = new Date(now!.midnight);
      const before = new Date(midnight.getTime() - 60_000).toISOString();
      const after = new Date(midnight.getTime() + 60_000).toISOString();
      await seed([
        { at: before, order: 'A000000001', type: 'football' },
        { at: before, order: 'A000000002', type: 'football' },
        { at: after, order: 'A000000003', type: 'general' },
      ]);
      expect((await get('/api/admin/stats')).json()).toEqual({
        totalPurchases: 3,
        totalRevenueCents: 900,
        mostPopularSport: 'football',
        todaysSales: 1,
        voidedPasses: 0,
        refundedCents: 0,
      });
    });

    it('keeps its running totals equal to the rows through concurrent sales, corrections and deletions', async () => {
      const sales = await Promise.all(
        Array.from({ length: 30 }, (_, index) =>
          t.shop.app.inject({
            method: 'POST',
            url: '/api/purchases',
            payload: { name: `Buyer ${index}`, email: `buyer${index}@example.com`, eventName: 'City Derby' },
          }),
        ),
      );
      expect(sales.every((sale) => sale.statusCode === 201)).toBe(true);
      await seed([{ at: '2026-11-20T12:00:00Z', order: 'D000000001', type: 'football' }]);
      await testRows(t.database.db, sql`update purchases set event_type = 'football', amount = 500 where order_id = 'D000000001'`);
      await testRows(t.database.db, sql`delete from purchases where name in ('Buyer 0', 'Buyer 1')`);
      const [truth] = await testRows<{ n: number; cents: number }>(
        t.database.db,
        sql`select count(*)::int as n, sum(amount)::int as cents from purchases`,
      );
      expect(truth).toEqual({ n: 29, cents: 28 * 300 + 500 });
      expect((await get('/api/admin/stats')).json()).toMatchObject({
        totalPurchases: 29,
        totalRevenueCents: 28 * 300 + 500,
        mostPopularSport: 'general',
      });
    });
  });

  describe('purchase list', () => {
    it('pages newest first by keyset without losing or repeating rows that share a time', async () => {
      const at = '2026-11-20T12:00:00.000Z';
      await seed(Array.from({ length: 7 }, (_, index) => ({ at, order: `B00000000${index}`, name: `Buyer ${index}` })));
      await seed([{ at: '2026-11-21T12:00:00.000Z', order: 'C000000000', name: 'Newest' }]);
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: { items: Array<{ orderId: string }>; nextCursor: string | null } = (
          await get(`/api/admin/purchases?limit=3${cursor ? `&cursor=${cursor}` : ''}`)
        ).json();
        seen.push(...page.items.map((item: { orderId: string }) => item.orderId));
        cursor = page.nextCursor;
      } while (cursor);
      expect(seen[0]).toBe('C000000000');
      expect(seen).toHaveLength(8);
      expect(new Set(seen).size).toBe(8);
    });

    it('returns the spec fields of each purchase', async () => {
      await seed([{ at: '2026-11-20T12:00:00.000Z', order: 'D000000001' }]);
      const { items, nextCursor } = (await get('/api/admin/purchases')).json();
      expect(nextCursor).toBeNull();
      expect(items).toEqual([
        {
          id: expect.any(Number),
          name: 'Ada Lovelace',
          email: 'ada@example.com',
          eventName: 'City Derby',
          eventType: 'general',
          amountCents: 300,
          orderId: 'D000000001',
          createdAt: '2026-11-20T12:00:00.000Z',
          voidedAt: null,
          refundedCents: 0,
          refundPending: false,
          erasedAt: null,
        },
      ]);
    });

    it('searches by name, email, event or order ID', async () => {
      await seed([
        { at: '2026-11-20T12:00:00Z', order: 'E000000001', name: 'Grace Hopper', email: 'grace@navy.mil', event: 'Cup Final' },
        { at: '2026-11-20T12:01:00Z', order: 'E000000002', name: 'Alan Turing', email: 'alan@example.com', event: 'Derby 100%' },
      ]);
      const orders = async (q: string) =>
        (await get(`/api/admin/purchases?q=${encodeURIComponent(q)}`)).json().items.map((item: { orderId: string }) => item.orderId);
      expect(await orders('grace')).toEqual(['E000000001']);
      expect(await orders('EXAMPLE.COM')).toEqual(['E000000002']);
      expect(await orders('cup fin')).toEqual(['E000000001']);
      expect(await orders('e000000002')).toEqual(['E000000002']);
      expect(await orders('100%')).toEqual(['E000000002']);
      expect(await orders('%')).toEqual(['E000000002']);
      expect(await orders('nobody')).toEqual([]);
    });

    it('answers 400 for a bad limit or cursor', async () => {
      expect((await get('/api/admin/purchases?limit=0')).statusCode).toBe(400);
      expect((await get('/api/admin/purchases?limit=201')).statusCode).toBe(400);
      expect((await get('/api/admin/purchases?cursor=not-a-cursor')).statusCode).toBe(400);
    });

    it.each([
      ['an impossible day', '2026-02-30T12:00:00.000000Z|1'],
      ['year zero', '0000-01-01T00:00:00.000000Z|1'],
      ['month 13', '2026-13-01T00:00:00.000000Z|1'],
      ['hour 24', '2026-01-01T24:00:00.000000Z|1'],
      ['an id past the safe integers', '2026-01-01T00:00:00.000000Z|99999999999999999'],
      ['a third part', '2026-01-01T00:00:00.000000Z|1|2'],
      ['a NUL', '2026-01-01T00:00:00.000000Z\u0000|1'],
    ])('answers 400, not 500, to a cursor with %s', async (_label, decoded) => {
      const response = await get(`/api/admin/purchases?cursor=${Buffer.from(decoded).toString('base64url')}`);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.message).toBe('cursor: not a cursor this list gave out');
    });

    it.each(['Ada%00', '%00', 'A%01B', '%ED%A0%80x'])('answers 400, not 500, to control characters in the search %s', async (q) => {
      const response = await get(`/api/admin/purchases?q=${q}`);
      expect(response.statusCode).toBeLessThan(500);
      if (q !== '%ED%A0%80x') {
        expect(response.statusCode).toBe(400);
        expect(response.json().error.message).toBe('q: the search may not contain control characters or broken characters');
      }
    });
  });

  describe('CSV export', () => {
    it('streams every purchase with the spec columns, a dated file name and no caching', async () => {
      await seed([
        { at: '2026-11-20T12:00:00.000Z', order: 'F000000001', name: 'Ada Lovelace' },
        { at: '2026-11-21T12:00:00.000Z', order: 'F000000002', name: 'Grace Hopper', type: 'football' },
      ]);
      const response = await get('/api/admin/purchases.csv');
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['content-disposition']).toMatch(/^attachment; filename="skippass-purchases-\d{4}-\d{2}-\d{2}\.csv"$/);
      expect(response.body.split('\n')[0]).toBe('Full Name,Email,Event,Sport,Amount,Order ID,Purchase Date');
      expect(parse(response.body, { columns: true })).toEqual([
        {
          'Full Name': 'Grace Hopper',
          Email: 'ada@example.com',
          Event: 'City Derby',
          Sport: 'football',
          Amount: '3.00',
          'Order ID': 'F000000002',
          'Purchase Date': '2026-11-21T12:00:00.000Z',
        },
        expect.objectContaining({ 'Full Name': 'Ada Lovelace', 'Order ID': 'F000000001' }),
      ]);
    });

    it('quotes per RFC 4180 and neutralises cells a spreadsheet would run as formulas', async () => {
      const hostile = [
        '=HYPERLINK("http://evil.example","click")',
        '+1+1',
        '-2+3',
        '@SUM(A1)',
        '\tTabbed',
        '\rReturned',
        'Comma, "Quoted"\nNewline',
      ];
      await seed(hostile.map((name, index) => ({ at: `2026-11-20T12:0${index}:00Z`, order: `ABCDEF000${index}`, name })));
      await seed([{ at: '2026-11-20T13:00:00Z', order: 'ABCDEF0100', name: 'Safe Name', email: '=x@example.com', event: '+Cup', type: '@general' }]);
      const records: string[][] = parse((await get('/api/admin/purchases.csv')).body, { from_line: 2 });
      expect(records[0]).toEqual(['Safe Name', `'=x@example.com`, `'+Cup`, `'@general`, '3.00', 'ABCDEF0100', '2026-11-20T13:00:00.000Z']);
      const names = records.slice(1).map((record) => record[0]).reverse();
      expect(names).toEqual([
        `'=HYPERLINK("http://evil.example","click")`,
        `'+1+1`,
        `'-2+3`,
        `'@SUM(A1)`,
        `'\tTabbed`,
        `'\rReturned`,
        'Comma, "Quoted"\nNewline',
      ]);
    });

    it('writes the same bytes on every database: quoted only where needed, one record per line', async () => {
      await seed([
        { at: '2026-11-20T12:00:00.5Z', order: 'ABCDEF0001', name: 'Comma, "Quoted"', event: 'Cup Final' },
        { at: '2026-11-21T09:30:00Z', order: 'ABCDEF0002', name: '=1+1', email: 'grace@example.com' },
      ]);
      expect((await get('/api/admin/purchases.csv')).body).toBe(
        'Full Name,Email,Event,Sport,Amount,Order ID,Purchase Date\n' +
          `'=1+1,grace@example.com,City Derby,general,3.00,ABCDEF0002,2026-11-21T09:30:00.000Z\n` +
          '"Comma, ""Quoted""",ada@example.com,Cup Final,general,3.00,ABCDEF0001,2026-11-20T12:00:00.500Z\n',
      );
    });

    it('exports only the header when there is nothing', async () => {
      expect((await get('/api/admin/purchases.csv')).body).toBe('Full Name,Email,Event,Sport,Amount,Order ID,Purchase Date\n');
    });

    it('exports more rows than one read batch, each once, newest first', async () => {
      const total = 4500;
      await testRows(
        t.database.db,
        sql`insert into purchases (name, email, event_name, event_type, amount, order_id, created_at)
            select 'Buyer ' || i, 'buyer' || i || '@example.com', 'City Derby', 'general', 300,
                   lpad(upper(to_hex(i)), 10, '0'), timestamptz '2026-11-01T00:00:00Z' + make_interval(secs => i / 3)
            from generate_series(1, ${total}) as i`,
      );
      const records: string[][] = parse((await get('/api/admin/purchases.csv')).body, { from_line: 2 });
      expect(records).toHaveLength(total);
      expect(new Set(records.map((record) => record[5])).size).toBe(total);
      expect(records[0]![0]).toBe(`Buyer ${total}`);
      expect(records.at(-1)![0]).toBe('Buyer 1');
    });
  });

  describe('outbox', () => {
    it('lists recent messages with subject, status, tries and last error, and retries a failed one', async () => {
      await t.shop.app.inject({ method: 'POST', url: '/api/contact', payload: { name: 'Grace', email: 'grace@example.com' } });
      await testRows(t.database.db, sql`update outbox set status = 'failed', attempts = 5, last_error = 'Mailbox unavailable' where kind = 'contact_confirmation'`);
      const { items } = (await get('/api/admin/outbox')).json();
      const contact = items.find((item: { kind: string }) => item.kind === 'contact_confirmation');
      expect(contact).toMatchObject({
        recipient: 'grace@example.com',
        subject: 'Your SkipPass passes',
        status: 'failed',
        attempts: 5,
        lastError: 'Mailbox unavailable',
      });
      const retry = await t.shop.app.inject({ method: 'POST', url: `/api/admin/outbox/${contact.id}/retry`, headers: { cookie: adminCookie } });
      expect(retry.statusCode).toBe(200);
      const [row] = await testRows<{ status: string; attempts: number }>(t.database.db, sql`select status, attempts from outbox where id = ${contact.id}`);
      expect(row).toEqual({ status: 'pending', attempts: 0 });

      const again = await t.shop.app.inject({ method: 'POST', url: `/api/admin/outbox/${contact.id}/retry`, headers: { cookie: adminCookie } });
      expect(again.statusCode).toBe(409);
      const missing = await t.shop.app.inject({ method: 'POST', url: '/api/admin/outbox/999999/retry', headers: { cookie: adminCookie } });
      expect(missing.statusCode).toBe(404);
    });
  });

  // ADR 0028: the Staff tab grants and revokes door staff and admin.
  describe('staff roles', () => {
    const idOf = async (email: string) =>
      (await testRows<{ id: string }>(t.database.db, sql`select id from auth_users where email = ${email}`))[0]!.id;
    const setRole = (id: string, role: string, cookie = adminCookie) =>
      t.shop.app.inject({ method: 'PUT', url: `/api/admin/staff/${encodeURIComponent(id)}/role`, headers: { cookie }, payload: { role } });
    const roleChanges = () =>
      testRows<{ actor: string; subject: string; details: unknown }>(
        t.database.db,
        sql`select actor, subject, details from staff_actions where action = 'staff.role' order by id`,
      );
    const sessionsOf = async (email: string) =>
      (await testRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from auth_sessions where user_id = (select id from auth_users where email = ${email})`))[0]!.n;

    it('lists accounts by email with whether they verified it and their role, a page at a time, searched by email', async () => {
      await doorStaffSession(t.shop.app, t.database.db, 'door@example.com');
      await signUp(t.shop.app, 'new@example.com');
      const all = await get('/api/admin/staff');
      expect(all.statusCode).toBe(200);
      expect(all.json()).toEqual({
        items: [
          { id: expect.any(String), email: 'boss@example.com', emailVerified: true, role: 'admin' },
          { id: expect.any(String), email: 'door@example.com', emailVerified: true, role: 'door' },
          { id: expect.any(String), email: 'new@example.com', emailVerified: false, role: 'user' },
        ],
        nextCursor: null,
      });
      const first = (await get('/api/admin/staff?limit=2')).json();
      expect(first.items.map((account: { email: string }) => account.email)).toEqual(['boss@example.com', 'door@example.com']);
      const second = (await get(`/api/admin/staff?limit=2&cursor=${first.nextCursor}`)).json();
      expect(second).toEqual({ items: [expect.objectContaining({ email: 'new@example.com' })], nextCursor: null });
      expect((await get('/api/admin/staff?q=DOOR')).json().items).toEqual([expect.objectContaining({ email: 'door@example.com' })]);
      expect((await get('/api/admin/staff?q=%25')).json().items).toEqual([]);
      // Hostile paging and search: a clear 400, never a 500.
      for (const url of ['/api/admin/staff?cursor=not-a-cursor', `/api/admin/staff?cursor=${Buffer.from('a\u0000b').toString('base64url')}`, '/api/admin/staff?q=%00', '/api/admin/staff?limit=0']) {
        const refused = await get(url);
        expect(refused.statusCode, url).toBe(400);
        expect(refused.json().error.code, url).toMatch(/^(invalid_request|validation_failed)$/);
      }
    });

    it('grants door staff and admin, audited with the role before and after', async () => {
      await staffSession(t.shop.app, t.database.db, 'ann@example.com');
      const ann = await idOf('ann@example.com');
      const granted = await setRole(ann, 'door');
      expect(granted.statusCode).toBe(200);
      expect(granted.json()).toEqual({ id: ann, email: 'ann@example.com', emailVerified: true, role: 'door' });
      expect((await setRole(ann, 'admin')).json().role).toBe('admin');
      // The same role again changes nothing and records nothing.
      expect((await setRole(ann, 'admin')).statusCode).toBe(200);
      expect(await roleChanges()).toEqual([
        { actor: 'boss@example.com', subject: 'ann@example.com', details: { before: 'user', after: 'door' } },
        { actor: 'boss@example.com', subject: 'ann@example.com', details: { before: 'door', after: 'admin' } },
      ]);
    });

    it('revokes at once: the role is read per request, and the account is signed out everywhere', async () => {
      const doorCookie = await doorStaffSession(t.shop.app, t.database.db, 'door@example.com');
      // A second device of the same person, signed in too.
      const phone = cookieFrom((await signIn(t.shop.app, 'door@example.com')).headers['set-cookie']);
      for (const cookie of [doorCookie, phone]) {
        expect((await t.shop.app.inject({ method: 'GET', url: '/api/admin/door/events', headers: { cookie } })).statusCode).toBe(200);
      }
      expect(await sessionsOf('door@example.com')).toBe(2);

      const revoked = await setRole(await idOf('door@example.com'), 'user');
      expect(revoked.json().role).toBe('user');
      expect(await sessionsOf('door@example.com')).toBe(0);
      for (const cookie of [doorCookie, phone]) {
        const after = await t.shop.app.inject({ method: 'GET', url: '/api/admin/door/events', headers: { cookie } });
        expect(after.statusCode).toBe(401);
        expect(after.json().error.code).toBe('unauthenticated');
      }
      const me = await t.shop.app.inject({ method: 'GET', url: '/api/me', headers: { cookie: doorCookie } });
      expect(me.json()).toEqual({ user: null, role: 'user', isAdmin: false });
      expect(await roleChanges()).toEqual([{ actor: 'boss@example.com', subject: 'door@example.com', details: { before: 'door', after: 'user' } }]);
    });

    it('refuses an admin removing their own admin role, and staff rights for an unverified account', async () => {
      const boss = await idOf('boss@example.com');
      for (const role of ['door', 'user']) {
        const refused = await setRole(boss, role);
        expect(refused.statusCode, role).toBe(409);
        expect(refused.json().error).toEqual({ code: 'own_admin_role', message: 'You cannot remove your own admin role. Ask another admin to do it.' });
      }
      expect((await get('/api/admin/stats')).statusCode).toBe(200);

      await signUp(t.shop.app, 'stranger@example.com');
      const stranger = await idOf('stranger@example.com');
      for (const role of ['door', 'admin']) {
        const refused = await setRole(stranger, role);
        expect(refused.statusCode, role).toBe(409);
        expect(refused.json().error.code).toBe('email_not_verified');
      }
      // Taking rights away needs no verified address.
      expect((await setRole(stranger, 'user')).statusCode).toBe(200);

      // Another admin may demote this one: the shop still has an admin.
      const otherCookie = await staffSession(t.shop.app, t.database.db, 'second@example.com', { admin: true });
      expect((await setRole(boss, 'door', otherCookie)).json().role).toBe('door');
      expect((await get('/api/admin/stats')).statusCode).toBe(401);
      expect(await roleChanges()).toEqual([{ actor: 'second@example.com', subject: 'boss@example.com', details: { before: 'admin', after: 'door' } }]);
    });

    it('keeps an admin when two admins demote each other at the same moment', async () => {
      const otherCookie = await staffSession(t.shop.app, t.database.db, 'second@example.com', { admin: true });
      const [boss, second] = [await idOf('boss@example.com'), await idOf('second@example.com')];
      const answers = await Promise.all([setRole(second, 'door'), setRole(boss, 'door', otherCookie)]);
      // One wins; the other finds itself signed out (401: the demotion ended its sessions) or no
      // longer an admin (403), or, having passed the check before the other change, that it would leave none (409).
      expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(1);
      for (const answer of answers.filter((answer) => answer.statusCode !== 200)) expect([401, 403, 409]).toContain(answer.statusCode);
      const [admins] = await testRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from profiles where role = 'admin'`);
      expect(admins!.n).toBe(1);
      // The loser of such a race, had it passed its role check first: refused, the admin kept.
      const [last] = await testRows<{ id: string }>(t.database.db, sql`select user_id as id from profiles where role = 'admin'`);
      const raced = await changeStaffRole(t.database.db, { account: { userId: last!.id }, role: 'user', actor: { id: 'demoted-meanwhile', email: 'x@example.com' } });
      expect(raced).toEqual({ kind: 'last_admin' });
    });

    it('answers bad ids and roles with a clear 4xx, and changes nothing', async () => {
      await staffSession(t.shop.app, t.database.db, 'ann@example.com');
      const ann = await idOf('ann@example.com');
      const cases: Array<[string, unknown, number]> = [
        ['nobody', { role: 'door' }, 404],
        ['a%00b', { role: 'door' }, 400],
        ['x'.repeat(101), { role: 'door' }, 414],
        [ann, { role: 'owner' }, 400],
        [ann, { role: 'door', extra: true }, 400],
        [ann, { role: ['door'] }, 400],
        [ann, {}, 400],
      ];
      for (const [id, payload, status] of cases) {
        const response = await t.shop.app.inject({ method: 'PUT', url: `/api/admin/staff/${id}/role`, headers: { cookie: adminCookie }, payload: payload as object });
        expect(response.statusCode, `${id.slice(0, 10)} ${JSON.stringify(payload)}: ${response.body}`).toBe(status);
        expect(response.json().error.message).toEqual(expect.any(String));
      }
      expect(await roleChanges()).toEqual([]);
    });
  });
});
