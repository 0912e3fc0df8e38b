import { sql } from 'drizzle-orm';
import type { HTTPMethods } from 'fastify';
import { beforeEach, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../core/api/index.ts';
import { doorStaffSession, setStaffRole, staffSession } from '../test-support/staff.ts';
import { shopPerTest } from '../test-support/test-app.ts';
import { testBackends, testRows } from '../test-support/test-databases.ts';

interface Route {
  method: HTTPMethods;
  url: string;
}

/** The API's documentation page (@fastify/swagger-ui) and its files, and the OpenAPI document: not endpoints. */
const isDocsRoute = (url: string) => url === '/api/docs' || url.startsWith('/api/docs/') || url === '/api/openapi.json';

const isAdminRoute = (url: string) => url === '/api/admin' || url.startsWith('/api/admin/');

/** A GET endpoint answers HEAD too (Fastify adds it), behind the same checks. */
const routesOf = (endpoints: typeof ENDPOINTS): Route[] =>
  endpoints.flatMap((endpoint) => [
    { method: endpoint.method, url: endpoint.path },
    ...(endpoint.method === 'GET' ? [{ method: 'HEAD' as const, url: endpoint.path }] : []),
  ]);
/** Every endpoint the contract says is for signed-in staff, door staff or admins; the door's; and the ones for admins only. */
const signedInOnly = ENDPOINTS.filter((endpoint) => endpoint.access !== 'public');
const doorOnly = ENDPOINTS.filter((endpoint) => endpoint.access === 'door');
const adminOnly = ENDPOINTS.filter((endpoint) => endpoint.access === 'admin');
/** Those the server checks itself (better-auth checks its own, and answers its own 401). */
const checkedHere = signedInOnly.filter((endpoint) => endpoint.sessionCheckedBy === undefined);

/** The door devices of the admin and of the door staff member (registered in beforeEach). */
const ADMIN_DEVICE = 'device-0001';
const DOOR_DEVICE = 'device-door-1';

const derby = { title: 'City Derby', date: '2037-12-05', time: '19:30', location: 'Riverside Stadium', price: '12.50' };

/**
 * The authorisation matrix of issue 4, walked over the contract (issue 20: who may call an endpoint
 * is said once, in its `access`): every endpoint that is not public answers 401 to a visitor, every
 * admin endpoint 403 to a signed-in non-admin, and an admin is let through.
 */
describe.each(testBackends())('admin authorisation on $name', (backend) => {
  let routes: Route[];
  let admin: string;
  let door: string;
  let nonAdmins: Record<string, string>;
  /** Real ids, so an admin's request reaches the handler and succeeds. */
  let ids: { event: number; outbox: number; code: string; account: string };

  // Registered before shopPerTest, so each test's app reports its routes into a fresh list as it starts.
  beforeEach(() => {
    routes = [];
  });
  const t = shopPerTest(
    backend,
    { AUTH_RATE_LIMIT_PER_MINUTE: '0', PUBLIC_URL: 'http://shop.test' },
    {
      onRoute: (route) => {
        for (const method of [route.method].flat()) routes.push({ method, url: route.url });
      },
    },
  );
  beforeEach(async () => {
    admin = await staffSession(t.shop.app, t.database.db, 'boss@example.com', { admin: true });
    door = await doorStaffSession(t.shop.app, t.database.db, 'door@example.com');
    nonAdmins = {
      'signed in, no profile': await staffSession(t.shop.app, t.database.db, 'staff@example.com'),
      "signed in, role 'user'": await staffSession(t.shop.app, t.database.db, 'user@example.com'),
    };
    await setStaffRole(t.database.db, 'user@example.com', 'user');
    // Each person's door device, registered to them (a device is bound to the person who registered it).
    for (const [cookie, deviceId] of [[admin, ADMIN_DEVICE], [door, DOOR_DEVICE]] as const) {
      const registered = await t.shop.app.inject({ method: 'POST', url: '/api/admin/door/device', headers: { cookie }, payload: { deviceId, label: 'Gate' } });
      expect(registered.statusCode, registered.body).toBe(200);
    }

    const event = await t.shop.app.inject({ method: 'POST', url: '/api/admin/events', headers: { cookie: admin }, payload: derby });
    const bought = await t.shop.app.inject({
      method: 'POST',
      url: '/api/purchases',
      payload: { name: 'Ada Lovelace', email: 'ada@example.com', eventName: 'City Derby' },
    });
    const [failed] = await testRows<{ id: number }>(
      t.database.db,
      sql`update outbox set status = 'failed' where id = (select min(id) from outbox) returning id::int as id`,
    );
    const [account] = await testRows<{ id: string }>(t.database.db, sql`select id from auth_users where email = 'staff@example.com'`);
    ids = { event: event.json().id, outbox: Number(failed!.id), code: bought.json().passUrl, account: account!.id };
  });

  /**
   * A valid request for each route, so the answer shows the guard and not a validation error.
   * Routes without an entry get their params as 1 and an empty JSON body.
   */
  function requestFor({ method, url }: Route, deviceId: string = ADMIN_DEVICE): { url: string; payload?: object; known: boolean } {
    const withId = (id: number) => url.replace(':id', String(id));
    const known: Record<string, { url: string; payload?: object }> = {
      'GET /api/admin/purchases': { url: '/api/admin/purchases?limit=10&q=Ada' },
      'POST /api/admin/events': { url, payload: derby },
      'PUT /api/admin/events/:id': { url: withId(ids.event), payload: { ...derby, time: '20:00' } },
      'GET /api/admin/events/:id/check-ins': { url: withId(ids.event) },
      'HEAD /api/admin/events/:id/check-ins': { url: withId(ids.event) },
      'POST /api/admin/check-ins': { url, payload: { eventId: ids.event, code: ids.code } },
      'POST /api/admin/outbox/:id/retry': { url: withId(ids.outbox), payload: {} },
      'GET /api/admin/door/pack': { url: `${url}?eventId=${ids.event}&deviceId=${deviceId}` },
      'HEAD /api/admin/door/pack': { url: `${url}?eventId=${ids.event}&deviceId=${deviceId}` },
      'POST /api/admin/door/device': { url, payload: { deviceId, label: 'Gate A' } },
      'POST /api/admin/door/scans': { url, payload: { deviceId, label: 'Gate A', eventId: ids.event, scans: [] } },
      'PUT /api/admin/staff/:id/role': { url: url.replace(':id', ids.account), payload: { role: 'door' } },
      // better-auth reads the body before the session: a whole one, so the answer is about the session.
      'POST /api/auth/change-password': { url, payload: { currentPassword: 'correct horse 1', newPassword: 'battery staple 2', revokeOtherSessions: false } },
      'POST /api/auth/verify-password': { url, payload: { password: 'correct horse 1' } },
    };
    const sample = known[`${method} ${url}`];
    if (sample) return { ...sample, known: true };
    const hasBody = method !== 'GET' && method !== 'HEAD';
    return { url: url.replace(/:[A-Za-z]+/g, '1'), ...(hasBody ? { payload: {} } : {}), known: !url.includes(':') && !hasBody };
  }

  const send = (route: Route, cookie?: string, deviceId?: string) => {
    const { url, payload } = requestFor(route, deviceId);
    return t.shop.app.inject({ method: route.method, url, headers: cookie ? { cookie } : {}, ...(payload ? { payload } : {}) });
  };

  it('answers 401 to visitors on every endpoint that is not public, 403 to accounts without the role, and lets admins through', async () => {
    // The walk covers the endpoints this test was written against (and any added since).
    expect(routesOf(adminOnly).map((route) => `${route.method} ${route.url}`)).toEqual(
      expect.arrayContaining([
        'GET /api/admin/purchases',
        'GET /api/admin/purchases.csv',
        'GET /api/admin/stats',
        'GET /api/admin/outbox',
        'POST /api/admin/outbox/:id/retry',
        'GET /api/admin/events',
        'POST /api/admin/events',
        'PUT /api/admin/events/:id',
        'GET /api/admin/door/devices',
        'GET /api/admin/staff',
        'PUT /api/admin/staff/:id/role',
      ]),
    );
    // Every one of them is registered: the contract's access is what the server checks.
    const registered = new Set(routes.map((route) => `${route.method} ${route.url}`));
    for (const route of routesOf(signedInOnly)) expect(registered, `${route.method} ${route.url}`).toContain(`${route.method} ${route.url}`);

    for (const endpoint of signedInOnly) {
      for (const route of routesOf([endpoint])) {
        const name = `${route.method} ${route.url}`;
        const anonymous = await send(route);
        expect(anonymous.statusCode, `${name} without a session`).toBe(401);
        if (route.method !== 'HEAD' && endpoint.sessionCheckedBy === undefined) {
          expect(anonymous.json().error, name).toEqual({ code: 'unauthenticated', message: 'Please sign in.' });
        }
      }
    }
    // No staff rights: refused every admin endpoint and every door endpoint, each in its own words.
    const refusals = [
      [adminOnly, "You don't have permission to access this page. Admin privileges are required."],
      [doorOnly, "You don't have permission to access this page. Door staff or admin privileges are required."],
    ] as const;
    for (const [endpoints, message] of refusals) {
      for (const route of routesOf(endpoints)) {
        const name = `${route.method} ${route.url}`;
        for (const [who, cookie] of Object.entries(nonAdmins)) {
          const refused = await send(route, cookie);
          expect(refused.statusCode, `${name} ${who}`).toBe(403);
          if (route.method !== 'HEAD') expect(refused.json().error, name).toEqual({ code: 'forbidden', message });
        }
      }
    }
    // Nothing a refused request asked for happened.
    const [checkIns] = await testRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from check_ins`);
    expect(checkIns!.n).toBe(0);

    for (const route of routesOf(checkedHere)) {
      const response = await send(route, admin);
      const name = `${route.method} ${route.url}`;
      expect([401, 403], `${name} as admin`).not.toContain(response.statusCode);
      expect(response.headers['cache-control'], `${name} as admin`).toBe('no-store');
      // A request this test knows to be valid succeeds, so the refusals above were the guard's.
      if (requestFor(route).known) expect(response.statusCode, `${name} as admin: ${response.body.slice(0, 200)}`).toBeLessThan(400);
    }
  });

  it('lets door staff use the door and nothing else: every admin endpoint answers them 403 (ADR 0028)', async () => {
    // The door is exactly these: choosing the event, admitting, the recent check-ins, registering the device, the pack and scan uploads.
    expect(routesOf(doorOnly).map((route) => `${route.method} ${route.url}`).sort()).toEqual(
      [
        'GET /api/admin/door/events',
        'HEAD /api/admin/door/events',
        'POST /api/admin/check-ins',
        'GET /api/admin/events/:id/check-ins',
        'HEAD /api/admin/events/:id/check-ins',
        'GET /api/admin/door/pack',
        'HEAD /api/admin/door/pack',
        'POST /api/admin/door/device',
        'POST /api/admin/door/scans',
      ].sort(),
    );
    for (const route of routesOf(adminOnly)) {
      const name = `${route.method} ${route.url}`;
      const refused = await send(route, door);
      expect(refused.statusCode, `${name} as door staff`).toBe(403);
      if (route.method !== 'HEAD') {
        expect(refused.json().error, name).toEqual({
          code: 'forbidden',
          message: "You don't have permission to access this page. Admin privileges are required.",
        });
      }
    }
    // Nothing a refused request asked for happened: no second event, no role given.
    const [counts] = await testRows<{ events: number; roles: number }>(
      t.database.db,
      sql`select (select count(*)::int from events) as "events", (select count(*)::int from profiles where role <> 'user') as "roles"`,
    );
    expect(counts).toEqual({ events: 1, roles: 2 });

    for (const route of routesOf(doorOnly)) {
      const name = `${route.method} ${route.url}`;
      const response = await send(route, door, DOOR_DEVICE);
      expect(response.statusCode, `${name} as door staff: ${response.body.slice(0, 200)}`).toBeLessThan(400);
      expect(response.headers['cache-control'], name).toBe('no-store');
    }
    // The door admitted the pass: a check-in, by the door staff member.
    const [checkIn] = await testRows<{ email: string }>(
      t.database.db,
      sql`select auth_users.email from check_ins join auth_users on auth_users.id = check_ins.staff_user_id`,
    );
    expect(checkIn).toEqual({ email: 'door@example.com' });
    // The door's own event list: what it needs to choose and count, not the sales figures.
    const events = await t.shop.app.inject({ method: 'GET', url: '/api/admin/door/events', headers: { cookie: door } });
    expect(events.json().items).toEqual([expect.objectContaining({ id: ids.event, title: 'City Derby', checkIns: 1 })]);
    expect(events.json().items[0]).not.toHaveProperty('sold');
    // Public endpoints stay public to them, and /api/me says who they are.
    expect((await t.shop.app.inject({ method: 'GET', url: '/api/events', headers: { cookie: door } })).statusCode).toBe(200);
    const me = await t.shop.app.inject({ method: 'GET', url: '/api/me', headers: { cookie: door } });
    expect(me.json()).toEqual({ user: { id: expect.any(String), email: 'door@example.com' }, role: 'door', isAdmin: false });
    // An admin may still use the door.
    const asAdmin = await t.shop.app.inject({ method: 'GET', url: '/api/admin/door/events', headers: { cookie: admin } });
    expect(asAdmin.statusCode).toBe(200);
  });

  it('refuses every admin write that comes from another site, before anything happens, and lets the shop\'s own pages through', async () => {
    const writes = routesOf(checkedHere).filter((route) => !['GET', 'HEAD', 'OPTIONS'].includes(route.method));
    expect(writes.map((route) => `${route.method} ${route.url}`)).toEqual(
      expect.arrayContaining(['POST /api/admin/events', 'PUT /api/admin/events/:id', 'POST /api/admin/check-ins', 'POST /api/admin/outbox/:id/retry']),
    );
    const foreign: Array<[string, Record<string, string>]> = [
      ['a foreign Origin', { origin: 'http://evil.test' }],
      ['the shop host on another port', { origin: 'http://shop.test:8080' }],
      ['the shop host over another scheme', { origin: 'https://shop.test' }],
      ['Origin: null', { origin: 'null' }],
      ['an unparsable Origin', { origin: 'not a url' }],
      ['a foreign Referer and no Origin', { referer: 'http://evil.test/page' }],
      ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
      ['a trusted Origin but Sec-Fetch-Site: cross-site', { origin: 'http://shop.test', 'sec-fetch-site': 'cross-site' }],
    ];
    for (const route of writes) {
      const { url, payload } = requestFor(route);
      for (const [label, headers] of foreign) {
        const response = await t.shop.app.inject({ method: route.method, url, headers: { cookie: admin, ...headers }, ...(payload ? { payload } : {}) });
        const name = `${route.method} ${route.url} with ${label}`;
        expect(response.statusCode, name).toBe(403);
        expect(response.json().error, name).toEqual({
          code: 'forbidden_origin',
          message: 'This request came from another site, so it was refused. Open the admin panel at its own address.',
        });
        expect(response.headers['cache-control'], name).toBe('no-store');
      }
    }
    // Nothing a refused request asked for happened: still the one event and no check-in.
    const [counts] = await testRows<{ events: number; checkIns: number; retried: number }>(
      t.database.db,
      sql`select (select count(*)::int from events) as "events", (select count(*)::int from check_ins) as "checkIns",
                 (select count(*)::int from outbox where status <> 'failed' and id = ${ids.outbox}) as "retried"`,
    );
    expect(counts).toEqual({ events: 1, checkIns: 0, retried: 0 });

    // PUBLIC_URL, the address the request came to (a club's LAN address), same-origin fetches and
    // clients that send no Origin at all (no browser, so no foreign page) still work.
    const allowed: Array<Record<string, string>> = [
      { origin: 'http://shop.test' },
      { origin: 'http://192.168.1.20:3000', host: '192.168.1.20:3000' },
      { origin: 'http://shop.test', 'sec-fetch-site': 'same-origin' },
      { referer: 'http://shop.test/admin' },
      {},
    ];
    for (const headers of allowed) {
      const response = await t.shop.app.inject({
        method: 'POST',
        url: '/api/admin/events',
        headers: { cookie: admin, ...headers },
        payload: derby,
      });
      expect(response.statusCode, JSON.stringify(headers)).toBe(201);
    }
    // A foreign page without the cookie is no threat to a session: it meets the usual 401.
    const anonymous = await t.shop.app.inject({ method: 'POST', url: '/api/admin/events', headers: { origin: 'http://evil.test' }, payload: derby });
    expect(anonymous.statusCode).toBe(401);
  });

  it('registers no /api route outside the contract, and every /api/admin endpoint is for door staff or admins only', () => {
    // A route the contract does not declare would escape its access check.
    const declared = new Set(routesOf(ENDPOINTS).map((route) => `${route.method} ${route.url}`));
    const others = routes.filter((route) => route.url.startsWith('/api/') && !isDocsRoute(route.url)).map((route) => `${route.method} ${route.url}`);
    expect(others.length).toBeGreaterThan(0);
    expect(others.filter((route) => !declared.has(route))).toEqual([]);
    // The path says what the contract says: /api/admin is staff only (the door's endpoints for door
    // staff and admins, the rest for admins), and nothing for door staff or admins lives elsewhere.
    const staffOnly = (access: string) => access === 'admin' || access === 'door';
    expect(ENDPOINTS.filter((endpoint) => isAdminRoute(endpoint.path) !== staffOnly(endpoint.access)).map((endpoint) => endpoint.path)).toEqual([]);
  });

  it('treats a failed profile read as no admin rights', async () => {
    await testRows(t.database.db, sql`alter table profiles rename to profiles_away`);
    try {
      const me = await t.shop.app.inject({ method: 'GET', url: '/api/me', headers: { cookie: admin } });
      expect(me.statusCode).toBe(200);
      expect(me.json()).toEqual({ user: { id: expect.any(String), email: 'boss@example.com' }, role: 'user', isAdmin: false });
      for (const url of ['/api/admin/stats', '/api/admin/purchases', '/api/admin/events', '/api/admin/door/events']) {
        expect((await t.shop.app.inject({ method: 'GET', url, headers: { cookie: admin } })).statusCode, url).toBe(403);
      }
    } finally {
      await testRows(t.database.db, sql`alter table profiles_away rename to profiles`);
    }
    expect((await t.shop.app.inject({ method: 'GET', url: '/api/admin/stats', headers: { cookie: admin } })).statusCode).toBe(200);
  });
});
